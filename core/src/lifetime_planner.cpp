// Policy "lifetime": plans with the whole order in view, in two phases per memory.
//   1. Residency. Walk the order keeping the bytes resident within capacity; when a node's
//      buffers need room, write out the buffers whose next use is furthest, counting COPY_IN
//      buffers (free to write out) at double distance, as the seed's score does; then keep back
//      any victim the room did not need after all. A written-out buffer comes back just before its
//      next use. This splits every buffer's lifetime into resident stretches.
//   2. Placement. Pack the stretches into the memory, largest first (equal sizes in time
//      order, which is optimal when all sizes are equal), each in the smallest gap
//      left free over its whole stretch by those already placed (offline, so no fragmentation
//      surprise), in four orders. When they all fail and nothing was written out, the exact
//      packer (packing.h) searches for a packing. Otherwise phase 1 runs again with less room
//      over the steps of the stretch that found no gap, leaving slack for fragmentation there,
//      cutting deeper at each repeat. Only if that cannot go on (and the exact packer finds
//      nothing either) does the plan fall back to policy seed.
// The PlanBuilder then replays the decisions as a plan.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "plan_builder.h"
#include "policies.h"
#include "spillway/error.h"
#include "spillway/packing.h"

namespace spillway {
namespace {

// Event times within step s: write-outs at 4s, reloads at 4s+1, the node (and its ALLOC's
// placement) at 4s+2, a FREE's release at 4s+3. A stretch occupies [from, to).
using Time = std::int64_t;
// Search nodes for the exact packer (about 20 microseconds each on the contest machines).
constexpr std::int64_t kExactNodesWithoutSpills = 200000;
constexpr std::int64_t kExactNodesLastTry = 20000;
Time outTime(int s) { return 4 * Time{s}; }
Time inTime(int s) { return 4 * Time{s} + 1; }
Time nodeTime(int s) { return 4 * Time{s} + 2; }
Time freeTime(int s) { return 4 * Time{s} + 3; }

struct Stretch {
    int buf;
    Time from, to;
    Bytes size;
    Bytes offset = -1;
};

struct Eviction {
    int buf;
    std::vector<Candidate> candidates;
};

struct MemoryPlan {
    std::vector<Stretch> stretches;
    std::map<int, std::vector<Eviction>> evictionsAt;  // step -> in order
    const char* placedBy = "ALLOC: offline packing, largest stretch first, smallest gap free over its whole stretch";
};

class LifetimePlanner {
public:
    LifetimePlanner(const Graph& g, const Order& order, const PlanOptions& opts)
        : g_(g), order_(order), opts_(opts), builder_(g, order, opts.cost) {}

    std::optional<Plan> run() {
        std::map<std::string, MemoryPlan> plans;
        std::set<std::string> used;  // memories some buffer lives in: the others need no plan
        for (const Buffer& b : g_.buffers) used.insert(b.type);
        for (const auto& [type, cap] : opts_.capacities) {
            if (!used.count(type)) continue;
            std::optional<MemoryPlan> p = planMemory(type, cap);
            if (!p) return std::nullopt;
            plans.emplace(type, std::move(*p));
        }
        return replay(plans);
    }

private:
    // The buffers of `type` the node at `step` uses. Types are compared once per buffer, here,
    // not per step: this runs for every step of every retry.
    const std::vector<int>& buffersIn(const std::string& type, int step) {
        if (!neededType_ || type != *neededType_) {
            neededType_ = type;
            neededAt_.assign(builder_.steps(), {});
            for (int s = 0; s < builder_.steps(); ++s)
                for (int b : builder_.buffersAt(s))
                    if (g_.buffers[b].type == type) neededAt_[s].push_back(b);
        }
        return neededAt_[step];
    }

    // Phase 1, then 2; where packing fails, phase 1 runs again with less room over the failed
    // stretch's steps (never less than those steps' nodes need). The cut is the same at every
    // retry for the first kEvenRetries; after that it doubles at each repeat on a step, so that
    // the loop ends before kRetries instead of falling back to seed.
    std::optional<MemoryPlan> planMemory(const std::string& type, Bytes capacity) {
        // Each retry replans and repacks the memory: bound the work on large graphs.
        const bool large = builder_.steps() >= 20000;
        const int evenRetries = large ? 8 : 64, retries = 4 * evenRetries;
        std::vector<Bytes> floor(builder_.steps(), 0);
        Bytes smallest = capacity;
        for (int s = 0; s < builder_.steps(); ++s)
            for (int b : buffersIn(type, s)) {
                floor[s] += g_.buffers[b].size;
                smallest = std::min(smallest, g_.buffers[b].size);
            }
        const Bytes shrink = std::max(capacity / 64, smallest);
        std::vector<Bytes> budget(builder_.steps(), capacity);
        std::vector<int> repeats(builder_.steps(), 0);  // cuts past the even ones, per step
        for (int attempt = 0;; ++attempt) {
            MemoryPlan p = chooseResidency(type, budget);
            std::optional<Stretch> failed = pack(p.stretches, capacity);
            if (!failed) return p;
            // Nothing written out: a packing means no spill at all, worth a long search. The
            // last try gets a shorter one. (Elsewhere the greedy orders and the cuts do better
            // for the time: measured on Conv_Case0, docs/benchmarks.md.)
            const bool lastTry = attempt == retries, exact = p.evictionsAt.empty() || lastTry;
            if (exact && packExactly(p, capacity, p.evictionsAt.empty() ? kExactNodesWithoutSpills : kExactNodesLastTry))
                return p;
            if (lastTry) return std::nullopt;
            bool tightened = false;
            for (int s = static_cast<int>(failed->from / 4); s <= static_cast<int>(std::min<Time>(failed->to / 4, builder_.steps() - 1)); ++s) {
                const Bytes cut = attempt < evenRetries ? shrink : shrink << std::min(repeats[s], 20);
                const Bytes lower = std::max(floor[s], budget[s] - cut);
                if (lower == budget[s]) continue;
                tightened = true;
                budget[s] = lower;
                if (attempt >= evenRetries) ++repeats[s];
            }
            if (!tightened) {  // the failed stretch's steps hold only what their nodes need
                if (!exact && packExactly(p, capacity, kExactNodesLastTry)) return p;
                return std::nullopt;
            }
        }
    }

    // Phase 1 for one memory under a byte budget per step.
    MemoryPlan chooseResidency(const std::string& type, const std::vector<Bytes>& budget) {
        MemoryPlan plan;
        std::vector<int> open(g_.buffers.size(), -1);   // index of the buffer's open stretch
        std::vector<size_t> cursor(g_.buffers.size(), 0);  // uses already run
        std::vector<int> resident;                       // ascending buffer index
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
            const std::vector<int>& needed = buffersIn(type, s);
            std::vector<int> incoming;
            Bytes need = 0;
            for (int b : needed)
                if (open[b] < 0) {
                    incoming.push_back(b);
                    need += g_.buffers[b].size;
                }
            if (used + need > budget[s]) {
                for (Eviction& e : chooseVictims(resident, needed, s, used + need - budget[s], nextUse)) {
                    close(e.buf, outTime(s));
                    plan.evictionsAt[s].push_back(std::move(e));
                }
            }
            for (int b : incoming) {
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

    // Furthest next use first (COPY_IN buffers at double distance); then, least valuable victim
    // first, keep back those the room did not need.
    template <typename NextUse>
    std::vector<Eviction> chooseVictims(const std::vector<int>& resident, const std::vector<int>& needed, int step,
                                        Bytes excess, NextUse&& nextUse) {
        struct Scored {
            int buf;
            std::int64_t key;
            int next;
        };
        std::vector<Scored> scored;
        for (int b : resident) {
            if (std::find(needed.begin(), needed.end(), b) != needed.end()) continue;
            const int next = nextUse(b);
            const std::int64_t key = std::int64_t{std::max(next - step, 1)} * (g_.buffers[b].hasCopyIn ? 2 : 1);
            scored.push_back({b, key, next});
        }
        std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.key > b.key; });
        // The decision log shows the strongest candidates, not all of a large memory's buffers.
        constexpr size_t kShown = 16;
        std::vector<Candidate> candidates;
        for (size_t i = 0; i < scored.size() && i < kShown; ++i)
            candidates.push_back({g_.buffers[scored[i].buf].id, scored[i].next, static_cast<double>(scored[i].key) / 2.0});
        std::vector<Scored> victims;
        Bytes freed = 0;
        for (const Scored& v : scored) {
            if (freed >= excess) break;
            victims.push_back(v);
            freed += g_.buffers[v.buf].size;
        }
        if (freed < excess) throw InternalError("lifetime planner: a node's buffers exceed the budget");
        for (size_t i = victims.size(); i-- > 0;) {
            const Bytes size = g_.buffers[victims[i].buf].size;
            if (freed - size >= excess) {
                freed -= size;
                victims.erase(victims.begin() + static_cast<long>(i));
            }
        }
        std::vector<Eviction> out;
        for (const Scored& v : victims) out.push_back({v.buf, candidates});
        return out;
    }

    // Phase 2: stretches one by one into the smallest gap free over their whole time span, in
    // one of several orders (largest first; longest first; largest area first; earliest first):
    // no order wins on every memory, and trying four costs little. Returns nullopt on success,
    // else a stretch that found no gap in the first order.
    static std::optional<Stretch> pack(std::vector<Stretch>& stretches, Bytes capacity) {
        using Before = bool (*)(const Stretch&, const Stretch&);
        const Before orders[] = {
            [](const Stretch& x, const Stretch& y) { return x.size != y.size ? x.size > y.size : x.from < y.from; },
            [](const Stretch& x, const Stretch& y) { return x.to - x.from != y.to - y.from ? x.to - x.from > y.to - y.from : x.size > y.size; },
            [](const Stretch& x, const Stretch& y) {
                const auto ax = x.size * (x.to - x.from), ay = y.size * (y.to - y.from);
                return ax != ay ? ax > ay : x.from < y.from;
            },
            [](const Stretch& x, const Stretch& y) { return x.from != y.from ? x.from < y.from : x.size > y.size; },
        };
        std::optional<Stretch> firstFailure;
        for (Before before : orders) {
            std::optional<Stretch> failed = packInOrder(stretches, capacity, before);
            if (!failed) return std::nullopt;
            if (!firstFailure) firstFailure = failed;
        }
        return firstFailure;
    }

    // When the greedy orders fail: the exact packer (packing.h) within `nodes` search nodes.
    // Sets every offset and returns true when it finds a packing.
    static bool packExactly(MemoryPlan& plan, Bytes capacity, std::int64_t nodes) {
        std::vector<Stretch>& stretches = plan.stretches;
        packing::Problem problem;
        problem.capacity = capacity;
        for (const Stretch& s : stretches) problem.blocks.push_back({s.from, s.to, s.size, 1, {}});
        packing::Options options;
        options.budget = nodes;
        const packing::Result r = packing::pack(problem, options);
        if (r.verdict != packing::Verdict::Fits) return false;
        for (size_t i = 0; i < stretches.size(); ++i) stretches[i].offset = r.offsets[i];
        plan.placedBy = "ALLOC: exact packing, a search over placements of every resident stretch (the greedy orders found none)";
        return true;
    }

    template <typename Before>
    static std::optional<Stretch> packInOrder(std::vector<Stretch>& stretches, Bytes capacity, Before before) {
        std::vector<int> byPriority(stretches.size());
        for (size_t i = 0; i < stretches.size(); ++i) byPriority[i] = static_cast<int>(i);
        std::stable_sort(byPriority.begin(), byPriority.end(),
                         [&](int a, int b) { return before(stretches[a], stretches[b]); });
        TimeIndex placed(stretches);
        std::vector<std::pair<Bytes, Bytes>> busy;  // [offset, end) of placed stretches overlapping in time
        for (int i : byPriority) {
            Stretch& s = stretches[i];
            busy.clear();
            placed.forEachOverlapping(s, [&](const Stretch& o) { busy.emplace_back(o.offset, o.offset + o.size); });
            std::sort(busy.begin(), busy.end());
            Bytes bestOffset = -1, bestGap = 0, at = 0;
            auto consider = [&](Bytes gapStart, Bytes gapEnd) {
                const Bytes gap = gapEnd - gapStart;
                if (gap >= s.size && (bestOffset < 0 || gap < bestGap)) {
                    bestOffset = gapStart;
                    bestGap = gap;
                }
            };
            for (auto [start, end] : busy) {
                if (start > at) consider(at, start);
                at = std::max(at, end);
            }
            consider(at, capacity);
            if (bestOffset < 0) return s;
            s.offset = bestOffset;
            placed.add(i);
        }
        return std::nullopt;
    }

    // The stretches placed so far, bucketed by time so that finding those overlapping a stretch
    // looks only at its own stretch of time: packing stays near-linear on large graphs.
    class TimeIndex {
    public:
        explicit TimeIndex(const std::vector<Stretch>& all) : all_(all), seen_(all.size(), 0) {
            Time end = 1;
            for (const Stretch& s : all) end = std::max(end, s.to);
            width_ = std::max<Time>(4, end / std::max<Time>(1, static_cast<Time>(all.size())) * 4);
            buckets_.resize(static_cast<size_t>(end / width_ + 1));
        }
        void add(int i) {
            for (Time b = all_[i].from / width_; b <= (all_[i].to - 1) / width_; ++b) buckets_[b].push_back(i);
        }
        template <typename F>
        void forEachOverlapping(const Stretch& s, F&& f) {
            ++stamp_;
            for (Time b = s.from / width_; b <= (s.to - 1) / width_; ++b)
                for (int j : buckets_[b]) {
                    const Stretch& o = all_[j];
                    if (seen_[j] == stamp_ || !(o.from < s.to && s.from < o.to)) continue;
                    seen_[j] = stamp_;
                    f(o);
                }
        }

    private:
        const std::vector<Stretch>& all_;
        std::vector<int> seen_;
        int stamp_ = 0;
        Time width_;
        std::vector<std::vector<int>> buckets_;
    };

    Plan replay(std::map<std::string, MemoryPlan>& plans) {
        std::map<std::pair<int, Time>, Bytes> offsetOf;  // (buffer, from) -> offset
        for (auto& [type, p] : plans)
            for (const Stretch& s : p.stretches) offsetOf[{s.buf, s.from}] = s.offset;
        for (int s = 0; s < builder_.steps(); ++s) {
            builder_.beginStep(s);
            for (auto& [type, p] : plans) {
                auto at = p.evictionsAt.find(s);
                if (at == p.evictionsAt.end()) continue;
                for (Eviction& e : at->second)
                    builder_.spill(e.buf, "its next use is the furthest (COPY_IN buffers count double): written out to make room",
                                   std::move(e.candidates));
            }
            const Node& node = builder_.nodeAt(s);
            for (int b : builder_.buffersAt(s)) {
                if (node.isAlloc())
                    builder_.place(b, offsetOf.at({b, nodeTime(s)}), plans.at(g_.buffers[b].type).placedBy);
                else if (builder_.residency(b) == Residency::Spilled)
                    builder_.place(b, offsetOf.at({b, inTime(s)}), "SPILL_IN just before its next use, at its packed offset");
            }
            builder_.runNode();
        }
        return builder_.finish();
    }

    const Graph& g_;
    const Order& order_;
    const PlanOptions& opts_;
    PlanBuilder builder_;
    std::optional<std::string> neededType_;   // the memory buffersIn() has indexed, if any
    std::vector<std::vector<int>> neededAt_;  // its buffers per step
};

}  // namespace

Plan planLifetime(const Graph& g, const Order& order, const PlanOptions& opts) {
    if (std::optional<Plan> p = LifetimePlanner(g, order, opts).run()) return std::move(*p);
    Plan fallback = planSeed(g, order, opts);
    fallback.policy = "seed";  // packing kept failing: say so in the result
    return fallback;
}

}  // namespace spillway
