#include "spillway/graph.h"

#include <algorithm>

#include "spillway/error.h"
#include "spillway/limits.h"

namespace spillway {

Capacities defaultCapacities() { return {{"L1", 4096}, {"UB", 1024}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}}; }

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

// The place of an error about node `index` of the graph (and its field, when one is named).
ErrorPlace atNode(const Graph& g, int index, const std::string& field = "") {
    ErrorPlace where;
    where.source = "graph";
    where.nodeIndex = index;
    where.node = g.nodes[index].id;
    where.field = field;
    return where;
}

ErrorPlace atBuffer(const Graph& g, int nodeIndex, BufferId buf, const std::string& field = "") {
    ErrorPlace where = atNode(g, nodeIndex, field);
    where.buffer = buf;
    return where;
}

// Buffers come from their ALLOC and FREE nodes; users are checked against them afterwards.
// Each buffer has a slot, in the order its first ALLOC/FREE comes, found through an id table; the
// slots are put in id order once at the end. (A std::map by id was a walk down a tree of half a
// million nodes a buffer node on a million-node graph, scattered when FREEs come in another order
// than ALLOCs, as on random graphs: parsing grew faster than n.)
void collectBuffers(Graph& g) {
    std::vector<BufferId> ids;
    for (const Node& n : g.nodes)
        if (n.isBufferNode()) ids.push_back(n.buf);
    IdTable slotOf = IdTable::over(ids);
    ids.clear();
    ids.shrink_to_fit();
    std::vector<Buffer> slots;
    std::map<std::string, int> memories;
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (!n.isBufferNode()) continue;
        const int found = slotOf.emplace(n.buf, static_cast<int>(slots.size()));
        if (found == static_cast<int>(slots.size())) slots.emplace_back();
        Buffer& b = slots[static_cast<std::size_t>(found)];
        const bool first = b.allocNode < 0 && b.freeNode < 0;
        if (first) {
            b.id = n.buf;
            b.size = n.size;
            b.type = n.type;
            if (memories.emplace(n.type, 0).second &&
                static_cast<std::int64_t>(memories.size()) > limits::kMaxMemories) {
                ErrorPlace where = atBuffer(g, i, n.buf, "Type");
                where.limit = LimitPlace{"memories", limits::kMaxMemories};
                throw InputError(nodeName(n) + ": Type \"" + excerpt(n.type) + "\" makes more than " +
                                     std::to_string(limits::kMaxMemories) +
                                     " memories (limit memories = " + std::to_string(limits::kMaxMemories) + ")",
                                 std::move(where));
            }
        } else if (b.size != n.size || b.type != n.type) {
            const Node& other = g.nodes[b.allocNode >= 0 ? b.allocNode : b.freeNode];
            throw InputError("buffer " + std::to_string(n.buf) + ": " + nodeName(n) + " says " +
                                 std::to_string(n.size) + " bytes of " + n.type + " but " + nodeName(other) + " says " +
                                 std::to_string(b.size) + " bytes of " + b.type,
                             atBuffer(g, i, n.buf, b.size != n.size ? "Size" : "Type"));
        }
        int& slot = n.isAlloc() ? b.allocNode : b.freeNode;
        if (slot >= 0)
            throw InputError("buffer " + std::to_string(n.buf) + " has two " + n.op +
                                 " nodes: " + nodeName(g.nodes[slot]) + " and " + nodeName(n),
                             atBuffer(g, i, n.buf, "BufId"));
        slot = i;
    }
    std::vector<std::pair<BufferId, int>> byId;  // (id, slot), ascending id
    byId.reserve(slots.size());
    for (std::size_t k = 0; k < slots.size(); ++k) byId.emplace_back(slots[k].id, static_cast<int>(k));
    std::sort(byId.begin(), byId.end());
    g.buffers.clear();
    g.buffers.reserve(slots.size());
    g.bufferIndex = byId.empty() ? IdTable() : IdTable(byId.front().first, byId.back().first, byId.size());
    for (const auto& [id, slot] : byId) {
        Buffer& b = slots[static_cast<std::size_t>(slot)];
        if (b.allocNode < 0)
            throw InputError(
                "buffer " + std::to_string(id) + " has a FREE (" + nodeName(g.nodes[b.freeNode]) + ") but no ALLOC",
                atBuffer(g, b.freeNode, id, "BufId"));
        if (b.freeNode < 0)
            throw InputError(
                "buffer " + std::to_string(id) + " has an ALLOC (" + nodeName(g.nodes[b.allocNode]) + ") but no FREE",
                atBuffer(g, b.allocNode, id, "BufId"));
        g.bufferIndex.emplace(id, static_cast<int>(g.buffers.size()));
        g.buffers.push_back(std::move(b));
    }
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (n.isBufferNode()) continue;
        std::vector<BufferId> seen;
        for (std::size_t k = 0; k < n.bufs.size(); ++k) {
            const BufferId id = n.bufs[k];
            const int index = g.bufferIndex.find(id);
            if (index == IdTable::kAbsent)
                throw InputError(
                    nodeName(n) + ": field \"Bufs\" names buffer " + std::to_string(id) + ", which has no ALLOC/FREE",
                    atBuffer(g, i, id, "Bufs[" + std::to_string(k) + "]"));
            if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
            seen.push_back(id);
            Buffer& b = g.buffers[index];
            b.users.push_back(i);
            if (n.op == kCopyIn) b.hasCopyIn = true;
        }
    }
}

void buildAdjacency(Graph& g) {
    const size_t n = g.nodes.size();
    g.successors = Adjacency::fromArcs(n, [&](auto&& add) {
        for (auto [s, d] : g.edges) add(s, d);
    });
    g.predecessors = Adjacency::fromArcs(n, [&](auto&& add) {
        for (auto [s, d] : g.edges) add(d, s);
    });
}

bool isExplicitEdge(const Graph& g, int from, int to) {
    const auto& s = g.successors[from];
    return std::find(s.begin(), s.end(), to) != s.end();
}

// The index in Edges of the first explicit edge along `path` (consecutive node indices), or -1.
std::int64_t firstExplicitEdge(const Graph& g, const std::vector<int>& path) {
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
        if (isExplicitEdge(g, path[i], path[i + 1]))
            for (std::size_t e = 0; e < g.edges.size(); ++e)
                if (g.edges[e] == std::make_pair(path[i], path[i + 1])) return static_cast<std::int64_t>(e);
    return -1;
}

std::string pathText(const Graph& g, const std::vector<int>& path) {
    std::string text;
    for (int v : path) text += (text.empty() ? "" : " -> ") + std::to_string(g.nodes[v].id);
    return text;
}

// A cycle of explicit edges is a cycle; one through a link every order needs anyway (a buffer's
// ALLOC before its users and its FREE after them) means the edges put a use outside its buffer's
// lifetime, and is said so.
InputError cycleError(const Graph& g, const std::vector<int>& cycle) {
    const std::size_t n = cycle.size();
    for (std::size_t i = 0; i < n; ++i) {
        const int from = cycle[i], to = cycle[(i + 1) % n];
        if (isExplicitEdge(g, from, to)) continue;
        // The implicit link from -> to; the rest of the cycle is a path of edges from `to` back to `from`.
        std::vector<int> path;
        for (std::size_t k = 1; k <= n; ++k) path.push_back(cycle[(i + k) % n]);
        const Node& a = g.nodes[from];
        const Node& b = g.nodes[to];
        const int user = a.isAlloc() && !b.isFree() ? to : from;
        const BufferId buf = a.isAlloc() ? a.buf : b.buf;
        ErrorPlace where = atBuffer(g, user, buf);
        if (const std::int64_t e = firstExplicitEdge(g, path); e >= 0) where.edge = e;
        std::string message;
        if (a.isAlloc() && b.isFree())
            message = "the edges put the FREE of buffer " + std::to_string(buf) + " (node " + std::to_string(b.id) +
                      ") before its ALLOC (node " + std::to_string(a.id) + "): " + pathText(g, path);
        else if (a.isAlloc())
            message = "node " + std::to_string(b.id) + " uses buffer " + std::to_string(buf) +
                      " but the edges make it run before the buffer's ALLOC (node " + std::to_string(a.id) +
                      "): " + pathText(g, path);
        else
            message = "node " + std::to_string(a.id) + " uses buffer " + std::to_string(buf) +
                      " but the edges make it run after the buffer's FREE (node " + std::to_string(b.id) +
                      "): " + pathText(g, path);
        return InputError(message, std::move(where));
    }
    std::vector<int> closed = cycle;
    closed.push_back(cycle.front());
    ErrorPlace where = atNode(g, cycle.front());
    for (int v : cycle) where.cycle.push_back(g.nodes[v].id);
    if (const std::int64_t e = firstExplicitEdge(g, closed); e >= 0) where.edge = e;
    return InputError("the edges form a cycle: " + pathText(g, closed), std::move(where));
}

// Kahn's algorithm over the edges plus the ones every order must respect anyway (a buffer's
// ALLOC before its users and its FREE, its FREE after its users); on failure, walk predecessors
// among the unprocessed nodes until one repeats: that walk is a cycle, which we name.
void rejectCycles(const Graph& g) {
    const int n = static_cast<int>(g.nodes.size());
    // The edges first, then the implicit links, buffer by buffer (the walk names the first cycle met).
    auto arcs = [&](auto&& add) {
        for (auto [s, d] : g.edges) add(s, d);
        for (const Buffer& b : g.buffers) {
            for (int u : b.users) {
                add(b.allocNode, u);
                add(u, b.freeNode);
            }
            add(b.allocNode, b.freeNode);
        }
    };
    const Adjacency succ = Adjacency::fromArcs(n, arcs);
    const Adjacency pred = Adjacency::fromArcs(n, [&](auto&& add) { arcs([&](int s, int d) { add(d, s); }); });
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
    throw cycleError(g, cycle);
}

}  // namespace

void indexNodes(Graph& g) {
    g.nodeIndex = IdTable();
    if (!g.nodes.empty()) {
        auto [least, largest] = std::minmax_element(g.nodes.begin(), g.nodes.end(),
                                                    [](const Node& a, const Node& b) { return a.id < b.id; });
        g.nodeIndex = IdTable(least->id, largest->id, g.nodes.size());
    }
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
        if (n.isSpillOut() || n.isSpillIn())
            throw InputError(nodeName(n) + ": Op " + n.op + " is reserved for the spill nodes the planner inserts",
                             atNode(g, i, "Op"));
        if (const int first = g.nodeIndex.emplace(n.id, i); first != i)
            throw InputError("duplicate node Id " + std::to_string(n.id) + " (Nodes[" + std::to_string(first) +
                                 "] and Nodes[" + std::to_string(i) + "])",
                             atNode(g, i, "Id"));
    }
}

void finalizeGraph(Graph& g) {
    if (g.nodeIndex.size() != g.nodes.size()) indexNodes(g);  // a reader may have indexed them already
    collectBuffers(g);
    buildAdjacency(g);
    rejectCycles(g);
}

void validateCapacities(const Graph& g, const Capacities& caps, const std::string& source) {
    auto atMemory = [&](const std::string& name) {
        ErrorPlace where;
        where.source = source;
        where.memory = name;
        where.field = (source == "graph" ? "Capacities." : "capacities.") + name;
        return where;
    };
    if (static_cast<std::int64_t>(caps.size()) > limits::kMaxMemories)
        limits::exceeded("the capacities name " + std::to_string(caps.size()) + " memories", "memories",
                         limits::kMaxMemories, source);
    for (const auto& [type, cap] : caps) {
        if (type.empty()) throw InputError("a capacity is given for a memory with an empty name", atMemory(type));
        if (static_cast<std::int64_t>(type.size()) > limits::kMaxNameBytes)
            throw InputError("memory name \"" + excerpt(type) + "\" is longer than " +
                                 std::to_string(limits::kMaxNameBytes) + " bytes",
                             atMemory(type));
        if (cap <= 0 || cap > limits::kMaxBytes)
            throw InputError("capacity of " + type + " must be between 1 and " + std::to_string(limits::kMaxBytes) +
                                 ", got " + std::to_string(cap),
                             atMemory(type));
    }
    for (const Buffer& b : g.buffers) {
        auto it = caps.find(b.type);
        const Node& alloc = g.nodes[b.allocNode];
        if (it == caps.end()) {
            ErrorPlace where = atBuffer(g, b.allocNode, b.id, "Type");
            where.memory = b.type;
            throw InputError(nodeName(alloc) + ": buffer " + std::to_string(b.id) + " has Type \"" + b.type +
                                 "\", which has no capacity: give memory " + b.type + " a capacity",
                             std::move(where));
        }
        if (b.size > it->second) {
            ErrorPlace where = atBuffer(g, b.allocNode, b.id, "Size");
            where.memory = b.type;
            throw InputError(nodeName(alloc) + ": buffer " + std::to_string(b.id) + " needs " + std::to_string(b.size) +
                                 " bytes but " + b.type + " holds only " + std::to_string(it->second),
                             std::move(where));
        }
    }
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& n = g.nodes[i];
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
            if (bytes > caps.at(type)) {
                ErrorPlace where = atNode(g, i, "Bufs");
                where.memory = type;
                throw InputError(nodeName(n) + " uses " + std::to_string(bytes) + " bytes of " + type +
                                     " at once but " + type + " holds only " + std::to_string(caps.at(type)) +
                                     ": no plan can exist",
                                 std::move(where));
            }
    }
}

InputError locateInDocument(const GraphDocument& doc, const InputError& e) {
    if (e.where.line || e.where.source != "graph") return e;
    const SourceMap& m = doc.source;
    auto at = [&](const std::vector<TextPosition>& v, const std::optional<std::int64_t>& i) -> TextPosition {
        return i && *i >= 0 && *i < static_cast<std::int64_t>(v.size()) ? v[*i] : TextPosition{};
    };
    TextPosition p;
    if (e.where.field.rfind("Order", 0) == 0) p = at(m.order, e.where.step);
    if (p.line == 0) p = at(m.edges, e.where.edge);
    if (p.line == 0 && e.where.memory && e.where.field.rfind("Capacities.", 0) == 0) {
        auto it = m.capacities.find(*e.where.memory);
        if (it != m.capacities.end()) p = it->second;
    }
    if (p.line == 0) p = at(m.nodes, e.where.nodeIndex);
    if (p.line == 0) return e;
    return locatedError(e, p.line, p.column);
}

}  // namespace spillway
