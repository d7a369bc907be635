#include "spillway/cycles.h"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <sstream>
#include <tuple>

#include "plan_layout.h"
#include "spillway/error.h"
#include "spillway/memo.h"
#include "spillway/order_search.h"
#include "spillway/scale.h"
#include "spillway/planner.h"
#include "model/fingerprint.h"
#include "spillway/residency.h"
#include "time_planning.h"

namespace spillway {

Objective parseObjective(const std::string& name) {
    if (name == "bytes") return Objective::Bytes;
    if (name == "cycles") return Objective::Cycles;
    ErrorPlace where;
    where.field = "objective";
    throw InputError("unknown objective \"" + excerpt(name) + "\": expected bytes or cycles", std::move(where));
}

const char* objectiveName(Objective o) { return o == Objective::Bytes ? "bytes" : "cycles"; }

const std::vector<CyclesTechniqueInfo>& cyclesTechniques() {
    static const std::vector<CyclesTechniqueInfo> kTechniques = {
        {CyclesTechnique::Placement, "placement",
         "time-aware placement: each buffer where the bytes were left earliest in simulated time (ties by best fit)"},
        {CyclesTechnique::Fit, "fit",
         "placement fit to need: each buffer on the bytes left latest by the time it is needed, the earlier ones kept "
         "for buffers needed sooner"},
        {CyclesTechnique::Schedule, "schedule",
         "the order follows the simulated start times: next, the node that can start earliest"},
        {CyclesTechnique::Hoist, "hoist",
         "early reloads and loads: a SPILL_IN or ALLOC moves ahead of earlier nodes as far as edges and bytes allow"},
        {CyclesTechnique::Swaps, "swaps",
         "the best plan scheduled again with two nodes in a row on a pipe swapped, where the second waited for the "
         "first; kept when sooner"},
        {CyclesTechnique::Policies, "policies",
         "the other policies' plans of the same order as starts too, when they move no more data than the margin "
         "allows"},
        {CyclesTechnique::Reserve, "reserve",
         "spare room: spills chosen again with room kept free for loads ahead (over the whole order, then from where "
         "the plan spills to its last reload), within the data margin"},
        {CyclesTechnique::Orders, "orders",
         "the plans of the other orders order source best made as starts too, within the data margin"},
        {CyclesTechnique::Search, "search",
         "the order search run again with 4 times its effort (evaluations); its order and runners-up planned as starts "
         "too, within the data margin"},
        {CyclesTechnique::Headroom, "headroom",
         "the longer order search with the memory spilled from most smaller by one spilled buffer, its orders planned "
         "with the real capacity (room left free for loads) as starts too, within the data margin"},
        {CyclesTechnique::Stagger, "stagger",
         "orders with each unit overlapping the one before by half (where their accumulators fit together), so that "
         "one unit's loads run while the other computes: an order search building its orders so, and the soonest "
         "plans' orders staggered; planned by every policy as starts too, within the data margin"},
        {CyclesTechnique::Sequence, "sequence",
         "when the best plan's order is staggered: its sequence of units searched, each unit swapped with the next "
         "in turn, each order planned again with room for a load kept free; kept when within the data margin and "
         "sooner"},
        {CyclesTechnique::Retime, "retime",
         "windows of the best plan's input order put in the order of their simulated starts, planned again; kept when "
         "within the data margin and sooner; in passes of windows of 32, 64, 32 and 16 positions, each after one "
         "that kept a window"},
    };
    return kTechniques;
}

CyclesTechnique cyclesTechnique(const std::string& name) {
    for (const CyclesTechniqueInfo& t : cyclesTechniques())
        if (name == t.name) return t.technique;
    std::string known;
    for (const CyclesTechniqueInfo& t : cyclesTechniques()) known += (known.empty() ? "" : ", ") + std::string(t.name);
    ErrorPlace where;
    where.field = "disable";
    throw InputError("unknown technique \"" + excerpt(name) + "\" of the cycles objective: expected one of " + known,
                     std::move(where));
}

std::vector<CyclesTechnique> parseCyclesTechniques(const std::string& commaList) {
    std::vector<CyclesTechnique> out;
    std::istringstream in(commaList);
    for (std::string name; std::getline(in, name, ',');) out.push_back(cyclesTechnique(name));
    return out;
}

bool CyclesOptions::enabled(CyclesTechnique t) const {
    return std::find(disabled.begin(), disabled.end(), t) == disabled.end();
}

// In 128 bits: a plan's traffic may reach 2^59 (limits.h: 2^22 spills of 2^37 bytes each).
Bytes CyclesOptions::allowedBytes(Bytes bytesPlanBytes) const {
    __extension__ using Wide = __int128;
    const Wide allowed = static_cast<Wide>(bytesPlanBytes) * (100 + marginPercent) / 100;
    return static_cast<Bytes>(std::min<Wide>(allowed, std::numeric_limits<Bytes>::max()));
}

std::optional<LoadRoom> loadRoom(const Graph& g, const Plan& plan) {
    std::map<std::string, std::pair<Bytes, Bytes>> spilled;  // memory -> (bytes moved, smallest buffer)
    for (const Spill& sp : plan.spills) {
        const auto it = spilled.emplace(sp.type, std::make_pair(Bytes{0}, sp.size)).first;
        it->second = {it->second.first + spillTrafficBytes(g.buffer(sp.buf)), std::min(it->second.second, sp.size)};
    }
    if (spilled.empty()) return std::nullopt;
    const auto most = std::max_element(spilled.begin(), spilled.end(), [](const auto& a, const auto& b) {
        return a.second.first < b.second.first;  // ties: the first memory by name
    });
    return LoadRoom{most->first, most->second.second};
}

std::optional<Capacities> capacitiesWithRoom(const Graph& g, const Capacities& caps, const LoadRoom& room) {
    Capacities less = caps;
    less[room.type] -= room.bytes;
    try {
        validateCapacities(g, less);
    } catch (const InputError&) {
        return std::nullopt;
    }
    return less;
}

namespace {

// Technique retime: windows planned without a sooner plan before a pass stops; the work one
// pass's windows may spend, and all passes', so that a larger graph, or one whose plans solve
// large relaxations, plans fewer windows. A window's work: kRetimeNodeWork per node (its plan and
// the rounds improving it) plus its plan's relaxations' flow work (PlanOptions::relaxationWork).
// Without relaxations a pass may plan 400,000 nodes and all passes 600,000; the weight of a node
// against the flow's work is chosen so that windows with small relaxations all fit and those
// whose plans retry large ones get a few (docs/timing.md, "retime"). Counts.
constexpr int kRetimePatience = 40;
constexpr std::int64_t kRetimeNodeWork = 64;
constexpr std::int64_t kRetimePassWork = 400'000 * kRetimeNodeWork;
constexpr std::int64_t kRetimeWork = 3 * kRetimePassWork / 2;

// Technique sequence: the nodes its orders may have in all (a count): a graph whose sweep would
// plan more is not swept.
constexpr std::int64_t kSequenceNodes = 400'000;

Bytes extraBytesOf(const Graph& g, const Plan& plan) {
    Bytes bytes = 0;
    for (const Spill& s : plan.spills) bytes += spillTrafficBytes(g.buffer(s.buf));
    return bytes;
}

const char* priorityName(SchedulePriority p) {
    switch (p) {
        case SchedulePriority::Order: return "schedule";
        case SchedulePriority::Tail: return "schedule (longest tail first)";
        case SchedulePriority::Backward: return "schedule (most work after first)";
    }
    return "?";
}

// A plan under improvement: its fixed part (spills, their nodes and edges) and its layout.
struct Attempt {
    Plan base;
    const Order* input = nullptr;  // the input order `base` was planned for
    std::string orderSource;       // another order's source, "" for the order given
    Layout layout;
    Cycles total = 0;
    std::vector<PlacementNote> notes;  // the last placement's, per dense node index
    std::vector<std::string> steps;    // what each kept step gained
    bool fitInEveryRound = false;      // the path of rounds that made it (Shortener::improve)
};

}  // namespace

// Starts improved before, known by the plan and the path of rounds (and the capacities and
// options the rounds ran with): a caller that shortens several plans of one graph (compare's
// rows of one order) meets the same starts and windows again. What improve() made is kept with
// its steps' text after the label, so that another label tells the same steps. The oldest are
// forgotten past kNodes plan nodes kept, so that its memory stays bounded.
class ImprovedStarts {
public:
    struct Improved {
        Layout layout;
        Cycles total = 0;
        std::vector<PlacementNote> notes;
        std::vector<std::string> steps;  // each without the label it was made under
        bool fitInEveryRound = false;
    };
    static constexpr std::size_t kNodes = std::size_t{1} << 20;

    const Improved* find(const Fingerprint::Value& key) const { return entries_.find(key); }
    void remember(const Fingerprint::Value& key, Improved improved) {
        const std::size_t nodes = improved.layout.order.size();
        entries_.remember(key, std::move(improved), nodes);
    }

private:
    FingerprintMemo<Improved> entries_{kNodes};  // weighed by plan nodes
};

struct CyclesMemo::Parts {
    ResidencyMemo residency;
    ImprovedStarts improved;
};
CyclesMemo::CyclesMemo() : parts_(std::make_unique<Parts>()) {}
CyclesMemo::~CyclesMemo() = default;
ResidencyMemo& CyclesMemo::residency() { return parts_->residency; }

namespace {

class Shortener {
public:
    Shortener(const Graph& g, const Capacities& caps, const CyclesOptions& opts, ImprovedStarts& memo)
        : g_(g), caps_(caps), opts_(opts), memo_(memo) {}

    // Rounds of placement and scheduling from `plan`; each step is kept only when it finishes
    // sooner, and the rounds stop when one gains nothing. `fitInEveryRound`, when given: only
    // that path of rounds (below) is run (technique retime runs the one its best plan came from).
    Attempt improve(const Plan& plan, const Order& input, const std::string& label,
                    std::optional<bool> fitInEveryRound = std::nullopt) {
        const Fingerprint::Value key = keyOf(plan, fitInEveryRound);
        // A fingerprint met with a plan of another length is a miss: its layout would not fit.
        const ImprovedStarts::Improved* known = memo_.find(key);
        if (known && known->layout.order.size() == plan.order.size()) return attemptOf(*known, plan, input, label);
        Attempt a = improveAnew(plan, input, label, fitInEveryRound);
        ImprovedStarts::Improved made{a.layout, a.total, a.notes, {}, a.fitInEveryRound};
        for (const std::string& step : a.steps) made.steps.push_back(step.substr(label.size()));
        memo_.remember(key, std::move(made));
        return a;
    }

    // Swaps: the schedule again with the priorities of two nodes in a row on one pipe swapped,
    // where the second started when the first ended (the pipe's sequence set its start); kept
    // when it finishes sooner. At most opts.swaps schedules, and opts.swapsWork plan nodes
    // scheduled in all (counts).
    void swap(Attempt& a) {
        const PlanNodes nodes(g_, a.base);
        const bool hoist = opts_.enabled(CyclesTechnique::Hoist);
        const std::int64_t planNodes = std::max<std::int64_t>(1, static_cast<std::int64_t>(a.layout.order.size()));
        const std::int64_t tries = std::min<std::int64_t>(opts_.swaps, opts_.swapsWork / planNodes);
        std::vector<std::pair<int, int>> pairs = pipeWaits(nodes, a.layout);
        for (size_t next = 0; next < pairs.size() && static_cast<std::int64_t>(next) < tries; ++next) {
            std::vector<int> ranks(nodes.size(), -1);
            for (size_t p = 0; p < a.layout.order.size(); ++p) ranks[a.layout.order[p]] = static_cast<int>(p);
            std::swap(ranks[a.layout.order[pairs[next].first]], ranks[a.layout.order[pairs[next].second]]);
            const Cycles before = a.total;
            keepIfSooner(a, scheduleForTime(nodes, g_, a.layout, hoist, SchedulePriority::Order, &ranks), "swaps", 0,
                         "two nodes in a row on a pipe swapped");
            if (a.total < before) pairs = pipeWaits(nodes, a.layout);  // the list of the new layout, from `next` on
        }
    }

private:
    Attempt improveAnew(const Plan& plan, const Order& input, const std::string& label,
                        std::optional<bool> fitInEveryRound) {
        Attempt a;
        a.base = plan;
        a.input = &input;
        const PlanNodes nodes(g_, a.base);
        a.layout = layoutOf(nodes, a.base);
        a.total = timingOf(nodes, g_, a.layout).total;
        a.notes.assign(nodes.size(), {});
        if (!opts_.enabled(CyclesTechnique::Fit)) {
            runRounds(nodes, a, label, Fit::Never);
            return a;
        }
        // Fit to need in every round (after placement) changes the path of the later steps, and
        // made some plans end later: the rounds also run without it, then with it (first in each
        // round) from where they stop, and the sooner of the two paths is kept.
        if (fitInEveryRound.value_or(true)) {
            Attempt every = a;
            every.fitInEveryRound = true;
            runRounds(nodes, every, label + " (fit in every round)", Fit::AfterPlacement);
            if (fitInEveryRound) return every;
            runRounds(nodes, a, label, Fit::Never);
            runRounds(nodes, a, label, Fit::First);
            return every.total < a.total ? every : a;
        }
        runRounds(nodes, a, label, Fit::Never);
        runRounds(nodes, a, label, Fit::First);
        return a;
    }

    // What improve() depends on: the plan's order, places and spill nodes, the path of rounds, and
    // the capacities and options the rounds run with.
    Fingerprint::Value keyOf(const Plan& plan, std::optional<bool> fitInEveryRound) const {
        Fingerprint f;
        f.add(fitInEveryRound ? *fitInEveryRound : -1);
        for (const auto& [type, capacity] : caps_) f.addText(type), f.add(capacity);
        f.add(opts_.rounds);
        f.addAll(opts_.disabled);
        f.addAll(plan.order);
        for (const Allocation& a : plan.allocations) f.add(a.buf), f.add(a.offset);
        f.add(static_cast<std::int64_t>(plan.spills.size()));
        for (const Spill& s : plan.spills)
            for (std::int64_t v :
                 {std::int64_t{s.buf}, s.oldOffset, s.newOffset, std::int64_t{s.outNode}, std::int64_t{s.inNode}})
                f.add(v);
        f.add(static_cast<std::int64_t>(plan.addedEdges.size()));
        for (const auto& [from, to] : plan.addedEdges) f.add(from), f.add(to);
        return f.value();
    }

    // An attempt from what improve() made of the same plan before, its steps told under `label`.
    static Attempt attemptOf(const ImprovedStarts::Improved& known, const Plan& plan, const Order& input,
                             const std::string& label) {
        Attempt a;
        a.base = plan;
        a.input = &input;
        a.layout = known.layout;
        a.total = known.total;
        a.notes = known.notes;
        for (const std::string& step : known.steps) a.steps.push_back(label + step);
        a.fitInEveryRound = known.fitInEveryRound;
        return a;
    }

    // Positions (earlier, later) of two nodes in a row on one pipe where the later one started
    // when the earlier one ended: the pipe's sequence set its start.
    std::vector<std::pair<int, int>> pipeWaits(const PlanNodes& nodes, const Layout& layout) const {
        const Timing timing = timingOf(nodes, g_, layout);
        std::vector<int> last(nodes.pipes(), -1);
        std::vector<std::pair<int, int>> out;
        for (size_t p = 0; p < layout.order.size(); ++p) {
            const int q = nodes.pipe(layout.order[p]);
            if (q == 0) continue;
            if (last[q] >= 0 && timing.nodes[p].wait.cause == WaitCause::Pipe)
                out.push_back({last[q], static_cast<int>(p)});
            last[q] = static_cast<int>(p);
        }
        return out;
    }

    // One step of a round: a placement (time-aware, or fit to need) or a schedule by a priority.
    struct Step {
        const char* name;
        bool placement;
        bool fit;
        SchedulePriority priority;
    };
    enum class Fit { Never, First, AfterPlacement };
    std::vector<Step> steps(Fit fit) const {
        const Step fitStep{"placement (fit to need)", true, true, SchedulePriority::Order};
        std::vector<Step> out;
        if (fit == Fit::First) out.push_back(fitStep);
        if (opts_.enabled(CyclesTechnique::Placement))
            out.push_back({"placement", true, false, SchedulePriority::Order});
        if (fit == Fit::AfterPlacement) out.push_back(fitStep);
        if (opts_.enabled(CyclesTechnique::Schedule))
            for (SchedulePriority priority :
                 {SchedulePriority::Order, SchedulePriority::Tail, SchedulePriority::Backward})
                out.push_back({priorityName(priority), false, false, priority});
        return out;
    }
    TimedLayout apply(const PlanNodes& nodes, const Step& step, const Layout& from,
                      std::vector<PlacementNote>* notes) const {
        if (step.placement) return placeForTime(nodes, g_, caps_, from, notes, step.fit);
        return scheduleForTime(nodes, g_, from, opts_.enabled(CyclesTechnique::Hoist), step.priority);
    }

    // Rounds of the steps; each step is kept only when it finishes sooner, and the rounds stop
    // when one gains nothing.
    void runRounds(const PlanNodes& nodes, Attempt& a, const std::string& label, Fit fit) {
        const std::vector<Step> all = steps(fit);
        for (int round = 0; round < opts_.rounds; ++round) {
            const Cycles before = a.total;
            for (const Step& step : all) {
                std::vector<PlacementNote> notes(nodes.size());
                keepIfSooner(a, apply(nodes, step, a.layout, &notes), label, round, step.name,
                             step.placement ? &notes : nullptr);
            }
            if (a.total >= before) break;
        }
    }

    static void keepIfSooner(Attempt& a, TimedLayout candidate, const std::string& label, int round, const char* step,
                             std::vector<PlacementNote>* notes = nullptr) {
        const Cycles total = candidate.total;
        if (total >= a.total) return;
        a.steps.push_back(label + " round " + std::to_string(round + 1) + ", " + step + ": " + std::to_string(a.total) +
                          " -> " + std::to_string(total) + " cycles");
        a.layout = std::move(candidate.layout);
        a.total = total;
        if (notes) a.notes = std::move(*notes);
    }

    const Graph& g_;
    const Capacities& caps_;
    const CyclesOptions& opts_;
    ImprovedStarts& memo_;
};

// The input order of a layout: its order without the spill nodes.
Order inputOrderOf(const Graph& g, const Plan& plan) {
    Order order;
    order.reserve(g.nodes.size());
    for (NodeId id : plan.order)
        if (g.nodeIndex.contains(id)) order.push_back(id);
    return order;
}

// The decisions of the plan `a` started from, told again for its new order and places: steps
// and offsets follow the new plan, and a buffer the time-aware placement moved says so and what
// it chose among. A huge graph's brief decisions get the new steps and offsets alone.
class DecisionRenewal {
public:
    DecisionRenewal(const Graph& g, const Plan& from, const Order& fromInput, const Plan& to, const Order& toInput,
                    const std::vector<PlacementNote>& notes)
        : from_(from), fromInput_(fromInput), notes_(notes), nodes_(g, to), offsetAt_(to.order.size(), 0) {
        for (size_t s = 0; s < to.order.size(); ++s) orderStep_[to.order[s]] = static_cast<int>(s);
        for (size_t s = 0; s < toInput.size(); ++s) inputStep_[toInput[s]] = static_cast<int>(s);
        // Each placing node's offset, and the offset each buffer is at when a node runs.
        const Layout layout = layoutOf(nodes_, to);
        std::vector<Bytes> at(g.buffers.size(), 0);
        for (size_t s = 0; s < to.order.size(); ++s) {
            const int i = nodes_.indexOf(to.order[s]);
            if (nodes_.places(i)) at[nodes_.moved(i)] = layout.offset[i];
            if (nodes_.moved(i) >= 0) offsetAt_[s] = at[nodes_.moved(i)];
        }
    }

    std::vector<Decision> decisions() const {
        std::vector<Decision> out;
        out.reserve(from_.decisions.size());
        for (const Decision& old : from_.decisions) {
            Decision d = old;
            const NodeId emitted = renewSteps(d);
            for (Candidate& c : d.candidates)
                c.nextUseStep = inputStep_.at(fromInput_.at(static_cast<size_t>(c.nextUseStep)));
            const PlacementNote& note = notes_[static_cast<size_t>(nodes_.indexOf(emitted))];
            if ((d.kind == Decision::Kind::Place || d.kind == Decision::Kind::Reload) && note.moved) {
                d.holes = note.holes;
                d.holesTotal = static_cast<int>(note.holes.size());
                d.reason =
                    "time-aware placement: of the ranges free now and not promised to a buffer placed later, the "
                    "one whose bytes were left earliest in simulated time (cycle " +
                    std::to_string(note.left) + "), ties by best fit";
            }
            out.push_back(std::move(d));
        }
        return byOrderStep(std::move(out));
    }

    std::vector<BriefDecision> briefDecisions() const {
        std::vector<BriefDecision> out = from_.briefDecisions;
        for (BriefDecision& d : out) renewSteps(d);
        return byOrderStep(std::move(out));
    }

private:
    // The new steps and offset of `d`; returns the node it emitted.
    template <typename D>
    NodeId renewSteps(D& d) const {
        const NodeId emitted = from_.order.at(static_cast<size_t>(d.orderStep));
        d.orderStep = orderStep_.at(emitted);
        d.step = inputStep_.at(d.node);
        d.offset = offsetAt_[static_cast<size_t>(d.orderStep)];
        return emitted;
    }
    template <typename D>
    static std::vector<D> byOrderStep(std::vector<D> ds) {
        std::stable_sort(ds.begin(), ds.end(), [](const D& a, const D& b) { return a.orderStep < b.orderStep; });
        return ds;
    }

    const Plan& from_;
    const Order& fromInput_;
    const std::vector<PlacementNote>& notes_;
    const PlanNodes nodes_;
    std::unordered_map<NodeId, int> orderStep_, inputStep_;
    std::vector<Bytes> offsetAt_;  // of the buffer a placing/releasing node moves
};

// Technique retime: `input` with the nodes at positions [first, first + width) put in the order
// of their simulated start (`startOf`, by node index; ties: their order in `input`), the others
// kept where they are, as close to that as an order's rules allow (edges; a buffer's ALLOC before
// its users before its FREE): each next node is, of those whose predecessors are all placed,
// the one of smallest key. Outside the window the key is the position, inside it the start.
Order retimedWindow(const Graph& g, const Order& input, const std::vector<Cycles>& startOf, int first, int width) {
    const int n = static_cast<int>(g.nodes.size());
    constexpr std::int64_t kBefore = -(std::int64_t{1} << 62), kAfter = std::int64_t{1} << 61;
    std::vector<std::int64_t> key(n);
    std::vector<int> position(n);
    for (int p = 0; p < n; ++p) {
        const int v = g.nodeIndex.at(input[p]);
        position[v] = p;
        key[v] = p < first ? kBefore + p : p >= first + width ? kAfter + p : startOf[v];
    }
    std::vector<std::vector<int>> after(n);
    std::vector<int> waiting(n, 0);
    auto link = [&](int from, int to) {
        after[from].push_back(to);
        ++waiting[to];
    };
    for (const auto& [from, to] : g.edges) link(from, to);
    for (const Buffer& b : g.buffers) {
        link(b.allocNode, b.freeNode);
        for (int u : b.users) link(b.allocNode, u), link(u, b.freeNode);
    }
    using Entry = std::tuple<std::int64_t, int, int>;  // key, position, node
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    for (int v = 0; v < n; ++v)
        if (waiting[v] == 0) ready.push({key[v], position[v], v});
    Order out;
    out.reserve(n);
    while (!ready.empty()) {
        const int v = std::get<2>(ready.top());
        ready.pop();
        out.push_back(g.nodes[v].id);
        for (int s : after[v])
            if (--waiting[s] == 0) ready.push({key[s], position[s], s});
    }
    return out;
}

// Technique reserve's stretches of `start`'s input order: room kept free in the memory it spills
// the most data from (ties: the first by name), as much as its largest spilled buffer there, from
// the step where one of its spills there writes out (the spills at each eighth of them by step,
// kReserveStretches, the latest first) to the step after its last reload there: where loads wait
// for bytes, since room over the whole order costs far more data (docs/timing.md, "reserve").
// None for a policy that cannot take a reserve.
constexpr int kReserveStretches = 8;
constexpr int kReservePatience = 2;

std::vector<RoomReserve> reserveStretches(const Graph& g, const Plan& start) {
    const std::vector<PolicyInfo> policies = policyList();
    const bool takesReserve = std::any_of(policies.begin(), policies.end(),
                                          [&](const PolicyInfo& p) { return p.name == start.policy && p.forceable; });
    if (!takesReserve || start.spills.empty()) return {};
    std::map<std::string, Bytes> moved;
    for (const Spill& sp : start.spills) moved[sp.type] += spillTrafficBytes(g.buffer(sp.buf));
    const std::string type = std::max_element(moved.begin(), moved.end(), [](const auto& a, const auto& b) {
                                 return a.second < b.second;
                             })->first;
    // The input step of each position of the plan's order: how many input nodes come before it.
    std::vector<int> inputStep(start.order.size() + 1, 0);
    for (size_t p = 0; p < start.order.size(); ++p)
        inputStep[p + 1] = inputStep[p] + (g.nodeIndex.contains(start.order[p]) ? 1 : 0);
    std::vector<int> outs;
    Bytes room = 0;
    int lastIn = 0;
    for (const Spill& sp : start.spills)
        if (sp.type == type) {
            outs.push_back(inputStep[static_cast<size_t>(sp.outStep)]);
            lastIn = std::max(lastIn, inputStep[static_cast<size_t>(sp.inStep)]);
            room = std::max(room, sp.size);
        }
    std::sort(outs.begin(), outs.end());
    std::vector<RoomReserve> out;  // the latest first
    for (int k = kReserveStretches - 1; k > 0; --k) {
        const int from = outs[outs.size() * static_cast<size_t>(k) / kReserveStretches];
        if (out.empty() || out.back().from != from) out.push_back({type, room, from, lastIn + 1});
    }
    return out;
}

// The least data a plan of `order` keeping a stretch's room free may move: the order's traffic
// bound with the stretch's memory bounded again under its lowered budget. That memory's problem
// is built once for every stretch (reserveStretches gives them all in one memory); a relaxation
// each, cheap beside planning the order.
class StretchBound {
public:
    StretchBound(const Graph& g, const Order& order, const Capacities& caps, const std::string& type)
        : capacity_(caps.at(type)), problems_(residencyProblems(g, order, {{type, capacity_}})) {
        const TrafficBound bound = trafficLowerBound(g, order, caps);
        others_ = bound.total - (problems_.empty() ? 0 : bound.byType.at(type));
    }
    Bytes of(const RoomReserve& r) const {
        if (problems_.empty()) return others_;
        const std::vector<Bytes>& forced = problems_.front().forced;
        std::vector<Bytes> budget(forced.size(), capacity_);
        for (int s = std::max(0, r.from); s < r.to && s < static_cast<int>(budget.size()); ++s)
            budget[s] = std::max<Bytes>(0, capacity_ - r.room);
        return others_ + relaxResidency(problems_.front(), budget, boundFlowWork(budget.size())).traffic;
    }

private:
    Bytes capacity_;
    std::vector<ResidencyProblem> problems_;  // the stretch's memory's, or none when nothing is in it
    Bytes others_ = 0;                        // the order's bound in the other memories
};

// A stretch as the cycles objective's steps name it: by the nodes where it begins and ends (the
// first node after it), which the plan shown has too; its steps are those of `order`, which the
// plan's rescheduling renumbers.
std::string stretchLabel(const Order& order, const RoomReserve& r) {
    const auto node = [&](int step) { return "node " + std::to_string(order[static_cast<size_t>(step)]); };
    return "reserve " + std::to_string(r.room) + " bytes of " + r.type + " from " + node(r.from) +
           (r.to < static_cast<int>(order.size()) ? " until " + node(r.to) : " to the end");
}

// Technique reserve, in `order` with `policy` (the best start's): room kept free in one memory at
// a time, one that the bytes plan spills from (elsewhere there is room already), as much as its
// smallest, then its largest spilled buffer; then over `stretches` (reserveStretches of the best
// start), the latest first: each starts earlier and keeps the room longer than the one before, so
// the first that may move more than the margin allows ends them, and so do kReservePatience in a
// row that do not finish sooner. `tryStart(plan, order, label)` improves each and returns whether
// it was kept. Returns whether the margin ended the stretches.
template <typename TryStart>
bool reserveStarts(const Graph& g, const Capacities& caps, const CostModel& cost, const Plan& bytesPlan,
                   const std::string& policy, const std::vector<RoomReserve>& stretches, const Order& order,
                   Bytes allowed, ResidencyMemo& memo, TryStart tryStart) {
    std::map<std::string, std::pair<Bytes, Bytes>> spilled;  // memory -> (smallest, largest)
    for (const Spill& sp : bytesPlan.spills) {
        auto [it, fresh] = spilled.emplace(sp.type, std::make_pair(sp.size, sp.size));
        it->second = {std::min(it->second.first, sp.size), std::max(it->second.second, sp.size)};
    }
    for (const auto& [type, sizes] : spilled)
        for (Bytes room : std::set<Bytes>{sizes.first, sizes.second}) {
            Capacities less = caps;
            less[type] -= room;
            try {
                validateCapacities(g, less);
            } catch (const InputError&) {
                continue;  // a node's own buffers no longer fit the smaller memory
            }
            tryStart(planSpills(g, order, PlanOptions{less, cost, policy, {}, nullptr, &memo}), order,
                     "reserve " + std::to_string(room) + " bytes of " + type);
        }
    if (stretches.empty()) return false;
    const StretchBound bound(g, order, caps, stretches.front().type);
    int notSooner = 0;
    for (const RoomReserve& r : stretches) {
        if (notSooner == kReservePatience) break;
        if (bound.of(r) > allowed) return true;
        PlanOptions kept{caps, cost, policy, {}, nullptr, &memo};
        kept.reserve = r;
        const bool sooner = tryStart(planSpills(g, order, kept), order, stretchLabel(order, r));
        notSooner = sooner ? 0 : notSooner + 1;
    }
    return false;
}

// Technique stagger: the orders of the kStaggerBases plans that finished soonest before it (as
// they run, staggered: distinct once staggered), the starts kept so far being the likeliest to
// gain from it.
constexpr size_t kStaggerBases = 2;

// The staggered orders (staggeredOrder) of the plans that finished soonest, distinct, at most
// `count`, soonest first (ties: the first added); none added after close().
class SoonestOrders {
public:
    SoonestOrders(const Graph& g, const Capacities& caps, size_t count) : g_(g), caps_(caps), count_(count) {}
    // `timedOrder()`: the plan's order as it runs, made only when the plan may be kept.
    template <typename TimedOrder>
    void add(Cycles total, TimedOrder timedOrder) {
        if (closed_ || (orders_.size() == count_ && total >= orders_.back().first)) return;
        if (!staggered_) staggered_.emplace(g_, caps_);
        Order order = staggered_->build(staggered_->sequenceOf(timedOrder()), false);
        const auto same =
            std::find_if(orders_.begin(), orders_.end(), [&](const auto& o) { return o.second == order; });
        if (same != orders_.end()) {
            same->first = std::min(same->first, total);
        } else {
            orders_.emplace_back(total, std::move(order));
        }
        std::stable_sort(orders_.begin(), orders_.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        if (orders_.size() > count_) orders_.pop_back();
    }
    std::vector<Order> close() {
        closed_ = true;
        std::vector<Order> out;
        for (auto& [total, order] : orders_) out.push_back(std::move(order));
        orders_.clear();
        return out;
    }

private:
    const Graph& g_;
    const Capacities& caps_;
    const size_t count_;
    bool closed_ = false;
    std::optional<StaggeredOrders> staggered_;  // made at the first add: its units are found once
    std::vector<std::pair<Cycles, Order>> orders_;
};

// Technique stagger with one staggered `order`: planned by every policy, then with technique
// reserve's room kept free over the whole order by the policy whose plan finished soonest (of a
// staggered order, one policy's plan may finish far sooner than another's).
// `tryStart(plan, order, label)` improves a start and returns whether it was kept. Returns whether
// one was kept; sets `marginLimited` when the margin refused one.
template <typename TryStart>
bool staggerStarts(const Graph& g, const Capacities& caps, const CostModel& cost, const Plan& bytesPlan,
                   const Order& order, Bytes allowed, ResidencyMemo& memo, Shortener& shortener, TryStart tryStart,
                   bool& marginLimited) {
    if (trafficLowerBound(g, order, caps).total > allowed) {
        marginLimited = true;
        return false;
    }
    bool kept = false;
    std::string fastest;
    Cycles fastestTotal = std::numeric_limits<Cycles>::max();
    for (const PolicyInfo& p : policyList()) {
        if (p.name == "best" || p.textbook) continue;
        const Plan start = planSpills(g, order, PlanOptions{caps, cost, p.name, {}, nullptr, &memo});
        if (extraBytesOf(g, start) > allowed) {
            marginLimited = true;
            continue;
        }
        const std::string label = "stagger, policy " + p.name;
        const Cycles total = shortener.improve(start, order, label).total;  // tryStart meets it in the memo
        if (total < fastestTotal) fastestTotal = total, fastest = p.name;
        kept = tryStart(start, order, label) || kept;
    }
    if (fastest.empty()) return kept;
    if (reserveStarts(g, caps, cost, bytesPlan, fastest, {}, order, allowed, memo,
                      [&](const Plan& start, const Order& o, const std::string& label) {
                          const bool sooner = tryStart(start, o, "stagger, " + label);
                          kept = kept || sooner;
                          return sooner;
                      }))
        marginLimited = true;
    return kept;
}

// `best` as the plan shortenPlan gives, into `out` (whose figures of the bytes plan are set).
void finish(const Graph& g, const Attempt& best, Shortened& out) {
    out.steps = best.steps;
    out.orderSource = best.orderSource;
    const PlanNodes nodes(g, best.base);
    out.plan = planWith(nodes, g, best.base, best.layout);
    out.inputOrder = inputOrderOf(g, out.plan);
    const DecisionRenewal renewal(g, best.base, *best.input, out.plan, out.inputOrder, best.notes);
    out.plan.decisions = renewal.decisions();
    out.plan.briefDecisions = renewal.briefDecisions();
}

// The input nodes in the order `a`'s plan runs them (its layout's order without the spill nodes).
Order timedInputOrder(const Graph& g, const Attempt& a) {
    const PlanNodes nodes(g, a.base);
    Order order;
    order.reserve(g.nodes.size());
    for (int i : a.layout.order)
        if (g.nodeIndex.contains(nodes.id(i))) order.push_back(nodes.id(i));
    return order;
}

// Each input node's simulated start in `a`'s plan, by node index.
std::vector<Cycles> startsOf(const Graph& g, const Attempt& a) {
    const PlanNodes nodes(g, a.base);
    const Timing timing = timingOf(nodes, g, a.layout);
    std::vector<Cycles> start(g.nodes.size(), 0);
    for (size_t p = 0; p < a.layout.order.size(); ++p) {
        const int v = g.nodeIndex.find(nodes.id(a.layout.order[p]));  // spill nodes are not the graph's
        if (v != IdTable::kAbsent) start[v] = timing.nodes[p].start;
    }
    return start;
}

// Technique sequence: a local search over the sequence of units of the best plan's order, when
// that order is a staggered order (technique stagger's). Its first order is that sequence built
// with each beat's buffers freed after the beat (OrderBuilder::buildStaggered's holdFrees); each
// next swaps one unit with the next, in turn from the first: one sweep, as many orders as units.
// Each is planned by the best plan's policy with its loadRoom kept free over the whole order (the
// real capacities when that room leaves a node no space) and, when within the margin, improved
// on the best plan's path of rounds. The swap is kept when the plan finishes no later than the
// sequence's before it (sideways too: the plateaus are wide), the plan when it finishes sooner
// than the best (tryStart). At most opts.sequences orders; no sweep when its orders would have
// more than kSequenceNodes nodes in all (counts).
template <typename TryStart>
void searchSequence(const Graph& g, const Capacities& caps, const CostModel& cost, const CyclesOptions& opts,
                    Bytes allowed, ResidencyMemo& memo, const Attempt& best, Shortener& shortener,
                    std::deque<Order>& kept, TryStart tryStart, bool& marginLimited) {
    const StaggeredOrders orders(g, caps);
    std::vector<int> current = orders.sequenceOf(*best.input);
    const std::int64_t n = static_cast<std::int64_t>(g.nodes.size()), units = static_cast<std::int64_t>(current.size());
    if (units < 2 || units * n > kSequenceNodes) return;  // a sweep cut short would try the first units only
    if (orders.build(current, false) != *best.input) return;
    const std::optional<LoadRoom> room = loadRoom(g, best.base);
    const Capacities roomy = room ? capacitiesWithRoom(g, caps, *room).value_or(caps) : caps;
    const PlanOptions options{roomy, cost, best.base.policy, {}, nullptr, &memo};
    const bool path = best.fitInEveryRound;
    const std::string source = best.orderSource;
    const std::int64_t most = std::min<std::int64_t>(units, opts.sequences);
    Cycles currentTotal = std::numeric_limits<Cycles>::max();
    for (std::int64_t planned = 0; planned < most; ++planned) {
        std::vector<int> next = current;
        if (planned > 0) std::swap(next[planned - 1], next[planned]);
        kept.push_back(orders.build(next, true));
        const Plan plan = planSpills(g, kept.back(), options);
        if (extraBytesOf(g, plan) > allowed) {
            marginLimited = true;
            kept.pop_back();
            continue;
        }
        const std::string label = "sequence, order " + std::to_string(planned + 1);
        const Cycles total = shortener.improve(plan, kept.back(), label, path).total;  // tryStart meets it in the memo
        if (total <= currentTotal) current = std::move(next), currentTotal = total;
        if (!tryStart(plan, kept.back(), label, source, path)) kept.pop_back();
    }
}

// Technique retime's passes: windows of one width each, every half width from the first, and
// again from the first after the last; each window's order is planned by the best plan's policy
// and, when it stays within the margin, improved (on the path of rounds the best plan came from)
// and kept when it finishes sooner; the next windows are taken from the kept order. A pass stops
// after kRetimePatience windows planned since the last kept, a whole pass of windows since then,
// or before a window would take the pass's work past kRetimePassWork. The next pass, with the
// next width, runs only after a pass that kept a window: windows of another width cross the
// edges of the last pass's windows, so a plan one width cannot improve another may. All stop after
// opts.retimes windows planned or before a window would take their work past kRetimeWork (counts).
constexpr std::array<int, 4> kRetimeWidths{32, 64, 32, 16};

template <typename TryStart>
void retime(const Graph& g, const Capacities& caps, const CostModel& cost, const CyclesOptions& opts, Bytes allowed,
            ResidencyMemo& memo, const Attempt& best, std::deque<Order>& kept, TryStart tryStart, bool& marginLimited) {
    const int n = static_cast<int>(g.nodes.size());
    const std::int64_t nodeWork = kRetimeNodeWork * n;
    std::int64_t work = 0;
    int planned = 0;
    bool keptInPass = true;
    for (size_t pass = 0; keptInPass; ++pass) {
        keptInPass = false;
        const int width = kRetimeWidths[pass % kRetimeWidths.size()];
        const int windows = n / (width / 2) + 1;
        std::vector<Cycles> start = startsOf(g, best);
        int plannedSinceKept = 0, sinceKept = 0;
        const std::int64_t passStart = work;
        for (int first = 0; plannedSinceKept < kRetimePatience && sinceKept < windows;
             first = first + width / 2 < n ? first + width / 2 : 0) {
            if (planned >= opts.retimes || work + nodeWork > kRetimeWork) return;
            if (work - passStart + nodeWork > kRetimePassWork) break;
            ++sinceKept;
            Order order = retimedWindow(g, *best.input, start, first, width);
            if (order == *best.input) continue;
            ++planned, ++plannedSinceKept;
            work += nodeWork;
            Plan plan = planSpills(g, order, PlanOptions{caps, cost, best.base.policy, {}, &work, &memo});
            if (extraBytesOf(g, plan) > allowed) {
                marginLimited = true;
                continue;
            }
            kept.push_back(std::move(order));
            const Cycles before = best.total;
            tryStart(plan, kept.back(), "retime, window of " + std::to_string(width) + " at " + std::to_string(first),
                     best.orderSource, best.fitInEveryRound);
            if (best.total < before) {
                start = startsOf(g, best);
                plannedSinceKept = sinceKept = 0;
                keptInPass = true;
            } else {
                kept.pop_back();
            }
        }
    }
}

}  // namespace

Shortened shortenPlan(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                      const Plan& plan, const CyclesOptions& opts, const std::vector<OrderStart>& others,
                      CyclesMemo* given) {
    CyclesMemo own;
    CyclesMemo::Parts& memo = (given ? *given : own).parts();
    Shortened out;
    out.bytesPlanExtraBytes = extraBytesOf(g, plan);
    out.bytesPlanCycles = simulateTiming(g, plan).total;
    Shortener shortener(g, caps, opts, memo.improved);
    const Bytes allowed = opts.allowedBytes(out.bytesPlanExtraBytes);
    Attempt best = shortener.improve(plan, inputOrder, "bytes plan");
    std::int64_t improved = 0;
    Cycles made = -1;  // the cycles of the last plan offered and made
    auto tell = [&] {
        if (opts.progress) opts.progress(++improved, best.total);
        if (!opts.offerBest || best.total == made) return;
        opts.offerBest([&] {
            made = best.total;
            Shortened sooner = out;
            finish(g, best, sooner);
            return sooner;
        });
    };
    tell();
    // The plans that finished soonest before technique stagger, their orders as they run.
    SoonestOrders soonest(g, caps, kStaggerBases);
    const bool stagger = !isHugeGraph(g.nodes.size()) && opts.enabled(CyclesTechnique::Stagger);
    if (stagger) soonest.add(best.total, [&] { return timedInputOrder(g, best); });
    // Another start: improved, and kept when it finishes sooner; returns whether it was kept.
    auto tryStart = [&](const Plan& start, const Order& input, const std::string& label, const std::string& source = "",
                        std::optional<bool> path = std::nullopt) {
        const Bytes moved = extraBytesOf(g, start);
        if (moved > allowed) {
            out.marginLimited = true;
            return false;
        }
        Attempt a = shortener.improve(start, input, label, path);
        a.orderSource = source;
        if (stagger) soonest.add(a.total, [&] { return timedInputOrder(g, a); });
        const bool sooner = a.total < best.total;
        if (sooner) {
            a.steps.push_back(label + ": " + std::to_string(best.total) + " -> " + std::to_string(a.total) +
                              " cycles, " + std::to_string(moved) + " bytes moved");
            best = std::move(a);
        }
        tell();
        return sooner;
    };
    const bool replan = !isHugeGraph(g.nodes.size());
    std::deque<Order> kept;  // the orders techniques stagger and retime kept: best.input may point here
    if (replan && opts.enabled(CyclesTechnique::Policies))
        for (const PolicyInfo& p : policyList())  // the textbook rules are for teaching, not starts
            if (p.name != "best" && p.name != plan.policy && !p.textbook)
                tryStart(planSpills(g, inputOrder, PlanOptions{caps, cost, p.name, {}, nullptr, &memo.residency}),
                         inputOrder, "policy " + p.name);
    if (opts.enabled(CyclesTechnique::Orders))
        for (const OrderStart& other : others) tryStart(other.plan, other.order, "order " + other.label, other.source);
    if (replan && opts.enabled(CyclesTechnique::Reserve)) {
        // Copies, as each start kept replaces `best`.
        const std::string source = best.orderSource, policy = best.base.policy;
        const std::vector<RoomReserve> stretches = reserveStretches(g, best.base);
        if (reserveStarts(g, caps, cost, plan, policy, stretches, *best.input, allowed, memo.residency,
                          [&](const Plan& start, const Order& order, const std::string& label) {
                              return tryStart(start, order, label, source);
                          }))
            out.marginLimited = true;
    }
    if (stagger)
        for (Order& order : soonest.close()) {
            kept.push_back(std::move(order));
            auto start = [&, source = best.orderSource](const Plan& p, const Order& o, const std::string& label) {
                return tryStart(p, o, label, source);
            };
            if (!staggerStarts(g, caps, cost, plan, kept.back(), allowed, memo.residency, shortener, start,
                               out.marginLimited))
                kept.pop_back();
        }
    if (stagger && opts.enabled(CyclesTechnique::Sequence))
        searchSequence(g, caps, cost, opts, allowed, memo.residency, best, shortener, kept, tryStart,
                       out.marginLimited);
    if (replan && opts.enabled(CyclesTechnique::Retime))
        retime(g, caps, cost, opts, allowed, memo.residency, best, kept, tryStart, out.marginLimited);
    if (opts.enabled(CyclesTechnique::Swaps)) shortener.swap(best);
    finish(g, best, out);
    return out;
}

}  // namespace spillway
