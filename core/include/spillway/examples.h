// Example graphs and graph generators: the teaching examples of the CLI and the playground,
// contest look-alikes of other sizes ("graphs never seen"), and seeded random graphs for
// property tests. Everything here is deterministic: the same name or parameters give the same
// text, byte for byte, on every platform (the random generator uses its own PRNG, never <random>'s
// distributions, whose results differ between standard libraries).
//
// Output format: the contest's graph document, {"Nodes": [...], "Edges": [[src, dst], ...]}, with
// an optional "Capacities" object when the example or the parameters set one. Every graph obeys:
// ids 0..N-1; ascending id is a topological order; each buffer has one ALLOC and one FREE (same
// Size and Type); edges ALLOC -> every user -> FREE; data edges producer -> consumer; no node's
// buffers of one memory exceed that memory's capacity (the given one, else the contest's).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph.h"

namespace spillway {

struct ExampleInfo {
    std::string name;         // what exampleGraphJson takes ("fits", "tiled-matmul", ...)
    std::string title;        // a short menu label
    std::string description;  // the lesson, in a sentence or three
};

// Menu order; the first is the default example (`spillway plan` without a graph).
std::vector<ExampleInfo> exampleList();

// The graph document of an example. Throws InputError naming the unknown name and the known ones.
std::string exampleGraphJson(const std::string& name);

// ---- Generators ----------------------------------------------------------------------------
// freesAtEnd: put every FREE after all operations, in BufId order, as the contest's graphs do
// (ascending id is then the worst order for memory); otherwise each FREE follows its buffer's
// last use (a compiler's natural order). capacities: written as "Capacities" when non-empty,
// and then used (instead of the contest's) to check that every node's buffers fit.
// Generators throw InputError for parameters out of range (sizes < 1, counts < 1, a graph over
// limits::kMaxNodes nodes, or a node whose buffers cannot fit its memory).

// C[m][n] = sum_k A[m][k] * B[k][n], tile by tile, loops m, n, k as in Matmul_Case0 (8, 8, 8
// gives its 4160 nodes): A and B tiles are copied into L1 once (COPY_IN, MTE2) and reused;
// each MATMUL (CUBE) reads its own L0A/L0B copies (MOVE, MTE1) and accumulates into the L0C tile
// of C, written out by COPY_OUT (FIXP).
struct MatmulParams {
    int m = 4, n = 4, k = 4;  // tiles of C (m x n) and of the reduction (k)
    Bytes tileBytes = 128;    // an A or B tile in L1, and its copy in L0A / L0B
    Bytes accBytes = 256;     // a C tile in L0C
    bool freesAtEnd = false;
    Capacities capacities;
};
std::string generateTiledMatmul(const MatmulParams& p);

// Flash attention with an online softmax, as in FlashAttention_Case0 (4 query blocks, 4 key/value
// blocks give 1716 nodes): for each key/value block j, for each query block i: S = Q_i K_j^T on
// the cube (headChunks MATMULs accumulating in L0C), softmax statistics on the vector unit in UB
// (ROWMAX, SUB, EXP, ROWSUM, COMPACT), P copied back to L1 (COPY, MTE3), O = P V_j (outChunks
// L0C tiles), and for j > 0 the running max / sum / output rescaled and merged (MAX, SUB, EXP,
// MUL, ADD). The last block normalises (REC, MUL) and writes O, the row sums and maxima out.
struct FlashAttentionParams {
    int queryBlocks = 4, kvBlocks = 4;
    int headChunks = 2;       // MATMULs accumulated per S tile
    int outChunks = 2;        // L0C tiles per output block
    Bytes tileBytes = 256;    // Q, K, V, P tiles in L1
    Bytes l0Bytes = 128;      // their copies in L0A / L0B
    Bytes accBytes = 256;     // S and O tiles in L0C
    Bytes rowBytes = 128;     // a row block in UB
    Bytes statBytes = 2;      // a per-row statistic (max, sum) in UB
    Bytes scratchBytes = 16;  // COMPACT's scratch in UB
    bool freesAtEnd = false;
    Capacities capacities;
};
std::string generateFlashAttentionLike(const FlashAttentionParams& p);

// A residual convolutional network in the style of Conv_Case0 (L1 and L0B only): activations
// are split in `groups` channel groups in L1; every layer computes each output group as a chain
// of CONVs (CUBE) over the input groups, accumulating in an L1 workspace, each CONV with its own
// weight tile (COPY_IN to L1, MOVE to L0B). The last layer of a stage adds the output of the
// stage's first layer (CONV_ADD). Between stages the activation size changes: smaller by a
// strided first CONV, larger by a depth-to-space (D2S, MTE1). The input is copied in and the
// result copied out (COPY_OUT, MTE3). The defaults give about 2500 nodes.
struct ConvParams {
    int groups = 4;
    int layersPerStage = 3;
    std::vector<Bytes> stageActBytes = {96, 192, 384, 768, 384, 192};  // per group and stage
    Bytes workspaceFactor = 2;                                         // workspace = factor * output group bytes
    Bytes weightBytes = 144;                                           // a weight tile in L1
    Bytes weightL0Bytes = 72;                                          // its copy in L0B
    bool freesAtEnd = false;
    Capacities capacities;
};
std::string generateConvLike(const ConvParams& p);

// A random DAG with the pipeline's vocabulary: loads (COPY_IN, MTE2), moves (MOVE, MTE1, into
// L0A/L0B), cube ops (MATMUL, into L0C), vector ops (UB), stores (COPY_OUT). Each operation
// writes at most one new buffer and reads up to maxReads live ones; a buffer is freed after its
// last use, sometimes a few operations later (lateFreePercent), or at the end (freesAtEnd).
// Sizes are drawn from [minBytes, maxBytes] and clamped so that every node fits its memories.
struct RandomGraphParams {
    int operations = 40;
    std::vector<std::string> memories = {"L1", "UB", "L0A", "L0B", "L0C"};
    Bytes minBytes = 16, maxBytes = 256;
    int maxReads = 2;          // 1..4
    int maxUsesPerBuffer = 4;  // readers of a buffer after its writer, 1..
    int lateFreePercent = 25;  // 0..100
    bool freesAtEnd = false;
    Capacities capacities;
    // Shapes the schedulers must take (0 leaves the graph as without them): operations that get
    // an edge from the ALLOC of a live buffer they do not use, and operations followed by a
    // BARRIER that uses no buffer (edges from the operation before it to the one after it).
    int allocEdgePercent = 0;   // 0..100
    int bufferlessPercent = 0;  // 0..100
};
std::string generateRandomGraph(std::uint64_t seed, const RandomGraphParams& p);

// A graph that thrashes its memory: `buffers` buffers of `bufferBytes` in one memory of
// `capacity` bytes, all allocated first and freed last, and between them `operations` vector
// operations each using `usesPerOperation` distinct buffers drawn uniformly (sorted ascending in
// Bufs). Operations share no data, so any order of them is valid; each one's buffers fill the
// memory when usesPerOperation * bufferBytes == capacity, and about every other use is then a
// reload. No explicit edges: the ALLOC -> user -> FREE ones are implied (docs: README, Input format).
struct ThrashParams {
    int buffers = 128;
    int operations = 4500;
    int usesPerOperation = 64;  // 1..min(buffers, limits::kMaxBufsPerNode)
    Bytes bufferBytes = 1;
    std::string memory = "UB";
    Bytes capacity = 64;  // at least usesPerOperation * bufferBytes
};
std::string generateThrash(std::uint64_t seed, const ThrashParams& p);

}  // namespace spillway
