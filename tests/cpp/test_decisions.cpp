// Every decision of every policy explains itself (docs/result-format.md, "decisions"): a
// placement lists the holes it chose among, a spill the room it needed, the policy's formula and
// its candidates with their facts. The checker below replays the plan on its own (shares nothing
// with the planners) and checks each decision against the memory as it was at that moment.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "spillway/examples.h"
#include "spillway/planner.h"
#include "spillway/scale.h"
#include "support.h"

using namespace spillway;
using spillway::test::planVerified;
using spillway::test::firstDifference;

namespace {

// Resident byte ranges of one memory, replayed from the decisions.
struct Memory {
    Bytes capacity = 0;
    std::map<Bytes, std::pair<Bytes, BufferId>> busy;  // offset -> end, buffer

    std::vector<Hole> holes() const {
        std::vector<Hole> out;
        Bytes at = 0;
        for (const auto& [start, range] : busy) {
            if (start > at) out.push_back({at, start});
            at = range.first;
        }
        if (at < capacity) out.push_back({at, capacity});
        return out;
    }
};

// The step (in the input order) of buffer b's next use at `step`: its first user or FREE at or
// after it.
int nextUseAt(const Graph& g, const Order& order, BufferId b, int step) {
    const Buffer& buf = g.buffer(b);
    for (int s = step; s < static_cast<int>(order.size()); ++s) {
        const int n = g.nodeIndex.at(order[s]);
        if (n == buf.freeNode || std::find(buf.users.begin(), buf.users.end(), n) != buf.users.end()) return s;
    }
    return -1;
}

double seedScore(const Graph& g, const Candidate& c, int step) {
    const int distance = std::max(c.nextUseStep - step, 1);
    return g.buffer(c.buf).hasCopyIn ? distance : distance / 2.0;
}

void checkDecisions(const Graph& g, const Result& r) {
    const Plan& p = r.plan;
    std::map<std::string, Memory> mems;
    for (const auto& [type, cap] : r.capacities) mems[type].capacity = cap;
    std::map<NodeId, const Node*> added;
    for (const Node& n : p.addedNodes) added[n.id] = &n;
    const bool online = p.policy == "seed" || p.policy == "window";
    std::map<std::pair<int, std::string>, std::vector<BufferId>> leftAt;  // victims by (step, memory)
    for (size_t i = 0; i < p.decisions.size(); ++i) {
        const Decision& d = p.decisions[i];
        CAPTURE(i);
        CAPTURE(d.reason);
        Memory& mem = mems.at(d.type);
        // the node it emitted, in the new order
        REQUIRE(d.orderStep >= 0);
        REQUIRE(d.orderStep < static_cast<int>(p.order.size()));
        const NodeId at = p.order[d.orderStep];
        const Node& emitted = added.count(at) ? *added.at(at) : g.node(at);
        const char* op = d.kind == Decision::Kind::Place ? kAlloc : d.kind == Decision::Kind::Free ? kFree
                       : d.kind == Decision::Kind::Spill ? kSpillOut : kSpillIn;
        CHECK(emitted.op == op);
        CHECK((emitted.isBufferNode() ? emitted.buf : emitted.bufs.front()) == d.buf);
        CHECK(r.inputOrder[d.step] == d.node);

        if (d.kind == Decision::Kind::Place || d.kind == Decision::Kind::Reload) {
            // by address, disjoint, inside the memory; the one chosen holds the buffer
            REQUIRE(!d.holes.empty());
            CHECK(d.holes.size() <= static_cast<size_t>(kShownChoices));
            CHECK(d.holesTotal >= static_cast<int>(d.holes.size()));
            for (size_t k = 0; k < d.holes.size(); ++k) {
                CHECK(d.holes[k].start < d.holes[k].end);
                CHECK(d.holes[k].end <= mem.capacity);
                if (k) CHECK(d.holes[k - 1].end <= d.holes[k].start);
            }
            CHECK(std::count_if(d.holes.begin(), d.holes.end(), [&](const Hole& h) {
                      return h.start <= d.offset && d.offset + d.size <= h.end;
                  }) == 1);
            const std::vector<Hole> now = mem.holes();
            if (online) {
                // an online policy chooses among the memory's free holes of the moment, by best fit
                CHECK(d.holesTotal == static_cast<int>(now.size()));
                for (const Hole& h : d.holes) CHECK(std::find(now.begin(), now.end(), h) != now.end());
                Bytes best = -1;
                for (const Hole& h : now)
                    if (h.size() >= d.size && (best < 0 || h.size() < best)) best = h.size();
                const auto chosen = std::find_if(now.begin(), now.end(), [&](const Hole& h) { return h.start == d.offset; });
                REQUIRE(chosen != now.end());
                CHECK(chosen->size() == best);
            }
            CHECK(mem.busy.emplace(d.offset, std::make_pair(d.offset + d.size, d.buf)).second);
        } else if (d.kind == Decision::Kind::Spill) {
            const std::vector<Hole> now = mem.holes();
            Bytes free = 0, largest = 0;
            for (const Hole& h : now) {
                free += h.size();
                largest = std::max(largest, h.size());
            }
            CHECK(d.room.freeBytes == free);
            CHECK(d.room.largestHole == largest);
            CHECK(!d.formula.empty());
            // lifetime may also write out to bring a step down to a lowered budget, for no buffer
            const bool forBudget = d.reason.find("to keep the bytes resident within") != std::string::npos;
            CHECK(d.room.forBufs.empty() == forBudget);
            CHECK((d.room.need > 0) != forBudget);
            CHECK(d.room.shortfall > 0);
            Bytes need = 0;
            for (BufferId b : d.room.forBufs) need += g.buffer(b).size;
            CHECK(d.room.need == need);
            // the candidates: the victim among them, each with its true facts
            CHECK(d.candidates.size() <= static_cast<size_t>(kShownChoices) + 2);
            CHECK(d.candidatesTotal >= static_cast<int>(d.candidates.size()));
            CHECK(std::any_of(d.candidates.begin(), d.candidates.end(), [&](const Candidate& c) { return c.buf == d.buf; }));
            std::set<BufferId> seen;
            for (const Candidate& c : d.candidates) {
                CHECK(seen.insert(c.buf).second);
                CHECK(c.size == g.buffer(c.buf).size);
                CHECK(c.copyIn == g.buffer(c.buf).hasCopyIn);
                CHECK(c.nextUseStep == nextUseAt(g, r.inputOrder, c.buf, d.step));
                CHECK(g.buffer(c.buf).type == d.type);
            }
            const bool relocation = d.reason.rfind("relocated", 0) == 0;
            const bool seedRule = d.formula.rfind("score = size", 0) == 0;
            const bool lifetimeRule = d.formula.rfind("score = distance", 0) == 0;
            if (seedRule || lifetimeRule) {
                // they weigh every resident buffer of the memory the node does not use; however
                // short the list, it holds the one used furthest ahead (the page's hindsight choice)
                // (lifetime chose all its victims of a step at once, from before the first left)
                const std::vector<BufferId> nodeBufs = g.buffersOf(g.node(d.node));
                std::vector<BufferId> resident = lifetimeRule ? leftAt[{d.step, d.type}] : std::vector<BufferId>{};
                for (const auto& [start, range] : mem.busy) resident.push_back(range.second);
                int furthest = -1, weighed = 0;
                for (BufferId b : resident) {
                    if (std::find(nodeBufs.begin(), nodeBufs.end(), b) != nodeBufs.end()) continue;
                    ++weighed;
                    furthest = std::max(furthest, nextUseAt(g, r.inputOrder, b, d.step));
                }
                CHECK(d.candidatesTotal == weighed);
                CHECK(std::any_of(d.candidates.begin(), d.candidates.end(), [&](const Candidate& c) { return c.nextUseStep == furthest; }));
                // the seed's score (lifetime's is the same number), highest first, the victim's the highest
                for (size_t k = 0; k < d.candidates.size(); ++k) {
                    CHECK(d.candidates[k].score == doctest::Approx(seedScore(g, d.candidates[k], d.step)));
                    if (k && k < static_cast<size_t>(kShownChoices)) CHECK(d.candidates[k - 1].score >= d.candidates[k].score);
                }
                if (seedRule) CHECK(d.candidates.front().buf == d.buf);
            } else if (!d.windows.empty()) {
                // window: each window's cost is the sum of its buffers' terms; the chosen one holds
                // the victim and costs least
                CHECK(d.windowsTotal >= static_cast<int>(d.windows.size()));
                std::map<BufferId, double> term;
                for (const Candidate& c : d.candidates) {
                    const double traffic = static_cast<double>(c.copyIn ? c.size : 2 * c.size);
                    CHECK(c.score == doctest::Approx(traffic / std::max(c.nextUseStep - d.step, 1)));
                    term[c.buf] = c.score;
                }
                const SpillWindow& chosen = d.windows.front();
                CHECK(std::find(chosen.bufs.begin(), chosen.bufs.end(), d.buf) != chosen.bufs.end());
                CHECK(chosen.end - chosen.start >= d.room.need);
                for (const SpillWindow& w : d.windows) {
                    CHECK(w.cost >= chosen.cost);
                    CHECK(w.end - w.start >= d.room.need);
                    double sum = 0;
                    for (BufferId b : w.bufs) sum += term.count(b) ? term.at(b) : 0;
                    if (std::all_of(w.bufs.begin(), w.bufs.end(), [&](BufferId b) { return term.count(b); }))
                        CHECK(w.cost == doctest::Approx(sum));
                }
            } else if (relocation) {
                CHECK(d.candidates.size() == 1);  // no choice: only the buffer itself
            }
            CHECK(mem.busy.erase(d.offset) == 1);
            leftAt[{d.step, d.type}].push_back(d.buf);
        } else {
            CHECK(mem.busy.erase(d.offset) == 1);
        }
    }
    for (const auto& [type, mem] : mems) CHECK(mem.busy.empty());
}

}  // namespace

TEST_CASE("decisions: every example, every policy, two orders: each decision matches the memory it saw" * doctest::test_suite("long")) {
    for (const ExampleInfo& e : exampleList()) {
        const GraphDocument doc = parseGraphDocument(exampleGraphJson(e.name));
        for (const std::string& policy : policyNames())  // every policy, those added later too
            for (const char* order : {"schedule", "id"}) {  // how an order was found does not matter here
                CAPTURE(e.name);
                CAPTURE(policy);
                CAPTURE(order);
                RunOptions opts;
                opts.policy = policy;
                opts.orderSource = order;
                checkDecisions(doc.graph, planVerified(doc, opts));
            }
    }
}

TEST_CASE("decisions: random graphs with tight memories, every policy") {
    int spills = 0, windows = 0, relocations = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        RandomGraphParams params;
        params.operations = 10 + static_cast<int>(seed % 30);
        params.maxReads = 1 + static_cast<int>(seed % 3);
        params.maxBytes = 32 + static_cast<Bytes>(seed * 7 % 200);
        const GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, params));
        Capacities caps;
        for (const Node& n : doc.graph.nodes) {  // each memory: 1.5 times the most one node needs
            std::map<std::string, Bytes> need;
            for (BufferId id : doc.graph.buffersOf(n)) need[doc.graph.buffer(id).type] += doc.graph.buffer(id).size;
            for (auto& [type, bytes] : need) caps[type] = std::max(caps[type], bytes * 3 / 2);
        }
        for (const std::string& policy : policyNames()) {
            CAPTURE(seed);
            CAPTURE(policy);
            RunOptions opts;
            opts.policy = policy;
            opts.orderSource = seed % 2 ? "id" : "schedule";
            opts.capacities = caps;
            const Result r = planVerified(doc, opts);
            checkDecisions(doc.graph, r);
            for (const Decision& d : r.plan.decisions) {
                spills += d.kind == Decision::Kind::Spill;
                windows += !d.windows.empty();
                relocations += d.reason.rfind("relocated", 0) == 0;
            }
        }
    }
    MESSAGE(spills << " spill decisions, " << windows << " with windows, " << relocations << " relocations");
    CHECK(spills > 500);  // the graphs must exercise every kind of spill decision
    CHECK(windows > 50);
    CHECK(relocations > 0);
}

TEST_CASE("decisions: the contest cases, every policy" * doctest::test_suite("long")) {
    for (const char* name : spillway::test::kSharedCases) {
        auto text = spillway::test::sharedCase(name);
        if (!text) continue;
        const GraphDocument doc = parseGraphDocument(*text);
        for (const std::string& policy : policyNames()) {
            CAPTURE(name);
            CAPTURE(policy);
            RunOptions opts;
            opts.policy = policy;
            opts.orderSource = "schedule";  // decisions depend on the order, not on how it was found
            checkDecisions(doc.graph, planVerified(doc, opts));
        }
    }
}

TEST_CASE("decisions: a placement among more holes than are shown keeps the one it took") {
    // UB 1000: 30 buffers of 10 bytes with 10-byte gaps between them (odd ones freed), then a
    // 10-byte buffer: 30 holes; best fit takes the lowest 10-byte one.
    std::string nodes, edges;
    int id = 0;
    auto node = [&](const std::string& json) { nodes += (nodes.empty() ? "" : ",") + json; return id++; };
    std::vector<int> allocs, users;
    for (int b = 0; b < 60; ++b) {
        allocs.push_back(node(R"({"Id":)" + std::to_string(id) + R"(,"Op":"ALLOC","BufId":)" + std::to_string(b) +
                              R"(,"Size":10,"Type":"UB"})"));
        users.push_back(node(R"({"Id":)" + std::to_string(id) + R"(,"Op":"W","Pipe":"VECTOR","Cycles":1,"Bufs":[)" +
                             std::to_string(b) + "]}"));
        edges += (edges.empty() ? "" : ",") + ("[" + std::to_string(allocs.back()) + "," + std::to_string(users.back()) + "]");
    }
    auto free = [&](int b) {
        const int f = node(R"({"Id":)" + std::to_string(id) + R"(,"Op":"FREE","BufId":)" + std::to_string(b) +
                           R"(,"Size":10,"Type":"UB"})");
        edges += ",[" + std::to_string(users[b]) + "," + std::to_string(f) + "]";
    };
    for (int b = 1; b < 60; b += 2) free(b);
    const int last = node(R"({"Id":)" + std::to_string(id) + R"(,"Op":"ALLOC","BufId":60,"Size":10,"Type":"UB"})");
    users.push_back(node(R"({"Id":)" + std::to_string(id) + R"(,"Op":"W","Pipe":"VECTOR","Cycles":1,"Bufs":[60]})"));
    edges += ",[" + std::to_string(last) + "," + std::to_string(users.back()) + "]";
    for (int b = 0; b < 60; b += 2) free(b);
    free(60);
    const GraphDocument doc = parseGraphDocument(R"({"Nodes":[)" + nodes + R"(],"Edges":[)" + edges +
                                                 R"(],"Capacities":{"UB":1000}})");
    const Result r = planVerified(doc, test::seedById());
    const Decision& d = *std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                                      [](const Decision& x) { return x.kind == Decision::Kind::Place && x.buf == 60; });
    CHECK(d.holesTotal == 30);  // 29 gaps of 10 bytes, and the last one merged with the 400 above
    REQUIRE(d.holes.size() == static_cast<size_t>(kShownChoices));
    CHECK(d.offset == 10);
    CHECK(d.holes.front() == Hole{10, 20});
    checkDecisions(doc.graph, r);
}

namespace {

// The node each kind of decision emits, found from the plan alone: the buffer's ALLOC or FREE, or
// the SPILL_OUT / SPILL_IN of one of its spills.
bool emits(const Graph& g, const Plan& p, const BriefDecision& d) {
    const NodeId at = p.order.at(static_cast<size_t>(d.orderStep));
    const Buffer& buf = g.buffer(d.buf);
    switch (d.kind) {
        case Decision::Kind::Place: return at == g.nodes[buf.allocNode].id;
        case Decision::Kind::Free: return at == g.nodes[buf.freeNode].id;
        case Decision::Kind::Spill:
        case Decision::Kind::Reload:
            return std::any_of(p.spills.begin(), p.spills.end(), [&](const Spill& s) {
                return s.buf == d.buf && (d.kind == Decision::Kind::Spill ? s.outNode == at && s.oldOffset == d.offset
                                                                          : s.inNode == at && s.newOffset == d.offset);
            });
    }
    return false;
}

}  // namespace

TEST_CASE("decisions: a huge graph's are brief, in the plan and in a result that verifies" * doctest::test_suite("long")) {
    MatmulParams m;
    m.m = m.n = m.k = 24;
    m.freesAtEnd = true;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(m));
    REQUIRE(doc.graph.nodes.size() == 101952);
    REQUIRE(isHugeGraph(doc.graph.nodes.size()));
    const Result r = planVerified(doc);
    const Plan& p = r.plan;
    CHECK(p.decisions.empty());
    CHECK(p.spills.size() == 13057);
    // A placement and a FREE per buffer, a write-out and a reload per spill, each emitting its node.
    REQUIRE(p.briefDecisions.size() == 2 * doc.graph.buffers.size() + 2 * p.spills.size());
    std::map<Decision::Kind, size_t> kinds;
    size_t wrong = 0;
    for (const BriefDecision& d : p.briefDecisions) {
        ++kinds[d.kind];
        if (!emits(doc.graph, p, d)) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(kinds[Decision::Kind::Place] == 29376);
    CHECK(kinds[Decision::Kind::Reload] == 13057);
    const BriefDecision& first = p.briefDecisions.front();
    CHECK((first.kind == Decision::Kind::Place && first.buf == 0 && first.offset == 0 && first.orderStep == 0));

    const std::string text = resultToJson(doc.graph, r);
    CHECK(text.find(R"("decisionsBrief":true,"decisions":[{"kind":"place","step":0,"orderStep":0,"node":0,"buf":0,)"
                    R"("type":"L1","offset":0,"size":128},)") != std::string::npos);
    CHECK(text.find(R"("reason")") == std::string::npos);
    const ResultFile back = readResultFile(text);
    CHECK(verifyResult(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty());
}

TEST_CASE("the default on a huge graph records the winning order's plan only: the same plan as recording both" * doctest::test_suite("long")) {
    MatmulParams m;
    m.m = m.n = m.k = 24;
    m.freesAtEnd = true;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(m));
    REQUIRE(isHugeGraph(doc.graph.nodes.size()));
    const Result chosen = planVerified(doc);
    // Each candidate order with lifetime, recorded in full, as the default did before.
    std::map<std::string, Result> each;
    for (const char* source : {"schedule", "reuse"}) {
        RunOptions o;
        o.orderSource = source;
        o.policy = "lifetime";
        each.emplace(source, planVerified(doc, o));
    }
    const Result& schedule = each.at("schedule");
    const Result& reuse = each.at("reuse");
    CHECK(schedule.metrics.extraBytes == 1674240);
    CHECK(reuse.metrics.extraBytes == 1673216);
    CHECK(chosen.orderSource == "reuse");
    CHECK(chosen.plan.policy == "lifetime");
    CHECK(chosen.metrics.extraBytes == 1673216);
    CHECK(chosen.metrics.spills == 13057);
    // Recorded alone, the winner's plan is the one recorded beside the loser's: the same result
    // file but for the policy the run was asked for.
    Result asked = chosen;
    asked.policy = reuse.policy;
    CHECK(firstDifference(resultToJson(doc.graph, asked), resultToJson(doc.graph, reuse)) == "");
}

TEST_CASE("decisions: below the huge-graph threshold they are whole, and the result says nothing of brief ones") {
    MatmulParams m;
    m.m = m.n = m.k = 4;
    m.freesAtEnd = true;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(m));
    REQUIRE_FALSE(isHugeGraph(doc.graph.nodes.size()));
    const Result r = planVerified(doc);
    CHECK(r.plan.briefDecisions.empty());
    REQUIRE(r.plan.decisions.size() == 2 * doc.graph.buffers.size() + 2 * r.plan.spills.size());
    CHECK(std::all_of(r.plan.decisions.begin(), r.plan.decisions.end(), [](const Decision& d) { return !d.reason.empty(); }));
    const std::string text = resultToJson(doc.graph, r);
    CHECK(text.find("decisionsBrief") == std::string::npos);
    CHECK(text.find(R"("decisions":[{"kind":"place","step":0,"orderStep":0,"node":0,"buf":0,"type":"L1","offset":0,)"
                    R"("size":128,"reason":")") != std::string::npos);
    checkDecisions(doc.graph, r);
}

TEST_CASE("order best keeps the losing candidates' plans only for the cycles objective") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("tiled-matmul-small"));
    RunOptions opts;
    opts.orderSource = "best";
    const Problem bytes = prepare(doc, opts);
    REQUIRE(bytes.plan);
    CHECK(bytes.others.empty());
    opts.objective = Objective::Cycles;
    // The technique searches' orders are starts too (test_cycles.cpp); here the candidates alone.
    opts.cycles.disabled = {CyclesTechnique::Search, CyclesTechnique::Headroom, CyclesTechnique::Stagger};
    const Problem cycles = prepare(doc, opts);
    CHECK(cycles.order == bytes.order);
    // Every other candidate order (two of schedule, reuse, search), and the search's runners-up.
    const auto runnersUp = std::count_if(cycles.others.begin(), cycles.others.end(), [](const OrderStart& o) {
        return o.label.find("runner-up") != std::string::npos;
    });
    CHECK(cycles.others.size() - static_cast<size_t>(runnersUp) == bestOrderCandidates().size() - 1);
    CHECK(runnersUp == 1);
}

// A graph that thrashes its memory: 32 one-byte buffers, 16 of them used by each operation,
// room for 16.
static GraphDocument thrashGraph(int operations) {
    ThrashParams t;
    t.buffers = 32;
    t.operations = operations;
    t.usesPerOperation = t.capacity = 16;
    return parseGraphDocument(generateThrash(1, t));
}

TEST_CASE("decisions: a spill-heavy plan's are brief with every policy, and the thrash graph's plans verify") {
    const GraphDocument doc = thrashGraph(400);
    REQUIRE(doc.graph.nodes.size() == 464);
    REQUIRE_FALSE(isHugeGraph(doc.graph.nodes.size()));
    // Unit sizes: every policy finds the optimum for the order (the bound), the seed's walk
    // turning brief at its 1,025th spill, lifetime and residency before recording any.
    for (const std::string policy : {"best", "lifetime", "residency", "seed", "window"}) {
        CAPTURE(policy);
        RunOptions opts;
        opts.policy = policy;
        const Result r = planVerified(doc, opts);
        const Plan& p = r.plan;
        CHECK(r.orderSource == "reuse");
        CHECK(p.spills.size() == 2093);
        CHECK(r.metrics.extraBytes == 4186);
        CHECK(r.metrics.bound.total == 4186);
        REQUIRE(isSpillHeavy(p.spills.size(), doc.graph.nodes.size()));
        CHECK(p.decisions.empty());
        REQUIRE(p.briefDecisions.size() == 2 * doc.graph.buffers.size() + 2 * p.spills.size());
        CHECK(std::all_of(p.briefDecisions.begin(), p.briefDecisions.end(),
                          [&](const BriefDecision& d) { return emits(doc.graph, p, d); }));
        const std::string text = resultToJson(doc.graph, r);
        CHECK(text.find(R"("decisionsBrief":true,"decisions":[{"kind":"place","step":0,"orderStep":0,"node":1,"buf":1,"type":"UB",)"
                        R"("offset":0,"size":1},)") != std::string::npos);
        CHECK(text.find(R"("candidates")") == std::string::npos);
    }
}

TEST_CASE("decisions: up to kDetailedSpillsFloor spills a plan explains every one, however many per node") {
    const GraphDocument doc = thrashGraph(100);
    for (const std::string policy : {"residency", "seed"}) {
        CAPTURE(policy);
        RunOptions opts;
        opts.policy = policy;
        const Result r = planVerified(doc, opts);
        CHECK(r.plan.spills.size() == 530);  // over a quarter of its 164 nodes, not over the floor
        REQUIRE(r.plan.spills.size() > doc.graph.nodes.size() / 4);
        REQUIRE_FALSE(isSpillHeavy(r.plan.spills.size(), doc.graph.nodes.size()));
        CHECK(r.plan.briefDecisions.empty());
        CHECK(r.plan.decisions.size() == 2 * doc.graph.buffers.size() + 2 * r.plan.spills.size());
        checkDecisions(doc.graph, r);
    }
}
