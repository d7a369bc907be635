#include "spillway/examples.h"
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

namespace {
using test::kWorkedExample;

struct Expected {
    Cycles start, end;
    WaitCause cause;
    NodeId node;
    BufferId buffer;
    Cycles cycles;
};
}  // namespace

TEST_CASE("timing: every node's wait names the rule, the node and the buffer that set its start") {
    Result r = test::planVerified(parseGraphDocument(kWorkedExample));
    const Expected want[] = {
        {0, 0, WaitCause::None, -1, -1, 0},          // ALLOC b0
        {0, 10, WaitCause::None, -1, -1, 0},         // COPY_IN b0: its ALLOC ended at 0
        {0, 0, WaitCause::None, -1, -1, 0},          // ALLOC b1
        {10, 30, WaitCause::Pipe, 1, -1, 10},        // COPY_IN b1: MTE2 busy with node 1
        {30, 35, WaitCause::Edge, 3, -1, 30},        // ADD: its later input, node 3
        {35, 35, WaitCause::Edge, 4, -1, 35},        // FREE b0 after the ADD
        {35, 35, WaitCause::Address, 5, 0, 35},      // ALLOC b2 on b0's bytes, left by FREE 5
        {35, 45, WaitCause::Edge, 6, -1, 5},         // COPY_IN b2: MTE2 was free at 30, 5 cycles earlier
        {35, 35, WaitCause::Edge, 4, -1, 35},        // FREE b1
        {45, 45, WaitCause::Edge, 7, -1, 45},        // FREE b2
    };
    REQUIRE(r.timing.nodes.size() == std::size(want));
    for (size_t i = 0; i < std::size(want); ++i) {
        CAPTURE(i);
        const NodeTiming& t = r.timing.nodes[i];
        CHECK(t.id == static_cast<NodeId>(i));
        CHECK(t.start == want[i].start);
        CHECK(t.end == want[i].end);
        CHECK(t.wait.cause == want[i].cause);
        CHECK(t.wait.node == want[i].node);
        CHECK(t.wait.buffer == want[i].buffer);
        CHECK(t.wait.cycles == want[i].cycles);
    }
    CHECK(r.timing.nodes[3].pipe == "MTE2");
    CHECK(r.timing.nodes[0].pipe.empty());
}

TEST_CASE("timing: an address wait names the user that left the bytes last, ties go to the earliest rule") {
    // No edge from the VECTOR op to the FREE: the FREE ends at 10, the op at 17, so b1 (on b0's
    // bytes) waits for the op. The op's two inputs end together: the edge earliest in the order.
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
     {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
     {"Id":2,"Op":"COPY_IN","Pipe":"MTE3","Cycles":10,"Bufs":[0]},
     {"Id":3,"Op":"EXP","Pipe":"VECTOR","Cycles":7,"Bufs":[0]},
     {"Id":4,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
     {"Id":5,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
     {"Id":6,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"}],
     "Edges":[[0,1],[0,2],[2,3],[1,3],[1,4],[5,6]],
     "Order":[0,1,2,3,4,5,6],
     "Capacities":{"L1":100}})");
    Result r = test::planVerified(doc);
    const NodeTiming& exp = r.timing.nodes[3];
    CHECK(exp.wait.cause == WaitCause::Edge);
    CHECK(exp.wait.node == 1);  // nodes 1 and 2 both end at 10: node 1 comes first
    CHECK(exp.wait.cycles == 10);
    const NodeTiming& alloc = r.timing.nodes[5];
    CHECK(alloc.start == 17);
    CHECK(alloc.wait.cause == WaitCause::Address);
    CHECK(alloc.wait.node == 3);
    CHECK(alloc.wait.buffer == 0);
    CHECK(alloc.wait.cycles == 17);
}

TEST_CASE("id tables: flat for dense ids, hashed for sparse ones, the same answers") {
    const std::vector<std::int64_t> dense = {5, 3, 4, 3, 9};
    const std::vector<std::int64_t> sparse = {5, 3, 2'000'000'000, 3, -7};
    for (const auto* ids : {&dense, &sparse}) {
        const IdTable t = IdTable::positions(*ids);
        CHECK(t.find(5) == 0);
        CHECK(t.find(3) == 1);  // the first position of a repeated id
        CHECK(t.find((*ids)[2]) == 2);
        CHECK(t.find((*ids)[4]) == 4);
        for (std::int64_t absent : {std::int64_t{6}, std::int64_t{2}, std::int64_t{10}, std::int64_t{-1'000'000'000}})
            CHECK(!t.contains(absent));
    }
    IdTable empty = IdTable::positions(std::vector<std::int64_t>{});
    CHECK(empty.find(0) == IdTable::kAbsent);
}

TEST_CASE("id tables: renumbered in place, flat or hashed, absent ids stay absent") {
    const std::vector<std::int64_t> dense = {5, 3, 4, 9};
    const std::vector<std::int64_t> sparse = {5, 3, 2'000'000'000, -7};
    const std::vector<int> to = {2, 0, 3, 1};
    for (const auto* ids : {&dense, &sparse}) {
        IdTable t = IdTable::positions(*ids);
        t.renumber(to);
        for (size_t i = 0; i < ids->size(); ++i) CHECK(t.find((*ids)[i]) == to[i]);
        CHECK(!t.contains(6));
        CHECK(t.size() == 4);
    }
}

TEST_CASE("plan nodes: each node's facts by index, in plan order, as its record and its buffer say") {
    GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    const Result r = test::planVerified(doc);
    REQUIRE(!r.plan.spills.empty());  // spill nodes among them
    for (auto numbering : {PlanNodes::Numbering::GraphThenAdded, PlanNodes::Numbering::InPlanOrder}) {
        const PlanNodes nodes(doc.graph, r.plan, numbering);
        REQUIRE(nodes.size() == static_cast<int>(r.plan.order.size()));
        for (size_t step = 0; step < r.plan.order.size(); ++step) {
            const int i = nodes.indexOf(r.plan.order[step]);
            if (numbering == PlanNodes::Numbering::InPlanOrder) CHECK(i == static_cast<int>(step));
            const Node& n = nodes.node(i);
            CHECK(nodes.id(i) == n.id);
            CHECK(nodes.cycles(i) == n.cycles);
            CHECK(nodes.pipeName(nodes.pipe(i)) == n.pipe);
            CHECK(nodes.places(i) == (n.isAlloc() || n.isSpillIn()));
            CHECK(nodes.releases(i) == (n.isFree() || n.isSpillOut()));
            CHECK(nodes.isSpill(i) == (n.isSpillIn() || n.isSpillOut()));
            if (nodes.moved(i) < 0) continue;
            const Buffer& b = doc.graph.buffers[nodes.moved(i)];
            CHECK(nodes.bufferId(nodes.moved(i)) == (n.isBufferNode() ? n.buf : n.bufs.front()));
            CHECK(nodes.bufferId(nodes.moved(i)) == b.id);
            CHECK(nodes.bufferSize(nodes.moved(i)) == b.size);
        }
    }
}

TEST_CASE("plan nodes: predecessors (graph edges, then added edges, in their order) and uses in both numberings") {
    GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    const Result r = test::planVerified(doc);
    REQUIRE(!r.plan.addedEdges.empty());
    for (auto numbering : {PlanNodes::Numbering::GraphThenAdded, PlanNodes::Numbering::InPlanOrder}) {
        const PlanNodes nodes(doc.graph, r.plan, numbering);
        std::vector<std::vector<int>> want(static_cast<size_t>(nodes.size()));
        for (auto [s, d] : doc.graph.edges)
            want[nodes.indexOf(doc.graph.nodes[d].id)].push_back(nodes.indexOf(doc.graph.nodes[s].id));
        for (auto [s, d] : r.plan.addedEdges) want[nodes.indexOf(d)].push_back(nodes.indexOf(s));
        for (int i = 0; i < nodes.size(); ++i) {
            CHECK(std::vector<int>(nodes.preds(i).begin(), nodes.preds(i).end()) == want[i]);
            const Node& n = nodes.node(i);
            std::vector<int> uses;  // an operation's Bufs as buffer indices, without repeats
            if (nodes.moved(i) < 0)
                for (BufferId b : n.bufs)
                    if (std::find(uses.begin(), uses.end(), nodes.bufferIndexOf(b)) == uses.end()) uses.push_back(nodes.bufferIndexOf(b));
            CHECK(std::vector<int>(nodes.uses(i).begin(), nodes.uses(i).end()) == uses);
        }
    }
}

TEST_CASE("plan nodes: pipes numbered as they first appear in the numbering; a buffer listed twice is one use") {
    // Stored VECTOR first, run MTE2 first (the edges allow one order: 0, 2, 1, 3).
    GraphDocument doc = parseGraphDocument(R"({"Nodes":[
     {"Id":0,"Op":"ALLOC","BufId":0,"Size":10,"Type":"L1"},
     {"Id":1,"Op":"EXP","Pipe":"VECTOR","Cycles":7,"Bufs":[0,0]},
     {"Id":2,"Op":"COPY_IN","Pipe":"MTE2","Cycles":100,"Bufs":[0]},
     {"Id":3,"Op":"FREE","BufId":0,"Size":10,"Type":"L1"}],
     "Edges":[[0,2],[2,1],[1,3]]})");
    const Result r = test::planVerified(doc);
    REQUIRE(r.plan.order == std::vector<NodeId>{0, 2, 1, 3});
    const PlanNodes stored(doc.graph, r.plan), run(doc.graph, r.plan, PlanNodes::Numbering::InPlanOrder);
    REQUIRE(stored.pipes() == 3);
    REQUIRE(run.pipes() == 3);
    CHECK(stored.pipeName(1) == "VECTOR");
    CHECK(stored.pipeName(2) == "MTE2");
    CHECK(run.pipeName(1) == "MTE2");
    CHECK(run.pipeName(2) == "VECTOR");
    for (const PlanNodes* nodes : {&stored, &run}) {
        CHECK(nodes->pipeName(nodes->pipe(nodes->indexOf(1))) == "VECTOR");
        CHECK(nodes->pipe(nodes->indexOf(0)) == 0);
        CHECK(nodes->uses(nodes->indexOf(1)).size() == 1);
        CHECK(nodes->preds(nodes->indexOf(1)).size() == 1);
        CHECK(nodes->preds(nodes->indexOf(1)).front() == nodes->indexOf(2));
    }
    CHECK(r.timing.total == 107);
}

TEST_CASE("byte leaves: merged ranges answer as the unmerged ones, with fewer boundaries") {
    using Left = ByteLeaves::Left;
    auto ranges = [](const ByteLeaves& l) {
        std::vector<std::pair<Bytes, Bytes>> out;
        l.forEachIn(0, 1000, [&](Bytes from, Bytes to, const Left&) { out.emplace_back(from, to); });
        return out;
    };
    SUBCASE("one buffer's bytes, left at once, are one range when merged") {
        ByteLeaves plain, merged(true);
        for (ByteLeaves* l : {&plain, &merged}) {
            l->leave(0, 10, {5, 1, 7, 3});
            l->leave(20, 30, {6, 2, 8, 4});
            l->leave(10, 20, {9, 3, 9, 5});  // placed over the hole, then over both: raised alike
            l->leave(0, 30, {12, 4, 10, 6});
        }
        CHECK(ranges(plain) == std::vector<std::pair<Bytes, Bytes>>{{0, 10}, {10, 20}, {20, 30}});
        CHECK(ranges(merged) == std::vector<std::pair<Bytes, Bytes>>{{0, 30}});
        CHECK(merged.latest(5, 25).time == 12);
        CHECK(merged.latest(5, 25).node == 6);
        merged.leave(10, 15, {20, 5, 11, 7});  // splits the merged range again
        CHECK(ranges(merged) == std::vector<std::pair<Bytes, Bytes>>{{0, 10}, {10, 15}, {15, 30}});
        CHECK(merged.latest(0, 10).time == 12);
        CHECK(merged.latest(12, 13).buffer == 11);
    }
    SUBCASE("random leaves: every query the same") {
        ByteLeaves plain, merged(true);
        std::uint64_t s = 12345;
        auto below = [&](std::uint64_t n) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<Bytes>((s >> 33) % n);
        };
        for (int step = 0; step < 2000; ++step) {
            const Bytes start = below(900), end = start + 1 + below(100);
            const Left left{below(400), step, static_cast<BufferId>(below(50)), static_cast<NodeId>(step)};
            plain.leave(start, end, left);
            merged.leave(start, end, left);
            const Bytes from = below(990), to = from + 1 + below(10);
            const Left a = plain.latest(from, to), b = merged.latest(from, to);
            REQUIRE(a == b);
        }
        CHECK(ranges(merged).size() < ranges(plain).size());
    }
}
