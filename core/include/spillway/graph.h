// The problem model: a computation graph of operation nodes and ALLOC/FREE buffer nodes,
// the buffers those nodes declare, and the memories (Type -> capacity) they live in.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "id_table.h"
#include "name.h"

namespace spillway {

using NodeId = int;    // the "Id" of a node as the user wrote it
using BufferId = int;  // the "BufId" of a buffer as the user wrote it
using Bytes = std::int64_t;
using Cycles = std::int64_t;

inline constexpr const char* kAlloc = "ALLOC";
inline constexpr const char* kFree = "FREE";
inline constexpr const char* kCopyIn = "COPY_IN";
inline constexpr const char* kSpillOut = "SPILL_OUT";
inline constexpr const char* kSpillIn = "SPILL_IN";
inline constexpr const char* kSpillOutPipe = "MTE3";
inline constexpr const char* kSpillInPipe = "MTE2";

// The Op, Pipe and Type names are interned (name.h): a Node is 80 bytes instead of 152, 72 MB
// less for a million-node graph, and as much less for each spill node a plan adds. They read
// and compare as strings.
struct Node {
    NodeId id = 0;
    Name op;
    Name pipe;  // empty for ALLOC/FREE
    Cycles cycles = 0;
    std::vector<BufferId> bufs;  // operation nodes: the buffers they use
    BufferId buf = -1;           // ALLOC/FREE: the buffer they create or release
    Bytes size = 0;              // ALLOC/FREE
    Name type;                   // ALLOC/FREE: memory name

    // Called in every loop over nodes: compare as string_views (length first, no strlen).
    bool isAlloc() const { return op.view() == std::string_view(kAlloc); }
    bool isFree() const { return op.view() == std::string_view(kFree); }
    bool isSpillOut() const { return op.view() == std::string_view(kSpillOut); }
    bool isSpillIn() const { return op.view() == std::string_view(kSpillIn); }
    bool isBufferNode() const { return isAlloc() || isFree(); }
};

// A buffer as the graph declares it. Indices (not ids) point into Graph::nodes.
struct Buffer {
    BufferId id = 0;
    Bytes size = 0;
    Name type;
    int allocNode = -1;
    int freeNode = -1;
    std::vector<int> users;  // operation nodes using the buffer (ascending index, no ALLOC/FREE)
    bool hasCopyIn = false;  // a COPY_IN uses it: main memory already holds its data
};

using Capacities = std::map<std::string, Bytes>;

// A run of ints in a flat array, read-only (C++17 has no span): one node's neighbours in an
// Adjacency, one step's buffer indices in a PlanBuilder.
class IndexRange {
public:
    IndexRange(const int* first, const int* last) : first_(first), last_(last) {}
    const int* begin() const { return first_; }
    const int* end() const { return last_; }
    size_t size() const { return static_cast<size_t>(last_ - first_); }
    bool empty() const { return first_ == last_; }
    int front() const { return *first_; }
    int operator[](size_t i) const { return first_[i]; }

private:
    const int* first_;
    const int* last_;
};

// Each node's neighbours (node indices) in one flat array with offsets (CSR): a vector per node
// cost about 56 bytes a node, and a million-node graph has several such tables at once.
class Adjacency {
public:
    Adjacency() = default;
    // The arcs `arcs(add)` gives by calling add(from, to); it is called twice (once to count,
    // once to place), so each node's list keeps the order its arcs came in.
    template <typename Arcs>
    static Adjacency fromArcs(size_t nodes, Arcs&& arcs) {
        Adjacency a;
        a.first_.assign(nodes + 1, 0);
        arcs([&](int from, int) { ++a.first_[from + 1]; });
        for (size_t v = 0; v < nodes; ++v) a.first_[v + 1] += a.first_[v];
        a.to_.resize(a.first_[nodes]);
        std::vector<int> next(a.first_.begin(), a.first_.end() - 1);
        arcs([&](int from, int to) { a.to_[next[from]++] = to; });
        return a;
    }
    // The same arcs reversed (to -> from), each list in ascending `from` and, within one `from`,
    // in its list's order.
    Adjacency reversed() const {
        const int n = static_cast<int>(size());
        return fromArcs(size(), [&](auto&& add) {
            for (int v = 0; v < n; ++v)
                for (int w : (*this)[v]) add(w, v);
        });
    }
    // Sorts each node's list by `less` and drops repeats (equal neighbours, adjacent once sorted).
    template <typename Less>
    void sortEachUnique(Less&& less) {
        int kept = 0;
        for (size_t v = 0; v + 1 < first_.size(); ++v) {
            const auto first = to_.begin() + first_[v], last = to_.begin() + first_[v + 1];
            std::sort(first, last, less);
            const auto end = std::unique(first, last);
            const int count = static_cast<int>(end - first);
            if (kept != first_[v]) std::copy(first, end, to_.begin() + kept);  // moves left
            first_[v] = kept;
            kept += count;
        }
        first_.back() = kept;
        to_.resize(static_cast<size_t>(kept));
        to_.shrink_to_fit();
    }

    size_t size() const { return first_.empty() ? 0 : first_.size() - 1; }
    IndexRange operator[](int v) const { return {to_.data() + first_[v], to_.data() + first_[v + 1]}; }

private:
    std::vector<int> first_;  // node v's neighbours are to_[first_[v] .. first_[v + 1])
    std::vector<int> to_;
};

// The seed's (and the contest's) capacities.
Capacities defaultCapacities();

struct Graph {
    std::vector<Node> nodes;                 // as in the file
    std::vector<std::pair<int, int>> edges;  // node indices, as in the file
    std::vector<Buffer> buffers;             // ascending BufId
    IdTable nodeIndex;                       // node id -> index in nodes
    IdTable bufferIndex;                     // buffer id -> index in buffers
    Adjacency successors;                    // node index -> node indices, in the order of Edges
    Adjacency predecessors;                  // node index -> node indices, in the order of Edges

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
    TextPosition document;                           // the top-level object
    std::vector<TextPosition> nodes;                 // Nodes[i]: its '{'
    std::vector<TextPosition> edges;                 // Edges[i]: its '['
    std::vector<TextPosition> order;                 // Order[i]
    std::map<std::string, TextPosition> capacities;  // each key of "Capacities"
};

struct ProgramSource;  // program.h

// What a graph file holds: the graph plus its optional "Order" and "Capacities"; a program
// (program.h) also keeps what its text said, to be printed back with its plan.
struct GraphDocument {
    Graph graph;
    std::optional<std::vector<NodeId>> order;
    std::optional<Capacities> capacities;
    SourceMap source;
    std::shared_ptr<const ProgramSource> program;
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
