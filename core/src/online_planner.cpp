// The seed's online allocator, done right. It walks the order once; at each node it makes the
// node's buffers resident (placing new ones at ALLOC, reloading spilled ones just before their
// use), spilling other buffers of the same memory when no hole is large enough.
//
// Fixes over the seed (docs/seed-deviations.md): past uses are popped so "next use" is real; a
// spilled buffer is placed when its SPILL_IN runs (not at spill time, which looped forever);
// buffers the current node uses are spilled only as a last resort, and then reloaded before it;
// live buffers are never dropped and nothing is placed over live data.
#include <algorithm>
#include <set>

#include "spillway/error.h"
#include "spillway/free_list.h"
#include "spillway/planner.h"

namespace spillway {
namespace {

enum class Residency { Unallocated, Resident, Spilled, Freed };

struct BufferState {
    Residency residency = Residency::Unallocated;
    Bytes offset = 0;
    std::vector<int> uses;   // steps of its users and of its FREE, ascending
    size_t nextUse = 0;      // index into `uses` of the first use not yet run
    int pendingSpill = -1;   // index into Plan::spills awaiting its SPILL_IN
    NodeId lastSpillIn = -1; // the latest SPILL_IN of this buffer, if any
};

struct MemoryState {
    FreeList freeList;
    std::set<int> resident;  // buffer indices, ascending = ascending BufId
};

// The seed's score: size * distance / cost, with cost = size for a COPY_IN buffer (only the
// reload moves data) and 2 * size otherwise. Compared exactly as the integer 2 * score / size.
std::int64_t seedScoreKey(const Buffer& b, int distance) {
    return static_cast<std::int64_t>(distance) * (b.hasCopyIn ? 2 : 1);
}

class OnlinePlanner {
public:
    OnlinePlanner(const Graph& g, const Order& order, const PlanOptions& opts)
        : g_(g), order_(order), opts_(opts), states_(g.buffers.size()),
          protected_(g.buffers.size(), false), spillBase_(g.maxNodeId() + 1) {
        for (const auto& [type, cap] : opts.capacities) memories_.emplace(type, MemoryState{FreeList(cap), {}});
        recordUses();
    }

    Plan run() {
        for (step_ = 0; step_ < static_cast<int>(order_.size()); ++step_) runStep();
        finish();
        return std::move(plan_);
    }

private:
    void recordUses() {
        std::vector<int> stepOf(g_.nodes.size());
        for (int s = 0; s < static_cast<int>(order_.size()); ++s) stepOf[g_.nodeIndex.at(order_[s])] = s;
        for (size_t b = 0; b < g_.buffers.size(); ++b) {
            std::vector<int>& uses = states_[b].uses;
            for (int u : g_.buffers[b].users) uses.push_back(stepOf[u]);
            std::sort(uses.begin(), uses.end());
            uses.push_back(stepOf[g_.buffers[b].freeNode]);  // the FREE is the last use
        }
    }

    int bufferIndex(BufferId id) const { return g_.bufferIndex.at(id); }
    MemoryState& memoryOf(int b) { return memories_.at(g_.buffers[b].type); }

    void runStep() {
        const Node& node = g_.node(order_[step_]);
        std::vector<int> needed;
        for (BufferId id : g_.buffersOf(node)) {
            int b = bufferIndex(id);
            if (std::find(needed.begin(), needed.end(), b) == needed.end()) needed.push_back(b);
        }
        for (int b : needed) protected_[b] = true;
        if (node.isAlloc()) {
            place(needed.front());
        } else {
            std::vector<int> reloads;
            for (int b : needed)
                if (states_[b].residency == Residency::Spilled) reloads.push_back(b);
            placeAll(reloads);
        }
        plan_.order.push_back(node.id);
        if (node.isFree()) release(needed.front());
        if (!node.isAlloc())
            for (int b : needed) ++states_[b].nextUse;
        for (int b : needed) protected_[b] = false;
    }

    // Places buffers the current node needs. If fragmentation leaves no hole even after spilling
    // every unprotected buffer, the node's own resident buffers of that memory are spilled too
    // (relocation, the last resort) and queued: the memory is then empty and, since the node's
    // buffers fit together (validated), placing them one after another cannot fail.
    void placeAll(std::vector<int> queue) {
        for (size_t i = 0; i < queue.size(); ++i) {
            int b = queue[i];
            if (!tryPlace(b)) {
                MemoryState& mem = memoryOf(b);
                std::vector<int> mine(mem.resident.begin(), mem.resident.end());  // all protected now
                for (int other : mine) {
                    spill(other, "relocated: fragmentation leaves no hole for buffer " +
                                     std::to_string(g_.buffers[b].id) + ", which this node also uses",
                          {});
                    queue.push_back(other);
                }
                if (!tryPlace(b)) throw InternalError("planner: no room in an empty memory");
            }
        }
    }

    void place(int b) {
        if (!tryPlace(b)) placeAll({b});
    }

    // Spills unprotected buffers by score until a hole fits `b`, then places it by best fit.
    bool tryPlace(int b) {
        const Buffer& buf = g_.buffers[b];
        MemoryState& mem = memoryOf(b);
        while (mem.freeList.largestHole() < buf.size && spillBestVictim(b)) {
        }
        std::optional<Bytes> offset = mem.freeList.bestFit(buf.size);
        if (!offset) return false;
        BufferState& st = states_[b];
        const bool reload = st.residency == Residency::Spilled;
        st.residency = Residency::Resident;
        st.offset = *offset;
        mem.resident.insert(b);
        if (reload) emitSpillIn(b);
        else plan_.allocations.push_back({buf.id, buf.type, *offset, buf.size});
        decide(reload ? Decision::Kind::Reload : Decision::Kind::Place, b,
               reload ? "SPILL_IN just before its next use, best fit"
                      : "ALLOC: best fit, the smallest hole that holds " + std::to_string(buf.size) + " bytes");
        return true;
    }

    bool spillBestVictim(int forBuffer) {
        MemoryState& mem = memoryOf(forBuffer);
        std::vector<Candidate> candidates;
        int victim = -1;
        std::int64_t bestKey = -1;
        for (int b : mem.resident) {
            if (protected_[b]) continue;
            const Buffer& buf = g_.buffers[b];
            const BufferState& st = states_[b];
            const int nextUse = st.uses[st.nextUse];
            const int distance = std::max(nextUse - step_, 1);
            const std::int64_t key = seedScoreKey(buf, distance);
            candidates.push_back({buf.id, nextUse, static_cast<double>(key) / 2.0});
            if (key > bestKey) {
                bestKey = key;
                victim = b;
            }
        }
        if (victim < 0) return false;
        spill(victim,
              "no hole holds buffer " + std::to_string(g_.buffers[forBuffer].id) + " (" +
                  std::to_string(g_.buffers[forBuffer].size) + " bytes): spill the highest score",
              std::move(candidates));
        return true;
    }

    void spill(int b, const std::string& reason, std::vector<Candidate> candidates) {
        const Buffer& buf = g_.buffers[b];
        BufferState& st = states_[b];
        MemoryState& mem = memoryOf(b);
        const int k = static_cast<int>(plan_.spills.size());
        const NodeId out = spillBase_ + 2 * k, in = out + 1;
        plan_.spills.push_back({buf.id, buf.type, buf.size, st.offset, -1, out, in,
                                static_cast<int>(plan_.order.size()), -1});
        plan_.addedNodes.push_back({out, kSpillOut, kSpillOutPipe, opts_.cost.spillOutCycles(buf), {buf.id}});
        plan_.addedNodes.push_back({in, kSpillIn, kSpillInPipe, opts_.cost.spillInCycles(buf), {buf.id}});
        plan_.order.push_back(out);
        addSpillEdges(b, out, in);
        decide(Decision::Kind::Spill, b, reason);
        plan_.decisions.back().candidates = std::move(candidates);
        mem.freeList.release(st.offset, buf.size);
        mem.resident.erase(b);
        st.residency = Residency::Spilled;
        st.pendingSpill = k;
        st.lastSpillIn = in;
    }

    // The contest's edges: ALLOC -> OUT, users run so far (and the previous SPILL_IN) -> OUT,
    // OUT -> IN -> FREE, IN -> every user still to run.
    void addSpillEdges(int b, NodeId out, NodeId in) {
        const Buffer& buf = g_.buffers[b];
        const BufferState& st = states_[b];
        auto edge = [&](NodeId s, NodeId d) { plan_.addedEdges.emplace_back(s, d); };
        edge(g_.nodes[buf.allocNode].id, out);
        if (st.lastSpillIn >= 0) edge(st.lastSpillIn, out);
        const size_t freeUse = st.uses.size() - 1;
        for (size_t i = 0; i < freeUse; ++i) {
            const NodeId user = order_[st.uses[i]];
            if (i < st.nextUse) edge(user, out);
            else edge(in, user);
        }
        edge(out, in);
        edge(in, g_.nodes[buf.freeNode].id);
    }

    void emitSpillIn(int b) {
        BufferState& st = states_[b];
        Spill& s = plan_.spills[st.pendingSpill];
        s.newOffset = st.offset;
        s.inStep = static_cast<int>(plan_.order.size());
        plan_.order.push_back(s.inNode);
        st.pendingSpill = -1;
    }

    void release(int b) {
        BufferState& st = states_[b];
        MemoryState& mem = memoryOf(b);
        mem.freeList.release(st.offset, g_.buffers[b].size);
        mem.resident.erase(b);
        st.residency = Residency::Freed;
        decide(Decision::Kind::Free, b, "FREE: its bytes return to the free list");
    }

    void decide(Decision::Kind kind, int b, std::string reason) {
        const Buffer& buf = g_.buffers[b];
        plan_.decisions.push_back({kind, step_, order_[step_], buf.id, buf.type, states_[b].offset,
                                   buf.size, std::move(reason), {}});
    }

    void finish() {
        std::sort(plan_.allocations.begin(), plan_.allocations.end(),
                  [](const Allocation& a, const Allocation& b) { return a.buf < b.buf; });
        std::sort(plan_.addedEdges.begin(), plan_.addedEdges.end());
        plan_.addedEdges.erase(std::unique(plan_.addedEdges.begin(), plan_.addedEdges.end()),
                               plan_.addedEdges.end());
        for (const BufferState& st : states_)
            if (st.residency != Residency::Freed) throw InternalError("planner: a buffer was never freed");
    }

    const Graph& g_;
    const Order& order_;
    const PlanOptions& opts_;
    std::vector<BufferState> states_;
    std::vector<char> protected_;  // buffers the current node uses
    std::map<std::string, MemoryState> memories_;
    NodeId spillBase_;
    int step_ = 0;
    Plan plan_;
};

}  // namespace

std::vector<std::string> policyNames() { return {"seed"}; }

Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts) {
    if (opts.policy == "seed") return OnlinePlanner(g, order, opts).run();
    std::string known;
    for (const std::string& p : policyNames()) known += (known.empty() ? "" : ", ") + p;
    throw InputError("unknown policy \"" + opts.policy + "\": expected one of " + known);
}

}  // namespace spillway
