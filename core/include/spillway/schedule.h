// Orders (schedules) of a graph and the metrics of an order that need no plan.
#pragma once
#include <string>
#include <vector>

#include "graph.h"

namespace spillway {

using Order = std::vector<NodeId>;

// Ascending node id (valid for the contest's graphs, but it puts every FREE last).
Order orderById(const Graph& g);

// Throws InputError unless `order` is a permutation of the graph's nodes that respects every
// edge and uses each buffer only between its ALLOC and its FREE. `what` names the order's
// source in messages ("order file", "Order").
void validateOrder(const Graph& g, const Order& order, const std::string& what = "order");

// A topological order that keeps residency low in every memory (sub-problem 1 of the contest):
// each FREE runs as soon as its buffer's last user has, each ALLOC just before the buffer's
// first user, and among the operations ready to run it takes the one that grows overflow
// (resident bytes beyond capacity, summed over memories) least, then the one that leaves the
// fewest bytes resident, then the earliest in `hint`. Near-linear: it weighs a bounded window
// of ready operations per step.
Order scheduleForMemory(const Graph& g, const Capacities& caps, const Order& hint);

// Peak of resident bytes along an order (the seed's compute_Mmax_for_order): a running sum of
// +Size at ALLOC and -Size at FREE, per memory and over all memories.
struct ResidencyPeaks {
    std::map<std::string, Bytes> byType;
    Bytes total = 0;
};
ResidencyPeaks peakResidency(const Graph& g, const Order& order);

// Peak of the running sum restricted to a set of memories (e.g. {"L1", "UB"}).
Bytes peakResidencyOf(const Graph& g, const Order& order, const std::vector<std::string>& types);

}  // namespace spillway
