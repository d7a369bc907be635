#include "spillway/cycles_bound.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "spillway/error.h"
#include "spillway/timing.h"

namespace spillway {
namespace {

// A piece of work one pipe must run: its cycles, the earliest it can start (head) and the
// shortest chain that must run after it ends (tail).
struct Work {
    Cycles head = 0, cycles = 0, tail = 0;
};

// One pipe's works, each pass's order made once: by head, and with head and tail swapped (the
// same bound on the reversed edges). Ties in head are ordered by tail: a work whose tail is
// larger then comes later, where fewer works share its suffix, which gives the stronger bound of
// the orders a tie allows; and the bound depends on the values alone, not on how a sort left
// equal heads (libstdc++ and libc++ leave them differently: native and WebAssembly would differ).
struct PipeWorks {
    std::vector<Work> passes[2];
    Cycles busy = 0;
};

PipeWorks sortedWorks(std::vector<Work> works) {
    PipeWorks p;
    for (const Work& w : works) p.busy += w.cycles;
    for (std::vector<Work>& pass : p.passes) {
        std::sort(works.begin(), works.end(),
                  [](const Work& a, const Work& b) { return a.head != b.head ? a.head < b.head : a.tail < b.tail; });
        pass = works;
        for (Work& w : works) std::swap(w.head, w.tail);
    }
    return p;
}

// One pipe's bound: for the works that cannot start before each head h, h + their cycles + the
// shortest tail among them; symmetrically for the works with at least each tail. `extra` cycles of
// spill work can run anywhere in the run (head and tail 0: first in either order).
Cycles pipeBound(const PipeWorks& p, Cycles extra) {
    Cycles best = 0;
    for (const std::vector<Work>& works : p.passes) {
        Cycles sum = 0, shortest = 0;
        for (size_t k = works.size(); k-- > 0;) {
            shortest = k + 1 == works.size() ? works[k].tail : std::min(shortest, works[k].tail);
            sum += works[k].cycles;
            best = std::max(best, works[k].head + sum + shortest);
        }
        if (extra > 0) best = std::max(best, sum + extra);
    }
    return best;
}

// Graphs up to this many nodes (plan nodes included) get their heads and tails raised by the
// pipes (raiseByPipes: a bit per pair of nodes, 8 MB at this size); larger ones keep the chains'.
constexpr int kPipeAwareUpTo = 8192;

// Raises each node's `head` (its earliest start) by the pipes its ancestors run on: those on one
// pipe run one at a time, so the node cannot start before the earliest of their heads + all their
// cycles + the shortest chain from the end of one of them to its start. `before[i]`: the nodes
// right before i; `topo`: an order in which they come first. On the reversed edges the same
// raises the tails.
void raiseByPipes(const PlanNodes& nodes, const std::vector<int>& topo, const std::vector<std::vector<int>>& before,
                  std::vector<Cycles>& head) {
    const int n = nodes.size(), pipes = nodes.pipes();
    const size_t words = (static_cast<size_t>(n) + 63) / 64;
    std::vector<std::uint64_t> ancestors(words * static_cast<size_t>(n), 0);
    constexpr Cycles kNone = std::numeric_limits<Cycles>::max();
    std::vector<Cycles> shortest(static_cast<size_t>(pipes) * n, kNone);  // [pipe * n + node]
    std::vector<Cycles> sum(pipes), earliest(pipes);
    for (int i : topo) {
        std::uint64_t* mine = &ancestors[words * i];
        for (int j : before[i]) {
            const std::uint64_t* theirs = &ancestors[words * j];
            for (size_t w = 0; w < words; ++w) mine[w] |= theirs[w];
            mine[j / 64] |= std::uint64_t{1} << (j % 64);
            head[i] = std::max(head[i], head[j] + nodes.node(j).cycles);
            for (int p = 1; p < pipes; ++p) {
                Cycles& s = shortest[static_cast<size_t>(p) * n + i];
                const Cycles via = shortest[static_cast<size_t>(p) * n + j];
                if (via != kNone) s = std::min(s, via + nodes.node(j).cycles);
                if (nodes.pipe(j) == p) s = 0;
            }
        }
        std::fill(sum.begin(), sum.end(), 0);
        std::fill(earliest.begin(), earliest.end(), kNone);
        for (size_t w = 0; w < words; ++w)
            for (std::uint64_t bits = mine[w]; bits; bits &= bits - 1) {
                const int a = static_cast<int>(w * 64) + __builtin_ctzll(bits);
                const int p = nodes.pipe(a);
                if (p == 0) continue;
                sum[p] += nodes.node(a).cycles;
                earliest[p] = std::min(earliest[p], head[a]);
            }
        for (int p = 1; p < pipes; ++p)
            if (earliest[p] != kNone)
                head[i] = std::max(head[i], earliest[p] + sum[p] + shortest[static_cast<size_t>(p) * n + i]);
    }
}

// The costly part of a bound over some nodes: the longest chain, and each pipe's works with
// their heads and tails. Bounds that differ only in their spill work share it.
struct Chains {
    Cycles criticalPath = 0;
    std::map<std::string, PipeWorks> byPipe;
};

// The chains of `nodes` (their edges: PlanNodes::preds).
Chains chainsOf(const PlanNodes& nodes) {
    const int n = nodes.size();
    // Successors as rows of one array (row i: [succStart[i], succStart[i + 1])), each ascending:
    // a vector per node was an allocation a node and scattered reads at 10^6 nodes.
    std::vector<int> succStart(n + 1, 0), succList, indegree(n, 0);
    for (int i = 0; i < n; ++i)
        for (int p : nodes.preds(i)) {
            ++succStart[p + 1];
            ++indegree[i];
        }
    for (int i = 0; i < n; ++i) succStart[i + 1] += succStart[i];
    succList.resize(static_cast<size_t>(succStart[n]));
    {
        std::vector<int> next(succStart.begin(), succStart.end() - 1);
        for (int i = 0; i < n; ++i)
            for (int p : nodes.preds(i)) succList[next[p]++] = i;
    }
    auto succ = [&](int i) { return IndexRange{succList.data() + succStart[i], succList.data() + succStart[i + 1]}; };
    std::vector<int> topo;
    topo.reserve(n);
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0) topo.push_back(i);
    for (size_t k = 0; k < topo.size(); ++k)
        for (int s : succ(topo[k]))
            if (--indegree[s] == 0) topo.push_back(s);
    if (static_cast<int>(topo.size()) != n) throw InternalError("cycles bound: the plan's edges form a cycle");
    std::vector<Cycles> head(n, 0), tail(n, 0);
    if (n <= kPipeAwareUpTo) {
        std::vector<std::vector<int>> preds(n), after(n);
        for (int i = 0; i < n; ++i) {
            preds[i].assign(nodes.preds(i).begin(), nodes.preds(i).end());
            after[i].assign(succ(i).begin(), succ(i).end());
        }
        raiseByPipes(nodes, topo, preds, head);
        raiseByPipes(nodes, std::vector<int>(topo.rbegin(), topo.rend()), after, tail);
    } else {
        for (int i : topo)
            for (int s : succ(i)) head[s] = std::max(head[s], head[i] + nodes.node(i).cycles);
        for (size_t k = topo.size(); k-- > 0;) {
            const int i = topo[k];
            for (int s : succ(i)) tail[i] = std::max(tail[i], nodes.node(s).cycles + tail[s]);
        }
    }
    Chains c;
    // Each pipe's works by its small index (0: none), then by name as the pipes are reported.
    std::vector<std::vector<Work>> pipeWorks(static_cast<size_t>(nodes.pipes()));
    std::vector<const std::string*> pipeName(pipeWorks.size(), nullptr);
    for (int i = 0; i < n; ++i) {
        const Node& node = nodes.node(i);
        c.criticalPath = std::max(c.criticalPath, head[i] + node.cycles + tail[i]);
        if (const int p = nodes.pipe(i); p > 0) {
            pipeWorks[p].push_back({head[i], node.cycles, tail[i]});
            pipeName[p] = &node.pipe.str();
        }
    }
    for (size_t p = 1; p < pipeWorks.size(); ++p)
        if (pipeName[p]) c.byPipe[*pipeName[p]] = sortedWorks(std::move(pipeWorks[p]));
    return c;
}

// The bound of `chains` with `extra` spill work per pipe name.
CyclesBound boundOf(const Chains& chains, const std::map<std::string, Cycles>& extra) {
    CyclesBound b;
    b.limit = kCriticalPathLimit;
    b.criticalPath = chains.criticalPath;
    b.total = b.criticalPath;
    auto add = [&](const std::string& pipe, const PipeWorks& works, Cycles spillWork) {
        CyclesBound::Pipe p{pipe, works.busy + spillWork, pipeBound(works, spillWork)};
        if (p.bound > b.total) {
            b.total = p.bound;
            b.limit = pipe;
        }
        b.pipes.push_back(std::move(p));
    };
    // Every pipe with works or spill work, in name order (as the results list them).
    static const PipeWorks kNoWorks;
    std::map<std::string, const PipeWorks*> pipes;
    for (const auto& [pipe, works] : chains.byPipe) pipes[pipe] = &works;
    for (const auto& [pipe, cycles] : extra)
        if (cycles > 0) pipes.emplace(pipe, &kNoWorks);
    for (const auto& [pipe, works] : pipes) {
        const auto spill = extra.find(pipe);
        add(pipe, *works, spill != extra.end() && spill->second > 0 ? spill->second : 0);
    }
    return b;
}

// The fewest cycles moving `bytes` out of buffers like `of` can take: bytes times the cheapest
// cycles per byte moved, rounded down. `cyclesOf` gives a spill's cycles on one pipe.
template <typename CyclesOf>
Cycles cheapestWork(const std::vector<const Buffer*>& of, Bytes bytes, CyclesOf cyclesOf) {
    __extension__ using Wide = __int128;  // products of cycles and bytes
    const Buffer* cheapest = nullptr;
    for (const Buffer* b : of) {
        // cycles(b) / traffic(b) < cycles(c) / traffic(c), without division.
        if (!cheapest || static_cast<Wide>(cyclesOf(*b)) * spillTrafficBytes(*cheapest) <
                             static_cast<Wide>(cyclesOf(*cheapest)) * spillTrafficBytes(*b))
            cheapest = b;
    }
    if (!cheapest || bytes <= 0) return 0;
    return static_cast<Cycles>(static_cast<Wide>(bytes) * cyclesOf(*cheapest) / spillTrafficBytes(*cheapest));
}

}  // namespace

CyclesBound planCyclesBound(const Graph& g, const Plan& plan) { return boundOf(chainsOf(PlanNodes(g, plan)), {}); }

CyclesBound trafficCyclesBound(const Graph& g, const CostModel& cost, const std::map<std::string, Bytes>& traffic) {
    return trafficCyclesBounds(g, cost, {traffic}).front();
}

std::vector<CyclesBound> trafficCyclesBounds(const Graph& g, const CostModel& cost,
                                             const std::vector<std::map<std::string, Bytes>>& traffics) {
    std::map<std::string, std::vector<const Buffer*>> byType;
    for (const Buffer& b : g.buffers) byType[b.type].push_back(&b);
    const Chains chains = chainsOf(PlanNodes(g, Plan{}));
    std::vector<CyclesBound> bounds;
    for (const auto& traffic : traffics) {
        std::map<std::string, Cycles> extra;
        for (const auto& [type, bytes] : traffic) {
            auto it = byType.find(type);
            if (it == byType.end()) continue;
            extra[kSpillInPipe] +=
                cheapestWork(it->second, bytes, [&](const Buffer& b) { return cost.spillInCycles(b); });
            extra[kSpillOutPipe] +=
                cheapestWork(it->second, bytes, [&](const Buffer& b) { return cost.spillOutCycles(b); });
        }
        bounds.push_back(boundOf(chains, extra));
    }
    return bounds;
}

}  // namespace spillway
