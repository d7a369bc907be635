// The independent verifier (in the spirit of regalloc2's checker): it replays a plan against the
// graph and the capacities and names every violation it finds. It deliberately shares no code
// with the planner: only the Graph model (graph.h), the Plan (plan.h) and the standard library.
//
// Violation kinds and what raises them (every check keeps going after a violation):
//   order       plan.order holds every graph node and every added node exactly once, nothing
//               else, and respects every original edge and every added edge
//   spill-ids   spill k has outNode = base+2k, inNode = base+2k+1 (base = max id + 1);
//               addedNodes are exactly those nodes (ascending id, right Op/Pipe/Bufs);
//               outStep/inStep are the nodes' positions
//   spill-pair  a spill's buffer exists and its type/size match; its SPILL_IN comes after its
//               SPILL_OUT; each SPILL_OUT writes out a resident buffer from spill.oldOffset;
//               each SPILL_IN reloads what its own SPILL_OUT wrote out
//   edges       the contest's edges of every spill are in addedEdges: ALLOC -> OUT, every user
//               scheduled before the OUT -> OUT, the buffer's previous SPILL_IN -> OUT,
//               OUT -> IN, IN -> FREE, IN -> every user scheduled after it; every added edge
//               touches an added node; addedEdges sorted without duplicates
//   allocation  one allocation per buffer, ascending BufId, type and size of the buffer
//   residency   an operation node's buffers are resident when it runs; FREE of a resident
//               buffer (a spilled one needs its SPILL_IN first); every buffer freed at the end
//   bounds      every placement inside [0, capacity) of a memory that has a capacity
//   overlap     no two resident buffers of one memory share a byte
// At most 100 violations are listed (shared fairly between kinds), then "... and N more".
// Cost: O((nodes + edges + added edges) log) plus the users of each spilled buffer per spill,
// which is the size of the contest's required edge set anyway.
#include "spillway/verifier.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace spillway {
namespace {

constexpr std::size_t kMaxViolations = 100;

template <typename... Args>
std::string cat(const Args&... args) {
    std::ostringstream os;
    (os << ... << args);
    return os.str();
}

// offset + size, saturated: a garbage offset near the limits must not overflow.
Bytes endOf(Bytes offset, Bytes size) {
    constexpr Bytes kMax = std::numeric_limits<Bytes>::max();
    constexpr Bytes kMin = std::numeric_limits<Bytes>::min();
    if (size > 0 && offset > kMax - size) return kMax;
    if (size < 0 && offset < kMin - size) return kMin;
    return offset + size;
}

std::string range(Bytes offset, Bytes size) { return cat("[", offset, ", ", endOf(offset, size), ")"); }

// Collects violations. At most kMaxViolations are returned, shared fairly between kinds (so that a
// flood of one kind, e.g. every later step shifted by one, cannot hide a single overlap), in the
// order they were found, followed by one "... and N more" entry counting the rest by kind.
class Report {
public:
    void add(const char* kind, std::string message) {
        Kind& k = kinds_[kind];
        if (k.total == 0) firstSeen_.push_back(kind);
        ++k.total;
        if (k.kept.size() < kMaxViolations) k.kept.push_back({seq_, std::move(message)});
        ++seq_;
    }
    std::vector<Violation> finish() {
        // Round-robin quotas over the kinds in the order they first appeared.
        std::map<std::string, std::size_t> quota;
        std::size_t given = 0;
        for (bool progress = true; progress && given < kMaxViolations;) {
            progress = false;
            for (const std::string& kind : firstSeen_) {
                if (given == kMaxViolations) break;
                std::size_t& q = quota[kind];
                if (q < kinds_[kind].kept.size()) {
                    ++q;
                    ++given;
                    progress = true;
                }
            }
        }
        std::vector<std::pair<std::size_t, Violation>> chosen;
        std::string omitted;
        std::size_t omittedTotal = 0;
        for (const std::string& kind : firstSeen_) {
            Kind& k = kinds_[kind];
            for (std::size_t i = 0; i < quota[kind]; ++i)
                chosen.push_back({k.kept[i].first, Violation{kind, std::move(k.kept[i].second)}});
            if (k.total > quota[kind]) {
                omitted += cat(omitted.empty() ? "" : ", ", kind, " ", k.total - quota[kind]);
                omittedTotal += k.total - quota[kind];
            }
        }
        std::sort(chosen.begin(), chosen.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<Violation> out;
        out.reserve(chosen.size() + 1);
        for (auto& c : chosen) out.push_back(std::move(c.second));
        if (omittedTotal > 0) {
            out.push_back({firstSeen_.front(), cat("... and ", omittedTotal,
                                                   " more violations (", omitted, ")")});
        }
        return out;
    }

private:
    struct Kind {
        std::size_t total = 0;
        std::vector<std::pair<std::size_t, std::string>> kept;  // (sequence number, message)
    };
    std::map<std::string, Kind> kinds_;
    std::vector<std::string> firstSeen_;
    std::size_t seq_ = 0;
};

std::uint64_t edgeKey(NodeId a, NodeId b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
           static_cast<std::uint32_t>(b);
}

enum class State { Unallocated, Resident, Spilled, Freed };

const char* stateName(State s) {
    switch (s) {
        case State::Unallocated: return "not yet allocated";
        case State::Resident: return "resident";
        case State::Spilled: return "spilled";
        case State::Freed: return "freed";
    }
    return "?";
}

struct BufState {
    State state = State::Unallocated;
    Bytes offset = 0;
    bool placed = false;  // its range is in the occupancy map (not when its placement overlapped)
    int spilledBy = -1;   // the spill whose SPILL_OUT wrote it out last
};

// Occupied ranges of one memory: start -> (end, buffer). Ranges never overlap (a placement that
// would overlap is reported and not recorded).
using Occupancy = std::map<Bytes, std::pair<Bytes, BufferId>>;

class Verifier {
public:
    Verifier(const Graph& g, const Capacities& caps, const Plan& plan)
        : g_(g), caps_(caps), plan_(plan) {}

    std::vector<Violation> run() {
        checkOrder();
        checkSpillIds();
        checkAllocations();
        checkEdges();
        checkTopological();
        replay();
        return report_.finish();
    }

private:
    const Graph& g_;
    const Capacities& caps_;
    const Plan& plan_;
    Report report_;

    std::unordered_map<NodeId, int> pos_;            // node id -> first position in plan.order
    std::unordered_set<NodeId> addedIds_;            // ids of plan.addedNodes
    std::unordered_map<NodeId, int> spillOfNode_;    // spill node id (not a graph id) -> spill k
    std::vector<int> spillBufIndex_;                 // spill k -> buffer index, -1 if unknown
    std::vector<const Allocation*> allocOf_;         // buffer index -> its allocation

    bool isGraphNode(NodeId id) const { return g_.nodeIndex.count(id) != 0; }
    bool known(NodeId id) const { return isGraphNode(id) || addedIds_.count(id) != 0; }
    int posOf(NodeId id) const {
        auto it = pos_.find(id);
        return it == pos_.end() ? -1 : it->second;
    }
    std::string nodeName(NodeId id) const {
        auto it = g_.nodeIndex.find(id);
        if (it != g_.nodeIndex.end()) {
            const Node& n = g_.nodes[it->second];
            if (n.isBufferNode()) return cat("node ", id, " (", n.op, " of buffer ", n.buf, ")");
            return cat("node ", id, " (", n.op, ")");
        }
        auto s = spillOfNode_.find(id);
        if (s != spillOfNode_.end()) {
            const Spill& sp = plan_.spills[s->second];
            return cat("node ", id, " (", sp.outNode == id ? kSpillOut : kSpillIn, " of spill ",
                       s->second, ", buffer ", sp.buf, ")");
        }
        return cat("node ", id);
    }
    std::string at(NodeId id) const {
        int p = posOf(id);
        return p < 0 ? std::string("not in the order") : cat("step ", p);
    }

    // 1. The order is a permutation of graph nodes + added nodes.
    void checkOrder() {
        for (const Node& n : plan_.addedNodes) addedIds_.insert(n.id);
        pos_.reserve(plan_.order.size() * 2 + 1);
        for (std::size_t i = 0; i < plan_.order.size(); ++i) {
            NodeId id = plan_.order[i];
            auto [it, fresh] = pos_.emplace(id, static_cast<int>(i));
            if (!fresh) {
                report_.add("order", cat("node ", id, " appears twice in the order: at step ",
                                         it->second, " and at step ", i));
            } else if (!known(id)) {
                report_.add("order", cat("step ", i, ": node ", id,
                                         " is neither a graph node nor an added node"));
            }
        }
        for (const Node& n : g_.nodes) {
            if (!pos_.count(n.id)) {
                report_.add("order", cat(nodeName(n.id), " is missing from the order"));
            }
        }
        for (const Node& n : plan_.addedNodes) {
            if (!pos_.count(n.id)) {
                report_.add("order", cat("added node ", n.id, " (", n.op,
                                         ") is missing from the order"));
            }
        }
    }

    // 2. Spill ids, added nodes, spill fields.
    void checkSpillIds() {
        const NodeId base = g_.maxNodeId() + 1;
        const auto& spills = plan_.spills;
        spillBufIndex_.assign(spills.size(), -1);
        for (std::size_t k = 0; k < spills.size(); ++k) {
            const Spill& s = spills[k];
            const NodeId wantOut = base + 2 * static_cast<NodeId>(k);
            const NodeId wantIn = wantOut + 1;
            if (s.outNode != wantOut || s.inNode != wantIn) {
                report_.add("spill-ids",
                            cat("spill ", k, " (buffer ", s.buf, ") has SPILL_OUT ", s.outNode,
                                " / SPILL_IN ", s.inNode, ", expected ", wantOut, " / ", wantIn,
                                " (base ", base, " = largest node id + 1)"));
            }
            for (NodeId id : {s.outNode, s.inNode}) {
                if (isGraphNode(id)) {
                    report_.add("spill-ids", cat("spill ", k, ": node ", id,
                                                 " is already a graph node"));
                } else if (!spillOfNode_.emplace(id, static_cast<int>(k)).second) {
                    report_.add("spill-ids", cat("spill ", k, ": node ", id,
                                                 " is already used by spill ",
                                                 spillOfNode_[id]));
                }
            }
            auto b = g_.bufferIndex.find(s.buf);
            if (b == g_.bufferIndex.end()) {
                report_.add("spill-pair", cat("spill ", k, " names unknown buffer ", s.buf));
            } else {
                spillBufIndex_[k] = b->second;
                const Buffer& buf = g_.buffers[b->second];
                if (s.type != buf.type || s.size != buf.size) {
                    report_.add("spill-pair",
                                cat("spill ", k, " of buffer ", s.buf, " says ", s.type, "/",
                                    s.size, " bytes but the buffer is ", buf.type, "/",
                                    buf.size, " bytes"));
                }
            }
            const int po = posOf(s.outNode), pi = posOf(s.inNode);
            if (po >= 0 && s.outStep != po) {
                report_.add("spill-ids", cat("spill ", k, " (buffer ", s.buf, "): outStep ",
                                             s.outStep, " but SPILL_OUT ", s.outNode,
                                             " is at step ", po));
            }
            if (pi >= 0 && s.inStep != pi) {
                report_.add("spill-ids", cat("spill ", k, " (buffer ", s.buf, "): inStep ",
                                             s.inStep, " but SPILL_IN ", s.inNode,
                                             " is at step ", pi));
            }
            if (po >= 0 && pi >= 0 && po >= pi) {
                report_.add("spill-pair", cat("spill ", k, " (buffer ", s.buf, "): SPILL_IN ",
                                              s.inNode, " at step ", pi,
                                              " does not come after SPILL_OUT ", s.outNode,
                                              " at step ", po));
            }
        }

        // addedNodes: exactly the spill nodes, ascending id, with the right content.
        const auto& added = plan_.addedNodes;
        for (std::size_t i = 1; i < added.size(); ++i) {
            if (added[i - 1].id >= added[i].id) {
                report_.add("spill-ids", cat("addedNodes not in ascending id order: ",
                                             added[i - 1].id, " before ", added[i].id));
            }
        }
        std::unordered_map<NodeId, const Node*> addedById;
        addedById.reserve(added.size() * 2 + 1);
        for (const Node& n : added) {
            addedById.emplace(n.id, &n);
            if (!spillOfNode_.count(n.id)) {
                report_.add("spill-ids", cat("added node ", n.id, " (", n.op,
                                             ") belongs to no spill"));
            }
        }
        for (std::size_t k = 0; k < spills.size(); ++k) {
            const Spill& s = spills[k];
            checkAddedNode(addedById, k, s.outNode, kSpillOut, kSpillOutPipe, s.buf);
            checkAddedNode(addedById, k, s.inNode, kSpillIn, kSpillInPipe, s.buf);
        }
    }

    void checkAddedNode(const std::unordered_map<NodeId, const Node*>& addedById, std::size_t k,
                        NodeId id, const char* op, const char* pipe, BufferId buf) {
        if (isGraphNode(id)) return;  // already reported
        auto it = addedById.find(id);
        if (it == addedById.end()) {
            report_.add("spill-ids", cat("spill ", k, ": its ", op, " node ", id,
                                         " is not in addedNodes"));
            return;
        }
        const Node& n = *it->second;
        if (n.op != op || n.pipe != pipe) {
            report_.add("spill-ids", cat("spill ", k, ": added node ", id, " is ", n.op, "/",
                                         n.pipe.empty() ? "-" : n.pipe, ", expected ", op, "/",
                                         pipe));
        }
        if (n.bufs.size() != 1 || n.bufs[0] != buf) {
            std::string got;
            for (BufferId b : n.bufs) got += cat(got.empty() ? "" : ", ", b);
            report_.add("spill-ids", cat("spill ", k, ": added node ", id, " has Bufs [", got,
                                         "], expected [", buf, "]"));
        }
    }

    // 5. Allocations.
    void checkAllocations() {
        allocOf_.assign(g_.buffers.size(), nullptr);
        const auto& allocs = plan_.allocations;
        for (std::size_t i = 0; i < allocs.size(); ++i) {
            const Allocation& a = allocs[i];
            if (i > 0 && allocs[i - 1].buf >= a.buf) {
                report_.add("allocation", cat("allocations not in ascending BufId order: buffer ",
                                              allocs[i - 1].buf, " before buffer ", a.buf));
            }
            auto b = g_.bufferIndex.find(a.buf);
            if (b == g_.bufferIndex.end()) {
                report_.add("allocation", cat("allocation for unknown buffer ", a.buf));
                continue;
            }
            if (allocOf_[b->second] != nullptr) {
                report_.add("allocation", cat("buffer ", a.buf, " has more than one allocation"));
                continue;
            }
            allocOf_[b->second] = &a;
            const Buffer& buf = g_.buffers[b->second];
            if (a.type != buf.type || a.size != buf.size) {
                report_.add("allocation", cat("allocation of buffer ", a.buf, " says ", a.type,
                                              "/", a.size, " bytes but the buffer is ", buf.type,
                                              "/", buf.size, " bytes"));
            }
        }
        for (std::size_t i = 0; i < g_.buffers.size(); ++i) {
            if (allocOf_[i] == nullptr) {
                report_.add("allocation", cat("buffer ", g_.buffers[i].id, " has no allocation"));
            }
        }
    }

    // 3. The contest's required edges of every spill are present; added edges are sane.
    void checkEdges() {
        const auto& edges = plan_.addedEdges;
        std::unordered_set<std::uint64_t> have;
        have.reserve(edges.size() * 2 + 1);
        for (std::size_t i = 0; i < edges.size(); ++i) {
            const auto& [a, b] = edges[i];
            if (i > 0 && !(edges[i - 1] < edges[i])) {
                report_.add("edges", cat("addedEdges not sorted or duplicated: ", edges[i - 1].first,
                                         " -> ", edges[i - 1].second, " before ", a, " -> ", b));
            }
            have.insert(edgeKey(a, b));
            if (!known(a) || !known(b)) {
                report_.add("edges", cat("added edge ", a, " -> ", b, " names unknown node ",
                                         known(a) ? b : a));
            } else if (isGraphNode(a) && isGraphNode(b)) {
                report_.add("edges", cat("added edge ", a, " -> ", b,
                                         " joins two graph nodes (it must touch an added node)"));
            }
        }
        auto require = [&](std::size_t k, NodeId a, NodeId b, const std::string& why) {
            if (!have.count(edgeKey(a, b))) {
                report_.add("edges", cat("spill ", k, " (buffer ", plan_.spills[k].buf,
                                         "): required edge ", a, " -> ", b, " (", why,
                                         ") is missing from addedEdges"));
            }
        };

        // Spills of each buffer in order of their SPILL_OUT, to find each one's previous SPILL_IN.
        std::unordered_map<int, std::vector<int>> spillsOfBuf;
        for (std::size_t k = 0; k < plan_.spills.size(); ++k) {
            if (spillBufIndex_[k] >= 0) spillsOfBuf[spillBufIndex_[k]].push_back(static_cast<int>(k));
        }
        for (auto& [bi, ks] : spillsOfBuf) {
            std::stable_sort(ks.begin(), ks.end(), [&](int x, int y) {
                return posOf(plan_.spills[x].outNode) < posOf(plan_.spills[y].outNode);
            });
            const Buffer& buf = g_.buffers[bi];
            const NodeId allocId = g_.nodes[buf.allocNode].id;
            const NodeId freeId = g_.nodes[buf.freeNode].id;
            for (std::size_t j = 0; j < ks.size(); ++j) {
                const std::size_t k = static_cast<std::size_t>(ks[j]);
                const Spill& s = plan_.spills[k];
                require(k, allocId, s.outNode, "ALLOC -> SPILL_OUT");
                require(k, s.outNode, s.inNode, "SPILL_OUT -> SPILL_IN");
                require(k, s.inNode, freeId, "SPILL_IN -> FREE");
                const int po = posOf(s.outNode), pi = posOf(s.inNode);
                if (j > 0) {
                    const Spill& prev = plan_.spills[ks[j - 1]];
                    const int pp = posOf(prev.inNode);
                    if (po >= 0 && pp >= 0 && pp < po) {
                        require(k, prev.inNode, s.outNode, "previous SPILL_IN -> SPILL_OUT");
                    }
                }
                for (int ui : buf.users) {
                    const NodeId u = g_.nodes[ui].id;
                    const int pu = posOf(u);
                    if (pu < 0) continue;
                    if (po >= 0 && pu < po) {
                        require(k, u, s.outNode, cat("user scheduled at step ", pu,
                                                     " before the SPILL_OUT at step ", po));
                    }
                    if (pi >= 0 && pu > pi) {
                        require(k, s.inNode, u, cat("user scheduled at step ", pu,
                                                    " after the SPILL_IN at step ", pi));
                    }
                }
            }
        }
    }

    // 4. The order respects the original edges and the added edges.
    void checkTopological() {
        auto check = [&](NodeId a, NodeId b, const char* what) {
            const int pa = posOf(a), pb = posOf(b);
            if (pa >= 0 && pb >= 0 && pa >= pb) {
                report_.add("order", cat(what, " edge ", a, " -> ", b, " is broken: ", a,
                                         " at step ", pa, ", ", b, " at step ", pb));
            }
        };
        for (const auto& [a, b] : g_.edges) check(g_.nodes[a].id, g_.nodes[b].id, "graph");
        for (const auto& [a, b] : plan_.addedEdges) check(a, b, "added");
    }

    // 6. Replay: residency, bounds, overlap. 7. Everything freed at the end.
    void replay() {
        std::vector<BufState> st(g_.buffers.size());
        std::map<std::string, Occupancy> occ;
        // Each buffer's memory, resolved once (a type without a capacity still gets one).
        std::vector<Occupancy*> occOf(g_.buffers.size());
        std::vector<const Bytes*> capOf(g_.buffers.size(), nullptr);
        for (std::size_t bi = 0; bi < g_.buffers.size(); ++bi) {
            occOf[bi] = &occ[g_.buffers[bi].type];
            auto cap = caps_.find(g_.buffers[bi].type);
            if (cap != caps_.end()) capOf[bi] = &cap->second;
        }

        auto place = [&](int bi, Bytes offset, int step, NodeId node, const char* what) {
            const Buffer& buf = g_.buffers[bi];
            BufState& s = st[bi];
            s.state = State::Resident;
            s.offset = offset;
            s.placed = false;
            auto where = [&] {
                return cat("step ", step, ", ", nodeName(node), ": ", what, " of buffer ", buf.id,
                           " at ", buf.type, " ", range(offset, buf.size));
            };
            const Bytes* cap = capOf[bi];
            if (cap == nullptr) {
                report_.add("bounds", cat(where(), ": memory ", buf.type, " has no capacity"));
            } else if (offset < 0 || endOf(offset, buf.size) > *cap) {
                report_.add("bounds", cat(where(), " is outside [0, ", *cap, ")"));
            }
            if (buf.size <= 0) return;
            Occupancy& o = *occOf[bi];
            const Bytes end = endOf(offset, buf.size);
            auto it = o.lower_bound(offset);
            if (it != o.begin()) {
                auto prev = std::prev(it);
                if (prev->second.first > offset) it = prev;
            }
            bool clash = false;
            for (; it != o.end() && it->first < end; ++it) {
                clash = true;
                report_.add("overlap", cat(where(), " overlaps resident buffer ", it->second.second,
                                           " at ", range(it->first, it->second.first - it->first)));
            }
            if (!clash) {
                o.emplace(offset, std::make_pair(end, buf.id));
                s.placed = true;
            }
        };
        auto unplace = [&](int bi) {
            BufState& s = st[bi];
            if (s.placed) occOf[bi]->erase(s.offset);
            s.placed = false;
        };

        for (std::size_t i = 0; i < plan_.order.size(); ++i) {
            const NodeId id = plan_.order[i];
            const int step = static_cast<int>(i);
            if (posOf(id) != step) continue;  // a duplicate: reported by checkOrder
            auto gi = g_.nodeIndex.find(id);
            if (gi != g_.nodeIndex.end()) {
                const Node& n = g_.nodes[gi->second];
                if (n.isAlloc() || n.isFree()) {
                    auto bit = g_.bufferIndex.find(n.buf);
                    if (bit == g_.bufferIndex.end()) continue;
                    const int bi = bit->second;
                    BufState& s = st[bi];
                    if (n.isAlloc()) {  // the buffer's only ALLOC, first occurrence
                        if (allocOf_[bi] == nullptr) {  // reported by checkAllocations
                            s.state = State::Resident;
                            continue;
                        }
                        place(bi, allocOf_[bi]->offset, step, id, "ALLOC");
                    } else {
                        if (s.state != State::Resident) {
                            report_.add("residency",
                                        cat("step ", step, ", ", nodeName(id), ": buffer ", n.buf,
                                            " is ", stateName(s.state),
                                            s.state == State::Spilled
                                                ? " (a SPILL_IN must reload it before its FREE)"
                                                : ", not resident"));
                        }
                        unplace(bi);
                        if (s.state != State::Unallocated) s.state = State::Freed;
                    }
                } else {
                    for (std::size_t j = 0; j < n.bufs.size(); ++j) {
                        const BufferId b = n.bufs[j];
                        if (std::find(n.bufs.begin(), n.bufs.begin() + j, b) !=
                            n.bufs.begin() + j)
                            continue;  // listed twice: one report is enough
                        auto bit = g_.bufferIndex.find(b);
                        if (bit == g_.bufferIndex.end()) continue;
                        const BufState& s = st[bit->second];
                        if (s.state != State::Resident) {
                            report_.add("residency", cat("step ", step, ", ", nodeName(id),
                                                         " uses buffer ", b, " while it is ",
                                                         stateName(s.state)));
                        }
                    }
                }
                continue;
            }
            auto sk = spillOfNode_.find(id);
            if (sk == spillOfNode_.end()) continue;  // unknown: reported by checkOrder
            const int k = sk->second;
            const Spill& sp = plan_.spills[k];
            const int bi = spillBufIndex_[k];
            if (bi < 0) continue;  // unknown buffer: reported by checkSpillIds
            BufState& s = st[bi];
            if (id == sp.outNode) {
                if (s.state != State::Resident) {
                    report_.add("spill-pair", cat("step ", step, ", ", nodeName(id),
                                                  ": writes out buffer ", sp.buf,
                                                  " while it is ", stateName(s.state)));
                    if (s.state == State::Spilled) s.spilledBy = k;
                    continue;
                }
                if (sp.oldOffset != s.offset) {
                    report_.add("spill-pair", cat("step ", step, ", ", nodeName(id),
                                                  ": oldOffset ", sp.oldOffset, " but buffer ",
                                                  sp.buf, " is resident at offset ", s.offset));
                }
                unplace(bi);
                s.state = State::Spilled;
                s.spilledBy = k;
            } else {
                if (s.state != State::Spilled || s.spilledBy != k) {
                    std::string why = s.state == State::Spilled
                                          ? cat("it was written out by spill ", s.spilledBy,
                                                ", not by this spill's SPILL_OUT ", sp.outNode)
                                          : s.state == State::Freed
                                                ? std::string("it is already freed")
                                                : cat("it is ", stateName(s.state),
                                                      " (its SPILL_OUT ", sp.outNode,
                                                      " has not run)");
                    report_.add("spill-pair", cat("step ", step, ", ", nodeName(id),
                                                  ": reloads buffer ", sp.buf, " but ", why));
                    if (s.state != State::Spilled) continue;
                }
                place(bi, sp.newOffset, step, id, "SPILL_IN");
                s.spilledBy = -1;
            }
        }

        for (std::size_t bi = 0; bi < st.size(); ++bi) {
            if (st[bi].state != State::Freed) {
                report_.add("residency", cat("buffer ", g_.buffers[bi].id,
                                             " is never freed (it ends ",
                                             stateName(st[bi].state), ")"));
            }
        }
    }
};

}  // namespace

std::vector<Violation> verifyPlan(const Graph& g, const Capacities& caps, const Plan& plan) {
    return Verifier(g, caps, plan).run();
}

}  // namespace spillway
