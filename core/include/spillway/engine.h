// The engine facade used by the CLI and the WebAssembly bindings: resolve options, validate,
// plan, verify, time and measure. Nothing here decides anything the modules below don't.
#pragma once
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cycles.h"
#include "cycles_bound.h"
#include "limits.h"
#include "order_sources.h"
#include "planner.h"
#include "residency.h"
#include "run.h"
#include "timing.h"
#include "verifier.h"

namespace spillway {

// The capacities a run uses (the options', else the document's, else the defaults), validated
// against the graph (InputError otherwise, located in the document when it is about the graph).
Capacities capacitiesFor(const GraphDocument& doc, const RunOptions& opts);

// The capacities and input order a run uses, validated (InputError otherwise).
struct Problem {
    Capacities capacities;
    std::string orderSource;  // what was used: a source's name, or "given"
    Order order;
    std::optional<SearchSummary> search;
    std::optional<Plan> plan;  // order source "best" planned each candidate: the winner's plan
    // The other candidates' orders and plans, kept only for the cycles objective (technique orders).
    std::vector<OrderStart> others;
    // Technique headroom was skipped because its orders must move more data than the margin allows.
    bool marginLimited = false;
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

// Every policy (under objective cycles, every one but the textbook rules) on every compared
// order source ("graph" when the document has an Order, then comparedOrderSources()), each order
// made once; the other options (capacities, cost, effort) from `opts`.
std::vector<ComparisonRow> compare(const GraphDocument& doc, const RunOptions& opts);

// The data margins (percent beyond the bytes plan's data) at which frontier() runs the cycles
// objective: from none to plans that may move almost twice the data, then the largest margin the
// objective takes, so that the front ends at the fastest plan it finds whatever the data.
inline constexpr int kFrontierMargins[] = {0, 5, 10, 20, 40, 80, static_cast<int>(limits::kMaxMarginPercent)};
// The trade-off front between data moved and cycles (`spillway frontier`): the bytes plan, then
// the cycles objective at each of kFrontierMargins, every plan verified (run()); of those, the
// points no other beats on both counts, by data moved (ties: the first made). Cycles fall as data
// grows along it. The other options (order source, policy, capacities, cost, effort, techniques
// disabled) from `opts`; the runs share what they find, as compare's rows do. A margin that allows
// the data of the margin before it, and every margin after a run its margin did not limit
// (ObjectiveReport::marginLimited), is not run: it would make a plan made already.
// `progress`, when given, is told the front of the runs made so far after each run, with how many
// runs the front takes as far as known (kFrontierRuns at first, then fewer as margins are found
// to be left out; at the last run, the runs made). It observes.
inline constexpr int kFrontierRuns = 1 + static_cast<int>(std::size(kFrontierMargins));
using FrontierProgress = std::function<void(const std::vector<FrontierPoint>& front, int runsMade, int runs)>;
std::vector<FrontierPoint> frontier(const GraphDocument& doc, const RunOptions& opts,
                                    const FrontierProgress& progress = {});

// Metrics of a verified plan, its lower bounds included. Throws InternalError when the plan moves
// less data than the bound for its order allows, or finishes sooner than a cycles bound (a bug in
// one of them).
Metrics measure(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                const Plan& plan, const Timing& timing);

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
