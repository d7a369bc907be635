// Internal to the cycles objective (spillway/cycles.h): a plan seen as what the cycles planner may
// change, its order and where each buffer is placed, over what it keeps, the spills with their
// nodes and added edges. Nodes are numbered densely (PlanNodes, timing.h).
#pragma once
#include <vector>

#include "spillway/plan.h"
#include "spillway/timing.h"

namespace spillway {

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
Timing timingOf(const PlanNodes& nodes, const Graph& g, const Layout& layout);

}  // namespace spillway
