// The default's choice among candidate orders (draft_choice.h): an order is not
// drafted when its lower bound (excessBound) shows it cannot win, and the choice is the one of
// drafting every order; excessBound is at most the relaxation.
#include <random>

#include "../../core/src/plan/draft_choice.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"
#include "spillway/order_sources.h"
#include "support.h"

using namespace spillway;

namespace {

// Each candidate drafted, the least data moved, ties to the first: what the choice must equal.
std::pair<std::size_t, Bytes> draftingEvery(const Graph& g, const std::vector<Order>& orders, const PlanOptions& opts) {
    std::size_t best = 0;
    Bytes bestBytes = -1;
    for (std::size_t i = 0; i < orders.size(); ++i) {
        const Bytes bytes = LifetimeDraft(g, orders[i], opts).extraBytes();
        if (bestBytes < 0 || bytes < bestBytes) best = i, bestBytes = bytes;
    }
    return {best, bestBytes};
}

std::vector<Order> candidateOrders(const GraphDocument& doc, const Capacities& caps) {
    const OrderRequest request{doc, caps, -1, nullptr, {}, 0, nullptr};
    return {makeOrder("schedule", request).order, makeOrder("reuse", request).order};
}

ResidencyProblem randomProblem(std::mt19937_64& rng, int steps, int gaps) {
    ResidencyProblem p;
    p.type = "UB";
    p.capacity = 64 + 16 * static_cast<Bytes>(rng() % 8);
    p.forced.assign(steps, 0);
    for (Bytes& f : p.forced) f = 16 * static_cast<Bytes>(rng() % 3);
    for (int i = 0; i < gaps; ++i) {
        Gap g;
        g.buf = i;
        g.from = static_cast<int>(rng() % (steps - 2));
        g.to = std::min(steps - 1, g.from + 2 + static_cast<int>(rng() % (steps / 2)));
        g.size = 8 * (1 + static_cast<Bytes>(rng() % 8));
        g.traffic = rng() % 2 ? g.size : 2 * g.size;
        p.gaps.push_back(g);
    }
    return p;
}

}  // namespace

TEST_CASE("excess bound: at most the relaxation, and the worked example's excess") {
    // docs/policies.md's example: over steps 3-5 p and q hold 100 bytes of 90 free: 10 bytes at
    // least go, the COPY_IN's at 1 byte of traffic each.
    const ResidencyProblem worked = test::workedResidency();
    CHECK(excessBound(worked) == 10);
    CHECK(relaxResidency(worked).traffic == 20);
    // Cut into windows of 3 steps (2-3 hold p alone, q starts in the next): nothing exceeds.
    CHECK(excessBound(worked, 3) == 0);
    std::mt19937_64 rng(11);
    int useful = 0;
    for (int seed = 0; seed < 40; ++seed) {
        const ResidencyProblem p = randomProblem(rng, 300, 400);
        const Relaxation full = relaxResidency(p);
        REQUIRE(full.exact);
        INFO("problem " << seed);
        for (int window : {300, 64, 16, 4}) {
            const Bytes bound = excessBound(p, window);
            CHECK(bound >= 0);
            CHECK(bound <= full.traffic);
            if (window == 64) useful += bound > 0;
        }
    }
    CHECK(useful > 20);
}

TEST_CASE("draft choice: an order that cannot win is not drafted; the choice is drafting every order's") {
    RandomGraphParams r;
    r.operations = 600;
    const GraphDocument doc = parseGraphDocument(generateRandomGraph(2, r));
    const Capacities caps = doc.capacities ? *doc.capacities : defaultCapacities();
    const PlanOptions opts{caps, {}, "best"};
    const std::vector<Order> orders = candidateOrders(doc, caps);
    const auto [expected, expectedBytes] = draftingEvery(doc.graph, orders, opts);
    CHECK(expected == 1);  // reuse
    const Bytes reuseBytes = LifetimeDraft(doc.graph, orders[1], opts).extraBytes();
    CHECK(excessBound(doc.graph, orders[0], caps) > reuseBytes);
    const DraftChoice choice = leastMovingDraft(doc.graph, orders, opts);
    CHECK(choice.index == expected);
    CHECK(choice.draft->extraBytes() == expectedBytes);
    CHECK(choice.drafted == std::vector<char>{0, 1});
}

TEST_CASE("draft choice: an order whose bound may win is drafted, and ties go to the first") {
    MatmulParams m;
    m.m = m.n = m.k = 6;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(m));
    const Capacities caps = doc.capacities ? *doc.capacities : defaultCapacities();
    const PlanOptions opts{caps, {}, "best"};
    const std::vector<Order> orders = candidateOrders(doc, caps);
    const Bytes reuseBytes = LifetimeDraft(doc.graph, orders[1], opts).extraBytes();
    CHECK(excessBound(doc.graph, orders[0], caps) < reuseBytes);
    const auto [expected, expectedBytes] = draftingEvery(doc.graph, orders, opts);
    DraftChoice choice = leastMovingDraft(doc.graph, orders, opts);
    CHECK(choice.index == expected);
    CHECK(choice.draft->extraBytes() == expectedBytes);
    CHECK(choice.drafted == std::vector<char>{1, 1});
    // The reuse order twice: its plan is at its bound, so the second's draft does not rule out
    // the first (it may tie), which is drafted and, tied, chosen.
    REQUIRE(excessBound(doc.graph, orders[1], caps) == reuseBytes);
    choice = leastMovingDraft(doc.graph, {orders[1], orders[1]}, opts);
    CHECK(choice.index == 0);
    CHECK(choice.drafted == std::vector<char>{1, 1});
    // A later candidate tying the best draft by its bound cannot win: not drafted.
    CHECK_FALSE(mayBeat(reuseBytes, 2, reuseBytes, 1));
    CHECK(mayBeat(reuseBytes, 0, reuseBytes, 1));
    CHECK(mayBeat(reuseBytes - 1, 2, reuseBytes, 1));
}

TEST_CASE("order source best: the plan of planning every candidate order, though a losing order is left unplanned") {
    RandomGraphParams r;
    r.operations = 600;
    const GraphDocument doc = parseGraphDocument(generateRandomGraph(2, r));
    // Every candidate planned on its own: the least data moved, ties to the first.
    std::optional<Result> expected;
    for (const std::string& source : bestOrderCandidates()) {
        RunOptions one;
        one.orderSource = source;
        Result result = test::planVerified(doc, one);
        if (!expected || result.metrics.extraBytes < expected->metrics.extraBytes) expected = std::move(result);
    }
    REQUIRE(expected);
    RunOptions best;
    best.orderSource = "best";
    const Result chosen = test::planVerified(doc, best);
    CHECK(chosen.orderSource == expected->orderSource);
    CHECK(chosen.metrics.extraBytes == expected->metrics.extraBytes);
    CHECK(chosen.plan.order == expected->plan.order);
    CHECK(chosen.plan.spills.size() == expected->plan.spills.size());
    // The schedule order's bound exceeds the chosen plan's data: the order left unplanned.
    const Capacities caps = doc.capacities ? *doc.capacities : defaultCapacities();
    CHECK(excessBound(doc.graph, candidateOrders(doc, caps)[0], caps) > chosen.metrics.extraBytes);
}
