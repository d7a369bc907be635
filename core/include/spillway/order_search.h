// The order search (order sources "search" and "min-peak"): finds an order of the graph that
// moves less data under the capacities, or that has a lower peak of resident bytes.
//
// It orders *units* (an accumulator chain with the work feeding it, e.g. one output tile of a
// tiled matmul with its MOVEs), a few to a *slot* when their accumulators fit their memory
// together (run interleaved beat by beat), and turns any sequence of slots into a valid order by
// pulling each operation's unrun inputs in just before it (docs/policies.md). First orders come
// from constructions: the hint's sequence, the schedule and reuse orders, block sweeps of a grid
// of units that share input lines (the rows and columns of a matmul), and a greedy that runs next
// the unit whose inputs are most resident. A local search over slots then improves the best one
// (move a slot or a run of slots, swap two, reverse a run, pair or unpair units, swap units
// between slots), each candidate scored by the real objective: the data the residency step moves
// for that order (exact where a memory's buffers share one size and cost), or the peak.
//
// Deterministic: its own pseudo-random numbers, integer scores, and a budget counted in
// evaluations (`effort`), never in time, so that the same input and effort give the same order
// natively and in WebAssembly. The local search stops early once a quarter of the effort has
// passed without a better order. A larger effort replays the smaller one's evaluations first
// and waits longer, so its result is never worse: callers can run increasing efforts and keep
// each result (anytime).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "memo.h"
#include "schedule.h"

namespace spillway {

// An order's score as the search remembers it (SearchMemo).
struct ScoredOrder {
    Bytes primary = 0, secondary = 0;
    std::int64_t work = 0;  // what scoring it counted
};
// Scores of orders remembered by the search: its moves often build an order it scored already,
// and technique search of the cycles objective runs the search again with more effort, meeting
// many of the first run's orders again. A score comes back with the work its scoring counted, so
// a search takes the same path with a memo or without; the capacities and objective are part of
// a score's key.
class SearchMemo : public FingerprintMemo<ScoredOrder> {
public:
    SearchMemo() : FingerprintMemo(kEntries) {}

private:
    static constexpr std::size_t kEntries = std::size_t{1} << 16;
};

struct SearchProgress {
    std::int64_t evaluations = 0;  // candidates scored so far
    std::int64_t budget = 0;       // evaluations allowed
    Bytes best = 0;                // best score so far (data moved, or peak of all memories)
    // Under the cycles objective a run reports in stages (engine.cpp, cyclesStages()): its order
    // searches, then the making of plans that finish sooner. `stage` counts from 1 to `stages`
    // (0 of 0: a lone search); a stage a run skips is passed over. In the last stage
    // `evaluations` counts the starts improved, `budget` is 0 (not known ahead) and `best` is the
    // fewest cycles so far.
    int stage = 0, stages = 0;
    const char* stageName = "";
};

struct SearchOptions {
    enum class Objective { Traffic, Peak };
    Objective objective = Objective::Traffic;
    Capacities capacities;
    // Evaluations of the local search; -1: the default, 100 per unit to order within a work
    // budget of about 8 million node visits (50 to 5000).
    std::int64_t effort = -1;
    // Called every kProgressEvery evaluations and at the end; returning false stops the search,
    // which then returns the best order found so far.
    std::function<bool(const SearchProgress&)> progress;
    // Orders the caller already made (name, order), scored as constructions; when empty the
    // search makes the schedule and reuse orders itself.
    std::vector<std::pair<std::string, Order>> known;
    // How many of the orders that were best before the one returned to keep (most recent first).
    int runnersUp = 0;
    // Scores are taken from and added to this memo when set (the same search, in less time when
    // an earlier search of the graph scored the same orders), else to the search's own.
    SearchMemo* memo = nullptr;
    // Orders built with their units staggered (OrderBuilder: each unit's first beats beside the
    // last beats of the one before, where their accumulators fit together) instead of run
    // together in slots: technique stagger of the cycles objective.
    bool staggered = false;
};

inline constexpr std::int64_t kProgressEvery = 64;

struct SearchResult {
    Order order;
    Bytes score = 0;               // data moved by the residency step (or the peak of all memories)
    std::int64_t evaluations = 0;  // including the constructions
    std::int64_t effort = 0;       // the budget used
    std::string start;             // the construction the best order came from
    // The orders that were the best before it (their construction, the order), most recent first:
    // SearchOptions::runnersUp of them at most.
    std::vector<std::pair<std::string, Order>> runnersUp;
};

SearchResult searchOrder(const Graph& g, const Order& hint, const SearchOptions& opts);

// `order` with each of its units (in the order of their first operation) overlapping the one
// before it by half: its first beats run beside that one's last, where their accumulators fit
// their memory together, so that one unit's inputs load while the other computes. Technique
// stagger of the cycles objective plans it as a start.
Order staggeredOrder(const Graph& g, const Order& order, const Capacities& caps);

// The staggered orders of one graph (staggeredOrder) by their sequence of units: the sequence
// an order runs its units in, and the staggered order of any sequence, so that a search can
// change the sequence (technique sequence of the cycles objective). Its units are found once.
class StaggeredOrders {
public:
    StaggeredOrders(const Graph& g, const Capacities& caps);
    ~StaggeredOrders();
    StaggeredOrders(const StaggeredOrders&) = delete;
    StaggeredOrders& operator=(const StaggeredOrders&) = delete;
    // The units by their first spine operation in `order` (an accumulator's first k-step), since
    // an order that ran its loads early may start a unit's other operations well before.
    std::vector<int> sequenceOf(const Order& order) const;
    // Each unit of `sequence` (a permutation of sequenceOf's) overlapping the one before by half;
    // `holdFrees`: each beat's buffers freed after the beat (OrderBuilder::buildStaggered).
    Order build(const std::vector<int>& sequence, bool holdFrees) const;

private:
    struct Parts;
    const Graph& g_;
    std::unique_ptr<Parts> parts_;
};

}  // namespace spillway
