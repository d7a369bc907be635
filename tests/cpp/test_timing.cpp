#include "spillway/timing.h"
#include "support.h"

using namespace spillway;

namespace {
std::map<NodeId, std::pair<Cycles, Cycles>> byId(const Timing& t) {
    std::map<NodeId, std::pair<Cycles, Cycles>> m;
    for (const NodeTiming& n : t.nodes) m[n.id] = {n.start, n.end};
    return m;
}
}  // namespace

TEST_CASE("timing: pipes run one node at a time, in parallel with each other, after predecessors") {
    // Two independent loads on MTE2 serialize; the vector op waits for its load only.
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":10,"Type":"L1"},
     {"Id":1,"Op":"ALLOC","BufId":1,"Size":10,"Type":"L1"},
     {"Id":2,"Op":"COPY_IN","Pipe":"MTE2","Cycles":100,"Bufs":[0]},
     {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":50,"Bufs":[1]},
     {"Id":4,"Op":"EXP","Pipe":"VECTOR","Cycles":7,"Bufs":[0]},
     {"Id":5,"Op":"FREE","BufId":0,"Size":10,"Type":"L1"},
     {"Id":6,"Op":"FREE","BufId":1,"Size":10,"Type":"L1"}],
     "Edges":[[0,2],[1,3],[2,4],[4,5],[3,6]]})");
    Result r = test::planVerified(doc);
    auto t = byId(r.timing);
    CHECK(t[2] == std::make_pair(Cycles{0}, Cycles{100}));
    CHECK(t[3] == std::make_pair(Cycles{100}, Cycles{150}));  // MTE2 busy until 100
    CHECK(t[4] == std::make_pair(Cycles{100}, Cycles{107}));  // after its load, VECTOR is free
    CHECK(t[5] == std::make_pair(Cycles{107}, Cycles{107}));  // FREE takes 0 cycles
    CHECK(r.timing.total == 150);
    CHECK(r.metrics.totalCycles == 150);
}

TEST_CASE("timing: a buffer placed over bytes another used waits until that one left them") {
    // L1 holds one buffer: b1 reuses b0's bytes, so its ALLOC (and so its load) waits for FREE b0,
    // which waits for the vector op. Without that rule the second load would start at 10.
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
     {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
     {"Id":2,"Op":"ADD","Pipe":"VECTOR","Cycles":5,"Bufs":[0]},
     {"Id":3,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
     {"Id":4,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
     {"Id":5,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[1]},
     {"Id":6,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"}],
     "Edges":[[0,1],[1,2],[2,3],[4,5],[5,6]],
     "Capacities":{"L1":100}})");
    Result r = test::planVerified(doc);
    REQUIRE(r.plan.allocations[1].offset == 0);
    auto t = byId(r.timing);
    CHECK(t[3].second == 15);
    CHECK(t[4].first == 15);
    CHECK(t[5] == std::make_pair(Cycles{15}, Cycles{25}));
    CHECK(r.timing.total == 25);
}

TEST_CASE("timing: spill nodes take their cost model's cycles on MTE3 / MTE2") {
    // One 100-byte L1 holds a or b: b's ALLOC spills a (no COPY_IN: contest OUT = IN = 350).
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
     {"Id":1,"Op":"W","Pipe":"VECTOR","Cycles":10,"Bufs":[0]},
     {"Id":2,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
     {"Id":3,"Op":"W","Pipe":"VECTOR","Cycles":10,"Bufs":[1]},
     {"Id":4,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
     {"Id":5,"Op":"R","Pipe":"VECTOR","Cycles":10,"Bufs":[0]},
     {"Id":6,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"}],
     "Edges":[[0,1],[1,5],[5,6],[2,3],[3,4]],
     "Capacities":{"L1":100}})");
    RunOptions inIdOrder;  // the reuse order would avoid the spill this test times
    inIdOrder.orderSource = "schedule";
    Result r = test::planVerified(doc, inIdOrder);
    REQUIRE(r.plan.spills.size() == 1);
    auto t = byId(r.timing);
    // OUT (7) after W (ends 10): 10..360. ALLOC b waits for a to leave: 360. W on b: 360..370.
    // FREE b 370; IN (8) after OUT and over b's bytes: 370..720; R: 720..730.
    CHECK(t[7] == std::make_pair(Cycles{10}, Cycles{360}));
    CHECK(t[2].first == 360);
    CHECK(t[3] == std::make_pair(Cycles{360}, Cycles{370}));
    CHECK(t[8] == std::make_pair(Cycles{370}, Cycles{720}));
    CHECK(t[5] == std::make_pair(Cycles{720}, Cycles{730}));
    CHECK(r.timing.total == 730);
}
