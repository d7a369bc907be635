// The verifier's timing check: when the bytes a buffer is placed over were last left. A tuned
// structure (a segment tree over compressed offsets) and the definition it must agree with (a
// list of every leave, scanned), which tests/cpp/test_leave_times.cpp compares on random leaves.
// Header-only: the verifier links the model library alone.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "spillway/graph.h"

namespace spillway {

// The latest leave of each byte of one memory, over compressed offsets: a segment tree with
// "raise a range to at least (time, leave)" and "latest (time, leave) over a range". A leave's
// number names it: the node of the leave released the bytes (one buffer per node).
class LeaveTimes {
public:
    // (time, number of the leave); -1: never. Leaves are numbered in the order's sequence, so their
    // numbers order them as their steps would.
    using Leave = std::pair<Cycles, std::int64_t>;
    static constexpr Leave kNever{0, -1};
    explicit LeaveTimes(std::vector<Bytes> coords) : coords_(std::move(coords)) {
        std::sort(coords_.begin(), coords_.end());
        coords_.erase(std::unique(coords_.begin(), coords_.end()), coords_.end());
        n_ = std::max<std::size_t>(1, coords_.size());
        max_.assign(4 * n_, kNever);
        lazy_.assign(4 * n_, kNever);
    }
    // An empty range holds no byte: never left, and leaving it leaves nothing (the tree's walk
    // would otherwise meet the raises on the path to its one index).
    Leave latest(Bytes from, Bytes to) { return from < to ? query(1, 0, n_, index(from), index(to)) : kNever; }
    void leave(Bytes from, Bytes to, Leave t) {
        if (from < to) raise(1, 0, n_, index(from), index(to), t);
    }

private:
    std::size_t index(Bytes x) const {
        return static_cast<std::size_t>(std::lower_bound(coords_.begin(), coords_.end(), x) - coords_.begin());
    }
    Leave query(std::size_t node, std::size_t lo, std::size_t hi, std::size_t l, std::size_t r) {
        if (r <= lo || hi <= l) return kNever;
        if (l <= lo && hi <= r) return max_[node];
        const std::size_t mid = (lo + hi) / 2;
        return std::max({lazy_[node], query(2 * node, lo, mid, l, r), query(2 * node + 1, mid, hi, l, r)});
    }
    void raise(std::size_t node, std::size_t lo, std::size_t hi, std::size_t l, std::size_t r, Leave t) {
        if (r <= lo || hi <= l) return;
        max_[node] = std::max(max_[node], t);
        if (l <= lo && hi <= r) {
            lazy_[node] = std::max(lazy_[node], t);
            return;
        }
        const std::size_t mid = (lo + hi) / 2;
        raise(2 * node, lo, mid, l, r, t);
        raise(2 * node + 1, mid, hi, l, r, t);
    }
    std::vector<Bytes> coords_;
    std::size_t n_;
    std::vector<Leave> max_, lazy_;  // lazy_: a raise covering the whole node (applies below it)
};

// LeaveTimes by its definition: every leave kept, the latest of those sharing a byte with the
// range found by a scan. Quadratic over a plan, for tests.
class LeaveTimesReference {
public:
    using Leave = LeaveTimes::Leave;
    Leave latest(Bytes from, Bytes to) const {
        Leave best = LeaveTimes::kNever;
        for (const Left& l : left_)
            if (std::max(l.from, from) < std::min(l.to, to)) best = std::max(best, l.leave);
        return best;
    }
    void leave(Bytes from, Bytes to, Leave t) { left_.push_back({from, to, t}); }

private:
    struct Left {
        Bytes from, to;
        Leave leave;
    };
    std::vector<Left> left_;
};

}  // namespace spillway
