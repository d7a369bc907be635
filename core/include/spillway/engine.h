// The engine facade used by the CLI and the WebAssembly bindings: resolve options, validate,
// plan, verify, time and measure. Nothing here decides anything the modules below don't.
#pragma once
#include <optional>
#include <string>

#include "planner.h"
#include "timing.h"
#include "verifier.h"

namespace spillway {

struct RunOptions {
    std::optional<Capacities> capacities;  // overrides the document's, which override defaults
    // "graph" (the document's Order, else "best"), "id", "schedule" (scheduleForMemory),
    // "reuse" (scheduleForReuse), "best" (plans "schedule" and "reuse" with the policy and keeps
    // the order whose plan moves less data), or "given" (use `order`).
    std::string orderSource = "graph";
    std::optional<Order> order;
    std::string orderFrom = "options";  // the text `order` came from, for errors: "options", "order"
    std::string policy = "best";
    CostModel cost;
};

struct Metrics {
    int spills = 0;
    Bytes extraBytes = 0;          // the seed's spill_extra_bytes
    ResidencyPeaks demandPeaks;    // of the input order, ignoring capacities (sub-problem 1)
    std::map<std::string, Bytes> residentPeaks;  // of the plan: never above capacity
    Cycles totalCycles = 0;
};

struct Result {
    Capacities capacities;
    std::string orderSource;  // what was used: "graph", "id", "schedule", "reuse" or "given"
    Order inputOrder;
    std::string policy;
    CostModel cost;
    Plan plan;
    Metrics metrics;
    Timing timing;
};

// The capacities a run uses (the options', else the document's, else the defaults), validated
// against the graph (InputError otherwise, located in the document when it is about the graph).
Capacities capacitiesFor(const GraphDocument& doc, const RunOptions& opts);

// The capacities and input order a run uses, validated (InputError otherwise).
struct Problem {
    Capacities capacities;
    std::string orderSource;  // what was used: "graph", "id", "schedule", "reuse" or "given"
    Order order;
    std::optional<Plan> plan; // order source "best" planned each candidate: the winner's plan
};
Problem prepare(const GraphDocument& doc, const RunOptions& opts);

// Throws InputError for bad input, InternalError when the plan fails the verifier.
Result run(const GraphDocument& doc, const RunOptions& opts);

// One row of `spillway compare`: a policy on an order source, planned and verified.
struct ComparisonRow {
    std::string policy;      // as asked
    std::string planPolicy;  // what made the plan ("best" names its winner)
    std::string orderSource;
    Metrics metrics;
    double milliseconds = 0; // wall time of the run: the only field that varies between runs
};

// Every policy on every order source ("graph" when the document has an Order, "id",
// "schedule", "reuse"); the other options (capacities, cost) from `opts`.
std::vector<ComparisonRow> compare(const GraphDocument& doc, const RunOptions& opts);

Metrics measure(const Graph& g, const Order& inputOrder, const Plan& plan, const Timing& timing);

// What a result claims about its plan, for verifyResult.
ResultClaims claimsOf(const Result& r);

}  // namespace spillway
