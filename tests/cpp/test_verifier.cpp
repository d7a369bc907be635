// Tests of the independent verifier: hand-written plans that must verify clean, and planted
// faults that must be caught with the right kind and a message naming the place.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <unordered_map>

#include "spillway/examples.h"
#include "spillway/graph.h"
#include "spillway/json_io.h"
#include "spillway/plan.h"
#include "spillway/verifier.h"
#include "support.h"

using namespace spillway;

namespace {

Node allocNode(NodeId id, BufferId buf, Bytes size, const std::string& type = "L1") {
    Node n;
    n.id = id;
    n.op = kAlloc;
    n.buf = buf;
    n.size = size;
    n.type = type;
    return n;
}

Node freeNode(NodeId id, BufferId buf, Bytes size, const std::string& type = "L1") {
    Node n = allocNode(id, buf, size, type);
    n.op = kFree;
    return n;
}

Node opNode(NodeId id, std::vector<BufferId> bufs, const std::string& op = "VEC",
            const std::string& pipe = "VECTOR") {
    Node n;
    n.id = id;
    n.op = op;
    n.pipe = pipe;
    n.cycles = 10;
    n.bufs = std::move(bufs);
    return n;
}

Node spillNode(NodeId id, bool out, BufferId buf) {
    Node n;
    n.id = id;
    n.op = out ? kSpillOut : kSpillIn;
    n.pipe = out ? kSpillOutPipe : kSpillInPipe;
    n.cycles = 270;
    n.bufs = {buf};
    return n;
}

// Nodes must be listed with ids 0..N-1 in order, so that edges by id are edges by index.
Graph makeGraph(std::vector<Node> nodes, std::vector<std::pair<int, int>> edges) {
    Graph g;
    g.nodes = std::move(nodes);
    g.edges = std::move(edges);
    bool idsAreIndices = true;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        idsAreIndices = idsAreIndices && g.nodes[i].id == static_cast<int>(i);
    REQUIRE(idsAreIndices);
    finalizeGraph(g);
    return g;
}

Allocation alloc(BufferId buf, Bytes offset, Bytes size, const std::string& type = "L1") {
    return Allocation{buf, type, offset, size};
}

Spill spill(BufferId buf, Bytes size, Bytes oldOffset, Bytes newOffset, NodeId out, NodeId in,
            int outStep, int inStep, const std::string& type = "L1") {
    Spill s;
    s.buf = buf;
    s.type = type;
    s.size = size;
    s.oldOffset = oldOffset;
    s.newOffset = newOffset;
    s.outNode = out;
    s.inNode = in;
    s.outStep = outStep;
    s.inStep = inStep;
    return s;
}

Capacities caps100() { return {{"L1", 100}}; }

std::string dump(const std::vector<Violation>& vs) {
    std::ostringstream os;
    for (const Violation& v : vs) os << "  [" << violationKindName(v.kind) << "] " << v.message << "\n";
    return os.str();
}

// True when some violation has this kind and its message contains every needle.
bool has(const std::vector<Violation>& vs, const std::string& kind,
         std::initializer_list<std::string> needles) {
    return std::any_of(vs.begin(), vs.end(), [&](const Violation& v) {
        if (violationKindName(v.kind) != kind) return false;
        for (const std::string& n : needles)
            if (v.message.find(n) == std::string::npos) return false;
        return true;
    });
}

bool onlyKind(const std::vector<Violation>& vs, const std::string& kind) {
    return !vs.empty() && std::all_of(vs.begin(), vs.end(),
                                      [&](const Violation& v) { return violationKindName(v.kind) == kind; });
}

#define EXPECT_CLEAN(vs)                    \
    do {                                    \
        INFO("violations:\n" << dump(vs));  \
        CHECK((vs).empty());                \
    } while (0)

#define EXPECT_HAS(vs, kind, ...)                          \
    do {                                                   \
        INFO("violations:\n" << dump(vs));                 \
        CHECK(has((vs), (kind), {__VA_ARGS__}));           \
    } while (0)

// Graph A: two buffers used together, no spill needed in L1 = 100.
//   0 ALLOC b0(40)  1 ALLOC b1(40)  2 VEC[b0,b1]  3 FREE b0  4 FREE b1
struct FixtureA {
    Graph g = makeGraph({allocNode(0, 0, 40), allocNode(1, 1, 40), opNode(2, {0, 1}),
                         freeNode(3, 0, 40), freeNode(4, 1, 40)},
                        {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {2, 4}});
    Plan plan() const {
        Plan p;
        p.allocations = {alloc(0, 0, 40), alloc(1, 40, 40)};
        p.order = {0, 1, 2, 3, 4};
        return p;
    }
};

// Graph B: b0 (60) is written, then b1 (60) lives and dies, then b0 is read: with L1 = 100 b0
// is spilled around b1's lifetime and reloaded at another offset.
//   0 ALLOC b0  1 W[b0]  2 ALLOC b1  3 U[b1]  4 FREE b1  5 R[b0]  6 FREE b0
// Plan order: 0 1 7(OUT) 2 3 4 8(IN) 5 6
struct FixtureB {
    Graph g = makeGraph({allocNode(0, 0, 60), opNode(1, {0}), allocNode(2, 1, 60), opNode(3, {1}),
                         freeNode(4, 1, 60), opNode(5, {0}), freeNode(6, 0, 60)},
                        {{0, 1}, {1, 5}, {5, 6}, {2, 3}, {3, 4}});
    Plan plan() const {
        Plan p;
        p.allocations = {alloc(0, 0, 60), alloc(1, 0, 60)};
        p.spills = {spill(0, 60, 0, 40, 7, 8, 2, 6)};
        p.order = {0, 1, 7, 2, 3, 4, 8, 5, 6};
        p.addedNodes = {spillNode(7, true, 0), spillNode(8, false, 0)};
        p.addedEdges = {{0, 7}, {1, 7}, {7, 8}, {8, 5}, {8, 6}};
        return p;
    }
};

// Graph C: b0's last user runs before b1 needs the room; the contest still wants a SPILL_IN
// before b0's FREE.
//   0 ALLOC b0  1 W[b0]  2 ALLOC b1  3 U[b1]  4 FREE b1  5 FREE b0
// Plan order: 0 1 6(OUT) 2 3 4 7(IN) 5
struct FixtureC {
    Graph g = makeGraph({allocNode(0, 0, 60), opNode(1, {0}), allocNode(2, 1, 60), opNode(3, {1}),
                         freeNode(4, 1, 60), freeNode(5, 0, 60)},
                        {{0, 1}, {1, 5}, {2, 3}, {3, 4}});
    Plan plan() const {
        Plan p;
        p.allocations = {alloc(0, 0, 60), alloc(1, 0, 60)};
        p.spills = {spill(0, 60, 0, 0, 6, 7, 2, 6)};
        p.order = {0, 1, 6, 2, 3, 4, 7, 5};
        p.addedNodes = {spillNode(6, true, 0), spillNode(7, false, 0)};
        p.addedEdges = {{0, 6}, {1, 6}, {6, 7}, {7, 5}};
        return p;
    }
};

// Graph D: b0 is spilled twice (around b1, then around b2), with a read in between.
//   0 ALLOC b0  1 W[b0]  2 ALLOC b1  3 U[b1]  4 FREE b1  5 R[b0]  6 ALLOC b2  7 U[b2]
//   8 FREE b2  9 R[b0]  10 FREE b0
// Plan order: 0 1 11 2 3 4 12 5 13 6 7 8 14 9 10
struct FixtureD {
    Graph g = makeGraph({allocNode(0, 0, 60), opNode(1, {0}), allocNode(2, 1, 60), opNode(3, {1}),
                         freeNode(4, 1, 60), opNode(5, {0}), allocNode(6, 2, 60), opNode(7, {2}),
                         freeNode(8, 2, 60), opNode(9, {0}), freeNode(10, 0, 60)},
                        {{0, 1}, {1, 5}, {5, 9}, {9, 10}, {2, 3}, {3, 4}, {6, 7}, {7, 8}});
    Plan plan() const {
        Plan p;
        p.allocations = {alloc(0, 0, 60), alloc(1, 0, 60), alloc(2, 0, 60)};
        p.spills = {spill(0, 60, 0, 40, 11, 12, 2, 6), spill(0, 60, 40, 0, 13, 14, 8, 12)};
        p.order = {0, 1, 11, 2, 3, 4, 12, 5, 13, 6, 7, 8, 14, 9, 10};
        p.addedNodes = {spillNode(11, true, 0), spillNode(12, false, 0), spillNode(13, true, 0),
                        spillNode(14, false, 0)};
        // The rule's set (verifier.cpp): users since the last reload -> SPILL_OUT, SPILL_IN -> users
        // until the next SPILL_OUT; so not 1 -> 13 (1 ran before the reload 12) nor 12 -> 9.
        p.addedEdges = {{0, 11}, {0, 13}, {1, 11}, {5, 13}, {11, 12}, {12, 5},
                        {12, 10}, {12, 13}, {13, 14}, {14, 9}, {14, 10}};
        return p;
    }
};

}  // namespace

TEST_SUITE("verifier") {

TEST_CASE("clean plans verify without violations") {
    SUBCASE("no spill") {
        FixtureA a;
        EXPECT_CLEAN(verifyPlan(a.g, caps100(), a.plan()));
    }
    SUBCASE("one spill, reloaded at another offset") {
        FixtureB b;
        EXPECT_CLEAN(verifyPlan(b.g, caps100(), b.plan()));
    }
    SUBCASE("spill whose only later use is the FREE") {
        FixtureC c;
        EXPECT_CLEAN(verifyPlan(c.g, caps100(), c.plan()));
    }
    SUBCASE("one buffer spilled twice") {
        FixtureD d;
        EXPECT_CLEAN(verifyPlan(d.g, caps100(), d.plan()));
    }
    SUBCASE("buffers touching end to end and at the very top of the memory") {
        FixtureA a;
        Plan p = a.plan();
        p.allocations = {alloc(0, 60, 40), alloc(1, 20, 40)};
        EXPECT_CLEAN(verifyPlan(a.g, caps100(), p));
    }
}

TEST_CASE("overlap of two resident buffers") {
    FixtureA a;
    Plan p = a.plan();
    p.allocations[1].offset = 20;  // [20, 60) over b0's [0, 40)
    auto vs = verifyPlan(a.g, caps100(), p);
    CHECK(onlyKind(vs, "overlap"));
    EXPECT_HAS(vs, "overlap", "step 1", "node 1", "buffer 1", "[20, 60)", "buffer 0", "[0, 40)");
}

TEST_CASE("overlap at a SPILL_IN's new offset") {
    FixtureB b;
    Plan p = b.plan();
    // Reload b0 before b1 is freed: order 0 1 7 2 3 8 4 5 6, b0 back at [40, 100) over b1 [0, 60).
    p.order = {0, 1, 7, 2, 3, 8, 4, 5, 6};
    p.spills[0].inStep = 5;
    auto vs = verifyPlan(b.g, caps100(), p);
    CHECK(onlyKind(vs, "overlap"));
    EXPECT_HAS(vs, "overlap", "step 5", "node 8", "SPILL_IN", "buffer 0", "[40, 100)", "buffer 1",
               "[0, 60)");
}

TEST_CASE("placement out of bounds") {
    FixtureA a;
    SUBCASE("past the capacity") {
        Plan p = a.plan();
        p.allocations[1].offset = 70;  // [70, 110) in a 100-byte memory
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "bounds"));
        EXPECT_HAS(vs, "bounds", "buffer 1", "[70, 110)", "[0, 100)");
    }
    SUBCASE("negative offset") {
        Plan p = a.plan();
        p.allocations[0].offset = -8;
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "bounds"));
        EXPECT_HAS(vs, "bounds", "buffer 0", "[-8, 32)");
    }
    SUBCASE("a SPILL_IN's new offset past the capacity") {
        FixtureB b;
        Plan p = b.plan();
        p.spills[0].newOffset = 50;
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "bounds"));
        EXPECT_HAS(vs, "bounds", "node 8", "buffer 0", "[50, 110)");
    }
    SUBCASE("an offset so large that offset + size would overflow") {
        Plan p = a.plan();
        p.allocations[1].offset = std::numeric_limits<Bytes>::max() - 10;
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "bounds"));
        EXPECT_HAS(vs, "bounds", "buffer 1", std::to_string(std::numeric_limits<Bytes>::max()));
    }
    SUBCASE("a memory without a capacity") {
        auto vs = verifyPlan(a.g, Capacities{{"UB", 1024}}, a.plan());
        CHECK(onlyKind(vs, "bounds"));
        EXPECT_HAS(vs, "bounds", "buffer 0", "L1", "no capacity");
        EXPECT_HAS(vs, "bounds", "buffer 1", "L1", "no capacity");
    }
}

TEST_CASE("use while spilled: SPILL_IN missing before a use") {
    FixtureB b;
    Plan p = b.plan();
    // The reload moved after the read: 0 1 7 2 3 4 5 8 6 (edges adjusted so that only the
    // residency rule is broken).
    p.order = {0, 1, 7, 2, 3, 4, 5, 8, 6};
    p.spills[0].inStep = 7;
    p.addedEdges = {{0, 7}, {1, 7}, {7, 8}, {8, 6}};
    auto vs = verifyPlan(b.g, caps100(), p);
    INFO(dump(vs));
    CHECK(vs.size() == 1);
    EXPECT_HAS(vs, "residency", "step 6", "node 5", "buffer 0", "spilled");
}

TEST_CASE("a node listing a spilled buffer twice is reported once") {
    Graph g = makeGraph({allocNode(0, 0, 60), opNode(1, {0}), allocNode(2, 1, 60), opNode(3, {1}),
                         freeNode(4, 1, 60), opNode(5, {0, 0}), freeNode(6, 0, 60)},
                        {{0, 1}, {1, 5}, {5, 6}, {2, 3}, {3, 4}});
    FixtureB b;
    Plan p = b.plan();
    p.order = {0, 1, 7, 2, 3, 4, 5, 8, 6};
    p.spills[0].inStep = 7;
    p.addedEdges = {{0, 7}, {1, 7}, {7, 8}, {8, 6}};
    auto vs = verifyPlan(g, caps100(), p);
    INFO(dump(vs));
    CHECK(vs.size() == 1);
    EXPECT_HAS(vs, "residency", "node 5", "buffer 0", "spilled");
}

TEST_CASE("use before ALLOC") {
    FixtureA a;
    Graph g = makeGraph({allocNode(0, 0, 40), allocNode(1, 1, 40), opNode(2, {0, 1}),
                         freeNode(3, 0, 40), freeNode(4, 1, 40)},
                        {{0, 2}, {1, 2}, {2, 3}, {2, 4}});
    Plan p = a.plan();
    p.order = {1, 2, 0, 3, 4};
    auto vs = verifyPlan(g, caps100(), p);
    EXPECT_HAS(vs, "residency", "step 1", "node 2", "buffer 0", "not yet allocated");
    EXPECT_HAS(vs, "order", "0 -> 2", "step 2", "step 1");  // the graph edge it breaks
}

TEST_CASE("order breaks an edge") {
    SUBCASE("a graph edge") {
        FixtureA a;
        Plan p = a.plan();
        p.order = {1, 0, 2, 3, 4};  // graph edge 0 -> 1
        auto vs = verifyPlan(a.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 1);
        EXPECT_HAS(vs, "order", "edge 0 -> 1", "0 at step 1", "1 at step 0");
    }
    SUBCASE("an added edge") {
        FixtureB b;
        Plan p = b.plan();
        // An extra edge 4 -> 7 (not the rule's) that the order also breaks (7 at step 2, 4 at step 5).
        p.addedEdges.insert(p.addedEdges.begin() + 2, {4, 7});
        auto vs = verifyPlan(b.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 2);
        EXPECT_HAS(vs, "order", "edge 4 -> 7", "4 at step 5", "7 at step 2");
        EXPECT_HAS(vs, "edges", "added edge 4 -> 7", "not an edge of the rule");
    }
}

TEST_CASE("missing required edges") {
    FixtureB b;
    auto without = [&](std::pair<NodeId, NodeId> e) {
        Plan p = b.plan();
        p.addedEdges.erase(std::find(p.addedEdges.begin(), p.addedEdges.end(), e));
        return verifyPlan(b.g, caps100(), p);
    };
    SUBCASE("ALLOC -> SPILL_OUT") {
        auto vs = without({0, 7});
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "spill 0", "buffer 0", "0 -> 7", "ALLOC");
    }
    SUBCASE("earlier user -> SPILL_OUT") {
        auto vs = without({1, 7});
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "spill 0", "buffer 0", "1 -> 7", "user");
    }
    SUBCASE("SPILL_OUT -> SPILL_IN") {
        auto vs = without({7, 8});
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "7 -> 8");
    }
    SUBCASE("SPILL_IN -> later user") {
        auto vs = without({8, 5});
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "8 -> 5", "user");
    }
    SUBCASE("SPILL_IN -> FREE") {
        auto vs = without({8, 6});
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "8 -> 6", "FREE");
    }
    SUBCASE("an edge beyond the rule: a user before the last reload -> the next SPILL_OUT") {
        FixtureD d;
        Plan p = d.plan();
        p.addedEdges.insert(std::lower_bound(p.addedEdges.begin(), p.addedEdges.end(), std::pair<NodeId, NodeId>{1, 13}),
                            {1, 13});
        auto vs = verifyPlan(d.g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "added edge 1 -> 13", "not an edge of the rule");
    }
    SUBCASE("previous SPILL_IN -> next SPILL_OUT of the same buffer") {
        FixtureD d;
        Plan p = d.plan();
        p.addedEdges.erase(std::find(p.addedEdges.begin(), p.addedEdges.end(),
                                     std::pair<NodeId, NodeId>{12, 13}));
        auto vs = verifyPlan(d.g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "spill 1", "12 -> 13", "previous SPILL_IN");
    }
}

TEST_CASE("the edge rule reads each buffer's spills in the order of their SPILL_OUTs") {
    SUBCASE("spills numbered out of that order: the same rule, the spill named by its index") {
        FixtureD d;
        Plan p = d.plan();
        std::swap(p.spills[0], p.spills[1]);  // spill 0 is now the second one (13 -> 14)
        auto clean = verifyPlan(d.g, caps100(), p);
        INFO("violations:\n" << dump(clean));
        CHECK(!has(clean, "edges", {}));
        EXPECT_HAS(clean, "spill-ids", "spill 0", "expected 11 / 12");
        p.addedEdges.erase(std::find(p.addedEdges.begin(), p.addedEdges.end(), std::pair<NodeId, NodeId>{12, 13}));
        auto vs = verifyPlan(d.g, caps100(), p);
        EXPECT_HAS(vs, "edges", "spill 0 (buffer 0)", "12 -> 13", "previous SPILL_IN");
        CHECK(!has(vs, "edges", {"spill 1 (buffer 0)", "12 -> 13"}));
    }
    SUBCASE("a spilled buffer without users: ALLOC -> SPILL_OUT -> SPILL_IN -> FREE only") {
        //   0 ALLOC b0  1 ALLOC b1  2 U[b1]  3 FREE b1  4 FREE b0; b0 spilled around b1's life.
        Graph g = makeGraph({allocNode(0, 0, 60), allocNode(1, 1, 60), opNode(2, {1}), freeNode(3, 1, 60),
                             freeNode(4, 0, 60)},
                            {{0, 4}, {1, 2}, {2, 3}});
        Plan p;
        p.allocations = {alloc(0, 0, 60), alloc(1, 0, 60)};
        p.spills = {spill(0, 60, 0, 40, 5, 6, 1, 5)};
        p.order = {0, 5, 1, 2, 3, 6, 4};
        p.addedNodes = {spillNode(5, true, 0), spillNode(6, false, 0)};
        p.addedEdges = {{0, 5}, {5, 6}, {6, 4}};
        EXPECT_CLEAN(verifyPlan(g, caps100(), p));
        p.addedEdges.pop_back();
        auto vs = verifyPlan(g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "spill 0 (buffer 0)", "6 -> 4", "SPILL_IN -> FREE");
    }
    SUBCASE("a repeated spill entry: an edge the rule lists twice is named for the first spill") {
        FixtureB b;
        Plan p = b.plan();
        p.spills.push_back(p.spills[0]);
        p.addedEdges.erase(std::find(p.addedEdges.begin(), p.addedEdges.end(), std::pair<NodeId, NodeId>{7, 8}));
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-ids", "spill 1", "already used by spill 0");
        EXPECT_HAS(vs, "edges", "spill 0 (buffer 0)", "7 -> 8", "SPILL_OUT -> SPILL_IN");
        CHECK(!has(vs, "edges", {"spill 1 (buffer 0)", "7 -> 8"}));
        // The copy's own edge: its previous SPILL_IN is the first entry's, the same node 8.
        EXPECT_HAS(vs, "edges", "spill 1 (buffer 0)", "8 -> 7", "previous SPILL_IN");
    }
}

TEST_CASE("malformed added edges") {
    FixtureB b;
    SUBCASE("an edge between two graph nodes") {
        Plan p = b.plan();
        p.addedEdges.insert(p.addedEdges.begin() + 1, {0, 5});
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "0 -> 5", "two graph nodes");
    }
    SUBCASE("an edge to an unknown node") {
        Plan p = b.plan();
        p.addedEdges.push_back({8, 99});
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "8 -> 99", "unknown node 99");
    }
    SUBCASE("unsorted or duplicated") {
        Plan p = b.plan();
        p.addedEdges.push_back({0, 7});
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "edges"));
        EXPECT_HAS(vs, "edges", "not sorted", "0 -> 7");
    }
}

TEST_CASE("wrong spill node ids") {
    FixtureB b;
    SUBCASE("ids shifted consistently everywhere") {
        Plan p = b.plan();
        p.spills[0].outNode = 9;
        p.spills[0].inNode = 10;
        p.order = {0, 1, 9, 2, 3, 4, 10, 5, 6};
        p.addedNodes = {spillNode(9, true, 0), spillNode(10, false, 0)};
        p.addedEdges = {{0, 9}, {1, 9}, {9, 10}, {10, 5}, {10, 6}};
        auto vs = verifyPlan(b.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 1);
        EXPECT_HAS(vs, "spill-ids", "spill 0", "SPILL_OUT 9", "SPILL_IN 10", "expected 7 / 8");
    }
    SUBCASE("OUT and IN swapped") {
        Plan p = b.plan();
        std::swap(p.spills[0].outNode, p.spills[0].inNode);
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-ids", "SPILL_OUT 8", "SPILL_IN 7", "expected 7 / 8");
    }
    SUBCASE("an added node with the wrong pipe") {
        Plan p = b.plan();
        p.addedNodes[0].pipe = "MTE2";
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "node 7", "MTE2", "expected SPILL_OUT/MTE3");
    }
    SUBCASE("an added node with the wrong Bufs") {
        Plan p = b.plan();
        p.addedNodes[1].bufs = {1};
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "node 8", "Bufs [1]", "expected [0]");
    }
    SUBCASE("outStep not the SPILL_OUT's position") {
        Plan p = b.plan();
        p.spills[0].outStep = 3;
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "outStep 3", "SPILL_OUT 7", "step 2");
    }
    SUBCASE("a spill node missing from addedNodes") {
        Plan p = b.plan();
        p.addedNodes.pop_back();
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-ids", "SPILL_IN node 8", "not in addedNodes");
        EXPECT_HAS(vs, "order", "step 6", "node 8");  // now unknown in the order
    }
}

TEST_CASE("spill fields disagree with the buffer or the replay") {
    FixtureB b;
    SUBCASE("wrong oldOffset") {
        Plan p = b.plan();
        p.spills[0].oldOffset = 10;
        auto vs = verifyPlan(b.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 1);
        EXPECT_HAS(vs, "spill-pair", "step 2", "node 7", "oldOffset 10", "buffer 0", "offset 0");
    }
    SUBCASE("wrong size") {
        Plan p = b.plan();
        p.spills[0].size = 64;
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-pair"));
        EXPECT_HAS(vs, "spill-pair", "spill 0", "buffer 0", "64");
    }
    SUBCASE("SPILL_IN before its SPILL_OUT") {
        Plan p = b.plan();
        p.order = {0, 1, 8, 2, 7, 3, 4, 5, 6};
        p.spills[0].outStep = 4;
        p.spills[0].inStep = 2;
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-pair", "SPILL_IN 8", "step 2", "SPILL_OUT 7", "step 4");
        EXPECT_HAS(vs, "spill-pair", "step 2", "node 8", "reloads buffer 0", "resident");
    }
}

TEST_CASE("node missing from the order, and a buffer never freed") {
    FixtureA a;
    Plan p = a.plan();
    p.order = {0, 1, 2, 3};  // FREE of b1 (node 4) dropped
    auto vs = verifyPlan(a.g, caps100(), p);
    EXPECT_HAS(vs, "order", "node 4", "FREE of buffer 1", "missing");
    EXPECT_HAS(vs, "residency", "buffer 1", "never freed", "resident");
    CHECK(vs.size() == 2);
}

TEST_CASE("duplicate and unknown nodes in the order") {
    FixtureA a;
    SUBCASE("duplicate") {
        Plan p = a.plan();
        p.order = {0, 1, 2, 2, 3, 4};
        auto vs = verifyPlan(a.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 1);
        EXPECT_HAS(vs, "order", "node 2", "twice", "step 2", "step 3");
    }
    SUBCASE("unknown") {
        Plan p = a.plan();
        p.order.push_back(42);
        auto vs = verifyPlan(a.g, caps100(), p);
        INFO(dump(vs));
        CHECK(vs.size() == 1);
        EXPECT_HAS(vs, "order", "step 5", "node 42");
    }
    SUBCASE("an added node missing from the order") {
        FixtureB b;
        Plan p = b.plan();
        p.order = {0, 1, 7, 2, 3, 4, 5, 6};  // SPILL_IN 8 dropped
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "order", "added node 8", "missing");
        EXPECT_HAS(vs, "residency", "node 5", "buffer 0", "spilled");
        EXPECT_HAS(vs, "residency", "node 6", "buffer 0", "spilled");
    }
}

TEST_CASE("FREE while spilled") {
    FixtureC c;
    Plan p = c.plan();
    // The SPILL_IN 7 moved after the FREE: 0 1 6 2 3 4 5 7 (the edge 7 -> 5 dropped).
    p.order = {0, 1, 6, 2, 3, 4, 5, 7};
    p.spills[0].inStep = 7;
    p.addedEdges = {{0, 6}, {1, 6}, {6, 7}};
    auto vs = verifyPlan(c.g, caps100(), p);
    EXPECT_HAS(vs, "residency", "step 6", "node 5", "FREE of buffer 0", "spilled", "SPILL_IN");
    EXPECT_HAS(vs, "edges", "7 -> 5");  // SPILL_IN -> FREE is required
    EXPECT_HAS(vs, "spill-pair", "node 7", "freed");  // the reload of a freed buffer
}

TEST_CASE("allocations") {
    FixtureA a;
    SUBCASE("missing") {
        Plan p = a.plan();
        p.allocations.pop_back();
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "allocation"));
        EXPECT_HAS(vs, "allocation", "buffer 1", "no allocation");
    }
    SUBCASE("duplicated") {
        Plan p = a.plan();
        p.allocations.push_back(alloc(1, 40, 40));
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "allocation"));
        EXPECT_HAS(vs, "allocation", "buffer 1", "more than one");
    }
    SUBCASE("not ascending") {
        Plan p = a.plan();
        std::swap(p.allocations[0], p.allocations[1]);
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "allocation"));
        EXPECT_HAS(vs, "allocation", "ascending", "buffer 1 before buffer 0");
    }
    SUBCASE("wrong size or type") {
        Plan p = a.plan();
        p.allocations[0].size = 8;
        p.allocations[1].type = "UB";
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "allocation"));
        EXPECT_HAS(vs, "allocation", "buffer 0", "8 bytes", "L1/40");
        EXPECT_HAS(vs, "allocation", "buffer 1", "UB");
    }
    SUBCASE("unknown buffer") {
        Plan p = a.plan();
        p.allocations.push_back(alloc(7, 0, 4));
        auto vs = verifyPlan(a.g, caps100(), p);
        CHECK(onlyKind(vs, "allocation"));
        EXPECT_HAS(vs, "allocation", "unknown buffer 7");
    }
}

TEST_CASE("the list is capped and counts what it leaves out") {
    // 150 buffers of 10 bytes, all live at once and all placed at offset 0: 149 overlaps.
    const int n = 150;
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    for (int b = 0; b < n; ++b) nodes.push_back(allocNode(b, b, 10));
    std::vector<BufferId> all;
    for (int b = 0; b < n; ++b) all.push_back(b);
    nodes.push_back(opNode(n, all));
    for (int b = 0; b < n; ++b) nodes.push_back(freeNode(n + 1 + b, b, 10));
    for (int b = 0; b < n; ++b) {
        edges.push_back({b, n});
        edges.push_back({n, n + 1 + b});
    }
    Graph g = makeGraph(std::move(nodes), std::move(edges));
    Plan p;
    for (int b = 0; b < n; ++b) p.allocations.push_back(alloc(b, 0, 10));
    for (int i = 0; i < 2 * n + 1; ++i) p.order.push_back(i);
    SUBCASE("one kind") {
        auto vs = verifyPlan(g, Capacities{{"L1", 10000}}, p);
        REQUIRE(vs.size() == 101);
        CHECK(vs.front().kind == ViolationKind::Overlap);
        CHECK(vs.back().message.find("... and 49 more") != std::string::npos);
        CHECK(vs.back().message.find("overlap 49") != std::string::npos);
    }
    SUBCASE("a flood of one kind does not hide another kind found later") {
        p.order.pop_back();  // the last FREE: "never freed" is found after all the overlaps
        auto vs = verifyPlan(g, Capacities{{"L1", 10000}}, p);
        INFO("violations:\n" << dump(vs));
        REQUIRE(vs.size() == 101);
        CHECK(vs.front().kind == ViolationKind::Order);  // found first, listed first
        EXPECT_HAS(vs, "residency", "buffer 149", "never freed");
        CHECK(vs.back().message.find("... and 51 more") != std::string::npos);
    }
}

TEST_CASE("a long chain of buffers at one offset: clean, and a fault at its far end found") {
    // 100k buffers (300k nodes), each allocated, used and freed in turn at the same offset: each
    // takes the bytes the one before left, so none overlaps another. (At this size a quadratic
    // check would not finish; the time is measured with `spillway scale`, not here.)
    const int n = 100000;
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    nodes.reserve(3 * n);
    for (int b = 0; b < n; ++b) {
        const int base = 3 * b;
        nodes.push_back(allocNode(base, b, 64));
        nodes.push_back(opNode(base + 1, {b}));
        nodes.push_back(freeNode(base + 2, b, 64));
        edges.push_back({base, base + 1});
        edges.push_back({base + 1, base + 2});
        if (b > 0) edges.push_back({base - 1, base});
    }
    Graph g = makeGraph(std::move(nodes), std::move(edges));
    Plan p;
    for (int b = 0; b < n; ++b) p.allocations.push_back(alloc(b, 0, 64));
    for (int i = 0; i < 3 * n; ++i) p.order.push_back(i);
    EXPECT_CLEAN(verifyPlan(g, caps100(), p));
    // The last buffer placed at 37: its 64 bytes end at 101, outside L1 = 100; nothing else wrong.
    p.allocations.back().offset = 37;
    const auto vs = verifyPlan(g, caps100(), p);
    CHECK(vs.size() == 1);
    EXPECT_HAS(vs, "bounds", "buffer 99999", "outside [0, 100)");
}

}  // TEST_SUITE

TEST_SUITE("verifier") {

TEST_CASE("more spill bookkeeping faults") {
    SUBCASE("spill of an unknown buffer") {
        FixtureB b;
        Plan p = b.plan();
        p.spills[0].buf = 9;
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-pair", "spill 0", "unknown buffer 9");
    }
    SUBCASE("inStep not the SPILL_IN's position") {
        FixtureB b;
        Plan p = b.plan();
        p.spills[0].inStep = 7;
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "inStep 7", "SPILL_IN 8", "step 6");
    }
    SUBCASE("addedNodes not ascending") {
        FixtureB b;
        Plan p = b.plan();
        std::swap(p.addedNodes[0], p.addedNodes[1]);
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "ascending", "8 before 7");
    }
    SUBCASE("an added node that belongs to no spill") {
        FixtureB b;
        Plan p = b.plan();
        p.addedNodes.push_back(spillNode(9, true, 0));
        p.order.push_back(9);
        auto vs = verifyPlan(b.g, caps100(), p);
        CHECK(onlyKind(vs, "spill-ids"));
        EXPECT_HAS(vs, "spill-ids", "added node 9", "no spill");
    }
    SUBCASE("a spill node id that is a graph node") {
        FixtureB b;
        Plan p = b.plan();
        p.spills[0].outNode = 3;
        auto vs = verifyPlan(b.g, caps100(), p);
        EXPECT_HAS(vs, "spill-ids", "spill 0", "node 3", "already a graph node");
    }
    SUBCASE("two spills sharing node ids") {
        FixtureD d;
        Plan p = d.plan();
        p.spills[1].outNode = 11;
        p.spills[1].inNode = 12;
        auto vs = verifyPlan(d.g, caps100(), p);
        EXPECT_HAS(vs, "spill-ids", "spill 1", "SPILL_OUT 11", "expected 13 / 14");
        EXPECT_HAS(vs, "spill-ids", "spill 1", "node 11", "already used by spill 0");
    }
    SUBCASE("SPILL_OUT of a buffer not yet allocated") {
        FixtureC c;
        Plan p = c.plan();
        p.order = {6, 0, 1, 2, 3, 4, 7, 5};
        p.spills[0].outStep = 0;
        auto vs = verifyPlan(c.g, caps100(), p);
        EXPECT_HAS(vs, "spill-pair", "step 0", "node 6", "writes out buffer 0",
                   "not yet allocated");
        EXPECT_HAS(vs, "order", "edge 0 -> 6");
    }
    SUBCASE("SPILL_IN reloading what another spill wrote out") {
        FixtureD d;
        Plan p = d.plan();
        // Spill 1's OUT (13) moved before spill 0's IN (12): 12 then reloads a buffer that
        // spill 1 wrote out, and spill 1's OUT writes out a buffer already spilled.
        p.order = {0, 1, 11, 2, 3, 4, 13, 12, 5, 6, 7, 8, 14, 9, 10};
        auto vs = verifyPlan(d.g, caps100(), p);
        EXPECT_HAS(vs, "spill-pair", "step 6", "node 13", "writes out buffer 0", "spilled");
        EXPECT_HAS(vs, "spill-pair", "step 7", "node 12", "written out by spill 1");
    }
}

}  // TEST_SUITE

// ---------------------------------------------------------------------------------------------
// Mutation tests: a real plan from the engine verifies clean; each planted fault is caught.

namespace {

// L1 holds 200 bytes: b0 and b1 (100 each) fill it, so b2 (150) forces both out; they come back
// for V3 and V4.
const char* kSpillingGraph = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":3,"Op":"V1","Pipe":"VECTOR","Cycles":5,"Bufs":[0,1]},
 {"Id":4,"Op":"ALLOC","BufId":2,"Size":150,"Type":"L1"},
 {"Id":5,"Op":"V2","Pipe":"VECTOR","Cycles":5,"Bufs":[2]},
 {"Id":6,"Op":"FREE","BufId":2,"Size":150,"Type":"L1"},
 {"Id":7,"Op":"V3","Pipe":"VECTOR","Cycles":5,"Bufs":[0]},
 {"Id":8,"Op":"V4","Pipe":"VECTOR","Cycles":5,"Bufs":[1]},
 {"Id":9,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":10,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,3],[2,3],[3,7],[7,9],[3,8],[8,10],[4,5],[5,6]],
 "Capacities":{"L1":200}})";

std::string str(NodeId a, NodeId b) { return std::to_string(a) + " -> " + std::to_string(b); }

// Plants each fault in a copy of `r.plan` and checks that the verifier names it.
void checkMutationsCaught(const GraphDocument& doc, const Result& r) {
    const Graph& g = doc.graph;
    const Capacities& caps = r.capacities;
    const Plan& good = r.plan;
    {
        auto vs = verifyPlan(g, caps, good);
        INFO("violations:\n" << dump(vs));
        REQUIRE(vs.empty());
    }
    std::unordered_map<NodeId, int> pos;
    for (std::size_t i = 0; i < good.order.size(); ++i) pos[good.order[i]] = static_cast<int>(i);

    SUBCASE("a placement shifted onto a co-resident buffer") {
        // Residency segments from the plan's own fields: [step placed, step it leaves), the
        // offset, and what placed it (the allocation or spill k's SPILL_IN).
        struct Segment {
            BufferId buf;
            std::string type;
            int start, end;
            Bytes offset;
            int spill;  // -1: the allocation
        };
        std::vector<Segment> segs;
        for (const Buffer& b : g.buffers) {
            const Allocation& al = *std::find_if(good.allocations.begin(), good.allocations.end(),
                                                 [&](const Allocation& x) { return x.buf == b.id; });
            Segment cur{b.id, b.type, pos.at(g.nodes[b.allocNode].id), 0, al.offset, -1};
            std::vector<int> ks;
            for (std::size_t k = 0; k < good.spills.size(); ++k)
                if (good.spills[k].buf == b.id) ks.push_back(static_cast<int>(k));
            std::sort(ks.begin(), ks.end(),
                      [&](int x, int y) { return good.spills[x].outStep < good.spills[y].outStep; });
            for (int k : ks) {
                cur.end = good.spills[k].outStep;
                segs.push_back(cur);
                cur = Segment{b.id, b.type, good.spills[k].inStep, 0, good.spills[k].newOffset, k};
            }
            cur.end = pos.at(g.nodes[b.freeNode].id);
            segs.push_back(cur);
        }
        std::sort(segs.begin(), segs.end(), [](const Segment& x, const Segment& y) {
            return std::tie(x.type, x.start) < std::tie(y.type, y.start);
        });
        const Segment* earlier = nullptr;
        const Segment* later = nullptr;
        const Segment* open = nullptr;  // the segment of this type reaching furthest so far
        for (const Segment& sg : segs) {
            if (open && open->type == sg.type && sg.start < open->end && open->buf != sg.buf) {
                earlier = open;
                later = &sg;
                break;
            }
            if (!open || open->type != sg.type || sg.end > open->end) open = &sg;
        }
        REQUIRE(later != nullptr);
        Plan p = good;
        if (later->spill < 0) {
            std::find_if(p.allocations.begin(), p.allocations.end(),
                         [&](const Allocation& x) { return x.buf == later->buf; })->offset = earlier->offset;
        } else {
            p.spills[later->spill].newOffset = earlier->offset;
        }
        auto vs = verifyPlan(g, caps, p);
        INFO("moved buffer " << later->buf << " onto buffer " << earlier->buf << " at step " << later->start);
        INFO("violations:\n" << dump(vs));
        CHECK(has(vs, "overlap", {"step " + std::to_string(later->start),
                                  "buffer " + std::to_string(later->buf),
                                  "resident buffer " + std::to_string(earlier->buf)}));
    }

    SUBCASE("a required edge of a spill dropped") {
        REQUIRE(!good.spills.empty());
        const Spill& s = good.spills.front();
        const NodeId allocId = g.nodes[g.buffer(s.buf).allocNode].id;
        const NodeId freeId = g.nodes[g.buffer(s.buf).freeNode].id;
        for (auto e : {std::pair<NodeId, NodeId>{allocId, s.outNode}, {s.outNode, s.inNode},
                       {s.inNode, freeId}}) {
            CAPTURE(str(e.first, e.second));
            Plan p = good;
            auto it = std::find(p.addedEdges.begin(), p.addedEdges.end(), e);
            REQUIRE(it != p.addedEdges.end());
            p.addedEdges.erase(it);
            auto vs = verifyPlan(g, caps, p);
            INFO("violations:\n" << dump(vs));
            CHECK(onlyKind(vs, "edges"));
            CHECK(has(vs, "edges", {str(e.first, e.second), "spill 0"}));
        }
        // Every edge from a user to a SPILL_OUT, or from a SPILL_IN to a user, is required too.
        int dropped = 0;
        for (std::size_t i = 0; i < good.addedEdges.size() && dropped < 20; ++i) {
            const auto e = good.addedEdges[i];
            const int a = g.nodeIndex.find(e.first), b = g.nodeIndex.find(e.second);
            const bool userEdge = (a != IdTable::kAbsent && !g.nodes[a].isBufferNode()) ||
                                  (b != IdTable::kAbsent && !g.nodes[b].isBufferNode());
            if (!userEdge) continue;
            ++dropped;
            CAPTURE(str(e.first, e.second));
            Plan p = good;
            p.addedEdges.erase(p.addedEdges.begin() + static_cast<std::ptrdiff_t>(i));
            auto vs = verifyPlan(g, caps, p);
            CHECK(has(vs, "edges", {str(e.first, e.second)}));
        }
        CHECK(dropped > 0);
    }

    SUBCASE("two order entries swapped across an edge") {
        // A graph edge and an added edge, each swapped on its own.
        std::vector<std::pair<NodeId, NodeId>> edges;
        REQUIRE(!g.edges.empty());
        edges.push_back({g.nodes[g.edges.front().first].id, g.nodes[g.edges.front().second].id});
        if (!good.addedEdges.empty()) edges.push_back(good.addedEdges.front());
        for (const auto& e : edges) {  // no structured binding: CAPTURE's lambda takes it
            const NodeId a = e.first, b = e.second;
            CAPTURE(str(a, b));
            Plan p = good;
            std::swap(p.order[pos.at(a)], p.order[pos.at(b)]);
            auto vs = verifyPlan(g, caps, p);
            INFO("violations:\n" << dump(vs));
            CHECK(has(vs, "order", {"edge " + str(a, b), "step " + std::to_string(pos.at(a)),
                                    "step " + std::to_string(pos.at(b))}));
        }
    }

    SUBCASE("a SPILL_IN deleted from the order") {
        REQUIRE(!good.spills.empty());
        const Spill& s = good.spills.front();
        Plan p = good;
        p.order.erase(p.order.begin() + s.inStep);
        auto vs = verifyPlan(g, caps, p);
        INFO("violations:\n" << dump(vs));
        CHECK(has(vs, "order", {"added node " + std::to_string(s.inNode), "missing"}));
        // The buffer's next use (or its FREE) now finds it spilled.
        CHECK(has(vs, "residency", {"buffer " + std::to_string(s.buf), "spilled"}));
    }

    SUBCASE("a SPILL_IN reloading past the end of its memory") {
        REQUIRE(!good.spills.empty());
        Plan p = good;
        Spill& s = p.spills.back();
        s.newOffset = caps.at(s.type) - s.size + 1;
        auto vs = verifyPlan(g, caps, p);
        CHECK(has(vs, "bounds", {"node " + std::to_string(s.inNode), "buffer " + std::to_string(s.buf)}));
    }

    SUBCASE("a SPILL_OUT's oldOffset off by one") {
        REQUIRE(!good.spills.empty());
        Plan p = good;
        Spill& s = p.spills.back();
        s.oldOffset += 1;
        auto vs = verifyPlan(g, caps, p);
        INFO("violations:\n" << dump(vs));
        CHECK(vs.size() == 1);
        CHECK(has(vs, "spill-pair", {"node " + std::to_string(s.outNode), "oldOffset"}));
    }

    SUBCASE("spill node ids renumbered") {
        REQUIRE(!good.spills.empty());
        Plan p = good;
        std::swap(p.spills.front().outNode, p.spills.front().inNode);
        auto vs = verifyPlan(g, caps, p);
        CHECK(has(vs, "spill-ids", {"spill 0"}));
    }
}

}  // namespace

TEST_SUITE("verifier") {

TEST_CASE("mutations of a real plan of a small graph are caught") {
    GraphDocument doc = parseGraphDocument(kSpillingGraph);
    RunOptions opts;
    opts.orderSource = "id";
    Result r = run(doc, opts);
    REQUIRE(r.plan.spills.size() >= 2);
    checkMutationsCaught(doc, r);
}

TEST_CASE("mutations of real plans of the contest graphs are caught" * doctest::test_suite("long")) {
    for (const std::string name : spillway::test::kSharedCases) {
        CAPTURE(name);
        auto text = spillway::test::sharedCase(name);
        if (!text) continue;
        // doctest re-enters the test case once per subcase: plan each graph once.
        static std::map<std::string, std::pair<GraphDocument, Result>> planned;
        auto it = planned.find(name);
        if (it == planned.end()) {
            GraphDocument d = parseGraphDocument(*text);
            Result res = run(d, {});
            it = planned.emplace(name, std::make_pair(std::move(d), std::move(res))).first;
        }
        const GraphDocument& doc = it->second.first;
        const Result& r = it->second.second;
        if (r.plan.spills.empty()) {
            MESSAGE(name << ": no spill with the default order and capacities; spill mutations skipped");
            continue;
        }
        checkMutationsCaught(doc, r);
    }
}

}  // TEST_SUITE

TEST_CASE("claimed waits: each wrong one reported at its step, a wrong pipe before a wrong cause") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    const Result r = test::planVerified(doc);
    const ResultClaims right = claimsOf(r);
    REQUIRE(right.waits->size() == r.plan.order.size());
    // The first two steps with a pipe and a wait: the first gets a wrong pipe, the second a wrong cause.
    std::vector<std::size_t> waited;
    for (std::size_t i = 0; i < right.waits->size() && waited.size() < 2; ++i)
        if (!(*right.waits)[i].pipe.empty() && (*right.waits)[i].cause != "none") waited.push_back(i);
    REQUIRE(waited.size() == 2);
    ResultClaims wrong = right;
    (*wrong.waits)[waited[0]].pipe = "NOPE";
    (*wrong.waits)[waited[1]].cycles += 1;
    const auto violations = verifyResult(doc.graph, r.capacities, r.cost, r.plan, wrong);
    REQUIRE(violations.size() == 2);
    CHECK(violations[0].kind == ViolationKind::Timing);
    CHECK(violations[0].field == "waits[" + std::to_string(waited[0]) + "]");
    CHECK(violations[0].message.rfind("waits[" + std::to_string(waited[0]) + "] says pipe \"NOPE\", but ", 0) == 0);
    CHECK(violations[1].field == "waits[" + std::to_string(waited[1]) + "]");
    const ResultClaims::NodeWait& w = (*right.waits)[waited[1]];
    CHECK(violations[1].message.find(std::to_string(w.cycles + 1) + " cycles), but ") != std::string::npos);
    CHECK(violations[1].message.find("waits for " + w.cause + " (node " + std::to_string(w.node)) != std::string::npos);
    // One wait short: the count is reported, and the entries there are still checked.
    ResultClaims shorter = right;
    shorter.waits->pop_back();
    const auto counted = verifyResult(doc.graph, r.capacities, r.cost, r.plan, shorter);
    REQUIRE(counted.size() == 1);
    CHECK(counted[0].message == "waits has " + std::to_string(r.plan.order.size() - 1) + " entries but the order " +
                                    std::to_string(r.plan.order.size()));
}

TEST_CASE("claims read in place: the same verdicts as the copied claims, on a right and on a wrong timing") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    Result r = test::planVerified(doc);
    CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsInPlace(r)).empty());
    REQUIRE(claimsInPlace(r).steps);
    CHECK(claimsInPlace(r).timing.empty());
    // A step with a wait: its end one cycle late and its cause wrong, in the result itself.
    std::size_t waited = 0;
    while (waited < r.timing.nodes.size() && r.timing.nodes[waited].wait.cause == WaitCause::None) ++waited;
    REQUIRE(waited < r.timing.nodes.size());
    r.timing.nodes[waited].end += 1;
    r.timing.nodes[waited].wait.cause = r.timing.nodes[waited].wait.cause == WaitCause::Edge ? WaitCause::Pipe : WaitCause::Edge;
    const auto inPlace = verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsInPlace(r));
    const auto copied = verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r));
    REQUIRE(inPlace.size() == 2);
    REQUIRE(copied.size() == inPlace.size());
    for (std::size_t i = 0; i < inPlace.size(); ++i) {
        CHECK(inPlace[i].message == copied[i].message);
        CHECK(inPlace[i].field == copied[i].field);
    }
    CHECK(inPlace[0].field == "timing[" + std::to_string(waited) + "]");
    CHECK(inPlace[1].field == "waits[" + std::to_string(waited) + "]");
    // One step short: the counts are reported as from a file.
    r.timing.nodes.pop_back();
    const auto shorter = verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsInPlace(r));
    REQUIRE(!shorter.empty());
    CHECK(shorter[0].message.rfind("timing has " + std::to_string(r.plan.order.size() - 1) + " entries", 0) == 0);
}

TEST_CASE("the edge check's fast path agrees with the full comparison on mutated added edges") {
    // checkEdges first asks whether addedEdges is exactly the rule's set without sorting the
    // rule's edges (each looked up in its source's run by galloping); only when it is not does it
    // sort both and report the differences. On plans with long runs (a reload's many users), each
    // edge dropped, each edge the rule does not make inserted in order, and each edge moved to
    // another target must be reported, and naming that edge; the plan itself verifies clean.
    int graphs = 0, dropped = 0, inserted = 0, moved = 0;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        RandomGraphParams params;
        params.operations = 30 + static_cast<int>(seed * 5);
        params.maxUsesPerBuffer = 8;
        const GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, params));
        RunOptions opts;
        opts.capacities = test::tightCapacities(doc.graph, seed);
        opts.orderSource = "schedule";
        const Result r = run(doc, opts);
        const Plan& good = r.plan;
        if (good.spills.empty()) continue;
        ++graphs;
        CAPTURE(seed);
        const Graph& g = doc.graph;
        const Capacities& caps = r.capacities;
        {
            auto vs = verifyPlan(g, caps, good);
            EXPECT_CLEAN(vs);
        }
        const auto& edges = good.addedEdges;
        auto edgeReports = [&](const Plan& p) {
            std::vector<std::string> out;
            for (const Violation& v : verifyPlan(g, caps, p))
                if (violationKindName(v.kind) == std::string("edges")) out.push_back(v.message);
            return out;
        };
        auto names = [](const std::vector<std::string>& reports, const std::string& needle) {
            return std::any_of(reports.begin(), reports.end(),
                               [&](const std::string& m) { return m.find(needle) != std::string::npos; });
        };
        for (std::size_t i = 0; i < edges.size(); i += 1 + edges.size() / 12) {
            const auto e = edges[i];
            CAPTURE(str(e.first, e.second));
            Plan p = good;
            p.addedEdges.erase(p.addedEdges.begin() + static_cast<std::ptrdiff_t>(i));
            const auto reports = edgeReports(p);
            CHECK(names(reports, "required edge " + str(e.first, e.second)));
            ++dropped;
            // The same source to a node it has no edge to: in order, so only the rule can tell.
            for (const Node& other : g.nodes) {
                const std::pair<NodeId, NodeId> wrong{e.first, other.id};
                if (other.id == e.first || std::binary_search(edges.begin(), edges.end(), wrong)) continue;
                Plan q = good;
                q.addedEdges.insert(std::lower_bound(q.addedEdges.begin(), q.addedEdges.end(), wrong), wrong);
                CHECK(names(edgeReports(q), "added edge " + str(wrong.first, wrong.second)));
                ++inserted;
                q.addedEdges.erase(std::find(q.addedEdges.begin(), q.addedEdges.end(), e));  // e moved to `wrong`
                const auto movedReports = edgeReports(q);
                CHECK(names(movedReports, "added edge " + str(wrong.first, wrong.second)));
                CHECK(names(movedReports, "required edge " + str(e.first, e.second)));
                ++moved;
                break;
            }
        }
    }
    CHECK(graphs >= 8);
    CHECK(dropped >= 60);
    CHECK(inserted >= 60);
    CHECK(moved >= 60);
}

TEST_CASE("demand peaks: recomputed from the claimed input order, the plan's or another") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    const Result r = test::planVerified(doc);
    ResultClaims c = claimsOf(r);
    CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, c).empty());
    // Every FREE moved last: the order check reports the difference, and the demand is that of
    // the claimed order (every buffer at once), not the plan's.
    std::vector<NodeId> frees, rest;
    for (NodeId id : c.inputOrder) (doc.graph.node(id).isFree() ? frees : rest).push_back(id);
    REQUIRE(!frees.empty());
    rest.insert(rest.end(), frees.begin(), frees.end());
    REQUIRE(rest != c.inputOrder);
    c.inputOrder = rest;
    Bytes all = 0;
    for (const Buffer& b : doc.graph.buffers) all += b.size;
    REQUIRE(all > r.metrics.demandPeaks.total);
    const auto vs = verifyResult(doc.graph, r.capacities, r.cost, r.plan, c);
    INFO(dump(vs));
    EXPECT_HAS(vs, "order", "differs from inputOrder");
    EXPECT_HAS(vs, "metrics", "metrics.demandPeak.total says " + std::to_string(r.metrics.demandPeaks.total),
               "the plan gives " + std::to_string(all));
    // The plan's own order claimed back: its peaks again, read from the plan's steps.
    c.inputOrder = r.inputOrder;
    c.demandPeakTotal = all;
    const auto back = verifyResult(doc.graph, r.capacities, r.cost, r.plan, c);
    REQUIRE(back.size() == 1);
    CHECK(back[0].message == "metrics.demandPeak.total says " + std::to_string(all) + " but the plan gives " +
                                 std::to_string(r.metrics.demandPeaks.total));
}

TEST_CASE("address waits name the leave that set them: its node and its buffer") {
    // checkTiming numbers the leaves (FREEs and SPILL_OUTs) as the walk meets them and keeps what
    // each left by that number, which also breaks ties between leaves of equal time: a slip in
    // the numbering names another leave's node or buffer. A tiled matmul with spills has address
    // waits left by FREEs and by SPILL_OUTs.
    MatmulParams m;
    m.m = m.n = m.k = 6;
    m.freesAtEnd = true;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(m));
    const Result r = test::planVerified(doc);
    REQUIRE(!r.plan.spills.empty());
    const ResultClaims right = claimsOf(r);
    std::vector<std::size_t> address;
    std::size_t bySpill = 0;
    for (std::size_t i = 0; i < right.waits->size(); ++i) {
        const ResultClaims::NodeWait& w = (*right.waits)[i];
        if (w.cause != "address") continue;
        address.push_back(i);
        bySpill += doc.graph.nodeIndex.find(w.node) < 0;  // no graph node: a SPILL_OUT
    }
    REQUIRE(address.size() >= 10);
    CHECK(bySpill > 0);
    CHECK(bySpill < address.size());
    // A wrong buffer or node at a few of them: each reported at its step, naming the right one.
    for (std::size_t j = 0; j < address.size(); j += address.size() / 5) {
        const std::size_t i = address[j];
        for (bool node : {false, true}) {
            ResultClaims wrong = right;
            ResultClaims::NodeWait& w = (*wrong.waits)[i];
            const std::string actual = "waits for address (node " + std::to_string(w.node) + ", buffer " +
                                       std::to_string(w.buffer) + ", " + std::to_string(w.cycles) + " cycles)";
            (node ? w.node : w.buffer) += 1;
            const auto violations = verifyResult(doc.graph, r.capacities, r.cost, r.plan, wrong);
            REQUIRE(violations.size() == 1);
            CHECK(violations[0].field == "waits[" + std::to_string(i) + "]");
            CHECK(violations[0].message.find(actual) != std::string::npos);
        }
    }
}
