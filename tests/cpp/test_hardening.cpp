// Regression tests for the classes of hostile input found by attacking the engine:
// memory safety, recursion, valid graphs the schedulers rejected, arithmetic overflow, the spill
// storm, errors that were not errors, and the stated limits. Every plan here is verified.
#include <nlohmann/json.hpp>

#include "../../core/src/io/json_reader.h"
#include "spillway/examples.h"
#include "spillway/limits.h"
#include "support.h"

using namespace spillway;
using spillway::test::inputErrorOf;
using spillway::test::planVerified;

namespace {

const std::vector<std::string> kOrders = {"id", "schedule", "reuse", "best"};

// Two buffers used in turn, `uses` times, in a memory that holds only one of them: every use
// evicts the other buffer (the spill storm).
std::string spillStorm(int uses, Bytes size = 1) {
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array(), edges = nlohmann::ordered_json::array();
    for (int b = 0; b < 2; ++b)
        nodes.push_back({{"Id", b}, {"Op", "ALLOC"}, {"BufId", b}, {"Size", size}, {"Type", "UB"}});
    for (int i = 0; i < uses; ++i) {
        nodes.push_back({{"Id", 2 + i}, {"Op", "ADD"}, {"Pipe", "VECTOR"}, {"Cycles", 1},
                         {"Bufs", nlohmann::ordered_json::array({i % 2})}});
        if (i > 0) edges.push_back({1 + i, 2 + i});
    }
    for (int b = 0; b < 2; ++b)
        nodes.push_back({{"Id", 2 + uses + b}, {"Op", "FREE"}, {"BufId", b}, {"Size", size}, {"Type", "UB"}});
    nlohmann::ordered_json g;
    g["Nodes"] = std::move(nodes);
    g["Edges"] = std::move(edges);
    g["Capacities"] = {{"UB", size}};
    return g.dump();
}

std::string smallGraph(const std::string& extra = "") {
    return R"({"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},)"
           R"({"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},)"
           R"({"Id":2,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"}],"Edges":[[0,1],[1,2]])" +
           extra + "}";
}

ErrorPlace placeOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.where;
    }
    FAIL("expected an InputError");
    return {};
}

}  // namespace

TEST_SUITE("hardening") {

TEST_CASE("the spill storm plans with edges linear in its spills, the rule's closure holding") {
    // 6,000 uses of two 1-byte buffers in a 1-byte memory: every use reloads its buffer. Each
    // spill adds at most ALLOC -> OUT, previous IN -> OUT, one user -> OUT, OUT -> IN,
    // IN -> FREE and IN -> one user: six edges (the quadratic rule gave 229 MB of result).
    for (int uses : {1000, 6000}) {
        CAPTURE(uses);
        GraphDocument doc = parseGraphDocument(spillStorm(uses));
        Result r = planVerified(doc);
        CHECK(r.metrics.spills >= uses - 2);
        CHECK(r.plan.addedEdges.size() <= 6 * r.plan.spills.size());
        const std::string json = resultToJson(doc.graph, r);
        // linear too: each spill's decisions carry their room, formula and candidates (6,000
        // uses: under 9 MB; the quadratic rule gave 229 MB)
        CHECK(json.size() < static_cast<std::size_t>(uses) * 1500);
    }
}

TEST_CASE("capacities for memories no buffer uses (even \"\") never reach the planners' loops") {
    // The lifetime planner once took "" for "no memory indexed yet" and read out of bounds.
    GraphDocument doc = parseGraphDocument(spillStorm(20, 8));
    for (const std::string& policy : policyNames()) {
        CAPTURE(policy);
        PlanOptions opts{{{"", 5}, {"UB", 8}, {"UNUSED", 1}}, CostModel{}, policy};
        const Plan plan = planSpills(doc.graph, orderById(doc.graph), opts);
        CHECK(verifyPlan(doc.graph, opts.capacities, plan).empty());
        CHECK(plan.spills.size() >= 18);
    }
    // From the outside such a capacity is an error naming the memory.
    RunOptions o;
    o.capacities = Capacities{{"", 5}, {"L1", 4096}};
    const ErrorPlace where = placeOf([&] { run(parseGraphDocument(smallGraph()), o); });
    CHECK(where.memory == std::string());
    CHECK(where.field == "capacities.");
    CHECK(inputErrorOf([] { parseGraphDocument(smallGraph(R"(,"Capacities":{"":5})")); }) ==
          "line 1, column 218: Capacities: a memory name is empty");
}

TEST_CASE("graphs with explicit ALLOC -> operation edges and operations without buffers plan under every order") {
    // Before: the default order's schedulers stopped ("no node can run") or broke an edge.
    int graphs = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomGraphParams p;
        p.operations = 10 + static_cast<int>(seed % 30);
        p.allocEdgePercent = 40;
        p.bufferlessPercent = 20;
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        for (const std::string& order : kOrders) {
            CAPTURE(seed);
            CAPTURE(order);
            RunOptions o;
            o.orderSource = order;
            planVerified(doc, o);
        }
        ++graphs;
    }
    CHECK(graphs == 60);
}

TEST_CASE("an ALLOC an edge puts before another buffer's ALLOC does not stall the schedulers") {
    // ALLOC a -> ALLOC b; b's user runs before a's: an ALLOC waiting to be pulled by its first user
    // would never be pulled for b.
    const std::string g = R"({"Nodes":[
        {"Id":0,"Op":"ALLOC","BufId":0,"Size":8,"Type":"UB"},
        {"Id":1,"Op":"ALLOC","BufId":1,"Size":8,"Type":"UB"},
        {"Id":2,"Op":"NOP","Pipe":"SCALAR","Cycles":1,"Bufs":[]},
        {"Id":3,"Op":"B","Pipe":"VECTOR","Cycles":3,"Bufs":[1]},
        {"Id":4,"Op":"A","Pipe":"VECTOR","Cycles":3,"Bufs":[0]},
        {"Id":5,"Op":"FREE","BufId":1,"Size":8,"Type":"UB"},
        {"Id":6,"Op":"FREE","BufId":0,"Size":8,"Type":"UB"}],
        "Edges":[[0,1],[1,3],[3,4],[3,5],[4,6],[0,2],[2,4]]})";
    GraphDocument doc = parseGraphDocument(g);
    for (const std::string& order : kOrders) {
        CAPTURE(order);
        RunOptions o;
        o.orderSource = order;
        Result r = planVerified(doc, o);
        CHECK(r.inputOrder.size() == 7);
        // ALLOC 0 is not pulled (a buffer node waits for it): it runs as soon as it can, and
        // ALLOC 1 (pulled) just before its first user.
        if (order == "schedule" || order == "reuse") CHECK(r.inputOrder == Order{0, 2, 1, 3, 5, 4, 6});
    }
}

TEST_CASE("cost parameters at their limits cannot overflow the cycles") {
    // The largest Size and cycles per byte: a spill would take 2^56 cycles, over the stated
    // limit of 2^39 per spill node: an error naming it, not negative start times.
    const Bytes big = limits::kMaxBytes;
    const std::string g = R"({"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":)" + std::to_string(big) +
                          R"(,"Type":"L1"},{"Id":1,"Op":"W","Pipe":"V","Cycles":4294967296,"Bufs":[0]},)"
                          R"({"Id":2,"Op":"FREE","BufId":0,"Size":)" + std::to_string(big) +
                          R"(,"Type":"L1"}],"Edges":[[0,1],[1,2]]})";
    RunOptions o;
    o.capacities = Capacities{{"L1", big}};
    o.cost = CostModel::parse("seed");
    o.cost.cyclesPerByte = limits::kMaxCyclesPerByte;
    const ErrorPlace where = placeOf([&] { run(parseGraphDocument(g), o); });
    REQUIRE(where.limit);
    CHECK(where.limit->name == "spillCycles");
    CHECK(where.limit->max == limits::kMaxSpillCycles);
    CHECK(where.buffer == 0);
    // Within the limits the sums are exact: the issue's case (seed model, 2^20 cycles per byte)
    // plans with every start time non-negative and the total the verifier recomputes.
    GraphDocument doc = parseGraphDocument(exampleGraphJson("tiled-matmul-small"));
    RunOptions seed;
    seed.cost = CostModel::parse("seed");
    seed.cost.cyclesPerByte = limits::kMaxCyclesPerByte;
    seed.cost.fixedLatency = limits::kMaxFixedLatency;
    seed.orderSource = "id";
    Result r = planVerified(doc, seed);
    REQUIRE(r.metrics.spills > 0);
    for (const NodeTiming& t : r.timing.nodes) CHECK((t.start >= 0 && t.end >= t.start));
    CHECK(r.metrics.totalCycles > limits::kMaxFixedLatency);
    // A chain of nodes of the largest Cycles adds up exactly.
    nlohmann::ordered_json chain;
    chain["Nodes"] = nlohmann::ordered_json::array();
    chain["Edges"] = nlohmann::ordered_json::array();
    for (int i = 0; i < 1000; ++i) {
        chain["Nodes"].push_back({{"Id", i}, {"Op", "W"}, {"Pipe", "P"}, {"Cycles", limits::kMaxCycles}, {"Bufs", nlohmann::json::array()}});
        if (i) chain["Edges"].push_back({i - 1, i});
    }
    Result c = planVerified(parseGraphDocument(chain.dump()));
    CHECK(c.metrics.totalCycles == 1000 * limits::kMaxCycles);
    // Parameters out of range, as the bindings would pass them.
    CHECK(placeOf([] { parseRunOptions(R"({"cost":{"model":"seed","cyclesPerByte":1048577}})"); }).limit->name ==
          "cyclesPerByte");
    CHECK(placeOf([] { parseRunOptions(R"({"cost":{"model":"seed","fixedLatency":4294967297}})"); }).limit->name ==
          "fixedLatency");
}

TEST_CASE("nesting: deep arrays are refused at the limit, without recursion, and messages stay short") {
    const std::string deep(100000, '[');
    CHECK(inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[],"Edges":)" + deep); }) ==
          "line 1, column 23: Edges[0] must be [src, dst] with two node ids, got an array");
    CHECK(inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[],"Order":)" + deep); }) ==
          "line 1, column 22: Order[0] must be a node id, got an array");
    const ErrorPlace where = placeOf([&] { parseGraphDocument(R"({"Nodes":[],"Meta":)" + deep); });
    REQUIRE(where.limit);
    CHECK(where.limit->name == "depth");
    CHECK(where.column == 20 + limits::kMaxDepth - 1);  // the first '[' beyond the limit
    CHECK(placeOf([&] { parseRunOptions(R"({"x":)" + deep); }).limit->name == "depth");
    CHECK(placeOf([&] { readResultFile(R"({"format":2,"order":)" + deep); }).source == "result");
    // 32 levels are fine (an unknown field is skipped whole).
    std::string ok = R"({"Nodes":[],"Meta":)" + std::string(limits::kMaxDepth - 1, '[') +
                     std::string(limits::kMaxDepth - 1, ']') + "}";
    CHECK(parseGraphDocument(ok).graph.nodes.empty());
}

TEST_CASE("errors that were not errors: NUL, trailing garbage, huge tokens, invalid UTF-8") {
    CHECK(inputErrorOf([] { parseGraphDocument(smallGraph() + std::string("\0garbage", 8)); }) ==
          "line 1, column 204: the graph contains a NUL byte: not JSON text");
    CHECK(inputErrorOf([] { parseGraphDocument(smallGraph() + " x"); }).find("expected end of input") !=
          std::string::npos);
    const std::string number(1 << 20, '9');
    const std::string msg = inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[{"Id":)" + number + "}]}"); });
    CHECK(msg.size() < 200);
    CHECK(msg.find("(1048576 bytes)") != std::string::npos);
    // An invalid byte in the text never makes an invalid message (the bindings' JSON error would throw).
    const std::string bad = inputErrorOf([] { parseGraphDocument("{\"Nodes\":[{\"Id\":0,\"Op\":\"A\xff\"}]}"); });
    CHECK(printable(bad) == bad);
    CHECK(printable("a\xff\xc0 b\n") == "a\xEF\xBF\xBD\xEF\xBF\xBD b ");
    CHECK(printable("\xE2\x82\xAC ok") == "\xE2\x82\xAC ok");
    CHECK(excerpt(std::string(100, 'x'), 10) == "xxxxxxxxxx... (100 bytes)");
    // Keys are not case-folded or merged: a repeated key is an error, not a silent overwrite.
    CHECK(inputErrorOf([] {
              parseGraphDocument(R"({"Nodes":[{"Id":0,"Id":1,"Op":"NOP","Pipe":"P","Cycles":1,"Bufs":[]}]})");
          }) == "line 1, column 19: Nodes[0]: field \"Id\" appears twice");
}

TEST_CASE("numbers with a fraction or an exponent that are integers read as integers; others stay refused") {
    const Graph g = parseGraphDocument(R"({"Nodes":[{"Id":1e0,"Op":"ALLOC","BufId":0.0,"Size":128e0,"Type":"L1"},)"
                                       R"({"Id":2.0,"Op":"ADD","Pipe":"V","Cycles":0.5e1,"Bufs":[-0e3]},)"
                                       R"({"Id":30E-1,"Op":"FREE","BufId":0,"Size":1.28E+2,"Type":"L1"}]})")
                        .graph;
    REQUIRE(g.nodes.size() == 3);
    CHECK(g.nodes[0].id == 1);
    CHECK(g.nodes[0].size == 128);
    CHECK(g.nodes[1].id == 2);
    CHECK(g.nodes[1].cycles == 5);
    CHECK(g.nodes[1].bufs == std::vector<BufferId>{0});
    CHECK(g.nodes[2].id == 3);
    CHECK(g.nodes[2].size == 128);
    auto sizeError = [](const std::string& size) {
        return inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":)" + size + R"(,"Type":"L1"}]})"); });
    };
    CHECK(sizeError("1.5") == "line 1, column 49: node 0: field \"Size\" must be an integer, got a non-integer number");
    CHECK(sizeError("1e-400") == "line 1, column 49: node 0: field \"Size\" must be an integer, got a non-integer number");
    CHECK(sizeError("68719476737e0") == "line 1, column 49: node 0: field \"Size\" must be between 1 and 68719476736, got 68719476737e0");
    CHECK(sizeError("1e30") == "line 1, column 49: node 0: field \"Size\" must be between 1 and 68719476736, got 1e30");
    CHECK(sizeError("-1e30") == "line 1, column 49: node 0: field \"Size\" must be an integer, got a non-integer number");
    CHECK(sizeError("1e400") == "line 1, column 49: the graph is not valid JSON: number overflow parsing '1e400'");
    CHECK(sizeError("1e99999999999999999999") ==
          "line 1, column 49: the graph is not valid JSON: number overflow parsing '1e99999999999999999999'");
    // Decided on the digits, not a double: 2^53 + 1 is not rounded to 2^53.
    CHECK(json::detail::numberScalar("9007199254740993e0").integer == 9007199254740993);
    CHECK(json::detail::numberScalar("9223372036854775807.0").integer == INT64_MAX);
    CHECK(json::detail::numberScalar("9223372036854775808.0").beyondInt64);
    CHECK(json::detail::numberScalar("-9223372036854775808.0").integer == INT64_MIN);
    CHECK(json::detail::numberScalar("-9223372036854775809.0").kind == json::Kind::Float);
}

TEST_CASE("an unused field is skipped while reading: its strings are checked, not built, and places stay right") {
    const std::string big(1 << 20, 'x');
    const std::string nodes = R"("Nodes":[{"Id":0,"Note":")" + big + R"(","Op":"ALLOC","BufId":0,"Size":1,"Type":"L1"},)"
                              R"({"Id":1,"Op":"FREE","BufId":0,"Size":1,"Type":"L1"}])";
    const std::string unused = R"("Comment":")" + big + R"(\"\u00e9\ud83d\ude00\n","X":[{"a":")" + big + R"(","b":[1,"]"]}])";
    const GraphDocument doc = parseGraphDocument("{" + unused + "," + nodes + R"(,"Edges":[[0,1]]})");
    CHECK(doc.graph.nodes.size() == 2);
    CHECK(doc.graph.edges.size() == 1);
    // Errors after a skipped string are placed where they are in the text.
    std::string text = "{" + unused + R"(,"Nodes":[{"Id":"5"}]})";
    CHECK(inputErrorOf([&] { parseGraphDocument(text); }) ==
          "line 1, column " + std::to_string(text.find(R"("5")") + 1) + ": Nodes[0]: field \"Id\" must be an integer, got a string");
    text = "{" + unused + R"(,"Nodes":[}})";
    CHECK(inputErrorOf([&] { parseGraphDocument(text); }) ==
          "line 1, column " + std::to_string(text.find("[}") + 2) +
              ": the graph is not valid JSON: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal");
    // What the JSON library refuses in a string, it still refuses in an unused one, at the same place.
    for (const std::string& bad : {std::string("a\tb"), std::string("a\xff"), std::string("\\udc00"), std::string("\\q")}) {
        const std::string used = inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[{"Op":")" + bad + R"("}]})"); });
        const std::string skipped = inputErrorOf([&] { parseGraphDocument(R"({"Nodes":[{"Opx":")" + bad + R"("}]})"); });
        CHECK(used.find("not valid JSON") != std::string::npos);
        CHECK(used.substr(used.find(": ")) == skipped.substr(skipped.find(": ")));
    }
}

TEST_CASE("arrayEntryOffset finds the entry past a count, over strings and nested containers") {
    const std::string text = R"({"E": [ [0,1], {"a":[2,3]}, "x,]\",", 7 ,[]]})";
    const std::size_t open = text.find('[');
    CHECK(json::arrayEntryOffset(text, open, 1) == text.find("{\"a\""));
    CHECK(json::arrayEntryOffset(text, open, 2) == text.find("\"x"));
    CHECK(json::arrayEntryOffset(text, open, 3) == text.find('7'));
    CHECK(json::arrayEntryOffset(text, open, 4) == text.find("[]"));
    CHECK(json::arrayEntryOffset(text, open, 5) == std::string::npos);
}

TEST_CASE("the stated limits are enforced with the limit named") {
    auto limitOf = [](const std::function<void()>& f) {
        const ErrorPlace w = placeOf(f);
        REQUIRE(w.limit);
        return w.limit->name + "=" + std::to_string(w.limit->max);
    };
    std::string caps;
    for (int i = 0; i <= limits::kMaxMemories; ++i) caps += (i ? "," : "") + ("\"M" + std::to_string(i) + "\":1");
    CHECK(limitOf([&] { parseGraphDocument(smallGraph(R"(,"Capacities":{)" + caps + "}")); }) == "memories=256");
    CHECK(limitOf([&] { parseRunOptions(R"({"capacities":{)" + caps + "}}"); }) == "memories=256");
    // Distinct Types count as memories too, and the error is located at the buffer that is one too many.
    std::string types;
    for (int i = 0; i <= limits::kMaxMemories; ++i)
        types += (i ? "," : "") + std::string(R"({"Id":)") + std::to_string(2 * i) + R"(,"Op":"ALLOC","BufId":)" +
                 std::to_string(i) + R"(,"Size":1,"Type":"T)" + std::to_string(i) + R"("},{"Id":)" +
                 std::to_string(2 * i + 1) + R"(,"Op":"FREE","BufId":)" + std::to_string(i) + R"(,"Size":1,"Type":"T)" +
                 std::to_string(i) + R"("})";
    const ErrorPlace many = placeOf([&] { parseGraphDocument(R"({"Nodes":[)" + types + "]}"); });
    REQUIRE(many.limit);
    CHECK(many.limit->name == "memories");
    CHECK(many.buffer == limits::kMaxMemories);
    CHECK(many.line == 1);
    CHECK(many.column.value_or(0) > 10000);
    std::string bufs = "0";
    for (int i = 1; i <= limits::kMaxBufsPerNode; ++i) bufs += ",0";
    CHECK(limitOf([&] {
              parseGraphDocument(R"({"Nodes":[{"Id":0,"Op":"A","Pipe":"P","Cycles":1,"Bufs":[)" + bufs + "]}]}");
          }) == "bufsPerNode=64");
    CHECK(limitOf([&] { parseGraphDocument(R"({"Nodes":[{"Id":0,"Op":")" + std::string(300, 'x') + R"("}]})"); }) ==
          "nameBytes=256");
    CHECK(limitOf([] { parseGraphDocument(R"({"Nodes":[{"Id":1073741824}]})"); }) == "nodeId=1073741823");
    CHECK(limitOf([] { parseGraphDocument(R"({"Nodes":[{"Id":0,"Op":"A","Pipe":"P","Cycles":4294967297,"Bufs":[]}]})"); }) ==
          "cycles=4294967296");
    CHECK(limitOf([] {
              parseGraphDocument(R"({"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":68719476737,"Type":"L1"}]})");
          }) == "bytes=68719476736");
    CHECK(limitOf([] { parseCapacityList("L1=68719476737"); }) == "bytes=68719476736");
}

TEST_CASE("a result file: every claim is read, ids too large for a node are kept for the verifier") {
    GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    RunOptions o;
    o.orderSource = "schedule";
    const Result r = planVerified(doc, o);
    REQUIRE(!r.plan.spills.empty());
    nlohmann::json j = nlohmann::json::parse(resultToJson(doc.graph, r));
    ResultFile back = readResultFile(j.dump());
    CHECK(back.plan.order == r.plan.order);
    CHECK(back.plan.addedEdges == r.plan.addedEdges);
    CHECK(back.claims.totalCycles == r.metrics.totalCycles);
    CHECK(back.claims.timing.size() == r.timing.nodes.size());
    CHECK(verifyResult(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty());
    // An edge id of 2^32 + k used to be read as k.
    j["addedEdges"].push_back({(std::int64_t{1} << 32) + r.plan.spills[0].outNode, r.plan.spills[0].inNode});
    back = readResultFile(j.dump());
    REQUIRE(back.claims.foreignEdges.size() == 1);
    CHECK(back.plan.addedEdges == r.plan.addedEdges);
    const auto vs = verifyResult(doc.graph, r.capacities, back.cost, back.plan, back.claims);
    REQUIRE(vs.size() == 1);
    CHECK(vs[0].kind == ViolationKind::Edges);
    CHECK(vs[0].message.find(std::to_string((std::int64_t{1} << 32) + r.plan.spills[0].outNode)) != std::string::npos);
    // Waits are read back whole; a result without them (written before they existed) is read too;
    // a wait that is not one is an error naming its place.
    REQUIRE(back.claims.waits);
    CHECK(back.claims.waits->size() == r.timing.nodes.size());
    CHECK(back.claims.waits->at(3).cause == waitCauseName(r.timing.nodes[3].wait.cause));
    nlohmann::json older = j;
    older.erase("waits");
    CHECK(!readResultFile(older.dump()).claims.waits);
    nlohmann::json bad = j;
    bad["waits"][2]["cause"] = "traffic";
    CHECK(inputErrorOf([&] { readResultFile(bad.dump()); })
              .find("waits[2]: field \"cause\" must be \"none\", \"edge\", \"pipe\" or \"address\", got \"traffic\"") !=
          std::string::npos);
    bad = j;
    bad["waits"][1] = {1, 2};
    CHECK(inputErrorOf([&] { readResultFile(bad.dump()); }).find("waits[1] must be an object, got an array") != std::string::npos);
    bad = j;
    bad["waits"][1]["cycles"] = "many";
    CHECK(inputErrorOf([&] { readResultFile(bad.dump()); }).find("waits[1]: field \"cycles\"") != std::string::npos);
    // Missing claims are input errors naming the field.
    j.erase("timing");
    CHECK(inputErrorOf([&] { readResultFile(j.dump()); }) == "line 1, column 1: the result: field \"timing\" is missing");
}

TEST_CASE("verifyResult catches each falsified claim, with its field") {
    GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    RunOptions o;
    o.orderSource = "schedule";
    const Result r = planVerified(doc, o);
    REQUIRE(!r.plan.spills.empty());
    const ResultClaims good = claimsOf(r);
    auto firstOf = [&](ResultClaims c, Plan p = {}, std::optional<CostModel> cost = std::nullopt) {
        if (p.order.empty()) p = r.plan;
        const auto vs = verifyResult(doc.graph, r.capacities, cost.value_or(r.cost), p, c);
        REQUIRE(!vs.empty());
        return vs.front();
    };
    ResultClaims c = good;
    c.extraBytes += 1;
    CHECK(firstOf(c).field == "metrics.extraBytes");
    c = good;
    c.spills -= 1;
    CHECK(firstOf(c).field == "metrics.spills");
    c = good;
    c.totalCycles += 7;
    CHECK(firstOf(c).field == "metrics.totalCycles");
    c = good;
    c.residentPeak.begin()->second += 1;
    CHECK(firstOf(c).kind == ViolationKind::Metrics);
    c = good;
    c.timing.back().start -= 1;
    const Violation t = firstOf(c);
    CHECK(t.kind == ViolationKind::Timing);
    CHECK(t.field == "timing[" + std::to_string(good.timing.size() - 1) + "]");
    Plan p = r.plan;
    p.addedNodes[0].cycles += 1;
    const Violation sc = firstOf(good, p);
    CHECK(sc.kind == ViolationKind::SpillCycles);
    CHECK(sc.node == p.addedNodes[0].id);
    CHECK(firstOf(good, r.plan, CostModel::parse("seed")).kind == ViolationKind::SpillCycles);
    c = good;
    std::swap(c.inputOrder.front(), c.inputOrder.back());
    CHECK(firstOf(c).kind == ViolationKind::Order);
    // Waits: each member, the pipe, and the count; a result without them (older) still verifies.
    REQUIRE(good.waits);
    const std::size_t last = good.waits->size() - 1;
    const std::string lastField = "waits[" + std::to_string(last) + "]";
    for (int member = 0; member < 5; ++member) {
        CAPTURE(member);
        c = good;
        ResultClaims::NodeWait& w = c.waits->back();
        if (member == 0) w.cause = w.cause == "edge" ? "pipe" : "edge";
        if (member == 1) w.node += 1;
        if (member == 2) w.buffer += 1;
        if (member == 3) w.cycles -= 1;
        if (member == 4) w.pipe = w.pipe.empty() ? "MTE2" : "";
        const Violation v = firstOf(c);
        CHECK(v.kind == ViolationKind::Timing);
        CHECK(v.field == lastField);
        CHECK(v.step == static_cast<std::int64_t>(last));
    }
    c = good;
    c.waits->pop_back();
    CHECK(firstOf(c).field == "waits");
    c = good;
    c.waits.reset();
    CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, c).empty());
}

TEST_CASE("property: random graphs with the new shapes, odd memory names and extreme costs, every policy, order and model") {
    int plans = 0, withSpills = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        RandomGraphParams p;
        p.operations = 8 + static_cast<int>(seed % 25);
        p.allocEdgePercent = static_cast<int>(seed * 7 % 50);
        p.bufferlessPercent = static_cast<int>(seed * 11 % 30);
        // Memory names a reader would not expect: spaces, punctuation, non-ASCII, the longest allowed.
        p.memories = {"L1 main", "ü=€,", std::string(limits::kMaxNameBytes, 'm')};
        p.maxBytes = 64;
        for (const std::string& m : p.memories) p.capacities[m] = 128 + static_cast<Bytes>(seed % 5) * 16;
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, p));
        for (const std::string& order : kOrders)
            for (const std::string& policy : policyNames())
                for (int model = 0; model < 3; ++model) {
                    CAPTURE(seed);
                    CAPTURE(order);
                    CAPTURE(policy);
                    CAPTURE(model);
                    RunOptions o;
                    o.orderSource = order;
                    o.policy = policy;
                    o.cost = CostModel::parse(model == 0 ? "contest" : "seed");
                    if (model == 2) {  // the largest parameters the limits allow for these sizes
                        o.cost.fixedLatency = limits::kMaxFixedLatency;
                        o.cost.cyclesPerByte = limits::kMaxCyclesPerByte;
                    }
                    const Result r = planVerified(doc, o);
                    ++plans;
                    if (!r.plan.spills.empty()) ++withSpills;
                }
    }
    MESSAGE(plans << " plans of shaped random graphs, " << withSpills << " with spills");
    CHECK(withSpills > plans / 4);
}

}  // TEST_SUITE
