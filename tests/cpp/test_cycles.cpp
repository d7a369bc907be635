// The cycles objective (spillway/cycles.h): every plan it makes is verified, never slower than
// the bytes plan it starts from, within the data margin, deterministic; each technique measured.
#include "spillway/cycles.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "spillway/examples.h"
#include "spillway/scale.h"
#include "support.h"

using namespace spillway;
using test::planVerified;

namespace {

RunOptions cyclesObjective(std::vector<CyclesTechnique> disabled = {}) {
    RunOptions o;
    o.objective = Objective::Cycles;
    o.cycles.disabled = std::move(disabled);
    return o;
}

// A random graph of `operations` operations (generateRandomGraph's other parameters at their
// defaults), as the tests of techniques search and retime plan it from order source best.
GraphDocument randomGraph(std::uint64_t seed, int operations) {
    RandomGraphParams params;
    params.operations = operations;
    return parseGraphDocument(generateRandomGraph(seed, params));
}

RunOptions fromBestOrder(RunOptions o) {
    o.orderSource = "best";
    return o;
}

constexpr CyclesTechnique kPlacement = CyclesTechnique::Placement, kFit = CyclesTechnique::Fit,
                          kSchedule = CyclesTechnique::Schedule, kHoist = CyclesTechnique::Hoist,
                          kSwaps = CyclesTechnique::Swaps, kPolicies = CyclesTechnique::Policies,
                          kReserve = CyclesTechnique::Reserve, kOrders = CyclesTechnique::Orders,
                          kSearch = CyclesTechnique::Search, kHeadroom = CyclesTechnique::Headroom,
                          kStagger = CyclesTechnique::Stagger, kSequence = CyclesTechnique::Sequence,
                          kRetime = CyclesTechnique::Retime;

// docs/timing.md's example of time-aware placement: two 100-byte slots; b0 is read long after
// its load, b1 is done early; b2 comes after both are freed. Best fit takes the lowest slot, b0's,
// and waits for the long read; time-aware placement takes b1's, left at cycle 25.
constexpr const char* kTwoSlots = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":2,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[1]},
 {"Id":4,"Op":"EXP","Pipe":"VECTOR","Cycles":100,"Bufs":[0]},
 {"Id":5,"Op":"MOVE","Pipe":"MTE1","Cycles":5,"Bufs":[1]},
 {"Id":6,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":7,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":8,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
 {"Id":9,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[2]},
 {"Id":10,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"}],
 "Edges":[[0,2],[1,3],[2,4],[3,5],[5,6],[4,7],[8,9],[9,10]],
 "Order":[0,1,2,3,4,5,6,7,8,9,10],
 "Capacities":{"L1":200}})";

// Fit to need: three 100-byte slots of L1, left at cycle 20 (b0, A), 90 (b1, B) and 60 (b5,
// C). Then b2, written by a COPY that waits for an 80-cycle MATMUL, and b3, loaded next on MTE2
// (free from cycle 20) and read by a 40-cycle ADD. The bytes plan puts b2 on A and b3 on B (best
// fit): the load waits for 90, ends at 160. Time-aware placement gives b2 the earliest bytes, A,
// (b3's old B is promised to b3) and b3 then C, left at 60: 130. Fit to need gives b2 the bytes
// left latest by 80, C, and b3 A: the load starts at 20, the ADD ends at 90, with the MOVE.
constexpr const char* kNeededLater = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[1]},
 {"Id":4,"Op":"ALLOC","BufId":5,"Size":100,"Type":"L1"},
 {"Id":5,"Op":"COPY_OUT","Pipe":"MTE3","Cycles":60,"Bufs":[5]},
 {"Id":6,"Op":"EXP","Pipe":"VECTOR","Cycles":10,"Bufs":[0]},
 {"Id":7,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":8,"Op":"MOVE","Pipe":"MTE1","Cycles":70,"Bufs":[1]},
 {"Id":9,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":10,"Op":"ALLOC","BufId":4,"Size":50,"Type":"L0A"},
 {"Id":11,"Op":"MATMUL","Pipe":"CUBE","Cycles":80,"Bufs":[4]},
 {"Id":12,"Op":"FREE","BufId":4,"Size":50,"Type":"L0A"},
 {"Id":13,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
 {"Id":14,"Op":"FREE","BufId":5,"Size":100,"Type":"L1"},
 {"Id":15,"Op":"ALLOC","BufId":3,"Size":100,"Type":"L1"},
 {"Id":16,"Op":"COPY_IN","Pipe":"MTE2","Cycles":30,"Bufs":[3]},
 {"Id":17,"Op":"ADD","Pipe":"VECTOR","Cycles":40,"Bufs":[3]},
 {"Id":18,"Op":"FREE","BufId":3,"Size":100,"Type":"L1"},
 {"Id":19,"Op":"COPY","Pipe":"FIXP","Cycles":10,"Bufs":[2]},
 {"Id":20,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,6],[6,7],[2,3],[3,8],[8,9],[4,5],[5,14],[10,11],[11,12],[11,19],[13,19],[19,20],[15,16],[16,17],[17,18]],
 "Order":[0,1,2,3,4,5,6,7,8,9,10,11,12,14,13,15,16,17,18,19,20],
 "Capacities":{"L1":300,"L0A":50}})";

}  // namespace

TEST_CASE("cycles: fit to need keeps the bytes left earliest for the buffer needed soonest") {
    const GraphDocument doc = parseGraphDocument(kNeededLater);
    const std::vector<CyclesTechnique> others = {kSchedule, kHoist, kSwaps, kPolicies, kReserve, kOrders, kStagger};
    const Result bytes = planVerified(doc);
    CHECK(bytes.metrics.totalCycles == 160);
    auto offsetOf = [](const Result& r, BufferId buf) {
        for (const Allocation& a : r.plan.allocations)
            if (a.buf == buf) return a.offset;
        return Bytes{-1};
    };
    auto without = [&](std::vector<CyclesTechnique> off) {
        off.insert(off.end(), others.begin(), others.end());
        return planVerified(doc, cyclesObjective(off));
    };
    const Result placement = without({kFit});
    CHECK(placement.metrics.totalCycles == 130);
    CHECK(offsetOf(placement, 2) == 0);    // b2 on A, left at 20
    CHECK(offsetOf(placement, 3) == 200);  // b3 on C, left at 60
    const Result fit = without({kPlacement});
    CHECK(fit.metrics.totalCycles == 90);
    CHECK(offsetOf(fit, 2) == 200);  // b2 on C: left at 60, needed at 80
    CHECK(offsetOf(fit, 3) == 0);    // b3 on A: left at 20, needed at 20
    CHECK(fit.cycles->steps ==
          std::vector<std::string>{"bytes plan round 1, placement (fit to need): 160 -> 90 cycles"});
    // Both: fit joins once placement's rounds end, and from placement's layout (b3 on C, so C
    // promised to b3) it finds nothing sooner.
    CHECK(without({}).metrics.totalCycles == 130);
}

TEST_CASE("cycles: time-aware placement puts a buffer on the bytes left earliest, and its wait goes") {
    const GraphDocument doc = parseGraphDocument(kTwoSlots);
    const Result bytes = planVerified(doc);
    REQUIRE(bytes.plan.allocations[2].offset == 0);  // best fit: b0's slot
    const NodeTiming& waited = bytes.timing.nodes[8];
    CHECK(waited.wait.cause == WaitCause::Address);
    CHECK(waited.wait.buffer == 0);
    CHECK(waited.wait.node == 7);  // FREE b0, after the EXP reading b0: cycle 110
    CHECK(waited.start == 110);
    CHECK(bytes.metrics.totalCycles == 120);

    const Result r = planVerified(doc, cyclesObjective({kSchedule, kHoist, kPolicies, kReserve}));
    CHECK(r.plan.allocations[2].offset == 100);  // b1's slot, left at 25
    CHECK(r.timing.nodes[8].start == 25);
    CHECK(r.timing.nodes[8].wait.cause == WaitCause::Address);
    CHECK(r.timing.nodes[8].wait.buffer == 1);
    CHECK(r.metrics.totalCycles == 110);
    REQUIRE(r.cycles);
    CHECK(r.cycles->bytesPlanCycles == 120);
    CHECK(r.cycles->bytesPlanExtraBytes == 0);
    // The decision says what it chose among and why.
    const Decision& placed = r.plan.decisions[std::size_t(4)];
    CHECK(placed.buf == 2);
    CHECK(placed.offset == 100);
    CHECK(placed.reason.find("time-aware placement") == 0);
    CHECK(placed.reason.find("cycle 25") != std::string::npos);
    CHECK(placed.holes == std::vector<Hole>{{0, 200}});
}

TEST_CASE("cycles: each technique on its own and together, on the examples (cycles measured on this commit)") {
    struct Row {
        const char* example;
        std::vector<CyclesTechnique> disabled;
        Cycles cycles;
    };
    // Stagger and retime are off in the rows that measure the other techniques (each would add
    // its own gain).
    const std::vector<CyclesTechnique> all = {kPlacement, kFit,    kSchedule, kHoist,    kSwaps, kPolicies,
                                              kReserve,   kOrders, kStagger,  kSequence, kRetime};
    const Row rows[] = {
        {"one-spill", all, 1709},  // every technique off: the bytes plan
        {"one-spill", {kSchedule, kHoist, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime}, 1709},
        {"one-spill",
         {kPlacement, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime},
         1672},  // schedule with hoisting
        {"one-spill", {kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime}, 1634},
        {"one-spill", {}, 1634},
        {"copyin-cheaper", all, 2263},
        {"copyin-cheaper",
         {kPlacement, kHoist, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime},
         2263},  // schedule alone keeps each load in place
        {"copyin-cheaper", {kPlacement, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime}, 2045},
        {"copyin-cheaper", {kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime}, 2045},
        {"copyin-cheaper", {}, 2045},
        {"tiled-matmul-small", all, 4153},
        {"tiled-matmul-small",
         {kSchedule, kHoist, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime},
         3707},  // placement alone
        {"tiled-matmul-small", {kPlacement, kPolicies, kReserve, kFit, kSwaps, kStagger, kRetime}, 4029},
        {"tiled-matmul-small", {kHoist, kFit, kSwaps, kStagger, kRetime}, 3707},
        {"tiled-matmul-small", {kFit, kStagger, kRetime}, 3428},
        {"tiled-matmul-small", {kSwaps, kStagger, kRetime}, 3428},
        {"tiled-matmul-small", {kHoist, kFit, kSwaps, kStagger}, 3428},  // retime makes up for the three
        {"tiled-matmul-small", {}, 3428},
    };
    for (const Row& row : rows) {
        CAPTURE(row.example);
        CAPTURE(row.disabled.size());
        const GraphDocument doc = parseGraphDocument(exampleGraphJson(row.example));
        const Result r = planVerified(doc, cyclesObjective(row.disabled));
        REQUIRE(r.cycles);
        CHECK(r.metrics.totalCycles == row.cycles);
        CHECK(r.metrics.totalCycles <= r.cycles->bytesPlanCycles);
        CHECK(r.metrics.extraBytes == r.cycles->bytesPlanExtraBytes);  // none of these needed spare room
        const Result bytes = planVerified(doc);
        CHECK(r.cycles->bytesPlanCycles == bytes.metrics.totalCycles);
        CHECK(r.cycles->bytesPlanExtraBytes == bytes.metrics.extraBytes);
    }
}

TEST_CASE("cycles: technique orders starts from the other orders' plans too (order source best)") {
    // The fragmentation example: order source best keeps the schedule order (no spill, like reuse,
    // its first candidate); the reuse order's plan, scheduled for time, finishes 69 cycles sooner.
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("fragmentation"));
    RunOptions o = cyclesObjective();
    o.orderSource = "best";
    const Result r = planVerified(doc, o);
    REQUIRE(r.cycles);
    CHECK(r.cycles->bytesPlanCycles == 1719);
    CHECK(r.metrics.totalCycles == 1650);
    CHECK(r.orderSource == "reuse");
    CHECK(r.metrics.extraBytes == 0);
    CHECK(r.cycles->steps.back() == "order reuse: 1719 -> 1650 cycles, 0 bytes moved");
    o.cycles.disabled = {kOrders};
    const Result without = planVerified(doc, o);
    CHECK(without.metrics.totalCycles == 1719);
    CHECK(without.orderSource == "schedule");
    // A given order has no other orders to start from: the technique changes nothing.
    o.cycles.disabled = {};
    o.orderSource = "schedule";
    CHECK(planVerified(doc, o).metrics.totalCycles == 1719);
}

TEST_CASE("cycles: technique search, the order search run again longer, gives orders that finish sooner") {
    // A random graph of 556 nodes (spillway generate random 200 --seed 2): the bytes plan of
    // order source best (the search's order, 38 bytes moved) ends at 27,234 cycles and the other
    // techniques take it to 16,522. The search run again with 4 times its effort (4,600 -> 18,400
    // evaluations) keeps its last best orders; one of them, improved, ends at 16,313, and 16,019
    // after swaps, with the same 38 bytes moved.
    const GraphDocument doc = randomGraph(2, 200);
    // Headroom and retime each have their own test and would start from there.
    RunOptions o = fromBestOrder(cyclesObjective({kHeadroom, kRetime}));
    const Result with = planVerified(doc, o);
    REQUIRE(with.cycles);
    CHECK(with.cycles->bytesPlanCycles == 27234);
    CHECK(with.metrics.totalCycles == 16019);
    CHECK(with.metrics.extraBytes == 38);
    CHECK(with.orderSource == "search");
    const std::vector<std::string>& steps = with.cycles->steps;
    CHECK(
        std::find(
            steps.begin(), steps.end(),
            "order search, 4 times the effort (runner-up from chains of 1/16 memory, improved): 16690 -> 16313 cycles, "
            "38 bytes moved") != steps.end());
    CHECK(steps.back() == "swaps round 1, two nodes in a row on a pipe swapped: 16209 -> 16019 cycles");
    o.cycles.disabled = {kSearch, kHeadroom, kRetime};
    const Result without = planVerified(doc, o);
    CHECK(without.metrics.totalCycles == 16522);
    CHECK(without.metrics.extraBytes == 38);
    CHECK(std::none_of(without.cycles->steps.begin(), without.cycles->steps.end(),
                       [](const std::string& s) { return s.find("times the effort") != std::string::npos; }));
    // The bytes objective runs no second search: its plan is the same whatever is disabled.
    RunOptions bytes;
    bytes.orderSource = "best";
    bytes.cycles.disabled = {kSearch};
    CHECK(resultToJson(doc.graph, planVerified(doc, bytes)) ==
          resultToJson(doc.graph, planVerified(doc, RunOptions{})));
}

TEST_CASE("cycles: with every technique off the plan is the bytes plan, and the bytes objective is untouched") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("tiled-matmul-small"));
    const Result bytes = planVerified(doc);
    const Result off =
        planVerified(doc, cyclesObjective({kPlacement, kFit, kSchedule, kHoist, kSwaps, kPolicies, kReserve, kOrders,
                                           kSearch, kHeadroom, kStagger, kSequence, kRetime}));
    CHECK(off.plan.order == bytes.plan.order);
    CHECK(off.inputOrder == bytes.inputOrder);
    CHECK(off.plan.addedEdges == bytes.plan.addedEdges);
    REQUIRE(off.plan.allocations.size() == bytes.plan.allocations.size());
    for (size_t i = 0; i < bytes.plan.allocations.size(); ++i)
        CHECK(off.plan.allocations[i].offset == bytes.plan.allocations[i].offset);
    nlohmann::json a = nlohmann::json::parse(resultToJson(doc.graph, bytes));
    nlohmann::json b = nlohmann::json::parse(resultToJson(doc.graph, off));
    CHECK(!a.contains("objective"));
    REQUIRE(b.contains("objective"));
    CHECK(b["objective"]["disabled"] ==
          nlohmann::json({"placement", "fit", "schedule", "hoist", "swaps", "policies", "reserve", "orders", "search",
                          "headroom", "stagger", "sequence", "retime"}));
    CHECK(b["objective"]["bytesPlan"]["totalCycles"] == bytes.metrics.totalCycles);
    b.erase("objective");
    CHECK(a == b);
}

TEST_CASE(
    "cycles: random graphs in tight memories, every plan verified, never slower, within the margin, deterministic") {
    int sooner = 0, reserved = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomGraphParams p;
        p.operations = 10 + static_cast<int>(seed % 30);
        p.allocEdgePercent = static_cast<int>(seed * 13 % 40);
        p.bufferlessPercent = static_cast<int>(seed * 7 % 20);
        const std::string text = generateRandomGraph(seed, p);
        const GraphDocument doc = parseGraphDocument(text);
        const Capacities caps = test::tightCapacities(doc.graph, seed);
        RunOptions o = cyclesObjective();
        o.capacities = caps;
        o.orderSource = seed % 2 ? "schedule" : "reuse";
        o.policy = seed % 3 ? "best" : "seed";
        CAPTURE(seed);
        const Result r = planVerified(doc, o);
        REQUIRE(r.cycles);
        CHECK(r.metrics.totalCycles <= r.cycles->bytesPlanCycles);
        CHECK(r.metrics.extraBytes * 100 <= r.cycles->bytesPlanExtraBytes * 110);
        sooner += r.metrics.totalCycles < r.cycles->bytesPlanCycles;
        reserved += r.metrics.extraBytes != r.cycles->bytesPlanExtraBytes;
        if (seed % 10 == 0)
            CHECK(resultToJson(doc.graph, r) == resultToJson(doc.graph, run(parseGraphDocument(text), o)));
    }
    MESSAGE(sooner << " of 60 random plans finish sooner, " << reserved << " with spare room");
    CHECK(sooner >= 30);  // the property must exercise the techniques, not just plans they cannot improve
}

TEST_CASE("cycles: the trade-off front, cycles falling as data grows, each point its run's plan") {
    int longer = 0;
    for (std::uint64_t seed = 1; seed <= 80; ++seed) {
        RandomGraphParams p;
        p.operations = 10 + static_cast<int>(seed % 30);
        p.allocEdgePercent = static_cast<int>(seed * 13 % 40);
        const GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        RunOptions o;
        o.capacities = test::tightCapacities(doc.graph, seed);
        o.orderSource = "schedule";
        CAPTURE(seed);
        std::vector<std::vector<FrontierPoint>> told;  // the front so far, after each run
        std::vector<int> toldRuns;                     // the runs the front takes, as told then
        const std::vector<FrontierPoint> front =
            frontier(doc, o, [&](const std::vector<FrontierPoint>& soFar, int runsMade, int runs) {
                CHECK(runsMade == static_cast<int>(told.size()) + 1);
                CHECK(runs >= runsMade);
                CHECK(runs <= (toldRuns.empty() ? kFrontierRuns : toldRuns.back()));
                told.push_back(soFar);
                toldRuns.push_back(runs);
            });
        REQUIRE_FALSE(front.empty());
        // Told after each run, the last time the front itself; each so far a front whose points
        // the next keeps or beats on both counts.
        CHECK(toldRuns.front() == kFrontierRuns);
        CHECK(toldRuns.back() == static_cast<int>(told.size()));
        CHECK(frontierToJson(told.back()) == frontierToJson(front));
        CHECK(told.front().size() == 1);
        CHECK(told.front().front().objective == Objective::Bytes);
        for (size_t k = 1; k < told.size(); ++k)
            for (const FrontierPoint& before : told[k - 1])
                CHECK(std::any_of(told[k].begin(), told[k].end(), [&](const FrontierPoint& now) {
                    return now.metrics.extraBytes <= before.metrics.extraBytes &&
                           now.metrics.totalCycles <= before.metrics.totalCycles;
                }));
        for (size_t k = 1; k < front.size(); ++k) {
            CHECK(front[k - 1].metrics.extraBytes < front[k].metrics.extraBytes);
            CHECK(front[k - 1].metrics.totalCycles > front[k].metrics.totalCycles);
        }
        // Each point is what its own run makes (the runs' shared memos change no plan), and every
        // run's plan, those left out too, is on the front or beaten on both counts by a point of
        // it. What leaving runs out rests on: a margin allowing the data of the one before it, or
        // above a run its margin did not limit, makes the same plan as that run.
        std::vector<RunOptions> runs(1, o);
        for (int margin : kFrontierMargins) {
            RunOptions c = o;
            c.objective = Objective::Cycles;
            c.cycles.marginPercent = margin;
            runs.push_back(c);
        }
        std::optional<Result> last;  // the last cycles run the front made
        Bytes lastAllowed = -1;
        int made = 1;  // the bytes plan's run
        for (const RunOptions& r : runs) {
            const Result alone = planVerified(doc, r);
            if (alone.cycles) {
                const Bytes allowed = r.cycles.allowedBytes(alone.cycles->bytesPlanExtraBytes);
                if (last && (!last->cycles->marginLimited || allowed == lastAllowed)) {
                    CHECK(alone.plan.order == last->plan.order);
                    CHECK(alone.metrics.totalCycles == last->metrics.totalCycles);
                } else {
                    ++made;
                    last = alone;
                    lastAllowed = allowed;
                }
            }
            const bool covered = std::any_of(front.begin(), front.end(), [&](const FrontierPoint& f) {
                return f.metrics.extraBytes <= alone.metrics.extraBytes &&
                       f.metrics.totalCycles <= alone.metrics.totalCycles;
            });
            CHECK(covered);
            for (const FrontierPoint& f : front)
                if (f.objective == r.objective &&
                    f.marginPercent == (r.objective == Objective::Cycles ? r.cycles.marginPercent : 0)) {
                    CHECK(f.metrics.extraBytes == alone.metrics.extraBytes);
                    CHECK(f.metrics.totalCycles == alone.metrics.totalCycles);
                    CHECK(f.planPolicy == alone.plan.policy);
                }
        }
        CHECK(made == static_cast<int>(told.size()));
        longer += front.size() > 1;
    }
    // 2 of 80 on this commit: the techniques seldom trade data for time yet (docs/timing.md, "The
    // trade-off front"); these are the fronts the order checks above see.
    CHECK(longer >= 2);
    // The JSON `spillway frontier -o` writes.
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("fragmentation"));
    const std::vector<FrontierPoint> front = frontier(doc, RunOptions{});
    const nlohmann::json j = nlohmann::json::parse(frontierToJson(front));
    REQUIRE(j["points"].size() == front.size());
    CHECK(j["points"][0]["extraBytes"] == front[0].metrics.extraBytes);
    CHECK(j["points"][0]["totalCycles"] == front[0].metrics.totalCycles);
    CHECK(j["points"][0]["verified"] == true);
    // As a front in the making tells it: the runs, and the same points.
    const nlohmann::json told = nlohmann::json::parse(frontierProgressToJson(front, 3, 8));
    CHECK(told["runsMade"] == 3);
    CHECK(told["runs"] == 8);
    CHECK(told["points"] == j["points"]);
}

TEST_CASE("cycles: the contest cases in the schedule order finish sooner, verified, data within the margin") {
    // The schedule order plans in a fraction of a second (the default order's search takes
    // seconds: npm run bench measures that one). Cycles measured on this commit: regression bounds.
    struct Case {
        const char* name;
        Cycles bytesPlan, atMost;
    };
    for (const Case& c : {Case{"Matmul_Case0.json", 194331, 163683}, Case{"FlashAttention_Case0.json", 42311, 31352},
                          Case{"Conv_Case0.json", 580235, 445068}}) {
        auto text = test::sharedCase(c.name);
        if (!text) continue;
        CAPTURE(c.name);
        RunOptions o = cyclesObjective();
        o.orderSource = "schedule";
        o.policy = "lifetime";
        const Result r = planVerified(parseGraphDocument(*text), o);
        REQUIRE(r.cycles);
        CHECK(r.cycles->bytesPlanCycles == c.bytesPlan);
        CHECK(r.metrics.totalCycles <= c.atMost);
        CHECK(r.metrics.extraBytes * 100 <= r.cycles->bytesPlanExtraBytes * 110);
    }
}

TEST_CASE("cycles: technique swaps gains on FlashAttention_Case0, within its work budget" *
          doctest::test_suite("long")) {
    // The default order (the search's), without stagger and retime: swaps finishes 44 cycles sooner
    // (two swaps kept). With a work budget below one schedule of the plan, it tries no pair: the
    // plan without it.
    auto text = test::sharedCase("FlashAttention_Case0.json");
    if (!text) return;
    const GraphDocument doc = parseGraphDocument(*text);
    const Result with = planVerified(doc, cyclesObjective({kStagger, kRetime}));
    const Result without = planVerified(doc, cyclesObjective({kSwaps, kStagger, kRetime}));
    CHECK(with.metrics.totalCycles == 31935);
    CHECK(without.metrics.totalCycles == 31979);
    CHECK(std::count_if(with.cycles->steps.begin(), with.cycles->steps.end(),
                        [](const std::string& s) { return s.rfind("swaps", 0) == 0; }) == 2);
    RunOptions starved = cyclesObjective({kStagger, kRetime});
    starved.cycles.swapsWork = static_cast<std::int64_t>(with.plan.order.size()) - 1;
    const Result none = planVerified(doc, starved);
    CHECK(none.metrics.totalCycles == without.metrics.totalCycles);
}

TEST_CASE("cycles: technique headroom, the search with one tile of L1 kept free, takes Matmul_Case0 sooner" *
          doctest::test_suite("long")) {
    // Without stagger (its own test below). The bytes plan (12,416 bytes, 97 reloads of 128-byte
    // tiles) ends at 138,666; without headroom the best plan is reserve's (128 bytes of L1 kept
    // free by the spills of the search's order: 13,312 bytes), 96,388 cycles. The search with L1
    // at 3,968 bytes finds an order that, planned with the real 4,096 and the same reserve, moves
    // 13,184 bytes and ends at 94,508.
    auto text = test::sharedCase("Matmul_Case0.json");
    if (!text) return;
    const GraphDocument doc = parseGraphDocument(*text);
    const Result with = planVerified(doc, cyclesObjective({kStagger}));
    REQUIRE(with.cycles);
    CHECK(with.cycles->bytesPlanCycles == 138666);
    CHECK(with.cycles->bytesPlanExtraBytes == 12416);
    CHECK(with.metrics.totalCycles == 94508);
    CHECK(with.metrics.extraBytes == 13184);
    CHECK(with.orderSource == "search");
    const Result without = planVerified(doc, cyclesObjective({kHeadroom, kStagger}));
    CHECK(without.metrics.totalCycles == 96388);
    CHECK(without.metrics.extraBytes == 13312);
}

TEST_CASE("cycles: technique stagger overlaps each output tile with the one before, on the contest cases" *
          doctest::test_suite("long")) {
    // Matmul_Case0, without sequence (its own test below): the plan that finished soonest before
    // it (headroom's order, rescheduled), staggered; its plan by policy residency, with 128 bytes
    // of L1 kept free over the whole order (13,184 bytes, as before), ends at 89,264 instead of
    // 94,508. FlashAttention_Case0: the search with staggered units
    // finds an order moving the same 1,280 bytes whose residency plan ends at 30,824; retime's
    // passes (windows of 32, 64, 32 and 16 positions) take it to 29,891 instead of 31,410.
    struct Case {
        const char* file;
        Cycles with, without;
        Bytes bytes;
        const char* step;  // a step of the plan kept
    };
    for (const Case& c : {Case{"Matmul_Case0.json", 89264, 94508, 13184, "stagger, reserve 128 bytes of L1: "},
                          Case{"FlashAttention_Case0.json", 29891, 31410, 1280, "retime, window of 16 at 216: "}}) {
        CAPTURE(c.file);
        auto text = test::sharedCase(c.file);
        if (!text) return;
        const GraphDocument doc = parseGraphDocument(*text);
        const Result with = planVerified(doc, cyclesObjective({kSequence}));
        CHECK(with.metrics.totalCycles == c.with);
        CHECK(with.metrics.extraBytes == c.bytes);
        const std::vector<std::string>& steps = with.cycles->steps;
        CHECK(std::any_of(steps.begin(), steps.end(), [&](const std::string& s) { return s.rfind(c.step, 0) == 0; }));
        CHECK(planVerified(doc, cyclesObjective({kStagger})).metrics.totalCycles == c.without);
    }
}

TEST_CASE("cycles: technique sequence, a search over the staggered units' sequence, takes Matmul_Case0 sooner" *
          doctest::test_suite("long")) {
    // The best plan's order is stagger's (89,264 cycles after swaps, 13,184 bytes). Its sequence of
    // 64 output tiles built with each beat's tiles freed after the beat, then each tile swapped
    // with the next in turn (64 orders), each planned with 128 bytes of L1 kept free: the 61st
    // (its 60th and 61st tiles swapped, after earlier swaps kept) ends at 87,622 with 13,568
    // bytes (within the 13,657 the margin allows); swaps then 87,547: 5.5% above the bound
    // 83,012. With no order to plan, or the technique off, the plan of stagger.
    // FlashAttention_Case0's best order is the staggered search's, not stagger's: the technique
    // does not run there.
    auto text = test::sharedCase("Matmul_Case0.json");
    if (!text) return;
    const GraphDocument doc = parseGraphDocument(*text);
    const Result with = planVerified(doc, cyclesObjective());
    REQUIRE(with.cycles);
    CHECK(with.metrics.totalCycles == 87547);
    CHECK(with.metrics.extraBytes == 13568);
    CHECK(with.cycles->bytesPlanExtraBytes == 12416);
    const std::vector<std::string>& steps = with.cycles->steps;
    CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& s) {
        return s == "sequence, order 61: 88137 -> 87622 cycles, 13568 bytes moved";
    }));
    CHECK(planVerified(doc, cyclesObjective({kSequence})).metrics.totalCycles == 89264);
    RunOptions none = cyclesObjective();
    none.cycles.sequences = 0;
    CHECK(planVerified(doc, none).metrics.totalCycles == 89264);
}

TEST_CASE("cycles: technique reserve keeps room for a load over the stretch of the order where the plan spills") {
    // A conv-like graph (4 groups, 2 layers a stage): the bytes plan moves 30,720 bytes and its
    // best start ends at 274,507 cycles. Room for its largest spilled buffer (768 bytes of L1) kept
    // free from one of its spills to its last reload moves 41,472 bytes (within the margin of 40%)
    // and ends at 268,801: reloads arrive while CUBE works.
    ConvParams params;
    params.groups = 4;
    params.layersPerStage = 2;
    const GraphDocument doc = parseGraphDocument(generateConvLike(params));
    RunOptions o = cyclesObjective({kSearch, kHeadroom, kOrders, kRetime});
    o.cycles.marginPercent = 40;
    const Result with = planVerified(doc, o);
    REQUIRE(with.cycles);
    CHECK(with.cycles->bytesPlanExtraBytes == 30720);
    CHECK(with.metrics.totalCycles == 268801);
    CHECK(with.metrics.extraBytes == 41472);
    CHECK(std::any_of(with.cycles->steps.begin(), with.cycles->steps.end(), [](const std::string& s) {
        return s.rfind("reserve 768 bytes of L1 from node ", 0) == 0 &&
               s.find("-> 268864 cycles, 41472 bytes moved") != s.npos;
    }));
    o.cycles.disabled.push_back(kReserve);
    const Result without = planVerified(doc, o);
    CHECK(without.metrics.totalCycles == 274507);
    CHECK(without.metrics.extraBytes == 30720);
}

TEST_CASE("cycles: technique reserve keeps room over the stretch where Conv_Case0 spills; its front has five points" *
          doctest::test_suite("long")) {
    // The bytes plan spills 768-byte inputs at the end of the order, where each reload waits for
    // bytes and CUBE for it. Room for one more kept free from one of those spills on moves more
    // data and ends sooner: at the default margin 43,776 bytes at 409,926 cycles (at margin 0,
    // with no room for a stretch, 40,704 bytes at 419,883), at 40% 56,064 bytes at 375,941; with
    // any data (the front's last margin, 1000%) 77,184 bytes at 374,194.
    auto text = test::sharedCase("Conv_Case0.json");
    if (!text) return;
    const GraphDocument doc = parseGraphDocument(*text);
    const std::vector<FrontierPoint> front = frontier(doc, RunOptions{});
    std::vector<std::pair<Bytes, Cycles>> points;
    for (const FrontierPoint& p : front) points.push_back({p.metrics.extraBytes, p.metrics.totalCycles});
    CHECK(points == std::vector<std::pair<Bytes, Cycles>>{
                        {40704, 419883}, {43776, 409926}, {48384, 399486}, {56064, 375941}, {77184, 374194}});
    RunOptions fastest = cyclesObjective();
    fastest.cycles.marginPercent = 40;
    const Result r = planVerified(doc, fastest);
    CHECK(r.metrics.totalCycles == 375941);
    CHECK(r.metrics.extraBytes == 56064);
    CHECK(std::any_of(r.cycles->steps.begin(), r.cycles->steps.end(),
                      [](const std::string& s) { return s.rfind("reserve 768 bytes of L1 from node ", 0) == 0; }));
}

TEST_CASE("cycles: technique retime, windows of the order put in simulated time, finish sooner with the same data") {
    // The random graph of the search test above (556 nodes, order source best, 38 bytes moved):
    // 16,019 cycles with every other technique; windows of its input order put in the order of
    // their simulated starts and planned again end at 13,821, with the same data.
    const GraphDocument doc = randomGraph(2, 200);
    RunOptions o = fromBestOrder(cyclesObjective());
    const Result with = planVerified(doc, o);
    REQUIRE(with.cycles);
    CHECK(with.metrics.totalCycles == 13821);
    CHECK(with.metrics.extraBytes == 38);
    const std::vector<std::string>& steps = with.cycles->steps;
    CHECK(std::any_of(steps.begin(), steps.end(),
                      [](const std::string& s) { return s.rfind("retime, window of 32 at ", 0) == 0; }));
    o.cycles.disabled = {kRetime};
    const Result without = planVerified(doc, o);
    CHECK(without.metrics.totalCycles == 16019);
    CHECK(std::none_of(without.cycles->steps.begin(), without.cycles->steps.end(),
                       [](const std::string& s) { return s.rfind("retime", 0) == 0; }));
    o.cycles.disabled = {};
    CHECK(resultToJson(doc.graph, with) == resultToJson(doc.graph, run(doc, o)));  // deterministic
}

TEST_CASE("cycles: technique retime's passes of other widths cross the edges of the first pass's windows") {
    // A random graph of 418 nodes (order source best, nothing spilled): 13,850 cycles without
    // retime. Its passes take windows of 32, 64, 32 and 16 positions in turn while the one before
    // kept a window; a window of 16 positions, in the fourth pass, is the last kept (12,086 ->
    // 11,701 before swaps). Ended after one, two or three passes: 12,335, 12,263, 12,086 cycles.
    const GraphDocument doc = randomGraph(19, 150);
    RunOptions o = fromBestOrder(cyclesObjective());
    const Result with = planVerified(doc, o);
    REQUIRE(with.cycles);
    CHECK(with.metrics.totalCycles == 11622);
    CHECK(with.metrics.extraBytes == 0);
    const std::vector<std::string>& steps = with.cycles->steps;
    CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& s) {
        return s == "retime, window of 16 at 272: 12086 -> 11701 cycles, 0 bytes moved";
    }));
    o.cycles.disabled = {kRetime};
    CHECK(planVerified(doc, o).metrics.totalCycles == 13850);
}

TEST_CASE("cycles: technique retime takes FlashAttention_Case0 below the published figure, same data" *
          doctest::test_suite("long")) {
    // Without stagger (its own test). The default order (the search's, 1,280 bytes moved): the
    // other techniques end at 31,935 cycles. Windows of 32 positions of the input order put in the
    // order of their simulated starts and planned again keep the 1,280 bytes; four are kept
    // (31,979 -> 31,775 -> 31,605 -> 31,491 -> 31,462), then swaps: 31,410, below the published
    // 31,457. With no window to plan, the plan without it.
    auto text = test::sharedCase("FlashAttention_Case0.json");
    if (!text) return;
    const GraphDocument doc = parseGraphDocument(*text);
    const Result with = planVerified(doc, cyclesObjective({kStagger}));
    REQUIRE(with.cycles);
    CHECK(with.metrics.totalCycles == 31410);
    CHECK(with.metrics.extraBytes == 1280);
    CHECK(with.cycles->bytesPlanExtraBytes == 1280);
    // The steps are the kept plan's: the last window kept, then swaps.
    const std::vector<std::string>& steps = with.cycles->steps;
    REQUIRE(steps.size() >= 3);
    CHECK(steps[steps.size() - 3] == "retime, window of 32 at 1296: 31491 -> 31462 cycles, 1280 bytes moved");
    CHECK(steps.back() == "swaps round 1, two nodes in a row on a pipe swapped: 31448 -> 31410 cycles");
    const Result without = planVerified(doc, cyclesObjective({kStagger, kRetime}));
    CHECK(without.metrics.totalCycles == 31935);
    RunOptions none = cyclesObjective({kStagger});
    none.cycles.retimes = 0;
    CHECK(planVerified(doc, none).metrics.totalCycles == 31935);
}

TEST_CASE("cycles: objective and technique names") {
    CHECK(parseObjective("cycles") == Objective::Cycles);
    CHECK(parseObjective("bytes") == Objective::Bytes);
    const InputError e = [] {
        try {
            parseObjective("fast");
        } catch (const InputError& err) {
            return err;
        }
        return InputError("none");
    }();
    CHECK(std::string(e.what()) == "unknown objective \"fast\": expected bytes or cycles");
    CHECK(e.where.field == "objective");
    CHECK(parseCyclesTechniques("hoist,placement") == std::vector<CyclesTechnique>{kHoist, kPlacement});
    CHECK(test::inputErrorOf([] { parseCyclesTechniques("hoist,warp"); }) ==
          "unknown technique \"warp\" of the cycles objective: expected one of placement, fit, schedule, hoist, swaps, "
          "policies, reserve, orders, search, headroom, stagger, sequence, retime");
    CHECK(cyclesTechniques().size() == 13);
}

namespace {
// conv-like under the objective cycles, and its result with nothing told or offered: what the
// tests of a run's reports compare with (planned once for them all).
struct QuietCyclesRun {
    GraphDocument doc;
    RunOptions opts;
    Result quiet;
};
const QuietCyclesRun& convLikeCycles() {
    static const QuietCyclesRun run = [] {
        QuietCyclesRun r{parseGraphDocument(exampleGraphJson("conv-like")), {}, {}};
        r.opts.objective = Objective::Cycles;
        r.quiet = planVerified(r.doc, r.opts);
        return r;
    }();
    return run;
}
}  // namespace

TEST_CASE("cycles: progress in stages, one line from the first search to the plans that finish sooner") {
    const auto& [doc, cyclesOptions, quiet] = convLikeCycles();
    RunOptions o = cyclesOptions;
    std::vector<SearchProgress> reports;
    o.progress = [&](const SearchProgress& p) {
        reports.push_back(p);
        return true;
    };
    const Result told = planVerified(doc, o);
    CHECK(resultToJson(doc, told) == resultToJson(doc, quiet));  // reports change nothing
    REQUIRE(reports.size() >= 4);
    // Each stage its number (conv-like skips headroom: its bytes plan's order cannot keep the room
    // within the margin), in order, from the first search to the last stage.
    const std::vector<std::string> kStages = {"order search", "longer order search", "order search with room kept free",
                                              "order search with units staggered", "finish sooner"};
    std::vector<std::string> names;
    for (size_t k = 0; k < reports.size(); ++k) {
        const SearchProgress& p = reports[k];
        CAPTURE(k);
        CHECK(p.stages == 5);
        REQUIRE(p.stage >= 1);
        REQUIRE(p.stage <= p.stages);
        CHECK(kStages[static_cast<size_t>(p.stage - 1)] == p.stageName);
        if (k > 0) CHECK(p.stage >= reports[k - 1].stage);
        if (names.empty() || names.back() != p.stageName) names.push_back(p.stageName);
    }
    CHECK(names == std::vector<std::string>{"order search", "longer order search", "order search with units staggered",
                                            "finish sooner"});
    // The last stage: the starts improved one by one, the fewest cycles so far never rising, and
    // the plan made at least as fast (the swaps come after the last report).
    std::vector<SearchProgress> last;
    for (const SearchProgress& p : reports)
        if (p.stage == p.stages) last.push_back(p);
    REQUIRE(last.size() >= 2);
    for (size_t k = 0; k < last.size(); ++k) {
        CHECK(last[k].evaluations == static_cast<std::int64_t>(k) + 1);
        CHECK(last[k].budget == 0);
        if (k > 0) CHECK(last[k].best <= last[k - 1].best);
    }
    CHECK(told.metrics.totalCycles <= last.back().best);
    CHECK(last.front().best <= told.cycles->bytesPlanCycles);
    // Without the longer search, four stages; under the bytes objective, none.
    reports.clear();
    o.cycles.disabled = {CyclesTechnique::Search};
    planVerified(doc, o);
    REQUIRE_FALSE(reports.empty());
    CHECK(reports.back().stages == 4);
    CHECK(reports.back().stage == 4);
    reports.clear();
    o.objective = Objective::Bytes;
    o.cycles.disabled.clear();
    planVerified(doc, o);
    REQUIRE_FALSE(reports.empty());
    for (const SearchProgress& p : reports) CHECK(p.stages == 0);
}

TEST_CASE("cycles: the best plan so far offered as the run finds it, each verified, the result unchanged") {
    const auto& [doc, cyclesOptions, quiet] = convLikeCycles();
    RunOptions o = cyclesOptions;
    std::vector<Result> offered;
    int offers = 0;
    o.offerBestSoFar = [&](const std::function<Result()>& make) {
        if (++offers % 2 == 1) offered.push_back(make());  // every other one made: the rest are left
    };
    const Result told = planVerified(doc, o);
    CHECK(resultToJson(doc, told) == resultToJson(doc, quiet));
    REQUIRE(offers >= 3);
    REQUIRE(offered.size() >= 2);
    // The first is the bytes plan, as the report of the whole run describes it.
    const Result& bytesPlan = offered.front();
    CHECK(bytesPlan.metrics.extraBytes == told.cycles->bytesPlanExtraBytes);
    CHECK(bytesPlan.metrics.totalCycles == told.cycles->bytesPlanCycles);
    REQUIRE(bytesPlan.cycles);
    CHECK(bytesPlan.cycles->steps.empty());
    CHECK(bytesPlan.cycles->marginPercent == 10);
    const Bytes allowed = o.cycles.allowedBytes(told.cycles->bytesPlanExtraBytes);
    for (size_t k = 0; k < offered.size(); ++k) {
        const Result& r = offered[k];
        CAPTURE(k);
        CHECK(verifyResultRecomputing(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r)).empty());
        CHECK(r.objective == Objective::Cycles);
        CHECK(r.metrics.extraBytes <= allowed);
        if (k > 0) {
            CHECK(r.metrics.totalCycles < offered[k - 1].metrics.totalCycles);
            CHECK(r.cycles->steps.size() >= offered[k - 1].cycles->steps.size());
        }
    }
    CHECK(told.metrics.totalCycles <= offered.back().metrics.totalCycles);
    // Under the bytes objective nothing is offered.
    offers = 0;
    o.objective = Objective::Bytes;
    planVerified(doc, o);
    CHECK(offers == 0);
    // Nor on a huge graph (a second result would double the run's memory): 50,001 buffers, each
    // allocated and freed, 100,002 nodes.
    std::string huge = R"({"Nodes":[)";
    for (int b = 0; b <= 50'000; ++b) {
        const std::string id = std::to_string(b), size = R"(,"Size":16,"Type":"UB"})";
        huge += (b ? "," : "") + (R"({"Id":)" + std::to_string(2 * b) + R"(,"Op":"ALLOC","BufId":)" + id + size) +
                (R"(,{"Id":)" + std::to_string(2 * b + 1) + R"(,"Op":"FREE","BufId":)" + id + size);
    }
    huge += R"(],"Edges":[]})";
    const GraphDocument hugeDoc = parseGraphDocument(huge);
    REQUIRE(isHugeGraph(hugeDoc.graph.nodes.size()));
    o.objective = Objective::Cycles;
    planVerified(hugeDoc, o);
    CHECK(offers == 0);
}
