// The problem model: a computation graph of operation nodes and ALLOC/FREE buffer nodes,
// the buffers those nodes declare, and the memories (Type -> capacity) they live in.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "error.h"

namespace spillway {

using NodeId = int;     // the "Id" of a node as the user wrote it
using BufferId = int;   // the "BufId" of a buffer as the user wrote it
using Bytes = std::int64_t;
using Cycles = std::int64_t;

inline constexpr const char* kAlloc = "ALLOC";
inline constexpr const char* kFree = "FREE";
inline constexpr const char* kCopyIn = "COPY_IN";
inline constexpr const char* kSpillOut = "SPILL_OUT";
inline constexpr const char* kSpillIn = "SPILL_IN";
inline constexpr const char* kSpillOutPipe = "MTE3";
inline constexpr const char* kSpillInPipe = "MTE2";

struct Node {
    NodeId id = 0;
    std::string op;
    std::string pipe;            // empty for ALLOC/FREE
    Cycles cycles = 0;
    std::vector<BufferId> bufs;  // operation nodes: the buffers they use
    BufferId buf = -1;           // ALLOC/FREE: the buffer they create or release
    Bytes size = 0;              // ALLOC/FREE
    std::string type;            // ALLOC/FREE: memory name

    // Called in every loop over nodes: compare as string_views (length first, no strlen).
    bool isAlloc() const { return std::string_view(op) == std::string_view(kAlloc); }
    bool isFree() const { return std::string_view(op) == std::string_view(kFree); }
    bool isSpillOut() const { return std::string_view(op) == std::string_view(kSpillOut); }
    bool isSpillIn() const { return std::string_view(op) == std::string_view(kSpillIn); }
    bool isBufferNode() const { return isAlloc() || isFree(); }
};

// A buffer as the graph declares it. Indices (not ids) point into Graph::nodes.
struct Buffer {
    BufferId id = 0;
    Bytes size = 0;
    std::string type;
    int allocNode = -1;
    int freeNode = -1;
    std::vector<int> users;  // operation nodes using the buffer (ascending index, no ALLOC/FREE)
    bool hasCopyIn = false;  // a COPY_IN uses it: main memory already holds its data
};

using Capacities = std::map<std::string, Bytes>;

// The seed's (and the contest's) capacities.
Capacities defaultCapacities();

struct Graph {
    std::vector<Node> nodes;                   // as in the file
    std::vector<std::pair<int, int>> edges;    // node indices, as in the file
    std::vector<Buffer> buffers;               // ascending BufId
    std::unordered_map<NodeId, int> nodeIndex;
    std::unordered_map<BufferId, int> bufferIndex;
    std::vector<std::vector<int>> successors;   // node index -> node indices
    std::vector<std::vector<int>> predecessors; // node index -> node indices

    NodeId maxNodeId() const;
    const Node& node(NodeId id) const { return nodes[nodeIndex.at(id)]; }
    const Buffer& buffer(BufferId id) const { return buffers[bufferIndex.at(id)]; }
    // Buffers a node touches: its Bufs for operation nodes, its BufId for ALLOC/FREE.
    std::vector<BufferId> buffersOf(const Node& n) const;
};

// Where the parts of a graph document are in its text: 1-based line and column (characters),
// 0 when unknown (a document built in code). Errors about the graph name these places.
struct TextPosition {
    std::uint32_t line = 0, column = 0;
};
struct SourceMap {
    TextPosition document;                // the top-level object
    std::vector<TextPosition> nodes;      // Nodes[i]: its '{'
    std::vector<TextPosition> edges;      // Edges[i]: its '['
    std::vector<TextPosition> order;      // Order[i]
    std::map<std::string, TextPosition> capacities;  // each key of "Capacities"
};

// What a graph file holds: the graph plus its optional "Order" and "Capacities".
struct GraphDocument {
    Graph graph;
    std::optional<std::vector<NodeId>> order;
    std::optional<Capacities> capacities;
    SourceMap source;
};

// `e` (an error about the graph: ErrorPlace::source "graph") with the line and column of the
// place it names (its edge, Order entry, capacity or node, in that order), when known.
InputError locateInDocument(const GraphDocument& doc, const InputError& e);

// Builds Graph::nodeIndex, rejecting duplicate ids and the reserved spill Ops.
void indexNodes(Graph& g);

// Builds the derived parts (buffers, index maps, adjacency; the node index unless indexNodes
// already built it for these nodes) and checks the structural rules:
// unique ids, known edge ends, one ALLOC and one FREE per buffer, known buffers, no cycle, at most
// limits::kMaxMemories memories. Throws InputError naming the place (ErrorPlace: source "graph",
// nodeIndex / edge / buffer / cycle). Capacities are checked by validateCapacities.
void finalizeGraph(Graph& g);

// Checks the capacities (at most limits::kMaxMemories, names non-empty, each in
// 1..limits::kMaxBytes), that every buffer's Type has one, Size <= capacity, and that no node's
// buffers of one memory together exceed it (else no plan can exist). `source` says where the
// capacities came from ("graph", "options"), for errors about a capacity itself.
void validateCapacities(const Graph& g, const Capacities& caps, const std::string& source = "options");

}  // namespace spillway
