// A result's claims read back and checked: the spill ids a plan gives above the largest node id
// allowed, and every number a result states about its plan (metrics, lower bounds, capacities,
// timing) changed one at a time, which verify must reject, naming the field.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spillway/examples.h"
#include "spillway/json_io.h"
#include "spillway/limits.h"
#include "spillway/verifier.h"
#include "support.h"

using namespace spillway;
using OrderedJson = nlohmann::ordered_json;

namespace {

// The example graph with its largest node id renamed to limits::kMaxNodeId.
std::string withLargestIdAtLimit(const std::string& graphText) {
    OrderedJson g = OrderedJson::parse(graphText);
    std::int64_t largest = 0;
    for (const auto& n : g["Nodes"]) largest = std::max(largest, n["Id"].get<std::int64_t>());
    auto renamed = [&](OrderedJson& id) {
        if (id.get<std::int64_t>() == largest) id = limits::kMaxNodeId;
    };
    for (auto& n : g["Nodes"]) renamed(n["Id"]);
    for (auto& e : g["Edges"]) renamed(e[0]), renamed(e[1]);
    if (g.contains("Order"))
        for (auto& id : g["Order"]) renamed(id);
    return g.dump();
}

// What verify says about a result text: its violations' fields, or the field of the InputError
// reading it ("input:" + where.field).
std::vector<std::string> rejectedFields(const GraphDocument& doc, const Capacities& caps, const std::string& resultText) {
    std::vector<std::string> fields;
    try {
        const ResultFile back = readResultFile(resultText);
        for (const Violation& v : verifyResultRecomputing(doc.graph, caps, back.cost, back.plan, back.claims))
            fields.push_back(v.field);
    } catch (const InputError& e) {
        fields.push_back("input:" + e.where.field);
    }
    return fields;
}

// Each integer a result claims about its plan, by the field name a violation gives it, with a
// reference to it in `j`: every one under metrics and capacities, and the first, a middle and the
// last entry of timing and waits.
void claimedNumbers(OrderedJson& j, const std::string& name, std::vector<std::pair<std::string, OrderedJson*>>& out) {
    if (j.is_number_integer()) {
        out.emplace_back(name, &j);
    } else if (j.is_object()) {
        for (auto& [key, value] : j.items()) claimedNumbers(value, name + "." + key, out);
    }
}

std::vector<std::pair<std::string, OrderedJson*>> claimsOfResult(OrderedJson& r) {
    std::vector<std::pair<std::string, OrderedJson*>> out;
    claimedNumbers(r["metrics"], "metrics", out);
    claimedNumbers(r["capacities"], "capacities", out);
    for (const char* list : {"timing", "waits"}) {
        OrderedJson& entries = r[list];
        const std::size_t n = entries.size();
        for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
            const std::string name = std::string(list) + "[" + std::to_string(i) + "]";
            if (entries[i].is_array())
                for (auto& v : entries[i]) out.emplace_back(name, &v);
            else
                for (const char* member : {"node", "buffer", "cycles"})
                    if (entries[i].contains(member)) out.emplace_back(name, &entries[i][member]);
        }
    }
    return out;
}

// Every claimed number of the result of `doc` under `opts`, changed one at a time (+1, -1, huge,
// negative, zero), is rejected with its field named (or the field holding it, when the reader
// refuses the value); the result itself verifies. Returns the number of tampered results.
int checkEveryClaimTampered(const GraphDocument& doc, const RunOptions& opts) {
    const Result r = test::planVerified(doc, opts);
    const std::string text = resultToJson(doc.graph, r);
    CHECK(rejectedFields(doc, r.capacities, text).empty());
    OrderedJson result = OrderedJson::parse(text);
    int tampered = 0;
    for (const auto& [field, value] : claimsOfResult(result)) {
        const std::int64_t original = value->get<std::int64_t>();
        for (const std::int64_t changed : {original + 1, original - 1, std::int64_t{1'000'000'000'000'000}, std::int64_t{-7},
                                           std::int64_t{0}}) {
            if (changed == original) continue;
            *value = changed;
            const std::vector<std::string> fields = rejectedFields(doc, r.capacities, result.dump());
            const bool named = std::any_of(fields.begin(), fields.end(), [&](const std::string& f) {
                // The reader names the object holding a value it refuses (capacities: the memory too).
                return f == field || (f.rfind("input:", 0) == 0 && field.rfind(f.substr(6), 0) == 0);
            });
            CHECK_MESSAGE(named, field << " = " << changed << " (was " << original << ") passed or was blamed on "
                                       << (fields.empty() ? std::string("nothing") : fields.front()));
            ++tampered;
        }
        *value = original;
    }
    // exact: a claim too, though no number.
    result["metrics"]["bound"]["exact"] = !r.metrics.bound.exact;
    const std::vector<std::string> exact = rejectedFields(doc, r.capacities, result.dump());
    CHECK(std::find(exact.begin(), exact.end(), "metrics.bound.exact") != exact.end());
    return tampered;
}

}  // namespace

TEST_CASE("verify reads the spill ids of a graph whose largest id is kMaxNodeId, and checks them") {
    const GraphDocument doc = parseGraphDocument(withLargestIdAtLimit(exampleGraphJson("tiled-matmul-small")));
    const Result r = test::planVerified(doc);
    REQUIRE(!r.plan.spills.empty());
    CHECK(r.plan.spills.front().outNode == limits::kMaxNodeId + 1);
    const std::string text = resultToJson(doc.graph, r);
    const ResultFile back = readResultFile(text);
    CHECK(back.plan.addedNodes.back().id == limits::kMaxNodeId + 2 * static_cast<std::int64_t>(r.plan.spills.size()));
    CHECK(verifyResultRecomputing(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty());
    // Numbered from one less, the spills are read and refused by the verifier, not the reader.
    OrderedJson shifted = OrderedJson::parse(text);
    shifted["addedNodes"][0]["Id"] = limits::kMaxNodeId;
    const std::vector<std::string> fields = rejectedFields(doc, r.capacities, shifted.dump());
    CHECK(!fields.empty());
    CHECK(std::find(fields.begin(), fields.end(), std::string("input:Id")) == fields.end());
    // Beyond the last id any plan can give: refused on reading, the limit named.
    shifted["addedNodes"][0]["Id"] = limits::kMaxSpillNodeId + 1;
    CHECK(test::inputErrorOf([&] { readResultFile(shifted.dump()); }).find("field \"Id\" must be between 0 and " +
                                                                           std::to_string(limits::kMaxSpillNodeId)) !=
          std::string::npos);
}

TEST_CASE("verify rejects false bounds and capacities: the repros of an attack") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("tiled-matmul"));
    const Result r = test::planVerified(doc);
    REQUIRE(r.metrics.extraBytes > 0);
    const ResultClaims right = claimsOf(r);
    auto fieldsOf = [&](const ResultClaims& c, bool recompute) {
        std::vector<std::pair<std::string, std::string>> out;  // (field, message)
        const auto v = recompute ? verifyResultRecomputing(doc.graph, r.capacities, r.cost, r.plan, c)
                                 : verifyResult(doc.graph, r.capacities, r.cost, r.plan, c);
        for (const Violation& x : v) out.emplace_back(x.field, x.message);
        return out;
    };
    CHECK(fieldsOf(right, true).empty());
    CHECK(fieldsOf(right, false).empty());

    // A bound above the data the plan moves, consistently in byType and total: the verifier alone
    // sees it (a lower bound that its own plan beats is false).
    ResultClaims c = right;
    c.bound->byType["L1"] += 1;
    c.bound->total += 1;
    auto f = fieldsOf(c, false);
    REQUIRE(f.size() == 2);
    CHECK(f[0] == std::make_pair(std::string("metrics.bound.byType.L1"),
                                 "metrics.bound.byType.L1 says " + std::to_string(right.bound->byType.at("L1") + 1) +
                                     ": the plan moves " + std::to_string(r.metrics.extraBytes) +
                                     " bytes of L1, below its lower bound"));
    CHECK(f[1].first == "metrics.bound.total");
    CHECK(f[1].second.find("below its lower bound") != std::string::npos);

    // A cycles bound of 10^15: not the largest of its terms, and its limit gives no such total.
    c = right;
    c.cyclesBound->plan.total = 1'000'000'000'000'000;
    f = fieldsOf(c, false);
    REQUIRE(f.size() == 2);
    CHECK(f[0].first == "metrics.cyclesBound.plan.total");
    CHECK(f[0].second.find("the largest of its terms is " + std::to_string(r.metrics.cyclesBound.plan.total)) !=
          std::string::npos);
    CHECK(f[1].first == "metrics.cyclesBound.plan.limit");
    // Every term raised with it: consistent, but above the plan's total cycles.
    for (CyclesBound::Pipe& p : c.cyclesBound->plan.pipes)
        if (p.name == r.metrics.cyclesBound.plan.limit) p.bound = c.cyclesBound->plan.total;
    f = fieldsOf(c, false);
    REQUIRE(f.size() == 1);
    CHECK(f[0].second == "metrics.cyclesBound.plan.total says 1000000000000000: the plan takes " +
                             std::to_string(r.metrics.totalCycles) + " cycles (totalCycles), fewer than its lower bound");
    // ...and the recomputation names the pipe too.
    f = fieldsOf(c, true);
    REQUIRE(f.size() == 2);
    CHECK(f[0].first == "metrics.cyclesBound.plan.pipes." + r.metrics.cyclesBound.plan.limit + ".bound");

    // A negative graph bound.
    c = right;
    c.cyclesBound->graph.total = -5;
    f = fieldsOf(c, false);
    REQUIRE(f.size() == 2);
    CHECK(f[0] == std::make_pair(std::string("metrics.cyclesBound.graph.total"),
                                 std::string("metrics.cyclesBound.graph.total says -5: a bound is never negative")));
    CHECK(f[1].first == "metrics.cyclesBound.graph.limit");

    // A term below its total, changed within what is consistent: only the recomputation sees it.
    c = right;
    const CyclesBound& order = r.metrics.cyclesBound.order;
    REQUIRE(order.criticalPath < order.total);
    c.cyclesBound->order.criticalPath += 1;
    CHECK(fieldsOf(c, false).empty());
    f = fieldsOf(c, true);
    REQUIRE(f.size() == 1);
    CHECK(f[0].second == "metrics.cyclesBound.order.criticalPath says " + std::to_string(order.criticalPath + 1) +
                             " but recomputed it is " + std::to_string(order.criticalPath));

    // Capacities {"UB": 0, "ZZ": -4}: impossible values, a memory the plan is not checked against,
    // and the ones it is, missing.
    c = right;
    c.capacities = Capacities{{"UB", 0}, {"ZZ", -4}};
    const auto v = verifyResult(doc.graph, r.capacities, r.cost, r.plan, c);
    std::vector<std::string> fields;
    for (const Violation& x : v) {
        CHECK(x.kind == ViolationKind::Capacities);
        fields.push_back(x.field);
    }
    CHECK(fields == std::vector<std::string>{"capacities.UB", "capacities.ZZ", "capacities.L0A", "capacities.L0B",
                                             "capacities.L0C", "capacities.L1"});
    CHECK(v[0].message == "capacities.UB says 0: a capacity is between 1 and 68719476736");
    c.capacities = Capacities{{"L1", 4096}, {"ZZ", 4096}};
    c.capacities->insert({{"L0A", 256}, {"L0B", 256}, {"L0C", 512}, {"UB", 1024}});
    REQUIRE(*c.capacities != r.capacities);
    const auto extra = verifyResult(doc.graph, r.capacities, r.cost, r.plan, c);
    REQUIRE(extra.size() == 1);
    CHECK(extra[0].message == "capacities names ZZ, which the plan is not checked against");
    // Read from a file, a capacity out of range is refused by the reader.
    OrderedJson text = OrderedJson::parse(resultToJson(doc.graph, r));
    text["capacities"] = {{"UB", 0}, {"ZZ", -4}};
    CHECK(test::inputErrorOf([&] { readResultFile(text.dump()); }) ==
          "line 1, column " + std::to_string(text.dump().find("\"UB\":0") + 6) +
              ": the result's capacities: field \"UB\" must be between 1 and 68719476736, got 0");
}

TEST_CASE("a result without cyclesBound (written before it existed) is still read and verified; without bound, refused") {
    const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    const Result r = test::planVerified(doc);
    OrderedJson j = OrderedJson::parse(resultToJson(doc.graph, r));
    j["metrics"].erase("cyclesBound");
    const ResultFile older = readResultFile(j.dump());
    CHECK(!older.claims.cyclesBound);
    CHECK(older.claims.bound->total == r.metrics.bound.total);
    CHECK(verifyResultRecomputing(doc.graph, r.capacities, older.cost, older.plan, older.claims).empty());
    j["metrics"].erase("bound");
    CHECK(test::inputErrorOf([&] { readResultFile(j.dump()); }).find("the result's metrics: field \"bound\" is missing") !=
          std::string::npos);
    j = OrderedJson::parse(resultToJson(doc.graph, r));
    j["metrics"]["cyclesBound"].erase("order");
    CHECK(test::inputErrorOf([&] { readResultFile(j.dump()); }).find("metrics.cyclesBound: field \"order\" is missing") !=
          std::string::npos);
    j = OrderedJson::parse(resultToJson(doc.graph, r));
    j["metrics"]["bound"]["exact"] = 1;
    CHECK(test::inputErrorOf([&] { readResultFile(j.dump()); }).find("metrics.bound: field \"exact\" must be true or false") !=
          std::string::npos);
}

TEST_CASE("every claim of a plan, tampered one at a time, is rejected with its field named: small examples") {
    for (const char* example : {"one-spill", "tiled-matmul-small", "copyin-cheaper"})
        for (const Objective objective : {Objective::Bytes, Objective::Cycles}) {
            CAPTURE(example);
            CAPTURE(objective == Objective::Cycles);
            RunOptions opts;
            opts.objective = objective;
            CHECK(checkEveryClaimTampered(parseGraphDocument(exampleGraphJson(example)), opts) > 100);
        }
}

TEST_SUITE("long") {
TEST_CASE("every claim of a plan, tampered one at a time, is rejected with its field named: a contest case, a large example") {
    if (const auto text = test::sharedCase("FlashAttention_Case0.json"))
        CHECK(checkEveryClaimTampered(parseGraphDocument(*text), {}) > 200);
    RunOptions cycles;
    cycles.objective = Objective::Cycles;
    CHECK(checkEveryClaimTampered(parseGraphDocument(exampleGraphJson("tiled-matmul")), cycles) > 200);
}
}  // TEST_SUITE
