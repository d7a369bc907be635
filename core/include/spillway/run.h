// What a run takes and gives, as data: the options of the engine's run() and compare() (engine.h)
// and their results. The readers and writers (json_io.h) read and write these without the engine.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bounds.h"
#include "cost.h"
#include "cycles.h"
#include "order_search.h"
#include "plan.h"
#include "planner.h"
#include "schedule.h"
#include "timing.h"

namespace spillway {

struct Result;

struct RunOptions {
    std::optional<Capacities> capacities;  // overrides the document's, which override defaults
    // A name from orderSourceList() ("graph": the document's Order, else "best"), or "given"
    // (use `order`).
    std::string orderSource = "graph";
    std::optional<Order> order;
    std::string orderFrom = "options";  // the text `order` came from, for errors: "options", "order"
    std::string policy = "best";
    CostModel cost;
    // The order search's budget in evaluations (-1: defaultEffort) and its progress report,
    // which may stop it early (it then keeps the best order found so far).
    std::int64_t effort = -1;
    std::function<bool(const SearchProgress&)> progress;
    // bytes: the plan moving the least data (the default); cycles: that plan made to finish
    // sooner (cycles.h), its techniques switchable.
    Objective objective = Objective::Bytes;
    CyclesOptions cycles;
    // What if: the plan of the run's order with this spill forced (planner.h); objective bytes only.
    std::optional<ForcedSpill> force;
    // Under the cycles objective, offered the best plan so far as the run goes (the bytes plan,
    // after the first order search; then, after each start, the best while it is better than the
    // last one made): calling `make` gives it as run() would return it, verified, timed and
    // measured. It observes: the run and its result are the same whether or not plans are made.
    // Not on a huge graph (scale.h): a second result beside the run's would double its memory.
    std::function<void(const std::function<Result()>& make)> offerBestSoFar;
};

// What the order search did, when it made the order.
struct SearchSummary {
    std::int64_t evaluations = 0;
    std::int64_t effort = 0;
    std::string start;  // the construction the order came from
};

struct Metrics {
    int spills = 0;
    Bytes extraBytes = 0;                        // the seed's spill_extra_bytes
    ResidencyPeaks demandPeaks;                  // of the input order, ignoring capacities (sub-problem 1)
    std::map<std::string, Bytes> residentPeaks;  // of the plan: never above capacity
    Cycles totalCycles = 0;
    TrafficBound bound;  // no plan for this order moves less (the residency relaxation)
    // No plan finishes sooner (cycles_bound.h): any re-scheduling and re-placement of this plan's
    // spills; any plan of this input order (moving at least `bound`); any plan of the graph.
    CyclesBounds cyclesBound;
};

// Under the cycles objective: the bytes objective's plan it started from, and what each
// technique gained.
struct ObjectiveReport {
    std::vector<std::string> disabled;  // techniques switched off
    int marginPercent = 0;              // the data it could move beyond the bytes plan's
    Bytes bytesPlanExtraBytes = 0;
    Cycles bytesPlanCycles = 0;
    std::vector<std::string> steps;
    // Whether the margin refused a plan or a technique: without that, any larger margin gives the
    // same plan (frontier() runs no larger margins then).
    bool marginLimited = false;
};

struct Result {
    Capacities capacities;
    std::string orderSource;  // what was used: a source's name, or "given"
    Order inputOrder;
    std::optional<SearchSummary> search;
    std::string policy;
    CostModel cost;
    Plan plan;
    Metrics metrics;
    Timing timing;
    Objective objective = Objective::Bytes;
    std::optional<ObjectiveReport> cycles;  // under the cycles objective
};

// One row of `spillway compare`: a policy on an order source, planned and verified.
struct ComparisonRow {
    std::string policy;      // as asked
    std::string planPolicy;  // what made the plan ("best" names its winner)
    std::string orderSource;
    Metrics metrics;                        // of the plan under the asked objective
    std::optional<ObjectiveReport> cycles;  // under the cycles objective: the bytes plan's figures
    double milliseconds = 0;                // wall time of the run: the only field that varies between runs
};

// One plan of the trade-off front between data moved and cycles (engine.h, frontier()):
// the plan made under `objective`, with data margin `marginPercent` under the cycles objective
// (`spillway plan --objective cycles --margin M` makes it again), verified.
struct FrontierPoint {
    Objective objective = Objective::Bytes;
    int marginPercent = 0;
    std::string orderSource;
    std::string planPolicy;
    Metrics metrics;
};

}  // namespace spillway
