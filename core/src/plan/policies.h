// Internal to the planners: one entry point per policy, dispatched by planner.cpp.
#pragma once
#include <memory>
#include <optional>

#include "spillway/planner.h"

namespace spillway {

class PlanBuilder;

// Policy "seed": the seed's online best-fit allocator, fixed (online_planner.cpp).
Plan planSeed(const Graph& g, const Order& order, const PlanOptions& opts);
Plan planWindow(const Graph& g, const Order& order, const PlanOptions& opts);
// Policy "seed" recording into `builder`, which nothing has been recorded into yet: lifetime's and
// residency's own when they fall back (building one again costs a tenth of a seed plan on a
// huge graph).
Plan planSeed(PlanBuilder&& builder, const Graph& g, const PlanOptions& opts);

// Policy "lifetime": residency by furthest next use, then offline packing (lifetime_planner.cpp).
Plan planLifetime(const Graph& g, const Order& order, const PlanOptions& opts);

// Policy "lifetime" in two halves: the data its plan moves is known once the residency and the
// packing are chosen, before the plan is recorded, so that the default on huge graphs records the
// plan of the winning candidate order only (docs/policies.md, "The default on huge graphs"). The
// plan is planLifetime's, byte for byte.
class LifetimeDraft {
public:
    LifetimeDraft(const Graph& g, Order order, const PlanOptions& opts);
    LifetimeDraft(LifetimeDraft&&) noexcept;
    LifetimeDraft& operator=(LifetimeDraft&&) noexcept;
    ~LifetimeDraft();

    Bytes extraBytes() const;  // the data the plan moves
    Plan plan();               // the plan, once
    Order releaseOrder();      // the order, after plan()

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Policy "residency": the optimal residency for the order (spillway/residency.h), then the same
// offline packing (lifetime_planner.cpp).
Plan planResidency(const Graph& g, const Order& order, const PlanOptions& opts);

// Policies "belady", "lru" and "fifo": the textbook rules for the victim (planner.cpp's
// registry says which), then lifetime's offline packing (lifetime_planner.cpp).
Plan planBelady(const Graph& g, const Order& order, const PlanOptions& opts);
Plan planLru(const Graph& g, const Order& order, const PlanOptions& opts);
Plan planFifo(const Graph& g, const Order& order, const PlanOptions& opts);

// Lifetime and residency without their fall back on seed: nothing when packing failed. Policy
// "best" runs these and makes seed's plan once, instead of once per policy that falls back.
std::optional<Plan> planLifetimePacked(const Graph& g, const Order& order, const PlanOptions& opts);
std::optional<Plan> planResidencyPacked(const Graph& g, const Order& order, const PlanOptions& opts);

}  // namespace spillway
