#include "spillway/cycles_bound.h"

#include <algorithm>

#include "spillway/error.h"
#include "spillway/timing.h"

namespace spillway {
namespace {

// A piece of work one pipe must run: its cycles, the earliest it can start (head) and the
// shortest chain that must run after it ends (tail).
struct Work {
    Cycles head = 0, cycles = 0, tail = 0;
};

// One pipe's bound: for the works that cannot start before each head h, h + their cycles + the
// shortest tail among them; symmetrically for the works with at least each tail.
Cycles pipeBound(std::vector<Work> works) {
    Cycles best = 0;
    for (int pass = 0; pass < 2; ++pass) {
        std::sort(works.begin(), works.end(), [](const Work& a, const Work& b) { return a.head < b.head; });
        Cycles sum = 0, shortest = 0;
        for (size_t k = works.size(); k-- > 0;) {
            shortest = k + 1 == works.size() ? works[k].tail : std::min(shortest, works[k].tail);
            sum += works[k].cycles;
            best = std::max(best, works[k].head + sum + shortest);
        }
        for (Work& w : works) std::swap(w.head, w.tail);
    }
    return best;
}

// The bound over `nodes` (their edges: PlanNodes::preds) with `extra` spill work per pipe name.
CyclesBound boundOf(const PlanNodes& nodes, const std::map<std::string, Cycles>& extra) {
    const int n = nodes.size();
    std::vector<std::vector<int>> succ(n);
    std::vector<int> indegree(n, 0);
    for (int i = 0; i < n; ++i)
        for (int p : nodes.preds(i)) {
            succ[p].push_back(i);
            ++indegree[i];
        }
    std::vector<int> topo;
    topo.reserve(n);
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0) topo.push_back(i);
    for (size_t k = 0; k < topo.size(); ++k)
        for (int s : succ[topo[k]])
            if (--indegree[s] == 0) topo.push_back(s);
    if (static_cast<int>(topo.size()) != n) throw InternalError("cycles bound: the plan's edges form a cycle");
    std::vector<Cycles> head(n, 0), tail(n, 0);
    for (int i : topo)
        for (int s : succ[i]) head[s] = std::max(head[s], head[i] + nodes.node(i).cycles);
    for (size_t k = topo.size(); k-- > 0;) {
        const int i = topo[k];
        for (int s : succ[i]) tail[i] = std::max(tail[i], nodes.node(s).cycles + tail[s]);
    }
    CyclesBound b;
    b.limit = "critical path";
    std::map<std::string, std::vector<Work>> byPipe;
    for (int i = 0; i < n; ++i) {
        const Node& node = nodes.node(i);
        b.criticalPath = std::max(b.criticalPath, head[i] + node.cycles + tail[i]);
        if (!node.pipe.empty()) byPipe[node.pipe].push_back({head[i], node.cycles, tail[i]});
    }
    for (const auto& [pipe, cycles] : extra)
        if (cycles > 0) byPipe[pipe].push_back({0, cycles, 0});  // spill work: anywhere in the run
    b.total = b.criticalPath;
    for (auto& [pipe, works] : byPipe) {
        CyclesBound::Pipe p{pipe, 0, pipeBound(works)};
        for (const Work& w : works) p.busy += w.cycles;
        if (p.bound > b.total) {
            b.total = p.bound;
            b.limit = pipe;
        }
        b.pipes.push_back(std::move(p));
    }
    return b;
}

// The fewest cycles moving `bytes` out of buffers like `of` can take: bytes times the cheapest
// cycles per byte moved, rounded down. `cyclesOf` gives a spill's cycles on one pipe.
template <typename CyclesOf>
Cycles cheapestWork(const std::vector<const Buffer*>& of, Bytes bytes, CyclesOf cyclesOf) {
    const Buffer* cheapest = nullptr;
    for (const Buffer* b : of) {
        // cycles(b) / traffic(b) < cycles(c) / traffic(c), without division.
        if (!cheapest || static_cast<__int128>(cyclesOf(*b)) * spillTrafficBytes(*cheapest) <
                             static_cast<__int128>(cyclesOf(*cheapest)) * spillTrafficBytes(*b))
            cheapest = b;
    }
    if (!cheapest || bytes <= 0) return 0;
    return static_cast<Cycles>(static_cast<__int128>(bytes) * cyclesOf(*cheapest) / spillTrafficBytes(*cheapest));
}

}  // namespace

CyclesBound planCyclesBound(const Graph& g, const Plan& plan) { return boundOf(PlanNodes(g, plan), {}); }

CyclesBound trafficCyclesBound(const Graph& g, const CostModel& cost, const std::map<std::string, Bytes>& traffic) {
    std::map<std::string, std::vector<const Buffer*>> byType;
    for (const Buffer& b : g.buffers) byType[b.type].push_back(&b);
    std::map<std::string, Cycles> extra;
    for (const auto& [type, bytes] : traffic) {
        auto it = byType.find(type);
        if (it == byType.end()) continue;
        extra[kSpillInPipe] += cheapestWork(it->second, bytes, [&](const Buffer& b) { return cost.spillInCycles(b); });
        extra[kSpillOutPipe] += cheapestWork(it->second, bytes, [&](const Buffer& b) { return cost.spillOutCycles(b); });
    }
    return boundOf(PlanNodes(g, Plan{}), extra);
}

}  // namespace spillway
