#include "plan_builder.h"

#include <algorithm>

#include "spillway/error.h"
#include "spillway/limits.h"

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

PlanBuilder::PlanBuilder(const Graph& g, const Order& order, const CostModel& cost)
    : g_(g), order_(order), cost_(cost), buffersAt_(order.size()), states_(g.buffers.size()),
      spillBase_(g.maxNodeId() + 1) {
    std::vector<int> stepOf(g.nodes.size());
    for (int s = 0; s < static_cast<int>(order.size()); ++s) {
        stepOf[g.nodeIndex.at(order[s])] = s;
        for (BufferId id : g.buffersOf(g.node(order[s]))) {
            int b = g.bufferIndex.at(id);
            std::vector<int>& at = buffersAt_[s];
            if (std::find(at.begin(), at.end(), b) == at.end()) at.push_back(b);
        }
    }
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        std::vector<int>& uses = states_[b].uses;
        for (int u : g.buffers[b].users) uses.push_back(stepOf[u]);
        std::sort(uses.begin(), uses.end());
        uses.push_back(stepOf[g.buffers[b].freeNode]);  // the FREE is the last use
    }
}

void PlanBuilder::place(int b, Bytes offset, std::string reason) {
    const Buffer& buf = g_.buffers[b];
    BufferState& st = states_[b];
    const bool reload = st.residency == Residency::Spilled;
    st.residency = Residency::Resident;
    st.offset = offset;
    if (reload) {
        Spill& s = plan_.spills[st.pendingSpill];
        s.newOffset = offset;
        st.reloadedAt = st.nextUse;
        s.inStep = static_cast<int>(plan_.order.size());
        plan_.order.push_back(s.inNode);
        st.pendingSpill = -1;
    } else {
        plan_.allocations.push_back({buf.id, buf.type, offset, buf.size});
    }
    decide(reload ? Decision::Kind::Reload : Decision::Kind::Place, b, std::move(reason));
}

void PlanBuilder::spill(int b, std::string reason, std::vector<Candidate> candidates) {
    const Buffer& buf = g_.buffers[b];
    BufferState& st = states_[b];
    const int k = static_cast<int>(plan_.spills.size());
    if (k >= limits::kMaxSpills)
        limits::exceeded("the plan needs more than " + std::to_string(limits::kMaxSpills) + " spills", "spills",
                         limits::kMaxSpills, "");
    const NodeId out = spillBase_ + 2 * k, in = out + 1;
    plan_.spills.push_back({buf.id, buf.type, buf.size, st.offset, -1, out, in,
                            static_cast<int>(plan_.order.size()), -1});
    plan_.addedNodes.push_back(spillNode(out, kSpillOut, kSpillOutPipe, cost_.spillOutCycles(buf), buf.id));
    plan_.addedNodes.push_back(spillNode(in, kSpillIn, kSpillInPipe, cost_.spillInCycles(buf), buf.id));
    plan_.order.push_back(out);
    addSpillEdges(b, out, in);
    decide(Decision::Kind::Spill, b, std::move(reason));
    plan_.decisions.back().candidates = std::move(candidates);
    st.residency = Residency::Spilled;
    st.pendingSpill = k;
    st.lastSpillIn = in;
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
    for (int b : buffersAt_[step_])
        if (states_[b].residency != Residency::Resident)
            throw InternalError("planner: node " + std::to_string(node.id) + " runs without buffer " +
                                std::to_string(g_.buffers[b].id));
    plan_.order.push_back(node.id);
    if (!node.isBufferNode())
        for (int b : buffersAt_[step_])
            if (states_[b].lastSpillIn >= 0) edge(states_[b].lastSpillIn, node.id);
    if (node.isFree()) {
        int b = buffersAt_[step_].front();
        states_[b].residency = Residency::Freed;
        decide(Decision::Kind::Free, b, "FREE: its bytes return to the free list");
    }
    if (!node.isAlloc())
        for (int b : buffersAt_[step_]) ++states_[b].nextUse;
}

void PlanBuilder::decide(Decision::Kind kind, int b, std::string reason) {
    const Buffer& buf = g_.buffers[b];
    plan_.decisions.push_back({kind, step_, order_[step_], buf.id, buf.type, states_[b].offset, buf.size,
                               std::move(reason), {}});
}

Plan PlanBuilder::finish() {
    for (const BufferState& st : states_)
        if (st.residency != Residency::Freed) throw InternalError("planner: a buffer was never freed");
    std::sort(plan_.allocations.begin(), plan_.allocations.end(),
              [](const Allocation& a, const Allocation& b) { return a.buf < b.buf; });
    std::sort(plan_.addedEdges.begin(), plan_.addedEdges.end());
    plan_.addedEdges.erase(std::unique(plan_.addedEdges.begin(), plan_.addedEdges.end()), plan_.addedEdges.end());
    return std::move(plan_);
}

}  // namespace spillway
