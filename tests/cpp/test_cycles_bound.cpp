// Lower bounds on total cycles (spillway/cycles_bound.h): worked values on small graphs, and never
// above the cycles of a verified plan, on random graphs under both objectives.
#include "spillway/cycles_bound.h"

#include "spillway/examples.h"
#include "support.h"

using namespace spillway;
using test::kWorkedExample;
using test::planVerified;

namespace {

// b0 is read before and after b1, and L1 holds one of them: b0 (a COPY_IN buffer) is written out
// for free and read back in 2 * 100 + 150 = 350 cycles of MTE2, after its first EXP (ends at 30)
// and before its second.
constexpr const char* kForcedReload = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"EXP","Pipe":"VECTOR","Cycles":20,"Bufs":[0]},
 {"Id":3,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":4,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[1]},
 {"Id":5,"Op":"EXP","Pipe":"VECTOR","Cycles":20,"Bufs":[1]},
 {"Id":6,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":7,"Op":"EXP","Pipe":"VECTOR","Cycles":20,"Bufs":[0]},
 {"Id":8,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,2],[2,7],[7,8],[3,4],[4,5],[5,6]],
 "Order":[0,1,2,3,4,5,6,7,8], "Capacities":{"L1":100}})";

Cycles pipeBound(const CyclesBound& b, const std::string& pipe) {
    for (const CyclesBound::Pipe& p : b.pipes)
        if (p.name == pipe) return p.bound;
    FAIL("no pipe " << pipe);
    return -1;
}

}  // namespace

TEST_CASE("cycles bound: the worked example, pipe by pipe") {
    const Result r = planVerified(parseGraphDocument(kWorkedExample));
    CHECK(r.metrics.totalCycles == 45);
    const CyclesBound& b = r.metrics.cyclesBound.plan;
    // MTE2 runs 10 + 20 + 10 cycles from cycle 0, and the last of them may be the one with no
    // work after it: 40. The ADD waits for both loads, which share MTE2: not before 30 (by the
    // edges alone 20, the longer load), so it ends at 35 at the earliest.
    CHECK(b.criticalPath == 35);
    CHECK(pipeBound(b, "MTE2") == 40);
    CHECK(pipeBound(b, "VECTOR") == 35);
    CHECK(b.total == 40);
    CHECK(b.limit == "MTE2");
    // No spill: the same for the order and for any plan.
    CHECK(r.metrics.cyclesBound.order.total == 40);
    CHECK(r.metrics.cyclesBound.graph.total == 40);
}

TEST_CASE("cycles bound: a pipe's bound does not hang on how works with equal heads were listed") {
    // On pipe P: A (3 cycles) after 10 cycles of QA and before 10 of RA; B (7) and C (1) both after
    // 15 of QB, B before 5 of RB. B last in the pass by heads gives 15 + 7 + 5 = 27. Listed before
    // C, as here, a sort that keeps equal heads in place gave 25 before (the pass by tails' best).
    const Result r = planVerified(parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"A","Pipe":"P","Cycles":3,"Bufs":[]},
     {"Id":1,"Op":"B","Pipe":"P","Cycles":7,"Bufs":[]},
     {"Id":2,"Op":"C","Pipe":"P","Cycles":1,"Bufs":[]},
     {"Id":3,"Op":"QA","Pipe":"QA","Cycles":10,"Bufs":[]},
     {"Id":4,"Op":"QB","Pipe":"QB","Cycles":15,"Bufs":[]},
     {"Id":5,"Op":"RA","Pipe":"RA","Cycles":10,"Bufs":[]},
     {"Id":6,"Op":"RB","Pipe":"RB","Cycles":5,"Bufs":[]}],
     "Edges":[[3,0],[4,1],[4,2],[0,5],[1,6]], "Order":[3,4,0,1,2,5,6], "Capacities":{"L1":100}})"));
    CHECK(pipeBound(r.metrics.cyclesBound.plan, "P") == 27);
    CHECK(r.metrics.cyclesBound.plan.total == 27);
    CHECK(r.metrics.totalCycles >= 27);
}

TEST_CASE("cycles bound: a forced reload counts on MTE2, for the plan and for any plan of the order") {
    const Result r = planVerified(parseGraphDocument(kForcedReload));
    REQUIRE(r.metrics.spills == 1);
    CHECK(r.metrics.extraBytes == 100);
    CHECK(r.metrics.bound.total == 100);
    CHECK(r.metrics.totalCycles == 430);
    // The plan: its SPILL_IN cannot start before 30 and its EXP comes after: 30 + 350 + 20.
    CHECK(pipeBound(r.metrics.cyclesBound.plan, "MTE2") == 400);
    CHECK(r.metrics.cyclesBound.plan.total == 400);
    // The order: 100 bytes must move out of L1, at 3.5 cycles a byte at best: 20 + 350 on MTE2.
    CHECK(pipeBound(r.metrics.cyclesBound.order, "MTE2") == 370);
    CHECK(r.metrics.cyclesBound.order.total == 370);
    // Any plan (another order need not spill): VECTOR's 60 cycles after the first load's 10.
    CHECK(r.metrics.cyclesBound.graph.total == 70);
    CHECK(r.metrics.cyclesBound.graph.limit == "VECTOR");
    // With b0's two EXPs together no spill is needed; b1's load then waits for b0's bytes (the
    // address rule, which no bound counts): 80 of at least 70.
    RunOptions o;
    o.order = Order{0, 1, 2, 7, 8, 3, 4, 5, 6};
    o.orderSource = "given";
    const Result together = planVerified(parseGraphDocument(kForcedReload), o);
    CHECK(together.metrics.spills == 0);
    CHECK(together.metrics.totalCycles == 80);
    CHECK(together.metrics.cyclesBound.plan.total == 70);
}

TEST_CASE("cycles bound: the traffic bounds computed together are each one computed alone") {
    const GraphDocument doc = parseGraphDocument(kForcedReload);
    const Result r = planVerified(doc);
    const std::map<std::string, Bytes> l1{{"L1", 100}}, none;
    const std::vector<CyclesBound> both = trafficCyclesBounds(doc.graph, r.cost, {l1, none});
    REQUIRE(both.size() == 2);
    for (std::size_t k = 0; k < 2; ++k) {
        const CyclesBound alone = trafficCyclesBound(doc.graph, r.cost, k == 0 ? l1 : none);
        CAPTURE(k);
        CHECK(both[k].total == alone.total);
        CHECK(both[k].limit == alone.limit);
        CHECK(both[k].criticalPath == alone.criticalPath);
        REQUIRE(both[k].pipes.size() == alone.pipes.size());
        for (std::size_t p = 0; p < alone.pipes.size(); ++p) {
            CHECK(both[k].pipes[p].name == alone.pipes[p].name);
            CHECK(both[k].pipes[p].busy == alone.pipes[p].busy);
            CHECK(both[k].pipes[p].bound == alone.pipes[p].bound);
        }
    }
    // The values of the test above: 370 with L1's 100 bytes (MTE2), 70 without (VECTOR).
    CHECK(both[0].total == 370);
    CHECK(both[1].total == 70);
    CHECK(both[1].limit == "VECTOR");
}

TEST_CASE("cycles bound: never above a verified plan's cycles, random graphs, both objectives") {
    int tight = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        RandomGraphParams p;
        p.operations = 8 + static_cast<int>(seed % 25);
        p.allocEdgePercent = static_cast<int>(seed * 11 % 40);
        const std::string text = generateRandomGraph(seed, p);
        const GraphDocument doc = parseGraphDocument(text);
        const Capacities caps = test::tightCapacities(doc.graph, seed);
        for (Objective objective : {Objective::Bytes, Objective::Cycles}) {
            RunOptions o;
            o.capacities = caps;
            o.orderSource = seed % 2 ? "schedule" : "reuse";
            o.objective = objective;
            CAPTURE(seed);
            const Result r = planVerified(doc, o);
            const auto& b = r.metrics.cyclesBound;
            CHECK(b.plan.total <= r.metrics.totalCycles);
            CHECK(b.order.total <= r.metrics.totalCycles);
            CHECK(b.graph.total <= r.metrics.totalCycles);
            CHECK(b.graph.total <= b.order.total);  // the order's traffic only adds work
            CHECK(b.plan.total >= b.plan.criticalPath);
            tight += b.plan.total == r.metrics.totalCycles;
        }
    }
    MESSAGE(tight << " of 80 plans finish at their plan's bound");
    CHECK(tight >= 10);  // the bound must be close enough to be met, not only below
}

TEST_CASE("cycles bound: above 8192 nodes the heads and tails are the chains' alone, still below the plan") {
    MatmulParams p;
    p.m = 8;
    p.n = 8;
    p.k = 17;  // 8,636 nodes
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(p));
    REQUIRE(doc.graph.nodes.size() > 8192);
    RunOptions o;
    o.orderSource = "schedule";
    o.policy = "lifetime";
    const Result r = planVerified(doc, o);
    const auto& b = r.metrics.cyclesBound;
    CHECK(b.plan.total <= r.metrics.totalCycles);
    CHECK(b.graph.total <= b.plan.total);
    for (const CyclesBound::Pipe& pipe : b.graph.pipes)
        if (pipe.name == "CUBE") CHECK(pipe.busy == 8 * 8 * 17 * 128);
    // The CUBE's first MATMUL waits for two loads by the chains alone (325 + 31), the last is
    // followed by its COPY_OUT (263): no pipe raise here.
    CHECK(pipeBound(b.graph, "CUBE") == 325 + 31 + 8 * 8 * 17 * 128 + 263);
}
