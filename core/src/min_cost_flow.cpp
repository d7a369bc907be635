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

// Dijkstra's heap entries, (distance, node), smallest first: a pair, or one word (distance
// above the node's bits) when the network has at most 2^20 nodes and the distance fits, as in
// the bound's windows (a few hundred nodes): a word moves and compares in one instruction, which
// made the bound's flows about a fifth faster. The same entries pop in the same order either way.
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

bool MinCostFlow::shortestDistances(int source, int sink) {
    const std::int64_t workBefore = work_;
    if (n_ <= (1 << WordEntries::kNodeBits)) {
        if (const std::optional<bool> reached = dijkstra<WordEntries>(source, sink, wordHeap_)) return *reached;
        work_ = workBefore;  // a distance did not fit in a word: again with pairs, from the start
    }
    return *dijkstra<PairEntries>(source, sink, pairHeap_);
}

// Dijkstra on reduced costs (all non-negative), then the new potentials. Nothing when a distance
// does not fit the entries (then nothing but dist_, reached_ and work_ was changed).
template <typename Entries>
std::optional<bool> MinCostFlow::dijkstra(int source, int sink, MinHeap<typename Entries::Entry>& heap) {
    for (int v : reached_) dist_[v] = kInfinity;
    reached_.clear();
    // A binary heap in storage kept between phases. No two entries are equal (a node's distance
    // only falls), so the pops come in one order whatever the heap: min_heap.h's bottom-up pop,
    // which compares less than std::pop_heap, pops what std::priority_queue did.
    heap.clear();
    dist_[source] = 0;
    reached_.push_back(source);
    heap.push(Entries::entry(0, source));
    while (!heap.empty()) {
        const typename Entries::Entry top = heap.pop();
        const Amount d0 = Entries::distance(top);
        const int v = Entries::node(top);
        ++work_;
        if (d0 != dist_[v]) continue;
        if (v == sink) break;  // farther nodes lie on no shortest path to the sink
        work_ += rowEnd(v) - rowBegin(v);
        const Amount pv = potential_[v];
        for (const int* it = rowBegin(v); it != rowEnd(v); ++it) {
            const Arc& arc = arcs_[*it];
            if (arc.residual <= 0) continue;
            const Amount d = d0 + arc.cost + pv - potential_[arc.to];
            if (d < dist_[arc.to]) {
                if (!Entries::fits(d)) return std::nullopt;
                if (dist_[arc.to] == kInfinity) reached_.push_back(arc.to);
                dist_[arc.to] = d;
                heap.push(Entries::entry(d, arc.to));
            }
        }
    }
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
