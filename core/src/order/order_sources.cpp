#include "spillway/order_sources.h"

#include "ready_set.h"
#include "spillway/error.h"

namespace spillway {
namespace {

enum Role : unsigned {
    kMeta = 1,       // resolved by the engine (planning, or the document)
    kCandidate = 2,  // planned by "best"
    kCompared = 4,   // a row source of compare()
};

MadeOrder byId(const OrderRequest& r) { return {orderById(r.doc.graph), std::nullopt}; }
MadeOrder bySchedule(const OrderRequest& r) {
    const Graph& g = r.doc.graph;
    return {r.dependencies ? scheduleForMemory(*r.dependencies) : scheduleForMemory(g, orderById(g)), std::nullopt};
}
MadeOrder byReuse(const OrderRequest& r) {
    const Graph& g = r.doc.graph;
    return {r.dependencies ? scheduleForReuse(g, *r.dependencies, r.capacities)
                           : scheduleForReuse(g, orderById(g), r.capacities),
            std::nullopt};
}
MadeOrder bySearch(const OrderRequest& r, SearchOptions::Objective objective) {
    SearchOptions o;
    o.objective = objective;
    o.capacities = r.capacities;
    o.effort = r.effort;
    o.progress = r.progress;
    o.known = r.known;
    o.runnersUp = r.runnersUp;
    o.memo = r.searchMemo;
    o.staggered = r.staggered;
    SearchResult s = searchOrder(r.doc.graph, orderById(r.doc.graph), o);
    Order order = s.order;
    return {std::move(order), std::move(s)};
}
MadeOrder byTrafficSearch(const OrderRequest& r) { return bySearch(r, SearchOptions::Objective::Traffic); }
MadeOrder byPeakSearch(const OrderRequest& r) { return bySearch(r, SearchOptions::Objective::Peak); }

struct Source {
    const char* name;
    const char* title;
    const char* description;
    unsigned roles;
    MadeOrder (*make)(const OrderRequest&);
};

const Source kSources[] = {
    {"graph", "The graph's Order", "The graph's own \"Order\"; a graph without one gets best.", kMeta, nullptr},
    {"best", "Best of schedule, reuse and search",
     "Plans with schedule, reuse and search and keeps the order whose plan moves the least data "
     "(ties: the first); above 100,000 nodes with schedule and reuse only.",
     kMeta, nullptr},
    {"schedule", "Schedule (id order, short lifetimes)",
     "Ascending id, except that each FREE runs as soon as its buffer's last user has run and each "
     "ALLOC just before its buffer's first user.",
     kCandidate | kCompared, bySchedule},
    {"reuse", "Reuse (keeps hot buffers in use)",
     "A list scheduler that runs next the work whose buffers are resident, by the traffic a "
     "simulated cache per memory says it would cause.",
     kCandidate | kCompared, byReuse},
    {"search", "Order search",
     "Searches orders of units (an accumulator chain with the work feeding it): constructions "
     "(block sweeps of a grid of units sharing inputs, a greedy on resident inputs, the other "
     "orders), then a local search over units, each candidate scored by the data its optimal "
     "residency moves. Deterministic; --effort sets its budget in evaluations.",
     kCandidate | kCompared, byTrafficSearch},
    {"min-peak", "Lowest peak",
     "The same search with the peak of resident bytes (all memories, then each memory's own peak) "
     "as objective, capacities ignored: sub-problem 1 of the contest.",
     kCompared, byPeakSearch},
    {"id", "Ascending id",
     "Ascending node id. In the contest's files every FREE comes last: the worst order for memory.", kCompared, byId},
};

const Source* find(const std::string& name) {
    for (const Source& s : kSources)
        if (name == s.name) return &s;
    return nullptr;
}

std::vector<std::string> namesWith(unsigned role) {
    std::vector<std::string> out;
    for (const Source& s : kSources)
        if (s.roles & role) out.push_back(s.name);
    return out;
}

}  // namespace

std::vector<OrderSourceInfo> orderSourceList() {
    std::vector<OrderSourceInfo> list;
    for (const Source& s : kSources) list.push_back({s.name, s.title, s.description});
    return list;
}

bool isOrderSource(const std::string& name) { return find(name) != nullptr; }

std::string orderSourceNames() {
    std::string out;
    for (const Source& s : kSources) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

MadeOrder makeOrder(const std::string& source, const OrderRequest& request) {
    const Source* s = find(source);
    if (!s) throw InputError("unknown order source \"" + source + "\": expected " + orderSourceNames() + " or a file");
    if (!s->make) throw InternalError("order source \"" + source + "\" is resolved by the engine");
    MadeOrder made = s->make(request);
    validateOrder(request.doc.graph, made.order, "the " + source + " order");
    return made;
}

std::vector<std::string> bestOrderCandidates() { return namesWith(kCandidate); }
std::vector<std::string> comparedOrderSources() { return namesWith(kCompared); }

}  // namespace spillway
