// Sizes of 2^31 bytes and more, up to limits::kMaxBytes = 2^36: every policy, order source and
// objective plans them, verified, with the data moved and the bound exactly as small sizes have
// them. Traffic times a size does not fit 64 bits there (2^37 * 2^36), nor a size 32.
#include <string>
#include <optional>
#include <vector>

#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/limits.h"
#include "support.h"

using namespace spillway;
using spillway::test::planVerified;

namespace {

// The sizes around each power of two a 32-bit or a product of two sizes would break at.
const Bytes kLargeSizes[] = {
    (Bytes{1} << 31) - 1, Bytes{1} << 31, (Bytes{1} << 31) + 1, (Bytes{1} << 32) - 1,
    Bytes{1} << 32,       (Bytes{1} << 32) + 1, (Bytes{1} << 33) + 1, limits::kMaxBytes,
};

std::vector<std::string> allOrderSources() {
    std::vector<std::string> names;
    for (const OrderSourceInfo& s : orderSourceList()) names.push_back(s.name);
    return names;
}

// Three buffers of `size` in one memory, each filled by an operation (buffer 1's by a COPY_IN
// when `middleCopyIn`), then each read and freed, in the one order the chain of edges allows:
//   A0 W0 A1 W1 A2 W2 R0 F0 R1 F1 R2 F2   (steps 0..11)
// Buffer i idles over steps 2i+2 .. 2i+5, so 0 and 1 overlap, 1 and 2 overlap, 0 and 2 do not.
// In a memory of 2 * size, writing out buffer 1 is the one best choice (its traffic is at most
// that of 0 and 2 together); in one of size, all three; in 3 * size, none.
std::string chainGraph(Bytes size, Bytes capacity, bool middleCopyIn) {
    const std::string s = std::to_string(size);
    std::string nodes;
    int id = 0;
    auto node = [&](const std::string& fields) {
        if (!nodes.empty()) nodes += ",\n";
        nodes += "{\"Id\":" + std::to_string(id++) + "," + fields + "}";
    };
    for (int b = 0; b < 3; ++b) {
        const std::string buf = std::to_string(b);
        node("\"Op\":\"ALLOC\",\"BufId\":" + buf + ",\"Size\":" + s + ",\"Type\":\"UB\"");
        if (b == 1 && middleCopyIn) node("\"Op\":\"COPY_IN\",\"Pipe\":\"MTE2\",\"Cycles\":40,\"Bufs\":[" + buf + "]");
        else node("\"Op\":\"FILL\",\"Pipe\":\"VECTOR\",\"Cycles\":30,\"Bufs\":[" + buf + "]");
    }
    for (int b = 0; b < 3; ++b) {
        const std::string buf = std::to_string(b);
        node("\"Op\":\"USE\",\"Pipe\":\"VECTOR\",\"Cycles\":20,\"Bufs\":[" + buf + "]");
        node("\"Op\":\"FREE\",\"BufId\":" + buf + ",\"Size\":" + s + ",\"Type\":\"UB\"");
    }
    std::string edges, order = "0";
    for (int k = 0; k + 1 < id; ++k) {
        edges += std::string(k ? "," : "") + "[" + std::to_string(k) + "," + std::to_string(k + 1) + "]";
        order += "," + std::to_string(k + 1);
    }
    return "{\"Nodes\":[" + nodes + "],\"Edges\":[" + edges + "],\"Order\":[" + order + "],\"Capacities\":{\"UB\":" +
           std::to_string(capacity) + "}}";
}

// The data a plan's spills move, from its spill list alone.
Bytes spilledTraffic(const Graph& g, const Plan& plan) {
    Bytes total = 0;
    for (const Spill& s : plan.spills) total += spillTrafficBytes(g.buffer(s.buf));
    return total;
}

struct Expected {
    int spills;
    Bytes extraBytes;
};

bool isTextbook(const std::string& policy) {
    for (const PolicyInfo& p : policyList())
        if (p.name == policy) return p.textbook;
    return false;
}

// Calls `check(result, textbook)` with the verified plan of every policy on every order source
// under both objectives.
template <typename Check>
void forEveryRun(const GraphDocument& doc, const std::optional<Capacities>& caps, Check check) {
    for (const std::string& policy : policyNames())
        for (const std::string& source : allOrderSources())
            for (const Objective objective : {Objective::Bytes, Objective::Cycles}) {
                CAPTURE(policy);
                CAPTURE(source);
                CAPTURE(objectiveName(objective));
                RunOptions opts;
                opts.policy = policy;
                opts.orderSource = source;
                opts.objective = objective;
                opts.capacities = caps;
                check(planVerified(doc, opts), isTextbook(policy));
            }
}

// Every policy on every order source under both objectives: verified, with `want` exactly (the
// textbook rules, which may reload a buffer only to free it, at least `want`).
void planEverywhere(const std::string& graph, Expected want) {
    const GraphDocument doc = parseGraphDocument(graph);
    forEveryRun(doc, std::nullopt, [&](const Result& r, bool textbook) {
        CHECK(spilledTraffic(doc.graph, r.plan) == r.metrics.extraBytes);
        if (textbook) {
            CHECK(r.metrics.extraBytes >= want.extraBytes);
        } else {
            CHECK(r.metrics.spills == want.spills);
            CHECK(r.metrics.extraBytes == want.extraBytes);
        }
        // One order only, and its relaxation is integral (equal sizes): the bound is the plan's.
        CHECK(r.metrics.bound.total == want.extraBytes);
        CHECK(r.metrics.bound.exact);
        CHECK(r.metrics.totalCycles >= r.metrics.cyclesBound.plan.total);
    });
}

}  // namespace

TEST_CASE("large sizes: three buffers around 2^31, 2^32, 2^36 bytes, every policy, order source and objective") {
    for (const Bytes size : kLargeSizes) {
        CAPTURE(size);
        // A memory of one buffer: every idle stretch is written out and read back.
        planEverywhere(chainGraph(size, size, false), {3, 6 * size});
        planEverywhere(chainGraph(size, size, true), {3, 5 * size});
        if (2 * size > limits::kMaxBytes) continue;
        // Two buffers: buffer 1 alone goes out (twice its size, or once from a COPY_IN).
        planEverywhere(chainGraph(size, 2 * size, false), {1, 2 * size});
        planEverywhere(chainGraph(size, 2 * size, true), {1, size});
        if (3 * size > limits::kMaxBytes) continue;
        planEverywhere(chainGraph(size, 3 * size, false), {0, 0});
    }
}

TEST_CASE("large sizes: three ALLOCs of 2^31 bytes in 2^32 and nothing else spill one buffer, 2^32 bytes") {
    // Issue's own graph: the relaxation multiplied traffic (2^32) by the unit of the sizes (2^31).
    const std::string s = std::to_string(Bytes{1} << 31);
    std::string nodes;
    for (int b = 0; b < 3; ++b)
        nodes += "{\"Id\":" + std::to_string(b) + ",\"Op\":\"ALLOC\",\"BufId\":" + std::to_string(b) + ",\"Size\":" + s +
                 ",\"Type\":\"UB\"},";
    for (int b = 0; b < 3; ++b)
        nodes += std::string(b ? "," : "") + "{\"Id\":" + std::to_string(b + 3) + ",\"Op\":\"FREE\",\"BufId\":" +
                 std::to_string(b) + ",\"Size\":" + s + ",\"Type\":\"UB\"}";
    const GraphDocument doc = parseGraphDocument("{\"Nodes\":[" + nodes +
                                                 "],\"Edges\":[[0,3],[1,4],[2,5]],\"Order\":[0,1,2,3,4,5],"
                                                 "\"Capacities\":{\"UB\":4294967296}}");
    for (const std::string& policy : policyNames()) {
        CAPTURE(policy);
        RunOptions opts;
        opts.policy = policy;
        const Result r = planVerified(doc, opts);
        // lru and fifo write out buffer 0, then bring it back for its FREE
        const int spills = policy == "lru" || policy == "fifo" ? 2 : 1;
        CHECK(r.metrics.spills == spills);
        CHECK(r.metrics.extraBytes == spills * (Bytes{1} << 32));
        CHECK(r.metrics.bound.total == Bytes{1} << 32);
        // The cycles objective may take another order (the FREEs earlier): never more data.
        opts.objective = Objective::Cycles;
        CHECK(planVerified(doc, opts).metrics.extraBytes <= Bytes{1} << 32);
    }
}

TEST_CASE("large sizes: the worked residency problem at 2^29 times its bytes has 2^29 times its answers") {
    // Sizes 40 * 2^29 and 60 * 2^29: the branch and bound's relaxations of one gap each have that
    // gap's size as their unit, and traffic times unit overflowed.
    const Bytes k = Bytes{1} << 29;
    ResidencyProblem p = test::workedResidency();
    p.capacity *= k;
    for (Bytes& f : p.forced) f *= k;
    for (Gap& g : p.gaps) g.size *= k, g.traffic *= k;
    const Relaxation lp = relaxResidency(p);
    CHECK(lp.traffic == 20 * k);
    CHECK(lp.kept == std::vector<Bytes>{60 * k, 20 * k});
    CHECK_FALSE(lp.integral);
    const ResidencyChoice choice = chooseResidency(p);
    CHECK(choice.traffic == 40 * k);
    CHECK(choice.keep == std::vector<char>{1, 0});
    CHECK(choice.optimal);
}

TEST_CASE("large sizes: a relaxation stopped early stays a lower bound when its unsent units times the path cost pass 2^63") {
    // 2^15 gaps, each alone at its step with one byte less free than its size (about 2^35), and
    // 2^36 free at the steps between: the LP writes out one byte of each (traffic 2 each). The
    // first path crosses every gap (cost about -2^16 a unit) and the units unsent are about
    // 2^15 * 2^35: their product, the flow's floor on its cost, is about 2^66.
    const int gaps = 1 << 15;
    ResidencyProblem p;
    p.type = "UB";
    p.capacity = limits::kMaxBytes;
    p.forced.assign(2 * gaps + 1, 0);
    std::vector<Bytes> budget(p.forced.size(), limits::kMaxBytes);
    for (int i = 0; i < gaps; ++i) {
        const Bytes size = (Bytes{1} << 35) + i;  // consecutive sizes: their unit is 1 byte
        p.gaps.push_back({i, 2 * i, 2 * i + 2, size, 2 * size});
        budget[2 * i + 1] = size - 1;
    }
    const Relaxation early = relaxResidency(p, budget, 0);
    CHECK_FALSE(early.exact);
    CHECK(early.traffic >= 0);
    CHECK(early.traffic <= 2 * Bytes{gaps});
}

TEST_CASE("large sizes: random graphs with buffers of 2^31 to 2^36 bytes, every policy, order source and objective") {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        CAPTURE(seed);
        RandomGraphParams params;
        params.operations = 24;
        params.memories = {"L1", "UB"};
        params.minBytes = (Bytes{1} << 31) - 1;
        params.maxBytes = limits::kMaxBytes;
        params.capacities = {{"L1", limits::kMaxBytes}, {"UB", (Bytes{1} << 34) + 7}};
        GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, params));
        // Squeezed to 3/2 .. 5/2 of the largest node's need (at most the limit): they spill.
        Capacities caps = test::tightCapacities(doc.graph, seed);
        for (auto& [type, cap] : caps) cap = std::min(cap, limits::kMaxBytes);
        int withSpills = 0;
        forEveryRun(doc, caps, [&](const Result& r, bool) {
            CHECK(r.metrics.extraBytes == spilledTraffic(doc.graph, r.plan));
            CHECK(r.metrics.bound.total <= r.metrics.extraBytes);
            CHECK(r.metrics.totalCycles >= r.metrics.cyclesBound.plan.total);
            withSpills += r.metrics.spills > 0;
        });
        CHECK(withSpills > 0);
    }
}
