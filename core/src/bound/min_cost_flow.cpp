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
    added_.clear();
    potential_.assign(static_cast<std::size_t>(nodes), 0);
    dist_.assign(static_cast<std::size_t>(nodes), kInfinity);
    current_.assign(static_cast<std::size_t>(nodes), 0);
    stamp_.assign(static_cast<std::size_t>(nodes), 0);
    reached_.clear();
    potentialShift_ = 0;
    phaseBase_ = 0;
    cost_ = 0;
    work_ = 0;
    finished_ = true;
    unsent_ = 0;
    nextPathCost_ = 0;
}

int MinCostFlow::addArc(int from, int to, Amount capacity, Amount cost) {
    if (from >= to || from < 0 || to >= n_) throw InternalError("min-cost flow: arcs must go forward in node order");
    added_.push_back({from, to, capacity, cost});
    return static_cast<int>(added_.size()) - 1;
}

// An added arc is a forward arc in its tail's row and a reverse arc (no residual yet) in its
// head's; each row in the order the arcs were added. Rows by counting: row v's end first, then
// the arcs placed from the back, which leaves each rowStart_[v] at its row's start.
void MinCostFlow::buildRows() {
    rowStart_.assign(static_cast<std::size_t>(n_) + 1, 0);
    for (const AddedArc& a : added_) ++rowStart_[a.from], ++rowStart_[a.to];
    for (int v = 1; v <= n_; ++v) rowStart_[v] += rowStart_[v - 1];
    arcs_.resize(2 * added_.size());
    reverseOf_.resize(added_.size());
    for (std::size_t i = added_.size(); i-- > 0;) {
        const AddedArc& a = added_[i];
        const int forward = --rowStart_[a.from], reverse = --rowStart_[a.to];
        arcs_[forward] = {a.to, reverse, a.capacity, a.cost};
        arcs_[reverse] = {a.from, forward, 0, -a.cost};
        reverseOf_[i] = reverse;
    }
}

// Arcs go forward in index order, so one pass in that order gives exact distances from the
// source: reduced costs start non-negative although costs are negative.
void MinCostFlow::initialPotentials(int source) {
    std::fill(potential_.begin(), potential_.end(), kInfinity);
    potential_[source] = 0;
    for (int v = source; v < n_; ++v) {
        if (potential_[v] == kInfinity) continue;
        for (int p = rowStart_[v]; p < rowStart_[v + 1]; ++p)
            if (const Arc& arc = arcs_[p]; arc.to > v && arc.residual > 0)
                potential_[arc.to] = std::min(potential_[arc.to], potential_[v] + arc.cost);
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
    const int* const rowStart = rowStart_.data();
    std::int64_t work = 0;
    while (!queue.empty()) {
        const auto [d0, v] = queue.pop();
        ++work;
        if (d0 != dist[v]) continue;
        if (v == sink) break;  // farther nodes lie on no shortest path to the sink
        const Arc* const end = arcs + rowStart[v + 1];
        work += end - (arcs + rowStart[v]);
        const Amount pv = potential[v];
        for (const Arc* arc = arcs + rowStart[v]; arc != end; ++arc) {
            const Amount d = d0 + arc->cost + pv - potential[arc->to];
            // Both tests, then one branch: whether an arc has room is a coin toss (the reverse
            // arcs without flow are half the rows), and its own branch mispredicted often.
            if ((arc->residual > 0) & (d < dist[arc->to])) {
                if (!Queue::fits(d)) return std::nullopt;
                if (dist[arc->to] == kInfinity) reached_.push_back(arc->to);
                dist[arc->to] = d;
                queue.push(d, arc->to);
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
MinCostFlow::Amount MinCostFlow::blockingFlow(int source, int sink, Amount limit) {
    const std::int64_t base = phaseBase_ += kStates;
    // Locals as in dijkstra(): stores to the arcs, stamps and work would make the compiler reload
    // members in the arc loop.
    Arc* const arcs = arcs_.data();
    const Amount* const potential = potential_.data();
    std::int64_t* const stamp = stamp_.data();
    int* const current = current_.data();
    const int* const rowStart = rowStart_.data();
    std::int64_t work = 0;
    // Opens `v` for this phase (open, first arc current) on its first visit.
    auto visit = [&](int v) {
        if (stamp[v] < base) stamp[v] = base + kOpen, current[v] = rowStart[v];
    };
    Amount total = 0;
    std::vector<int>& path = path_;
    path.clear();
    int v = source;
    visit(source);
    stamp[source] = base + kOnPath;
    while (total < limit) {
        if (v == sink) {
            Amount push = limit - total;
            for (int p : path) push = std::min(push, arcs[p].residual);
            size_t firstSaturated = path.size();
            for (size_t i = 0; i < path.size(); ++i) {
                Arc& arc = arcs[path[i]];
                arc.residual -= push;
                arcs[arc.reverse].residual += push;
                if (arc.residual == 0 && firstSaturated == path.size()) firstSaturated = i;
            }
            total += push;
            for (size_t i = firstSaturated; i < path.size(); ++i) stamp[arcs[path[i]].to] = base + kOpen;
            path.resize(firstSaturated);
            v = path.empty() ? source : arcs[path.back()].to;
            continue;
        }
        // The first admissible arc from the current one on: room, an open head, reduced cost 0;
        // the three tests without a branch each (as in dijkstra()).
        const Amount pv = potential[v];
        const int end = rowStart[v + 1];
        int p = current[v];
        for (; p < end; ++p, ++work) {
            const Arc& arc = arcs[p];
            if ((arc.residual > 0) & (stamp[arc.to] <= base) & (arc.cost + pv == potential[arc.to])) break;
        }
        current[v] = p;
        if (p < end) {
            path.push_back(p);
            v = arcs[p].to;
            visit(v);
            stamp[v] = base + kOnPath;
            continue;
        }
        stamp[v] = base + kDead;
        if (v == source) break;
        const int back = path.back();
        path.pop_back();
        v = arcs[arcs[back].reverse].to;
        ++current[v];
    }
    work_ += work;
    return total;
}

}  // namespace spillway
