// The order search (order sources "search" and "min-peak") and the order-source registry.
#include <algorithm>
#include <map>

#include "spillway/examples.h"
#include "spillway/order_search.h"
#include "spillway/residency.h"
#include "support.h"

using namespace spillway;
using spillway::test::planVerified;

namespace {

GraphDocument matmul(int m, int n, int k, Capacities caps) {
    MatmulParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.freesAtEnd = true;
    p.capacities = std::move(caps);
    return parseGraphDocument(generateTiledMatmul(p));
}

SearchResult search(const GraphDocument& doc, std::int64_t effort,
                    SearchOptions::Objective objective = SearchOptions::Objective::Traffic,
                    SearchMemo* memo = nullptr) {
    SearchOptions o;
    o.objective = objective;
    o.capacities = doc.capacities ? *doc.capacities : defaultCapacities();
    o.effort = effort;
    o.memo = memo;
    return searchOrder(doc.graph, orderById(doc.graph), o);
}

// The least data any plan can move when the output tiles run one after another in `outputs`
// order: the graph's nodes sorted by the rank of the output tile they serve (a COPY_IN serves the
// first output that reads its tile), then scheduled so that buffers live no longer than needed;
// the residency optimum of that order is exact here (every memory has one buffer size).
Bytes trafficOfOutputOrder(const GraphDocument& doc, const std::vector<int>& outputs) {
    const Graph& g = doc.graph;
    std::map<int, int> rankOfAccumulator;  // L0C buffer index -> rank
    std::vector<int> accumulators;
    for (size_t b = 0; b < g.buffers.size(); ++b)
        if (g.buffers[b].type == "L0C") accumulators.push_back(static_cast<int>(b));
    for (size_t r = 0; r < outputs.size(); ++r) rankOfAccumulator[accumulators[outputs[r]]] = static_cast<int>(r);
    const int n = static_cast<int>(g.nodes.size());
    std::vector<int> rank(n, -1);
    auto rankOfOp = [&](int v, auto&& self) -> int {
        if (rank[v] >= 0) return rank[v];
        int best = n;
        for (BufferId id : g.nodes[v].bufs) {
            auto it = rankOfAccumulator.find(g.bufferIndex.at(id));
            if (it != rankOfAccumulator.end()) best = std::min(best, it->second);
        }
        if (best == n)
            for (int s : g.successors[v])
                if (!g.nodes[s].isBufferNode()) best = std::min(best, self(s, self));
        return rank[v] = best;
    };
    std::vector<std::pair<int, NodeId>> keyed;
    for (int v = 0; v < n; ++v)
        keyed.emplace_back(g.nodes[v].isBufferNode() ? -1 : rankOfOp(v, rankOfOp), g.nodes[v].id);
    std::sort(keyed.begin(), keyed.end());
    Order hint;
    for (auto [r, id] : keyed) hint.push_back(id);
    const Order order = scheduleForMemory(g, hint);
    validateOrder(g, order);
    return trafficLowerBound(g, order, *doc.capacities).total;
}

}  // namespace

TEST_CASE("search: brute force over every order of the output tiles of small matmuls finds nothing better") {
    struct Shape {
        int m, n, k;
        Bytes l1;  // L1 capacity: a few 128-byte tiles, so that the order matters
    };
    for (const Shape& s : {Shape{2, 3, 2, 512}, Shape{3, 2, 3, 640}, Shape{2, 2, 3, 512}}) {
        CAPTURE(s.m);
        CAPTURE(s.n);
        CAPTURE(s.k);
        const GraphDocument doc = matmul(s.m, s.n, s.k, {{"L1", s.l1}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}});
        std::vector<int> outputs(static_cast<size_t>(s.m * s.n));
        for (size_t i = 0; i < outputs.size(); ++i) outputs[i] = static_cast<int>(i);
        Bytes bestByBruteForce = -1, worstByBruteForce = -1;
        do {
            const Bytes t = trafficOfOutputOrder(doc, outputs);
            if (bestByBruteForce < 0 || t < bestByBruteForce) bestByBruteForce = t;
            worstByBruteForce = std::max(worstByBruteForce, t);
        } while (std::next_permutation(outputs.begin(), outputs.end()));
        CHECK(bestByBruteForce < worstByBruteForce);  // the order matters on these shapes

        RunOptions opts;
        opts.orderSource = "search";
        const Result r = planVerified(doc, opts);
        CHECK(r.metrics.extraBytes <= bestByBruteForce);
        CHECK(r.metrics.extraBytes == r.metrics.bound.total);  // one size per memory: optimal for the order
    }
}

TEST_CASE("search: deterministic, and a larger effort is never worse") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("conv-like"));
    const SearchResult a = search(doc, 120), b = search(doc, 120), more = search(doc, 400);
    CHECK(a.order == b.order);
    CHECK(a.score == b.score);
    CHECK(a.evaluations == b.evaluations);
    CHECK(more.score <= a.score);
    CHECK(a.effort == 120);
    validateOrder(doc.graph, a.order);
    // The score is what the residency step moves for the order: the plan of the order, when
    // packing keeps up, moves no less than the bound and the policy residency matches it here.
    RunOptions opts;
    opts.orderSource = "given";
    opts.order = more.order;
    const Result r = planVerified(doc, opts);
    CHECK(r.metrics.bound.total <= more.score);
    CHECK(r.metrics.extraBytes >= r.metrics.bound.total);
}

TEST_CASE("search: with a memo, the same searches; a longer one replays the first's scorings from it") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("conv-like"));
    constexpr auto kTraffic = SearchOptions::Objective::Traffic, kPeak = SearchOptions::Objective::Peak;
    SearchMemo memo;
    std::vector<std::size_t> kept;
    std::vector<std::int64_t> evaluations;
    for (const auto& [effort, objective] :
         {std::pair{120, kTraffic}, std::pair{480, kTraffic}, std::pair{120, kPeak}}) {
        const std::size_t before = memo.size();
        const SearchResult alone = search(doc, effort, objective), shared = search(doc, effort, objective, &memo);
        CAPTURE(effort);
        CHECK(shared.order == alone.order);
        CHECK(shared.score == alone.score);
        CHECK(shared.evaluations == alone.evaluations);
        CHECK(shared.start == alone.start);
        CHECK(shared.runnersUp == alone.runnersUp);
        kept.push_back(memo.size() - before);
        evaluations.push_back(alone.evaluations);
    }
    // Orders recur within a search too (a move that builds the same order): fewer scores than
    // evaluations. The longer search scores anew only past the first's path; the objective peak
    // has scores of its own.
    CHECK(kept[0] < static_cast<std::size_t>(evaluations[0]));
    CHECK(kept[1] < static_cast<std::size_t>(evaluations[1] - evaluations[0]));
    CHECK(kept[2] > kept[1]);
}

TEST_CASE("search: a tiled matmul is found to be a grid and swept in blocks") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("tiled-matmul"));
    const SearchResult r = search(doc, 0);  // constructions only
    CHECK(r.start.find("grid") != std::string::npos);
    CHECK(r.score == 12416);  // blocks of three rows, snaking: as the best published plan
    RunOptions opts;
    opts.orderSource = "given";
    opts.order = r.order;
    CHECK(planVerified(doc, opts).metrics.extraBytes == 12416);
}

TEST_CASE("search: progress reports every so often, and stopping keeps the best order so far") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("flash-attention-like"));
    SearchOptions o;
    o.capacities = defaultCapacities();
    o.effort = 1000;
    std::vector<SearchProgress> seen;
    o.progress = [&](const SearchProgress& p) {
        seen.push_back(p);
        return seen.size() < 3;  // stop at the third report
    };
    const SearchResult stopped = searchOrder(doc.graph, orderById(doc.graph), o);
    REQUIRE(seen.size() >= 3);
    CHECK(seen[0].evaluations < seen[1].evaluations);
    CHECK(seen[1].best <= seen[0].best);
    CHECK(stopped.evaluations < search(doc, 1000).evaluations);
    validateOrder(doc.graph, stopped.order);
    CHECK(stopped.score == seen.back().best);
}

TEST_CASE("search: random graphs get valid orders whose plans verify and respect the bound") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        RandomGraphParams p;
        p.operations = 20 + static_cast<int>(seed % 30);
        p.freesAtEnd = seed % 3 == 0;
        p.capacities = {{"L1", 400}, {"UB", 300}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}};
        const GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        CAPTURE(seed);
        for (const char* source : {"search", "min-peak"}) {
            RunOptions opts;
            opts.orderSource = source;
            opts.effort = 60;
            const Result r = planVerified(doc, opts);  // run() checks extraBytes >= bound too
            CHECK(r.orderSource == source);
            REQUIRE(r.search.has_value());
            CHECK(r.search->effort == 60);
        }
    }
}

TEST_CASE("min-peak: lower peaks than the scheduled order on the look-alikes") {
    for (const char* name : {"flash-attention-like", "conv-like", "tiled-matmul"}) {
        CAPTURE(name);
        const GraphDocument doc = parseGraphDocument(exampleGraphJson(name));
        const SearchResult r = search(doc, 300, SearchOptions::Objective::Peak);
        const ResidencyPeaks ours = peakResidency(doc.graph, r.order);
        const ResidencyPeaks scheduled = peakResidency(doc.graph, scheduleForMemory(doc.graph, orderById(doc.graph)));
        CHECK(ours.total <= scheduled.total);
        CHECK(r.score == ours.total);
    }
}

TEST_CASE("order sources: one registry for names, help and parsing") {
    std::vector<std::string> names;
    for (const OrderSourceInfo& o : orderSourceList()) {
        names.push_back(o.name);
        CHECK(!o.title.empty());
        CHECK(o.description.size() > 20);
        CHECK(isOrderSource(o.name));
    }
    CHECK(names.front() == "graph");
    CHECK(std::find(names.begin(), names.end(), "search") != names.end());
    CHECK(std::find(names.begin(), names.end(), "min-peak") != names.end());
    CHECK(!isOrderSource("given"));  // a file or an array, not a name
    CHECK(bestOrderCandidates() == std::vector<std::string>{"schedule", "reuse", "search"});
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("fits"));
    CHECK(test::inputErrorOf([&] {
              makeOrder("nope", {doc, defaultCapacities(), -1, {}, {}});
          }) == "unknown order source \"nope\": expected " + orderSourceNames() + " or a file");
}

namespace {
// Each MATMUL's accumulator (its L0C buffer's index among the L0C buffers), in `order`.
std::vector<int> accumulatorSequence(const Graph& g, const Order& order) {
    std::map<int, int> indexOf;
    for (size_t b = 0; b < g.buffers.size(); ++b)
        if (g.buffers[b].type == "L0C") indexOf.emplace(static_cast<int>(b), static_cast<int>(indexOf.size()));
    std::vector<int> out;
    for (NodeId id : order) {
        const Node& v = g.nodes[g.nodeIndex.at(id)];
        if (v.op != "MATMUL") continue;
        for (BufferId b : v.bufs)
            if (auto it = indexOf.find(g.bufferIndex.at(b)); it != indexOf.end()) out.push_back(it->second);
    }
    return out;
}
}  // namespace

TEST_CASE("stagger: each output tile's k-steps begin halfway through the one before's, where both fit L0C") {
    // 2 x 2 output tiles of 4 k-steps each; L0C holds two 256-byte accumulators.
    const GraphDocument doc = matmul(2, 2, 4, {{"L1", 2048}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}});
    const Order staggered = staggeredOrder(doc.graph, orderById(doc.graph), *doc.capacities);
    validateOrder(doc.graph, staggered);
    // Each unit has five beats (four k-steps, then its COPY_OUT): the next starts after two, and
    // never while two are running, so each of its first k-steps follows one of the unit before.
    CHECK(accumulatorSequence(doc.graph, staggered) ==
          std::vector<int>{0, 0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 2, 3, 3, 3});
    // With room for one accumulator, the units run one after another.
    const Capacities one = {{"L1", 2048}, {"L0A", 256}, {"L0B", 256}, {"L0C", 256}};
    const Order apart = staggeredOrder(doc.graph, orderById(doc.graph), one);
    validateOrder(doc.graph, apart);
    CHECK(accumulatorSequence(doc.graph, apart) == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
    // Units come by their first k-step in the order given: reversed output tiles, reversed units.
    Order reversed;
    for (int t : {3, 2, 1, 0})
        for (NodeId id : orderById(doc.graph))
            if (accumulatorSequence(doc.graph, {id}) == std::vector<int>{t}) reversed.push_back(id);
    const Order backwards = staggeredOrder(doc.graph, reversed, *doc.capacities);
    validateOrder(doc.graph, backwards);
    CHECK(accumulatorSequence(doc.graph, backwards) ==
          std::vector<int>{3, 3, 3, 2, 3, 2, 2, 1, 2, 1, 1, 0, 1, 0, 0, 0});
}

namespace {
// For each L1 tile, its FREE's position in `order` against that of the last MATMUL reading a copy
// of it (the MATMUL whose L0A or L0B buffer a MOVE filled from the tile): how many tiles are
// freed before that MATMUL.
int tilesFreedBeforeTheirMatmul(const Graph& g, const Order& order) {
    std::map<NodeId, size_t> position;
    for (size_t p = 0; p < order.size(); ++p) position[order[p]] = p;
    std::map<BufferId, BufferId> tileOf;  // L0 buffer -> the L1 tile a MOVE copied into it
    for (const Node& v : g.nodes)
        if (v.op == "MOVE") tileOf[v.bufs[0]] = v.bufs[1];
    std::map<BufferId, size_t> lastRead;  // L1 tile -> position of the last MATMUL reading its copy
    for (const Node& v : g.nodes)
        if (v.op == "MATMUL")
            for (BufferId b : v.bufs)
                if (auto it = tileOf.find(b); it != tileOf.end())
                    lastRead[it->second] = std::max(lastRead[it->second], position.at(v.id));
    int before = 0;
    for (const Buffer& b : g.buffers)
        if (b.type == "L1" && lastRead.count(b.id) > 0 && position.at(g.nodes[b.freeNode].id) < lastRead.at(b.id))
            ++before;
    return before;
}
}  // namespace

TEST_CASE("stagger: with frees held, a tile is freed after the beat that reads it, and sequences rebuild orders") {
    const GraphDocument doc = matmul(2, 2, 4, {{"L1", 2048}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}});
    const StaggeredOrders orders(doc.graph, *doc.capacities);
    const std::vector<int> sequence = orders.sequenceOf(orderById(doc.graph));
    CHECK(sequence == std::vector<int>{0, 1, 2, 3});
    const Order plain = staggeredOrder(doc.graph, orderById(doc.graph), *doc.capacities);
    CHECK(orders.build(sequence, false) == plain);
    const Order held = orders.build(sequence, true);
    validateOrder(doc.graph, held);
    // Plain: each tile is freed right after the MOVE that reads it last, before the MATMUL of its
    // beat (a load of that beat may take its bytes); held: after that MATMUL, every one of them.
    CHECK(tilesFreedBeforeTheirMatmul(doc.graph, plain) == 16);
    CHECK(tilesFreedBeforeTheirMatmul(doc.graph, held) == 0);
    // The same beats in the same order: only the FREEs move.
    CHECK(accumulatorSequence(doc.graph, held) == accumulatorSequence(doc.graph, plain));
    // A held order reads as the same sequence of units; another sequence builds another order, its
    // units in that sequence.
    CHECK(orders.sequenceOf(held) == sequence);
    const Order swapped = orders.build({1, 0, 2, 3}, false);
    validateOrder(doc.graph, swapped);
    CHECK(accumulatorSequence(doc.graph, swapped) == std::vector<int>{1, 1, 1, 0, 1, 0, 0, 2, 0, 2, 2, 3, 2, 3, 3, 3});
}

TEST_CASE("stagger: the search with staggered units gives valid, deterministic orders whose units overlap") {
    const GraphDocument doc = matmul(4, 4, 4, {{"L1", 1024}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}});
    SearchOptions o;
    o.capacities = *doc.capacities;
    o.effort = 200;
    o.staggered = true;
    const SearchResult a = searchOrder(doc.graph, orderById(doc.graph), o);
    const SearchResult b = searchOrder(doc.graph, orderById(doc.graph), o);
    CHECK(a.order == b.order);
    CHECK(a.score == b.score);
    validateOrder(doc.graph, a.order);
    // Its order is the staggered build of its own units' sequence.
    CHECK(staggeredOrder(doc.graph, a.order, *doc.capacities) == a.order);
    // Some accumulator starts before the one before it ends.
    const std::vector<int> seq = accumulatorSequence(doc.graph, a.order);
    bool overlap = false;
    for (size_t i = 1; i + 1 < seq.size(); ++i) overlap = overlap || (seq[i - 1] != seq[i] && seq[i + 1] == seq[i - 1]);
    CHECK(overlap);
    // Its score is what the residency step moves for that order, at least the order's bound.
    CHECK(a.score >= trafficLowerBound(doc.graph, a.order, *doc.capacities).total);
}
