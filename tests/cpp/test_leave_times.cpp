// The verifier's leave times (core/src/verify/leave_times.h): the tuned segment tree against the
// definition it stands for, on random leaves and queries over a memory's offsets.
#include <random>

#include "../../core/src/verify/leave_times.h"
#include "support.h"

using namespace spillway;

TEST_CASE("leave times: the segment tree gives the latest leave the definition gives, on random ranges") {
    std::mt19937_64 rng(7);
    auto below = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
    int nonTrivial = 0;
    for (int round = 0; round < 200; ++round) {
        CAPTURE(round);
        // The offsets anything is placed at: both ends of every range asked about.
        std::vector<Bytes> coords;
        const int points = 2 + static_cast<int>(below(30));
        for (int i = 0; i < points; ++i) coords.push_back(below(1000));
        LeaveTimes tuned(coords);
        LeaveTimesReference reference;
        std::int64_t number = 0;
        for (int op = 0; op < 60; ++op) {
            Bytes from = coords[static_cast<std::size_t>(below(points))];
            Bytes to = coords[static_cast<std::size_t>(below(points))];
            if (from > to) std::swap(from, to);
            if (below(2) == 0) {
                const LeaveTimes::Leave t{below(50), number++};
                tuned.leave(from, to, t);
                reference.leave(from, to, t);
            } else {
                const LeaveTimes::Leave expected = reference.latest(from, to);
                CHECK(tuned.latest(from, to) == expected);
                nonTrivial += expected != LeaveTimes::kNever;
            }
        }
    }
    CHECK(nonTrivial > 1000);  // most queries meet a leave: the comparison is not of empty memories
}

TEST_CASE("leave times: half-open ranges, ties broken by the later leave") {
    LeaveTimes tuned({0, 10, 20, 30});
    tuned.leave(0, 10, {5, 0});
    tuned.leave(20, 30, {5, 1});
    CHECK(tuned.latest(10, 20) == LeaveTimes::kNever);  // touches both, shares no byte
    CHECK(tuned.latest(0, 30) == LeaveTimes::Leave{5, 1});
    CHECK(tuned.latest(0, 20) == LeaveTimes::Leave{5, 0});
}
