#include <vector>

#include "../../core/src/bound/min_cost_flow.h"
#include "../../core/src/model/rng.h"
#include "support.h"

using namespace spillway;

namespace {
// A time line of `points` nodes between a source and a sink, as the residency relaxation builds
// it: free slack arcs along the line, supplies and demands where the free room changes, and
// chords (gaps) of negative cost. Costs are multiplied by `scale`.
struct Line {
    MinCostFlow flow;
    std::vector<int> arcs;
    MinCostFlow::Amount supply = 0;
};
// Adds the line's arcs to `flow` (of points + 2 nodes); returns their indices, adds the supply.
std::vector<int> addRandomLine(MinCostFlow& flow, std::uint64_t seed, int points, int chords, MinCostFlow::Amount scale,
                               MinCostFlow::Amount& supply) {
    Rng rng(seed);
    std::vector<int> arcs;
    MinCostFlow::Amount previous = 0;
    for (int j = 1; j <= points; ++j) {
        const MinCostFlow::Amount room = rng.between(0, 6);
        if (room > previous) {
            arcs.push_back(flow.addArc(0, j, room - previous, 0));
            supply += room - previous;
        } else if (room < previous) {
            arcs.push_back(flow.addArc(j, points + 1, previous - room, 0));
        }
        previous = room;
        if (j < points) arcs.push_back(flow.addArc(j, j + 1, MinCostFlow::Amount(1) << 40, 0));
    }
    for (int c = 0; c < chords; ++c) {
        const int from = static_cast<int>(rng.between(1, points - 1));
        const int to = static_cast<int>(rng.between(from + 1, points));
        arcs.push_back(flow.addArc(from, to, rng.between(1, 3), -rng.between(1, 2) * scale));
    }
    return arcs;
}
Line randomLine(std::uint64_t seed, int points, int chords, MinCostFlow::Amount scale) {
    Line line{MinCostFlow(points + 2), {}, 0};
    line.arcs = addRandomLine(line.flow, seed, points, chords, scale, line.supply);
    return line;
}
}  // namespace

TEST_CASE("min-cost flow: distances too large for a word give the same flow, cost and work") {
    // Costs times 2^45 put Dijkstra's distances beyond a word's 43 bits: those phases run with
    // pairs. Same pops in the same order, so the same flow on every arc and the same work count,
    // also when the budget stops the flow early.
    const MinCostFlow::Amount huge = MinCostFlow::Amount(1) << 45;
    int stopped = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        for (std::int64_t budget : {std::int64_t{-1}, std::int64_t{2000}}) {
            Line small = randomLine(seed, 60, 80, 1);
            Line large = randomLine(seed, 60, 80, huge);
            INFO("seed " << seed << ", budget " << budget);
            const MinCostFlow::Amount sent = small.flow.run(0, 61, small.supply, budget);
            CHECK(large.flow.run(0, 61, large.supply, budget) == sent);
            CHECK(large.flow.cost() == small.flow.cost() * huge);
            if (budget < 0) CHECK(small.flow.cost() < 0);
            CHECK(large.flow.work() == small.flow.work());
            CHECK(large.flow.finished() == small.flow.finished());
            stopped += !small.flow.finished() && small.flow.cost() < 0;  // stopped after some flow
            for (size_t a = 0; a < small.arcs.size(); ++a) CHECK(large.flow.flowOn(large.arcs[a]) == small.flow.flowOn(small.arcs[a]));
        }
    }
    CHECK(stopped > 10);
}

TEST_CASE("min-cost flow: a reset network gives what a fresh one gives") {
    // The bound's windows reuse one network (reset between them): every window must get the flow,
    // cost, work count, budget stop and potentials a fresh network gets, whatever the sizes of
    // the networks before it (larger, smaller, stopped by a budget or not).
    Rng sizes(7);
    MinCostFlow reused(3);
    int stopped = 0, larger = 0, smaller = 0, previousPoints = 1;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const int points = static_cast<int>(sizes.between(2, 150));
        const int chords = static_cast<int>(sizes.between(1, 2 * points));
        const std::int64_t budget = seed % 3 == 0 ? std::int64_t{-1} : sizes.between(50, 4000);
        larger += points > previousPoints;
        smaller += points < previousPoints;
        previousPoints = points;
        INFO("seed " << seed << ", " << points << " points, " << chords << " chords, budget " << budget);
        Line fresh = randomLine(seed, points, chords, 1);
        reused.reset(points + 2);
        MinCostFlow::Amount supply = 0;
        const std::vector<int> arcs = addRandomLine(reused, seed, points, chords, 1, supply);
        REQUIRE(supply == fresh.supply);
        const MinCostFlow::Amount sent = fresh.flow.run(0, points + 1, fresh.supply, budget);
        CHECK(reused.run(0, points + 1, supply, budget) == sent);
        CHECK(reused.cost() == fresh.flow.cost());
        CHECK(reused.work() == fresh.flow.work());
        CHECK(reused.finished() == fresh.flow.finished());
        CHECK(reused.costFloor() == fresh.flow.costFloor());
        stopped += !fresh.flow.finished();
        for (size_t a = 0; a < arcs.size(); ++a) CHECK(reused.flowOn(arcs[a]) == fresh.flow.flowOn(fresh.arcs[a]));
        for (int v = 0; v < points + 2; ++v) CHECK(reused.potential(v) == fresh.flow.potential(v));
    }
    CHECK(stopped > 5);
    CHECK(stopped < 55);
    CHECK(larger > 10);
    CHECK(smaller > 10);
}
