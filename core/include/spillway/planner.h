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

// The policies (`--policy`, the bindings' "policy" option): one registry from which the CLI's
// help and option parsing, the bindings' policies() and compare's rows derive.
enum class Policy { Best, Lifetime, Residency, Seed, Window };

struct PolicyInfo {
    Policy policy;
    std::string name;         // what --policy and the options take
    std::string title;        // a one-line summary
    std::string description;  // what it does, in a sentence or three
};

// Registry order; the first ("best") is the default.
std::vector<PolicyInfo> policyList();
// The names of policyList(), in its order.
std::vector<std::string> policyNames();
// "best, lifetime, ..." for messages and help.
std::string policyNameList();
const char* policyName(Policy policy);
// The policy named `name`; InputError (field "policy") naming the policies otherwise.
Policy parsePolicy(const std::string& name);

// Plans `order` (already validated) under `opts`. Throws InputError for an unknown policy.
Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts);

}  // namespace spillway
