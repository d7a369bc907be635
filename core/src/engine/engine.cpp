#include "spillway/engine.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "order/ready_set.h"
#include "plan/draft_choice.h"
#include "plan/policies.h"
#include "spillway/error.h"
#include "spillway/id_table.h"
#include "spillway/residency.h"
#include "spillway/scale.h"
#include "spillway/verifier.h"

namespace spillway {
namespace {

Capacities resolveCapacities(const GraphDocument& doc, const RunOptions& opts) {
    if (opts.capacities) return *opts.capacities;
    if (doc.capacities) return *doc.capacities;
    return defaultCapacities();
}

// Runs `f`, locating in the document any error it throws about the graph.
template <typename F>
auto locatingErrors(const GraphDocument& doc, F&& f) {
    try {
        return f();
    } catch (const InputError& e) {
        throw locateInDocument(doc, e);
    }
}

// Under the cycles objective a run reports its progress in stages, so that a progress bar need
// not start again with each search: the first order search, the longer one (technique search),
// the one with room kept free (technique headroom), then the making of plans that finish sooner.
// A stage a run does not reach (no search for its order source, headroom skipped) is passed over.
struct CyclesStages {
    int search = 0, deeper = 0, headroom = 0, stagger = 0, shorten = 0, count = 0;
};
CyclesStages cyclesStages(const RunOptions& opts) {
    CyclesStages s;
    if (opts.objective != Objective::Cycles) return s;
    s.search = ++s.count;
    if (opts.cycles.enabled(CyclesTechnique::Search)) s.deeper = ++s.count;
    if (opts.cycles.enabled(CyclesTechnique::Headroom)) s.headroom = ++s.count;
    if (opts.cycles.enabled(CyclesTechnique::Stagger)) s.stagger = ++s.count;
    s.shorten = ++s.count;
    return s;
}
using ProgressFn = std::function<bool(const SearchProgress&)>;
// `report`'s reports marked as stage `stage` of the run's (as they are without a stage).
ProgressFn staged(const ProgressFn& report, int stage, int stages, const char* name) {
    if (!report || stage == 0) return report;
    return [report, stage, stages, name](const SearchProgress& p) {
        SearchProgress q = p;
        q.stage = stage;
        q.stages = stages;
        q.stageName = name;
        return report(q);
    };
}

OrderRequest requestFor(const GraphDocument& doc, const RunOptions& opts, const Capacities& caps) {
    const CyclesStages s = cyclesStages(opts);
    return {doc, caps, opts.effort, staged(opts.progress, s.search, s.count, "order search"), {}, 0, nullptr};
}

std::optional<SearchSummary> summaryOf(const std::optional<SearchResult>& s) {
    if (!s) return std::nullopt;
    return SearchSummary{s->evaluations, s->effort, s->start};
}

Bytes extraBytesOf(const Graph& g, const Plan& plan) {
    Bytes bytes = 0;
    for (const Spill& s : plan.spills) bytes += spillTrafficBytes(g.buffer(s.buf));
    return bytes;
}

std::map<std::string, Bytes> residentPeaks(const Graph& g, const Plan& plan) {
    // Memories as small indices and ids by flat tables (id_table.h): a map and two hash lookups
    // a step were cache misses growing faster than n at 10^6 steps.
    std::map<std::string, int> typeIndex;
    for (const Buffer& b : g.buffers) typeIndex.emplace(b.type, 0);
    int types = 0;
    for (auto& [type, index] : typeIndex) index = types++;
    std::vector<int> typeOf;
    std::vector<std::int64_t> ids;
    typeOf.reserve(g.buffers.size());
    for (const Buffer& b : g.buffers) typeOf.push_back(typeIndex.at(b.type)), ids.push_back(b.id);
    const IdTable bufferIndex = IdTable::positions(ids);
    ids.clear();
    for (const Node& n : g.nodes) ids.push_back(n.id);
    for (const Node& n : plan.addedNodes) ids.push_back(n.id);
    const IdTable nodeIndex = IdTable::positions(ids);
    std::vector<Bytes> now(types, 0), peak(types, 0);
    for (NodeId id : plan.order) {
        const int i = nodeIndex.find(id);
        if (i < 0) throw InternalError("resident peaks: unknown node " + std::to_string(id));
        const std::size_t at = static_cast<std::size_t>(i);
        const Node& n = at < g.nodes.size() ? g.nodes[at] : plan.addedNodes[at - g.nodes.size()];
        const bool arrives = n.isAlloc() || n.isSpillIn();
        const bool leaves = n.isFree() || n.isSpillOut();
        if (!arrives && !leaves) continue;
        const int b = bufferIndex.find(n.isBufferNode() ? n.buf : n.bufs.front());
        if (b < 0) throw InternalError("resident peaks: unknown buffer of node " + std::to_string(id));
        const int t = typeOf[b];
        now[t] += arrives ? g.buffers[b].size : -g.buffers[b].size;
        peak[t] = std::max(peak[t], now[t]);
    }
    std::map<std::string, Bytes> byType;
    for (const auto& [type, index] : typeIndex) byType.emplace(type, peak[index]);
    return byType;
}

}  // namespace

LowerBounds lowerBounds(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                        const Plan& plan) {
    LowerBounds b;
    b.bytes = trafficLowerBound(g, inputOrder, caps);
    b.cycles.plan = planCyclesBound(g, plan);
    std::vector<CyclesBound> traffic = trafficCyclesBounds(g, cost, {b.bytes.byType, {}});
    b.cycles.order = std::move(traffic[0]);
    b.cycles.graph = std::move(traffic[1]);
    return b;
}

Metrics measure(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                const Plan& plan, const Timing& timing) {
    Metrics m;
    m.spills = static_cast<int>(plan.spills.size());
    m.extraBytes = extraBytesOf(g, plan);
    m.demandPeaks = peakResidency(g, inputOrder);
    m.residentPeaks = residentPeaks(g, plan);
    m.totalCycles = timing.total;
    LowerBounds bounds = lowerBounds(g, caps, cost, inputOrder, plan);
    m.bound = std::move(bounds.bytes);
    m.cyclesBound = std::move(bounds.cycles);
    if (m.extraBytes < m.bound.total)
        throw InternalError("the plan moves " + std::to_string(m.extraBytes) + " bytes, below the lower bound " +
                            std::to_string(m.bound.total) + " for its order: the planner or the bound is wrong");
    for (const CyclesBound* b : {&m.cyclesBound.plan, &m.cyclesBound.order, &m.cyclesBound.graph})
        if (timing.total < b->total)
            throw InternalError("the plan takes " + std::to_string(timing.total) + " cycles, below the lower bound " +
                                std::to_string(b->total) + " (" + b->limit + "): the timing or the bound is wrong");
    return m;
}

Capacities capacitiesFor(const GraphDocument& doc, const RunOptions& opts) {
    return locatingErrors(doc, [&] {
        Capacities caps = resolveCapacities(doc, opts);
        validateCapacities(doc.graph, caps, opts.capacities || !doc.capacities ? "options" : "graph");
        return caps;
    });
}

namespace {
// A Result's timing as the claimed steps, read in place.
class TimingSteps : public ResultClaims::Steps {
public:
    explicit TimingSteps(const Timing& t) : t_(t) {}
    std::size_t size() const override { return t_.nodes.size(); }
    ResultClaims::NodeTime time(std::size_t step) const override {
        const NodeTiming& t = t_.nodes[step];
        return {t.id, t.start, t.end};
    }
    ResultClaims::NodeWait wait(std::size_t step) const override {
        const NodeTiming& t = t_.nodes[step];
        return {waitCauseName(t.wait.cause), t.wait.node, t.wait.buffer, t.wait.cycles, t.pipe};
    }

private:
    const Timing& t_;
};
}  // namespace

ResultClaims claimsInPlace(const Result& r) {
    ResultClaims c;
    c.inputOrder = r.inputOrder;
    c.spills = r.metrics.spills;
    c.extraBytes = r.metrics.extraBytes;
    c.demandPeakByType = r.metrics.demandPeaks.byType;
    c.demandPeakTotal = r.metrics.demandPeaks.total;
    c.residentPeak = r.metrics.residentPeaks;
    c.totalCycles = r.metrics.totalCycles;
    c.steps = std::make_shared<TimingSteps>(r.timing);
    c.capacities = r.capacities;
    c.bound = r.metrics.bound;
    c.cyclesBound = r.metrics.cyclesBound;
    return c;
}

std::vector<Violation> verifyResultRecomputing(const Graph& g, const Capacities& caps, const CostModel& cost,
                                               const Plan& plan, const ResultClaims& claims) {
    return verifyResult(g, caps, cost, plan, claims,
                        [&] { return lowerBounds(g, caps, cost, claims.inputOrder, plan); });
}

ResultClaims claimsOf(const Result& r) {
    ResultClaims c = claimsInPlace(r);
    c.timing.reserve(c.steps->size());
    c.waits.emplace();
    c.waits->reserve(c.steps->size());
    for (std::size_t i = 0; i < c.steps->size(); ++i) {
        c.timing.push_back(c.steps->time(i));
        c.waits->push_back(c.steps->wait(i));
    }
    c.steps.reset();
    return c;
}

namespace {
// How the cycles objective's starts are planned: the run's policy and the real capacities, the
// residency choices through `residencyMemo` when given (runners-up of one search share most of
// their memories' problems).
PlanOptions startOptions(const Problem& p, const RunOptions& opts, ResidencyMemo* residencyMemo) {
    return PlanOptions{p.capacities, opts.cost, opts.policy, {}, nullptr, residencyMemo};
}

// Whether `order` is the problem's order or another start's already.
bool isKnownStart(const Problem& p, const Order& order) {
    return order == p.order ||
           std::any_of(p.others.begin(), p.others.end(), [&](const OrderStart& o) { return o.order == order; });
}

// The orders a search made (its order, then its runners-up) as starts of the cycles objective,
// each planned with the run's policy and the real capacities; an order already among the starts
// is not added twice.
void addSearchStarts(const GraphDocument& doc, const RunOptions& opts, MadeOrder made, const std::string& label,
                     ResidencyMemo* residencyMemo, Problem& p) {
    std::vector<std::pair<std::string, Order>> found = std::move(made.search->runnersUp);
    found.insert(found.begin(), {"", std::move(made.order)});
    for (auto& [start, order] : found) {
        if (isKnownStart(p, order)) continue;
        Plan plan = planSpills(doc.graph, order, startOptions(p, opts, residencyMemo));
        p.others.push_back({"search", start.empty() ? label : label + " (runner-up from " + start + ")",
                            std::move(order), std::move(plan)});
    }
}

// Technique search of the cycles objective: the order search run again from the same start with
// kDeeperSearchFactor times its effort (a count of evaluations; it replays the first run, then goes
// on). Its order and its runners-up become starts of the cycles objective; returns its order.
Order addDeeperSearch(const GraphDocument& doc, const RunOptions& opts, const OrderRequest& request,
                      ResidencyMemo* residencyMemo, Problem& p) {
    MadeOrder made = makeOrder("search", request);
    Order found = made.order;
    addSearchStarts(doc, opts, std::move(made), "search, " + std::to_string(kDeeperSearchFactor) + " times the effort",
                    residencyMemo, p);
    return found;
}

// Technique headroom of the cycles objective: the same longer search for the memory the bytes
// plan spills the most data from (one search at most, like technique search: a graph spilling
// from five memories would search five times) made smaller by one buffer (the smallest it spills
// there), so that the orders it finds keep working with that room free; planned with the real
// capacity, the room stays free for a load to overlap compute. It knows the orders found before
// it (the request's, the bytes plan's, technique search's), so that only orders keeping the room
// better than those become starts (a known order is a start already). Its order and runners-up
// become starts like technique search's. Skipped when the bytes plan's order, with the smaller
// capacity, must move more data than the margin allows (its traffic bound, cheap beside a
// search): the search starts from that order and its neighbours. FlashAttention_Case0 (one
// 256-byte tile less: at least 2,048 bytes, the margin 1,408) is skipped so: searched anyway, it
// took 5.2 -> 8.4 s of CPU for the same plan.
void addHeadroomSearch(const GraphDocument& doc, const RunOptions& opts, const OrderRequest& request,
                       Bytes bytesPlanBytes, ResidencyMemo* residencyMemo, Problem& p) {
    const std::optional<LoadRoom> room = loadRoom(doc.graph, *p.plan);
    if (!room) return;
    const std::optional<Capacities> less = capacitiesWithRoom(doc.graph, p.capacities, *room);
    if (!less) return;  // a node's own buffers no longer fit the smaller memory
    const Bytes allowed = opts.cycles.allowedBytes(bytesPlanBytes);
    if (trafficLowerBound(doc.graph, p.order, *less).total > allowed) {
        p.marginLimited = true;
        return;
    }
    const OrderRequest smaller{request.doc,          *less,
                               request.effort,       request.progress,
                               request.known,        request.runnersUp,
                               request.dependencies, request.searchMemo,
                               request.staggered};
    addSearchStarts(doc, opts, makeOrder("search", smaller),
                    "search, " + std::to_string(kDeeperSearchFactor) + " times the effort, with " +
                        std::to_string(room->bytes) + " bytes of " + room->type + " kept free",
                    residencyMemo, p);
}

// Technique stagger of the cycles objective: the order search run again, with the first run's
// effort, building orders whose units each overlap the one before by half
// (SearchOptions::staggered). Its order planned by every policy (of a staggered order, one
// policy's plan may finish far sooner than another's) and its runners-up become starts. Skipped
// when the bytes plan's order, staggered, must move more than half again the data the margin
// allows (its traffic bound): the search starts from that order and its neighbours, and lowers
// their data only so far (the measured cases: docs/timing.md, "stagger").
void addStaggeredSearch(const GraphDocument& doc, const RunOptions& opts, OrderRequest request, Bytes bytesPlanBytes,
                        ResidencyMemo* residencyMemo, Problem& p) {
    const Order start = staggeredOrder(doc.graph, p.order, p.capacities);
    const Bytes allowed = opts.cycles.allowedBytes(bytesPlanBytes);
    if (trafficLowerBound(doc.graph, start, p.capacities).total > allowed + allowed / 2) {
        p.marginLimited = true;
        return;
    }
    request.staggered = true;
    MadeOrder made = makeOrder("search", request);
    const std::string label = "search with units staggered";
    const bool known = isKnownStart(p, made.order);
    for (const PolicyInfo& policy : policyList()) {
        if (known || policy.name == "best" || policy.name == opts.policy || policy.textbook) continue;
        PlanOptions options = startOptions(p, opts, residencyMemo);
        options.policy = policy.name;
        p.others.push_back(
            {"search", label + ", policy " + policy.name, made.order, planSpills(doc.graph, made.order, options)});
    }
    addSearchStarts(doc, opts, std::move(made), label, residencyMemo, p);
}

// The cycles objective's techniques search, headroom and stagger: their searches, from the orders
// the first search was given (`request.known`), each adding its orders as starts.
void addTechniqueSearches(const GraphDocument& doc, const RunOptions& opts, OrderRequest request,
                          std::int64_t firstEffort, Bytes bytesPlanBytes, ResidencyMemo* residencyMemo, Problem& p) {
    const CyclesStages stages = cyclesStages(opts);
    request.effort = firstEffort * kDeeperSearchFactor;
    if (opts.cycles.enabled(CyclesTechnique::Search)) {
        request.progress = staged(opts.progress, stages.deeper, stages.count, "longer order search");
        Order found = addDeeperSearch(doc, opts, request, residencyMemo, p);
        request.known.emplace_back("search", std::move(found));
    }
    if (opts.cycles.enabled(CyclesTechnique::Headroom) && !p.plan->spills.empty()) {
        request.known.emplace_back(p.orderSource, p.order);
        request.progress = staged(opts.progress, stages.headroom, stages.count, "order search with room kept free");
        addHeadroomSearch(doc, opts, request, bytesPlanBytes, residencyMemo, p);
    }
    if (opts.cycles.enabled(CyclesTechnique::Stagger)) {
        request.effort = firstEffort;
        request.progress = staged(opts.progress, stages.stagger, stages.count, "order search with units staggered");
        addStaggeredSearch(doc, opts, request, bytesPlanBytes, residencyMemo, p);
    }
}

// The default on a huge graph (order best, policy best: lifetime alone there, no search): each
// candidate order's lifetime plan is drafted (its residency and packing, which fix the data it
// moves) and only the winner's is recorded, so the loser's plan is never built; an order whose
// lower bound shows it cannot win is not even drafted (draft_choice.h; docs/policies.md, "The
// default on huge graphs"). Same choice and plan as recording both: ties to the first. The
// candidate orders are made first, from one set of dependency lists (both schedulers follow the
// same), which is freed before the drafts.
void prepareHugeDefault(const GraphDocument& doc, const RunOptions& opts, const OrderRequest& request, Problem& p) {
    std::vector<std::string> names;
    std::vector<MadeOrder> made;
    {
        OrderRequest shared = request;
        shared.dependencies = std::make_shared<const ScheduleDependencies>(doc.graph, orderById(doc.graph));
        for (const std::string& candidate : bestOrderCandidates())
            if (candidate != "search") names.push_back(candidate), made.push_back(makeOrder(candidate, shared));
    }
    std::vector<Order> orders;
    for (MadeOrder& m : made) orders.push_back(std::move(m.order));
    DraftChoice choice =
        leastMovingDraft(doc.graph, std::move(orders), PlanOptions{p.capacities, opts.cost, opts.policy, {}});
    p.orderSource = names[choice.index];
    p.search = summaryOf(made[choice.index].search);
    Plan plan = choice.draft->plan();
    if (plan.policy.empty()) plan.policy = kHugeGraphPolicy;  // as policy best names it there
    p.plan = std::move(plan);
    p.order = choice.draft->releaseOrder();
}

// Order source best, objective bytes: every candidate order made (each knowing those before
// it, which the search scores), then planned by the policy asked for, the last first and the others
// only when their lower bound may beat the best plan so far (draft_choice.h): the same choice as
// planning every one, ties to the first. An order equal to an earlier candidate's is left out: it
// would plan the same and lose the tie. On a huge graph without the search (its constructions cost
// seconds each there: docs/policies.md, "The default on huge graphs").
void prepareLeastMovingOrder(const GraphDocument& doc, const RunOptions& opts, const OrderRequest& request,
                             Problem& p) {
    const bool huge = isHugeGraph(doc.graph.nodes.size());
    OrderRequest withKnown = request;
    std::vector<std::string> names;
    std::vector<MadeOrder> made;
    for (const std::string& candidate : bestOrderCandidates()) {
        if (huge && candidate == "search") continue;
        MadeOrder m = makeOrder(candidate, withKnown);
        withKnown.known.emplace_back(candidate, m.order);
        const bool repeated =
            std::any_of(made.begin(), made.end(), [&](const MadeOrder& e) { return e.order == m.order; });
        if (repeated) continue;
        names.push_back(candidate);
        made.push_back(std::move(m));
    }
    const PlanOptions planOptions{p.capacities, opts.cost, opts.policy, {}};
    auto choice = leastMovingDraft(
        made.size(), [&](std::size_t i) { return excessBound(doc.graph, made[i].order, p.capacities); },
        [&](std::size_t i) {
            Plan plan = planSpills(doc.graph, made[i].order, planOptions);
            const Bytes bytes = extraBytesOf(doc.graph, plan);
            return PlanDraft{std::move(plan), bytes};
        });
    p.orderSource = names[choice.index];
    p.search = summaryOf(made[choice.index].search);
    p.order = std::move(made[choice.index].order);
    p.plan = std::move(choice.draft->plan);
}

// The result of a prepared problem, planned, before any objective's work.
Result resultOf(Problem problem, const RunOptions& opts) {
    Result r;
    r.capacities = std::move(problem.capacities);
    r.orderSource = std::move(problem.orderSource);
    r.inputOrder = std::move(problem.order);
    r.search = std::move(problem.search);
    r.policy = opts.policy;
    r.cost = opts.cost;
    r.plan = std::move(*problem.plan);
    r.objective = opts.objective;
    return r;
}

// The cycles objective's report under `opts`: the bytes plan's figures and each step's gain.
ObjectiveReport objectiveReport(const RunOptions& opts, Bytes bytesPlanBytes, Cycles bytesPlanCycles,
                                std::vector<std::string> steps) {
    ObjectiveReport report{{}, opts.cycles.marginPercent, bytesPlanBytes, bytesPlanCycles, std::move(steps)};
    for (const CyclesTechniqueInfo& t : cyclesTechniques())
        if (!opts.cycles.enabled(t.technique)) report.disabled.push_back(t.name);
    return report;
}

// What the cycles objective made, put in `r` with its report.
void takeShortened(Result& r, Shortened s, const RunOptions& opts) {
    r.plan = std::move(s.plan);
    r.inputOrder = std::move(s.inputOrder);
    if (!s.orderSource.empty()) r.orderSource = std::move(s.orderSource);
    r.cycles = objectiveReport(opts, s.bytesPlanExtraBytes, s.bytesPlanCycles, std::move(s.steps));
    r.cycles->marginLimited = s.marginLimited;
}

// `r`'s plan timed, measured and verified, as run() returns it; an InternalError when the
// verifier rejects it.
void complete(const GraphDocument& doc, Result& r) {
    // Timing and metrics assume a sound plan; on one the verifier rejects, its report is the
    // error to show, not theirs.
    std::optional<std::string> measureFailure;
    try {
        r.timing = simulateTiming(doc.graph, r.plan);
        r.metrics = measure(doc.graph, r.capacities, r.cost, r.inputOrder, r.plan, r.timing);
    } catch (const std::exception& e) {
        measureFailure = e.what();
    }
    const std::vector<Violation> violations = verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsInPlace(r));
    if (!violations.empty()) {
        std::string msg = "the " + r.policy + " plan failed verification (" + std::to_string(violations.size()) +
                          " violations), first: [" + violationKindName(violations.front().kind) + "] " +
                          violations.front().message;
        throw InternalError(msg);
    }
    if (measureFailure) throw InternalError(*measureFailure);
}

// Whether a run offers its best plans so far: asked, and not on a huge graph (scale.h), where a
// second result beside the run's would double its memory (hundreds of MB in the browser).
bool offersBestSoFar(const GraphDocument& doc, const RunOptions& opts) {
    return opts.offerBestSoFar && !isHugeGraph(doc.graph.nodes.size());
}

// The bytes plan, a cycles run's first plan, offered as its best so far before the longer searches.
void offerBytesPlan(const GraphDocument& doc, const RunOptions& opts, const Problem& p) {
    opts.offerBestSoFar([&] {
        Result r = resultOf(Problem{p.capacities, p.orderSource, p.order, p.search, p.plan, {}}, opts);
        complete(doc, r);
        r.cycles = objectiveReport(opts, r.metrics.extraBytes, r.metrics.totalCycles, {});
        return r;
    });
}

// `searchMemo`: the order searches' scores, shared with earlier runs of the same graph (else the
// run's own); `residencyMemo` (when given): the residency choices of the plans it makes.
Problem prepareLocated(const GraphDocument& doc, const RunOptions& opts, SearchMemo* searchMemo,
                       ResidencyMemo* residencyMemo) {
    parsePolicy(opts.policy);  // a wrong name fails before any order is made (a search is costly)
    if (opts.force) {
        requireForceable(opts.policy);
        if (opts.objective == Objective::Cycles) {
            ErrorPlace where;
            where.field = "force";
            throw InputError("a forced spill is planned under objective bytes only", std::move(where));
        }
    }
    Problem p;
    p.capacities = capacitiesFor(doc, opts);
    opts.cost.validate(doc.graph);
    std::string source = opts.orderSource;
    if (source == "given") {
        if (!opts.order) throw InputError("order source \"given\" needs an order");
        validateOrder(doc.graph, *opts.order, "the given order", opts.orderFrom);
        p.orderSource = source;
        p.order = *opts.order;
        return p;
    }
    if (source == "graph") {
        if (doc.order) {
            validateOrder(doc.graph, *doc.order, "the graph's \"Order\"", "graph");
            p.orderSource = source;
            p.order = *doc.order;
            return p;
        }
        source = "best";
    }
    if (!isOrderSource(source)) {
        ErrorPlace where;
        where.field = "order";
        throw InputError(
            "unknown order source \"" + excerpt(source) + "\": expected " + orderSourceNames() + " or a file",
            std::move(where));
    }
    const OrderRequest request = requestFor(doc, opts, p.capacities);
    if (source != "best") {
        MadeOrder made = makeOrder(source, request);
        p.orderSource = source;
        p.order = std::move(made.order);
        p.search = summaryOf(made.search);
        return p;
    }
    // The order moving the least data (ties: the first), with its plan so that run() need not
    // plan it again. The cycles objective's technique orders starts from the other candidates'
    // plans and the search's runners-up too, so it plans every one (below); otherwise only those
    // that may win are planned. On a huge graph the search is left out: its constructions cost
    // seconds each there (docs/policies.md, "The default on huge graphs").
    const bool huge = isHugeGraph(doc.graph.nodes.size());
    const bool keepOthers = opts.objective == Objective::Cycles && opts.cycles.enabled(CyclesTechnique::Orders);
    if (huge && !keepOthers && opts.policy == "best") {
        prepareHugeDefault(doc, opts, request, p);
        return p;
    }
    if (!keepOthers) {
        prepareLeastMovingOrder(doc, opts, request, p);
        return p;
    }
    Bytes bestBytes = 0;
    OrderRequest withKnown = request;  // the search scores the candidates made before it
    SearchMemo ownMemo;                // technique search's longer run meets the first's orders again
    withKnown.searchMemo = searchMemo ? searchMemo : &ownMemo;
    // The cycles objective's technique orders: every candidate's plan is a start, and the search's
    // runners-up too.
    withKnown.runnersUp = kSearchRunnersUp;
    // Techniques search, headroom and stagger: the orders the search was given, and the effort it
    // ran with.
    std::optional<std::vector<std::pair<std::string, Order>>> deeperKnown;
    std::int64_t firstEffort = 0;
    for (const std::string& candidate : bestOrderCandidates()) {
        if (huge && candidate == "search") continue;
        if (candidate == "search" &&
            (opts.cycles.enabled(CyclesTechnique::Search) || opts.cycles.enabled(CyclesTechnique::Headroom) ||
             opts.cycles.enabled(CyclesTechnique::Stagger)))
            deeperKnown = withKnown.known;
        MadeOrder made = makeOrder(candidate, withKnown);
        if (deeperKnown && made.search) firstEffort = made.search->effort;
        withKnown.known.emplace_back(candidate, made.order);
        if (made.search)
            for (auto& [start, order] : made.search->runnersUp) {
                Plan plan = planSpills(doc.graph, order, startOptions(p, opts, residencyMemo));
                p.others.push_back(
                    {candidate, candidate + " (runner-up from " + start + ")", std::move(order), std::move(plan)});
            }
        Plan plan = planSpills(doc.graph, made.order, startOptions(p, opts, residencyMemo));
        const Bytes bytes = extraBytesOf(doc.graph, plan);
        if (!p.plan || bytes < bestBytes) {
            if (p.plan) p.others.push_back({p.orderSource, p.orderSource, std::move(p.order), std::move(*p.plan)});
            p.orderSource = candidate;
            p.order = std::move(made.order);
            p.search = summaryOf(made.search);
            p.plan = std::move(plan);
            bestBytes = bytes;
        } else {
            p.others.push_back({candidate, candidate, std::move(made.order), std::move(plan)});
        }
    }
    if (offersBestSoFar(doc, opts)) offerBytesPlan(doc, opts, p);
    if (deeperKnown) {
        OrderRequest deeper = withKnown;
        deeper.known = std::move(*deeperKnown);
        addTechniqueSearches(doc, opts, std::move(deeper), firstEffort, bestBytes, residencyMemo, p);
    }
    return p;
}
}  // namespace

Problem prepare(const GraphDocument& doc, const RunOptions& opts) {
    return locatingErrors(doc, [&] { return prepareLocated(doc, opts, nullptr, nullptr); });
}

namespace {
// The cycles objective's options for a run: its progress told as the run's last stage, its best
// plans so far offered as results.
CyclesOptions cyclesOptionsFor(const GraphDocument& doc, const RunOptions& opts, const Result& bytesResult) {
    CyclesOptions cycles = opts.cycles;
    if (opts.progress) {
        const CyclesStages stages = cyclesStages(opts);
        cycles.progress = [&opts, stages](std::int64_t starts, Cycles best) {
            SearchProgress p;
            p.evaluations = starts;
            p.best = best;
            p.stage = stages.shorten;
            p.stages = stages.count;
            p.stageName = "finish sooner";
            opts.progress(p);  // a stop asked here is not followed: the shortening goes to its end
        };
    }
    if (offersBestSoFar(doc, opts))
        cycles.offerBest = [&doc, &opts, &bytesResult](const std::function<Shortened()>& make) {
            opts.offerBestSoFar([&] {
                Result sooner = bytesResult;
                takeShortened(sooner, make(), opts);
                complete(doc, sooner);
                return sooner;
            });
        };
    return cycles;
}

// run(), remembering in `memo` (and `searchMemo` when given) what a later run of the same graph
// and cost model may meet again (compare's rows share one; frontier's runs both).
Result runWith(const GraphDocument& doc, const RunOptions& opts, CyclesMemo& memo, SearchMemo* searchMemo = nullptr) {
    Problem problem = locatingErrors(doc, [&] { return prepareLocated(doc, opts, searchMemo, &memo.residency()); });
    std::vector<OrderStart> others = std::move(problem.others);
    const bool headroomLimited = problem.marginLimited;
    // A forced spill replans the order chosen, even when its source planned it already.
    if (!problem.plan || opts.force)
        problem.plan =
            planSpills(doc.graph, problem.order,
                       PlanOptions{problem.capacities, opts.cost, opts.policy, opts.force, nullptr, &memo.residency()});
    Result r = resultOf(std::move(problem), opts);
    if (opts.objective == Objective::Cycles) {
        const CyclesOptions cycles = cyclesOptionsFor(doc, opts, r);
        takeShortened(r, shortenPlan(doc.graph, r.capacities, r.cost, r.inputOrder, r.plan, cycles, others, &memo),
                      opts);
        r.cycles->marginLimited = r.cycles->marginLimited || headroomLimited;
    }
    complete(doc, r);
    return r;
}
}  // namespace

Result run(const GraphDocument& doc, const RunOptions& opts) {
    CyclesMemo memo;
    return runWith(doc, opts, memo);
}

namespace {
// How many different amounts of data kFrontierMargins allow beyond `bytesPlanBytes`.
int distinctAllowances(CyclesOptions c, Bytes bytesPlanBytes) {
    std::set<Bytes> allowed;
    for (int margin : kFrontierMargins) {
        c.marginPercent = margin;
        allowed.insert(c.allowedBytes(bytesPlanBytes));
    }
    return static_cast<int>(allowed.size());
}

// Of `made`, the points no other beats on both data moved and cycles, by data moved (ties: the
// first made).
std::vector<FrontierPoint> frontOf(std::vector<FrontierPoint> made) {
    std::stable_sort(made.begin(), made.end(), [](const FrontierPoint& a, const FrontierPoint& b) {
        const Metrics &x = a.metrics, &y = b.metrics;
        return x.extraBytes != y.extraBytes ? x.extraBytes < y.extraBytes : x.totalCycles < y.totalCycles;
    });
    std::vector<FrontierPoint> front;
    for (FrontierPoint& p : made)
        if (front.empty() || p.metrics.totalCycles < front.back().metrics.totalCycles) front.push_back(std::move(p));
    return front;
}
}  // namespace

std::vector<FrontierPoint> frontier(const GraphDocument& doc, const RunOptions& opts,
                                    const FrontierProgress& progress) {
    std::vector<FrontierPoint> made;
    CyclesMemo memo;
    SearchMemo searchMemo;     // each run searches the same orders again
    int runs = kFrontierRuns;  // the runs the front takes, as far as known
    auto add = [&](const RunOptions& o) {
        Result r = runWith(doc, o, memo, &searchMemo);
        made.push_back({o.objective, o.objective == Objective::Cycles ? o.cycles.marginPercent : 0, r.orderSource,
                        r.plan.policy, r.metrics});
        return r;
    };
    auto tell = [&] {
        if (progress) progress(frontOf(made), static_cast<int>(made.size()), runs);
    };
    RunOptions o = opts;
    o.objective = Objective::Bytes;
    o.cycles = CyclesOptions{};
    add(o);
    tell();
    // A margin enters a run only as the data it allows (CyclesOptions::allowedBytes of the bytes
    // plan's). A margin allowing the data of the run before it makes that run's plan again, and so
    // does every larger margin after a run the margin did not limit: ties the front would not
    // keep, so those runs are left out.
    o.objective = Objective::Cycles;
    o.cycles = opts.cycles;
    std::optional<Bytes> bytesPlanBytes;
    Bytes lastAllowed = -1;
    for (int margin : kFrontierMargins) {
        o.cycles.marginPercent = margin;
        if (bytesPlanBytes && o.cycles.allowedBytes(*bytesPlanBytes) == lastAllowed) continue;
        const Result r = add(o);
        if (!bytesPlanBytes) {
            bytesPlanBytes = r.cycles->bytesPlanExtraBytes;
            runs = 1 + distinctAllowances(o.cycles, *bytesPlanBytes);
        }
        lastAllowed = o.cycles.allowedBytes(*bytesPlanBytes);
        if (!r.cycles->marginLimited) runs = static_cast<int>(made.size());
        tell();
        if (!r.cycles->marginLimited) break;
    }
    return frontOf(std::move(made));
}

std::vector<ComparisonRow> compare(const GraphDocument& doc, const RunOptions& opts) {
    std::vector<std::string> sources = comparedOrderSources();
    if (doc.order) sources.insert(sources.begin(), "graph");
    std::vector<ComparisonRow> rows;
    CyclesMemo memo;
    for (const std::string& source : sources) {
        // The order once per source (a search is the costly part), then every policy on it.
        RunOptions o = opts;
        o.orderSource = source;
        const auto t0 = std::chrono::steady_clock::now();
        const Problem problem = prepare(doc, o);
        const double orderMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        o.orderSource = "given";
        o.order = problem.order;
        for (const PolicyInfo& info : policyList()) {
            // The textbook rules teach reloads: the cycles objective leaves them out.
            if (info.textbook && opts.objective == Objective::Cycles) continue;
            const std::string& policy = info.name;
            o.policy = policy;
            const auto t1 = std::chrono::steady_clock::now();
            Result r = runWith(doc, o, memo);
            const double ms =
                orderMs + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
            rows.push_back({policy, r.plan.policy, source, r.metrics, std::move(r.cycles), ms});
        }
    }
    return rows;
}

}  // namespace spillway
