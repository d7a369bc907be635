// Lower bounds on the total cycles (docs/timing.md, "How far from possible"): no plan they cover
// finishes sooner under the pipe model (timing.h). Each relaxes the address rule and lets every
// node start as soon as its predecessors have ended, then counts what cannot overlap:
//   critical path  the longest chain of cycles through the edges;
//   pipe           a pipe runs its nodes one at a time: for each set of its nodes that cannot start
//                  before a cycle h (their earliest start by the edges), h + their cycles + the
//                  shortest chain after any of them (and the same with the chains swapped).
// Three sets of plans:
//   plan   any order and placement of this plan's nodes (its spills fixed, with their edges): the
//          best that re-scheduling and re-placing it could reach;
//   order  any plan of this input order: its spill work is at least the cheapest way of moving
//          the order's traffic lower bound (residency.h) out of each memory;
//   graph  any plan at all (no spill assumed).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "bounds.h"
#include "cost.h"
#include "plan.h"

namespace spillway {

// Any order and placement of `plan`'s nodes under the graph's and the plan's added edges.
CyclesBound planCyclesBound(const Graph& g, const Plan& plan);

// Any plan moving at least traffic[m] bytes out of memory m (empty: any plan), its spill work at
// least the cheapest cycles per byte of moving a buffer of that memory, per spill pipe.
CyclesBound trafficCyclesBound(const Graph& g, const CostModel& cost, const std::map<std::string, Bytes>& traffic);
// The same for each of `traffics`, the graph's chains computed once (the costly part).
std::vector<CyclesBound> trafficCyclesBounds(const Graph& g, const CostModel& cost,
                                             const std::vector<std::map<std::string, Bytes>>& traffics);

}  // namespace spillway
