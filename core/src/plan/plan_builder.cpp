#include "plan_builder.h"

#include <algorithm>

#include "spillway/error.h"
#include "spillway/limits.h"
#include "spillway/scale.h"

namespace spillway {
namespace {
Node spillNode(NodeId id, const char* op, const char* pipe, Cycles cycles, BufferId buf) {
    Node n;
    n.id = id;
    n.op = op;
    n.pipe = pipe;
    n.cycles = cycles;
    n.bufs = {buf};
    return n;
}
}  // namespace

PlanBuilder::PlanBuilder(const Graph& g, const Order& order, const CostModel& cost, const Capacities& capacities)
    : g_(g),
      order_(order),
      cost_(cost),
      brief_(isHugeGraph(g.nodes.size())),
      states_(g.buffers.size()),
      memoryOf_(g.buffers.size()),
      spillBase_(g.maxNodeId() + 1) {
    for (const auto& [type, cap] : capacities) memories_.emplace(type, FreeList(cap));
    for (size_t b = 0; b < g.buffers.size(); ++b) memoryOf_[b] = &memories_.at(g.buffers[b].type);
    // A placement and a FREE each, spills on top.
    if (brief_)
        plan_.briefDecisions.reserve(2 * g.buffers.size());
    else
        plan_.decisions.reserve(2 * g.buffers.size());
    plan_.allocations.reserve(g.buffers.size());
    plan_.order.reserve(order.size());
    std::vector<int> stepOf(g.nodes.size());
    nodeAt_.resize(order.size());
    firstBufferAt_.reserve(order.size() + 1);
    for (int s = 0; s < static_cast<int>(order.size()); ++s) {
        const int v = g.nodeIndex.at(order[s]);
        stepOf[v] = s;
        nodeAt_[s] = v;
        const auto first = static_cast<std::ptrdiff_t>(bufferIndicesAt_.size());
        firstBufferAt_.push_back(static_cast<int>(first));
        auto add = [&](BufferId id) {
            const int b = g.bufferIndex.at(id);
            if (std::find(bufferIndicesAt_.begin() + first, bufferIndicesAt_.end(), b) == bufferIndicesAt_.end())
                bufferIndicesAt_.push_back(b);
        };
        const Node& node = g.nodes[v];  // its buffers as Graph::buffersOf lists them, without a copy
        if (node.isBufferNode())
            add(node.buf);
        else
            for (BufferId id : node.bufs) add(id);
    }
    firstBufferAt_.push_back(static_cast<int>(bufferIndicesAt_.size()));
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        std::vector<int>& uses = states_[b].uses;
        for (int u : g.buffers[b].users) uses.push_back(stepOf[u]);
        std::sort(uses.begin(), uses.end());
        uses.push_back(stepOf[g.buffers[b].freeNode]);  // the FREE is the last use
    }
}

void PlanBuilder::expectSpills(int spills) {
    const size_t k = static_cast<size_t>(spills);
    if (!keepsReasonsFor(spills)) becomeBrief();
    plan_.spills.reserve(k);
    plan_.addedNodes.reserve(2 * k);
    plan_.order.reserve(order_.size() + 2 * k);
    // A placement and a FREE per buffer, a spill and a reload per spill.
    if (brief_)
        plan_.briefDecisions.reserve(2 * g_.buffers.size() + 2 * k);
    else
        plan_.decisions.reserve(2 * g_.buffers.size() + 2 * k);
}

std::vector<Scored> PlanBuilder::shortlist(const std::vector<Scored>& ranked, const std::vector<int>& keep) {
    std::vector<Scored> out;
    for (size_t i = 0; i < ranked.size(); ++i)
        if (i < static_cast<size_t>(kShownChoices) || std::find(keep.begin(), keep.end(), ranked[i].buf) != keep.end())
            out.push_back(ranked[i]);
    return out;
}

void PlanBuilder::place(int b, Bytes offset, std::string reason, std::optional<std::vector<Hole>> considered) {
    const Buffer& buf = g_.buffers[b];
    BufferState& st = states_[b];
    const bool reload = st.residency == Residency::Spilled;
    std::vector<Hole> holes;
    if (!brief_) {
        if (considered)
            holes = std::move(*considered);
        else
            holes = memoryOf_[b]->holes();
    }
    memoryOf_[b]->take(offset, buf.size);
    st.residency = Residency::Resident;
    st.offset = offset;
    int orderStep = -1;  // an ALLOC's node comes in runNode()
    if (reload) {
        Spill& s = plan_.spills[st.pendingSpill];
        s.newOffset = offset;
        st.reloadedAt = st.nextUse;
        s.inStep = orderStep = static_cast<int>(plan_.order.size());
        plan_.order.push_back(s.inNode);
        st.pendingSpill = -1;
    } else {
        plan_.allocations.push_back({buf.id, buf.type, offset, buf.size});
        placedThisStep_.push_back(decisionCount());
    }
    if (Decision* d = decide(reload ? Decision::Kind::Reload : Decision::Kind::Place, b, std::move(reason), orderStep))
        recordHoles(*d, std::move(holes));
}

// The holes a placement chose among, by address: all of them, or the one it took and those that
// came closest to being taken (the smallest that hold the buffer, then the largest that do not).
void PlanBuilder::recordHoles(Decision& d, std::vector<Hole> holes) const {
    d.holesTotal = static_cast<int>(holes.size());
    if (holes.size() > static_cast<size_t>(kShownChoices)) {
        const Bytes size = d.size, at = d.offset;
        auto rank = [&](const Hole& h) {
            const bool chosen = h.start <= at && at + size <= h.end;
            return std::make_tuple(!chosen, h.size() < size, h.size() < size ? -h.size() : h.size(), h.start);
        };
        std::sort(holes.begin(), holes.end(), [&](const Hole& x, const Hole& y) { return rank(x) < rank(y); });
        holes.resize(kShownChoices);
        std::sort(holes.begin(), holes.end(), [](const Hole& x, const Hole& y) { return x.start < y.start; });
    }
    d.holes = std::move(holes);
}

void PlanBuilder::spill(int b, SpillWhy why) {
    const Buffer& buf = g_.buffers[b];
    BufferState& st = states_[b];
    const int k = static_cast<int>(plan_.spills.size());
    if (k >= limits::kMaxSpills)
        limits::exceeded("the plan needs more than " + std::to_string(limits::kMaxSpills) + " spills", "spills",
                         limits::kMaxSpills, "");
    const NodeId out = spillBase_ + 2 * k, in = out + 1;
    plan_.spills.push_back(
        {buf.id, buf.type, buf.size, st.offset, -1, out, in, static_cast<int>(plan_.order.size()), -1});
    plan_.addedNodes.push_back(spillNode(out, kSpillOut, kSpillOutPipe, cost_.spillOutCycles(buf), buf.id));
    plan_.addedNodes.push_back(spillNode(in, kSpillIn, kSpillInPipe, cost_.spillInCycles(buf), buf.id));
    plan_.order.push_back(out);
    addSpillEdges(b, out, in);
    if (!keepsReasonsFor(k + 1)) becomeBrief();
    if (Decision* d = decide(Decision::Kind::Spill, b, std::move(why.reason), plan_.spills.back().outStep))
        recordChoice(*d, b, why);
    memoryOf_[b]->release(st.offset, buf.size);
    st.residency = Residency::Spilled;
    st.pendingSpill = k;
    st.lastSpillIn = in;
}

// A spill's room, formula, candidates and windows. The candidates kept are the policy's first
// choices, the victim, and the one whose next use is furthest (Belady's choice, which the
// playground shows as the choice in hindsight).
void PlanBuilder::recordChoice(Decision& d, int victim, SpillWhy& why) const {
    const FreeList& mem = *memoryOf_[victim];
    for (int b : why.forBufs) d.room.forBufs.push_back(g_.buffers[b].id);
    d.room.need = why.need;
    for (const Hole& h : mem.holes()) d.room.freeBytes += h.size();
    d.room.largestHole = mem.largestHole();
    d.room.shortfall = why.shortfall;
    d.formula = std::move(why.formula);
    int furthest = -1;
    for (const Scored& c : why.ranked)
        if (furthest < 0 || nextUse(c.buf) > nextUse(furthest)) furthest = c.buf;
    for (const Scored& c : shortlist(why.ranked, {victim, furthest})) {
        const Buffer& cb = g_.buffers[c.buf];
        d.candidates.push_back({cb.id, cb.size, nextUse(c.buf), cb.hasCopyIn, c.score});
    }
    d.candidatesTotal = why.weighed >= 0 ? why.weighed : static_cast<int>(why.ranked.size());
    d.windowsTotal = why.windowsWeighed >= 0 ? why.windowsWeighed : static_cast<int>(why.windows.size());
    for (size_t i = 0; i < why.windows.size(); ++i) {
        const WeighedWindow& w = why.windows[i];
        const bool holdsVictim = std::find(w.bufs.begin(), w.bufs.end(), victim) != w.bufs.end();
        if (i >= static_cast<size_t>(kShownChoices) && !holdsVictim) continue;
        SpillWindow sw{w.start, w.end, w.cost, {}};
        for (int b : w.bufs) sw.bufs.push_back(g_.buffers[b].id);
        d.windows.push_back(std::move(sw));
    }
}

// The contest's edges, reduced to a set with the same transitive closure (linear in the uses;
// docs/result-format.md): ALLOC -> OUT, the users run since the last reload (and the previous
// SPILL_IN) -> OUT, OUT -> IN -> FREE. IN -> each later user is added when that user runs, until
// the buffer's next SPILL_OUT (runNode).
void PlanBuilder::addSpillEdges(int b, NodeId out, NodeId in) {
    const Buffer& buf = g_.buffers[b];
    const BufferState& st = states_[b];
    edge(g_.nodes[buf.allocNode].id, out);
    if (st.lastSpillIn >= 0) edge(st.lastSpillIn, out);
    for (size_t i = st.reloadedAt; i < st.nextUse; ++i) edge(order_[st.uses[i]], out);
    edge(out, in);
    edge(in, g_.nodes[buf.freeNode].id);
}

void PlanBuilder::runNode() {
    const Node& node = nodeAt(step_);
    for (int b : buffersAt(step_))
        if (states_[b].residency != Residency::Resident)
            throw InternalError("planner: node " + std::to_string(node.id) + " runs without buffer " +
                                std::to_string(g_.buffers[b].id));
    const int at = static_cast<int>(plan_.order.size());
    for (size_t i : placedThisStep_) (brief_ ? plan_.briefDecisions[i].orderStep : plan_.decisions[i].orderStep) = at;
    placedThisStep_.clear();
    plan_.order.push_back(node.id);
    if (!node.isBufferNode())
        for (int b : buffersAt(step_))
            if (states_[b].lastSpillIn >= 0) edge(states_[b].lastSpillIn, node.id);
    if (node.isFree()) {
        int b = buffersAt(step_).front();
        states_[b].residency = Residency::Freed;
        memoryOf_[b]->release(states_[b].offset, g_.buffers[b].size);
        decide(Decision::Kind::Free, b, brief_ ? std::string() : "FREE: its bytes return to the free list",
               static_cast<int>(plan_.order.size()) - 1);
    }
    if (!node.isAlloc())
        for (int b : buffersAt(step_)) ++states_[b].nextUse;
}

Decision* PlanBuilder::decide(Decision::Kind kind, int b, std::string reason, int orderStep) {
    const Buffer& buf = g_.buffers[b];
    if (brief_) {
        plan_.briefDecisions.push_back({kind, step_, orderStep, order_[step_], buf.id, states_[b].offset});
        return nullptr;
    }
    Decision& d = plan_.decisions.emplace_back();
    d.kind = kind;
    d.step = step_;
    d.orderStep = orderStep;
    d.node = order_[step_];
    d.buf = buf.id;
    d.type = buf.type;
    d.offset = states_[b].offset;
    d.size = buf.size;
    d.reason = std::move(reason);
    return &d;
}

void PlanBuilder::becomeBrief() {
    if (brief_) return;
    brief_ = true;
    plan_.briefDecisions.reserve(plan_.decisions.capacity());
    for (const Decision& d : plan_.decisions)
        plan_.briefDecisions.push_back({d.kind, d.step, d.orderStep, d.node, d.buf, d.offset});
    std::vector<Decision>().swap(plan_.decisions);
}

Plan PlanBuilder::finish() {
    for (const BufferState& st : states_)
        if (st.residency != Residency::Freed) throw InternalError("planner: a buffer was never freed");
    std::sort(plan_.allocations.begin(), plan_.allocations.end(),
              [](const Allocation& a, const Allocation& b) { return a.buf < b.buf; });
    std::sort(plan_.addedEdges.begin(), plan_.addedEdges.end());
    plan_.addedEdges.erase(std::unique(plan_.addedEdges.begin(), plan_.addedEdges.end()), plan_.addedEdges.end());
    if (brief_) {
        // A huge graph's plan is kept to the end of the run, past the verifier's peak: grown by
        // doubling, its arrays would hold up to twice what they use (the spill nodes alone
        // about 25 MB at 10^6 nodes).
        plan_.allocations.shrink_to_fit();
        plan_.spills.shrink_to_fit();
        plan_.order.shrink_to_fit();
        plan_.addedNodes.shrink_to_fit();
        plan_.addedEdges.shrink_to_fit();
        plan_.briefDecisions.shrink_to_fit();
    }
    return std::move(plan_);
}

}  // namespace spillway
