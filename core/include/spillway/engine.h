// The engine facade used by the CLI and the WebAssembly bindings: resolve options, validate,
// plan, verify, time and measure. Nothing here decides anything the modules below don't.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cycles.h"
#include "cycles_bound.h"
#include "order_sources.h"
#include "planner.h"
#include "residency.h"
#include "timing.h"
#include "verifier.h"

namespace spillway {

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
};

// What the order search did, when it made the order.
struct SearchSummary {
    std::int64_t evaluations = 0;
    std::int64_t effort = 0;
    std::string start;  // the construction the order came from
};

struct Metrics {
    int spills = 0;
    Bytes extraBytes = 0;          // the seed's spill_extra_bytes
    ResidencyPeaks demandPeaks;    // of the input order, ignoring capacities (sub-problem 1)
    std::map<std::string, Bytes> residentPeaks;  // of the plan: never above capacity
    Cycles totalCycles = 0;
    TrafficBound bound;            // no plan for this order moves less (the residency relaxation)
    // No plan finishes sooner (cycles_bound.h): any re-scheduling and re-placement of this plan's
    // spills; any plan of this input order (moving at least `bound`); any plan of the graph.
    CyclesBounds cyclesBound;
};

// Under the cycles objective: the bytes objective's plan it started from, and what each
// technique gained.
struct ObjectiveReport {
    std::vector<std::string> disabled;  // techniques switched off
    Bytes bytesPlanExtraBytes = 0;
    Cycles bytesPlanCycles = 0;
    std::vector<std::string> steps;
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

// The capacities a run uses (the options', else the document's, else the defaults), validated
// against the graph (InputError otherwise, located in the document when it is about the graph).
Capacities capacitiesFor(const GraphDocument& doc, const RunOptions& opts);

// The capacities and input order a run uses, validated (InputError otherwise).
struct Problem {
    Capacities capacities;
    std::string orderSource;  // what was used: a source's name, or "given"
    Order order;
    std::optional<SearchSummary> search;
    std::optional<Plan> plan; // order source "best" planned each candidate: the winner's plan
    // The other candidates' orders and plans, kept only for the cycles objective (technique orders).
    std::vector<OrderStart> others;
};
// Order source "best" plans every candidate order (with the run's policy) and keeps the one
// moving the least data; on a huge graph (scale.h) the search is left out of the candidates.
// Under the cycles objective (technique orders), the search's runners-up planned as starts too.
inline constexpr int kSearchRunnersUp = 3;
// Technique search of the cycles objective: the order search run again with this many times the
// effort it had, its order and runners-up planned as starts too.
inline constexpr int kDeeperSearchFactor = 4;
Problem prepare(const GraphDocument& doc, const RunOptions& opts);

// Throws InputError for bad input, InternalError when the plan fails the verifier.
Result run(const GraphDocument& doc, const RunOptions& opts);

// One row of `spillway compare`: a policy on an order source, planned and verified.
struct ComparisonRow {
    std::string policy;      // as asked
    std::string planPolicy;  // what made the plan ("best" names its winner)
    std::string orderSource;
    Metrics metrics;         // of the plan under the asked objective
    std::optional<ObjectiveReport> cycles;  // under the cycles objective: the bytes plan's figures
    double milliseconds = 0; // wall time of the run: the only field that varies between runs
};

// Every policy on every compared order source ("graph" when the document has an Order, then
// comparedOrderSources()), each order made once; the other options (capacities, cost, effort)
// from `opts`.
std::vector<ComparisonRow> compare(const GraphDocument& doc, const RunOptions& opts);

// Metrics of a verified plan, its lower bounds included. Throws InternalError when the plan moves
// less data than the bound for its order allows, or finishes sooner than a cycles bound (a bug in
// one of them).
Metrics measure(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder, const Plan& plan,
                const Timing& timing);

// Every lower bound of a plan and its input order, as measure() states them: the residency
// relaxation's bytes (trafficLowerBound) and the cycles bounds of the plan, the order and the graph.
LowerBounds lowerBounds(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                        const Plan& plan);

// verifyResult with the claimed lower bounds compared with lowerBounds recomputed for the
// claimed input order (what `spillway verify` and the bindings' verify() run on a result file):
// as costly as the engine's bound stage.
std::vector<Violation> verifyResultRecomputing(const Graph& g, const Capacities& caps, const CostModel& cost,
                                               const Plan& plan, const ResultClaims& claims);

// What a result claims about its plan, for verifyResult: a copy, and one that reads the timing
// and waits in `r` itself (r must outlive it; at 10^6 nodes the copy is 154 MB).
ResultClaims claimsOf(const Result& r);
ResultClaims claimsInPlace(const Result& r);

}  // namespace spillway
