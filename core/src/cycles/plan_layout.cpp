#include "plan_layout.h"

#include <algorithm>

namespace spillway {

Layout layoutOf(const PlanNodes& nodes, const Plan& plan) {
    Layout l;
    l.order.reserve(plan.order.size());
    for (NodeId id : plan.order) l.order.push_back(nodes.indexOf(id));
    l.offset.assign(nodes.size(), -1);
    std::unordered_map<BufferId, Bytes> initial;
    for (const Allocation& a : plan.allocations) initial[a.buf] = a.offset;
    for (int i : l.order) {
        const Node& n = nodes.node(i);
        if (n.isAlloc()) l.offset[i] = initial.at(n.buf);
    }
    for (const Spill& s : plan.spills) l.offset[nodes.indexOf(s.inNode)] = s.newOffset;
    return l;
}

Plan planWith(const PlanNodes& nodes, const Graph& g, const Plan& base, const Layout& layout) {
    Plan p = base;
    p.order.clear();
    std::vector<int> stepOf(nodes.size(), -1);
    for (int i : layout.order) {
        stepOf[i] = static_cast<int>(p.order.size());
        p.order.push_back(nodes.id(i));
    }
    for (Allocation& a : p.allocations) a.offset = layout.offset[g.buffers[g.bufferIndex.at(a.buf)].allocNode];
    // A spill writes the buffer out from where its last placement put it.
    std::vector<Bytes> at(g.buffers.size(), 0);
    std::unordered_map<NodeId, size_t> spillOfOut;
    for (size_t k = 0; k < p.spills.size(); ++k) spillOfOut.emplace(p.spills[k].outNode, k);
    for (int i : layout.order) {
        if (nodes.places(i)) at[nodes.moved(i)] = layout.offset[i];
        if (!nodes.node(i).isSpillOut()) continue;
        Spill& s = p.spills[spillOfOut.at(nodes.id(i))];
        s.oldOffset = at[nodes.moved(i)];
    }
    for (Spill& s : p.spills) {
        s.newOffset = layout.offset[nodes.indexOf(s.inNode)];
        s.outStep = stepOf[nodes.indexOf(s.outNode)];
        s.inStep = stepOf[nodes.indexOf(s.inNode)];
    }
    return p;
}

Timing timingOf(const PlanNodes& nodes, const Graph& g, const Layout& layout) {
    PipeModel model(g, nodes);
    Timing t;
    t.nodes.reserve(layout.order.size());
    for (int i : layout.order) t.nodes.push_back(model.run(i, std::max<Bytes>(0, layout.offset[i])));
    t.total = model.total();
    return t;
}

}  // namespace spillway
