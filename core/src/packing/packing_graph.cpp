#include "spillway/packing_graph.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace spillway::packing {
namespace {
constexpr Time kMaxTicks = 100000;
}

GraphDocument graphFromPacking(const Problem& problem, const std::string& memory) {
    GraphDocument doc;
    Graph& g = doc.graph;
    // (time, phase, buffer, node): phase 0 last use, 1 FREE, 2 ALLOC, 3 first use, 4 tick.
    std::vector<std::tuple<Time, int, int, NodeId>> events;
    int kept = 0;
    for (const Block& b : problem.blocks) {
        if (b.size < 1 || b.lower >= b.upper) continue;
        const int k = kept++;
        const NodeId base = 4 * k;
        Node alloc{base, kAlloc, "", 0, {}, k, b.size, memory};
        Node first{base + 1, "OP", "VECTOR", 1, {k}, -1, 0, ""};
        Node last{base + 2, "OP", "VECTOR", 1, {k}, -1, 0, ""};
        Node release{base + 3, kFree, "", 0, {}, k, b.size, memory};
        for (Node* n : {&alloc, &first, &last, &release}) g.nodes.push_back(std::move(*n));
        const int at = static_cast<int>(g.nodes.size()) - 4;
        g.edges.insert(g.edges.end(), {{at, at + 1}, {at + 1, at + 2}, {at + 2, at + 3}});
        events.emplace_back(b.lower, 2, k, base);
        events.emplace_back(b.lower, 3, k, base + 1);
        events.emplace_back(b.upper, 0, k, base + 2);
        events.emplace_back(b.upper, 1, k, base + 3);
    }
    // Time passes: an operation without buffers at every tick (the greatest common divisor of
    // the times, at most kMaxTicks of them), so that lifetimes keep their lengths in steps: the
    // planners' orderings by length and area then mean what they meant in time.
    Time first = 0, last = 0, tick = 0;
    for (const Block& b : problem.blocks) {
        if (b.size < 1 || b.lower >= b.upper) continue;
        first = tick ? std::min(first, b.lower) : b.lower;
        last = std::max(last, b.upper);
        tick = std::gcd(tick, std::gcd(b.lower, b.upper));
    }
    if (tick > 0) {
        tick = std::max(tick, (last - first + kMaxTicks - 1) / kMaxTicks);
        NodeId id = 4 * kept;
        for (Time t = first; t < last; t += tick) {
            g.nodes.push_back(Node{id, "TICK", "SCALAR", 1, {}, -1, 0, ""});
            events.emplace_back(t, 4, kept, id++);
        }
    }
    std::sort(events.begin(), events.end());
    doc.order.emplace();
    for (const auto& e : events) doc.order->push_back(std::get<3>(e));
    doc.capacities = Capacities{{memory, problem.capacity}};
    finalizeGraph(g);
    return doc;
}

}  // namespace spillway::packing
