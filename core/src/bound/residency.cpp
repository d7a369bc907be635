#include "spillway/residency.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "min_cost_flow.h"
#include "model/fingerprint.h"
#include "spillway/cost.h"
#include "spillway/error.h"
#include "spillway/id_table.h"
#include "spillway/scale.h"

namespace spillway {
namespace {

constexpr int kExactGaps = 160;             // branch and bound only up to this many contested gaps
constexpr std::int64_t kExactWork = 8'000;  // and within nodes x gaps (each node solves a flow)
__extension__ using Wide = __int128;        // products of prices and sizes (both targets have it)
constexpr MinCostFlow::Amount kUnbounded = MinCostFlow::Amount(1) << 60;

// Range add and range minimum over steps: the free bytes left at each step while gaps are kept.
// Bottom-up (no recursion): min_[v] is the least of v's leaves counting the adds at v and below,
// add_[v] what was added to all of v's leaves and is in no node below. Adds stay where they were
// made and a query adds them to what it reads on its way up, so that it writes nothing: the greedy
// asks far more often than it adds.
class SlackTree {
public:
    explicit SlackTree(const std::vector<Bytes>& initial) : size_(1) {
        while (size_ < std::max<size_t>(1, initial.size())) size_ *= 2;
        min_.assign(2 * size_, kNone);
        add_.assign(size_ + 1, 0);  // [size_]: read past the last leaf's level, never added to
        for (size_t i = 0; i < initial.size(); ++i) min_[size_ + i] = initial[i];
        for (size_t i = size_; i-- > 1;) min_[i] = std::min(min_[2 * i], min_[2 * i + 1]);
    }
    // Minimum over steps [l, r), l < r. The nodes read on the left all lie below lo - 1 once lo
    // has climbed, those on the right below hi: each climb adds those two nodes' adds, and after
    // the loop every ancestor's up to the root.
    Bytes min(int l, int r) const {
        size_t lo = size_ + static_cast<size_t>(l), hi = size_ + static_cast<size_t>(r);
        Bytes left = kNone, right = kNone;
        while (lo < hi) {
            if (lo & 1) left = std::min(left, min_[lo++]);
            if (hi & 1) right = std::min(right, min_[--hi]);
            lo /= 2, hi /= 2;
            left += add_[lo - 1];
            right += add_[hi];
        }
        for (size_t v = (lo - 1) / 2; v >= 1; v /= 2) left += add_[v];
        for (size_t v = hi / 2; v >= 1; v /= 2) right += add_[v];
        return std::min(left, right);
    }
    // Adds v at steps [l, r), l < r.
    void add(int l, int r, Bytes v) {
        const size_t first = size_ + static_cast<size_t>(l), last = size_ + static_cast<size_t>(r) - 1;
        for (size_t lo = first, hi = last + 1; lo < hi; lo /= 2, hi /= 2) {
            if (lo & 1) apply(lo++, v);
            if (hi & 1) apply(--hi, v);
        }
        pullUp(first, last);
    }

private:
    // Far above any count of bytes, and far enough below the largest Bytes that the adds a query
    // sums on its way up (each at most the bytes of all gaps) cannot overflow it.
    static constexpr Bytes kNone = Bytes(1) << 62;
    void apply(size_t v, Bytes value) {
        min_[v] += value;
        if (v < size_) add_[v] += value;
    }
    // The ancestors of two leaves after an add between them, level by level up to the first they
    // share (every node the add changed lies below it); above that, only while a node's minimum
    // changes.
    void pullUp(size_t first, size_t last) {
        size_t l = first / 2, r = last / 2;
        for (; l != r; l /= 2, r /= 2) pull(l), pull(r);
        pull(l);
        for (l /= 2; l >= 1; l /= 2) {
            const Bytes before = min_[l];
            pull(l);
            if (min_[l] == before) break;
        }
    }
    void pull(size_t v) { min_[v] = std::min(min_[2 * v], min_[2 * v + 1]) + add_[v]; }
    size_t size_;
    std::vector<Bytes> min_, add_;
};

std::vector<Bytes> availability(const ResidencyProblem& p, const std::vector<Bytes>& budget) {
    std::vector<Bytes> avail(p.forced.size());
    for (size_t t = 0; t < avail.size(); ++t)
        avail[t] = std::max<Bytes>(0, (budget.empty() ? p.capacity : budget[t]) - p.forced[t]);
    return avail;
}

Bytes totalTraffic(const std::vector<Gap>& gaps, const std::vector<int>& which) {
    Bytes total = 0;
    for (int i : which) total += gaps[i].traffic;
    return total;
}

// A gap's traffic per unit of `unit` bytes (unit divides its size): traffic * unit / size, without
// the product, which exceeds 64 bits on sizes near limits::kMaxBytes (2^37 * 2^36).
MinCostFlow::Amount trafficPerUnit(const Gap& gap, Bytes unit) { return gap.traffic / (gap.size / unit); }

// Whether gap a moves less traffic per byte than gap b: the cross products in 128 bits, as
// traffic (up to 2^37) times size (up to 2^36) does not fit 64.
bool lessTrafficPerByte(const Gap& a, const Gap& b) {
    return static_cast<Wide>(a.traffic) * b.size < static_cast<Wide>(b.traffic) * a.size;
}

// The relaxation of `gaps` (indices into all) under free bytes `avail` per step, as a min-cost
// flow. Constraint rows "kept bytes over step t <= avail(t)", differenced between consecutive
// points where gaps start or end, become flow conservation: a node per point, a gap an arc from
// its first step to the step after its last (capacity its size, cost minus its saving per unit),
// slack arcs along the line, and supplies where availability rises. Units of the gcd of the
// sizes, with availability rounded down to whole units: still a relaxation of whole-gap
// choices, and integral (exact) when all sizes are equal.
// With a `workBudget` (flow work, -1: none) the flow may stop early: `exact` is then false,
// `saved` an upper bound on what the relaxation saves and `kept` not a solution.
struct FlowResult {
    Bytes saved = 0;
    std::vector<Bytes> kept;  // per entry of `which`
    std::int64_t work = 0;
    bool exact = true;
};
// The network and scratch arrays of relaxGaps, kept by a caller that solves many small relaxations
// one after another (the bound's windows: thousands on a huge graph), so that each reuses the
// storage of the one before instead of allocating (and first touching) its own.
struct GapFlowStorage {
    MinCostFlow flow;
    std::vector<int> points;
    std::vector<MinCostFlow::Amount> segment;
    std::vector<int> arcs, arcFrom, arcTo;
};
FlowResult relaxGaps(const std::vector<Gap>& all, const std::vector<int>& which, const std::vector<Bytes>& avail,
                     std::int64_t workBudget, GapFlowStorage& storage) {
    FlowResult r;
    r.kept.assign(which.size(), 0);
    if (which.empty()) return r;
    Bytes unit = 0;
    std::vector<int>& points = storage.points;
    points.clear();
    for (int i : which) {
        unit = std::gcd(unit, all[i].size);
        points.push_back(all[i].from + 1);
        points.push_back(all[i].to);
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    const int k = static_cast<int>(points.size());
    // Segment j = steps [points[j], points[j+1]); its free units are the least over its steps.
    std::vector<MinCostFlow::Amount>& segment = storage.segment;
    segment.assign(static_cast<std::size_t>(k), 0);
    for (int j = 0; j + 1 < k; ++j) {
        Bytes least = avail[points[j]];
        for (int t = points[j] + 1; t < points[j + 1]; ++t) least = std::min(least, avail[t]);
        segment[j] = least / unit;
    }
    MinCostFlow& flow = storage.flow;
    flow.reset(k + 2);
    const int source = 0, sink = k + 1;
    MinCostFlow::Amount supply = 0, previous = 0;
    for (int j = 0; j < k; ++j) {
        const MinCostFlow::Amount d = segment[j] - previous;
        previous = segment[j];
        if (d > 0) {
            flow.addArc(source, j + 1, d, 0);
            supply += d;
        } else if (d < 0) {
            flow.addArc(j + 1, sink, -d, 0);
        }
        if (j + 1 < k) flow.addArc(j + 1, j + 2, kUnbounded, 0);
    }
    std::vector<int>& arcs = storage.arcs;
    std::vector<int>& arcFrom = storage.arcFrom;
    std::vector<int>& arcTo = storage.arcTo;
    arcs.clear();
    arcFrom.clear();
    arcTo.clear();
    for (int i : which) {
        const Gap& gap = all[i];
        if (gap.traffic % (gap.size / unit) != 0)
            throw InternalError("residency: traffic is not a multiple of the size");
        const int from =
            static_cast<int>(std::lower_bound(points.begin(), points.end(), gap.from + 1) - points.begin());
        const int to = static_cast<int>(std::lower_bound(points.begin(), points.end(), gap.to) - points.begin());
        arcs.push_back(flow.addArc(from + 1, to + 1, gap.size / unit, -trafficPerUnit(gap, unit)));
        arcFrom.push_back(from + 1);
        arcTo.push_back(to + 1);
    }
    flow.run(source, sink, supply, workBudget);
    r.work = flow.work() + points.back() - points.front();
    r.exact = flow.finished();
    r.saved = -flow.cost();
    if (!r.exact) {
        // Stopped early: bound the savings from above by weak duality. The potentials give each
        // segment a price y_j = pi(j) - pi(j+1) >= 0 (slack arcs are always residual); any such
        // prices bound the LP by sum_j free_j y_j + sum_i size_i max(0, w_i - sum of y over i).
        Wide dual = 0;
        for (int j = 0; j + 1 < k; ++j)
            dual += static_cast<Wide>(segment[j]) * (flow.potential(j + 1) - flow.potential(j + 2));
        for (size_t a = 0; a < which.size(); ++a) {
            const Gap& gap = all[which[a]];
            const int from = arcFrom[a], to = arcTo[a];
            const Wide w = trafficPerUnit(gap, unit), priced = flow.potential(from) - flow.potential(to);
            if (w > priced) dual += (w - priced) * (gap.size / unit);
        }
        // No choice saves more than all the traffic of the gaps: that cap keeps both bounds (which
        // may exceed 64 bits on huge sizes) within Bytes, and changes no traffic bound (0 either way).
        const Wide floor = -static_cast<Wide>(flow.costFloor());
        r.saved = static_cast<Bytes>(std::min({dual, floor, static_cast<Wide>(totalTraffic(all, which))}));
    }
    for (size_t i = 0; i < which.size(); ++i) r.kept[i] = flow.flowOn(arcs[i]) * unit;
    return r;
}
FlowResult relaxGaps(const std::vector<Gap>& all, const std::vector<int>& which, const std::vector<Bytes>& avail,
                     std::int64_t workBudget = -1) {
    GapFlowStorage storage;
    return relaxGaps(all, which, avail, workBudget, storage);
}

// Gaps that fit even if every gap is kept are kept without a choice: only the rest (the
// contested gaps) go to the solvers. `free` gets the availability left by the uncontested ones.
std::vector<int> contestedGaps(const ResidencyProblem& p, std::vector<Bytes>& free) {
    std::vector<Bytes> load(free.size() + 1, 0);
    for (const Gap& g : p.gaps) {
        load[g.from + 1] += g.size;
        load[g.to] -= g.size;
    }
    std::vector<int> over(free.size() + 1, 0);  // prefix count of steps where keeping all overflows
    Bytes running = 0;
    for (size_t t = 0; t < free.size(); ++t) {
        running += load[t];
        over[t + 1] = over[t] + (running > free[t] ? 1 : 0);
    }
    std::vector<int> contested;
    std::vector<Bytes> uncontested(free.size() + 1, 0);
    for (int i = 0; i < static_cast<int>(p.gaps.size()); ++i) {
        const Gap& g = p.gaps[i];
        if (over[g.to] - over[g.from + 1] > 0) {
            contested.push_back(i);
        } else {
            uncontested[g.from + 1] += g.size;
            uncontested[g.to] -= g.size;
        }
    }
    running = 0;
    for (size_t t = 0; t < free.size(); ++t) {
        running += uncontested[t];
        free[t] -= running;
    }
    return contested;
}

// Gaps `which` from the least traffic per byte to the most, ties by index (a total order): the
// order in which a swap writes out its victims.
std::vector<int> cheapestPerByteFirst(const std::vector<Gap>& gaps, const std::vector<int>& which) {
    std::vector<int> order = which;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (lessTrafficPerByte(gaps[a], gaps[b])) return true;
        return !lessTrafficPerByte(gaps[b], gaps[a]) && a < b;
    });
    return order;
}

// The greedy's plain preference from cheapestPerByteFirst's order: the most traffic per byte
// first, then the shortest, ties by index; each class of equal traffic per byte is already in
// index order there, so only the classes are reversed and each sorted by length (ints, where
// comparing traffic per byte takes two 128-bit products).
std::vector<int> plainPreference(const std::vector<Gap>& gaps, const std::vector<int>& cheapestFirst) {
    std::vector<int> order;
    order.reserve(cheapestFirst.size());
    for (size_t end = cheapestFirst.size(); end > 0;) {
        size_t begin = end - 1;
        while (begin > 0 && !lessTrafficPerByte(gaps[cheapestFirst[begin - 1]], gaps[cheapestFirst[begin]])) --begin;
        const auto at = static_cast<std::ptrdiff_t>(order.size());
        order.insert(order.end(), cheapestFirst.begin() + static_cast<std::ptrdiff_t>(begin),
                     cheapestFirst.begin() + static_cast<std::ptrdiff_t>(end));
        std::stable_sort(order.begin() + at, order.end(),
                         [&](int a, int b) { return gaps[a].to - gaps[a].from < gaps[b].to - gaps[b].from; });
        end = begin;
    }
    return order;
}

// A whole-gap choice among `which` under `free`: gaps in order of preference, each kept if it
// still fits; then swaps: a written-out gap comes back when writing out some kept ones instead
// moves less data.
class GreedyChoice {
public:
    // `cheapestFirst`: cheapestPerByteFirst(gaps, which).
    GreedyChoice(const std::vector<Gap>& gaps, const std::vector<int>& which, const std::vector<int>& cheapestFirst,
                 const std::vector<Bytes>& free)
        : gaps_(gaps), which_(which), slack_(free), keep_(gaps.size(), 0), cheapestFirst_(cheapestFirst) {
        // Buckets of steps as wide as the average gap, each listing the gaps over it: a swap
        // looks at its own span's buckets.
        Bytes span = 0;
        for (int i : which) span += gaps[i].to - gaps[i].from;
        width_ = std::max<int>(1, static_cast<int>(span / std::max<size_t>(1, which.size())));
        // As one array of rows (bucketStart_[b] .. bucketStart_[b + 1]), each cheapest first,
        // filled when a merge first needs them (most problems need none).
        bucketStart_.assign(free.size() / width_ + 2, 0);
        for (int i : which)
            for (int b = (gaps[i].from + 1) / width_; b <= (gaps[i].to - 1) / width_; ++b) ++bucketStart_[b + 1];
        for (size_t b = 1; b < bucketStart_.size(); ++b) bucketStart_[b] += bucketStart_[b - 1];
    }

    void keepInOrder(const std::vector<int>& preference) {
        for (int i : preference) tryKeep(i);
    }

    // Each pass tries the written-out gaps in order of traffic, the most first, ties by index.
    // A swap that succeeds writes out some of its victims: those later in that order are tried in
    // this pass too, the earlier ones in the next.
    void improveBySwaps(int passes) {
        const auto later = [&](int a, int b) {  // a comes after b
            return gaps_[a].traffic != gaps_[b].traffic ? gaps_[a].traffic < gaps_[b].traffic : a > b;
        };
        std::vector<int>& queue = queue_;  // a heap, the next to try on top
        for (int pass = 0; pass < passes; ++pass) {
            queue.clear();
            for (int i : which_)
                if (!keep_[i]) queue.push_back(i);
            std::make_heap(queue.begin(), queue.end(), later);
            bool improved = false;
            while (!queue.empty()) {
                std::pop_heap(queue.begin(), queue.end(), later);
                const int i = queue.back();
                queue.pop_back();
                if (keep_[i] || !swapIn(i)) continue;
                improved = true;
                for (int j : out_)
                    if (!keep_[j] && later(j, i)) queue.push_back(j), std::push_heap(queue.begin(), queue.end(), later);
            }
            if (!improved) break;
        }
    }

    const std::vector<char>& keep() const { return keep_; }
    std::int64_t work() const { return work_; }

private:
    bool fits(int i) {
        ++work_;
        return slack_.min(gaps_[i].from + 1, gaps_[i].to) >= gaps_[i].size;
    }
    void set(int i, bool kept) {
        ++work_;
        keep_[i] = kept;
        slack_.add(gaps_[i].from + 1, gaps_[i].to, kept ? -gaps_[i].size : gaps_[i].size);
    }
    bool tryKeep(int i) {
        if (keep_[i] || !fits(i)) return false;
        set(i, true);
        return true;
    }

    // Calls visit(j) for each kept gap j over in's steps, cheapest per byte first, while it
    // returns true. When in's buckets list at least 1/kMergeBelow of all gaps, from all of them
    // in that order (those over in come early there: a swap visits a few, and the scan costs at
    // most kMergeBelow times a scan of in's buckets); else a merge of the rows of in's buckets,
    // each cheapest first, a gap taken from the first of them it lies over (a later one lists it
    // again only when it starts there).
    template <typename Visit>
    void forEachKeptOver(const Gap& in, Visit visit) {
        constexpr size_t kMergeBelow = 16;
        const int first = in.from + 1, end = in.to;  // in's steps: [first, end)
        const int firstBucket = first / width_, rows = (end - 1) / width_ - firstBucket + 1;
        const auto listed = static_cast<size_t>(bucketStart_[firstBucket + rows] - bucketStart_[firstBucket]);
        if (kMergeBelow * listed >= cheapestFirst_.size()) {
            for (int j : cheapestFirst_)
                if (keep_[j] && gaps_[j].from + 1 < end && first < gaps_[j].to && !visit(j)) return;
            return;
        }
        auto rowEnd = [&](int r) { return bucketStart_[firstBucket + r + 1]; };
        // Moves row r's cursor to its next gap to visit (or its end).
        auto settle = [&](int r) {
            const int bucketFirstStep = r == 0 ? 0 : (firstBucket + r) * width_;
            int& k = cursor_[r];
            for (; k < rowEnd(r); ++k) {
                const BucketGap& e = bucketGaps_[k];
                if (e.first >= bucketFirstStep && keep_[e.gap] && e.first < end && first < e.end) break;
            }
        };
        if (bucketGaps_.empty()) fillBuckets();
        cursor_.assign(bucketStart_.begin() + firstBucket, bucketStart_.begin() + firstBucket + rows);
        for (int r = 0; r < rows; ++r) settle(r);
        for (;;) {
            int next = -1;
            for (int r = 0; r < rows; ++r)
                if (cursor_[r] < rowEnd(r) &&
                    (next < 0 || bucketGaps_[cursor_[r]].rank < bucketGaps_[cursor_[next]].rank))
                    next = r;
            if (next < 0) return;
            const int j = bucketGaps_[cursor_[next]++].gap;
            settle(next);
            if (!visit(j)) return;
        }
    }

    void fillBuckets() {
        bucketGaps_.resize(bucketStart_.back());
        std::vector<int> next(bucketStart_.begin(), bucketStart_.end() - 1);
        for (size_t rank = 0; rank < cheapestFirst_.size(); ++rank) {
            const Gap& g = gaps_[cheapestFirst_[rank]];
            for (int b = (g.from + 1) / width_; b <= (g.to - 1) / width_; ++b)
                bucketGaps_[next[b]++] = {cheapestFirst_[rank], static_cast<int>(rank), g.from + 1, g.to};
        }
    }

    // Writes out overlapping kept gaps, cheapest per byte first, until `i` fits; keeps the swap
    // only if it saves traffic (after taking back any victim that fits again).
    bool swapIn(int i) {
        const Gap& in = gaps_[i];
        work_ += bucketStart_[(in.to - 1) / width_ + 1] - bucketStart_[(in.from + 1) / width_];
        if (surelyFails(in)) return false;
        std::vector<int>& out = out_;
        out.clear();
        Bytes lost = 0;
        forEachKeptOver(in, [&](int j) {
            if (fits(i)) return false;
            set(j, false);
            out.push_back(j);
            lost += gaps_[j].traffic;
            return lost < in.traffic;
        });
        if (!fits(i) || lost >= in.traffic) {
            for (int j : out) set(j, true);
            return false;
        }
        set(i, true);
        for (int j : out)
            if (tryKeep(j)) lost -= gaps_[j].traffic;
        return true;
    }

    // Whether swapping `in` in fails, known without trying it (almost every swap fails, and
    // trying one writes out and takes back a few gaps). The swap writes out victims, the kept
    // gaps over in's steps cheapest per byte first, until their traffic reaches in's, or all of
    // them, testing before each whether `in` fits; it succeeds exactly when `in` fits once the
    // victims before the last are written out (all of them when their traffic stays below in's),
    // as writing out more only makes room. Counts the work trying would have counted: per victim
    // a fit test, a write-out and a take-back, then the last fit test.
    bool surelyFails(const Gap& in) {
        constexpr size_t kMostVictims = 16;  // beyond that, the swap is tried
        std::vector<int>& victims = victims_;
        victims.clear();
        Bytes traffic = 0;
        bool reached = false;  // the victims' traffic reaches in's: they are all the swap writes out
        forEachKeptOver(in, [&](int j) {
            victims.push_back(j);
            reached = (traffic += gaps_[j].traffic) >= in.traffic;
            return !reached && victims.size() <= kMostVictims;
        });
        if (victims.size() > kMostVictims) return false;
        const size_t before = reached ? victims.size() - 1 : victims.size();
        if (fitsWithout(in, before)) return false;
        work_ += 3 * static_cast<std::int64_t>(victims.size()) + 1;
        return true;
    }
    // Whether `in` fits once the first `count` of victims_ are written out: the least free bytes
    // over its steps, each piece of them between the victims' ends with the bytes of the victims
    // over it given back. First the cheap test: all their bytes given back at its tightest step.
    bool fitsWithout(const Gap& in, size_t count) {
        const int first = in.from + 1, last = in.to;
        Bytes freed = 0;
        for (size_t q = 0; q < count; ++q) freed += gaps_[victims_[q]].size;
        if (slack_.min(first, last) + freed < in.size) return false;
        std::vector<int>& ends = ends_;
        ends.assign({first, last});
        for (size_t q = 0; q < count; ++q) {
            const Gap& v = gaps_[victims_[q]];
            ends.push_back(std::max(first, v.from + 1));
            ends.push_back(std::min(last, v.to));
        }
        std::sort(ends.begin(), ends.end());
        ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
        for (size_t e = 0; e + 1 < ends.size(); ++e) {
            Bytes room = slack_.min(ends[e], ends[e + 1]);
            for (size_t q = 0; q < count; ++q) {
                const Gap& v = gaps_[victims_[q]];
                if (v.from + 1 <= ends[e] && ends[e + 1] <= v.to) room += v.size;
            }
            if (room < in.size) return false;
        }
        return true;
    }

    const std::vector<Gap>& gaps_;
    const std::vector<int>& which_;
    SlackTree slack_;
    std::vector<char> keep_;
    const std::vector<int>& cheapestFirst_;
    int width_ = 1;
    // A gap in a bucket's row, with its place in cheapestPerByteFirst's order and its steps
    // [first, end) beside it: a merge reads the rows alone.
    struct BucketGap {
        int gap, rank, first, end;
    };
    std::vector<int> bucketStart_;
    std::vector<BucketGap> bucketGaps_;
    std::vector<int> victims_, ends_, out_, queue_, cursor_;  // kept to reuse their storage
    std::int64_t work_ = 0;
};

// Depth-first branch and bound over the contested gaps, each node bounded by the relaxation of
// the gaps still open. Exact when it finishes within `nodeBudget` nodes.
class BranchAndBound {
public:
    BranchAndBound(const std::vector<Gap>& gaps, int nodeBudget) : gaps_(gaps), budget_(nodeBudget) {}

    std::int64_t work() const { return work_; }

    // Improves `best` (a feasible choice and its traffic among `which`); true when proven optimal.
    // `root`: the relaxation of `which` under `free`, solved already by the caller.
    bool solve(const std::vector<int>& which, const std::vector<Bytes>& free, const FlowResult& root,
               std::vector<char>& best, Bytes& bestTraffic) {
        best_ = &best;
        bestTraffic_ = &bestTraffic;
        current_ = best;
        for (int i : which) current_[i] = 0;
        explore(which, free, 0, &root);
        return nodes_ <= budget_;
    }

private:
    // `solved`: this node's relaxation when known (the root's), else it is solved here.
    void explore(const std::vector<int>& open, const std::vector<Bytes>& free, Bytes dropped,
                 const FlowResult* solved = nullptr) {
        if (++nodes_ > budget_) return;
        const FlowResult lp = solved ? *solved : relaxGaps(gaps_, open, free, -1, storage_);
        work_ += lp.work;
        const Bytes bound = dropped + totalTraffic(gaps_, open) - lp.saved;
        if (bound >= *bestTraffic_) return;
        // Branch on the open gap the relaxation keeps most of without keeping it whole.
        int branch = -1;
        double bestFraction = -1;
        for (size_t k = 0; k < open.size(); ++k) {
            const Gap& g = gaps_[open[k]];
            if (lp.kept[k] == 0 || lp.kept[k] == g.size) continue;
            const double fraction = static_cast<double>(lp.kept[k]) / static_cast<double>(g.size);
            if (fraction > bestFraction) bestFraction = fraction, branch = static_cast<int>(k);
        }
        if (branch < 0) {  // integral: a feasible choice at the bound
            for (size_t k = 0; k < open.size(); ++k) current_[open[k]] = lp.kept[k] == gaps_[open[k]].size;
            *best_ = current_;
            *bestTraffic_ = bound;
            for (int i : open) current_[i] = 0;
            return;
        }
        const int i = open[branch];
        std::vector<int> rest = open;
        rest.erase(rest.begin() + branch);
        const Gap& g = gaps_[i];
        std::vector<Bytes> kept = free;
        bool fits = true;
        for (int t = g.from + 1; t < g.to; ++t) {
            kept[t] -= g.size;
            fits &= kept[t] >= 0;
        }
        if (fits) {
            current_[i] = 1;
            explore(rest, kept, dropped);
            current_[i] = 0;
        }
        // A child's relaxation is this one's with gap i fixed, so its bound is at least this
        // one's: when the first child brought the best down to it, the second is cut without
        // solving its flow (counted as the node it would have been).
        if (bound >= *bestTraffic_) {
            ++nodes_;
            return;
        }
        explore(rest, free, dropped + g.traffic);
    }

    const std::vector<Gap>& gaps_;
    int budget_;
    int nodes_ = 0;
    std::int64_t work_ = 0;  // the flows' work
    GapFlowStorage storage_;
    std::vector<char> current_;
    std::vector<char>* best_ = nullptr;
    Bytes* bestTraffic_ = nullptr;
};

}  // namespace

namespace {
// Each node's step in `order` (indexed like Graph::nodes). Ids by a flat table where they are
// dense (id_table.h): the graph's hash map was a cache miss or two a step.
std::vector<int> stepsOf(const Graph& g, const Order& order) {
    std::vector<NodeId> ids;
    ids.reserve(g.nodes.size());
    for (const Node& n : g.nodes) ids.push_back(n.id);
    const IdTable index = IdTable::positions(ids);
    std::vector<int> stepOf(g.nodes.size(), -1);
    for (size_t s = 0; s < order.size(); ++s) {
        const int i = index.find(order[s]);
        if (i < 0) throw InternalError("residency: the order names unknown node " + std::to_string(order[s]));
        stepOf[i] = static_cast<int>(s);
    }
    return stepOf;
}

// Buffer b's forced bytes and gaps into `p`, from the steps at which it is allocated, used or
// freed (ascending, distinct).
void addBufferUses(const Graph& g, int b, const std::vector<int>& uses, ResidencyProblem& p) {
    const Buffer& buf = g.buffers[b];
    const Bytes traffic = spillTrafficBytes(buf);
    for (size_t i = 0; i < uses.size(); ++i) {
        p.forced[uses[i]] += buf.size;
        if (i + 1 < uses.size() && uses[i + 1] > uses[i] + 1)
            p.gaps.push_back({b, uses[i], uses[i + 1], buf.size, traffic});
    }
}

// The problem of memory `type` into `p`, whose vectors keep their storage: the bounds solve the
// memories one after another in one problem, where five problems built at once were five arrays
// of forced bytes over 10^6 steps (40 MB) to fault in. False, `p` unspecified, when no buffer of
// the graph is in that memory.
bool buildProblem(const Graph& g, const std::vector<int>& stepOf, const std::string& type, Bytes capacity,
                  ResidencyProblem& p) {
    const Name memory(type);
    p.type = type;
    p.capacity = capacity;
    p.gaps.clear();
    bool used = false;
    std::vector<int> uses;
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        const Buffer& buf = g.buffers[b];
        if (buf.type != memory) continue;
        if (!used) p.forced.assign(stepOf.size(), 0), used = true;
        uses.clear();
        uses.push_back(stepOf[buf.allocNode]);
        for (int u : buf.users) uses.push_back(stepOf[u]);
        uses.push_back(stepOf[buf.freeNode]);
        std::sort(uses.begin(), uses.end());
        uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
        addBufferUses(g, static_cast<int>(b), uses, p);
    }
    return used;
}
}  // namespace

void residencyProblemFromUses(const Graph& g, const std::vector<int>& buffers,
                              const std::vector<std::vector<int>>& uses, std::size_t steps, ResidencyProblem& p) {
    p.forced.assign(steps, 0);
    p.gaps.clear();
    for (int b : buffers) addBufferUses(g, b, uses[b], p);
}

std::vector<ResidencyProblem> residencyProblems(const Graph& g, const Order& order, const Capacities& caps) {
    return residencyProblemsAt(g, stepsOf(g, order), caps);
}

std::vector<ResidencyProblem> residencyProblemsAt(const Graph& g, const std::vector<int>& stepOf,
                                                  const Capacities& caps) {
    std::vector<ResidencyProblem> problems;
    for (const auto& [type, capacity] : caps) {
        ResidencyProblem p;
        if (buildProblem(g, stepOf, type, capacity, p)) problems.push_back(std::move(p));
    }
    return problems;
}

Relaxation relaxResidency(const ResidencyProblem& p, const std::vector<Bytes>& budget, std::int64_t flowWork) {
    Relaxation r;
    std::vector<Bytes> free = availability(p, budget);
    const std::vector<int> contested = contestedGaps(p, free);
    const FlowResult lp = relaxGaps(p.gaps, contested, free, flowWork);
    r.kept.resize(p.gaps.size());
    for (size_t i = 0; i < p.gaps.size(); ++i) r.kept[i] = p.gaps[i].size;
    r.exact = lp.exact;
    r.integral = lp.exact;
    for (size_t k = 0; k < contested.size(); ++k) {
        r.kept[contested[k]] = lp.kept[k];
        r.integral &= lp.kept[k] == 0 || lp.kept[k] == p.gaps[contested[k]].size;
    }
    r.traffic = std::max<Bytes>(0, totalTraffic(p.gaps, contested) - lp.saved);
    return r;
}

namespace {
// The branch and bound over `contested` from `choice` (its greedy choice) under `free`, its root
// the relaxation `lp` (exact), within `nodes` nodes.
ExactSearchOutcome searchExactly(const std::vector<Gap>& gaps, const std::vector<int>& contested,
                                 const std::vector<Bytes>& free, const FlowResult& lp, std::int64_t nodes,
                                 const ResidencyChoice& choice) {
    std::vector<char> keep = choice.keep;
    Bytes traffic = choice.traffic;
    BranchAndBound search(gaps, static_cast<int>(nodes));
    ExactSearchOutcome found;
    found.optimal = search.solve(contested, free, lp, keep, traffic);
    found.traffic = traffic;
    found.work = search.work();
    found.contested = contested.size();
    for (size_t k = 0; k < contested.size(); ++k)
        if (!keep[contested[k]]) found.writtenOut.push_back(static_cast<int>(k));
    return found;
}

// searchExactly through `searches`, by all the search reads: its node budget, then the contested
// gaps between the points where one starts or ends (relaxGaps' segments): each segment's least
// free bytes, each gap's first and last segment, size, traffic and whether the greedy keeps it.
// Everything it does, its flows included, is a function of these.
ExactSearchOutcome searchRemembered(const std::vector<Gap>& gaps, const std::vector<int>& contested,
                                    const std::vector<Bytes>& free, const FlowResult& lp, std::int64_t nodes,
                                    const ResidencyChoice& choice, FingerprintMemo<ExactSearchOutcome>& searches) {
    std::vector<int> points;
    points.reserve(2 * contested.size());
    for (int i : contested) points.push_back(gaps[i].from + 1), points.push_back(gaps[i].to);
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    Fingerprint f;
    f.add(nodes);
    f.add(static_cast<std::int64_t>(points.size()));
    for (size_t j = 0; j + 1 < points.size(); ++j)
        f.add(*std::min_element(free.begin() + points[j], free.begin() + points[j + 1]));
    auto pointOf = [&](int step) { return std::lower_bound(points.begin(), points.end(), step) - points.begin(); };
    f.add(static_cast<std::int64_t>(contested.size()));
    for (int i : contested) {
        const Gap& g = gaps[i];
        for (std::int64_t v : {std::int64_t{pointOf(g.from + 1)}, std::int64_t{pointOf(g.to)}, g.size, g.traffic,
                               std::int64_t{choice.keep[i]}})
            f.add(v);
    }
    const Fingerprint::Value key = f.value();
    if (const ExactSearchOutcome* known = searches.find(key); known && known->contested == contested.size())
        return *known;
    ExactSearchOutcome found = searchExactly(gaps, contested, free, lp, nodes, choice);
    searches.remember(key, found);
    return found;
}

ResidencyChoice chooseResidencyWith(const ResidencyProblem& p, const std::vector<Bytes>& budget, ResidencyEffort effort,
                                    FingerprintMemo<ExactSearchOutcome>* searches) {
    ResidencyChoice choice;
    std::vector<Bytes> free = availability(p, budget);
    const std::vector<int> contested = contestedGaps(p, free);
    choice.keep.assign(p.gaps.size(), 1);
    for (int i : contested) choice.keep[i] = 0;
    if (contested.empty()) {
        choice.optimal = true;
        return choice;
    }
    // Greedy: gaps in order of preference, each kept if it fits; then improving swaps. Plain
    // preference: the most traffic per byte, then the shortest.
    const std::vector<int> cheapestFirst = cheapestPerByteFirst(p.gaps, contested);
    const std::vector<int> plain = plainPreference(p.gaps, cheapestFirst);
    auto greedy = [&](const std::vector<int>& preference, std::vector<char>& keep) {
        GreedyChoice choose(p.gaps, contested, cheapestFirst, free);
        choose.keepInOrder(preference);
        choose.improveBySwaps(effort.swapPasses);
        choice.work += choose.work() + static_cast<std::int64_t>(preference.size());
        Bytes traffic = 0;
        for (int i : contested) {
            keep[i] = choose.keep()[i];
            if (!keep[i]) traffic += p.gaps[i].traffic;
        }
        return traffic;
    };
    choice.traffic = greedy(plain, choice.keep);
    if (!effort.relaxation) return choice;
    // The relaxation: integral means optimal; else its fractions guide a second greedy.
    const FlowResult lp = relaxGaps(p.gaps, contested, free, effort.flowWork);
    choice.work += lp.work;
    if (!lp.exact) return choice;  // out of budget: no fractions to guide, no bound to prove
    const Bytes bound = totalTraffic(p.gaps, contested) - lp.saved;
    std::vector<double> fraction(p.gaps.size(), 0);
    bool integral = true;
    for (size_t k = 0; k < contested.size(); ++k) {
        const Bytes kept = lp.kept[k];
        integral &= kept == 0 || kept == p.gaps[contested[k]].size;
        fraction[contested[k]] = static_cast<double>(kept) / static_cast<double>(p.gaps[contested[k]].size);
    }
    if (integral) {
        for (size_t k = 0; k < contested.size(); ++k) choice.keep[contested[k]] = lp.kept[k] > 0;
        choice.traffic = bound;
        choice.optimal = true;
        return choice;
    }
    // Guided: the most kept by the relaxation first, then as the plain preference.
    std::vector<int> byFraction = plain;
    std::stable_sort(byFraction.begin(), byFraction.end(), [&](int a, int b) { return fraction[a] > fraction[b]; });
    std::vector<char> guided = choice.keep;
    const Bytes guidedTraffic = greedy(byFraction, guided);
    if (guidedTraffic < choice.traffic) {
        choice.keep.swap(guided);
        choice.traffic = guidedTraffic;
    }
    choice.optimal = choice.traffic == bound;
    if (!choice.optimal && static_cast<int>(contested.size()) <= kExactGaps) {
        const std::int64_t nodes =
            std::min<std::int64_t>(effort.exactNodes, kExactWork / static_cast<std::int64_t>(contested.size()));
        const ExactSearchOutcome found = searches
                                             ? searchRemembered(p.gaps, contested, free, lp, nodes, choice, *searches)
                                             : searchExactly(p.gaps, contested, free, lp, nodes, choice);
        for (int i : contested) choice.keep[i] = 1;
        for (int k : found.writtenOut) choice.keep[contested[k]] = 0;
        choice.traffic = found.traffic;
        choice.optimal = found.optimal;
        choice.exactWork = found.work;
    }
    return choice;
}
}  // namespace

ResidencyChoice chooseResidency(const ResidencyProblem& p, const std::vector<Bytes>& budget, ResidencyEffort effort) {
    return chooseResidencyWith(p, budget, effort, nullptr);
}

ResidencyChoice ResidencyMemo::choose(const ResidencyProblem& p, const std::vector<Bytes>& budget,
                                      ResidencyEffort effort) {
    Fingerprint f;
    for (std::int64_t v : {std::int64_t{effort.relaxation}, std::int64_t{effort.exactNodes},
                           std::int64_t{effort.swapPasses}, effort.flowWork, p.capacity})
        f.add(v);
    f.addAll(p.forced);
    f.addAll(budget);
    f.add(static_cast<std::int64_t>(p.gaps.size()));
    for (const Gap& g : p.gaps)
        for (std::int64_t v : {std::int64_t{g.buf}, std::int64_t{g.from}, std::int64_t{g.to}, g.size, g.traffic})
            f.add(v);
    const Fingerprint::Value key = f.value();
    if (const Entry* e = entries_.find(key); e && e->gaps == p.gaps.size()) {
        ResidencyChoice choice{std::vector<char>(p.gaps.size(), 1), e->traffic, e->optimal, e->work, e->exactWork};
        for (int i : e->writtenOut) choice.keep[i] = 0;
        return choice;
    }
    ResidencyChoice choice = chooseResidencyWith(p, budget, effort, &searches_);
    if (!effort.relaxation || choice.work == 0) return choice;  // the greedy alone, or nothing contested
    const auto written = static_cast<std::size_t>(std::count(choice.keep.begin(), choice.keep.end(), 0));
    if (choice.exactWork == 0 && written > kMostWrittenOut) return choice;
    Entry e{choice.traffic, choice.optimal, choice.work, choice.exactWork, {}, p.gaps.size()};
    e.writtenOut.reserve(written);
    for (size_t i = 0; i < choice.keep.size(); ++i)
        if (!choice.keep[i]) e.writtenOut.push_back(static_cast<int>(i));
    entries_.remember(key, std::move(e));
    return choice;
}

std::int64_t boundFlowWork(size_t steps) {
    return std::max<std::int64_t>(kBoundWorkFloor, kBoundWorkPerStep * static_cast<std::int64_t>(steps));
}

// Each contested gap goes to the window of its first resident step, with all its traffic but cut
// at that window's end: any choice of the whole problem, cut so, is a choice of the windows'
// problems saving as much (a cut gap takes bytes over fewer steps), so the windows' savings
// summed are at least the relaxation's and their traffic a lower bound. The windows' flows are
// independent and small: linear in all, where one flow over the whole time line is not.
Bytes windowedRelaxation(const ResidencyProblem& p, int windowSteps, std::int64_t workPerStep) {
    std::vector<Bytes> free = availability(p, {});
    const std::vector<int> contested = contestedGaps(p, free);
    const int windows = static_cast<int>(p.forced.size() / windowSteps) + 1;
    std::vector<std::vector<int>> starting(windows);
    for (int i : contested) starting[(p.gaps[i].from + 1) / windowSteps].push_back(i);
    Bytes traffic = 0;
    std::vector<Gap> cut;
    std::vector<int> which;
    std::vector<Bytes> load(windowSteps + 1);
    GapFlowStorage storage;
    for (int w = 0; w < windows; ++w) {
        if (starting[w].empty()) continue;
        const int begin = w * windowSteps, end = begin + windowSteps;  // end: the first step after the window
        cut.clear();
        std::fill(load.begin(), load.end(), 0);
        for (int i : starting[w]) {
            Gap gap = p.gaps[i];
            gap.to = std::min(gap.to, end);
            cut.push_back(gap);
            load[gap.from + 1 - begin] += gap.size;
            load[gap.to - begin] -= gap.size;
        }
        // A window whose cut gaps all fit at every step keeps them all: its traffic is 0, and so
        // is the flow's (stopped early too, as its savings are then bounded from above), so it is
        // not run. In whole units too: the sizes are multiples of the unit.
        Bytes kept = 0;
        bool fits = true;
        for (int t = begin; t < end && t < static_cast<int>(free.size()) && fits; ++t)
            fits = (kept += load[t - begin]) <= free[t];
        if (fits) continue;
        which.resize(cut.size());
        std::iota(which.begin(), which.end(), 0);
        const FlowResult lp = relaxGaps(cut, which, free, workPerStep * windowSteps, storage);
        traffic += std::max<Bytes>(0, totalTraffic(cut, which) - lp.saved);
    }
    return traffic;
}

TrafficBound trafficLowerBound(const Graph& g, const Order& order, const Capacities& caps, std::int64_t flowWork) {
    TrafficBound bound;
    const bool windowed = flowWork < 0 && isHugeGraph(order.size());
    if (flowWork < 0) flowWork = kBoundFlowWork;
    const std::vector<int> stepOf = stepsOf(g, order);
    ResidencyProblem p;
    for (const auto& [type, capacity] : caps) {
        if (!buildProblem(g, stepOf, type, capacity, p)) continue;
        Relaxation r;
        if (!windowed) r = relaxResidency(p, {}, flowWork);
        if (windowed || !r.exact) {
            r.traffic = std::max(r.traffic, windowedRelaxation(p));
            r.exact = false;
        }
        bound.byType[p.type] = r.traffic;
        bound.total += r.traffic;
        bound.exact &= r.exact;
    }
    return bound;
}

Bytes excessBound(const ResidencyProblem& p, int windowSteps) {
    const std::vector<Bytes> free = availability(p, {});
    const int steps = static_cast<int>(free.size());
    // Gaps' bytes entering and leaving each step, by class of traffic per byte: `cheap` below 2
    // (a COPY_IN buffer's, 1), the rest at least 2. A gap leaves at its end or its window's end,
    // whichever is first, so the running sums at a step are the loads of its window's gaps alone.
    std::vector<Bytes> cheap(steps + 1, 0), dear(steps + 1, 0);
    for (const Gap& gap : p.gaps) {
        const int first = gap.from + 1;
        const int end = std::min(gap.to, (first / windowSteps + 1) * windowSteps);
        std::vector<Bytes>& load = gap.traffic < 2 * gap.size ? cheap : dear;
        load[first] += gap.size;
        load[end] -= gap.size;
    }
    Bytes total = 0, windowMost = 0, cheapLoad = 0, dearLoad = 0;
    for (int t = 0; t < steps; ++t) {
        if (t % windowSteps == 0) total += windowMost, windowMost = 0;
        cheapLoad += cheap[t];
        dearLoad += dear[t];
        const Bytes over = cheapLoad + dearLoad - free[t];
        if (over > 0)
            windowMost = std::max(windowMost, std::min(over, cheapLoad) + 2 * std::max<Bytes>(0, over - cheapLoad));
    }
    return total + windowMost;
}

Bytes excessBound(const Graph& g, const Order& order, const Capacities& caps) {
    Bytes total = 0;
    const std::vector<int> stepOf = stepsOf(g, order);
    ResidencyProblem p;
    for (const auto& [type, capacity] : caps)
        if (buildProblem(g, stepOf, type, capacity, p)) total += excessBound(p);
    return total;
}

}  // namespace spillway
