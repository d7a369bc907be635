// The independent verifier. It replays a plan against the graph and capacities and names every
// violation; given what a result claims (metrics, timing), it recomputes those and compares.
// It shares no code with the planners, the schedulers or the timing model: the build proves it
// (CMake target spillway_verifier links only the graph model, spillway_model).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bounds.h"
#include "cost.h"
#include "plan.h"

namespace spillway {

enum class ViolationKind {
    Order,        // plan.order: not the graph's and added nodes once each, an edge broken, or not
                  // the claimed input order with the spill nodes inserted
    SpillIds,     // spill numbering, addedNodes, outStep/inStep
    SpillPair,    // a spill's buffer, its SPILL_OUT / SPILL_IN replay
    SpillCycles,  // a spill node's Cycles differ from the cost model's
    Edges,        // addedEdges differ from the rule's set (docs/result-format.md)
    Allocation,
    Residency,
    Bounds,
    Overlap,
    Metrics,     // a claimed metric differs from the one recomputed, or a claimed lower bound
                 // contradicts the plan or differs from the one recomputed
    Timing,      // a claimed start, end or wait differs from the one recomputed
    Capacities,  // the claimed capacities are not the ones the plan is checked against
};

// "order", "spill-ids", "spill-pair", "spill-cycles", "edges", "allocation", "residency",
// "bounds", "overlap", "metrics", "timing", "capacities".
const char* violationKindName(ViolationKind kind);

struct Violation {
    ViolationKind kind = ViolationKind::Order;
    std::string message;               // one line naming node / buffer / step
    std::optional<std::int64_t> node;  // the node concerned (graph or spill node id)
    std::optional<std::int64_t> buffer;
    std::optional<std::int64_t> step;   // position in plan.order
    std::optional<std::int64_t> spill;  // index in plan.spills
    std::string field;                  // the claim concerned: "metrics.extraBytes", "timing[12]", ...
};

// What a result says beyond the plan itself (docs/result-format.md).
struct ResultClaims {
    struct NodeTime {
        std::int64_t id = 0, start = 0, end = 0;
    };
    // What a node waited for (docs/timing.md): "none", "edge", "pipe" or "address", the node
    // whose end its start is, the buffer that left the bytes (address), the cycles that cost it,
    // and the pipe it runs on ("" for ALLOC/FREE).
    struct NodeWait {
        std::string cause = "none";
        std::int64_t node = -1, buffer = -1, cycles = 0;
        std::string pipe;
    };
    struct ForeignEdge {  // an added edge whose ids are no node ids at all (above 2^31 - 1)
        std::size_t index = 0;
        std::int64_t from = 0, to = 0;
    };
    // Each step's claimed time and wait, read where they are held (a Result's own timing:
    // claimsInPlace) instead of copied into `timing` and `waits` (112 bytes a step).
    class Steps {
    public:
        virtual ~Steps() = default;
        virtual std::size_t size() const = 0;
        virtual NodeTime time(std::size_t step) const = 0;
        virtual NodeWait wait(std::size_t step) const = 0;
    };
    std::vector<NodeId> inputOrder;
    std::int64_t spills = 0;
    Bytes extraBytes = 0;
    std::map<std::string, Bytes> demandPeakByType;
    Bytes demandPeakTotal = 0;
    std::map<std::string, Bytes> residentPeak;
    Cycles totalCycles = 0;
    std::vector<NodeTime> timing;                // per entry of plan.order
    std::optional<std::vector<NodeWait>> waits;  // per entry of plan.order; absent in older results
    std::shared_ptr<const Steps> steps;          // when set, the timing and waits claimed (the two above unused)
    std::vector<ForeignEdge> foreignEdges;
    // Absent: not claimed, not checked (cyclesBound is absent from results written before it).
    std::optional<Capacities> capacities;     // "capacities": what the plan was made for
    std::optional<TrafficBound> bound;        // "metrics.bound"
    std::optional<CyclesBounds> cyclesBound;  // "metrics.cyclesBound"
};

// The lower bounds of a sound plan and its input order, recomputed by the caller (engine.h,
// verifyResultRecomputing) for verifyResult to compare the claimed ones with: the verifier
// computes no bound itself, it checks only that the claimed ones are consistent with the plan.
using BoundsRecomputation = std::function<LowerBounds()>;

// The plan alone: order, spills, edges, allocations, residency, bounds, overlap, and the spill
// nodes' cycles under `cost`.
std::vector<Violation> verifyPlan(const Graph& g, const Capacities& caps, const Plan& plan, const CostModel& cost = {});

// The plan and every claim of a result: also the input order, the metrics and the timing,
// recomputed here (the timing only when the plan itself is sound). The claimed lower bounds are
// checked against the plan's own figures and, given `recompute`, which is called only on a sound
// plan whose claimed input order is its own, against the bounds it returns.
std::vector<Violation> verifyResult(const Graph& g, const Capacities& caps, const CostModel& cost, const Plan& plan,
                                    const ResultClaims& claims, const BoundsRecomputation& recompute = {});

}  // namespace spillway
