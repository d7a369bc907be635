#include "spillway/graph.h"

#include <algorithm>
#include <sstream>

#include "spillway/error.h"

namespace spillway {

Capacities defaultCapacities() {
    return {{"L1", 4096}, {"UB", 1024}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}};
}

NodeId Graph::maxNodeId() const {
    NodeId m = -1;
    for (const Node& n : nodes) m = std::max(m, n.id);
    return m;
}

std::vector<BufferId> Graph::buffersOf(const Node& n) const {
    if (n.isBufferNode()) return {n.buf};
    return n.bufs;
}

namespace {

std::string nodeName(const Node& n) { return "node " + std::to_string(n.id); }

void indexNodes(Graph& g) {
    g.nodeIndex.clear();
    g.nodeIndex.reserve(g.nodes.size());
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (n.isSpillOut() || n.isSpillIn())
            throw InputError(nodeName(n) + ": Op " + n.op +
                             " is reserved for the spill nodes the planner inserts");
        if (!g.nodeIndex.emplace(n.id, i).second)
            throw InputError("duplicate node Id " + std::to_string(n.id) + " (Nodes[" +
                             std::to_string(g.nodeIndex[n.id]) + "] and Nodes[" +
                             std::to_string(i) + "])");
    }
}

// Buffers come from their ALLOC and FREE nodes; users are checked against them afterwards.
void collectBuffers(Graph& g) {
    std::map<BufferId, Buffer> byId;
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (!n.isBufferNode()) continue;
        Buffer& b = byId[n.buf];
        const bool first = b.allocNode < 0 && b.freeNode < 0;
        if (first) {
            b.id = n.buf;
            b.size = n.size;
            b.type = n.type;
        } else if (b.size != n.size || b.type != n.type) {
            const Node& other = g.nodes[b.allocNode >= 0 ? b.allocNode : b.freeNode];
            throw InputError("buffer " + std::to_string(n.buf) + ": " + nodeName(n) + " says " +
                             std::to_string(n.size) + " bytes of " + n.type + " but " +
                             nodeName(other) + " says " + std::to_string(b.size) +
                             " bytes of " + b.type);
        }
        int& slot = n.isAlloc() ? b.allocNode : b.freeNode;
        if (slot >= 0)
            throw InputError("buffer " + std::to_string(n.buf) + " has two " + n.op + " nodes: " +
                             nodeName(g.nodes[slot]) + " and " + nodeName(n));
        slot = i;
    }
    g.buffers.clear();
    g.bufferIndex.clear();
    for (auto& [id, b] : byId) {
        if (b.allocNode < 0)
            throw InputError("buffer " + std::to_string(id) + " has a FREE (" +
                             nodeName(g.nodes[b.freeNode]) + ") but no ALLOC");
        if (b.freeNode < 0)
            throw InputError("buffer " + std::to_string(id) + " has an ALLOC (" +
                             nodeName(g.nodes[b.allocNode]) + ") but no FREE");
        g.bufferIndex.emplace(id, static_cast<int>(g.buffers.size()));
        g.buffers.push_back(b);
    }
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (n.isBufferNode()) continue;
        std::vector<BufferId> seen;
        for (BufferId id : n.bufs) {
            auto it = g.bufferIndex.find(id);
            if (it == g.bufferIndex.end())
                throw InputError(nodeName(n) + ": field \"Bufs\" names buffer " +
                                 std::to_string(id) + ", which has no ALLOC/FREE");
            if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
            seen.push_back(id);
            Buffer& b = g.buffers[it->second];
            b.users.push_back(i);
            if (n.op == kCopyIn) b.hasCopyIn = true;
        }
    }
}

void buildAdjacency(Graph& g) {
    const size_t n = g.nodes.size();
    g.successors.assign(n, {});
    g.predecessors.assign(n, {});
    for (auto [s, d] : g.edges) {
        g.successors[s].push_back(d);
        g.predecessors[d].push_back(s);
    }
}

// Kahn's algorithm over the edges plus the ones every order must respect anyway (a buffer's
// ALLOC before its users and its FREE, its FREE after its users); on failure, walk predecessors
// among the unprocessed nodes until one repeats: that walk is a cycle, which we name.
void rejectCycles(const Graph& g) {
    const int n = static_cast<int>(g.nodes.size());
    std::vector<std::vector<int>> succ = g.successors, pred = g.predecessors;
    auto implicit = [&](int s, int d) {
        succ[s].push_back(d);
        pred[d].push_back(s);
    };
    for (const Buffer& b : g.buffers) {
        for (int u : b.users) {
            implicit(b.allocNode, u);
            implicit(u, b.freeNode);
        }
        implicit(b.allocNode, b.freeNode);
    }
    std::vector<int> indegree(n, 0);
    for (int v = 0; v < n; ++v)
        for (int w : succ[v]) ++indegree[w];
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0) ready.push_back(i);
    int done = 0;
    while (!ready.empty()) {
        int v = ready.back();
        ready.pop_back();
        ++done;
        for (int w : succ[v])
            if (--indegree[w] == 0) ready.push_back(w);
    }
    if (done == n) return;
    int start = 0;
    while (indegree[start] == 0) ++start;
    std::vector<int> seenAt(n, -1);
    std::vector<int> walk;
    int v = start;
    while (seenAt[v] < 0) {
        seenAt[v] = static_cast<int>(walk.size());
        walk.push_back(v);
        for (int p : pred[v])
            if (indegree[p] > 0) {
                v = p;
                break;
            }
    }
    std::vector<int> cycle(walk.begin() + seenAt[v], walk.end());
    std::reverse(cycle.begin(), cycle.end());  // predecessors walked backwards
    std::ostringstream msg;
    msg << "the edges form a cycle: ";
    bool usesImplicit = false;
    for (size_t i = 0; i < cycle.size(); ++i) {
        const int from = cycle[i], to = cycle[(i + 1) % cycle.size()];
        const auto& explicitSucc = g.successors[from];
        usesImplicit |= std::find(explicitSucc.begin(), explicitSucc.end(), to) == explicitSucc.end();
        msg << g.nodes[from].id << " -> ";
    }
    msg << g.nodes[cycle.front()].id;
    if (usesImplicit) msg << " (counting that a buffer's ALLOC comes before its users and its FREE after them)";
    throw InputError(msg.str());
}

}  // namespace

void finalizeGraph(Graph& g) {
    indexNodes(g);
    collectBuffers(g);
    buildAdjacency(g);
    rejectCycles(g);
}

void validateCapacities(const Graph& g, const Capacities& caps) {
    for (const auto& [type, cap] : caps)
        if (cap <= 0)
            throw InputError("capacity of " + type + " must be > 0, got " + std::to_string(cap));
    for (const Buffer& b : g.buffers) {
        auto it = caps.find(b.type);
        const Node& alloc = g.nodes[b.allocNode];
        if (it == caps.end())
            throw InputError(nodeName(alloc) + ": buffer " + std::to_string(b.id) + " has Type \"" +
                             b.type + "\", which has no capacity (give one, e.g. --caps " +
                             b.type + "=4096)");
        if (b.size > it->second)
            throw InputError(nodeName(alloc) + ": buffer " + std::to_string(b.id) + " needs " +
                             std::to_string(b.size) + " bytes but " + b.type + " holds only " +
                             std::to_string(it->second));
    }
    for (const Node& n : g.nodes) {
        if (n.isBufferNode()) continue;
        std::map<std::string, Bytes> need;
        std::vector<BufferId> seen;
        for (BufferId id : n.bufs) {
            if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
            seen.push_back(id);
            const Buffer& b = g.buffer(id);
            need[b.type] += b.size;
        }
        for (const auto& [type, bytes] : need)
            if (bytes > caps.at(type))
                throw InputError(nodeName(n) + " uses " + std::to_string(bytes) + " bytes of " +
                                 type + " at once but " + type + " holds only " +
                                 std::to_string(caps.at(type)) + ": no plan can exist");
    }
}

}  // namespace spillway
