// Policy "lifetime": plans with the whole order in view, in two phases per memory.
//   1. Residency. Walk the order keeping the bytes resident within capacity; when a node's
//      buffers need room, write out the buffers whose next use is furthest, counting COPY_IN
//      buffers (free to write out) at double distance, as the seed's score does; then keep back
//      any victim the room did not need after all. A written-out buffer comes back just before its
//      next use. This splits every buffer's lifetime into resident stretches.
//   2. Placement. Pack the stretches into the memory, largest first (equal sizes in time
//      order, which is optimal when all sizes are equal), each in the smallest gap
//      left free over its whole stretch by those already placed (offline, so no fragmentation
//      surprise). If packing fails, phase 1 runs again with a little less room over the steps
//      of the stretch that found no gap, leaving slack for fragmentation there; if that keeps
//      failing, the plan falls back to policy seed.
// The PlanBuilder then replays the decisions as a plan.
#include <algorithm>
#include <map>
#include <optional>

#include "plan_builder.h"
#include "policies.h"
#include "spillway/error.h"

namespace spillway {
namespace {

// Event times within step s: write-outs at 4s, reloads at 4s+1, the node (and its ALLOC's
// placement) at 4s+2, a FREE's release at 4s+3. A stretch occupies [from, to).
using Time = std::int64_t;
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

// A write-out phase 1 chose, with what the decision log shows of the choice.
struct Eviction {
    int buf;
    std::vector<Scored> shown;  // the strongest candidates, the victims and the furthest next use
    int weighed;                // candidates weighed
    std::vector<int> forBufs;   // the node's buffers that needed the room
    Bytes need;                 // their bytes
    Bytes missing;              // bytes over the budget still to free when this victim was chosen
    Bytes budget;               // the budget at that step (below capacity after a failed packing)
};

struct MemoryPlan {
    std::vector<Stretch> stretches;
    std::vector<std::vector<Hole>> gaps;  // per stretch: the gaps its packing weighed
    const char* packOrder = "";           // the packing order that succeeded
    std::map<int, std::vector<Eviction>> evictionsAt;  // step -> in order
};

constexpr const char* kLifetimeFormula =
    "score = distance to next use, halved unless a COPY_IN filled the buffer (the seed's size \u00d7 distance "
    "\u00f7 cost): the highest scores are written out until the bytes missing are covered, then any victim "
    "the room did not need is kept back";

class LifetimePlanner {
public:
    LifetimePlanner(const Graph& g, const Order& order, const PlanOptions& opts)
        : g_(g), order_(order), opts_(opts), builder_(g, order, opts.cost, opts.capacities) {}

    std::optional<Plan> run() {
        std::map<std::string, MemoryPlan> plans;
        for (const auto& [type, cap] : opts_.capacities) {
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
        if (type != neededType_) {
            neededType_ = type;
            neededAt_.assign(builder_.steps(), {});
            for (int s = 0; s < builder_.steps(); ++s)
                for (int b : builder_.buffersAt(s))
                    if (g_.buffers[b].type == type) neededAt_[s].push_back(b);
        }
        return neededAt_[step];
    }

    // Phase 1, then 2; where packing fails, phase 1 runs again with less room over the failed
    // stretch's steps (never less than those steps' nodes need), up to kRetries times.
    std::optional<MemoryPlan> planMemory(const std::string& type, Bytes capacity) {
        // Each retry replans and repacks the memory: bound the work on large graphs.
        const int retries = builder_.steps() < 20000 ? 64 : 8;
        std::vector<Bytes> floor(builder_.steps(), 0);
        Bytes smallest = capacity;
        for (int s = 0; s < builder_.steps(); ++s)
            for (int b : buffersIn(type, s)) {
                floor[s] += g_.buffers[b].size;
                smallest = std::min(smallest, g_.buffers[b].size);
            }
        const Bytes shrink = std::max(capacity / 64, smallest);
        std::vector<Bytes> budget(builder_.steps(), capacity);
        for (int attempt = 0; attempt <= retries; ++attempt) {
            MemoryPlan p = chooseResidency(type, budget);
            int won = -1;
            std::optional<Stretch> failed = pack(p.stretches, capacity, &won);
            if (!failed) {
                // once more in the order that succeeded, noting the gaps each stretch weighed
                p.gaps.resize(p.stretches.size());
                packInOrder(p.stretches, capacity, kPackOrders[won].before, &p.gaps);
                p.packOrder = kPackOrders[won].name;
                return p;
            }
            bool tightened = false;
            for (int s = static_cast<int>(failed->from / 4); s <= static_cast<int>(std::min<Time>(failed->to / 4, builder_.steps() - 1)); ++s) {
                const Bytes lower = std::max(floor[s], budget[s] - shrink);
                tightened |= lower < budget[s];
                budget[s] = lower;
            }
            if (!tightened) return std::nullopt;
        }
        return std::nullopt;
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
                    e.forBufs = incoming;
                    e.need = need;
                    e.budget = budget[s];
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
        // The decision log shows the strongest candidates, not all of a large memory's buffers:
        // the first few, the victims and the one used furthest away.
        std::vector<spillway::Scored> ranked;
        std::vector<int> keep;
        int furthest = -1;
        for (const Scored& c : scored) {
            ranked.push_back({c.buf, static_cast<double>(c.key) / 2.0});
            if (furthest < 0 || c.next > nextUse(furthest)) furthest = c.buf;
        }
        keep.push_back(furthest);
        for (const Scored& v : victims) keep.push_back(v.buf);
        const std::vector<spillway::Scored> shown = PlanBuilder::shortlist(ranked, keep);
        std::vector<Eviction> out;
        Bytes missing = excess;
        for (const Scored& v : victims) {
            out.push_back({v.buf, shown, static_cast<int>(scored.size()), {}, 0, missing, 0});
            missing -= g_.buffers[v.buf].size;
        }
        return out;
    }

    // Phase 2: stretches one by one into the smallest gap free over their whole time span, in
    // one of several orders (largest first; longest first; largest area first; earliest first):
    // no order wins on every memory, and trying four costs little. Returns nullopt on success,
    // else a stretch that found no gap in the first order. `won`: the index of the order that succeeded.
    using Before = bool (*)(const Stretch&, const Stretch&);
    struct PackOrder {
        const char* name;
        Before before;
    };
    static constexpr PackOrder kPackOrders[] = {
        {"largest stretch first", [](const Stretch& x, const Stretch& y) { return x.size != y.size ? x.size > y.size : x.from < y.from; }},
        {"longest stretch first", [](const Stretch& x, const Stretch& y) { return x.to - x.from != y.to - y.from ? x.to - x.from > y.to - y.from : x.size > y.size; }},
        {"largest area first", [](const Stretch& x, const Stretch& y) {
            const auto ax = x.size * (x.to - x.from), ay = y.size * (y.to - y.from);
            return ax != ay ? ax > ay : x.from < y.from;
        }},
        {"earliest first", [](const Stretch& x, const Stretch& y) { return x.from != y.from ? x.from < y.from : x.size > y.size; }},
    };
    static std::optional<Stretch> pack(std::vector<Stretch>& stretches, Bytes capacity, int* won) {
        std::optional<Stretch> firstFailure;
        for (int k = 0; k < static_cast<int>(std::size(kPackOrders)); ++k) {
            std::optional<Stretch> failed = packInOrder(stretches, capacity, kPackOrders[k].before);
            if (!failed) {
                *won = k;
                return std::nullopt;
            }
            if (!firstFailure) firstFailure = failed;
        }
        return firstFailure;
    }

    // `gaps`, when given: per stretch, every gap free over its time span when it was packed.
    static std::optional<Stretch> packInOrder(std::vector<Stretch>& stretches, Bytes capacity, Before before,
                                              std::vector<std::vector<Hole>>* gaps = nullptr) {
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
                if (gaps && gap > 0) (*gaps)[i].push_back({gapStart, gapEnd});
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
        // (buffer, from) -> its stretch
        std::map<std::pair<int, Time>, std::pair<MemoryPlan*, size_t>> stretchAt;
        for (auto& [type, p] : plans)
            for (size_t i = 0; i < p.stretches.size(); ++i) stretchAt[{p.stretches[i].buf, p.stretches[i].from}] = {&p, i};
        auto placeStretch = [&](int b, Time from, const std::string& what) {
            auto [p, i] = stretchAt.at({b, from});
            builder_.place(b, p->stretches[i].offset,
                           what + ": offline packing (" + p->packOrder + "), the smallest gap free over its whole stretch",
                           std::move(p->gaps[i]));
        };
        for (int s = 0; s < builder_.steps(); ++s) {
            builder_.beginStep(s);
            for (auto& [type, p] : plans) {
                auto at = p.evictionsAt.find(s);
                if (at == p.evictionsAt.end()) continue;
                for (Eviction& e : at->second) builder_.spill(e.buf, spillWhy(type, e));
            }
            const Node& node = builder_.nodeAt(s);
            for (int b : builder_.buffersAt(s)) {
                if (node.isAlloc()) placeStretch(b, nodeTime(s), "ALLOC");
                else if (builder_.residency(b) == Residency::Spilled) placeStretch(b, inTime(s), "SPILL_IN just before its next use");
            }
            builder_.runNode();
        }
        return builder_.finish();
    }

    SpillWhy spillWhy(const std::string& type, Eviction& e) {
        SpillWhy why;
        why.reason = "its next use is the furthest (COPY_IN buffers count double): written out";
        const Bytes capacity = opts_.capacities.at(type);
        if (e.budget < capacity)
            why.reason += std::string(e.forBufs.empty() ? " to keep the bytes resident" : " to make room") + " within " +
                          std::to_string(e.budget) + " of the " + std::to_string(capacity) +
                          " bytes, the rest kept free here because packing found no gap with all of them";
        else
            why.reason += " to make room";
        why.formula = kLifetimeFormula;
        why.forBufs = std::move(e.forBufs);
        why.need = e.need;
        why.shortfall = e.missing;
        why.ranked = std::move(e.shown);
        why.weighed = e.weighed;
        return why;
    }

    const Graph& g_;
    const Order& order_;
    const PlanOptions& opts_;
    PlanBuilder builder_;
    std::string neededType_;                  // the memory buffersIn() has indexed
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
