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

// What a graph file holds: the graph plus its optional "Order" and "Capacities".
struct GraphDocument {
    Graph graph;
    std::optional<std::vector<NodeId>> order;
    std::optional<Capacities> capacities;
};

// Builds the derived parts (buffers, index maps, adjacency) and checks the structural rules:
// unique ids, known edge ends, one ALLOC and one FREE per buffer, known buffers, no cycle.
// Throws InputError naming the place. Capacities are checked by validateCapacities.
void finalizeGraph(Graph& g);

// Checks capacities (> 0), that every buffer's Type has one, Size <= capacity, and that no
// node's buffers of one memory together exceed it (else no plan can exist).
void validateCapacities(const Graph& g, const Capacities& caps);

}  // namespace spillway
