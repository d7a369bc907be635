// The program form (docs/programs.md): its translation to the graph model, its errors with line
// and column, the plan printed back as the program, and What if (a forced spill).
#include <algorithm>

#include "spillway/program.h"
#include "spillway/program_text.h"
#include "support.h"

using namespace spillway;
using spillway::test::inputErrorOf;
using spillway::test::planVerified;

namespace {

// Three registers; d's load needs room while a, b and c are resident: Belady writes out b
// (next used last), LRU and FIFO a.
constexpr const char* kThree = R"(registers 3
a = load
b = load
c = mul a b   # c is computed: dirty
d = load
use a
use d
use c
use b
)";

Result planProgram(const std::string& text, const std::string& policy) {
    RunOptions opts;
    opts.policy = policy;
    return planVerified(parseGraphDocument(text), opts);
}

std::string rewritten(const std::string& text, const RunOptions& opts) {
    const GraphDocument doc = parseGraphDocument(text);
    const Result r = planVerified(doc, opts);
    return programText(rewriteProgram(*doc.program, doc.graph, r.plan));
}

std::string rewritten(const std::string& text, const std::string& policy) {
    RunOptions opts;
    opts.policy = policy;
    return rewritten(text, opts);
}

int countLines(const std::string& text, const std::string& prefix) {
    int n = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t end = text.find('\n', at);
        if (text.compare(at, prefix.size(), prefix) == 0) ++n;
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return n;
}

}  // namespace

TEST_CASE("program: translated to ALLOC, COPY_IN / operation, FREE after the last read, in program order") {
    const GraphDocument doc = parseGraphDocument(kThree);
    const Graph& g = doc.graph;
    REQUIRE(doc.program);
    CHECK(doc.capacities == Capacities{{"REG", 3}});
    REQUIRE(g.buffers.size() == 4);
    for (const Buffer& b : g.buffers) {
        CHECK(b.size == 1);
        CHECK(b.type == "REG");
    }
    CHECK(g.buffers[0].hasCopyIn);
    CHECK(!g.buffers[2].hasCopyIn);  // c is computed
    std::vector<std::string> ops;
    for (const Node& n : g.nodes) ops.push_back(n.op);
    CHECK(ops == std::vector<std::string>{"ALLOC", "COPY_IN", "ALLOC", "COPY_IN", "ALLOC", "MUL", "ALLOC", "COPY_IN",
                                          "USE", "FREE", "USE", "FREE", "USE", "FREE", "USE", "FREE"});
    CHECK(g.nodes[5].bufs == std::vector<BufferId>{2, 0, 1});  // the value defined first
    REQUIRE(doc.order);
    CHECK(doc.order->size() == g.nodes.size());
    CHECK(std::is_sorted(doc.order->begin(), doc.order->end()));
    CHECK(doc.program->valueNames == std::vector<std::string>{"a", "b", "c", "d"});
    REQUIRE(doc.program->statements.size() == 8);
    CHECK(doc.program->statements[2].text == "c = mul a b");  // without its comment
    CHECK(doc.program->statements[2].line == 4);
    CHECK(doc.program->statements[2].defines == 2);
    // The graph it prints reads back as the same graph (spillway translate).
    const GraphDocument back = parseGraphDocument(graphToJson(doc));
    CHECK(!back.program);
    CHECK(back.graph.nodes.size() == g.nodes.size());
    CHECK(back.graph.edges == g.edges);
    CHECK(back.order == doc.order);
}

TEST_CASE("program: a new value per assignment; sizes; a cache in bytes") {
    const GraphDocument doc = parseGraphDocument(
        "\xEF\xBB\xBF  \n# a byte order mark first\ncache 64 bytes\n"
        "x:16 = load\ny:8 = add x\nx = sub y x\nstore x\n");
    CHECK(doc.capacities == Capacities{{"CACHE", 64}});
    REQUIRE(doc.graph.buffers.size() == 3);
    CHECK(doc.graph.buffers[0].size == 16);
    CHECK(doc.graph.buffers[1].size == 1 * 8);
    CHECK(doc.graph.buffers[2].size == 1);
    CHECK(doc.program->valueNames == std::vector<std::string>{"x", "y", "x"});
    // `x = sub y x` reads the first x and defines the second
    const Node& sub = doc.graph.nodes[doc.program->statements[2].node];
    CHECK(sub.op == "SUB");
    CHECK(sub.bufs == std::vector<BufferId>{2, 1, 0});
    const Node& store = doc.graph.nodes[doc.program->statements[3].node];
    CHECK(store.op == "COPY_OUT");
    CHECK(store.bufs == std::vector<BufferId>{2});
}

TEST_CASE("program: errors name their line and column") {
    auto error = [](const std::string& text) { return inputErrorOf([&] { parseGraphDocument(text); }); };
    CHECK(error("a = load\n") == "line 1, column 1: the memory comes first: `registers K` or `cache N bytes`");
    CHECK(error("registers 2\nuse a\n") == "line 2, column 5: value \"a\" is read before it is defined");
    CHECK(error("registers 2\nregisters 3\n").find("line 2, column 1: a second memory line") == 0);
    CHECK(error("registers 0\n") == "line 1, column 11: the capacity must be between 1 and 68719476736");
    CHECK(error("registers two\n") == "line 1, column 11: the capacity must be a whole number, got \"two\"");
    CHECK(error("registers 2\na:3 = load\n") == "line 2, column 3: a value of 3 does not fit the memory (registers 2)");
    CHECK(error("registers 2\na = load\nb = load\nc = add a b\n") ==
          "line 4, column 1: this instruction needs 3 at once, more than the memory (registers 2)");
    CHECK(error("registers 2\nuse = load\n") == "line 2, column 1: \"use\" is a keyword, not a name");
    CHECK(error("registers 2\na = load b\n") ==
          "line 2, column 10: `load` reads nothing: its value comes from main memory");
    CHECK(error("registers 2\na = spill_out\n") ==
          "line 2, column 5: \"spill_out\" is reserved: name the operation otherwise");
    CHECK(error("registers 2\na = load;\n") == "line 2, column 9: unexpected character \";\"");
    CHECK(error("registers 2\n# nothing\n") ==
          "line 1, column 1: the program has no instruction after its memory line");
    CHECK(error("registers 2\na\n").find("line 2, column 1: expected `NAME = load`") == 0);
    CHECK(error("registers 2\n9a = load\n") == "line 2, column 1: a name starts with a letter or _, got \"9a\"");
    // JSON stays JSON: its own errors
    CHECK(error("[1,2]").find("must be a JSON object") != std::string::npos);
}

TEST_CASE("program: the rewritten program, one reload line per spill, registers named") {
    CHECK(rewritten(kThree, "belady") ==
          "registers 3\n"
          "a = load     # a in r0\n"
          "b = load     # b in r1\n"
          "c = mul a b  # c in r2\n"
          "spill b      # b leaves r1: clean, nothing is written\n"
          "d = load     # d in r1\n"
          "use a\n"
          "use d\n"
          "use c\n"
          "reload b     # b in r0\n"
          "use b\n");
    for (const char* policy : {"lru", "fifo", "residency", "lifetime", "best", "seed", "window"}) {
        CAPTURE(policy);
        const std::string text = rewritten(kThree, policy);
        const Result r = planProgram(kThree, policy);
        CHECK(countLines(text, "reload ") == static_cast<int>(r.plan.spills.size()));
        CHECK(countLines(text, "spill ") == static_cast<int>(r.plan.spills.size()));
        CHECK(countLines(text, "use ") == 4);
    }
    // The result JSON carries the lines with their steps in the new order.
    const GraphDocument doc = parseGraphDocument(kThree);
    RunOptions opts;
    opts.policy = "belady";
    const std::string json = resultToJson(doc, planVerified(doc, opts));
    CHECK(json.find(R"("program":{"unit":"registers","lines":[{"text":"registers 3","step":-1},)") !=
          std::string::npos);
    CHECK(json.find(R"({"text":"reload b     # b in r0","step":)") != std::string::npos);
    CHECK(resultToJson(doc.graph, planVerified(doc, opts)).find("\"program\"") == std::string::npos);
}

TEST_CASE("program: textbook policies pick the victims of their rules, and say why") {
    const Result belady = planProgram(kThree, "belady");
    const Result lru = planProgram(kThree, "lru");
    const Result fifo = planProgram(kThree, "fifo");
    REQUIRE(belady.plan.spills.size() == 1);
    CHECK(belady.plan.spills[0].buf == 1);  // b: next used last
    REQUIRE(lru.plan.spills.size() == 2);
    CHECK(lru.plan.spills[0].buf == 0);  // a: loaded first, used by mul together with b and c
    CHECK(fifo.plan.spills[0].buf == 0);
    CHECK(belady.metrics.extraBytes == planProgram(kThree, "residency").metrics.extraBytes);
    for (const Result* r : {&belady, &lru, &fifo}) {
        const auto spill = std::find_if(r->plan.decisions.begin(), r->plan.decisions.end(),
                                        [](const Decision& d) { return d.kind == Decision::Kind::Spill; });
        REQUIRE(spill != r->plan.decisions.end());
        CHECK(!spill->formula.empty());
        CHECK(spill->reason.find("written out to make room") != std::string::npos);
    }
    CHECK(lru.plan.decisions.size() > 0);
}

TEST_CASE("what if: a forced spill is the plan's, the policy planning the rest; bad forces name the step") {
    const GraphDocument doc = parseGraphDocument(kThree);
    // At d's ALLOC (step 6) force c out instead of b: c is dirty (2 units moved), b comes back free.
    for (const char* policy : {"belady", "lru", "fifo", "lifetime", "residency"}) {
        CAPTURE(policy);
        RunOptions opts;
        opts.policy = policy;
        opts.force = ForcedSpill{6, 2};
        const Result r = planVerified(doc, opts);
        REQUIRE(!r.plan.spills.empty());
        CHECK(std::any_of(r.plan.spills.begin(), r.plan.spills.end(), [](const Spill& s) { return s.buf == 2; }));
        CHECK(r.metrics.extraBytes >= 2);
        const auto forced = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(), [](const Decision& d) {
            return d.kind == Decision::Kind::Spill && d.buf == 2;
        });
        REQUIRE(forced != r.plan.decisions.end());
        CHECK(forced->reason.find("because you chose it") != std::string::npos);
    }
    RunOptions opts;
    opts.policy = "belady";
    opts.force = ForcedSpill{6, 2};
    CHECK(rewritten(kThree, opts).find("spill c      # c leaves r2: written out to memory\n") != std::string::npos);
    auto error = [&](const std::string& policy, int step, BufferId buffer) {
        RunOptions o;
        o.policy = policy;
        o.force = ForcedSpill{step, buffer};
        return inputErrorOf([&] { run(doc, o); });
    };
    CHECK(error("best", 6, 2) ==
          "policy best cannot take a forced spill: choose one of lifetime, residency, belady, lru, fifo");
    CHECK(error("seed", 6, 2).find("policy seed cannot take a forced spill") == 0);
    CHECK(error("belady", 99, 2) == "forced spill: step 99 is not in the order (0..15)");
    CHECK(error("belady", 6, 9) == "forced spill: no buffer 9 in the graph");
    for (const char* policy : {"belady", "residency"}) {
        CAPTURE(policy);
        // step 5 is mul, which uses c; step 1 comes before c exists
        CHECK(error(policy, 5, 2) ==
              "forced spill: buffer 2 at step 5: it is not resident there, or the node at that step uses it");
        CHECK(error(policy, 1, 2) ==
              "forced spill: buffer 2 at step 1: it is not resident there, or the node at that step uses it");
    }
    RunOptions cycles;
    cycles.policy = "belady";
    cycles.force = ForcedSpill{6, 2};
    cycles.objective = Objective::Cycles;
    CHECK(inputErrorOf([&] { run(doc, cycles); }) == "a forced spill is planned under objective bytes only");
}

TEST_CASE("what if: the bindings' options read force, and refuse it malformed") {
    const RunOptions o = parseRunOptions(R"({"policy":"lru","force":{"step":6,"buffer":2}})");
    REQUIRE(o.force);
    CHECK(o.force->step == 6);
    CHECK(o.force->buffer == 2);
    CHECK(inputErrorOf([] { parseRunOptions(R"({"force":{"step":6}})"); }).find("needs \"step\" and \"buffer\"") !=
          std::string::npos);
    CHECK(inputErrorOf([] {
              parseRunOptions(R"({"force":{"step":-1,"buffer":2}})");
          }).find("options.force.step must be an integer between 0 and") != std::string::npos);
    CHECK(inputErrorOf([] { parseRunOptions(R"({"force":{"stp":1,"buffer":2}})"); }).find("unknown field \"stp\"") !=
          std::string::npos);
    CHECK(inputErrorOf([] { parseRunOptions(R"({"force":3})"); }).find("must be an object") != std::string::npos);
}

TEST_CASE("program: mangled programs give a verified plan, its lines read back, or an InputError") {
    const std::string base = std::string(kThree) + "store c\nx:2 = add d\nuse x a\n";
    spillway::test::Mutator mutate(7, "abcdx0129 =:#\n\tloadusetrgi", 8);
    int planned = 0, rejected = 0;
    for (int i = 0; i < 2000; ++i) {
        const std::string text = mutate(base);
        CAPTURE(text);
        try {
            const GraphDocument doc = parseGraphDocument(text);
            RunOptions opts;
            opts.policy = i % 2 ? "lru" : "best";
            const Result r = planVerified(doc, opts);
            const ResultFile back = readResultFile(resultToJson(doc, r));
            CHECK(verifyResult(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty());
            ++planned;
        } catch (const InputError& e) {
            CHECK(std::string(e.what()).find("line ") == 0);
            ++rejected;
        }
    }
    MESSAGE(planned << " mangled programs planned, " << rejected << " rejected with their line");
    CHECK(planned > 200);
    CHECK(rejected > 200);
}

TEST_CASE("program: too many nodes for the engine or the host is refused at the line that passes it") {
    std::string text = "registers 2\n";
    for (int i = 0; i < 10; ++i) text += "a = load\n";
    const HostNodeLimit host{12, "the browser", "browserNodes", ": plan it with the command-line tool"};
    try {
        parseGraphDocument(text, host);
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "line 6, column 1: the program is too large for the browser: its graph passes 12 nodes "
              "(limit browserNodes = 12): plan it with the command-line tool");
        REQUIRE(e.where.limit);
        CHECK(e.where.limit->name == "browserNodes");
        CHECK(e.where.line == 6);  // the fifth load: its ALLOC is the 13th node
    }
    CHECK(parseGraphDocument(text).graph.nodes.size() == 30);
}
