// Policy "seed": the seed's online allocator, done right. It walks the order once; at each node
// it makes the node's buffers resident (placing new ones at ALLOC, reloading spilled ones just
// before their use), spilling other buffers of the same memory when no hole is large enough.
//
// Fixes over the seed (docs/seed-deviations.md): past uses are popped so "next use" is real; a
// spilled buffer is placed when its SPILL_IN runs (not at spill time, which looped forever);
// buffers the current node uses are spilled only as a last resort, and then reloaded before it;
// live buffers are never dropped and nothing is placed over live data.
#include <algorithm>
#include <map>
#include <set>

#include "plan_builder.h"
#include "policies.h"
#include "spillway/error.h"
#include "spillway/free_list.h"

namespace spillway {
namespace {

struct MemoryState {
    FreeList freeList;
    std::set<int> resident;  // buffer indices, ascending = ascending BufId
};

// The seed's score: size * distance / cost, with cost = size for a COPY_IN buffer (only the
// reload moves data) and 2 * size otherwise. Compared exactly as the integer 2 * score / size.
std::int64_t seedScoreKey(const Buffer& b, int distance) {
    return static_cast<std::int64_t>(distance) * (b.hasCopyIn ? 2 : 1);
}

enum class VictimRule { Seed, Window };

// The policies' formulas, as each decision records them (docs/result-format.md).
constexpr const char* kSeedFormula =
    "score = size \u00d7 distance to next use \u00f7 cost, cost = size for a COPY_IN buffer (main memory holds "
    "its data) else 2 \u00d7 size: the highest score is written out (ties: lowest buffer id)";
constexpr const char* kWindowFormula =
    "cost of a contiguous window = \u03a3 over its buffers of bytes the spill moves (size for a COPY_IN buffer, "
    "else 2 \u00d7 size) \u00f7 distance to next use: the cheapest window long enough is written out; a "
    "buffer's score is its term";
constexpr const char* kRelocation =
    "no choice: even with every other buffer written out no hole is large enough, so the buffers this node "
    "uses are written out and placed again";

class OnlinePlanner {
public:
    OnlinePlanner(PlanBuilder&& builder, const Graph& g, const PlanOptions& opts, VictimRule rule = VictimRule::Seed)
        : g_(g), builder_(std::move(builder)), protected_(g.buffers.size(), false), rule_(rule) {
        for (const auto& [type, cap] : opts.capacities) memories_.emplace(type, MemoryState{FreeList(cap), {}});
    }

    Plan run() {
        for (int s = 0; s < builder_.steps(); ++s) {
            builder_.beginStep(s);
            runStep(s);
        }
        return builder_.finish();
    }

private:
    MemoryState& memoryOf(int b) { return memories_.at(g_.buffers[b].type); }

    void runStep(int s) {
        const Node& node = builder_.nodeAt(s);
        const IndexRange needed = builder_.buffersAt(s);
        for (int b : needed) protected_[b] = true;
        std::vector<int> toPlace;
        for (int b : needed)
            if (node.isAlloc() || builder_.residency(b) == Residency::Spilled) toPlace.push_back(b);
        placeAll(toPlace);
        if (node.isFree()) {
            int b = needed.front();
            memoryOf(b).freeList.release(builder_.offset(b), g_.buffers[b].size);
            memoryOf(b).resident.erase(b);
        }
        builder_.runNode();
        for (int b : needed) protected_[b] = false;
    }

    // Places buffers the current node needs. If fragmentation leaves no hole even after spilling
    // every unprotected buffer, the node's own resident buffers of that memory are spilled too
    // (relocation, the last resort) and queued: the memory is then empty and, since the node's
    // buffers fit together (validated), placing them one after another cannot fail.
    void placeAll(std::vector<int> queue) {
        for (size_t i = 0; i < queue.size(); ++i) {
            int b = queue[i];
            if (tryPlace(b)) continue;
            MemoryState& mem = memoryOf(b);
            std::vector<int> mine(mem.resident.begin(), mem.resident.end());  // all protected now
            if (std::any_of(mine.begin(), mine.end(), [&](int x) { return !protected_[x]; }))
                throw InternalError("planner: relocating while unprotected buffers are resident");
            SpillWhy why = roomFor(b, kRelocation);
            if (builder_.keepsReasons())
                why.reason = "relocated: fragmentation leaves no hole for buffer " + std::to_string(g_.buffers[b].id) +
                             ", which this node also uses";
            for (int other : mine) {
                if (builder_.keepsReasons()) why.ranked = {{other, 0}};
                spill(other, why);
                queue.push_back(other);
            }
            if (!tryPlace(b)) throw InternalError("planner: no room in an empty memory");
        }
    }

    // Spills unprotected buffers by score until a hole fits `b`, then places it by best fit.
    bool tryPlace(int b) {
        const Buffer& buf = g_.buffers[b];
        MemoryState& mem = memoryOf(b);
        // Window: when protected buffers block every window, the seed's rule spills one more
        // buffer and windows are tried again; either way only protected buffers are left when
        // this gives up, as the relocation in placeAll expects.
        while (mem.freeList.largestHole() < buf.size &&
               ((rule_ == VictimRule::Window && spillBestWindow(b)) || spillBestVictim(b))) {
        }
        std::optional<Bytes> offset = mem.freeList.bestFit(buf.size);
        if (!offset) return false;
        mem.resident.insert(b);
        const bool reload = builder_.residency(b) == Residency::Spilled;
        builder_.place(b, *offset,
                       !builder_.keepsReasons() ? std::string()
                       : reload
                           ? "SPILL_IN just before its next use, best fit"
                           : "ALLOC: best fit, the smallest hole that holds " + std::to_string(buf.size) + " bytes");
        return true;
    }

    // Policy "window", fragmentation-aware: of every contiguous run of holes and unprotected
    // buffers long enough for `forBuffer`, write out the one whose buffers cost least, each
    // counted as traffic / distance to its next use (bytes it moves, discounted the longer it
    // can stay out: Belady's idea, weighted). Seed's rule instead spills one buffer at a time
    // by score, wherever it lies, and may need several scattered victims to open one hole.
    bool spillBestWindow(int forBuffer) {
        MemoryState& mem = memoryOf(forBuffer);
        const Bytes need = g_.buffers[forBuffer].size;
        struct Segment {
            Bytes start, end;
            int buf;
        };  // buf < 0: a hole
        std::vector<Segment> segs;
        for (const Hole& h : mem.freeList.holes()) segs.push_back({h.start, h.end, -1});
        for (int b : mem.resident) segs.push_back({builder_.offset(b), builder_.offset(b) + g_.buffers[b].size, b});
        std::sort(segs.begin(), segs.end(), [](const Segment& x, const Segment& y) { return x.start < y.start; });
        double bestCost = -1;
        size_t bestFrom = 0, bestTo = 0;
        struct Weighed {
            size_t from, to;
            double cost;
        };
        std::vector<Weighed> weighed;
        for (size_t i = 0; i < segs.size(); ++i) {
            double cost = 0;
            size_t j = i;
            bool valid = true;
            for (; j < segs.size() && segs[j].start - segs[i].start < need; ++j) {
                if (j > i && segs[j].start != segs[j - 1].end) {
                    valid = false;
                    break;
                }
                const int b = segs[j].buf;
                if (b < 0) continue;
                if (protected_[b]) {
                    valid = false;
                    break;
                }
                const int distance = std::max(builder_.nextUse(b) - builder_.step(), 1);
                const Bytes traffic = spillTrafficBytes(g_.buffers[b]);
                cost += static_cast<double>(traffic) / distance;
            }
            if (!valid || segs[j - 1].end - segs[i].start < need) continue;
            weighed.push_back({i, j, cost});
            if (bestCost < 0 || cost < bestCost) {
                bestCost = cost;
                bestFrom = i;
                bestTo = j;
            }
        }
        if (bestCost < 0) return false;
        SpillWhy why = roomFor(forBuffer, kWindowFormula);
        if (builder_.keepsReasons()) {
            why.reason = "no hole holds buffer " + std::to_string(g_.buffers[forBuffer].id) +
                         ": the cheapest contiguous window is written out";
            recordWindows(why, segs, weighed);
        }
        for (size_t k = bestFrom; k < bestTo; ++k)
            if (segs[k].buf >= 0) spill(segs[k].buf, why);
        return true;
    }

    // The decision log's view of a window choice: the cheapest windows (the chosen one first: the
    // cheapest, ties to the lowest address), and their buffers in that order, each scored by its
    // term of the cost; the count of buffers in any window weighed.
    template <typename Segment, typename Weighed>
    void recordWindows(SpillWhy& why, const std::vector<Segment>& segs, std::vector<Weighed>& weighed) {
        std::vector<int> inWindows(segs.size() + 1, 0);  // segments covered by some window (difference array)
        for (const Weighed& w : weighed) {
            ++inWindows[w.from];
            --inWindows[w.to];
        }
        why.weighed = 0;
        int depth = 0;
        for (size_t k = 0; k < segs.size(); ++k)
            if ((depth += inWindows[k]) > 0 && segs[k].buf >= 0) ++why.weighed;
        std::stable_sort(weighed.begin(), weighed.end(),
                         [](const Weighed& x, const Weighed& y) { return x.cost < y.cost; });
        std::set<int> listed;
        for (size_t n = 0; n < weighed.size() && n < static_cast<size_t>(kShownChoices); ++n) {
            const Weighed& w = weighed[n];
            WeighedWindow ww{segs[w.from].start, segs[w.to - 1].end, w.cost, {}};
            for (size_t k = w.from; k < w.to; ++k) {
                const int b = segs[k].buf;
                if (b < 0) continue;
                ww.bufs.push_back(b);
                if (!listed.insert(b).second) continue;
                const int distance = std::max(builder_.nextUse(b) - builder_.step(), 1);
                why.ranked.push_back({b, static_cast<double>(spillTrafficBytes(g_.buffers[b])) / distance});
            }
            why.windows.push_back(std::move(ww));
        }
        why.windowsWeighed = static_cast<int>(weighed.size());
    }

    // The room `forBuffer` needs in its memory, now: its size, and the contiguous bytes missing
    // (nothing when the builder keeps no reasons).
    SpillWhy roomFor(int forBuffer, const char* formula) {
        SpillWhy why;
        if (!builder_.keepsReasons()) return why;
        why.formula = formula;
        why.forBufs = {forBuffer};
        why.need = g_.buffers[forBuffer].size;
        why.shortfall = why.need - memoryOf(forBuffer).freeList.largestHole();
        return why;
    }

    bool spillBestVictim(int forBuffer) {
        MemoryState& mem = memoryOf(forBuffer);
        SpillWhy why = roomFor(forBuffer, kSeedFormula);
        std::vector<std::int64_t> keys;
        int victim = -1;
        std::int64_t bestKey = -1;
        for (int b : mem.resident) {
            if (protected_[b]) continue;
            const int distance = std::max(builder_.nextUse(b) - builder_.step(), 1);
            const std::int64_t key = seedScoreKey(g_.buffers[b], distance);
            if (builder_.keepsReasons()) why.ranked.push_back({b, static_cast<double>(key) / 2.0});
            if (key > bestKey) {
                bestKey = key;
                victim = b;
            }
        }
        if (victim < 0) return false;
        if (builder_.keepsReasons()) {
            // highest score first; ties in ascending buffer id, as the victim was chosen
            std::stable_sort(why.ranked.begin(), why.ranked.end(),
                             [](const Scored& x, const Scored& y) { return x.score > y.score; });
            why.reason = "no hole holds buffer " + std::to_string(g_.buffers[forBuffer].id) + " (" +
                         std::to_string(g_.buffers[forBuffer].size) + " bytes): spill the highest score";
        }
        spill(victim, std::move(why));
        return true;
    }

    void spill(int b, SpillWhy why) {
        MemoryState& mem = memoryOf(b);
        mem.freeList.release(builder_.offset(b), g_.buffers[b].size);
        mem.resident.erase(b);
        builder_.spill(b, std::move(why));
    }

    const Graph& g_;
    PlanBuilder builder_;
    std::vector<char> protected_;  // buffers the current node uses
    std::map<std::string, MemoryState> memories_;
    VictimRule rule_;
};

}  // namespace

Plan planSeed(const Graph& g, const Order& order, const PlanOptions& opts) {
    return OnlinePlanner(PlanBuilder(g, order, opts.cost, opts.capacities), g, opts).run();
}

Plan planSeed(PlanBuilder&& builder, const Graph& g, const PlanOptions& opts) {
    return OnlinePlanner(std::move(builder), g, opts).run();
}

Plan planWindow(const Graph& g, const Order& order, const PlanOptions& opts) {
    return OnlinePlanner(PlanBuilder(g, order, opts.cost, opts.capacities), g, opts, VictimRule::Window).run();
}

}  // namespace spillway
