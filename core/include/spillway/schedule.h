// Orders (schedules) of a graph, their check, and the metrics of an order that need no plan. The
// schedulers that make orders are the order layer's (order_sources.h).
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
