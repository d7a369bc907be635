// Bad input gets one clear error naming the place: one test per kind of mistake.
#include "support.h"

using namespace spillway;
using spillway::test::inputErrorOf;
using spillway::test::Mutator;
using spillway::test::parse;

namespace {

const std::string kAlloc0 = R"({"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"})";
const std::string kUse1 = R"({"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]})";
const std::string kFree2 = R"({"Id":2,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"})";

std::string graph(const std::string& nodes, const std::string& edges = "[[0,1],[1,2]]", const std::string& extra = "") {
    return R"({"Nodes":[)" + nodes + R"(],"Edges":)" + edges + extra + "}";
}
std::string good(const std::string& extra = "") {
    return graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[0,1],[1,2]]", extra);
}

std::string errorOfRun(const std::string& text, RunOptions opts = {}) {
    return inputErrorOf([&] { run(parse(text), opts); });
}

}  // namespace

TEST_CASE("a valid small graph parses with its buffers and edges") {
    GraphDocument doc = parse(good());
    REQUIRE(doc.graph.nodes.size() == 3);
    REQUIRE(doc.graph.buffers.size() == 1);
    const Buffer& b = doc.graph.buffer(0);
    CHECK(b.size == 100);
    CHECK(b.type == "L1");
    CHECK(b.hasCopyIn);
    CHECK(b.users == std::vector<int>{1});
    CHECK(doc.graph.edges.size() == 2);
    CHECK_FALSE(doc.order.has_value());
    CHECK_FALSE(doc.capacities.has_value());
}

TEST_CASE("adjacency: each node's successors and predecessors in the order of Edges, flat") {
    // 0 -> 2 listed before 0 -> 1: each list keeps the order of Edges, not of node indices.
    const std::string nodes =
        kAlloc0 + "," + kUse1 + "," + kFree2 + R"(,{"Id":3,"Op":"MUL","Pipe":"VECTOR","Cycles":1,"Bufs":[0]})";
    GraphDocument doc = parse(graph(nodes, "[[0,2],[0,1],[1,2],[3,2]]"));
    auto list = [](IndexRange r) { return std::vector<int>(r.begin(), r.end()); };
    CHECK(list(doc.graph.successors[0]) == std::vector<int>{2, 1});
    CHECK(list(doc.graph.successors[1]) == std::vector<int>{2});
    CHECK(doc.graph.successors[2].empty());
    CHECK(list(doc.graph.predecessors[2]) == std::vector<int>{0, 1, 3});
    CHECK(doc.graph.predecessors[0].size() == 0);
}

TEST_CASE("adjacency: sorting each list drops repeats and keeps the others' lists; reversed lists ascend") {
    // 0: {3, 1, 3, 2}, 1: {}, 2: {0, 0}, 3: {1}
    const std::vector<std::pair<int, int>> arcs = {{0, 3}, {2, 0}, {0, 1}, {0, 3}, {3, 1}, {2, 0}, {0, 2}};
    Adjacency a = Adjacency::fromArcs(4, [&](auto&& add) {
        for (auto [from, to] : arcs) add(from, to);
    });
    auto list = [](IndexRange r) { return std::vector<int>(r.begin(), r.end()); };
    CHECK(list(a[0]) == std::vector<int>{3, 1, 3, 2});
    CHECK(list(a[2]) == std::vector<int>{0, 0});
    a.sortEachUnique([](int x, int y) { return x > y; });
    CHECK(a.size() == 4);
    CHECK(list(a[0]) == std::vector<int>{3, 2, 1});
    CHECK(a[1].empty());
    CHECK(list(a[2]) == std::vector<int>{0});
    CHECK(list(a[3]) == std::vector<int>{1});
    const Adjacency r = a.reversed();
    CHECK(list(r[0]) == std::vector<int>{2});
    CHECK(list(r[1]) == std::vector<int>{0, 3});
    CHECK(list(r[2]) == std::vector<int>{0});
    CHECK(list(r[3]) == std::vector<int>{0});
}

TEST_CASE(
    "a host's node limit: a larger graph is refused with both sizes, the limit named, its first node over located") {
    const HostNodeLimit limit{2, "the browser", "browserNodes", ": use the CLI"};
    try {
        parseGraphDocument("{\"Nodes\":[" + kAlloc0 + ",\n" + kUse1 + ",\n" + kFree2 + "],\"Edges\":[[0,1],[1,2]]}",
                           limit);
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "line 3, column 1: the graph is too large for the browser (3 nodes, limit 2): use the CLI");
        REQUIRE(e.where.limit);
        CHECK(e.where.limit->name == "browserNodes");
        CHECK(e.where.limit->max == 2);
    }
    // At the limit the graph is read as without one.
    const HostNodeLimit three{3, "the browser", "browserNodes", ""};
    CHECK(parseGraphDocument(good(), three).graph.nodes.size() == 3);
    // Nodes past the limit are skipped unread, yet errors in the nodes before it still come first.
    CHECK(inputErrorOf([&] {
              parseGraphDocument(graph(R"({"Id":0,"Op":"ALLOC"},)" + kUse1 + "," + kFree2), limit);
          }).find("too large") == std::string::npos);
}

TEST_CASE("Order and Capacities are read when present") {
    GraphDocument doc = parse(good(R"(,"Order":[0,1,2],"Capacities":{"L1":512})"));
    CHECK(*doc.order == Order{0, 1, 2});
    CHECK(doc.capacities->at("L1") == 512);
}

TEST_CASE("not JSON: the error names line and column") {
    std::string msg = inputErrorOf([] { parse("{\n  \"Nodes\": [\n    {\"Id\": 0,,}\n]}"); });
    CHECK(msg.find("not valid JSON") != std::string::npos);
    CHECK(msg.find("line 3, column 14") != std::string::npos);
    CHECK(inputErrorOf([] { parse("   "); }).find("empty") != std::string::npos);
    CHECK(inputErrorOf([] { parse("[1,2]"); }).find("must be a JSON object") != std::string::npos);
}

TEST_CASE("missing or ill-typed fields name the node and the field") {
    // Missing fields are placed at their node's '{' (column 11), wrong values at the value.
    CHECK(inputErrorOf([] { parse(graph(R"({"Op":"ALLOC"})", "[]")); }) ==
          "line 1, column 11: Nodes[0]: field \"Id\" is missing");
    CHECK(inputErrorOf([] { parse(graph(R"({"Id":"7","Op":"ALLOC"})", "[]")); }) ==
          "line 1, column 17: Nodes[0]: field \"Id\" must be an integer, got a string");
    CHECK(inputErrorOf([] { parse(graph(R"({"Id":4,"Op":"ALLOC","BufId":0,"Type":"L1"})", "[]")); }) ==
          "line 1, column 11: node 4: field \"Size\" is missing");
    CHECK(inputErrorOf([] { parse(graph(R"({"Id":4,"Op":"MUL","Pipe":"VECTOR","Cycles":1.5,"Bufs":[]})", "[]")); }) ==
          "line 1, column 55: node 4: field \"Cycles\" must be an integer, got a non-integer number");
    CHECK(inputErrorOf([] {
              parse(graph(R"({"Id":4,"Op":"MUL","Pipe":"VECTOR","Cycles":1,"Bufs":[1,"x"]})", "[]"));
          }) == "line 1, column 67: node 4: field \"Bufs[1]\" must be an integer, got a string");
    CHECK(inputErrorOf([] { parse(graph(R"({"Id":4,"Op":"MUL","Cycles":1,"Bufs":[]})", "[]")); }) ==
          "line 1, column 11: node 4: field \"Pipe\" is missing");
    CHECK(inputErrorOf([] { parse(R"({"Edges":[]})"); }) == "line 1, column 1: the graph: field \"Nodes\" is missing");
}

TEST_CASE("Size <= 0 is rejected with the node") {
    std::string bad = R"({"Id":0,"Op":"ALLOC","BufId":0,"Size":0,"Type":"L1"})";
    CHECK(inputErrorOf([&] { parse(graph(bad + "," + kUse1 + "," + kFree2)); }) ==
          "line 1, column 49: node 0: field \"Size\" must be between 1 and 68719476736, got 0");
}

TEST_CASE("duplicate Id") {
    std::string msg = inputErrorOf(
        [] { parse(graph(kAlloc0 + "," + kUse1 + "," + R"({"Id":1,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"})")); });
    CHECK(msg == "line 1, column 127: duplicate node Id 1 (Nodes[1] and Nodes[2])");
}

TEST_CASE("an edge naming an unknown node") {
    CHECK(inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[0,1],[1,9]]")); }) ==
          "line 1, column 197: Edges[1]: its dst 9 is the Id of no node in Nodes");
    CHECK(inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[0,1,2]]")); }) ==
          "line 1, column 196: Edges[0] must be [src, dst] with two node ids, got a third entry");
    // Edges before Nodes: resolved once the nodes are known, still located.
    CHECK(inputErrorOf([] { parse(R"({"Edges":[[0,5]],"Nodes":[)" + kAlloc0 + "," + kUse1 + "," + kFree2 + "]}"); }) ==
          "line 1, column 11: Edges[0]: its dst 5 is the Id of no node in Nodes");
}

TEST_CASE("a cycle names the nodes on it") {
    std::string msg = inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[0,1],[1,2],[2,1]]")); });
    CHECK(msg == "line 1, column 203: the edges form a cycle: 2 -> 1 -> 2");
}

TEST_CASE("a buffer without exactly one ALLOC and one FREE") {
    CHECK(inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1, "[[0,1]]")); }) ==
          "line 1, column 11: buffer 0 has an ALLOC (node 0) but no FREE");
    CHECK(inputErrorOf([] { parse(graph(kUse1 + "," + kFree2, "[[1,2]]")); }) ==
          "line 1, column 72: buffer 0 has a FREE (node 2) but no ALLOC");
    std::string twoAllocs =
        kAlloc0 + "," + R"({"Id":3,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"})" + "," + kUse1 + "," + kFree2;
    CHECK(inputErrorOf([&] { parse(graph(twoAllocs)); }) ==
          "line 1, column 66: buffer 0 has two ALLOC nodes: node 0 and node 3");
    std::string mismatch = kAlloc0 + "," + kUse1 + "," + R"({"Id":2,"Op":"FREE","BufId":0,"Size":50,"Type":"L1"})";
    CHECK(inputErrorOf([&] { parse(graph(mismatch)); }) ==
          "line 1, column 127: buffer 0: node 2 says 50 bytes of L1 but node 0 says 100 bytes of L1");
}

TEST_CASE("a node using an unknown buffer") {
    std::string use = R"({"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0,7]})";
    CHECK(inputErrorOf([&] { parse(graph(kAlloc0 + "," + use + "," + kFree2)); }) ==
          "line 1, column 66: node 1: field \"Bufs\" names buffer 7, which has no ALLOC/FREE");
}

TEST_CASE("spill ops in the input are reserved") {
    std::string spill = R"({"Id":1,"Op":"SPILL_OUT","Pipe":"MTE3","Cycles":10,"Bufs":[0]})";
    CHECK(inputErrorOf([&] { parse(graph(kAlloc0 + "," + spill + "," + kFree2)); }) ==
          "line 1, column 66: node 1: Op SPILL_OUT is reserved for the spill nodes the planner inserts");
}

TEST_CASE("a Type without capacity, a buffer larger than its memory, a capacity <= 0") {
    RunOptions noL1;
    noL1.capacities = Capacities{{"UB", 1024}};
    CHECK(errorOfRun(good(), noL1) ==
          "line 1, column 11: node 0: buffer 0 has Type \"L1\", which has no capacity: give memory L1 a capacity");
    RunOptions tiny;
    tiny.capacities = Capacities{{"L1", 64}};
    CHECK(errorOfRun(good(), tiny) == "line 1, column 11: node 0: buffer 0 needs 100 bytes but L1 holds only 64");
    RunOptions zero;
    zero.capacities = Capacities{{"L1", 0}};
    CHECK(errorOfRun(good(), zero) == "capacity of L1 must be between 1 and 68719476736, got 0");
    CHECK(inputErrorOf([] { parse(good(R"(,"Capacities":{"L1":-5})")); }) ==
          "line 1, column 223: Capacities: field \"L1\" must be between 1 and 68719476736, got -5");
    CHECK(inputErrorOf([] { parseCapacityList("L1=4096,UB"); }) == "--caps entry \"UB\" must look like L1=4096");
    CHECK(inputErrorOf([] { parseCapacityList("L1=0"); }).find("--caps entry \"L1=0\"") == 0);
}

TEST_CASE("one node whose buffers of one memory exceed it: no plan can exist") {
    std::string nodes = R"({"Id":0,"Op":"ALLOC","BufId":0,"Size":300,"Type":"L1"},)"
                        R"({"Id":1,"Op":"ALLOC","BufId":1,"Size":300,"Type":"L1"},)"
                        R"({"Id":2,"Op":"ADD","Pipe":"VECTOR","Cycles":5,"Bufs":[0,1]},)"
                        R"({"Id":3,"Op":"FREE","BufId":0,"Size":300,"Type":"L1"},)"
                        R"({"Id":4,"Op":"FREE","BufId":1,"Size":300,"Type":"L1"})";
    RunOptions opts;
    opts.capacities = Capacities{{"L1", 512}};
    CHECK(errorOfRun(graph(nodes, "[[0,2],[1,2],[2,3],[2,4]]"), opts) ==
          "line 1, column 121: node 2 uses 600 bytes of L1 at once but L1 holds only 512: no plan can exist");
}

TEST_CASE("orders: not a permutation, breaking an edge, using a buffer outside its lifetime") {
    auto withOrder = [](const std::string& order) {
        RunOptions o;
        o.orderSource = "given";
        o.order = parseOrderText(order);
        return o;
    };
    CHECK(errorOfRun(good(), withOrder("0\n1\n")) == "the given order misses node 2 (it has 2 of the graph's 3 nodes)");
    CHECK(errorOfRun(good(), withOrder("0\n1\n1\n2\n")) ==
          "the given order, position 2: node 1 already appears at position 1");
    CHECK(errorOfRun(good(), withOrder("0\n1\n2\n5\n")) == "the given order, position 3: node 5 is not in the graph");
    CHECK(errorOfRun(good(), withOrder("0\n2\n1\n")) ==
          "the given order breaks edge 1 -> 2: node 2 at position 1 comes before node 1 at position 2");
    // Without edges, an order can still use a buffer after its FREE.
    CHECK(errorOfRun(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[]"), withOrder("0\n2\n1\n")) ==
          "the given order: node 1 (position 2) uses buffer 0 outside its lifetime (ALLOC at position 0, FREE at "
          "position 1)");
    // An Order in the graph file: located at the entry the error names.
    CHECK(errorOfRun(good(R"(,"Order":[2,1,0])")) ==
          "line 1, column 215: the graph's \"Order\" breaks edge 0 -> 1: node 1 at position 1 comes before node 0 at "
          "position 2");
    CHECK(inputErrorOf([] { parseOrderText("0\n1\nx2\n"); }) ==
          "order file, line 3: expected one node id (0..1073741823), got \"x2\"");
    // A UTF-8 byte order mark is skipped, as the JSON reader skips it.
    CHECK(parseOrderText("\xEF\xBB\xBF"
                         "2\n0\n") == Order{2, 0});
}

TEST_CASE("run options from JSON (the bindings' format)") {
    RunOptions o = parseRunOptions(
        R"({"capacities":{"L1":2048},"order":"id","policy":"seed","cost":{"model":"seed","fixedLatency":7,"cyclesPerByte":3}})");
    CHECK(o.capacities->at("L1") == 2048);
    CHECK(o.orderSource == "id");
    CHECK(o.cost.kind == CostModel::Kind::Seed);
    CHECK(o.cost.fixedLatency == 7);
    CHECK(o.cost.cyclesPerByte == 3);
    RunOptions given = parseRunOptions(R"({"order":[2,1,0]})");
    CHECK(given.orderSource == "given");
    CHECK(*given.order == Order{2, 1, 0});
    CHECK(inputErrorOf([] { parseRunOptions(R"({"cost":{"model":"cheap"}})"); }) ==
          "line 1, column 18: options.cost: field \"model\" must be \"seed\" or \"contest\", got \"cheap\"");
    CHECK(inputErrorOf([] { parseRunOptions(R"({"order":"random"})"); }) ==
          "line 1, column 10: options: field \"order\" must be one of graph, best, schedule, reuse, search, min-peak, "
          "id, or an array of node ids, got \"random\"");
    CHECK(parseRunOptions(R"({"order":"search","effort":250})").effort == 250);
    CHECK(parseRunOptions("{}").effort == -1);
    CHECK(inputErrorOf([] { parseRunOptions(R"({"effort":-1})"); }) ==
          "line 1, column 11: options: field \"effort\" must be an integer between 0 and 100000000, got -1");
    CHECK(inputErrorOf([] { parseRunOptions(R"({"order":"search","policy":"magic"})"); }) ==
          "line 1, column 28: options: unknown policy \"magic\": expected one of best, lifetime, residency, seed, "
          "window, belady, lru, fifo");
}

TEST_CASE("run options from JSON: the objective and the cycles techniques to switch off, hostile values located") {
    CHECK(parseRunOptions("{}").objective == Objective::Bytes);
    const RunOptions o = parseRunOptions(R"({"disable":["hoist","reserve"],"objective":"cycles"})");
    CHECK(o.objective == Objective::Cycles);
    CHECK(o.cycles.disabled == std::vector<CyclesTechnique>{CyclesTechnique::Hoist, CyclesTechnique::Reserve});
    CHECK(parseRunOptions(R"({"objective":"bytes","disable":[]})").objective == Objective::Bytes);
    struct Hostile {
        const char* options;
        const char* message;
        const char* field;
    };
    for (const Hostile& h : {
             Hostile{R"({"objective":"fast"})",
                     "line 1, column 14: options: unknown objective \"fast\": expected bytes or cycles", "objective"},
             Hostile{R"({"objective":2})",
                     "line 1, column 14: options: field \"objective\" must be \"bytes\" or \"cycles\", got an integer",
                     "objective"},
             Hostile{R"({"objective":["cycles"]})",
                     "line 1, column 14: options: field \"objective\" must be \"bytes\" or \"cycles\", got an array",
                     "objective"},
             Hostile{R"({"objective":"cycles","disable":"hoist"})",
                     "line 1, column 33: options: field \"disable\" must be an array of technique names, got a string",
                     "disable"},
             Hostile{R"({"objective":"cycles","disable":["hoist",7]})",
                     "line 1, column 42: options.disable[1] must be a technique's name, got an integer", "disable[1]"},
             Hostile{
                 R"({"objective":"cycles","disable":["warp"]})",
                 "line 1, column 34: options.disable[0]: unknown technique \"warp\" of the cycles objective: expected "
                 "one of placement, fit, schedule, hoist, swaps, policies, reserve, orders, search, headroom, stagger, "
                 "sequence, retime",
                 "disable[0]"},
             Hostile{R"({"disable":["hoist"]})",
                     "line 1, column 12: options: field \"disable\" switches off techniques of the objective "
                     "\"cycles\", but the objective is \"bytes\"",
                     "disable"},
             Hostile{R"({"objective":"cycles","objective":"bytes"})",
                     "line 1, column 23: options: field \"objective\" appears twice", "objective"},
         }) {
        CAPTURE(h.options);
        try {
            parseRunOptions(h.options);
            FAIL("expected an InputError");
        } catch (const InputError& e) {
            CHECK(std::string(e.what()) == h.message);
            CHECK(e.where.source == "options");
            CHECK(e.where.field == h.field);
            CHECK(e.where.line == 1);
        }
    }
}

TEST_CASE("graphToJson round-trips a document") {
    GraphDocument doc = parse(good(R"(,"Order":[0,1,2],"Capacities":{"L1":512})"));
    GraphDocument again = parse(graphToJson(doc));
    CHECK(graphToJson(again) == graphToJson(doc));
    CHECK(*again.order == Order{0, 1, 2});
}

TEST_CASE("a number too large for JSON's doubles is bad input with its place, not a crash") {
    CHECK(inputErrorOf([] {
              parse(R"({"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":1e400,"Type":"L1"}],"Edges":[]})");
          }) == "line 1, column 49: the graph is not valid JSON: number overflow parsing '1e400'");
}

TEST_CASE("a cycle through the ALLOC/use/FREE rule is named too") {
    // The file's only edge says FREE before ALLOC: acyclic as written, impossible to order.
    // It is a use outside the buffer's lifetime, and said so (not called a cycle).
    std::string msg = inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[2,0]]")); });
    CHECK(msg ==
          "line 1, column 191: node 1 uses buffer 0 but the edges make it run after the buffer's FREE (node 2): 2 -> 0 "
          "-> 1");
    CHECK(inputErrorOf([] { parse(graph(kAlloc0 + "," + kUse1 + "," + kFree2, "[[1,0]]")); }) ==
          "line 1, column 191: node 1 uses buffer 0 but the edges make it run before the buffer's ALLOC (node 0): 1 -> "
          "0");
}

TEST_CASE("fuzz: mangled graph text gives a result or an InputError, never anything else") {
    // Byte-level mutations of a valid document (deletions, duplications, digit and bracket
    // swaps): every outcome must be a verified plan or one clear error.
    const std::string base = good(R"(,"Capacities":{"L1":150})");
    Mutator mutate(42, "0123456789-.,:[]{}\"eE AFLU", 6);
    int planned = 0, rejected = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string text = mutate(base);
        CAPTURE(text);
        try {
            GraphDocument doc = parse(text);
            Result r = run(doc, {});
            CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r)).empty());
            ++planned;
        } catch (const InputError& e) {
            CHECK(std::string(e.what()).size() > 0);
            ++rejected;
        }
    }
    MESSAGE(planned << " mutated documents planned, " << rejected << " rejected with a message");
    CHECK(planned + rejected == 3000);
    CHECK(rejected > 1000);
}

TEST_CASE("buffers come out in ascending BufId whatever order their ALLOCs and FREEs come, dense or sparse ids") {
    // collectBuffers finds each buffer's slot through an id table (flat for dense ids, hashed for
    // sparse ones) and puts the slots in id order at the end; the errors about buffers without an
    // ALLOC or a FREE name the smallest such id first, as when the buffers were a map by id.
    for (const std::vector<BufferId>& ids : {std::vector<BufferId>{5, 2, 7, 0, 3, 1, 6, 4},
                                             std::vector<BufferId>{2000000000, 7, 45, 3000000, 0, 1999999999}}) {
        CAPTURE(ids.size());
        // ALLOCs in the listed order, one user each, FREEs in the reverse order.
        std::string nodes, edges;
        const int n = static_cast<int>(ids.size());
        auto add = [&](const std::string& node) { nodes += (nodes.empty() ? "" : ",") + node; };
        auto edge = [&](int a, int b) {
            edges += (edges.empty() ? "" : ",") + ("[" + std::to_string(a) + "," + std::to_string(b) + "]");
        };
        for (int k = 0; k < n; ++k) {
            const std::string id = std::to_string(ids[k]), size = std::to_string(16 * (k + 1));
            add(R"({"Id":)" + std::to_string(3 * k) + R"(,"Op":"ALLOC","BufId":)" + id + R"(,"Size":)" + size +
                R"(,"Type":"L1"})");
            add(R"({"Id":)" + std::to_string(3 * k + 1) + R"(,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[)" + id +
                "]}");
            edge(3 * k, 3 * k + 1);
        }
        for (int k = n - 1; k >= 0; --k) {
            const std::string id = std::to_string(ids[k]), size = std::to_string(16 * (k + 1));
            add(R"({"Id":)" + std::to_string(3 * k + 2) + R"(,"Op":"FREE","BufId":)" + id + R"(,"Size":)" + size +
                R"(,"Type":"L1"})");
            edge(3 * k + 1, 3 * k + 2);
        }
        const GraphDocument doc = parse(graph(nodes, "[" + edges + "]"));
        const Graph& g = doc.graph;
        std::vector<BufferId> sorted = ids;
        std::sort(sorted.begin(), sorted.end());
        REQUIRE(g.buffers.size() == ids.size());
        for (std::size_t b = 0; b < sorted.size(); ++b) {
            const int k = static_cast<int>(std::find(ids.begin(), ids.end(), sorted[b]) - ids.begin());
            CHECK(g.buffers[b].id == sorted[b]);
            CHECK(g.buffers[b].size == 16 * (k + 1));
            CHECK(g.nodes[g.buffers[b].allocNode].id == 3 * k);
            CHECK(g.nodes[g.buffers[b].freeNode].id == 3 * k + 2);
            CHECK(g.buffers[b].users == std::vector<int>{g.nodeIndex.at(3 * k + 1)});
            CHECK(g.bufferIndex.find(sorted[b]) == static_cast<int>(b));
        }
    }
    // Buffer 9's FREE comes first in the file, buffer 4's ALLOC later: buffer 4 is named.
    const std::string free9 = R"({"Id":0,"Op":"FREE","BufId":9,"Size":100,"Type":"L1"})";
    const std::string alloc4 = R"({"Id":1,"Op":"ALLOC","BufId":4,"Size":100,"Type":"L1"})";
    CHECK(inputErrorOf([&] { parse(graph(free9 + "," + alloc4, "[]")); }) ==
          "line 1, column 65: buffer 4 has an ALLOC (node 1) but no FREE");
}
