// The planner: walks an order, places every buffer in its memory and inserts SPILL_OUT /
// SPILL_IN pairs where a memory is full. Policies differ in whom they spill and where they
// place; all of them produce a Plan that the verifier must accept.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost.h"
#include "plan.h"
#include "schedule.h"

namespace spillway {

class ResidencyMemo;  // residency.h

// What if: one spill chosen by the user. The buffer is written out just before step `step` of
// the input order (it must be resident there and not used by that step's node) and comes back
// before its next use; the policy plans everything else around it.
struct ForcedSpill {
    int step = 0;
    BufferId buffer = 0;
};

// Room kept free in one memory over steps [from, to) of the input order: the policy plans that
// memory as if it were `room` bytes smaller there (never below what a step's own node uses; a
// room of 0 or less keeps nothing), so that a load has bytes to arrive in while earlier work runs
// (the cycles objective's technique reserve).
struct RoomReserve {
    std::string type;
    Bytes room = 0;
    int from = 0, to = 0;
};

struct PlanOptions {
    Capacities capacities;
    CostModel cost;
    std::string policy = "best";
    std::optional<ForcedSpill> force;  // policies that can take it: forceablePolicyNames()
    // When set, the policy adds its relaxations' flow work to it (counted operations): a plan's
    // cost is mostly that on some graphs and none on others, so a caller planning many orders
    // budgets them by it, the same way natively and in WebAssembly.
    std::int64_t* relaxationWork = nullptr;
    // When set, policy residency takes its choices through it (residency.h): the same plans and
    // work counts, in less time when a caller plans orders whose problems repeat.
    ResidencyMemo* residencyMemo = nullptr;
    std::optional<RoomReserve> reserve = std::nullopt;  // policies that can take it: forceablePolicyNames()
};

// Policy "best" runs every other policy, on a huge graph (scale.h) only this one (docs/policies.md,
// "The default on huge graphs": one plan instead of four, and `residency`'s relaxation grows
// faster than n log n at that size).
inline constexpr const char* kHugeGraphPolicy = "lifetime";

// The policies (`--policy`, the bindings' "policy" option): one registry from which the CLI's
// help and option parsing, the bindings' policies() and compare's rows derive.
enum class Policy { Best, Lifetime, Residency, Seed, Window, Belady, Lru, Fifo };

struct PolicyInfo {
    Policy policy;
    std::string name;         // what --policy and the options take
    std::string title;        // a one-line summary
    std::string description;  // what it does, in a sentence or three
    bool forceable = false;   // takes PlanOptions::force and PlanOptions::reserve
    bool textbook = false;    // a textbook rule (belady, lru, fifo), for teaching: policy best does not run it
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

// "lifetime, residency, ..." : the policies that take PlanOptions::force and ::reserve.
std::string forceablePolicyNames();
// InputError (field "force") unless `policy` takes PlanOptions::force.
void requireForceable(const std::string& policy);

// Plans `order` (already validated) under `opts`. Throws InputError for an unknown policy, for a
// force the policy cannot take or that names no resident buffer (field "force"), and for a
// reserve the policy cannot take (field "reserve").
Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts);

}  // namespace spillway
