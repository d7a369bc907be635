#include <algorithm>
#include <set>

#include "../../core/src/order/ready_set.h"
#include "../../core/src/model/rng.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/order_sources.h"
#include "spillway/schedule.h"
#include "support.h"

using namespace spillway;

namespace {
// Three tiles of 100 bytes in an L1 of 200, each read twice; ascending id loads all three before
// reading any, then reads them round robin: every step needs the tile used longest ago, so
// even Belady reloads three tiles (300 bytes); "reuse" reads each tile twice and frees it first.
const char* kRoundRobin = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":2,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[0]},
 {"Id":4,"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[1]},
 {"Id":5,"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[2]},
 {"Id":6,"Op":"ADD","Pipe":"VECTOR","Cycles":1,"Bufs":[0]},
 {"Id":7,"Op":"ADD","Pipe":"VECTOR","Cycles":1,"Bufs":[1]},
 {"Id":8,"Op":"ADD","Pipe":"VECTOR","Cycles":1,"Bufs":[2]},
 {"Id":9,"Op":"MUL","Pipe":"VECTOR","Cycles":1,"Bufs":[0]},
 {"Id":10,"Op":"MUL","Pipe":"VECTOR","Cycles":1,"Bufs":[1]},
 {"Id":11,"Op":"MUL","Pipe":"VECTOR","Cycles":1,"Bufs":[2]},
 {"Id":12,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":13,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":14,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"}],
 "Edges":[[3,6],[4,7],[5,8],[6,9],[7,10],[8,11]],
 "Capacities":{"L1":200}})";

Result planWith(const GraphDocument& doc, const std::string& source, const std::string& policy) {
    RunOptions o;
    o.orderSource = source;
    o.policy = policy;
    return test::planVerified(doc, o);
}
}  // namespace

TEST_CASE("reuse: on a hand-made graph it finishes each tile before loading the next") {
    GraphDocument doc = parseGraphDocument(kRoundRobin);
    Order order = scheduleForReuse(doc.graph, orderById(doc.graph), *doc.capacities);
    validateOrder(doc.graph, order);
    CHECK(order == Order{0, 3, 6, 9, 12, 1, 4, 7, 10, 13, 2, 5, 8, 11, 14});
    for (const char* policy : {"seed", "lifetime", "best"}) {
        CAPTURE(policy);
        Result scheduled = planWith(doc, "schedule", policy);
        Result reused = planWith(doc, "reuse", policy);
        CHECK(reused.orderSource == "reuse");
        CHECK(scheduled.metrics.extraBytes == 300);
        CHECK(reused.metrics.extraBytes == 0);
        CHECK(reused.metrics.spills == 0);
    }
}

TEST_CASE("reuse: valid, verified and deterministic on the contest cases" * doctest::test_suite("long")) {
    for (const char* name : test::kSharedCases) {
        auto text = test::sharedCase(name);
        if (!text) continue;
        CAPTURE(name);
        GraphDocument doc = parseGraphDocument(*text);
        const Capacities caps = defaultCapacities();
        Order order = scheduleForReuse(doc.graph, orderById(doc.graph), caps);
        validateOrder(doc.graph, order);
        CHECK(order == scheduleForReuse(doc.graph, orderById(doc.graph), caps));
        for (const std::string& policy : policyNames()) {
            CAPTURE(policy);
            Result r = planWith(doc, "reuse", policy);
            CHECK(r.inputOrder == order);
        }
    }
}

TEST_CASE("reuse: moves less than schedule on Matmul_Case0 (regression bound at today's figure)") {
    auto text = test::sharedCase("Matmul_Case0.json");
    if (!text) return;
    GraphDocument doc = parseGraphDocument(*text);
    Result scheduled = planWith(doc, "schedule", "best");
    Result reused = planWith(doc, "reuse", "best");
    CHECK(reused.metrics.extraBytes <= 19456);
    CHECK(reused.metrics.extraBytes < scheduled.metrics.extraBytes);
}

TEST_CASE("property: reuse orders of random graphs are valid topological orders whose plans verify") {
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        RandomGraphParams p;
        p.operations = 10 + static_cast<int>(seed % 60);
        p.maxReads = 1 + static_cast<int>(seed % 4);
        p.maxUsesPerBuffer = 1 + static_cast<int>(seed % 5);
        p.lateFreePercent = static_cast<int>((seed * 37) % 101);
        p.freesAtEnd = seed % 7 == 0;
        p.capacities = {{"L1", 512}, {"UB", 384}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}};
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        const Capacities caps = doc.capacities ? *doc.capacities : defaultCapacities();
        CAPTURE(seed);
        Order order = scheduleForReuse(doc.graph, orderById(doc.graph), caps);
        CHECK_NOTHROW(validateOrder(doc.graph, order));
        CHECK(order == scheduleForReuse(doc.graph, orderById(doc.graph), caps));
        // A shuffled hint (not topological) must still give a valid order.
        Order hint = orderById(doc.graph);
        std::reverse(hint.begin(), hint.end());
        CHECK_NOTHROW(validateOrder(doc.graph, scheduleForReuse(doc.graph, hint, caps)));
        if (seed % 3 == 0)
            for (const char* policy : {"seed", "lifetime", "best"}) {
                CAPTURE(policy);
                planWith(doc, "reuse", policy);
            }
        ++checked;
    }
    CHECK(checked == 300);
}

TEST_CASE("the schedulers' eligible set: positions in order across its levels, as a std::set keeps them") {
    // 300,000 positions: four levels (4,688 words, 74, 2, 1), so that next() climbs and descends.
    const int n = 300000;
    PositionSet set(n);
    std::set<int> same;
    CHECK(set.empty());
    CHECK(set.next(0) == -1);
    Rng rng(12);
    for (int i = 0; i < 20000; ++i) {
        // Clusters and strays: inserts near the ends and the middle of the range, erases anywhere.
        const int p = static_cast<int>(rng.next() % 3 == 0 ? rng.next() % n : (rng.next() % 64) + (n - 64) * (i % 2));
        if (rng.next() % 3 == 0) {
            set.erase(p);
            same.erase(p);
        } else {
            set.insert(p);
            same.insert(p);
        }
    }
    REQUIRE_FALSE(same.empty());
    CHECK_FALSE(set.empty());
    int walked = 0;
    for (int p = set.next(0); p >= 0; p = set.next(p + 1), ++walked) REQUIRE(same.count(p) == 1);
    CHECK(walked == static_cast<int>(same.size()));
    for (int probe : {0, 1, 63, 64, 4095, 4096, 150000, 262143, 262144, n - 65, n - 1}) {
        auto it = same.lower_bound(probe);
        CHECK(set.next(probe) == (it == same.end() ? -1 : *it));
    }
    for (int p : std::vector<int>(same.begin(), same.end())) set.erase(p);
    CHECK(set.empty());
    CHECK(set.next(0) == -1);
    set.insert(n - 1);
    CHECK(set.next(0) == n - 1);
    CHECK(set.next(n - 1) == n - 1);
}

TEST_CASE("schedulers: one set of dependency lists shared by both gives the orders each builds alone") {
    // The default on huge graphs builds the lists once for the schedule and reuse orders
    // (engine.cpp); each scheduler only reads them, so either can run first, and again.
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        RandomGraphParams p;
        p.operations = 40 + static_cast<int>(seed * 7 % 200);
        p.maxReads = 1 + static_cast<int>(seed % 4);
        p.lateFreePercent = static_cast<int>((seed * 37) % 101);
        p.freesAtEnd = seed % 5 == 0;
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        const Capacities caps = defaultCapacities();
        const Order hint = orderById(doc.graph);
        const Order scheduled = scheduleForMemory(doc.graph, hint);
        const Order reused = scheduleForReuse(doc.graph, hint, caps);
        CAPTURE(seed);
        REQUIRE(scheduled != hint);  // the lists matter: FREEs move up, ALLOCs down
        const ScheduleDependencies shared(doc.graph, hint);
        CHECK(scheduleForReuse(doc.graph, shared, caps) == reused);
        CHECK(scheduleForMemory(shared) == scheduled);
        CHECK(scheduleForReuse(doc.graph, shared, caps) == reused);
    }
}

TEST_CASE("reuse: closures remembered across steps are those found afresh, costs those simulated") {
    // The scheduler keeps each target's closure and what its cost depends on while nothing they
    // read changes (reuse_scheduler.cpp, currentClosure); checkRemembered makes it find every
    // remembered closure afresh too and simulate every cost check by check, and throw on a
    // difference. Shapes that exercise each way a closure goes stale: tight memories (evictions),
    // buffers with many users (their count is stamped only once a closure could run them all), late FREEs (closures waiting on a FREE), ALLOC edges (unpulled ALLOCs, ALLOCs waiting on
    // other nodes), barriers (operations without buffers), frees at the end.
    // The graphs whose reuse order needs more than a memory holds: the scheduler's simulated
    // cache evicts there, the shape a closure goes stale by most often.
    int overCapacity = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomGraphParams p;
        p.operations = 200 + static_cast<int>(seed * 53 % 1800);
        p.maxReads = 1 + static_cast<int>(seed % 4);
        p.maxUsesPerBuffer = seed % 5 == 0 ? 40 : 1 + static_cast<int>(seed % 6);  // 40: more than a closure's 12
        p.lateFreePercent = static_cast<int>((seed * 37) % 101);
        p.freesAtEnd = seed % 9 == 0;
        p.allocEdgePercent = seed % 3 == 0 ? static_cast<int>(seed % 40) : 0;
        p.bufferlessPercent = seed % 4 == 0 ? static_cast<int>(seed % 30) : 0;
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        const Capacities caps = seed % 2 == 0 ? test::tightCapacities(doc.graph, seed) : defaultCapacities();
        const ScheduleDependencies deps(doc.graph, orderById(doc.graph));
        CAPTURE(seed);
        Order checked;
        REQUIRE_NOTHROW(checked = scheduleForReuse(doc.graph, deps, caps, true));
        CHECK(checked == scheduleForReuse(doc.graph, deps, caps));
        CHECK_NOTHROW(validateOrder(doc.graph, checked));
        const ResidencyPeaks peaks = peakResidency(doc.graph, checked);
        overCapacity += std::any_of(peaks.byType.begin(), peaks.byType.end(), [&](const auto& peak) {
            const auto cap = caps.find(peak.first);
            return cap != caps.end() && peak.second > cap->second;
        });
    }
    MESSAGE(overCapacity << " of 60 reuse orders need more than a memory holds");
    CHECK(overCapacity >= 45);  // most of them: the shapes above make the scheduler evict
    for (const char* name : test::kSharedCases) {
        auto text = test::sharedCase(name);
        if (!text) continue;
        CAPTURE(name);
        GraphDocument doc = parseGraphDocument(*text);
        const ScheduleDependencies deps(doc.graph, orderById(doc.graph));
        CHECK_NOTHROW(scheduleForReuse(doc.graph, deps, defaultCapacities(), true));
    }
}

TEST_CASE("reuse: a closure that waited on a FREE is found again once the FREE has run") {
    // ADD 5 uses buffer 1, resident after COPY_IN 2, so it is a target from step 2 on; an edge
    // puts FREE 6 (buffer 0's) before it, so at step 2 its closure is invalid. Running 3 and 4
    // runs FREE 6 and changes no buffer of ADD 5: only the FREE itself says that the remembered
    // closure is stale (the checking run throws if it is taken as current).
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":2,"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[1]},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[0]},
 {"Id":4,"Op":"ADD","Pipe":"VECTOR","Cycles":1,"Bufs":[0]},
 {"Id":5,"Op":"ADD","Pipe":"VECTOR","Cycles":1,"Bufs":[1]},
 {"Id":6,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":7,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"}],
 "Edges":[[3,4],[6,5]],
 "Capacities":{"L1":1000}})");
    const ScheduleDependencies deps(doc.graph, orderById(doc.graph));
    Order order;
    REQUIRE_NOTHROW(order = scheduleForReuse(doc.graph, deps, *doc.capacities, true));
    CHECK(order == Order{1, 2, 0, 3, 4, 6, 5, 7});
}
