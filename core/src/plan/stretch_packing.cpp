#include "stretch_packing.h"

#include <algorithm>

namespace spillway {
namespace {

// The stretches placed so far, bucketed by time so that finding those overlapping a stretch
// looks only at its own stretch of time: packing stays near-linear on large graphs. A stretch
// over more than kLongBuckets buckets is kept in one list instead, read by every query: in every
// bucket, a graph whose buffers all live at once (thousands of ALLOCs before one node) made each
// query read every placed stretch once per bucket, cubic in them.
class TimeIndex {
public:
    explicit TimeIndex(const std::vector<Stretch>& all) : all_(all), seen_(all.size(), 0) {
        Time end = 1;
        for (const Stretch& s : all) end = std::max(end, s.to);
        width_ = std::max<Time>(4, end / std::max<Time>(1, static_cast<Time>(all.size())) * 4);
        buckets_.resize(static_cast<size_t>(end / width_ + 1));
    }
    void add(int i) {
        const Time first = all_[i].from / width_, last = (all_[i].to - 1) / width_;
        if (last - first >= kLongBuckets) {
            long_.push_back(i);
            return;
        }
        for (Time b = first; b <= last; ++b) buckets_[b].push_back(i);
    }
    template <typename F>
    void forEachOverlapping(const Stretch& s, F&& f) {
        ++stamp_;
        for (int j : long_) {
            const Stretch& o = all_[j];
            if (o.from < s.to && s.from < o.to) f(o);
        }
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
    static constexpr Time kLongBuckets = 64;
    std::vector<int> long_;  // stretches over more than kLongBuckets buckets
};

// The free ranges of [0, capacity) outside `busy` ([offset, end) pairs, sorted by offset).
template <typename F>
void forEachGap(const std::vector<std::pair<Bytes, Bytes>>& busy, Bytes capacity, F&& f) {
    Bytes at = 0;
    for (auto [start, end] : busy) {
        if (start > at) f(at, start);
        at = std::max(at, end);
    }
    if (capacity > at) f(at, capacity);
}

// `gaps`, when given: per stretch, every gap free over its time span when it was packed.
// `unplaced`, when given: the packing goes on past a stretch that finds no room (leaving it out)
// and collects every such stretch; the first is the one returned.
template <typename Before>
std::optional<Stretch> packInOrder(std::vector<Stretch>& stretches, Bytes capacity, Before before,
                                   std::vector<std::vector<Hole>>* gaps = nullptr,
                                   std::vector<Stretch>* unplaced = nullptr) {
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
        Bytes bestOffset = -1, bestGap = 0;
        forEachGap(busy, capacity, [&](Bytes gapStart, Bytes gapEnd) {
            const Bytes gap = gapEnd - gapStart;
            if (gaps) (*gaps)[i].push_back({gapStart, gapEnd});
            if (gap >= s.size && (bestOffset < 0 || gap < bestGap)) {
                bestOffset = gapStart;
                bestGap = gap;
            }
        });
        if (bestOffset < 0) {
            if (!unplaced) return s;
            unplaced->push_back(s);
            continue;
        }
        s.offset = bestOffset;
        placed.add(i);
    }
    if (unplaced && !unplaced->empty()) return unplaced->front();
    return std::nullopt;
}

using Before = bool (*)(const Stretch&, const Stretch&);
struct PackOrder {
    const char* name;
    Before before;
};
constexpr PackOrder kPackOrders[] = {
    {"largest stretch first",
     [](const Stretch& x, const Stretch& y) { return x.size != y.size ? x.size > y.size : x.from < y.from; }},
    {"longest stretch first",
     [](const Stretch& x, const Stretch& y) {
         return x.to - x.from != y.to - y.from ? x.to - x.from > y.to - y.from : x.size > y.size;
     }},
    {"largest area first",
     [](const Stretch& x, const Stretch& y) {
         const auto ax = x.size * (x.to - x.from), ay = y.size * (y.to - y.from);
         return ax != ay ? ax > ay : x.from < y.from;
     }},
    {"earliest first",
     [](const Stretch& x, const Stretch& y) { return x.from != y.from ? x.from < y.from : x.size > y.size; }},
};

}  // namespace

// Stretches one by one into the smallest gap free over their whole time span, in
// one of several orders (largest first; longest first; largest area first; earliest first):
// no order wins on every memory, and trying four costs little.
std::optional<Stretch> packStretches(std::vector<Stretch>& stretches, Bytes capacity, PackingNotes* notes,
                                     std::vector<Stretch>* unplaced) {
    std::optional<Stretch> firstFailure;
    for (const PackOrder& order : kPackOrders) {
        std::optional<Stretch> failed =
            packInOrder(stretches, capacity, order.before, nullptr, &order == kPackOrders ? unplaced : nullptr);
        if (failed) {
            if (!firstFailure) firstFailure = failed;
            continue;
        }
        if (notes) {  // once more in the order that packed, noting the gaps each stretch weighed
            notes->order = order.name;
            notes->gaps.assign(stretches.size(), {});
            packInOrder(stretches, capacity, order.before, &notes->gaps);
        }
        return std::nullopt;
    }
    return firstFailure;
}

std::vector<std::vector<Hole>> gapsAround(const std::vector<Stretch>& stretches, Bytes capacity) {
    TimeIndex all(stretches);
    for (size_t i = 0; i < stretches.size(); ++i) all.add(static_cast<int>(i));
    std::vector<std::vector<Hole>> gaps(stretches.size());
    std::vector<std::pair<Bytes, Bytes>> busy;
    for (size_t i = 0; i < stretches.size(); ++i) {
        const Stretch& s = stretches[i];
        busy.clear();
        all.forEachOverlapping(s, [&](const Stretch& o) {
            if (&o != &s) busy.emplace_back(o.offset, o.offset + o.size);
        });
        std::sort(busy.begin(), busy.end());
        forEachGap(busy, capacity, [&](Bytes start, Bytes end) { gaps[i].push_back({start, end}); });
    }
    return gaps;
}

}  // namespace spillway
