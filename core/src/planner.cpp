#include "spillway/planner.h"

#include "policies.h"
#include "spillway/error.h"

namespace spillway {
namespace {

struct Policy {
    const char* name;
    Plan (*plan)(const Graph&, const Order&, const PlanOptions&);
};

const Policy kPolicies[] = {
    {"seed", planSeed},
};

}  // namespace

std::vector<std::string> policyNames() {
    std::vector<std::string> names;
    for (const Policy& p : kPolicies) names.push_back(p.name);
    return names;
}

Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts) {
    for (const Policy& p : kPolicies)
        if (opts.policy == p.name) return p.plan(g, order, opts);
    std::string known;
    for (const Policy& p : kPolicies) known += (known.empty() ? "" : ", ") + std::string(p.name);
    throw InputError("unknown policy \"" + opts.policy + "\": expected one of " + known);
}

}  // namespace spillway
