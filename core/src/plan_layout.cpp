#include "plan_layout.h"

#include <algorithm>

#include "spillway/error.h"

namespace spillway {

PlanNodes::PlanNodes(const Graph& g, const Plan& plan) {
    nodes_.reserve(g.nodes.size() + plan.addedNodes.size());
    for (const Node& n : g.nodes) nodes_.push_back(&n);
    for (const Node& n : plan.addedNodes) nodes_.push_back(&n);
    index_.reserve(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) index_.emplace(nodes_[i]->id, static_cast<int>(i));
    moved_.assign(nodes_.size(), -1);
    uses_.resize(nodes_.size());
    preds_.resize(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& n = *nodes_[i];
        if (n.isBufferNode()) {
            moved_[i] = g.bufferIndex.at(n.buf);
        } else if ((n.isSpillIn() || n.isSpillOut()) && !n.bufs.empty()) {
            moved_[i] = g.bufferIndex.at(n.bufs.front());
        } else {
            for (BufferId b : n.bufs) {
                const int bi = g.bufferIndex.at(b);
                if (std::find(uses_[i].begin(), uses_[i].end(), bi) == uses_[i].end()) uses_[i].push_back(bi);
            }
        }
    }
    for (auto [s, d] : g.edges) preds_[d].push_back(s);
    for (auto [s, d] : plan.addedEdges) preds_[index_.at(d)].push_back(index_.at(s));
}

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

Timing timingOf(const PlanNodes& nodes, const Graph& g, const Plan& base, const Layout& layout) {
    PipeModel model(g, base);
    Timing t;
    t.nodes.reserve(layout.order.size());
    for (int i : layout.order) t.nodes.push_back(model.run(nodes.id(i), std::max<Bytes>(0, layout.offset[i])));
    t.total = model.total();
    return t;
}

}  // namespace spillway
