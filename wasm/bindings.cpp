// embind surface of the engine. Every function takes and returns JSON text (wasm/spillway.d.ts):
// the browser gets byte-for-byte what `spillway plan -o` writes, and errors come back as
// {"error": {"kind", "message"}} instead of exceptions crossing into JavaScript.
#include <emscripten/bind.h>

#include <nlohmann/json.hpp>

#include "spillway/error.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"
#include "spillway/verifier.h"

using namespace spillway;

namespace {

std::string errorJson(const char* kind, const std::string& message) {
    nlohmann::ordered_json j;
    j["error"]["kind"] = kind;
    j["error"]["message"] = message;
    return j.dump();
}

template <typename F>
std::string guarded(F&& f) {
    try {
        return f();
    } catch (const InputError& e) {
        return errorJson("input", e.what());
    } catch (const std::exception& e) {
        return errorJson("internal", e.what());
    }
}

std::string version() { return std::string("spillway ") + SPILLWAY_VERSION; }

std::string policies() { return nlohmann::json(policyNames()).dump(); }

// The order sources, default first: [{"name", "title", "description"}].
std::string orders() {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const OrderSourceInfo& o : orderSourceList())
        out.push_back({{"name", o.name}, {"title", o.title}, {"description", o.description}});
    return out.dump();
}

std::string plan(const std::string& graphJson, const std::string& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseGraphDocument(graphJson);
        return resultToJson(doc.graph, run(doc, parseRunOptions(optionsJson)));
    });
}

// plan() with the order search's progress: `onProgress` gets {"evaluations", "budget", "best"}
// every so often and returns false to stop the search, which then plans its best order so far.
std::string planWithProgress(const std::string& graphJson, const std::string& optionsJson, emscripten::val onProgress) {
    return guarded([&] {
        GraphDocument doc = parseGraphDocument(graphJson);
        RunOptions opts = parseRunOptions(optionsJson);
        opts.progress = [&](const SearchProgress& p) {
            nlohmann::ordered_json j;
            j["evaluations"] = p.evaluations;
            j["budget"] = p.budget;
            j["best"] = p.best;
            return onProgress(j.dump()).as<bool>();
        };
        return resultToJson(doc.graph, run(doc, opts));
    });
}

// Re-verifies a result JSON (as plan() returned it) against its graph.
std::string verify(const std::string& graphJson, const std::string& resultJson, const std::string& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseGraphDocument(graphJson);
        Problem problem = prepare(doc, parseRunOptions(optionsJson));
        Plan p = planFromResultJson(resultJson);
        nlohmann::ordered_json out;
        out["violations"] = nlohmann::ordered_json::array();
        for (const Violation& v : verifyPlan(doc.graph, problem.capacities, p))
            out["violations"].push_back({{"kind", v.kind}, {"message", v.message}});
        return out.dump();
    });
}

std::string metrics(const std::string& graphJson, const std::string& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseGraphDocument(graphJson);
        Problem problem = prepare(doc, parseRunOptions(optionsJson));
        ResidencyPeaks peaks = peakResidency(doc.graph, problem.order);
        nlohmann::ordered_json out;
        out["demandPeak"]["byType"] = peaks.byType;
        out["demandPeak"]["total"] = peaks.total;
        out["order"] = problem.order;
        return out.dump();
    });
}

// Every policy on every order source; rows as `spillway compare --json -` prints them.
std::string compareAll(const std::string& graphJson, const std::string& optionsJson) {
    return guarded([&] { return comparisonToJson(compare(parseGraphDocument(graphJson), parseRunOptions(optionsJson))); });
}

std::string examples() {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ExampleInfo& e : exampleList())
        out.push_back({{"name", e.name}, {"title", e.title}, {"description", e.description}});
    return out.dump();
}

std::string example(const std::string& name) {
    return guarded([&] { return exampleGraphJson(name); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(spillway) {
    emscripten::function("version", &version);
    emscripten::function("policies", &policies);
    emscripten::function("orders", &orders);
    emscripten::function("plan", &plan);
    emscripten::function("planWithProgress", &planWithProgress);
    emscripten::function("verify", &verify);
    emscripten::function("metrics", &metrics);
    emscripten::function("compare", &compareAll);
    emscripten::function("examples", &examples);
    emscripten::function("example", &example);
}
