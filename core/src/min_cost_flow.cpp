#include "min_cost_flow.h"

#include <algorithm>
#include <limits>
#include <functional>
#include <optional>

#include "spillway/error.h"

namespace spillway {
namespace {
constexpr MinCostFlow::Amount kInfinity = std::numeric_limits<MinCostFlow::Amount>::max() / 4;
}

MinCostFlow::MinCostFlow(int nodes) { reset(nodes); }

void MinCostFlow::reset(int nodes) {
    n_ = nodes;
    arcs_.clear();
    potential_.assign(static_cast<std::size_t>(nodes), 0);
    dist_.assign(static_cast<std::size_t>(nodes), kInfinity);
    current_.assign(static_cast<std::size_t>(nodes), 0);
    state_.assign(static_cast<std::size_t>(nodes), kOpen);
    visited_.assign(static_cast<std::size_t>(nodes), -1);
    reached_.clear();
    potentialShift_ = 0;
    phase_ = 0;
    cost_ = 0;
    work_ = 0;
    finished_ = true;
    unsent_ = 0;
    nextPathCost_ = 0;
}

int MinCostFlow::addArc(int from, int to, Amount capacity, Amount cost) {
    if (from >= to || from < 0 || to >= n_) throw InternalError("min-cost flow: arcs must go forward in node order");
    const int index = static_cast<int>(arcs_.size() / 2);
    arcs_.push_back({to, capacity, cost});
    arcs_.push_back({from, 0, -cost});
    return index;
}

// Arc 2i leaves its tail (the head of 2i + 1) and 2i + 1 leaves its head: rows by counting, each
// in the order the arcs were added. Row v's end first, then the arcs placed from the back, which
// leaves each rowStart_[v] at its row's start (no second array of positions).
void MinCostFlow::buildRows() {
    rowStart_.assign(static_cast<std::size_t>(n_) + 1, 0);
    for (const Arc& a : arcs_) ++rowStart_[static_cast<std::size_t>(a.to)];  // as many leave a.to
    for (int v = 1; v < n_; ++v) rowStart_[v] += rowStart_[v - 1];
    rowStart_[n_] = static_cast<int>(arcs_.size());
    rowArcs_.resize(arcs_.size());
    for (std::size_t a = arcs_.size(); a-- > 0;) rowArcs_[--rowStart_[arcs_[a ^ 1].to]] = static_cast<int>(a);
}

// Arcs go forward in index order, so one pass in that order gives exact distances from the
// source: reduced costs start non-negative although costs are negative.
void MinCostFlow::initialPotentials(int source) {
    std::fill(potential_.begin(), potential_.end(), kInfinity);
    potential_[source] = 0;
    for (int v = source; v < n_; ++v) {
        if (potential_[v] == kInfinity) continue;
        for (const int* it = rowBegin(v); it != rowEnd(v); ++it)
            if (const int a = *it; a % 2 == 0 && arcs_[a].residual > 0)
                potential_[arcs_[a].to] = std::min(potential_[arcs_[a].to], potential_[v] + arcs_[a].cost);
    }
    for (Amount& p : potential_)
        if (p == kInfinity) p = 0;  // unreachable from the source: never touched again
}

// Dijkstra's queues of (distance, node), smallest first. The bound's windows (a few hundred
// nodes, reduced distances mostly below a hundred) use buckets (min_heap.h), which made their
// flows a quarter faster (measured below the commit); else a heap of words (distance above the
// node's bits) when the network has at most 2^20 nodes and the distance fits, which moves and
// compares in one instruction; else a heap of pairs. The same entries pop in the same order from
// each: the distances, the flow and the work counted are the same.
template <typename Entries>
struct MinCostFlow::HeapQueue {
    MinHeap<typename Entries::Entry>& heap;
    static bool fits(Amount d) { return Entries::fits(d); }
    void clear() { heap.clear(); }
    bool empty() const { return heap.empty(); }
    void push(Amount d, int v) { heap.push(Entries::entry(d, v)); }
    std::pair<Amount, int> pop() {
        const typename Entries::Entry e = heap.pop();
        return {Entries::distance(e), Entries::node(e)};
    }
};
struct MinCostFlow::PairEntries {
    using Entry = std::pair<Amount, int>;
    static bool fits(Amount) { return true; }
    static Entry entry(Amount d, int v) { return {d, v}; }
    static Amount distance(const Entry& e) { return e.first; }
    static int node(const Entry& e) { return e.second; }
};
struct MinCostFlow::WordEntries {
    using Entry = std::uint64_t;
    static constexpr int kNodeBits = 20;
    static bool fits(Amount d) { return 0 <= d && d < (Amount(1) << (63 - kNodeBits)); }
    static Entry entry(Amount d, int v) { return static_cast<Entry>(d) << kNodeBits | static_cast<Entry>(v); }
    static Amount distance(Entry e) { return static_cast<Amount>(e >> kNodeBits); }
    static int node(Entry e) { return static_cast<int>(e & ((Entry(1) << kNodeBits) - 1)); }
};

// A queue that a distance does not fit is left for the rest of the run (distances grow as the
// flow's paths get dearer), so that each phase does not start with a Dijkstra thrown away.
bool MinCostFlow::shortestDistances(int source, int sink) {
    const std::int64_t workBefore = work_;
    if (useBuckets_) {
        if (const std::optional<bool> reached = dijkstra(source, sink, buckets_)) return *reached;
        work_ = workBefore;
        useBuckets_ = false;
    }
    if (n_ <= (1 << WordEntries::kNodeBits)) {
        HeapQueue<WordEntries> words{wordHeap_};
        if (const std::optional<bool> reached = dijkstra(source, sink, words)) return *reached;
        work_ = workBefore;  // a distance did not fit in a word: again with pairs, from the start
    }
    HeapQueue<PairEntries> pairs{pairHeap_};
    return *dijkstra(source, sink, pairs);
}

// Dijkstra on reduced costs (all non-negative), then the new potentials. Nothing when a distance
// does not fit the entries (then nothing but dist_, reached_ and work_ was changed).
template <typename Queue>
std::optional<bool> MinCostFlow::dijkstra(int source, int sink, Queue& queue) {
    for (int v : reached_) dist_[v] = kInfinity;
    reached_.clear();
    // A queue in storage kept between phases. No two entries are equal (a node's distance only
    // falls), so the pops come in one order whatever the queue: what std::priority_queue popped.
    queue.clear();
    dist_[source] = 0;
    reached_.push_back(source);
    queue.push(0, source);
    // The arrays through local pointers and the work in a local: stores to dist_, the queue and
    // work_ (all 64-bit integers, which may alias) made the compiler reload the members in the
    // arc loop (a few percent of the bound's flows).
    Amount* const dist = dist_.data();
    const Amount* const potential = potential_.data();
    const Arc* const arcs = arcs_.data();
    const int* const rowArcs = rowArcs_.data();
    const int* const rowStart = rowStart_.data();
    std::int64_t work = 0;
    while (!queue.empty()) {
        const auto [d0, v] = queue.pop();
        ++work;
        if (d0 != dist[v]) continue;
        if (v == sink) break;  // farther nodes lie on no shortest path to the sink
        const int* const end = rowArcs + rowStart[v + 1];
        work += end - (rowArcs + rowStart[v]);
        const Amount pv = potential[v];
        for (const int* it = rowArcs + rowStart[v]; it != end; ++it) {
            const Arc& arc = arcs[*it];
            if (arc.residual <= 0) continue;
            const Amount d = d0 + arc.cost + pv - potential[arc.to];
            if (d < dist[arc.to]) {
                if (!Queue::fits(d)) return std::nullopt;
                if (dist[arc.to] == kInfinity) reached_.push_back(arc.to);
                dist[arc.to] = d;
                queue.push(d, arc.to);
            }
        }
    }
    work_ += work;
    if (dist_[sink] == kInfinity) return false;
    // New potentials keep every residual arc's reduced cost non-negative (nodes not closer than
    // the sink, reached or not, move by the sink's distance); the arcs on shortest paths now have
    // reduced cost 0. All rise by the sink's distance (the shift), the closer ones less.
    const Amount toSink = dist_[sink];
    potentialShift_ += toSink;
    for (int v : reached_)
        if (dist_[v] < toSink) potential_[v] -= toSink - dist_[v];
    return true;
}

MinCostFlow::Amount MinCostFlow::run(int source, int sink, Amount limit, std::int64_t workBudget) {
    buildRows();
    useBuckets_ = n_ <= BucketQueue::kMaxNodes;
    if (useBuckets_) buckets_.reset(n_);
    initialPotentials(source);
    Amount sent = 0;
    while (sent < limit && shortestDistances(source, sink)) {
        // The cost of every admissible path is now potential[sink] - potential[source].
        const Amount pathCost = potential_[sink] - potential_[source];
        if (workBudget >= 0 && work_ > workBudget) {
            finished_ = false;
            unsent_ = limit - sent;
            nextPathCost_ = pathCost;
            break;
        }
        const Amount pushed = blockingFlow(source, sink, limit - sent);
        if (pushed == 0) throw InternalError("min-cost flow: a shortest path carried no flow");
        sent += pushed;
        cost_ += pushed * pathCost;
    }
    return sent;
}

// A blocking flow on the admissible arcs (on some shortest path: reduced cost 0), depth first
// and iteratively (paths can be tens of thousands of arcs long: no recursion). A node whose arcs
// all failed is dead for this phase; arcs back into the current path are skipped, so zero-cost
// cycles cannot trap it, and the first search always finds a path when one exists. Returns the
// units pushed, at most `limit`.
void MinCostFlow::visit(int v) {
    if (visited_[v] == phase_) return;
    visited_[v] = phase_;
    state_[v] = kOpen;
    current_[v] = rowStart_[v];
}

MinCostFlow::Amount MinCostFlow::blockingFlow(int source, int sink, Amount limit) {
    ++phase_;
    auto admissible = [&](int v, const Arc& arc) {
        return arc.residual > 0 && stateOf(arc.to) == kOpen && arc.cost + potential_[v] - potential_[arc.to] == 0;
    };
    Amount total = 0;
    std::vector<int>& path = path_;
    path.clear();
    int v = source;
    visit(source);
    state_[source] = kOnPath;
    while (total < limit) {
        if (v == sink) {
            Amount push = limit - total;
            for (int a : path) push = std::min(push, arcs_[a].residual);
            size_t firstSaturated = path.size();
            for (size_t i = 0; i < path.size(); ++i) {
                arcs_[path[i]].residual -= push;
                arcs_[path[i] ^ 1].residual += push;
                if (arcs_[path[i]].residual == 0 && firstSaturated == path.size()) firstSaturated = i;
            }
            total += push;
            for (size_t i = firstSaturated; i < path.size(); ++i) state_[arcs_[path[i]].to] = kOpen;
            path.resize(firstSaturated);
            v = path.empty() ? source : arcs_[path.back()].to;
            continue;
        }
        bool advanced = false;
        for (; current_[v] < rowStart_[v + 1]; ++current_[v], ++work_) {
            const int a = rowArcs_[current_[v]];
            if (admissible(v, arcs_[a])) {
                path.push_back(a);
                v = arcs_[a].to;
                visit(v);
                state_[v] = kOnPath;
                advanced = true;
                break;
            }
        }
        if (advanced) continue;
        state_[v] = kDead;
        if (v == source) break;
        const int back = path.back();
        path.pop_back();
        v = arcs_[back ^ 1].to;
        ++current_[v];
    }
    return total;
}

}  // namespace spillway
