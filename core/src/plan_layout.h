// Internal to the cycles objective (spillway/cycles.h): a plan seen as what the cycles planner may
// change, its order and where each buffer is placed, over what it keeps, the spills with their
// nodes and added edges. Nodes are numbered densely (graph nodes, then the plan's added nodes).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "spillway/plan.h"
#include "spillway/timing.h"

namespace spillway {

// The nodes of a plan (graph nodes and spill nodes) by dense index, with what the planners ask
// of them.
class PlanNodes {
public:
    PlanNodes(const Graph& g, const Plan& plan);

    int size() const { return static_cast<int>(nodes_.size()); }
    int indexOf(NodeId id) const { return index_.at(id); }
    const Node& node(int i) const { return *nodes_[i]; }
    NodeId id(int i) const { return nodes_[i]->id; }
    // ALLOC and SPILL_IN place a buffer; FREE and SPILL_OUT release it.
    bool places(int i) const { return nodes_[i]->isAlloc() || nodes_[i]->isSpillIn(); }
    bool releases(int i) const { return nodes_[i]->isFree() || nodes_[i]->isSpillOut(); }
    // The buffer (index into Graph::buffers) a placing or releasing node moves, else -1.
    int moved(int i) const { return moved_[i]; }
    // The buffers (indices) an operation node (not ALLOC/FREE/SPILL_*) uses, without repeats.
    const std::vector<int>& uses(int i) const { return uses_[i]; }
    // Predecessors by the graph's and the plan's added edges (what timing waits for).
    const std::vector<int>& preds(int i) const { return preds_[i]; }

private:
    std::vector<const Node*> nodes_;
    std::unordered_map<NodeId, int> index_;
    std::vector<int> moved_;
    std::vector<std::vector<int>> uses_;
    std::vector<std::vector<int>> preds_;
};

// What the cycles planner changes: the order (spill nodes included) and each placing node's
// offset (by dense index; -1 for other nodes).
struct Layout {
    std::vector<int> order;
    std::vector<Bytes> offset;
};

Layout layoutOf(const PlanNodes& nodes, const Plan& plan);

// `base` with the layout's order and offsets: allocations, spill offsets and steps, the order.
// Decisions are left as they are (the caller renews them).
Plan planWith(const PlanNodes& nodes, const Graph& g, const Plan& base, const Layout& layout);

// The layout's timing under the pipe model (as simulateTiming on planWith(...) gives it).
Timing timingOf(const PlanNodes& nodes, const Graph& g, const Plan& base, const Layout& layout);

}  // namespace spillway
