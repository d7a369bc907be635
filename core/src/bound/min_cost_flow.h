// Internal: minimum-cost flow on a network whose arcs all go from a lower node index to a higher
// one (a DAG in index order, as a time line is). The residency relaxation (residency.cpp) is
// solved with it. Primal-dual: Dijkstra on reduced costs finds the cheapest augmenting distance,
// then a blocking flow (Dinic) pushes along every path of that distance at once, so that many
// small augmentations cost one shortest-path computation. Integer capacities and costs; the
// result is exact.
#pragma once
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "min_heap.h"

namespace spillway {

class MinCostFlow {
public:
    using Amount = std::int64_t;

    explicit MinCostFlow(int nodes = 0);

    // Empties the network for `nodes` nodes, as a new MinCostFlow(nodes) would be, but keeps the
    // storage: the bound solves thousands of small windows one after another, and a fresh network
    // each was a dozen allocations (and their first touch) a window.
    void reset(int nodes);

    // An arc from `from` to `to` (from < to) carrying up to `capacity` units at `cost` each.
    // Returns its index for flowOn().
    int addArc(int from, int to, Amount capacity, Amount cost);

    // Sends as much flow as possible, up to `limit`, from `source` to `sink` at least total cost
    // for that amount. Returns the flow sent; cost() is its total cost. With a `workBudget` (in
    // work() units, counted, so deterministic) it may stop early: finished() is then false and
    // costFloor() bounds the full run's cost from below. Once per network: reset() before the next.
    Amount run(int source, int sink, Amount limit, std::int64_t workBudget = -1);

    Amount cost() const { return cost_; }
    bool finished() const { return finished_; }
    // No flow of up to `limit` units costs less: the cost so far plus the units still unsent at
    // the next path's cost (successive shortest paths never get cheaper). cost() when finished.
    // The lowest Amount when that product does not fit one (still a floor).
    Amount costFloor() const {
        Amount unsentCost = 0, floor = 0;
        if (__builtin_mul_overflow(unsent_, std::min<Amount>(nextPathCost_, 0), &unsentCost) ||
            __builtin_add_overflow(cost_, unsentCost, &floor))
            return std::numeric_limits<Amount>::min();
        return floor;
    }
    // Arcs scanned and heap entries popped so far: a deterministic measure of the time spent.
    std::int64_t work() const { return work_; }
    Amount flowOn(int arc) const { return arcs_[static_cast<std::size_t>(reverseOf_[arc])].residual; }
    // A node's potential: after run(), every residual arc's reduced cost is non-negative (dual
    // feasible), also when it stopped early.
    Amount potential(int node) const { return potential_[node] + potentialShift_; }

private:
    struct AddedArc {  // as addArc() was given it
        int from, to;
        Amount capacity, cost;
    };
    // An arc of the residual network, in its tail's row; `reverse`: the position of its reverse.
    struct Arc {
        int to;
        int reverse;
        Amount residual;
        Amount cost;
    };
    void buildRows();
    void initialPotentials(int source);
    struct PairEntries;
    struct WordEntries;
    template <typename Entries>
    struct HeapQueue;
    bool shortestDistances(int source, int sink);
    template <typename Queue>
    std::optional<bool> dijkstra(int source, int sink, Queue& queue);
    Amount blockingFlow(int v, int sink, Amount pushed);

    int n_;
    std::vector<AddedArc> added_;
    // Each node's arcs as a row of one array (built by run()), in the order they were added,
    // forward arcs and the reverses of the arcs entering it: a scan of a row reads consecutive
    // arcs, where an array of arc indices per row made every arc an indirection (the scans of
    // Dijkstra and the blocking flow are most of the bound's time).
    std::vector<Arc> arcs_;
    std::vector<int> rowStart_;   // node v's row: arcs_[rowStart_[v] .. rowStart_[v + 1])
    std::vector<int> reverseOf_;  // per added arc: its reverse's position, whose residual is its flow
    // Dijkstra's queue of (distance, node), kept between phases: buckets while the distances
    // fit them (useBuckets_), else a heap of words, else of pairs.
    BucketQueue buckets_;
    bool useBuckets_ = false;
    MinHeap<std::uint64_t> wordHeap_;
    MinHeap<std::pair<Amount, int>> pairHeap_;
    // A phase touches only the nodes its Dijkstra reaches and its blocking flow visits, not all
    // n_ (a phase may reach a handful of the time line's 10^6 points): the potentials of the rest
    // all rise by the same amount, kept once in potentialShift_; distances are reset through
    // reached_, and a node's state and current arc are stamped by phase (stamp_).
    std::vector<Amount> potential_, dist_;  // dist_: kInfinity outside reached_
    Amount potentialShift_ = 0;             // added to every potential_
    std::vector<int> reached_;              // nodes given a distance by the last Dijkstra
    std::vector<int> current_;              // Dinic's current-arc pointers (positions in arcs_)
    // A node's state in the blocking flow, stamped by phase so that no phase clears them: below
    // phaseBase_ (not visited this phase: open, its current arc not yet set) or phaseBase_ plus
    // its state. One load and one comparison tell whether an arc may enter a node.
    enum : std::int64_t { kOpen, kOnPath, kDead, kStates };
    std::vector<std::int64_t> stamp_;
    std::int64_t phaseBase_ = 0;
    std::vector<int> path_;  // the blocking flow's path (positions in arcs_, from the source)
    Amount cost_ = 0;
    std::int64_t work_ = 0;
    bool finished_ = true;
    Amount unsent_ = 0, nextPathCost_ = 0;  // when stopped early
};

}  // namespace spillway
