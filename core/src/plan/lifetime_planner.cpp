// Policies "lifetime" and "residency": plan with the whole order in view, in two phases per
// memory.
//   1. Residency: who stays resident between uses.
//      - lifetime: walk the order keeping the bytes resident within capacity; when a node's
//        buffers need room, write out the buffers whose next use is furthest, counting COPY_IN
//        buffers (free to write out) at double distance, as the seed's score does; then keep back
//        any victim the room did not need after all.
//      - residency: the optimal choice for the order (spillway/residency.h: a min-cost flow,
//        exact when the memory's buffers share one size; else branch and bound on small
//        problems, the flow's integral part completed greedily and improved by swaps on large
//        ones). A written-out gap is written out right after its use and comes back just before
//        the next.
//      Either way every buffer's lifetime becomes a few resident stretches.
//   2. Placement: pack the stretches (stretch_packing.h; offline, so no fragmentation surprise).
//      When the greedy packing fails and nothing was written out, the exact packer (packing.h)
//      searches for a packing. Otherwise phase 1 runs again with less room over the steps of the
//      stretch that found no gap, leaving slack for fragmentation there. lifetime cuts deeper at
//      each repeat and, only if that cannot go on and the exact packer finds nothing either,
//      falls back to policy seed; residency keeps tightening by even cuts, widening the tightened
//      steps when the failing ones have no room left to give, and falls back only when every
//      step of the memory holds nothing but its node's own buffers and still does not pack.
// The PlanBuilder then replays the decisions as a plan.
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

#include "stretch_packing.h"
#include "plan_builder.h"
#include "policies.h"
#include "spillway/error.h"
#include "spillway/packing.h"
#include "spillway/residency.h"
#include "spillway/scale.h"

namespace spillway {
namespace {

// Search nodes for the exact packer (about 5 microseconds each natively on 50 blocks). The
// packings found on the contest cases took under 2,000 nodes; a search that fails uses all it
// is given, so small memories get a budget in proportion to their blocks (a 46-block memory
// used to burn the full 200,000 nodes, a second natively, on every order it was planned for).
constexpr std::int64_t kExactNodesWithoutSpills = 200000;
constexpr std::int64_t kExactNodesLastTry = 20000;
constexpr std::int64_t kExactNodesPerBlock = 100;
// A search node reads the blocks of its part of the problem, so the budget in nodes is also cut
// to this much work (nodes x blocks), over every memory and try of a plan: a memory of 10^4
// stretches gets under 10^5 nodes, and a plan whose packings have spent it gets no more, since one
// memory left unpacked is the whole plan lost. The contest cases' plans spend under 2 x 10^8.
constexpr std::int64_t kExactPackWork = 500'000'000;
// Policy residency retries until its relaxations, over all the plan's memories, have spent this
// many times the bound's flow work (boundFlowWork), then falls back like lifetime. Four times per
// memory let the default spend 28.7 CPU s on a random graph of 10^4 nodes, mostly in retries that
// fell back to seed; the contest cases' retries spend at most 27,000,000 (Conv_Case0's L1), under
// one bound's 60,000,000 (docs/benchmarks.md).
constexpr std::int64_t kRetryFlows = 1;
// Where nothing is written out a packing means no spill at all: ten times the nodes a block.
// minimalloc's challenging instances as graphs need up to 532 a block (A: 81,929 for 154);
// residency's first stretches keep 100 (1,000 made Conv_Case0's default plan 73% slower in
// CPU time for the same plan).
constexpr std::int64_t kExactNodesPerBlockWithoutSpills = 1000;

// A write-out phase 1 chose, with what the decision log shows of the choice.
struct Eviction {
    int buf;
    std::vector<Scored> shown;  // the strongest candidates, the victims and the furthest next use
    int weighed;                // candidates weighed
    std::vector<int> forBufs;   // the node's buffers that needed the room
    Bytes need;                 // their bytes
    Bytes missing;              // bytes over the budget still to free when this victim was chosen
    Bytes budget;               // the budget at that step (below capacity after a failed packing)
    bool optimal = false;       // chosen by the optimal residency step, not by furthest next use
    int peakStep = -1;          // optimal: the step where keeping it would overflow the most
    int ruleStep = -1;          // a textbook rule: the step it ranked by (next use, last use, placed)
    bool forced = false;        // chosen by the user (PlanOptions::force)
    bool roomKept = false;      // the step is in PlanOptions::reserve's stretch
};

// How phase 1 chooses whom to write out: lifetime's score, the optimum, or a textbook rule.
enum class ResidencyRule { FurthestNextUse, Optimal, Belady, LeastRecentlyUsed, FirstInFirstOut };

bool isTextbook(ResidencyRule rule) { return rule != ResidencyRule::FurthestNextUse && rule != ResidencyRule::Optimal; }

constexpr const char* kForcedReason = "written out here because you chose it; the policy plans the rest around it";

constexpr const char* kOptimalReason =
    "the optimal residency for this order writes it out until its next use: keeping it would cost more elsewhere";
constexpr const char* kOptimalFormula =
    "the residency step for the whole order (docs/policies.md, policy residency): every stretch between two uses "
    "of a buffer either stays resident or is written out, at the buffer's traffic; the choice moving the least "
    "data that keeps each step within capacity";
constexpr const char* kExactPacking = "exact packing";

struct MemoryPlan {
    std::vector<Stretch> stretches;
    std::vector<std::vector<Hole>> gaps;               // per stretch: the gaps its packing weighed
    const char* packOrder = "";                        // the packing order that succeeded, or kExactPacking
    std::map<int, std::vector<Eviction>> evictionsAt;  // step -> in order
    std::int64_t relaxationWork = 0;                   // policy residency: the work its choice spent (a count)

    int spills() const {
        size_t n = 0;
        for (const auto& [step, evictions] : evictionsAt) n += evictions.size();
        return static_cast<int>(n);
    }
};

constexpr const char* kLifetimeFormula =
    "score = distance to next use, halved unless a COPY_IN filled the buffer (the seed's size \u00d7 distance "
    "\u00f7 cost): the highest scores are written out until the bytes missing are covered, then any victim "
    "the room did not need is kept back";

class LifetimePlanner {
public:
    LifetimePlanner(const Graph& g, const Order& order, const PlanOptions& opts, ResidencyRule rule)
        : g_(g), order_(order), opts_(opts), builder_(g, order, opts.cost, opts.capacities), rule_(rule) {
        if (opts.force) forced_ = checkedForce(*opts.force);
    }
    // Its relaxations' work is told to the caller however the planner ends (a plan, no packing,
    // a draft not recorded).
    ~LifetimePlanner() {
        if (opts_.relaxationWork) *opts_.relaxationWork += relaxationWork_;
    }
    LifetimePlanner(const LifetimePlanner&) = delete;
    LifetimePlanner& operator=(const LifetimePlanner&) = delete;

    std::optional<Plan> run() {
        std::optional<std::map<std::string, MemoryPlan>> plans = planMemories();
        if (!plans) return std::nullopt;
        if (forced_ && !forceApplied_)
            forceError("buffer " + std::to_string(opts_.force->buffer) + " is in no memory planned");
        return replay(*plans);
    }

    // Phases 1 and 2 for every memory, or nothing when one of them finds no packing.
    std::optional<std::map<std::string, MemoryPlan>> planMemories() {
        std::map<std::string, MemoryPlan> plans;
        for (const auto& [type, cap] : opts_.capacities) {
            std::optional<MemoryPlan> p = planMemory(type, cap);
            if (!p) return std::nullopt;
            plans.emplace(type, std::move(*p));
        }
        // buffersIn's index of the last memory is not needed by the replay.
        neededType_.reset();
        std::vector<int>().swap(firstNeededAt_);
        std::vector<int>().swap(neededAt_);
        return plans;
    }

    // The data the replay of `plans` moves: each write-out becomes one spill.
    Bytes extraBytes(const std::map<std::string, MemoryPlan>& plans) const {
        Bytes bytes = 0;
        for (const auto& [type, p] : plans)
            for (const auto& [step, evictions] : p.evictionsAt)
                for (const Eviction& e : evictions) bytes += spillTrafficBytes(g_.buffers[e.buf]);
        return bytes;
    }

    // Records the plan of planMemories()' choice.
    Plan record(std::map<std::string, MemoryPlan>& plans) { return replay(plans); }

    // After run() found no plan, the builder: nothing was recorded into it (only replay records),
    // so the fallback records into it instead of building another.
    PlanBuilder&& unusedBuilder() { return std::move(builder_); }

private:
    struct Forced {
        int step;
        int buf;  // buffer index
    };

    [[noreturn]] static void forceError(const std::string& message) {
        ErrorPlace where;
        where.field = "force";
        throw InputError("forced spill: " + message, std::move(where));
    }

    Forced checkedForce(const ForcedSpill& f) const {
        if (f.step < 0 || f.step >= builder_.steps())
            forceError("step " + std::to_string(f.step) + " is not in the order (0.." +
                       std::to_string(builder_.steps() - 1) + ")");
        if (!g_.bufferIndex.contains(f.buffer)) forceError("no buffer " + std::to_string(f.buffer) + " in the graph");
        return {f.step, g_.bufferIndex.at(f.buffer)};
    }

    [[noreturn]] void forcedNotIdle() const {
        forceError("buffer " + std::to_string(g_.buffers[forced_->buf].id) + " at step " +
                   std::to_string(forced_->step) + ": it is not resident there, or the node at that step uses it");
    }

    // Policy residency: the gap of the forced buffer over the forced step, taken out of `problem`
    // (so that the choice never keeps it).
    Gap takeForcedGap(ResidencyProblem& problem) {
        auto it = std::find_if(problem.gaps.begin(), problem.gaps.end(), [&](const Gap& gap) {
            return gap.buf == forced_->buf && gap.from < forced_->step && forced_->step < gap.to;
        });
        if (it == problem.gaps.end()) forcedNotIdle();
        const Gap gap = *it;
        problem.gaps.erase(it);
        forceApplied_ = true;
        return gap;
    }

    // The buffers of `type` the node at `step` uses. Types are compared once per buffer, here,
    // not per step: this runs for every step of every retry.
    IndexRange buffersIn(const std::string& type, int step) {
        if (!neededType_ || type != *neededType_) {
            neededType_ = type;
            std::vector<char> inType(g_.buffers.size());
            for (size_t b = 0; b < g_.buffers.size(); ++b) inType[b] = g_.buffers[b].type == type;
            firstNeededAt_.assign(1, 0);
            firstNeededAt_.reserve(builder_.steps() + 1);
            neededAt_.clear();
            for (int s = 0; s < builder_.steps(); ++s) {
                for (int b : builder_.buffersAt(s))
                    if (inType[b]) neededAt_.push_back(b);
                firstNeededAt_.push_back(static_cast<int>(neededAt_.size()));
            }
        }
        const int* flat = neededAt_.data();
        return {flat + firstNeededAt_[step], flat + firstNeededAt_[step + 1]};
    }

    // Phase 1, then 2; where packing fails, phase 1 runs again with less room over the failed
    // stretch's steps (never less than those steps' nodes need).
    std::optional<MemoryPlan> planMemory(const std::string& type, Bytes capacity) {
        std::vector<Bytes> floor(builder_.steps(), 0);
        Bytes smallest = capacity;
        for (int s = 0; s < builder_.steps(); ++s)
            for (int b : buffersIn(type, s)) {
                floor[s] += g_.buffers[b].size;
                smallest = std::min(smallest, g_.buffers[b].size);
            }
        std::optional<ResidencyProblem> problem;
        std::optional<Gap> forcedGap;
        if (rule_ == ResidencyRule::Optimal) {
            std::vector<ResidencyProblem> one = residencyProblems(g_, order_, {{type, capacity}});
            if (one.empty()) return MemoryPlan{};
            problem = std::move(one.front());
            if (forced_ && g_.buffers[forced_->buf].type == type) forcedGap = takeForcedGap(*problem);
        }
        // lifetime: each retry replans and repacks the memory, so bound the work on large graphs;
        // its cut is even for the first evenRetries, then doubles at each repeat on a step, so
        // that the loop ends before `retries` instead of falling back to seed. residency cuts
        // evenly and widens instead, until nothing is left to give or its relaxations, over all
        // the plan's memories, have spent kRetryFlows times the bound's flow work (each retry
        // solves one: a random graph of 10^4 nodes took 815 retries of 0.13 s each). On huge graphs 2 (8 tries):
        // a random graph of 10^5 nodes failed all 33 tries and fell back to seed anyway, 3.6 of
        // its 6 CPU seconds of planning; the matmuls pack within 2 (docs/benchmarks.md).
        const bool optimal = rule_ == ResidencyRule::Optimal;
        const int evenRetries = optimal                        ? std::numeric_limits<int>::max()
                                : builder_.steps() < 20000     ? 64
                                : isHugeGraph(g_.nodes.size()) ? 2
                                                               : 8;
        const int retries = optimal ? std::numeric_limits<int>::max() : 4 * evenRetries;
        const Bytes shrink = std::max(capacity / 64, smallest);
        std::vector<Bytes> budget(builder_.steps(), capacity);
        keepRoom(type, floor, budget);
        std::vector<int> repeats(builder_.steps(), 0);  // cuts past the even ones, per step
        // residency, and lifetime on huge graphs: every stretch the first packing order leaves out
        // (see below).
        const bool countUnplaced = optimal || isHugeGraph(g_.nodes.size());
        std::vector<Stretch> unplaced;
        const std::int64_t retryWork = kRetryFlows * boundFlowWork(builder_.steps());
        std::int64_t& relaxationWork = relaxationWork_;  // shared by the plan's memories
        for (int attempt = 0;; ++attempt) {
            // Branch and bound on the first attempt only: a retry is about fragmentation anyway.
            MemoryPlan p =
                problem ? optimalResidency(*problem, budget, attempt == 0, forcedGap) : chooseResidency(type, budget);
            relaxationWork += p.relaxationWork;
            PackingNotes notes;
            unplaced.clear();
            // The gaps each stretch weighed are for the decisions' reasons: a huge graph, whose
            // decisions are brief, does not pack a second time to note them.
            std::optional<Stretch> failed =
                packStretches(p.stretches, capacity, builder_.keepsReasonsFor(p.spills()) ? &notes : nullptr,
                              countUnplaced ? &unplaced : nullptr);
            if (!failed) {
                p.gaps = std::move(notes.gaps);
                p.packOrder = notes.order;
                return p;
            }
            // Nothing written out: a packing means no spill at all, worth a long search; so are
            // residency's first stretches, the optimum for the order (on Conv_Case0 they pack
            // exactly and never greedily). Elsewhere the greedy orders and the cuts do better for
            // the time (measured on Conv_Case0, docs/policies.md); the last try gets a short search.
            const bool noSpill = p.evictionsAt.empty(), longSearch = noSpill || (optimal && attempt == 0);
            // Each retry makes room around one left-out stretch: when the first packing order leaves
            // out more stretches at the first try than there are retries, they will not all be
            // fixed, and lifetime gives up at once (a random graph of 10^5 nodes left 837 to 843 of
            // L0A's 13,579 stretches out at each of its 9 tries, then failed its exact packing too:
            // docs/policies.md). Not when nothing was written out: that exact packing means no spill.
            if (!optimal && countUnplaced && attempt == 0 && !noSpill && unplaced.size() > static_cast<size_t>(retries))
                return std::nullopt;
            const bool lastTry = attempt == retries || relaxationWork >= retryWork, exact = longSearch || lastTry;
            if (exact && packExactly(p, capacity, longSearch ? kExactNodesWithoutSpills : kExactNodesLastTry,
                                     noSpill ? kExactNodesPerBlockWithoutSpills : kExactNodesPerBlock))
                return p;
            if (lastTry) return std::nullopt;
            // residency likewise, with the retries its work budget affords at the first relaxation's
            // work: on a random graph of 10^4 nodes (`spillway generate random 3572`) the schedule
            // order's first packing left 38 of L0A's 1,239 stretches out, its 24 retries still 31 to
            // 38 each, and it fell back to seed (docs/benchmarks.md). After its exact packing failed,
            // so the plan is the one the last try would have made.
            if (optimal && attempt == 0 && !noSpill &&
                unplaced.size() > affordableRetries(relaxationWork, p.relaxationWork, retryWork))
                return std::nullopt;
            // Tighten the failed stretch's steps; where they have nothing left to give, widen.
            bool tightened = false;
            for (int margin = 0; !tightened && margin <= 2 * builder_.steps(); margin = 2 * margin + 1) {
                if (!optimal && margin > 0) break;
                const int first = std::max(0, static_cast<int>(failed->from / 4) - margin);
                const int last = std::min(static_cast<int>(failed->to / 4) + margin, builder_.steps() - 1);
                for (int s = first; s <= last; ++s) {
                    const Bytes cut = attempt < evenRetries ? shrink : shrink << std::min(repeats[s], 20);
                    const Bytes lower = std::max(floor[s], budget[s] - cut);
                    if (lower == budget[s]) continue;
                    tightened = true;
                    budget[s] = lower;
                    if (attempt >= evenRetries) ++repeats[s];
                }
            }
            if (!tightened) {  // the failed stretch's steps hold only what their nodes need
                if (!exact && packExactly(p, capacity, kExactNodesLastTry, kExactNodesPerBlock)) return p;
                return std::nullopt;
            }
        }
    }

    // Policy residency's retries left once its relaxations have spent `spent` of `retryWork`, each
    // assumed to cost as much as the first try's (`firstWork`).
    static size_t affordableRetries(std::int64_t spent, std::int64_t firstWork, std::int64_t retryWork) {
        return static_cast<size_t>(std::max<std::int64_t>(0, retryWork - spent) / std::max<std::int64_t>(1, firstWork));
    }

    // When the greedy packing fails: the exact packer (packing.h) within `nodes` search nodes and
    // at most `perBlock` a block. Sets every offset and returns true when it finds a packing.
    bool packExactly(MemoryPlan& plan, Bytes capacity, std::int64_t nodes, std::int64_t perBlock) {
        std::vector<Stretch>& stretches = plan.stretches;
        packing::Problem problem;
        problem.capacity = capacity;
        for (const Stretch& s : stretches) problem.blocks.push_back({s.from, s.to, s.size, 1, {}});
        packing::Options options;
        const std::int64_t blocks = std::max<std::int64_t>(1, static_cast<std::int64_t>(stretches.size()));
        options.budget = std::min({nodes, perBlock * blocks, exactPackWorkLeft_ / blocks});
        // Region probes pay off over long searches; within these budgets their nodes are missed:
        // minimalloc's A as a graph spilled 52 times with them, none without (docs/packing.md).
        options.disabled.push_back(packing::Technique::RegionProbe);
        const packing::Result r = packing::pack(problem, options);
        exactPackWorkLeft_ -= std::min(exactPackWorkLeft_, r.stats.nodes * blocks);
        if (r.verdict != packing::Verdict::Fits) return false;
        for (size_t i = 0; i < stretches.size(); ++i) stretches[i].offset = r.offsets[i];
        if (builder_.keepsReasonsFor(plan.spills())) plan.gaps = gapsAround(stretches, capacity);
        plan.packOrder = kExactPacking;
        return true;
    }

    // Phase 1, policy residency: the optimal choice of gaps, as stretches and write-outs; a forced
    // gap (not in `problem`) written out besides.
    MemoryPlan optimalResidency(const ResidencyProblem& problem, const std::vector<Bytes>& budget, bool exact,
                                const std::optional<Gap>& forcedGap) {
        ResidencyEffort effort;
        if (!exact) effort.exactNodes = 0;
        // The relaxation within the bound's budget: on huge graphs the greedy's choice instead.
        effort.flowWork = boundFlowWork(problem.forced.size());
        ResidencyChoice choice = opts_.residencyMemo ? opts_.residencyMemo->choose(problem, budget, effort)
                                                     : spillway::chooseResidency(problem, budget, effort);
        std::vector<char>& keep = choice.keep;
        const std::vector<Bytes> load = keepBack(problem, budget, keep);
        std::vector<std::vector<const Gap*>> outGaps(g_.buffers.size());
        for (size_t i = 0; i < problem.gaps.size(); ++i)
            if (!keep[i]) outGaps[problem.gaps[i].buf].push_back(&problem.gaps[i]);
        if (forcedGap) outGaps[forcedGap->buf].push_back(&*forcedGap);
        MemoryPlan plan;
        std::vector<const Gap*> written;  // the write-outs in the order they are recorded
        for (int b : buffersOfMemory(problem.type)) {
            const Bytes size = g_.buffers[b].size;
            Time from = nodeTime(stepOf(g_.buffers[b].allocNode));
            std::sort(outGaps[b].begin(), outGaps[b].end(),
                      [](const Gap* x, const Gap* y) { return x->from < y->from; });
            for (const Gap* gap : outGaps[b]) {
                plan.stretches.push_back({b, from, outTime(gap->from + 1), size});
                written.push_back(gap);
                from = inTime(gap->to);
            }
            plan.stretches.push_back({b, from, freeTime(stepOf(g_.buffers[b].freeNode)), size});
        }
        std::vector<Eviction> explained = explainOptimal(problem, budget, keep, load, written);
        for (size_t i = 0; i < written.size(); ++i) {
            explained[i].forced = forcedGap && written[i] == &*forcedGap;
            plan.evictionsAt[written[i]->from + 1].push_back(std::move(explained[i]));
        }
        for (auto& [step, evictions] : plan.evictionsAt)
            std::sort(evictions.begin(), evictions.end(),
                      [](const Eviction& x, const Eviction& y) { return x.buf < y.buf; });
        plan.relaxationWork = choice.work;
        return plan;
    }

    // Keeps back every written-out gap that fits after all (largest traffic first), so that each
    // write-out left is needed somewhere in its gap. Returns the bytes resident per step.
    static std::vector<Bytes> keepBack(const ResidencyProblem& problem, const std::vector<Bytes>& budget,
                                       std::vector<char>& keep) {
        std::vector<Bytes> load = problem.forced;
        for (size_t i = 0; i < problem.gaps.size(); ++i)
            if (keep[i])
                for (int t = problem.gaps[i].from + 1; t < problem.gaps[i].to; ++t) load[t] += problem.gaps[i].size;
        std::vector<size_t> out;
        for (size_t i = 0; i < problem.gaps.size(); ++i)
            if (!keep[i]) out.push_back(i);
        std::stable_sort(out.begin(), out.end(),
                         [&](size_t x, size_t y) { return problem.gaps[x].traffic > problem.gaps[y].traffic; });
        for (size_t i : out) {
            const Gap& gap = problem.gaps[i];
            bool fits = true;
            for (int t = gap.from + 1; t < gap.to && fits; ++t) fits = load[t] + gap.size <= budget[t];
            if (!fits) continue;
            keep[i] = 1;
            for (int t = gap.from + 1; t < gap.to; ++t) load[t] += gap.size;
        }
        return load;
    }

    // Why each gap of `written` is written out: the step inside it where keeping it would overflow
    // the most (its peak), the node's buffers there, and the gaps idle across that step, the
    // written-out ones first, then by bytes x steps held idle per byte writing out would move.
    // Gaps sharing a peak share its ranking, made once by a sweep over the steps: each peak reads
    // only the gaps over it, where ranking every gap of the memory for every write-out would be
    // quadratic on a graph that thrashes.
    std::vector<Eviction> explainOptimal(const ResidencyProblem& problem, const std::vector<Bytes>& budget,
                                         const std::vector<char>& keep, const std::vector<Bytes>& load,
                                         const std::vector<const Gap*>& written) {
        std::vector<Eviction> out;
        std::vector<std::pair<int, size_t>> byPeak;  // (peak, index in written)
        for (const Gap* gap : written) {
            int peak = gap->from + 1;
            for (int t = gap->from + 1; t < gap->to; ++t)
                if (load[t] - budget[t] > load[peak] - budget[peak]) peak = t;
            out.push_back({gap->buf,
                           {},
                           0,
                           {},
                           problem.forced[peak],
                           load[peak] + gap->size - budget[peak],
                           budget[peak],
                           true,
                           peak});
            byPeak.emplace_back(peak, byPeak.size());
        }
        if (!builder_.keepsReasonsFor(static_cast<int>(written.size()))) return out;
        std::sort(byPeak.begin(), byPeak.end());
        std::vector<int> byStart(problem.gaps.size());
        std::iota(byStart.begin(), byStart.end(), 0);
        std::stable_sort(byStart.begin(), byStart.end(),
                         [&](int x, int y) { return problem.gaps[x].from < problem.gaps[y].from; });
        std::vector<int> idle;  // gaps started before the sweep's step, pruned of those ended
        std::vector<int> rankOf(g_.buffers.size(), -1);
        std::vector<Scored> ranked;
        size_t started = 0;
        for (size_t k = 0; k < byPeak.size(); ++k) {
            const int peak = byPeak[k].first;
            if (k == 0 || peak != byPeak[k - 1].first) {
                for (const Scored& c : ranked) rankOf[c.buf] = -1;
                for (; started < byStart.size() && problem.gaps[byStart[started]].from < peak; ++started)
                    idle.push_back(byStart[started]);
                idle.erase(std::remove_if(idle.begin(), idle.end(), [&](int i) { return problem.gaps[i].to <= peak; }),
                           idle.end());
                ranked = rankIdle(problem, keep, idle);
                for (size_t r = 0; r < ranked.size(); ++r) rankOf[ranked[r].buf] = static_cast<int>(r);
            }
            Eviction& e = out[byPeak[k].second];
            for (int b : buffersIn(problem.type, peak)) e.forBufs.push_back(b);
            e.weighed = static_cast<int>(ranked.size());
            const size_t shown = std::min<size_t>(ranked.size(), kShownChoices);
            e.shown.assign(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown));
            if (rankOf[e.buf] >= static_cast<int>(shown)) e.shown.push_back(ranked[rankOf[e.buf]]);
        }
        return out;
    }

    // The gaps `idle` (all over one step) ranked for the decision log: written-out ones first,
    // then by score (bytes x steps held idle, per byte writing out would move), then by index.
    static std::vector<Scored> rankIdle(const ResidencyProblem& problem, const std::vector<char>& keep,
                                        std::vector<int> idle) {
        auto score = [&](int i) {
            const Gap& o = problem.gaps[i];
            // steps times bytes per byte moved (1 or 1/2, exact): bytes times steps passes the
            // 2^53 that a double holds exactly on large buffers
            return static_cast<double>(o.to - o.from) *
                   (static_cast<double>(o.size) / static_cast<double>(std::max<Bytes>(1, o.traffic)));
        };
        std::sort(idle.begin(), idle.end(), [&](int x, int y) {
            if (keep[x] != keep[y]) return keep[y] != 0;
            const double sx = score(x), sy = score(y);
            return sx != sy ? sx > sy : x < y;
        });
        std::vector<Scored> ranked;
        ranked.reserve(idle.size());
        for (int i : idle) ranked.push_back({problem.gaps[i].buf, score(i)});
        return ranked;
    }

    int stepOf(int node) {
        if (stepOf_.empty()) {
            stepOf_.assign(g_.nodes.size(), 0);
            for (int s = 0; s < builder_.steps(); ++s) stepOf_[g_.nodeIndex.at(order_[s])] = s;
        }
        return stepOf_[node];
    }

    std::vector<int> buffersOfMemory(const std::string& type) const {
        std::vector<int> out;
        for (size_t b = 0; b < g_.buffers.size(); ++b)
            if (g_.buffers[b].type == type) out.push_back(static_cast<int>(b));
        return out;
    }

    // PlanOptions::reserve: its memory's budget lowered by the room over its steps, never below
    // what a step's own node uses (a room of 0 bytes or less keeps nothing).
    void keepRoom(const std::string& type, const std::vector<Bytes>& floor, std::vector<Bytes>& budget) const {
        if (!keepsRoom(type)) return;
        const int end = std::min(opts_.reserve->to, builder_.steps());
        for (int s = std::max(0, opts_.reserve->from); s < end; ++s)
            budget[s] = std::max(floor[s], budget[s] - opts_.reserve->room);
    }
    bool keepsRoom(const std::string& type) const {
        return opts_.reserve && opts_.reserve->type == type && opts_.reserve->room > 0;
    }
    bool keepsRoom(const std::string& type, int step) const {
        return keepsRoom(type) && opts_.reserve->from <= step && step < opts_.reserve->to;
    }

    // Phase 1 for one memory under a byte budget per step.
    MemoryPlan chooseResidency(const std::string& type, const std::vector<Bytes>& budget) {
        MemoryPlan plan;
        std::vector<int> open(g_.buffers.size(), -1);      // index of the buffer's open stretch
        std::vector<size_t> cursor(g_.buffers.size(), 0);  // uses already run
        std::vector<int> resident;                         // ascending buffer index
        std::vector<int> incoming;                         // of the step's buffers, those not resident
        std::vector<int> lastNeeded(g_.buffers.size(), -1), placedAt(g_.buffers.size(), -1);  // textbook rules
        Bytes used = 0;
        auto nextUse = [&](int b) { return builder_.uses(b)[cursor[b]]; };
        auto close = [&](int b, Time t) {
            plan.stretches[open[b]].to = t;
            open[b] = -1;
            resident.erase(std::find(resident.begin(), resident.end(), b));
            used -= g_.buffers[b].size;
        };
        for (int s = 0; s < builder_.steps(); ++s) {
            const Node& node = builder_.nodeAt(s);
            const IndexRange needed = buffersIn(type, s);
            incoming.clear();
            Bytes need = 0;
            for (int b : needed)
                if (open[b] < 0) {
                    incoming.push_back(b);
                    need += g_.buffers[b].size;
                }
            if (forced_ && forced_->step == s && g_.buffers[forced_->buf].type == type) {
                const int b = forced_->buf;
                if (open[b] < 0 || std::find(needed.begin(), needed.end(), b) != needed.end()) forcedNotIdle();
                close(b, outTime(s));
                Eviction e{b, {}, 0, {}, 0, 0, budget[s]};
                e.forced = true;
                plan.evictionsAt[s].push_back(std::move(e));
                forceApplied_ = true;
            }
            if (used + need > budget[s]) {
                const Bytes excess = used + need - budget[s];
                for (Eviction& e : chooseVictims(resident, needed, s, excess, nextUse, lastNeeded, placedAt)) {
                    close(e.buf, outTime(s));
                    if (builder_.keepsReasons()) e.forBufs = incoming;
                    e.need = need;
                    e.budget = budget[s];
                    e.roomKept = keepsRoom(type, s);
                    plan.evictionsAt[s].push_back(std::move(e));
                }
            }
            for (int b : needed) lastNeeded[b] = s;
            for (int b : incoming) {
                placedAt[b] = s;
                open[b] = static_cast<int>(plan.stretches.size());
                plan.stretches.push_back({b, node.isAlloc() ? nodeTime(s) : inTime(s), 0, g_.buffers[b].size});
                resident.insert(std::lower_bound(resident.begin(), resident.end(), b), b);
                used += g_.buffers[b].size;
            }
            if (node.isFree() && !needed.empty()) close(needed.front(), freeTime(s));
            if (!node.isAlloc())
                for (int b : needed) ++cursor[b];
        }
        return plan;
    }

    // The step a candidate ranks by under the rule, and its key (the highest is written out first):
    // lifetime, the distance to its next use (COPY_IN buffers at double distance); belady, its
    // next use; lru, the step it was last needed; fifo, the step it was placed (the oldest first).
    template <typename NextUse>
    std::pair<int, std::int64_t> ruleKey(int b, int step, NextUse&& nextUse, const std::vector<int>& lastNeeded,
                                         const std::vector<int>& placedAt) const {
        switch (rule_) {
            case ResidencyRule::Belady: return {nextUse(b), nextUse(b)};
            case ResidencyRule::LeastRecentlyUsed: return {lastNeeded[b], -std::int64_t{lastNeeded[b]}};
            case ResidencyRule::FirstInFirstOut: return {placedAt[b], -std::int64_t{placedAt[b]}};
            default: {
                const int next = nextUse(b);
                return {next, std::int64_t{std::max(next - step, 1)} * (g_.buffers[b].hasCopyIn ? 2 : 1)};
            }
        }
    }

    // The highest keys first until the room is made; lifetime then keeps back, least valuable
    // victim first, those the room did not need (a textbook rule keeps what it chose).
    template <typename NextUse>
    std::vector<Eviction> chooseVictims(const std::vector<int>& resident, IndexRange needed, int step, Bytes excess,
                                        NextUse&& nextUse, const std::vector<int>& lastNeeded,
                                        const std::vector<int>& placedAt) {
        struct Scored {
            int buf;
            std::int64_t key;
            int ruleStep;
        };
        std::vector<Scored> scored;
        for (int b : resident) {
            if (std::find(needed.begin(), needed.end(), b) != needed.end()) continue;
            const auto [ruleStep, key] = ruleKey(b, step, nextUse, lastNeeded, placedAt);
            scored.push_back({b, key, ruleStep});
        }
        std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.key > b.key; });
        std::vector<Scored> victims;
        Bytes freed = 0;
        for (const Scored& v : scored) {
            if (freed >= excess) break;
            victims.push_back(v);
            freed += g_.buffers[v.buf].size;
        }
        if (freed < excess) throw InternalError("lifetime planner: a node's buffers exceed the budget");
        for (size_t i = victims.size(); i-- > 0 && rule_ == ResidencyRule::FurthestNextUse;) {
            const Bytes size = g_.buffers[victims[i].buf].size;
            if (freed - size >= excess) {
                freed -= size;
                victims.erase(victims.begin() + static_cast<long>(i));
            }
        }
        std::vector<Eviction> out;
        Bytes missing = excess;
        auto evict = [&](const Scored& v, std::vector<spillway::Scored> shown) {
            Eviction e{v.buf, std::move(shown), static_cast<int>(scored.size()), {}, 0, missing, 0};
            e.ruleStep = v.ruleStep;
            out.push_back(std::move(e));
            missing -= g_.buffers[v.buf].size;
        };
        if (!builder_.keepsReasons()) {  // a huge graph's brief decisions show no candidates
            for (const Scored& v : victims) evict(v, {});
            return out;
        }
        // The decision log shows the strongest candidates, not all of a large memory's buffers:
        // the first few, the victims and the one used furthest away.
        std::vector<spillway::Scored> ranked;
        std::vector<int> keep;
        int furthest = -1;
        for (const Scored& c : scored) {
            ranked.push_back({c.buf, shownScore(c.key, c.ruleStep)});
            if (furthest < 0 || nextUse(c.buf) > nextUse(furthest)) furthest = c.buf;
        }
        keep.push_back(furthest);
        for (const Scored& v : victims) keep.push_back(v.buf);
        const std::vector<spillway::Scored> shown = PlanBuilder::shortlist(ranked, keep);
        for (const Scored& v : victims) evict(v, shown);
        return out;
    }

    // The score the decision log shows: lifetime's formula (kLifetimeFormula); a textbook rule's step.
    double shownScore(std::int64_t key, int ruleStep) const {
        return rule_ == ResidencyRule::FurthestNextUse ? static_cast<double>(key) / 2.0 : static_cast<double>(ruleStep);
    }

    Plan replay(std::map<std::string, MemoryPlan>& plans) {
        // Each buffer's stretches, in the order they are placed (ascending start: each memory's
        // plan lists a buffer's stretches so), and how many of them are placed.
        const size_t nb = g_.buffers.size();
        std::vector<int> firstStretchOf(nb + 1, 0), placedOf(nb, 0);
        int spills = 0;
        for (auto& [type, p] : plans) {
            for (const Stretch& st : p.stretches) ++firstStretchOf[st.buf + 1];
            for (const auto& [step, evictions] : p.evictionsAt) spills += static_cast<int>(evictions.size());
        }
        for (size_t b = 0; b < nb; ++b) firstStretchOf[b + 1] += firstStretchOf[b];
        std::vector<std::pair<MemoryPlan*, size_t>> stretchesOf(firstStretchOf[nb]);
        for (auto& [type, p] : plans)
            for (size_t i = 0; i < p.stretches.size(); ++i) {
                const int b = p.stretches[i].buf;
                stretchesOf[firstStretchOf[b] + placedOf[b]++] = {&p, i};
            }
        std::fill(placedOf.begin(), placedOf.end(), 0);
        auto placeStretch = [&](int b, Time from, const std::string& what) {
            const int k = firstStretchOf[b] + placedOf[b]++;
            if (k >= firstStretchOf[b + 1] || stretchesOf[k].first->stretches[stretchesOf[k].second].from != from)
                throw InternalError("lifetime planner: buffer " + std::to_string(g_.buffers[b].id) +
                                    " is placed where none of its stretches starts");
            auto [p, i] = stretchesOf[k];
            const bool exact = p->packOrder == kExactPacking;
            if (!builder_.keepsReasons()) return builder_.place(b, p->stretches[i].offset, {});
            builder_.place(b, p->stretches[i].offset,
                           what + (exact ? ": exact packing, a search over the placements of every resident stretch "
                                           "(the greedy orders found none)"
                                         : ": offline packing (" + std::string(p->packOrder) +
                                               "), the smallest gap free over its whole stretch"),
                           std::move(p->gaps[i]));
        };
        builder_.expectSpills(spills);
        // Each memory's next step with write-outs: the steps are walked in order.
        std::vector<std::map<int, std::vector<Eviction>>::iterator> nextEvictions;
        for (auto& [type, p] : plans) nextEvictions.push_back(p.evictionsAt.begin());
        for (int s = 0; s < builder_.steps(); ++s) {
            builder_.beginStep(s);
            size_t m = 0;
            for (auto& [type, p] : plans) {
                auto& at = nextEvictions[m++];
                if (at == p.evictionsAt.end() || at->first != s) continue;
                for (Eviction& e : at->second) builder_.spill(e.buf, spillWhy(type, e));
                ++at;
            }
            const Node& node = builder_.nodeAt(s);
            for (int b : builder_.buffersAt(s)) {
                if (node.isAlloc())
                    placeStretch(b, nodeTime(s), "ALLOC");
                else if (builder_.residency(b) == Residency::Spilled)
                    placeStretch(b, inTime(s), "SPILL_IN just before its next use");
            }
            builder_.runNode();
        }
        return builder_.finish();
    }

    SpillWhy spillWhy(const std::string& type, Eviction& e) {
        SpillWhy why;
        if (!builder_.keepsReasons()) return why;
        why.forBufs = std::move(e.forBufs);
        why.need = e.need;
        why.shortfall = e.missing;
        why.ranked = std::move(e.shown);
        why.weighed = e.weighed;
        if (e.forced) {
            why.reason = kForcedReason;
            why.formula = "your choice (What if)";
            return why;
        }
        if (e.optimal) {
            const Node& at = g_.node(order_[e.peakStep]);
            why.reason = std::string(kOptimalReason) + ": kept, it would leave " + std::to_string(e.missing) +
                         " bytes too many at step " + std::to_string(e.peakStep) + " (node " + std::to_string(at.id) +
                         ")" +
                         (why.forBufs.empty()
                              ? ", written out to keep the bytes resident within " + std::to_string(e.budget) + " there"
                              : "");
            why.formula = kOptimalFormula;
            return why;
        }
        why.reason = "its next use is the furthest (COPY_IN buffers count double): written out";
        why.formula = kLifetimeFormula;
        if (isTextbook(rule_)) textbookWhy(why, e);
        const Bytes capacity = opts_.capacities.at(type);
        if (e.budget < capacity)
            why.reason +=
                std::string(why.forBufs.empty() ? " to keep the bytes resident" : " to make room") + " within " +
                std::to_string(e.budget) + " of the " + std::to_string(capacity) +
                (e.roomKept ? " bytes, the rest kept free here for loads to arrive in while work runs"
                            : " bytes, the rest kept free here because packing found no gap with all of them");
        else
            why.reason += " to make room";
        return why;
    }

    // A textbook rule's reason (before the room it makes) and formula.
    void textbookWhy(SpillWhy& why, const Eviction& e) const {
        const std::string at = std::to_string(e.ruleStep);
        switch (rule_) {
            case ResidencyRule::Belady:
                why.reason = "its next use, at step " + at + ", is the furthest away (Belady): written out";
                why.formula = "score = the step of its next use; the highest is written out (clean or dirty alike)";
                break;
            case ResidencyRule::LeastRecentlyUsed:
                why.reason =
                    "it is the least recently used (last loaded, used or reloaded at step " + at + "): written out";
                why.formula = "score = the step it was last loaded, used or reloaded; the lowest is written out";
                break;
            default:
                why.reason = "it was placed first (loaded or reloaded at step " + at + "): written out";
                why.formula = "score = the step it was placed (loaded or reloaded); the lowest is written out";
                break;
        }
    }

    const Graph& g_;
    const Order& order_;
    const PlanOptions& opts_;
    PlanBuilder builder_;
    ResidencyRule rule_;
    std::int64_t relaxationWork_ = 0;  // policy residency: its relaxations' work over every memory so far
    std::int64_t exactPackWorkLeft_ = kExactPackWork;  // of the exact packer, over every memory
    std::optional<Forced> forced_;                     // PlanOptions::force, checked
    bool forceApplied_ = false;
    std::vector<int> stepOf_;                // node index -> step
    std::optional<std::string> neededType_;  // the memory buffersIn() has indexed, if any
    // Its buffers per step: those of step s are neededAt_[firstNeededAt_[s] .. firstNeededAt_[s + 1]).
    std::vector<int> firstNeededAt_, neededAt_;
};

}  // namespace

// A draft owns its order and options: the planner and its builder refer to them.
struct LifetimeDraft::State {
    State(const Graph& g, Order o, const PlanOptions& opts)
        : order(std::move(o)), options(opts), planner(g, order, options, ResidencyRule::FurthestNextUse) {}
    Order order;
    PlanOptions options;
    LifetimePlanner planner;
    std::optional<std::map<std::string, MemoryPlan>> memories;  // when lifetime found a packing
    std::optional<Plan> fallback;                               // else seed's plan
    Bytes extraBytes = 0;
};

LifetimeDraft::LifetimeDraft(const Graph& g, Order order, const PlanOptions& opts)
    : state_(std::make_unique<State>(g, std::move(order), opts)) {
    State& s = *state_;
    s.memories = s.planner.planMemories();
    if (s.memories) {
        s.extraBytes = s.planner.extraBytes(*s.memories);
        return;
    }
    s.fallback = planSeed(s.planner.unusedBuilder(), g, s.options);
    s.fallback->policy = "seed";  // as planLifetime says
    for (const Spill& spill : s.fallback->spills) s.extraBytes += spillTrafficBytes(g.buffer(spill.buf));
}
LifetimeDraft::LifetimeDraft(LifetimeDraft&&) noexcept = default;
LifetimeDraft& LifetimeDraft::operator=(LifetimeDraft&&) noexcept = default;
LifetimeDraft::~LifetimeDraft() = default;

Bytes LifetimeDraft::extraBytes() const { return state_->extraBytes; }

Plan LifetimeDraft::plan() {
    State& s = *state_;
    if (s.fallback) return std::move(*s.fallback);
    Plan p = s.planner.record(*s.memories);
    s.memories.reset();
    return p;
}

Order LifetimeDraft::releaseOrder() { return std::move(state_->order); }

namespace {

// The packed plan, or seed's when packing kept failing (lifetime), or failed even with nothing
// but each node's own buffers (residency); the result says "seed" then.
Plan planPackedOrSeed(const Graph& g, const Order& order, const PlanOptions& opts, ResidencyRule rule) {
    LifetimePlanner planner(g, order, opts, rule);
    if (std::optional<Plan> p = planner.run()) return std::move(*p);
    if (opts.force) {
        ErrorPlace where;
        where.field = "force";
        throw InputError("forced spill: with it, policy " + opts.policy +
                             " found no packing and would fall back to seed, which takes no forced spill",
                         std::move(where));
    }
    Plan fallback = planSeed(planner.unusedBuilder(), g, opts);
    fallback.policy = "seed";
    return fallback;
}

}  // namespace

Plan planLifetime(const Graph& g, const Order& order, const PlanOptions& opts) {
    return planPackedOrSeed(g, order, opts, ResidencyRule::FurthestNextUse);
}

Plan planResidency(const Graph& g, const Order& order, const PlanOptions& opts) {
    return planPackedOrSeed(g, order, opts, ResidencyRule::Optimal);
}

Plan planBelady(const Graph& g, const Order& order, const PlanOptions& opts) {
    return planPackedOrSeed(g, order, opts, ResidencyRule::Belady);
}

Plan planLru(const Graph& g, const Order& order, const PlanOptions& opts) {
    return planPackedOrSeed(g, order, opts, ResidencyRule::LeastRecentlyUsed);
}

Plan planFifo(const Graph& g, const Order& order, const PlanOptions& opts) {
    return planPackedOrSeed(g, order, opts, ResidencyRule::FirstInFirstOut);
}

std::optional<Plan> planLifetimePacked(const Graph& g, const Order& order, const PlanOptions& opts) {
    return LifetimePlanner(g, order, opts, ResidencyRule::FurthestNextUse).run();
}

std::optional<Plan> planResidencyPacked(const Graph& g, const Order& order, const PlanOptions& opts) {
    return LifetimePlanner(g, order, opts, ResidencyRule::Optimal).run();
}

}  // namespace spillway
