// The streaming JSON writer (core/src/io/json_writer.h) writes the JSON library's own bytes, so that a
// result written as a stream is byte for byte what the library's document tree dumped.
#include <doctest/doctest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../../core/src/io/json_writer.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"

using namespace spillway;
using OrderedJson = nlohmann::ordered_json;

namespace {
std::string libraryDump(const OrderedJson& j) { return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace); }
}  // namespace

TEST_CASE("the writer's strings, numbers and containers are the library's bytes") {
    const std::string strings[] = {"",          "plain L1",        "quote \" and \\ backslash", "tab\tnew\nline\r",
                                   "\x01\x1f\x7f", "UTF-8: \xc3\xa9\xe2\x82\xac", "invalid \xff\xc3 bytes", "/slash"};
    const double doubles[] = {0.0, -0.0, 0.1, 2.0, -1.5, 1e300, 5e-324, 123456789.125, 1.0 / 3,
                              std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
    const std::int64_t ints[] = {0, -1, 7, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};

    JsonWriter w;
    OrderedJson j;
    w.beginObject();
    w.key("strings").beginArray();
    for (const std::string& s : strings) {
        w.value(s);
        j["strings"].push_back(s);
    }
    w.endArray().key("doubles").beginArray();
    for (double d : doubles) {
        w.value(d);
        j["doubles"].push_back(d);
    }
    w.endArray().member("ints", std::vector<std::int64_t>(std::begin(ints), std::end(ints)));
    j["ints"] = std::vector<std::int64_t>(std::begin(ints), std::end(ints));
    for (const std::string& s : strings) {  // keys need the same escapes
        w.member(s, true);
        j[s] = true;
    }
    const std::map<std::string, std::int64_t> caps{{"UB", 4}, {"L1", 8}, {"a\"b", 1}};
    w.member("caps", caps).member("no", false).key("empty").beginArray().endArray().key("none").beginObject().endObject();
    j["caps"] = caps;
    j["no"] = false;
    j["empty"] = OrderedJson::array();
    j["none"] = OrderedJson::object();
    w.key("nested").beginArray().beginArray().value(1).value(2).endArray().beginObject().member("x", -3).endObject().endArray();
    j["nested"] = OrderedJson::array({OrderedJson::array({1, 2}), OrderedJson{{"x", -3}}});
    w.endObject();
    CHECK(w.take() == libraryDump(j));
}

TEST_CASE("a result written as a stream is the library's dump of the same document, in a string or a file") {
    for (const ExampleInfo& e : exampleList()) {
        CAPTURE(e.name);
        const GraphDocument doc = parseGraphDocument(exampleGraphJson(e.name));
        for (const char* policy : {"seed", "window", "best"}) {
            RunOptions o;
            o.policy = policy;
            const Result r = run(doc, o);
            CHECK(verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r)).empty());
            const std::string text = resultToJson(doc.graph, r);
            // Parsed with key order kept and dumped again by the library: the same bytes, so the
            // writer formats every member (scores and window costs included) as the library does.
            CHECK(libraryDump(OrderedJson::parse(text)) + "\n" == text);
            std::ostringstream streamed;
            writeResultJson(streamed, doc.graph, r);
            CHECK(streamed.str() == text);
            const ResultFile back = readResultFile(text);
            CHECK(back.plan.order == r.plan.order);
            CHECK(back.plan.addedEdges == r.plan.addedEdges);
        }
    }
}
