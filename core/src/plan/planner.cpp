#include "spillway/planner.h"

#include <optional>

#include "policies.h"
#include "spillway/error.h"
#include "spillway/scale.h"

namespace spillway {
namespace {

using PlanFunction = Plan (*)(const Graph&, const Order&, const PlanOptions&);

struct PolicyEntry {
    Policy policy;
    const char* name;
    const char* title;
    const char* description;
    PlanFunction plan;
    // For policies that fall back on seed's plan: the plan without the fallback (policy best).
    std::optional<Plan> (*packed)(const Graph&, const Order&, const PlanOptions&) = nullptr;
    bool forceable = false;  // takes PlanOptions::force and PlanOptions::reserve
    bool textbook = false;   // a textbook rule, for teaching: policy best does not run it
};

Plan planBest(const Graph& g, const Order& order, const PlanOptions& opts);

const PolicyEntry kPolicies[] = {
    {Policy::Best, "best", "The least data moved of all",
     "Runs every other policy but the textbook ones (belady, lru, fifo) on the same order and keeps the plan that "
     "moves the least data (then "
     "the fewest spills; then the earlier policy in this list). On a huge graph: lifetime alone.",
     planBest},
    {Policy::Lifetime, "lifetime", "Furthest next use, then offline packing",
     "Knows the whole order: writes out the buffers whose next use is furthest when a node needs "
     "room, then packs every resident stretch offline; falls back to seed when packing fails.",
     planLifetime, planLifetimePacked, true},
    {Policy::Residency, "residency", "Optimal residency, then offline packing",
     "The residency that moves the least data for the order (exact on small problems, else greedy "
     "choices improved by swaps), packed like lifetime.",
     planResidency, planResidencyPacked, true},
    {Policy::Seed, "seed", "The seed's online best-fit allocator, fixed",
     "Walks the order once, places each buffer by best fit and spills the live buffer with the "
     "highest size x distance-to-next-use / cost when no hole is large enough.",
     planSeed},
    {Policy::Window, "window", "Online, aware of fragmentation",
     "Online like seed; when no hole is large enough, writes out the contiguous stretch of memory "
     "whose buffers cost least for their next use.",
     planWindow},
    {Policy::Belady, "belady", "Belady: the furthest next use",
     "The textbook rule: when a value needs room, write out the one whose next use is furthest away, "
     "clean or dirty alike. Optimal for values of one size that are all clean; not otherwise.",
     planBelady, nullptr, true, true},
    {Policy::Lru, "lru", "LRU: the least recently used",
     "The textbook rule: when a value needs room, write out the one least recently loaded, used or "
     "reloaded.",
     planLru, nullptr, true, true},
    {Policy::Fifo, "fifo", "FIFO: the first placed",
     "The textbook rule: when a value needs room, write out the one placed (loaded or reloaded) "
     "earliest.",
     planFifo, nullptr, true, true},
};

const PolicyEntry* findPolicy(const std::string& name) {
    for (const PolicyEntry& p : kPolicies)
        if (name == p.name) return &p;
    return nullptr;
}

const PolicyEntry& entryOf(Policy policy) {
    for (const PolicyEntry& p : kPolicies)
        if (p.policy == policy) return p;
    throw InternalError("a policy without a registry entry");
}

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
    auto planOf = [&](const PolicyEntry& p) -> Plan {
        if (p.policy == Policy::Seed) return seedPlan();
        if (!p.packed) return p.plan(g, order, opts);
        std::optional<Plan> packed = p.packed(g, order, opts);
        return packed ? std::move(*packed) : seedPlan();
    };
    std::optional<Plan> best;
    Bytes bestBytes = 0;
    for (const PolicyEntry& p : kPolicies) {
        if (p.policy == Policy::Best || p.textbook) continue;
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

std::vector<PolicyInfo> policyList() {
    std::vector<PolicyInfo> list;
    for (const PolicyEntry& p : kPolicies)
        list.push_back({p.policy, p.name, p.title, p.description, p.forceable, p.textbook});
    return list;
}

std::vector<std::string> policyNames() {
    std::vector<std::string> names;
    for (const PolicyEntry& p : kPolicies) names.push_back(p.name);
    return names;
}

std::string policyNameList() {
    std::string known;
    for (const PolicyEntry& p : kPolicies) known += (known.empty() ? "" : ", ") + std::string(p.name);
    return known;
}

const char* policyName(Policy policy) { return entryOf(policy).name; }

Policy parsePolicy(const std::string& name) {
    if (const PolicyEntry* p = findPolicy(name)) return p->policy;
    ErrorPlace where;
    where.field = "policy";
    throw InputError("unknown policy \"" + excerpt(name) + "\": expected one of " + policyNameList(), std::move(where));
}

std::string forceablePolicyNames() {
    std::string known;
    for (const PolicyEntry& p : kPolicies)
        if (p.forceable) known += (known.empty() ? "" : ", ") + std::string(p.name);
    return known;
}

namespace {
// InputError (field `field`) unless `policy` takes PlanOptions::force and ::reserve; `what` names
// what it was given.
void requireBudgeted(const std::string& policy, const char* field, const char* what) {
    const PolicyEntry& p = entryOf(parsePolicy(policy));
    if (p.forceable) return;
    ErrorPlace where;
    where.field = field;
    throw InputError(
        "policy " + std::string(p.name) + " cannot take " + what + ": choose one of " + forceablePolicyNames(),
        std::move(where));
}
}  // namespace

void requireForceable(const std::string& policy) { requireBudgeted(policy, "force", "a forced spill"); }

Plan planSpills(const Graph& g, const Order& order, const PlanOptions& opts) {
    const PolicyEntry& p = entryOf(parsePolicy(opts.policy));
    if (opts.force) requireForceable(opts.policy);
    if (opts.reserve) requireBudgeted(opts.policy, "reserve", "room kept free");
    Plan plan = p.plan(g, order, opts);
    if (plan.policy.empty()) plan.policy = p.name;
    return plan;
}

}  // namespace spillway
