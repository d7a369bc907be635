#include <algorithm>
#include <cstdint>
#include <set>

#include "spillway/examples.h"
#include "spillway/planner.h"
#include "spillway/scale.h"
#include "support.h"

using namespace spillway;
using spillway::test::planVerified;

namespace {

// L1 holds 300 bytes. b0 (100, COPY_IN), b1 (100), b2 (100) fill it; b3 (200) then needs room.
// Steps equal ids. At step 6 the seed's scores (size * distance / cost) are
//   b0: next use 10, distance 4, COPY_IN so cost = size      -> 4
//   b1: next use 9,  distance 3, cost 2 * size               -> 1.5
//   b2: next use 11, distance 5, cost 2 * size               -> 2.5
// so b0 goes first (hole [0,100) is too small), then b2 (holes [0,100) and [200,300): still no
// 200-byte hole, fragmentation), then b1; b3 lands at 0. After FREE b3, each spilled buffer is
// reloaded just before its next use by best fit: b1 at 0, b0 at 100, b2 at 200.
const char* kKnownDecisions = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":3,"Op":"V1","Pipe":"VECTOR","Cycles":5,"Bufs":[1]},
 {"Id":4,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
 {"Id":5,"Op":"V2","Pipe":"VECTOR","Cycles":5,"Bufs":[2]},
 {"Id":6,"Op":"ALLOC","BufId":3,"Size":200,"Type":"L1"},
 {"Id":7,"Op":"V3","Pipe":"VECTOR","Cycles":5,"Bufs":[3]},
 {"Id":8,"Op":"FREE","BufId":3,"Size":200,"Type":"L1"},
 {"Id":9,"Op":"V4","Pipe":"VECTOR","Cycles":5,"Bufs":[1]},
 {"Id":10,"Op":"V5","Pipe":"VECTOR","Cycles":5,"Bufs":[0]},
 {"Id":11,"Op":"V6","Pipe":"VECTOR","Cycles":5,"Bufs":[2]},
 {"Id":12,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":13,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":14,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,10],[10,13],[2,3],[3,9],[9,12],[4,5],[5,11],[11,14],[6,7],[7,8]],
 "Capacities":{"L1":300}})";

}  // namespace

TEST_CASE("planner: a hand-made graph where every decision is known") {
    GraphDocument doc = parseGraphDocument(kKnownDecisions);
    RunOptions opts;
    opts.policy = "seed";
    opts.orderSource = "id";
    Result r = planVerified(doc, opts);
    const Plan& p = r.plan;

    REQUIRE(p.allocations.size() == 4);
    CHECK(p.allocations[0].offset == 0);
    CHECK(p.allocations[1].offset == 100);
    CHECK(p.allocations[2].offset == 200);
    CHECK(p.allocations[3].offset == 0);

    REQUIRE(p.spills.size() == 3);
    auto check = [&](int k, BufferId buf, Bytes oldOffset, Bytes newOffset) {
        CAPTURE(k);
        CHECK(p.spills[k].buf == buf);
        CHECK(p.spills[k].oldOffset == oldOffset);
        CHECK(p.spills[k].newOffset == newOffset);
        CHECK(p.spills[k].outNode == 15 + 2 * k);
        CHECK(p.spills[k].inNode == 16 + 2 * k);
    };
    check(0, 0, 0, 100);
    check(1, 2, 200, 200);
    check(2, 1, 100, 0);
    CHECK(p.order == Order{0, 1, 2, 3, 4, 5, 15, 17, 19, 6, 7, 8, 20, 9, 16, 10, 18, 11, 12, 13, 14});
    CHECK(p.spills[0].outStep == 6);
    CHECK(p.spills[0].inStep == 14);

    // The first spill decision lists every candidate with the seed's score, highest first, and
    // the room b3 needed: 200 bytes, none free.
    auto firstSpill = std::find_if(p.decisions.begin(), p.decisions.end(),
                                   [](const Decision& d) { return d.kind == Decision::Kind::Spill; });
    REQUIRE(firstSpill != p.decisions.end());
    CHECK(firstSpill->step == 6);
    CHECK(firstSpill->orderStep == 6);
    CHECK(firstSpill->buf == 0);
    REQUIRE(firstSpill->candidates.size() == 3);
    CHECK(firstSpill->candidatesTotal == 3);
    CHECK(firstSpill->candidates[0].buf == 0);
    CHECK(firstSpill->candidates[0].nextUseStep == 10);
    CHECK(firstSpill->candidates[0].size == 100);
    CHECK(firstSpill->candidates[0].copyIn);
    CHECK(firstSpill->candidates[0].score == doctest::Approx(4.0));
    CHECK(firstSpill->candidates[1].buf == 2);
    CHECK_FALSE(firstSpill->candidates[1].copyIn);
    CHECK(firstSpill->candidates[1].score == doctest::Approx(2.5));
    CHECK(firstSpill->candidates[2].buf == 1);
    CHECK(firstSpill->candidates[2].score == doctest::Approx(1.5));
    CHECK(firstSpill->room.forBufs == std::vector<BufferId>{3});
    CHECK(firstSpill->room.need == 200);
    CHECK(firstSpill->room.freeBytes == 0);
    CHECK(firstSpill->room.shortfall == 200);
    CHECK(firstSpill->formula.rfind("score = size", 0) == 0);
    // The second: b0's 100 bytes are free now, not contiguous with any other hole.
    const Decision& second = *std::find_if(firstSpill + 1, p.decisions.end(),
                                           [](const Decision& d) { return d.kind == Decision::Kind::Spill; });
    CHECK(second.buf == 2);
    CHECK(second.room.freeBytes == 100);
    CHECK(second.room.largestHole == 100);
    CHECK(second.room.shortfall == 100);
    CHECK(second.candidates.size() == 2);
    // b3 is placed where the three write-outs left one hole, the whole memory.
    const Decision& b3 = *std::find_if(p.decisions.begin(), p.decisions.end(),
                                       [](const Decision& d) { return d.kind == Decision::Kind::Place && d.buf == 3; });
    CHECK(b3.orderStep == 9);
    CHECK(b3.holes == std::vector<Hole>{{0, 300}});

    // The contest's edges for b0's spill (OUT 15, IN 16).
    auto has = [&](NodeId s, NodeId d) {
        return std::binary_search(p.addedEdges.begin(), p.addedEdges.end(), std::make_pair(s, d));
    };
    CHECK(has(0, 15));   // ALLOC -> OUT
    CHECK(has(1, 15));   // earlier user -> OUT
    CHECK(has(15, 16));  // OUT -> IN
    CHECK(has(16, 10));  // IN -> later user
    CHECK(has(16, 13));  // IN -> FREE
    CHECK_FALSE(has(16, 1));

    // Contest cycles: b0 has a COPY_IN, so its SPILL_OUT is free; SPILL_IN = 2 * 100 + 150.
    CHECK(p.addedNodes[0].op == "SPILL_OUT");
    CHECK(p.addedNodes[0].pipe == "MTE3");
    CHECK(p.addedNodes[0].cycles == 0);
    CHECK(p.addedNodes[1].op == "SPILL_IN");
    CHECK(p.addedNodes[1].pipe == "MTE2");
    CHECK(p.addedNodes[1].cycles == 350);
    CHECK(p.addedNodes[2].cycles == 350);  // b2 has no COPY_IN

    CHECK(r.metrics.spills == 3);
    CHECK(r.metrics.extraBytes == 100 + 200 + 200);
    CHECK(r.metrics.demandPeaks.byType.at("L1") == 500);
    CHECK(r.metrics.residentPeaks.at("L1") == 300);
}

TEST_CASE("planner: the seed cost model sets spill cycles to fixed + per byte * size") {
    GraphDocument doc = parseGraphDocument(kKnownDecisions);
    RunOptions opts = parseRunOptions(R"({"policy":"seed","order":"schedule","cost":{"model":"seed","fixedLatency":7,"cyclesPerByte":3}})");
    Result r = planVerified(doc, opts);
    REQUIRE(r.plan.addedNodes.size() == 6);
    for (const Node& n : r.plan.addedNodes) CHECK(n.cycles == 7 + 3 * 100);
}

TEST_CASE("planner: nothing is spilled when everything fits") {
    GraphDocument doc = parseGraphDocument(kKnownDecisions);
    RunOptions opts;
    opts.policy = "seed";
    opts.capacities = Capacities{{"L1", 500}};
    Result r = planVerified(doc, opts);
    CHECK(r.plan.spills.empty());
    CHECK(r.plan.order == r.inputOrder);
    CHECK(r.metrics.extraBytes == 0);
}

TEST_CASE("planner: a node's own buffers are relocated only as a last resort, and reloaded before it") {
    // L1 = 300. a (100) at 0, b (100) at 100, c (100) at 200; FREE b leaves [100,200). The node
    // X uses a and d (200): no 200-byte hole, c is the only unprotected victim, and spilling it
    // leaves [100,300): d fits there without touching a.
    // Then Y uses a and e (200) after FREE c... see the relocation graph below for the last resort.
    const char* g = R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
     {"Id":1,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
     {"Id":2,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
     {"Id":3,"Op":"W","Pipe":"VECTOR","Cycles":1,"Bufs":[0,1,2]},
     {"Id":4,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
     {"Id":5,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"},
     {"Id":6,"Op":"ALLOC","BufId":3,"Size":200,"Type":"L1"},
     {"Id":7,"Op":"X","Pipe":"VECTOR","Cycles":1,"Bufs":[1,3]},
     {"Id":8,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
     {"Id":9,"Op":"FREE","BufId":3,"Size":200,"Type":"L1"}],
     "Edges":[[0,3],[1,3],[2,3],[3,4],[3,5],[4,6],[5,6],[6,7],[7,8],[7,9]],
     "Capacities":{"L1":300}})";
    // After FREE a and FREE c, b sits alone in the middle at [100,200): holes of 100 on each side.
    // ALLOC d (200) has no hole and no other victim than b, which X (the next node) needs. At the
    // ALLOC, b is not protected (only d is), so the seed's rule spills b; X then reloads it.
    GraphDocument doc = parseGraphDocument(g);
    Result r = planVerified(doc, test::seedById());
    REQUIRE(r.plan.spills.size() == 1);
    CHECK(r.plan.spills[0].buf == 1);
    CHECK(r.plan.allocations[3].offset == 0);
    CHECK(r.plan.spills[0].newOffset == 200);
    // The reload comes just before X (id 7).
    auto in = std::find(r.plan.order.begin(), r.plan.order.end(), r.plan.spills[0].inNode);
    REQUIRE(in + 1 != r.plan.order.end());
    CHECK(*(in + 1) == 7);
}

TEST_CASE("planner: fragmentation around a node's own buffers forces a relocation, never a drop") {
    // L1 = 300. Steps equal ids. a (150) is spilled at step 4 (its next use is 4 steps away, big's
    // is its FREE 1 step away); z takes [0,100), b1 [100,200), then z is freed. X needs a (150)
    // back while b1, also X's, sits in the middle: holes [0,100) and [200,300) are too small and
    // nobody else is resident. Last resort: b1 is relocated (spilled and reloaded before X); the
    // memory is then empty, so a lands at 0 and b1 at 150. Nothing is dropped.
    const char* g = R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":150,"Type":"L1"},
     {"Id":1,"Op":"P","Pipe":"VECTOR","Cycles":1,"Bufs":[0]},
     {"Id":2,"Op":"ALLOC","BufId":1,"Size":150,"Type":"L1"},
     {"Id":3,"Op":"Q","Pipe":"VECTOR","Cycles":1,"Bufs":[1]},
     {"Id":4,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
     {"Id":5,"Op":"FREE","BufId":1,"Size":150,"Type":"L1"},
     {"Id":6,"Op":"ALLOC","BufId":3,"Size":100,"Type":"L1"},
     {"Id":7,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"},
     {"Id":8,"Op":"X","Pipe":"VECTOR","Cycles":1,"Bufs":[0,3]},
     {"Id":9,"Op":"FREE","BufId":0,"Size":150,"Type":"L1"},
     {"Id":10,"Op":"FREE","BufId":3,"Size":100,"Type":"L1"}],
     "Edges":[[0,1],[1,8],[8,9],[2,3],[3,5],[4,7],[6,8],[8,10]],
     "Capacities":{"L1":300}})";
    GraphDocument doc = parseGraphDocument(g);
    RunOptions opts;
    opts.policy = "seed";
    opts.orderSource = "id";
    Result r = planVerified(doc, opts);
    const Plan& p = r.plan;
    REQUIRE(p.spills.size() == 2);
    CHECK(p.spills[0].buf == 0);
    CHECK(p.spills[1].buf == 3);
    CHECK(p.spills[1].oldOffset == 100);
    CHECK(p.spills[0].newOffset == 0);
    CHECK(p.spills[1].newOffset == 150);
    CHECK(p.order == Order{0, 1, 2, 3, 11, 4, 5, 6, 7, 13, 12, 14, 8, 9, 10});
    auto relocation = std::find_if(p.decisions.begin(), p.decisions.end(), [](const Decision& d) {
        return d.kind == Decision::Kind::Spill && d.buf == 3;
    });
    REQUIRE(relocation != p.decisions.end());
    CHECK(relocation->reason.rfind("relocated", 0) == 0);
    CHECK(relocation->step == 8);
}

TEST_CASE("planner: the same input gives byte-identical output") {
    std::string text = exampleGraphJson(exampleList().front().name);
    GraphDocument doc = parseGraphDocument(text);
    std::string a = resultToJson(doc.graph, run(doc, {}));
    std::string b = resultToJson(doc.graph, run(parseGraphDocument(text), {}));
    CHECK(a == b);
}

TEST_CASE("planner: every contest case plans and verifies under both cost models, ascending id" * doctest::test_suite("long")) {
    for (const char* name : spillway::test::kSharedCases) {
        auto text = spillway::test::sharedCase(name);
        if (!text) continue;
        GraphDocument doc = parseGraphDocument(*text);
        for (const char* cost : {"contest", "seed"}) {
            CAPTURE(name);
            CAPTURE(cost);
            RunOptions opts;
            opts.policy = "seed";
            opts.orderSource = "id";
            opts.cost = CostModel::parse(cost);
            Result r = planVerified(doc, opts);
            CHECK(r.metrics.spills > 0);  // ascending id frees everything last: spills are certain
            CHECK(r.metrics.extraBytes > 0);
            for (const auto& [type, peak] : r.metrics.residentPeaks) CHECK(peak <= r.capacities.at(type));
            CHECK(r.metrics.totalCycles > 0);
            CHECK(r.plan.order.size() == doc.graph.nodes.size() + 2 * r.plan.spills.size());
        }
    }
}

// Random graphs with capacities between the largest single need and the whole demand, so that
// spills (and fragmentation) happen; every plan must pass the verifier.
void propertyCheck(const std::string& policy, std::uint64_t graphs, int minWithSpills) {
    std::uint64_t state = 0x5eed;
    auto next = [&](std::uint64_t bound) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % bound;
    };
    std::uint64_t planned = 0;
    int withSpills = 0, relocations = 0;
    for (std::uint64_t seed = 1; seed <= graphs; ++seed) {
        RandomGraphParams params;
        params.operations = 5 + static_cast<int>(next(40));
        params.maxReads = 1 + static_cast<int>(next(3));
        params.freesAtEnd = next(4) == 0;
        params.maxBytes = 16 + static_cast<Bytes>(next(240));
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, params));
        Capacities caps;
        for (const Buffer& b : doc.graph.buffers) caps[b.type] = std::max(caps[b.type], b.size);
        for (auto& [type, cap] : caps) cap = cap * (2 + static_cast<Bytes>(next(4))) / 2 + static_cast<Bytes>(next(64));
        for (const Node& n : doc.graph.nodes) {  // a node's buffers of one memory must fit together
            std::map<std::string, Bytes> need;
            for (BufferId id : doc.graph.buffersOf(n)) need[doc.graph.buffer(id).type] += doc.graph.buffer(id).size;
            for (auto& [type, bytes] : need) caps[type] = std::max(caps[type], bytes);
        }
        RunOptions opts;
        opts.capacities = caps;
        opts.policy = policy;
        opts.orderSource = next(2) ? "id" : "schedule";
        opts.cost = CostModel::parse(next(2) ? "contest" : "seed");
        CAPTURE(seed);
        Result r = run(doc, opts);  // throws InternalError if the verifier rejects the plan
        CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r)).empty());
        ++planned;
        if (!r.plan.spills.empty()) ++withSpills;
        for (const Decision& d : r.plan.decisions)
            if (d.reason.rfind("relocated", 0) == 0) ++relocations;
    }
    CHECK(planned == graphs);
    MESSAGE(policy << ": " << withSpills << " of " << graphs << " random plans spill, " << relocations
                   << " last-resort relocations");
    CHECK(withSpills >= minWithSpills);  // the property must exercise spilling, not just easy cases
}

TEST_CASE("property: thousands of small random graphs and capacities all plan and verify") {
    propertyCheck("seed", 3000, 300);
}

// The default takes another path above kHugeGraphNodes (one policy, drafts chosen by a bound,
// the bound by windows): hostile-ish memories there too, the tightest a node's own buffers allow
// and a little more, every memory of the generator's five spilling.
TEST_CASE("property: huge random graphs with tight memories plan and verify on the default's huge path" * doctest::test_suite("long")) {
    RandomGraphParams params;
    params.operations = 36000;
    params.allocEdgePercent = 20;
    params.bufferlessPercent = 10;
    const GraphDocument doc = parseGraphDocument(generateRandomGraph(11, params));
    REQUIRE(isHugeGraph(doc.graph.nodes.size()));
    for (std::uint64_t seed : {0, 1}) {
        RunOptions opts;
        opts.capacities = spillway::test::tightCapacities(doc.graph, seed);
        CAPTURE(seed);
        const Result r = planVerified(doc, opts);
        std::set<std::string> spilledFrom;
        for (const Spill& s : r.plan.spills) spilledFrom.insert(s.type);
        CHECK(spilledFrom.size() == 5);
        CHECK(r.metrics.bound.total > 0);
        CHECK(r.metrics.bound.total <= r.metrics.extraBytes);
        CHECK(r.plan.order.size() == doc.graph.nodes.size() + 2 * r.plan.spills.size());
    }
}
