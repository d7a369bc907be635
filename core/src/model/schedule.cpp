#include "spillway/schedule.h"

#include <algorithm>

#include "spillway/error.h"

namespace spillway {

Order orderById(const Graph& g) {
    Order order;
    order.reserve(g.nodes.size());
    for (const Node& n : g.nodes) order.push_back(n.id);
    std::sort(order.begin(), order.end());
    return order;
}

void validateOrder(const Graph& g, const Order& order, const std::string& what, const std::string& source) {
    const int n = static_cast<int>(g.nodes.size());
    auto at = [&](std::int64_t step, int nodeIndex = -1) {
        ErrorPlace where;
        where.source = source;
        if (step >= 0) {
            where.step = step;
            where.field = std::string(source == "graph" ? "Order" : "order") + "[" + std::to_string(step) + "]";
        }
        if (nodeIndex >= 0) {
            where.nodeIndex = nodeIndex;
            where.node = g.nodes[nodeIndex].id;
        }
        return where;
    };
    std::vector<int> position(n, -1);
    for (int i = 0; i < static_cast<int>(order.size()); ++i) {
        const int v = g.nodeIndex.find(order[i]);
        if (v == IdTable::kAbsent)
            throw InputError(what + ", position " + std::to_string(i) + ": node " + std::to_string(order[i]) +
                                 " is not in the graph",
                             at(i));
        if (position[v] >= 0)
            throw InputError(what + ", position " + std::to_string(i) + ": node " + std::to_string(order[i]) +
                                 " already appears at position " + std::to_string(position[v]),
                             at(i, v));
        position[v] = i;
    }
    for (int v = 0; v < n; ++v)
        if (position[v] < 0)
            throw InputError(what + " misses node " + std::to_string(g.nodes[v].id) + " (it has " +
                                 std::to_string(order.size()) + " of the graph's " + std::to_string(n) + " nodes)",
                             at(-1, v));
    for (std::size_t e = 0; e < g.edges.size(); ++e) {
        const auto [s, d] = g.edges[e];
        if (position[s] > position[d]) {
            ErrorPlace where = at(position[d], d);
            where.edge = static_cast<std::int64_t>(e);
            throw InputError(what + " breaks edge " + std::to_string(g.nodes[s].id) + " -> " +
                                 std::to_string(g.nodes[d].id) + ": node " + std::to_string(g.nodes[d].id) +
                                 " at position " + std::to_string(position[d]) + " comes before node " +
                                 std::to_string(g.nodes[s].id) + " at position " + std::to_string(position[s]),
                             std::move(where));
        }
    }
    for (const Buffer& b : g.buffers) {
        const int alloc = position[b.allocNode], free = position[b.freeNode];
        if (alloc > free) {
            ErrorPlace where = at(free, b.freeNode);
            where.buffer = b.id;
            throw InputError(what + " frees buffer " + std::to_string(b.id) + " (node " +
                                 std::to_string(g.nodes[b.freeNode].id) + ", position " + std::to_string(free) +
                                 ") before its ALLOC (node " + std::to_string(g.nodes[b.allocNode].id) + ", position " +
                                 std::to_string(alloc) + ")",
                             std::move(where));
        }
        for (int u : b.users)
            if (position[u] < alloc || position[u] > free) {
                ErrorPlace where = at(position[u], u);
                where.buffer = b.id;
                throw InputError(what + ": node " + std::to_string(g.nodes[u].id) + " (position " +
                                     std::to_string(position[u]) + ") uses buffer " + std::to_string(b.id) +
                                     " outside its lifetime (ALLOC at position " + std::to_string(alloc) +
                                     ", FREE at position " + std::to_string(free) + ")",
                                 std::move(where));
            }
    }
}

namespace {
template <typename Keep>
void walkResidency(const Graph& g, const Order& order, Keep&& onChange) {
    for (NodeId id : order) {
        const Node& n = g.node(id);
        if (n.isAlloc())
            onChange(n.type, n.size);
        else if (n.isFree())
            onChange(n.type, -n.size);
    }
}
}  // namespace

ResidencyPeaks peakResidency(const Graph& g, const Order& order) {
    ResidencyPeaks peaks;
    std::map<std::string, Bytes> now;
    Bytes total = 0;
    for (const Buffer& b : g.buffers) peaks.byType.emplace(b.type, 0);
    walkResidency(g, order, [&](const std::string& type, Bytes delta) {
        Bytes& t = now[type];
        t += delta;
        total += delta;
        peaks.byType[type] = std::max(peaks.byType[type], t);
        peaks.total = std::max(peaks.total, total);
    });
    return peaks;
}

Bytes peakResidencyOf(const Graph& g, const Order& order, const std::vector<std::string>& types) {
    Bytes now = 0, peak = 0;
    walkResidency(g, order, [&](const std::string& type, Bytes delta) {
        if (std::find(types.begin(), types.end(), type) == types.end()) return;
        now += delta;
        peak = std::max(peak, now);
    });
    return peak;
}

}  // namespace spillway
