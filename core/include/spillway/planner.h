// The planner: walks an order, places every buffer in its memory and inserts SPILL_OUT /
// SPILL_IN pairs where a memory is full. Policies differ in whom they spill and where they
// place; all of them produce a Plan that the verifier must accept.
#pragma once
#include <string>
#include <vector>

#include "cost.h"
#include "plan.h"
#include "schedule.h"

namespace spillway {

struct PlanOptions {
    Capacities capacities;
    CostModel cost;
    std::string policy = "best";
};

// Policy "best" runs every other policy, on a huge graph (scale.h) only this one (docs/policies.md,
// "The default on huge graphs": one plan instead of four, and `residency`'s relaxation grows
// faster than n log n at that size).
inline constexpr const char* kHugeGraphPolicy = "lifetime";

// The policies this build knows, default first.
std::vector<std::string> policyNames();

// Plans `order` (already validated) under `opts`. Throws InputError for an unknown policy.
Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts);

}  // namespace spillway
