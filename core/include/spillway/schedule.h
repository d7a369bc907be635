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
// edge and uses each buffer only between its ALLOC and its FREE. `what` names the order in
// messages ("the given order", "the graph's \"Order\""); `source` is the text it came from
// ("graph", "options", "order"; empty for an order the engine made), and errors name its
// position as ErrorPlace::step (and the edge, node or buffer concerned).
void validateOrder(const Graph& g, const Order& order, const std::string& what = "order",
                   const std::string& source = "");

// A topological order that keeps residency low (sub-problem 1 of the contest): it follows `hint`
// (e.g. ascending id) but runs each FREE as soon as its buffer's last user has run and each
// ALLOC just before the buffer's first user, so that no buffer is resident longer than its uses
// need. O(n log n).
Order scheduleForMemory(const Graph& g, const Order& hint);

// A topological order that moves less data under `caps` (the "reuse" order source): the same
// ALLOC/FREE placement as scheduleForMemory, but it chooses the next operations (a consumer and
// its unrun inputs) by the traffic a simulated per-memory cache says they would cause, ties to
// `hint`. Bounded work per step, deterministic.
Order scheduleForReuse(const Graph& g, const Order& hint, const Capacities& caps);

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
