#include "spillway/packing_graph.h"

#include <algorithm>
#include <tuple>

namespace spillway::packing {

GraphDocument graphFromPacking(const Problem& problem, const std::string& memory) {
    GraphDocument doc;
    Graph& g = doc.graph;
    // (time, phase, buffer, node): phase 0 last use, 1 FREE, 2 ALLOC, 3 first use.
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
    std::sort(events.begin(), events.end());
    doc.order.emplace();
    for (const auto& e : events) doc.order->push_back(std::get<3>(e));
    doc.capacities = Capacities{{memory, problem.capacity}};
    finalizeGraph(g);
    return doc;
}

}  // namespace spillway::packing
