#include "spillway/planner.h"

#include <optional>

#include "policies.h"
#include "spillway/error.h"
#include "spillway/scale.h"

namespace spillway {
namespace {

using PlanFunction = Plan (*)(const Graph&, const Order&, const PlanOptions&);

struct Policy {
    const char* name;
    PlanFunction plan;
    // For policies that fall back on seed's plan: the plan without the fallback (policy best).
    std::optional<Plan> (*packed)(const Graph&, const Order&, const PlanOptions&) = nullptr;
};

Plan planBest(const Graph& g, const Order& order, const PlanOptions& opts);

const Policy kPolicies[] = {
    {"best", planBest},
    {"lifetime", planLifetime, planLifetimePacked},
    {"residency", planResidency, planResidencyPacked},
    {"seed", planSeed},
    {"window", planWindow},
};

Bytes extraBytes(const Graph& g, const Plan& p) {
    Bytes total = 0;
    for (const Spill& s : p.spills) total += spillTrafficBytes(g.buffer(s.buf));
    return total;
}

// Policy "best": every other policy on the same order; the plan moving the least data wins
// (then the fewest spills; then the earlier policy in the list). On huge graphs: lifetime alone.
Plan planBest(const Graph& g, const Order& order, const PlanOptions& opts) {
    if (isHugeGraph(g.nodes.size())) {
        Plan plan = planLifetime(g, order, opts);
        if (plan.policy.empty()) plan.policy = kHugeGraphPolicy;
        return plan;
    }
    std::optional<Plan> seed;  // made once, though lifetime and residency may both fall back on it
    auto seedPlan = [&] {
        if (!seed) {
            seed = planSeed(g, order, opts);
            seed->policy = "seed";
        }
        return *seed;
    };
    auto planOf = [&](const Policy& p) -> Plan {
        if (p.plan == static_cast<PlanFunction>(planSeed)) return seedPlan();
        if (!p.packed) return p.plan(g, order, opts);
        std::optional<Plan> packed = p.packed(g, order, opts);
        return packed ? std::move(*packed) : seedPlan();
    };
    std::optional<Plan> best;
    Bytes bestBytes = 0;
    for (const Policy& p : kPolicies) {
        if (p.plan == planBest) continue;
        Plan plan = planOf(p);
        if (plan.policy.empty()) plan.policy = p.name;
        const Bytes bytes = extraBytes(g, plan);
        if (!best || bytes < bestBytes || (bytes == bestBytes && plan.spills.size() < best->spills.size())) {
            best = std::move(plan);
            bestBytes = bytes;
        }
    }
    return std::move(*best);
}

}  // namespace

std::vector<std::string> policyNames() {
    std::vector<std::string> names;
    for (const Policy& p : kPolicies) names.push_back(p.name);
    return names;
}

Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts) {
    for (const Policy& p : kPolicies)
        if (opts.policy == p.name) {
            Plan plan = p.plan(g, order, opts);
            if (plan.policy.empty()) plan.policy = p.name;
            return plan;
        }
    std::string known;
    for (const Policy& p : kPolicies) known += (known.empty() ? "" : ", ") + std::string(p.name);
    ErrorPlace where;
    where.field = "policy";
    throw InputError("unknown policy \"" + excerpt(opts.policy) + "\": expected one of " + known, std::move(where));
}

}  // namespace spillway
