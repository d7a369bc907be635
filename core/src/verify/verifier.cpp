// The independent verifier (in the spirit of regalloc2's checker): it replays a plan against the
// graph and the capacities and names every violation it finds. It deliberately shares no code
// with the planners, schedulers or timing: only the Graph model (graph.h), the Plan (plan.h), the
// cost model's parameters (cost.h, data only) and the standard library. The build enforces it:
// target spillway_verifier links spillway_model alone (CMakeLists.txt).
//
// Violation kinds and what raises them (every check keeps going after a violation):
//   order        plan.order holds every graph node and every added node exactly once, nothing
//                else, and respects every original edge and every added edge; with claims, it
//                is the claimed inputOrder with the spill nodes inserted
//   spill-ids    spill k has outNode = base+2k, inNode = base+2k+1 (base = max id + 1);
//                addedNodes are exactly those nodes (ascending id, right Op/Pipe/Bufs);
//                outStep/inStep are the nodes' positions
//   spill-pair   a spill's buffer exists and its type/size match; its SPILL_IN comes after its
//                SPILL_OUT; each SPILL_OUT writes out a resident buffer from spill.oldOffset;
//                each SPILL_IN reloads what its own SPILL_OUT wrote out
//   spill-cycles each spill node's Cycles are the cost model's for its buffer
//   edges        addedEdges are exactly the rule's set (below), sorted without duplicates
//   allocation   one allocation per buffer, ascending BufId, type and size of the buffer
//   residency    an operation node's buffers are resident when it runs; FREE of a resident
//                buffer (a spilled one needs its SPILL_IN first); every buffer freed at the end
//   bounds       every placement inside [0, capacity) of a memory that has a capacity
//   overlap      no two resident buffers of one memory share a byte
//   metrics      (claims) spills, extraBytes, demandPeak, residentPeak, totalCycles recomputed;
//                the lower bounds (bound, cyclesBound) consistent with the plan: never negative
//                nor above what the plan does, a total the sum (bytes) or the largest (cycles)
//                of its terms and its limit the term giving it, on existing memories and pipes;
//                given a recomputation (verifyResult's `recompute`), each equal to its figure
//   timing       (claims) every node's start, end and wait recomputed under the pipe model
//   capacities   (claims) each capacity is the one the plan is checked against, for the same
//                memories, within 1..limits::kMaxBytes
//
// The edge rule. The contest asks, per spill of buffer b: ALLOC -> SPILL_OUT -> SPILL_IN -> FREE,
// every user of b scheduled before the SPILL_OUT -> SPILL_OUT, and SPILL_IN -> every user
// scheduled after it. Taken literally that is quadratic in the spills of a buffer. The plan holds
// the set below instead, whose transitive closure contains every literal edge (so every order
// and every timing is the same): for b's spills 1..m in order of their SPILL_OUT,
//   ALLOC -> OUT_j, OUT_j -> IN_j, IN_j -> FREE, IN_(j-1) -> OUT_j (j > 1),
//   u -> OUT_j for each user u of b scheduled after IN_(j-1) (after the ALLOC for j = 1) and
//   before OUT_j, and IN_j -> u for each user u scheduled after IN_j and before OUT_(j+1) (before
//   the FREE for j = m).
// A user before OUT_j reaches it through its own window's OUT_i -> IN_i -> OUT_(i+1) ... chain;
// IN_j reaches a later user through the same chain. So it is linear in the uses.
//
// At most 100 violations are listed (shared fairly between kinds), then "... and N more".
// Cost: O((nodes + edges + added edges + uses) log). The log factors are in the per-memory maps
// and segment trees (over the memory's offsets), the sorts of a spilled buffer's users or spills
// when they are out of order, and each required edge's lookup in addedEdges; the passes over the
// plan are linear (arcs and each buffer's spills placed by counting, each step's node record read
// once in the timing check), and the required edges are sorted only when addedEdges differ from
// them, to report the differences.
#include "spillway/verifier.h"

#include "leave_times.h"
#include "spillway/id_table.h"
#include "spillway/limits.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

namespace spillway {

const char* violationKindName(ViolationKind kind) {
    switch (kind) {
        case ViolationKind::Order: return "order";
        case ViolationKind::SpillIds: return "spill-ids";
        case ViolationKind::SpillPair: return "spill-pair";
        case ViolationKind::SpillCycles: return "spill-cycles";
        case ViolationKind::Edges: return "edges";
        case ViolationKind::Allocation: return "allocation";
        case ViolationKind::Residency: return "residency";
        case ViolationKind::Bounds: return "bounds";
        case ViolationKind::Overlap: return "overlap";
        case ViolationKind::Metrics: return "metrics";
        case ViolationKind::Timing: return "timing";
        case ViolationKind::Capacities: return "capacities";
    }
    return "?";
}

namespace {

using Kind = ViolationKind;
constexpr std::size_t kMaxViolations = 100;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

template <typename... Args>
std::string cat(const Args&... args) {
    std::ostringstream os;
    (os << ... << args);
    return os.str();
}

// Saturating arithmetic: a hand-made plan may hold any numbers.
std::int64_t addSat(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kMax : kMin;
    return r;
}
std::int64_t mulSat(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? kMin : kMax;
    return r;
}

Bytes endOf(Bytes offset, Bytes size) { return addSat(offset, size); }

std::string range(Bytes offset, Bytes size) { return cat("[", offset, ", ", endOf(offset, size), ")"); }

// The structured place of a violation.
struct At {
    std::optional<std::int64_t> node, buffer, step, spill;
    std::string field;
};

// Collects violations. At most kMaxViolations are returned, shared fairly between kinds (so that a
// flood of one kind, e.g. every later step shifted by one, cannot hide a single overlap), in the
// order they were found, followed by one "... and N more" entry counting the rest by kind.
class Report {
public:
    void add(Kind kind, std::string message, At at = {}) {
        PerKind& k = kinds_[kind];
        if (k.total == 0) firstSeen_.push_back(kind);
        ++k.total;
        if (k.kept.size() < kMaxViolations) {
            Violation v{kind, std::move(message), at.node, at.buffer, at.step, at.spill, std::move(at.field)};
            k.kept.push_back({seq_, std::move(v)});
        }
        ++seq_;
    }
    bool any(std::initializer_list<Kind> kinds) const {
        for (Kind k : kinds)
            if (kinds_.count(k)) return true;
        return false;
    }
    std::vector<Violation> finish() {
        // Round-robin quotas over the kinds in the order they first appeared.
        std::map<Kind, std::size_t> quota;
        std::size_t given = 0;
        for (bool progress = true; progress && given < kMaxViolations;) {
            progress = false;
            for (Kind kind : firstSeen_) {
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
        for (Kind kind : firstSeen_) {
            PerKind& k = kinds_[kind];
            for (std::size_t i = 0; i < quota[kind]; ++i) chosen.push_back(std::move(k.kept[i]));
            if (k.total > quota[kind]) {
                omitted += cat(omitted.empty() ? "" : ", ", violationKindName(kind), " ", k.total - quota[kind]);
                omittedTotal += k.total - quota[kind];
            }
        }
        std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<Violation> out;
        out.reserve(chosen.size() + 1);
        for (auto& c : chosen) out.push_back(std::move(c.second));
        if (omittedTotal > 0) {
            Violation more;
            more.kind = firstSeen_.front();
            more.message = cat("... and ", omittedTotal, " more violations (", omitted, ")");
            out.push_back(std::move(more));
        }
        return out;
    }

private:
    struct PerKind {
        std::size_t total = 0;
        std::vector<std::pair<std::size_t, Violation>> kept;  // (sequence number, violation)
    };
    std::map<Kind, PerKind> kinds_;
    std::vector<Kind> firstSeen_;
    std::size_t seq_ = 0;
};

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
    Verifier(const Graph& g, const Capacities& caps, const Plan& plan, const CostModel& cost,
             const ResultClaims* claims, const BoundsRecomputation& recompute = {})
        : g_(g), caps_(caps), plan_(plan), cost_(cost), claims_(claims), recompute_(recompute) {
        std::vector<std::int64_t> ids;
        ids.reserve(g.nodes.size());
        for (const Node& n : g.nodes) ids.push_back(n.id);
        graphIndex_ = IdTable::positions(ids);
        ids.clear();
        for (const Buffer& b : g.buffers) ids.push_back(b.id);
        bufferIndex_ = IdTable::positions(ids);
        std::map<std::string, int> memories;
        for (const Buffer& b : g.buffers) memories.emplace(b.type, 0);
        for (auto& [type, index] : memories) {
            index = static_cast<int>(memoryNames_.size());
            memoryNames_.push_back(type);
        }
        memoryOf_.reserve(g.buffers.size());
        for (const Buffer& b : g.buffers) memoryOf_.push_back(memories.at(b.type));
    }

    std::vector<Violation> run() {
        checkOrder();
        checkSpillIds();
        checkSpillCycles();
        checkAllocations();
        checkEdges();
        checkTopological();
        replay();
        if (claims_) {
            checkInputOrder();
            checkMetrics();
            if (!report_.any({Kind::Order, Kind::SpillIds, Kind::SpillPair, Kind::Allocation, Kind::Residency}))
                checkTiming();
            checkCapacities();
            checkBoundClaims();
        }
        return report_.finish();
    }

private:
    const Graph& g_;
    const Capacities& caps_;
    const Plan& plan_;
    const CostModel& cost_;
    const ResultClaims* claims_;
    const BoundsRecomputation recompute_;
    Report report_;
    std::optional<Cycles> timedTotal_;  // the total cycles checkTiming recomputed, when it ran

    // Ids to indices in flat tables where the ids are dense (id_table.h): at 10^6 nodes the
    // graph's hash maps made most of this check's time, cache misses growing faster than n.
    IdTable graphIndex_;   // graph node id -> index in g.nodes
    IdTable bufferIndex_;  // buffer id -> index in g.buffers
    IdTable pos_;          // node id -> first position in plan.order
    // Graph node index -> first position in plan.order (-1: absent), filled in one pass over the
    // nodes: the edges' checks read it instead of two scattered node records an edge.
    std::vector<int> stepOfGraphNode_;
    // Each added edge's ends as steps (-1: absent), looked up once by checkTopological for the
    // timing check too: a scattered lookup an end, and the tiled matmul has more added edges
    // than nodes at 10^6.
    std::vector<std::pair<int, int>> addedEdgeSteps_;
    IdTable addedIndex_;                      // added node id -> index in plan.addedNodes
    IdTable spillOfNode_;                     // spill node id (not a graph id) -> spill k
    std::vector<int> spillBufIndex_;          // spill k -> buffer index, -1 if unknown
    std::vector<const Allocation*> allocOf_;  // buffer index -> its allocation
    // The memories the buffers name, by name, and each buffer's as an index among them: a map
    // from names a step was string compares growing with the steps.
    std::vector<std::string> memoryNames_;
    std::vector<int> memoryOf_;  // buffer index -> memory index

    // Each step of the plan's order as the passes after checkOrder read it, gathered once in
    // checkOrder's walk (the spill of an added id after checkSpillIds): on a random graph the
    // order is scattered over the graph, and each pass's lookups by id (the node's index, its
    // record, its Bufs, their buffers' indices) were cache misses a step, in three passes.
    enum class Op : std::uint8_t { Alloc, Free, SpillOut, SpillIn, Other };
    // 32 bytes on a 32-byte boundary, so that none straddles two cache lines: gatherSteps writes
    // them scattered, a miss a line (at 40 bytes, half of them were two).
    struct alignas(32) Step {
        const Node* node = nullptr;  // the graph or added node of the id; null: neither
        // The node's cycles and pipe (an index into pipeNames_, -1 for none): the timing check's
        // walk reads these and no node record.
        Cycles cycles = 0;
        int pipe = -1;
        int buf = -1;    // buffer index an ALLOC/FREE or spill moves (-1: none, unknown)
        int spill = -1;  // a non-graph id's spill (spillOfNode_), -1: none
        Op op = Op::Other;
        bool graph = false;  // a graph node
        bool first = false;  // the id's first step (later ones are reported by checkOrder)
    };
    std::vector<Step> steps_;
    // The pipes the steps run on, numbered as they first appear among the node records (their
    // interned texts: one text, one copy).
    std::vector<const std::string*> pipeNames_;
    bool inputIsOrder_ = false;  // the claimed input order is the plan's without its spill nodes
    // Step i's Bufs as buffer indices (-1: unknown buffer; none for an unknown id):
    // stepBufs_[stepBufStart_[i] .. stepBufStart_[i + 1]).
    std::vector<int> stepBufStart_, stepBufs_;
    IndexRange bufsAt(std::size_t i) const {
        return {stepBufs_.data() + stepBufStart_[i], stepBufs_.data() + stepBufStart_[i + 1]};
    }
    // Names compare by identity: no text compared a step.
    const Name allocOp_{kAlloc}, freeOp_{kFree}, spillOutOp_{kSpillOut}, spillInOp_{kSpillIn};
    const Name spillOutPipe_{kSpillOutPipe}, spillInPipe_{kSpillInPipe};
    Op opOf(const Node& n) const {
        return n.op == allocOp_      ? Op::Alloc
               : n.op == freeOp_     ? Op::Free
               : n.op == spillOutOp_ ? Op::SpillOut
               : n.op == spillInOp_  ? Op::SpillIn
                                     : Op::Other;
    }

    bool isGraphNode(NodeId id) const { return graphIndex_.contains(id); }
    bool known(NodeId id) const { return isGraphNode(id) || addedIndex_.contains(id); }
    int posOf(NodeId id) const { return pos_.find(id); }
    // The graph node of an id, or null.
    const Node* graphNode(NodeId id) const {
        const int i = graphIndex_.find(id);
        return i < 0 ? nullptr : &g_.nodes[i];
    }
    // The added node of an id, or null.
    const Node* addedNode(NodeId id) const {
        const int i = addedIndex_.find(id);
        return i < 0 ? nullptr : &plan_.addedNodes[i];
    }
    std::optional<std::int64_t> stepOf(NodeId id) const {
        const int p = posOf(id);
        return p < 0 ? std::nullopt : std::optional<std::int64_t>(p);
    }
    std::string nodeName(NodeId id) const {
        if (const Node* found = graphNode(id)) {
            const Node& n = *found;
            if (n.isBufferNode()) return cat("node ", id, " (", n.op, " of buffer ", n.buf, ")");
            return cat("node ", id, " (", n.op, ")");
        }
        if (const int k = spillOfNode_.find(id); k >= 0) {
            const Spill& sp = plan_.spills[k];
            return cat("node ", id, " (", sp.outNode == id ? kSpillOut : kSpillIn, " of spill ", k, ", buffer ", sp.buf,
                       ")");
        }
        return cat("node ", id);
    }
    At atNode(NodeId id, std::optional<std::int64_t> buffer = std::nullopt) const {
        At at;
        at.node = id;
        at.buffer = buffer;
        at.step = stepOf(id);
        return at;
    }
    At atSpill(std::size_t k) const {
        At at;
        at.spill = static_cast<std::int64_t>(k);
        at.buffer = plan_.spills[k].buf;
        at.node = plan_.spills[k].outNode;
        at.step = stepOf(plan_.spills[k].outNode);
        return at;
    }

    // 1. The order is a permutation of graph nodes + added nodes.
    void checkOrder() {
        std::vector<NodeId> addedIds;
        addedIds.reserve(plan_.addedNodes.size());
        for (const Node& n : plan_.addedNodes) addedIds.push_back(n.id);
        addedIndex_ = IdTable::positions(addedIds);
        pos_ = IdTable::over(plan_.order);
        const std::size_t L = plan_.order.size();
        steps_.resize(L);
        std::vector<std::size_t> repeats;  // the steps of ids seen before
        for (std::size_t i = 0; i < L; ++i) {
            steps_[i].first = pos_.emplace(plan_.order[i], static_cast<int>(i)) == static_cast<int>(i);
            if (!steps_[i].first) repeats.push_back(i);
        }
        gatherSteps(repeats);
        for (std::size_t i = 0; i < L; ++i) {
            const NodeId id = plan_.order[i];
            At at;
            at.node = id;
            at.step = static_cast<std::int64_t>(i);
            if (!steps_[i].first) {
                report_.add(Kind::Order,
                            cat("node ", id, " appears twice in the order: at step ", posOf(id), " and at step ", i),
                            at);
            } else if (!steps_[i].node) {
                report_.add(Kind::Order, cat("step ", i, ": node ", id, " is neither a graph node nor an added node"),
                            at);
            }
        }
        for (std::size_t gi = 0; gi < g_.nodes.size(); ++gi)
            if (stepOfGraphNode_[gi] < 0)
                report_.add(Kind::Order, cat(nodeName(g_.nodes[gi].id), " is missing from the order"),
                            atNode(g_.nodes[gi].id));
        for (const Node& n : plan_.addedNodes)
            if (!pos_.contains(n.id))
                report_.add(Kind::Order, cat("added node ", n.id, " (", n.op, ") is missing from the order"),
                            atNode(n.id));
    }

    // Fills steps_ and the steps' Bufs (stepBufs_) from the node records: each record is read in
    // storage order (the graph's nodes, then the added ones) and its facts written at its first
    // step; `repeats` (the later steps of an id) are looked up by id. Read in the order's
    // sequence, the records of a 10^6-node plan were cache misses scattered over the graph.
    void gatherSteps(const std::vector<std::size_t>& repeats) {
        const std::size_t L = plan_.order.size();
        stepOfGraphNode_.resize(g_.nodes.size());
        // The added node each step's id names, when it is no graph node's (its first in addedNodes).
        auto forEachAddedStep = [&](auto&& f) {
            for (std::size_t k = 0; k < plan_.addedNodes.size(); ++k) {
                const NodeId id = plan_.addedNodes[k].id;
                if (isGraphNode(id) || addedIndex_.find(id) != static_cast<int>(k)) continue;
                if (const int p = posOf(id); p >= 0) f(static_cast<std::size_t>(p), plan_.addedNodes[k], false);
            }
        };
        // f(step, node, graph) for each step whose id is a node. The first pass also numbers the
        // graph's nodes (stepOfGraphNode_) as it reads their records: a pass of its own over the
        // records for their ids was 80 MB more read at 10^6 nodes.
        auto forEachStep = [&](bool numbered, auto&& f) {
            for (std::size_t gi = 0; gi < g_.nodes.size(); ++gi) {
                const int p = numbered ? stepOfGraphNode_[gi] : (stepOfGraphNode_[gi] = posOf(g_.nodes[gi].id));
                if (p >= 0) f(static_cast<std::size_t>(p), g_.nodes[gi], true);
            }
            forEachAddedStep(f);
            for (std::size_t i : repeats) {
                const NodeId id = plan_.order[i];
                if (const int gi = graphIndex_.find(id); gi >= 0)
                    f(i, g_.nodes[static_cast<std::size_t>(gi)], true);
                else if (const Node* added = addedNode(id))
                    f(i, *added, false);
            }
        };
        stepBufStart_.assign(L + 1, 0);
        // Consecutive records often share a pipe: a pointer compare, and a search of the few
        // pipes only where a run changes.
        const std::string* lastPipe = nullptr;
        int lastPipeIndex = -1;
        forEachStep(false, [&](std::size_t i, const Node& n, bool graph) {
            Step& s = steps_[i];
            s.node = &n;
            s.graph = graph;
            s.op = opOf(n);
            if (!n.pipe.empty()) {
                if (&n.pipe.str() != lastPipe) {
                    lastPipe = &n.pipe.str();
                    lastPipeIndex = static_cast<int>(std::find(pipeNames_.begin(), pipeNames_.end(), lastPipe) -
                                                     pipeNames_.begin());
                    if (lastPipeIndex == static_cast<int>(pipeNames_.size())) pipeNames_.push_back(lastPipe);
                }
                s.pipe = lastPipeIndex;
            }
            s.cycles = n.cycles;
            if (graph && (s.op == Op::Alloc || s.op == Op::Free)) s.buf = bufferIndex_.find(n.buf);
            stepBufStart_[i + 1] = static_cast<int>(n.bufs.size());
        });
        for (std::size_t i = 0; i < L; ++i) stepBufStart_[i + 1] += stepBufStart_[i];
        stepBufs_.resize(static_cast<std::size_t>(stepBufStart_[L]));
        forEachStep(true, [&](std::size_t i, const Node& n, bool) {
            int* at = stepBufs_.data() + stepBufStart_[i];
            for (BufferId b : n.bufs) *at++ = bufferIndex_.find(b);
        });
    }
    // The spill (and its buffer) of each step whose id is no graph node's, once spills are known.
    void gatherSpillSteps() {
        for (std::size_t i = 0; i < steps_.size(); ++i) {
            Step& s = steps_[i];
            if (s.graph) continue;
            s.spill = spillOfNode_.find(plan_.order[i]);
            s.buf = s.spill < 0 ? -1 : spillBufIndex_[static_cast<std::size_t>(s.spill)];
        }
    }

    // 2. Spill ids, added nodes, spill fields.
    void checkSpillIds() {
        const std::int64_t base = std::int64_t{g_.maxNodeId()} + 1;
        const auto& spills = plan_.spills;
        spillBufIndex_.assign(spills.size(), -1);
        std::vector<NodeId> spillIds;
        spillIds.reserve(2 * spills.size());
        for (const Spill& s : spills) spillIds.insert(spillIds.end(), {s.outNode, s.inNode});
        spillOfNode_ = IdTable::over(spillIds);
        for (std::size_t k = 0; k < spills.size(); ++k) {
            const Spill& s = spills[k];
            const std::int64_t wantOut = base + 2 * static_cast<std::int64_t>(k);
            const std::int64_t wantIn = wantOut + 1;
            if (s.outNode != wantOut || s.inNode != wantIn) {
                report_.add(
                    Kind::SpillIds,
                    cat("spill ", k, " (buffer ", s.buf, ") has SPILL_OUT ", s.outNode, " / SPILL_IN ", s.inNode,
                        ", expected ", wantOut, " / ", wantIn, " (base ", base, " = largest node id + 1)"),
                    atSpill(k));
            }
            for (NodeId id : {s.outNode, s.inNode}) {
                if (isGraphNode(id)) {
                    report_.add(Kind::SpillIds, cat("spill ", k, ": node ", id, " is already a graph node"),
                                atSpill(k));
                } else if (const int first = spillOfNode_.find(id); first >= 0) {
                    report_.add(Kind::SpillIds, cat("spill ", k, ": node ", id, " is already used by spill ", first),
                                atSpill(k));
                } else {
                    spillOfNode_.emplace(id, static_cast<int>(k));
                }
            }
            if (const int b = bufferIndex_.find(s.buf); b < 0) {
                report_.add(Kind::SpillPair, cat("spill ", k, " names unknown buffer ", s.buf), atSpill(k));
            } else {
                spillBufIndex_[k] = b;
                const Buffer& buf = g_.buffers[b];
                if (s.type != buf.type || s.size != buf.size) {
                    report_.add(Kind::SpillPair,
                                cat("spill ", k, " of buffer ", s.buf, " says ", s.type, "/", s.size,
                                    " bytes but the buffer is ", buf.type, "/", buf.size, " bytes"),
                                atSpill(k));
                }
            }
            const int po = posOf(s.outNode), pi = posOf(s.inNode);
            if (po >= 0 && s.outStep != po) {
                report_.add(Kind::SpillIds,
                            cat("spill ", k, " (buffer ", s.buf, "): outStep ", s.outStep, " but SPILL_OUT ", s.outNode,
                                " is at step ", po),
                            atSpill(k));
            }
            if (pi >= 0 && s.inStep != pi) {
                At at = atSpill(k);
                at.node = s.inNode;
                at.step = pi;
                report_.add(Kind::SpillIds,
                            cat("spill ", k, " (buffer ", s.buf, "): inStep ", s.inStep, " but SPILL_IN ", s.inNode,
                                " is at step ", pi),
                            at);
            }
            if (po >= 0 && pi >= 0 && po >= pi) {
                report_.add(Kind::SpillPair,
                            cat("spill ", k, " (buffer ", s.buf, "): SPILL_IN ", s.inNode, " at step ", pi,
                                " does not come after SPILL_OUT ", s.outNode, " at step ", po),
                            atSpill(k));
            }
        }

        // addedNodes: exactly the spill nodes, ascending id, with the right content.
        const auto& added = plan_.addedNodes;
        for (std::size_t i = 1; i < added.size(); ++i) {
            if (added[i - 1].id >= added[i].id) {
                report_.add(Kind::SpillIds,
                            cat("addedNodes not in ascending id order: ", added[i - 1].id, " before ", added[i].id),
                            atNode(added[i].id));
            }
        }
        for (const Node& n : added)
            if (!spillOfNode_.contains(n.id))
                report_.add(Kind::SpillIds, cat("added node ", n.id, " (", n.op, ") belongs to no spill"),
                            atNode(n.id));
        for (std::size_t k = 0; k < spills.size(); ++k) {
            const Spill& s = spills[k];
            checkAddedNode(k, s.outNode, spillOutOp_, spillOutPipe_, s.buf);
            checkAddedNode(k, s.inNode, spillInOp_, spillInPipe_, s.buf);
        }
        gatherSpillSteps();
    }

    // `op` and `pipe` as Names: compared by identity, not as texts (two a spill node, and the
    // tiled matmul has more spills a node the larger it is).
    void checkAddedNode(std::size_t k, NodeId id, const Name& op, const Name& pipe, BufferId buf) {
        if (isGraphNode(id)) return;  // already reported
        const Node* added = addedNode(id);
        if (!added) {
            report_.add(Kind::SpillIds, cat("spill ", k, ": its ", op, " node ", id, " is not in addedNodes"),
                        atNode(id, buf));
            return;
        }
        const Node& n = *added;
        if (n.op != op || n.pipe != pipe) {
            report_.add(Kind::SpillIds,
                        cat("spill ", k, ": added node ", id, " is ", n.op, "/", n.pipe.empty() ? "-" : n.pipe,
                            ", expected ", op, "/", pipe),
                        atNode(id, buf));
        }
        if (n.bufs.size() != 1 || n.bufs[0] != buf) {
            std::string got;
            for (BufferId b : n.bufs) got += cat(got.empty() ? "" : ", ", b);
            report_.add(Kind::SpillIds,
                        cat("spill ", k, ": added node ", id, " has Bufs [", got, "], expected [", buf, "]"),
                        atNode(id, buf));
        }
    }

    // 2b. Spill nodes take the cycles the cost model gives their buffer.
    Cycles spillCycles(const Buffer& b, bool out) const {
        if (cost_.kind == CostModel::Kind::Seed) return addSat(cost_.fixedLatency, mulSat(cost_.cyclesPerByte, b.size));
        if (out && b.hasCopyIn) return 0;  // main memory already holds a COPY_IN buffer's data
        return addSat(mulSat(2, b.size), 150);
    }
    void checkSpillCycles() {
        const char* model = cost_.kind == CostModel::Kind::Seed
                                ? "seed (fixed latency + cycles per byte * Size)"
                                : "contest (2 * Size + 150; a COPY_IN buffer's SPILL_OUT 0)";
        for (std::size_t k = 0; k < plan_.spills.size(); ++k) {
            if (spillBufIndex_[k] < 0) continue;
            const Buffer& b = g_.buffers[spillBufIndex_[k]];
            for (bool out : {true, false}) {
                const NodeId id = out ? plan_.spills[k].outNode : plan_.spills[k].inNode;
                const Node* added = addedNode(id);
                if (!added || isGraphNode(id)) continue;  // reported as spill-ids
                const Cycles want = spillCycles(b, out);
                if (added->cycles != want) {
                    report_.add(Kind::SpillCycles,
                                cat("spill ", k, " (buffer ", b.id, "): ", out ? kSpillOut : kSpillIn, " node ", id,
                                    " has Cycles ", added->cycles, ", the cost model ", model, " gives ", want),
                                atNode(id, b.id));
                }
            }
        }
    }

    // 3. Allocations.
    void checkAllocations() {
        allocOf_.assign(g_.buffers.size(), nullptr);
        const auto& allocs = plan_.allocations;
        for (std::size_t i = 0; i < allocs.size(); ++i) {
            const Allocation& a = allocs[i];
            // Formatted only for a violation: a string stream an allocation was a tenth of this check.
            auto at = [&] {
                At place;
                place.buffer = a.buf;
                place.field = cat("allocations[", i, "]");
                return place;
            };
            if (i > 0 && allocs[i - 1].buf >= a.buf) {
                report_.add(Kind::Allocation,
                            cat("allocations not in ascending BufId order: buffer ", allocs[i - 1].buf,
                                " before buffer ", a.buf),
                            at());
            }
            const int b = bufferIndex_.find(a.buf);
            if (b < 0) {
                report_.add(Kind::Allocation, cat("allocation for unknown buffer ", a.buf), at());
                continue;
            }
            if (allocOf_[b] != nullptr) {
                report_.add(Kind::Allocation, cat("buffer ", a.buf, " has more than one allocation"), at());
                continue;
            }
            allocOf_[b] = &a;
            const Buffer& buf = g_.buffers[b];
            if (a.type != buf.type || a.size != buf.size) {
                report_.add(Kind::Allocation,
                            cat("allocation of buffer ", a.buf, " says ", a.type, "/", a.size,
                                " bytes but the buffer is ", buf.type, "/", buf.size, " bytes"),
                            at());
            }
        }
        for (std::size_t i = 0; i < g_.buffers.size(); ++i) {
            if (allocOf_[i] == nullptr) {
                At at;
                at.buffer = g_.buffers[i].id;
                report_.add(Kind::Allocation, cat("buffer ", g_.buffers[i].id, " has no allocation"), at);
            }
        }
    }

    // 4. addedEdges are exactly the rule's set (see the top of this file).
    void checkEdges() {
        const std::vector<std::pair<NodeId, NodeId>>& added = plan_.addedEdges;
        bool sortedUnique = true;
        for (std::size_t i = 1; i < added.size(); ++i) {
            if (!(added[i - 1] < added[i])) {
                sortedUnique = false;
                At at;
                at.field = cat("addedEdges[", i, "]");
                report_.add(Kind::Edges,
                            cat("addedEdges not sorted or duplicated: ", added[i - 1].first, " -> ",
                                added[i - 1].second, " before ", added[i].first, " -> ", added[i].second),
                            at);
            }
        }

        // The rule's edges, each with the spill it belongs to and why: require(edge, spill, why).
        // Each buffer's spills in the order of their SPILL_OUT (those missing from the order first,
        // ties by spill index), placed by counting: spillsOf[spillStart[bi] .. spillStart[bi + 1]).
        // Each holds what the rule reads of its spill, read here in spill order: read by buffer,
        // the spills and their steps were scattered lookups. (A hash map of a vector a buffer, each
        // sorted, was most of this check at 10^6 nodes.) The planner numbers spills in SPILL_OUT
        // order, so placing them in index order sorts them; a run is sorted here only when a
        // hand-made plan numbers them otherwise.
        struct SpillOfBuffer {
            int k = 0;              // the spill
            int out = -1, in = -1;  // its SPILL_OUT's and SPILL_IN's steps (-1: absent)
            NodeId outNode = 0, inNode = 0;
        };
        const std::size_t B = g_.buffers.size();
        std::vector<int> spillStart(B + 1, 0);
        for (std::size_t k = 0; k < plan_.spills.size(); ++k)
            if (spillBufIndex_[k] >= 0) ++spillStart[static_cast<std::size_t>(spillBufIndex_[k])];
        for (std::size_t bi = 0; bi < B; ++bi) spillStart[bi + 1] += spillStart[bi];  // each run's end
        std::vector<SpillOfBuffer> spillsOf(static_cast<std::size_t>(spillStart[B]));
        for (std::size_t k = plan_.spills.size(); k-- > 0;)  // from the end down: each run ascending
            if (const int bi = spillBufIndex_[k]; bi >= 0) {
                const Spill& s = plan_.spills[k];
                spillsOf[static_cast<std::size_t>(--spillStart[static_cast<std::size_t>(bi)])] = {
                    static_cast<int>(k), posOf(s.outNode), posOf(s.inNode), s.outNode, s.inNode};
            }
        auto byOutStep = [](const SpillOfBuffer& x, const SpillOfBuffer& y) { return x.out < y.out; };
        for (std::size_t bi = 0; bi < B; ++bi) {
            const auto first = spillsOf.begin() + spillStart[bi], last = spillsOf.begin() + spillStart[bi + 1];
            if (!std::is_sorted(first, last, byOutStep)) std::stable_sort(first, last, byOutStep);
        }
        std::vector<std::pair<int, NodeId>> users;  // a buffer's users as (step, id), in order
        auto forEachRequired = [&](auto&& require) {
            for (std::size_t bi = 0; bi < B; ++bi) {
                const SpillOfBuffer* ks = spillsOf.data() + spillStart[bi];
                const std::size_t m = static_cast<std::size_t>(spillStart[bi + 1] - spillStart[bi]);
                if (m == 0) continue;
                const Buffer& buf = g_.buffers[bi];
                const NodeId allocId = g_.nodes[buf.allocNode].id;
                const NodeId freeId = g_.nodes[buf.freeNode].id;
                // Users in order; each falls in the window before some OUT_j and/or after some IN_j.
                // A user's first step, and its id from the order there: no node record read.
                users.clear();
                for (int ui : buf.users)
                    if (const int p = stepOfGraphNode_[static_cast<std::size_t>(ui)]; p >= 0)
                        users.emplace_back(p, plan_.order[static_cast<std::size_t>(p)]);
                if (!std::is_sorted(users.begin(), users.end())) std::sort(users.begin(), users.end());
                auto u = users.begin();
                for (std::size_t j = 0; j < m; ++j) {
                    const SpillOfBuffer& s = ks[j];
                    const std::size_t k = static_cast<std::size_t>(s.k);
                    require(std::make_pair(allocId, s.outNode), k, "ALLOC -> SPILL_OUT");
                    require(std::make_pair(s.outNode, s.inNode), k, "SPILL_OUT -> SPILL_IN");
                    require(std::make_pair(s.inNode, freeId), k, "SPILL_IN -> FREE");
                    if (j > 0)
                        require(std::make_pair(ks[j - 1].inNode, s.outNode), k, "previous SPILL_IN -> SPILL_OUT");
                    for (; u != users.end() && s.out >= 0 && u->first < s.out; ++u)
                        require(std::make_pair(u->second, s.outNode), k,
                                "a user since the buffer's last reload -> SPILL_OUT");
                    while (u != users.end() && s.in >= 0 && u->first < s.in)
                        ++u;  // between OUT and IN: a residency fault
                    const int nextOut = j + 1 < m ? ks[j + 1].out : -1;
                    for (auto w = u; w != users.end() && (nextOut < 0 || w->first < nextOut); ++w)
                        require(std::make_pair(s.inNode, w->second), k,
                                "SPILL_IN -> a user before the buffer's next SPILL_OUT");
                }
            }
        };
        if (!sortedUnique || !holdsExactlyRequired(added, forEachRequired)) reportEdgeDifferences(forEachRequired);
        if (claims_)
            for (const ResultClaims::ForeignEdge& e : claims_->foreignEdges) {
                At at;
                at.field = cat("addedEdges[", e.index, "]");
                report_.add(Kind::Edges,
                            cat("added edge ", e.from, " -> ", e.to, " (addedEdges[", e.index,
                                "]) names a node id above 2^31 - 1, which no node has"),
                            at);
            }
    }
    // Whether `edges` (sorted, no duplicates) are the rule's set: each required edge is looked up
    // in its source's run of `edges` instead of sorting the required edges (n log n: the sort was
    // most of this check at 10^6 nodes).
    template <typename ForEachRequired>
    static bool holdsExactlyRequired(const std::vector<std::pair<NodeId, NodeId>>& edges,
                                     ForEachRequired&& forEachRequired) {
        std::vector<NodeId> sources;
        sources.reserve(edges.size());
        for (const auto& e : edges) sources.push_back(e.first);
        const IdTable firstOf = IdTable::positions(sources);  // a source's first edge
        std::vector<bool> required(edges.size(), false);      // a bit an edge: the marks stay in cache
        std::size_t distinct = 0;
        bool all = true;
        forEachRequired([&](std::pair<NodeId, NodeId> edge, std::size_t, const char*) {
            const int first = firstOf.find(edge.first);
            if (!all || first < 0) {
                all = false;
                return;
            }
            // Galloping from the run's start: a source's run can be long (a reload's users).
            std::size_t lo = static_cast<std::size_t>(first), hi = lo, step = 1;
            while (hi < edges.size() && edges[hi] < edge) {
                lo = hi + 1;
                hi += step;
                step *= 2;
            }
            const auto it =
                std::lower_bound(edges.begin() + static_cast<std::ptrdiff_t>(lo),
                                 edges.begin() + static_cast<std::ptrdiff_t>(std::min(hi + 1, edges.size())), edge);
            if (it == edges.end() || *it != edge) {
                all = false;
                return;
            }
            const std::size_t at = static_cast<std::size_t>(it - edges.begin());
            distinct += !required[at];
            required[at] = true;
        });
        return all && distinct == edges.size();
    }
    // Each edge of the rule missing from addedEdges and each one of addedEdges not in the rule.
    template <typename ForEachRequired>
    void reportEdgeDifferences(ForEachRequired&& forEachRequired) {
        std::vector<std::pair<NodeId, NodeId>> plan = plan_.addedEdges;
        std::sort(plan.begin(), plan.end());
        plan.erase(std::unique(plan.begin(), plan.end()), plan.end());
        struct Required {
            std::pair<NodeId, NodeId> edge;
            std::size_t spill;
            const char* why;
        };
        std::vector<Required> rule;
        forEachRequired([&](std::pair<NodeId, NodeId> edge, std::size_t k, const char* why) {
            rule.push_back({edge, k, why});
        });
        // Stable: of a required edge listed more than once (a hand-made plan's repeated spill
        // ids), the first in the rule's order (buffers ascending, their spills by SPILL_OUT) is named.
        std::stable_sort(rule.begin(), rule.end(),
                         [](const Required& a, const Required& b) { return a.edge < b.edge; });
        rule.erase(std::unique(rule.begin(), rule.end(),
                               [](const Required& a, const Required& b) { return a.edge == b.edge; }),
                   rule.end());

        // Missing: in the rule, not in the plan; extra: in the plan, not in the rule.
        auto p = plan.begin();
        auto r = rule.begin();
        while (p != plan.end() || r != rule.end()) {
            if (r == rule.end() || (p != plan.end() && *p < r->edge)) {
                extraEdge(*p++);
            } else if (p == plan.end() || r->edge < *p) {
                At at = atSpill(r->spill);
                at.node = r->edge.second;
                at.step = stepOf(r->edge.second);
                report_.add(Kind::Edges,
                            cat("spill ", r->spill, " (buffer ", plan_.spills[r->spill].buf, "): required edge ",
                                r->edge.first, " -> ", r->edge.second, " (", r->why, ") is missing from addedEdges"),
                            at);
                ++r;
            } else {
                ++p;
                ++r;
            }
        }
    }
    void extraEdge(std::pair<NodeId, NodeId> e) {
        const auto [a, b] = e;
        At at = atNode(b);
        std::string why;
        if (!known(a) || !known(b))
            why = cat("names unknown node ", known(a) ? b : a);
        else if (isGraphNode(a) && isGraphNode(b))
            why = "joins two graph nodes (it must touch an added node)";
        else
            why = "is not an edge of the rule";
        report_.add(Kind::Edges, cat("added edge ", a, " -> ", b, " ", why), at);
    }

    // 5. The order respects the original edges and the added edges.
    void checkTopological() {
        auto broken = [](int pa, int pb) { return pa >= 0 && pb >= 0 && pa >= pb; };
        auto report = [&](NodeId a, NodeId b, int pa, int pb, const char* what) {
            report_.add(Kind::Order,
                        cat(what, " edge ", a, " -> ", b, " is broken: ", a, " at step ", pa, ", ", b, " at step ", pb),
                        atNode(b));
        };
        for (const auto& [a, b] : g_.edges) {
            const int pa = stepOfGraphNode_[a], pb = stepOfGraphNode_[b];
            if (broken(pa, pb)) report(g_.nodes[a].id, g_.nodes[b].id, pa, pb, "graph");
        }
        addedEdgeSteps_.resize(plan_.addedEdges.size());
        for (std::size_t e = 0; e < plan_.addedEdges.size(); ++e) {
            const auto [a, b] = plan_.addedEdges[e];
            const int pa = posOf(a), pb = posOf(b);
            addedEdgeSteps_[e] = {pa, pb};
            if (broken(pa, pb)) report(a, b, pa, pb, "added");
        }
    }

    // Each buffer's state and what placing it reads, in one record: the walk visits buffers in
    // the order's sequence, scattered, and each table it read (the state, the allocation through
    // its pointer, the buffer, its memory's map and capacity) was a cache miss of its own.
    struct alignas(64) Resident {
        BufState st;
        Bytes allocOffset = 0;
        Bytes size = 0;
        Occupancy* occ = nullptr;
        const Bytes* cap = nullptr;  // null: the memory has no capacity
        BufferId id = 0;
        bool allocated = false;  // it has an allocation (else reported by checkAllocations)
    };
    std::vector<Resident> resident_;    // buffer index -> its state in the replay
    std::vector<Occupancy> occupancy_;  // memory index -> its resident buffers in the replay

    // 6. Replays the order: residency, bounds and overlap at every step.
    void replay() {
        makeResidentTable();
        for (std::size_t i = 0; i < plan_.order.size(); ++i) {
            const Step& fact = steps_[i];
            if (!fact.first) continue;  // a duplicate: reported by checkOrder
            if (!fact.graph)
                replaySpillNode(i);
            else if (fact.op == Op::Alloc)
                replayAlloc(i);
            else if (fact.op == Op::Free)
                replayFree(i);
            else
                checkUsesResident(i);
        }
        checkEveryBufferFreed();
    }

    // Each memory resolved once (a type without a capacity still gets a map).
    void makeResidentTable() {
        occupancy_.assign(memoryNames_.size(), Occupancy{});
        std::vector<const Bytes*> capOfMemory(memoryNames_.size(), nullptr);
        for (std::size_t m = 0; m < memoryNames_.size(); ++m)
            if (auto cap = caps_.find(memoryNames_[m]); cap != caps_.end()) capOfMemory[m] = &cap->second;
        resident_.assign(g_.buffers.size(), Resident{});
        for (std::size_t bi = 0; bi < g_.buffers.size(); ++bi) {
            Resident& r = resident_[bi];
            const int m = memoryOf_[bi];
            r.size = g_.buffers[bi].size;
            r.id = g_.buffers[bi].id;
            r.occ = &occupancy_[static_cast<std::size_t>(m)];
            r.cap = capOfMemory[static_cast<std::size_t>(m)];
            r.allocated = allocOf_[bi] != nullptr;
            if (r.allocated) r.allocOffset = allocOf_[bi]->offset;
        }
    }

    // Makes buffer `bi` resident at `offset`, reporting a placement out of bounds or over another
    // resident buffer (which then is not recorded).
    void place(int bi, Bytes offset, int step, NodeId node, const char* what) {
        const Resident& r = resident_[bi];
        BufState& s = resident_[bi].st;
        s.state = State::Resident;
        s.offset = offset;
        s.placed = false;
        auto where = [&] {
            const Buffer& buf = g_.buffers[bi];
            return cat("step ", step, ", ", nodeName(node), ": ", what, " of buffer ", buf.id, " at ", buf.type, " ",
                       range(offset, buf.size));
        };
        At at;
        at.node = node;
        at.buffer = r.id;
        at.step = step;
        const Bytes* cap = r.cap;
        if (cap == nullptr) {
            report_.add(Kind::Bounds, cat(where(), ": memory ", g_.buffers[bi].type, " has no capacity"), at);
        } else if (offset < 0 || endOf(offset, r.size) > *cap) {
            report_.add(Kind::Bounds, cat(where(), " is outside [0, ", *cap, ")"), at);
        }
        if (r.size <= 0) return;
        Occupancy& o = *r.occ;
        const Bytes end = endOf(offset, r.size);
        auto it = o.lower_bound(offset);
        if (it != o.begin()) {
            auto prev = std::prev(it);
            if (prev->second.first > offset) it = prev;
        }
        bool clash = false;
        for (; it != o.end() && it->first < end; ++it) {
            clash = true;
            report_.add(Kind::Overlap,
                        cat(where(), " overlaps resident buffer ", it->second.second, " at ",
                            range(it->first, it->second.first - it->first)),
                        at);
        }
        if (!clash) {
            o.emplace(offset, std::make_pair(end, r.id));
            s.placed = true;
        }
    }

    void unplace(int bi) {
        BufState& s = resident_[bi].st;
        if (s.placed) resident_[bi].occ->erase(s.offset);
        s.placed = false;
    }

    // The buffer's only ALLOC, first occurrence.
    void replayAlloc(std::size_t i) {
        const int bi = steps_[i].buf;
        if (bi < 0) return;
        if (!resident_[bi].allocated) {  // reported by checkAllocations
            resident_[bi].st.state = State::Resident;
            return;
        }
        place(bi, resident_[bi].allocOffset, static_cast<int>(i), plan_.order[i], "ALLOC");
    }

    void replayFree(std::size_t i) {
        const int bi = steps_[i].buf;
        if (bi < 0) return;
        const NodeId id = plan_.order[i];
        const Node& n = *steps_[i].node;
        BufState& s = resident_[bi].st;
        if (s.state != State::Resident) {
            report_.add(
                Kind::Residency,
                cat("step ", i, ", ", nodeName(id), ": buffer ", n.buf, " is ", stateName(s.state),
                    s.state == State::Spilled ? " (a SPILL_IN must reload it before its FREE)" : ", not resident"),
                atNode(id, n.buf));
        }
        unplace(bi);
        if (s.state != State::Unallocated) s.state = State::Freed;
    }

    // An operation node's buffers are resident when it runs.
    void checkUsesResident(std::size_t i) {
        const NodeId id = plan_.order[i];
        const IndexRange bufs = bufsAt(i);
        for (const int* b = bufs.begin(); b != bufs.end(); ++b) {
            const int bi = *b;
            // Unknown, or listed twice (the same id, the same index): one report is enough.
            if (bi < 0 || std::find(bufs.begin(), b, bi) != b) continue;
            const BufState& s = resident_[bi].st;
            if (s.state != State::Resident) {
                const BufferId buffer = g_.buffers[bi].id;
                report_.add(
                    Kind::Residency,
                    cat("step ", i, ", ", nodeName(id), " uses buffer ", buffer, " while it is ", stateName(s.state)),
                    atNode(id, buffer));
            }
        }
    }

    void replaySpillNode(std::size_t i) {
        const int k = steps_[i].spill;
        if (k < 0) return;              // unknown: reported by checkOrder
        if (steps_[i].buf < 0) return;  // unknown buffer: reported by checkSpillIds
        if (plan_.order[i] == plan_.spills[k].outNode)
            replaySpillOut(i, k);
        else
            replaySpillIn(i, k);
    }

    // Writes out a resident buffer from the offset the spill names.
    void replaySpillOut(std::size_t i, int k) {
        const Spill& sp = plan_.spills[k];
        const NodeId id = plan_.order[i];
        const int bi = steps_[i].buf;
        BufState& s = resident_[bi].st;
        At at = atNode(id, sp.buf);
        at.spill = k;
        if (s.state != State::Resident) {
            report_.add(Kind::SpillPair,
                        cat("step ", i, ", ", nodeName(id), ": writes out buffer ", sp.buf, " while it is ",
                            stateName(s.state)),
                        at);
            if (s.state == State::Spilled) s.spilledBy = k;
            return;
        }
        if (sp.oldOffset != s.offset) {
            report_.add(Kind::SpillPair,
                        cat("step ", i, ", ", nodeName(id), ": oldOffset ", sp.oldOffset, " but buffer ", sp.buf,
                            " is resident at offset ", s.offset),
                        at);
        }
        unplace(bi);
        s.state = State::Spilled;
        s.spilledBy = k;
    }

    // Reloads what its own SPILL_OUT wrote out.
    void replaySpillIn(std::size_t i, int k) {
        const Spill& sp = plan_.spills[k];
        const NodeId id = plan_.order[i];
        const int bi = steps_[i].buf;
        BufState& s = resident_[bi].st;
        if (s.state != State::Spilled || s.spilledBy != k) {
            std::string why = s.state == State::Spilled ? cat("it was written out by spill ", s.spilledBy,
                                                              ", not by this spill's SPILL_OUT ", sp.outNode)
                              : s.state == State::Freed
                                  ? std::string("it is already freed")
                                  : cat("it is ", stateName(s.state), " (its SPILL_OUT ", sp.outNode, " has not run)");
            At at = atNode(id, sp.buf);
            at.spill = k;
            report_.add(Kind::SpillPair, cat("step ", i, ", ", nodeName(id), ": reloads buffer ", sp.buf, " but ", why),
                        at);
            if (s.state != State::Spilled) return;
        }
        place(bi, sp.newOffset, static_cast<int>(i), id, "SPILL_IN");
        s.spilledBy = -1;
    }

    // 7. Every buffer freed at the end.
    void checkEveryBufferFreed() {
        for (std::size_t bi = 0; bi < resident_.size(); ++bi) {
            if (resident_[bi].st.state != State::Freed) {
                At at;
                at.buffer = g_.buffers[bi].id;
                report_.add(Kind::Residency,
                            cat("buffer ", g_.buffers[bi].id, " is never freed (it ends ",
                                stateName(resident_[bi].st.state), ")"),
                            at);
            }
        }
    }

    // ---- Claims ------------------------------------------------------------------------------

    // 8. The plan's order is the claimed input order with the spill nodes inserted.
    void checkInputOrder() {
        const std::vector<NodeId>& input = claims_->inputOrder;
        std::size_t j = 0;
        for (std::size_t i = 0; i < plan_.order.size(); ++i) {
            const NodeId id = plan_.order[i];
            if (!isGraphNode(id)) continue;
            if (j >= input.size() || input[j] != id) {
                At at = atNode(id);
                at.field = cat("inputOrder[", j, "]");
                report_.add(Kind::Order,
                            cat("the plan's order without its spill nodes differs from inputOrder at entry ", j,
                                ": the plan has node ", id, " (step ", i, "), inputOrder ",
                                j < input.size() ? cat("node ", input[j]) : std::string("has ended")),
                            at);
                return;
            }
            ++j;
        }
        inputIsOrder_ = j == input.size();
        if (j != input.size()) {
            At at;
            at.field = cat("inputOrder[", j, "]");
            report_.add(Kind::Order,
                        cat("inputOrder has ", input.size(), " entries, the plan's order ", j, " graph nodes"), at);
        }
    }

    void claim(const std::string& field, std::int64_t claimed, std::int64_t actual) {
        if (claimed == actual) return;
        At at;
        at.field = field;
        report_.add(Kind::Metrics, cat(field, " says ", claimed, " but the plan gives ", actual), at);
    }
    void claimMap(const std::string& field, const std::map<std::string, Bytes>& claimed,
                  const std::map<std::string, Bytes>& actual) {
        for (const auto& [type, bytes] : actual) {
            auto it = claimed.find(type);
            if (it == claimed.end()) {
                At at;
                at.field = field + "." + type;
                report_.add(Kind::Metrics, cat(field, " has no entry for ", type, ", whose peak is ", bytes), at);
            } else {
                claim(field + "." + type, it->second, bytes);
            }
        }
        for (const auto& [type, bytes] : claimed)
            if (!actual.count(type)) {
                At at;
                at.field = field + "." + type;
                report_.add(Kind::Metrics, cat(field, " names ", type, ", which no buffer uses"), at);
            }
    }

    // 9. Metrics: recomputed from the plan and the input order, by their definitions.
    void checkMetrics() {
        claim("metrics.spills", claims_->spills, static_cast<std::int64_t>(plan_.spills.size()));
        claim("metrics.extraBytes", claims_->extraBytes, sumSat(movedByMemory()));

        const std::size_t memories = memoryNames_.size();
        std::vector<Bytes> demand(memories, 0), now(memories, 0), resident(memories, 0), current(memories, 0);
        Bytes total = 0, totalPeak = 0;
        // A graph's ALLOC and FREE have their buffer's type and size.
        auto demandOf = [&](bool alloc, int bi) {
            if (bi < 0) return;
            const int m = memoryOf_[bi];
            const Bytes delta = alloc ? g_.buffers[bi].size : -g_.buffers[bi].size;
            now[m] = addSat(now[m], delta);
            total = addSat(total, delta);
            demand[m] = std::max(demand[m], now[m]);
            totalPeak = std::max(totalPeak, total);
        };
        if (inputIsOrder_) {
            // The input order is the plan's graph steps (checkInputOrder): read from the steps'
            // table in sequence instead of each id's node record, scattered over the graph.
            for (const Step& fact : steps_)
                if (fact.graph && (fact.op == Op::Alloc || fact.op == Op::Free))
                    demandOf(fact.op == Op::Alloc, fact.buf);
        } else {
            for (NodeId id : claims_->inputOrder) {
                const Node* graphed = graphNode(id);
                if (graphed && graphed->isBufferNode()) demandOf(graphed->isAlloc(), bufferIndex_.find(graphed->buf));
            }
        }
        claimMap("metrics.demandPeak.byType", claims_->demandPeakByType, byMemory(demand));
        claim("metrics.demandPeak.total", claims_->demandPeakTotal, totalPeak);

        for (std::size_t i = 0; i < steps_.size(); ++i) {
            const Step& fact = steps_[i];
            const int bi = fact.buf;  // a graph node's only if it is an ALLOC or FREE
            if (bi < 0) continue;
            const bool arrives = fact.graph ? fact.op == Op::Alloc : plan_.spills[fact.spill].inNode == plan_.order[i];
            const Bytes size = g_.buffers[bi].size;
            const int m = memoryOf_[bi];
            current[m] = addSat(current[m], arrives ? size : -size);
            resident[m] = std::max(resident[m], current[m]);
        }
        claimMap("metrics.residentPeak", claims_->residentPeak, byMemory(resident));
    }
    // The bytes the plan's spills move, per memory (an index of memoryNames_).
    std::vector<Bytes> movedByMemory() const {
        std::vector<Bytes> moved(memoryNames_.size(), 0);
        for (std::size_t k = 0; k < plan_.spills.size(); ++k)
            if (const int bi = spillBufIndex_[k]; bi >= 0) {
                const Buffer& b = g_.buffers[bi];
                const Bytes bytes = b.hasCopyIn ? b.size : mulSat(2, b.size);  // a COPY_IN buffer moves once
                moved[memoryOf_[bi]] = addSat(moved[memoryOf_[bi]], bytes);
            }
        return moved;
    }
    static Bytes sumSat(const std::vector<Bytes>& values) {
        Bytes sum = 0;
        for (Bytes v : values) sum = addSat(sum, v);
        return sum;
    }
    std::map<std::string, Bytes> byMemory(const std::vector<Bytes>& values) const {
        std::map<std::string, Bytes> named;
        for (std::size_t m = 0; m < values.size(); ++m) named.emplace(memoryNames_[m], values[m]);
        return named;
    }

    // 11. The claimed capacities are the ones the plan is checked against, memory for memory.
    void checkCapacities() {
        if (!claims_->capacities) return;
        const Capacities& claimed = *claims_->capacities;
        auto add = [&](const std::string& memory, std::string message) {
            At at;
            at.field = "capacities." + memory;
            report_.add(Kind::Capacities, std::move(message), at);
        };
        for (const auto& [memory, bytes] : claimed) {
            const auto checked = caps_.find(memory);
            if (bytes < 1 || bytes > limits::kMaxBytes)
                add(memory,
                    cat("capacities.", memory, " says ", bytes, ": a capacity is between 1 and ", limits::kMaxBytes));
            else if (checked == caps_.end())
                add(memory, cat("capacities names ", memory, ", which the plan is not checked against"));
            else if (checked->second != bytes)
                add(memory,
                    cat("capacities.", memory, " says ", bytes, " but the plan is checked against ", checked->second));
        }
        for (const auto& [memory, bytes] : caps_)
            if (!claimed.count(memory))
                add(memory,
                    cat("capacities has no entry for ", memory, ", which the plan is checked against with ", bytes));
        for (const std::string& memory : memoryNames_)
            if (!claimed.count(memory) && !caps_.count(memory))
                add(memory, cat("capacities has no entry for ", memory, ", which buffers use"));
    }

    // 12. The claimed lower bounds. Consistent with the plan's own figures: never negative, never
    // above what the plan does (a lower bound that its own plan beats is false), a total the sum
    // (bytes) or the largest (cycles) of its terms, its limit the term giving it, on memories and
    // pipes that exist, a pipe busy no longer than its bound. Then, given a recomputation, each
    // figure that passed equal to its own. A term above its total is reported once, as the total.
    // The recomputation runs only on a sound plan whose claimed input order is its own (its
    // functions assume one).
    void checkBoundClaims() {
        if (!claims_->bound && !claims_->cyclesBound) return;
        std::optional<LowerBounds> recomputed;
        if (recompute_ && inputIsOrder_ && claims_->foreignEdges.empty() &&
            !report_.any(
                {Kind::Order, Kind::SpillIds, Kind::SpillPair, Kind::Edges, Kind::Allocation, Kind::Residency}))
            recomputed = recompute_();
        if (claims_->bound) checkTrafficBound(*claims_->bound, recomputed ? &recomputed->bytes : nullptr);
        if (!claims_->cyclesBound) return;
        // The pipes a bound may name: those some node of the plan runs on, and the spill pipes
        // (the spill work a bound assumes).
        std::set<std::string_view> pipes{kSpillInPipe, kSpillOutPipe};
        for (const std::string* p : pipeNames_) pipes.insert(*p);
        const CyclesBounds& c = *claims_->cyclesBound;
        checkCyclesBound("plan", c.plan, recomputed ? &recomputed->cycles.plan : nullptr, pipes);
        checkCyclesBound("order", c.order, recomputed ? &recomputed->cycles.order : nullptr, pipes);
        checkCyclesBound("graph", c.graph, recomputed ? &recomputed->cycles.graph : nullptr, pipes);
    }

    // One claimed figure: `problem` says how it contradicts the plan (empty: it does not); else,
    // with a recomputed figure, it must be that.
    template <typename T>
    void boundFigure(const std::string& field, const T& claimed, const std::string& problem, const T* recomputed) {
        At at;
        at.field = field;
        if (!problem.empty())
            report_.add(Kind::Metrics, cat(field, " says ", shown(claimed), ": ", problem), at);
        else if (recomputed && *recomputed != claimed)
            report_.add(Kind::Metrics,
                        cat(field, " says ", shown(claimed), " but recomputed it is ", shown(*recomputed)), at);
    }
    template <typename T>
    static const T& shown(const T& figure) {
        return figure;
    }
    static const char* shown(bool flag) { return flag ? "true" : "false"; }
    void unknownEntry(const std::string& field, const std::string& what) {
        At at;
        at.field = field;
        report_.add(Kind::Metrics, cat(field, " names ", what), at);
    }
    void missingEntry(const std::string& field, const std::string& what) {
        At at;
        at.field = field;
        report_.add(Kind::Metrics, cat(field, " has no entry for ", what), at);
    }

    void checkTrafficBound(const TrafficBound& b, const TrafficBound* again) {
        const std::string field = "metrics.bound";
        const std::vector<Bytes> moved = movedByMemory();
        const Bytes extra = sumSat(moved);
        Bytes sum = 0;
        std::map<std::string, std::size_t> memoryIndex;
        for (std::size_t m = 0; m < memoryNames_.size(); ++m) memoryIndex.emplace(memoryNames_[m], m);
        for (const auto& [memory, bytes] : b.byType) {
            const auto m = memoryIndex.find(memory);
            if (m == memoryIndex.end()) {
                unknownEntry(field + ".byType." + memory, cat(memory, ", which no buffer uses"));
                continue;
            }
            sum = addSat(sum, bytes);
            const Bytes planMoves = moved[m->second];
            const Bytes* same = nullptr;
            if (again)
                if (const auto r = again->byType.find(memory); r != again->byType.end()) same = &r->second;
            boundFigure(field + ".byType." + memory, bytes,
                        bytes < 0 ? std::string("a bound is never negative")
                        : bytes > planMoves
                            ? cat("the plan moves ", planMoves, " bytes of ", memory, ", below its lower bound")
                            : std::string(),
                        same);
        }
        for (const std::string& memory : memoryNames_)
            if (!b.byType.count(memory) && caps_.count(memory)) missingEntry(field + ".byType", memory);
        boundFigure(field + ".total", b.total,
                    b.total < 0       ? std::string("a bound is never negative")
                    : b.total != sum  ? cat("its byType entries add up to ", sum)
                    : b.total > extra ? cat("the plan moves ", extra, " bytes (extraBytes), below its lower bound")
                                      : std::string(),
                    again ? &again->total : nullptr);
        boundFigure(field + ".exact", b.exact, std::string(), again ? &again->exact : nullptr);
    }

    void checkCyclesBound(const char* set, const CyclesBound& b, const CyclesBound* again,
                          const std::set<std::string_view>& pipes) {
        const std::string field = cat("metrics.cyclesBound.", set);
        const Cycles timed = timedTotal_ ? *timedTotal_ : claims_->totalCycles;
        Cycles largest = b.criticalPath;
        std::string largestTerm = kCriticalPathLimit;
        std::map<std::string, const CyclesBound::Pipe*> recomputedPipes;
        if (again)
            for (const CyclesBound::Pipe& p : again->pipes) recomputedPipes.emplace(p.name, &p);
        std::map<std::string, Cycles> claimedPipes;
        for (const CyclesBound::Pipe& p : b.pipes) {
            const std::string at = cat(field, ".pipes.", p.name);
            if (!claimedPipes.emplace(p.name, p.bound).second) {
                unknownEntry(at, cat("pipe ", p.name, " twice"));
                continue;
            }
            if (!pipes.count(p.name)) {
                unknownEntry(at, cat("pipe ", p.name, ", on which no node runs"));
                continue;
            }
            const auto r = recomputedPipes.find(p.name);
            const CyclesBound::Pipe* same = r == recomputedPipes.end() ? nullptr : r->second;
            if (again && !same) unknownEntry(at, cat("pipe ", p.name, ", which has no work in the recomputed bound"));
            boundFigure(at + ".busy", p.busy,
                        p.busy < 0         ? std::string("busy cycles are never negative")
                        : p.busy > p.bound ? cat("above its bound ", p.bound, " (busy cycles with a head and a tail)")
                                           : std::string(),
                        same ? &same->busy : nullptr);
            boundFigure(at + ".bound", p.bound, p.bound < 0 ? std::string("a bound is never negative") : std::string(),
                        same ? &same->bound : nullptr);
            if (p.bound > largest) largest = p.bound, largestTerm = p.name;
        }
        for (const auto& [name, pipe] : recomputedPipes)
            if (!claimedPipes.count(name)) missingEntry(field + ".pipes", cat("pipe ", name, ", which has work"));
        boundFigure(field + ".criticalPath", b.criticalPath,
                    b.criticalPath < 0 ? std::string("a bound is never negative") : std::string(),
                    again ? &again->criticalPath : nullptr);
        boundFigure(field + ".total", b.total,
                    b.total < 0          ? std::string("a bound is never negative")
                    : b.total != largest ? cat("the largest of its terms is ", largest, " (", largestTerm, ")")
                    : b.total > timed
                        ? cat("the plan takes ", timed, " cycles (totalCycles), fewer than its lower bound")
                        : std::string(),
                    again ? &again->total : nullptr);
        const auto named = claimedPipes.find(b.limit);
        const bool gives = b.limit == kCriticalPathLimit ? b.criticalPath == b.total
                                                         : named != claimedPipes.end() && named->second == b.total;
        boundFigure(field + ".limit", b.limit,
                    gives ? std::string() : cat("no term of that name gives the total ", b.total),
                    again ? &again->limit : nullptr);
    }
    using Wait = ResultClaims::NodeWait;

    // Each buffer's place, size and memory, and who used it there, in one record read a step
    // that touches it: the walk reads buffers in the order's sequence, scattered, and each table
    // it read (the allocation through its pointer, the buffer, its memory) was a cache miss of
    // its own. Filled in buffer order; its place is its allocation's until a SPILL_IN moves it.
    struct alignas(64) Here {
        Bytes offset = 0;
        Bytes size = 0;
        Cycles lastUse = 0;  // latest end of a node that used the buffer at this place
        int lastUser = -1;   // the step of the first node to end then
        int memory = 0;      // memory index
        BufferId id = 0;
    };
    // Ids, not indices: named where a later placement waits for them, they would be read from
    // the order and the buffers there, scattered.
    struct Left {
        BufferId buf = -1;
        NodeId node = -1;  // the node whose end the leave time is
    };
    // What the timing walk keeps: the predecessors of each step, each buffer's place, each
    // memory's leave times, and each step's end.
    struct TimingWalk {
        // Predecessors of each step, as steps: row i is predStep[predStart[i] .. predStart[i + 1]).
        std::vector<int> predStart, predStep;
        std::vector<Here> here;          // buffer index -> its place
        std::vector<LeaveTimes> leaves;  // per memory index
        // Per leave (a FREE's or SPILL_OUT's), numbered in the order's sequence: what it left. (One
        // a step was 22 MB at 10^6 nodes, most of it never written but cleared.)
        std::vector<Left> leftBy;
        std::vector<int> pipeLast;  // pipe index -> step of its last node
        std::vector<Cycles> end;    // step -> its end
        // The steps whose claimed wait differs, with the actual one (every step's would be 88
        // bytes a step, a hundred megabytes at 10^6 nodes).
        std::vector<std::pair<std::size_t, Wait>> wrongWaits;
        std::vector<std::size_t> wrongTimes;  // the steps whose claimed time differs
        Cycles total = 0;
        bool overflow = false;
    };

    // 10. Timing under the pipe model, computed here from its definition: each pipe runs its
    // nodes one at a time in order; a node starts once its predecessors (graph and added edges)
    // have ended and its pipe is free; a buffer placed (ALLOC, SPILL_IN) over bytes another buffer
    // occupied starts after that one left them: its FREE or SPILL_OUT ended and every node that
    // used it there ended. ALLOC and FREE take 0 cycles and use no pipe.
    // Each node's wait is the rule that set its start (edge, then pipe, then address among
    // equals; none at 0), with the node whose end that is (the earliest in the order among equal
    // predecessors; for address, the leaving node unless a user there ended later, then the first
    // such user), the buffer that left (address), and the cycles beyond the other two rules.
    void checkTiming() {
        const std::size_t L = plan_.order.size();
        TimingWalk t;
        predecessorRows(t);
        placesAndLeaveTimes(t);
        t.leftBy.reserve(g_.buffers.size() + plan_.spills.size());  // a sound plan's leaves
        t.pipeLast.assign(pipeNames_.size(), -1);
        t.end.assign(L, 0);
        const std::size_t claimed = claimedTimes();
        for (std::size_t i = 0; i < L; ++i) timeStep(t, i, claimed);
        reportTimingClaims(t, claimed);
    }

    std::size_t claimedTimes() const { return claims_->steps ? claims_->steps->size() : claims_->timing.size(); }

    // The rows are placed by counting (sorting the millions of arcs of a 10^6-node plan grew
    // faster than n). Each graph edge's ends are looked up once, into `arcs`, which both passes
    // then read in sequence (looking them up again to place them was a second round of scattered
    // reads); the added edges' steps are checkTopological's. Both are released once the rows are
    // placed, and the graph nodes' steps with them (nothing reads them after), for the arrays of
    // the walk to take their memory: at 10^6 nodes the verify stage needed more than the process
    // held, and a tenth of its time in `scale` was the kernel clearing new pages.
    void predecessorRows(TimingWalk& t) {
        const std::size_t L = plan_.order.size();
        std::vector<int>& predStart = t.predStart;
        predStart.assign(L + 1, 0);
        {
            std::vector<std::pair<int, int>> arcs(g_.edges.size());  // (to, from), as steps
            for (std::size_t e = 0; e < arcs.size(); ++e)
                arcs[e] = {stepOfGraphNode_[static_cast<std::size_t>(g_.edges[e].second)],
                           stepOfGraphNode_[static_cast<std::size_t>(g_.edges[e].first)]};
            auto forEachArc = [&](auto&& f) {
                for (const auto& [to, from] : arcs) f(to, from);
                for (const auto& [from, to] : addedEdgeSteps_)
                    if (from >= 0 && to >= 0) f(to, from);
            };
            // Counted at their row, summed to each row's end, then placed from the end down: each
            // row's start is where its last arc lands, with no copy of the row starts to place by.
            std::size_t count = 0;
            forEachArc([&](int to, int) {
                ++predStart[static_cast<std::size_t>(to)];
                ++count;
            });
            for (std::size_t i = 0; i < L; ++i) predStart[i + 1] += predStart[i];
            t.predStep.resize(count);
            forEachArc([&](int to, int from) {
                t.predStep[static_cast<std::size_t>(--predStart[static_cast<std::size_t>(to)])] = from;
            });
        }
        std::vector<std::pair<int, int>>().swap(addedEdgeSteps_);
        std::vector<int>().swap(stepOfGraphNode_);
    }

    // Each buffer's first place, and per memory the leave times over the offsets anything is
    // placed at in it.
    void placesAndLeaveTimes(TimingWalk& t) {
        t.here.resize(g_.buffers.size());
        for (std::size_t bi = 0; bi < g_.buffers.size(); ++bi)
            t.here[bi] = {allocOf_[bi]->offset, g_.buffers[bi].size, 0, -1, memoryOf_[bi], g_.buffers[bi].id};
        std::vector<std::vector<Bytes>> coords(memoryNames_.size());
        for (const Here& h : t.here) {
            coords[static_cast<std::size_t>(h.memory)].push_back(h.offset);
            coords[static_cast<std::size_t>(h.memory)].push_back(endOf(h.offset, h.size));
        }
        for (std::size_t k = 0; k < plan_.spills.size(); ++k) {
            const Spill& s = plan_.spills[k];
            const int bi = spillBufIndex_[k];
            coords[memoryOf_[bi]].push_back(s.newOffset);
            coords[memoryOf_[bi]].push_back(endOf(s.newOffset, g_.buffers[bi].size));
        }
        t.leaves.reserve(coords.size());
        for (std::vector<Bytes>& c : coords) t.leaves.emplace_back(std::move(c));
    }

    // Step i starts when its last predecessor, its pipe's previous node and the last leave of the
    // bytes it places have ended; its wait names the one that decided.
    void timeStep(TimingWalk& t, std::size_t i, std::size_t claimed) {
        const Step& fact = steps_[i];
        const int pipeOf = fact.pipe;
        Cycles edge = 0, pipe = 0, address = 0;
        int edgeStep = -1, pipeStep = -1;
        for (int r = t.predStart[i]; r < t.predStart[i + 1]; ++r) {
            const int from = t.predStep[static_cast<std::size_t>(r)];
            if (edgeStep < 0 || t.end[from] > edge || (t.end[from] == edge && from < edgeStep)) {
                edge = t.end[from];
                edgeStep = from;
            }
        }
        if (pipeOf >= 0 && t.pipeLast[pipeOf] >= 0) {
            pipeStep = t.pipeLast[pipeOf];
            pipe = t.end[pipeStep];
        }
        const LeaveTimes::Leave latest = placeForTiming(t, fact);
        address = latest.first;
        const Cycles start = std::max({Cycles{0}, edge, pipe, address});
        Wait w;
        if (start > 0 && edgeStep >= 0 && edge == start) {
            w = {"edge", plan_.order[edgeStep], -1, start - std::max(pipe, address), {}};
        } else if (start > 0 && pipeStep >= 0 && pipe == start) {
            w = {"pipe", plan_.order[pipeStep], -1, start - std::max(edge, address), {}};
        } else if (start > 0) {
            const Left& l = t.leftBy[static_cast<std::size_t>(latest.second)];
            w = {"address", l.node, l.buf, start - std::max(edge, pipe), {}};
        }
        static const std::string noPipe;
        const std::string& pipeName = pipeOf < 0 ? noPipe : *pipeNames_[static_cast<std::size_t>(pipeOf)];
        if (i < claimedWaits() && !sameWait(claimedWait(i), w, pipeName)) t.wrongWaits.emplace_back(i, std::move(w));
        t.end[i] = addSat(start, fact.cycles);
        t.overflow |= t.end[i] == kMax;
        t.total = std::max(t.total, t.end[i]);
        if (i < claimed) {
            const ResultClaims::NodeTime c = claims_->steps ? claims_->steps->time(i) : claims_->timing[i];
            if (c.id != plan_.order[i] || c.start != addSat(t.end[i], -fact.cycles) || c.end != t.end[i])
                t.wrongTimes.push_back(i);
        }
        if (pipeOf >= 0) t.pipeLast[pipeOf] = static_cast<int>(i);
        recordUsesAndLeave(t, i);
    }

    // An ALLOC or SPILL_IN places its buffer: the latest leave of the bytes it takes (time 0 and
    // no leave for any other step).
    LeaveTimes::Leave placeForTiming(TimingWalk& t, const Step& fact) {
        const int placedBuf = fact.buf;
        if (placedBuf < 0 || (fact.op != Op::Alloc && fact.op != Op::SpillIn)) return {0, -1};
        Here& h = t.here[placedBuf];
        // A buffer's one ALLOC comes before its spills (the replay found no fault), so its place
        // is still its allocation's; a SPILL_IN's step is its spill's (spill-ids and order are
        // sound here).
        if (fact.op == Op::SpillIn) h.offset = plan_.spills[fact.spill].newOffset;
        h.lastUse = 0;
        h.lastUser = -1;
        return t.leaves[static_cast<std::size_t>(h.memory)].latest(h.offset, endOf(h.offset, h.size));
    }

    // The buffers step i used were in use until its end; a FREE or SPILL_OUT leaves its bytes
    // when the buffer's last user there has ended.
    void recordUsesAndLeave(TimingWalk& t, std::size_t i) {
        const Step& fact = steps_[i];
        const Cycles end = t.end[i];
        if (fact.op != Op::Alloc && fact.op != Op::Free)
            for (const int b : bufsAt(i))
                if (b >= 0 && end > t.here[b].lastUse) {
                    t.here[b].lastUse = end;
                    t.here[b].lastUser = static_cast<int>(i);
                }
        const int placedBuf = fact.buf;
        if (placedBuf >= 0 && (fact.op == Op::Free || fact.op == Op::SpillOut)) {
            const Here& h = t.here[placedBuf];
            const bool last = end >= h.lastUse;
            t.leaves[static_cast<std::size_t>(h.memory)].leave(
                h.offset, endOf(h.offset, h.size),
                {last ? end : h.lastUse, static_cast<std::int64_t>(t.leftBy.size())});
            t.leftBy.push_back({h.id, plan_.order[last ? i : static_cast<std::size_t>(h.lastUser)]});
        }
    }

    void reportTimingClaims(const TimingWalk& t, std::size_t claimed) {
        const std::size_t L = plan_.order.size();
        if (t.overflow) {
            At at;
            at.field = "metrics.totalCycles";
            report_.add(Kind::Timing, "the plan's cycles add up beyond 2^63 - 1", at);
        }
        claim("metrics.totalCycles", claims_->totalCycles, t.total);
        timedTotal_ = t.total;
        if (claimed != L) {
            At at;
            at.field = "timing";
            report_.add(Kind::Timing, cat("timing has ", claimed, " entries but the order ", L), at);
        }
        for (std::size_t i : t.wrongTimes) {
            const Node& n = *steps_[i].node;
            const Cycles start = addSat(t.end[i], -n.cycles);
            const ResultClaims::NodeTime c = claims_->steps ? claims_->steps->time(i) : claims_->timing[i];
            At at = atNode(n.id);
            at.field = cat("timing[", i, "]");
            report_.add(Kind::Timing,
                        cat("timing[", i, "] says node ", c.id, " runs [", c.start, ", ", c.end, "), but ",
                            nodeName(n.id), " at step ", i, " runs [", start, ", ", t.end[i], ")"),
                        at);
        }
        if (claims_->steps || claims_->waits) checkWaits(t.wrongWaits);
    }

    // What each node waited for, as the result claims it ("waits", parallel to "timing").
    static std::string describe(const Wait& w) {
        if (w.cause == "none") return "no wait";
        std::string s = cat(w.cause, " (node ", w.node);
        if (w.cause == "address") s += cat(", buffer ", w.buffer);
        return s + cat(", ", w.cycles, " cycles)");
    }
    static bool sameWait(const Wait& claimed, const Wait& actual, const std::string& pipe) {
        return claimed.pipe == pipe && claimed.cause == actual.cause && claimed.node == actual.node &&
               claimed.buffer == actual.buffer && claimed.cycles == actual.cycles;
    }
    // The claimed waits (none in older results), read in place or from the claims' copy.
    std::size_t claimedWaits() const {
        if (claims_->steps) return claims_->steps->size();
        return claims_->waits ? claims_->waits->size() : 0;
    }
    Wait claimedWait(std::size_t i) const { return claims_->steps ? claims_->steps->wait(i) : (*claims_->waits)[i]; }
    // `wrong`: the steps whose claimed wait differs (sameWait), ascending, with the actual wait.
    void checkWaits(const std::vector<std::pair<std::size_t, Wait>>& wrong) {
        const std::size_t L = steps_.size();
        if (claimedWaits() != L) {
            At at;
            at.field = "waits";
            report_.add(Kind::Timing, cat("waits has ", claimedWaits(), " entries but the order ", L), at);
        }
        for (const auto& [i, a] : wrong) {
            const Node& n = *steps_[i].node;
            const Wait c = claimedWait(i);
            At at = atNode(n.id);
            at.field = cat("waits[", i, "]");
            if (c.pipe != n.pipe)
                report_.add(Kind::Timing,
                            cat("waits[", i, "] says pipe \"", c.pipe, "\", but ", nodeName(n.id), " runs on ",
                                n.pipe.empty() ? std::string("no pipe") : "pipe " + n.pipe),
                            at);
            if (c.cause != a.cause || c.node != a.node || c.buffer != a.buffer || c.cycles != a.cycles)
                report_.add(Kind::Timing,
                            cat("waits[", i, "] says ", describe(c), ", but ", nodeName(n.id), " at step ", i,
                                " waits for ", describe(a)),
                            at);
        }
    }
};

}  // namespace

std::vector<Violation> verifyPlan(const Graph& g, const Capacities& caps, const Plan& plan, const CostModel& cost) {
    return Verifier(g, caps, plan, cost, nullptr).run();
}

std::vector<Violation> verifyResult(const Graph& g, const Capacities& caps, const CostModel& cost, const Plan& plan,
                                    const ResultClaims& claims, const BoundsRecomputation& recompute) {
    return Verifier(g, caps, plan, cost, &claims, recompute).run();
}

}  // namespace spillway
