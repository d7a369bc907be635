// embind surface of the engine. Every function takes and returns JSON text (wasm/spillway.d.ts):
// the browser gets byte-for-byte what `spillway plan -o` writes, and errors come back as
// {"error": {"kind", "message", "where"}} (docs/result-format.md, "Errors") instead of exceptions
// crossing into JavaScript. Messages are valid UTF-8 by construction (InputError), and dumped
// with invalid bytes replaced in any case, so building the error can never throw itself.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "spillway/spillway.h"

using namespace spillway;

namespace {

using Json = nlohmann::ordered_json;
using emscripten::val;

// Text crosses the boundary through the host's own UTF-8 codec (TextEncoder, TextDecoder): one
// native pass each way. embind's std::string conversion walks every byte in JavaScript, a
// fifth of plan() on a 100K-node graph (docs/benchmarks.md, "WebAssembly against native").
// The text is encoded straight into the string's bytes (encodeInto): Chromium's encode() makes
// a new array first, a copy that weighs on a warm plan() of a large graph (docs/benchmarks.md).
std::string textOf(const val& js, const char* parameter, const char* source) {
    if (!js.isString()) {
        ErrorPlace where;
        where.source = source;
        where.field = parameter;
        throw InputError(std::string(parameter) + ": expected text (a string), got " + js.typeOf().as<std::string>(),
                         std::move(where));
    }
    static const val encoder = val::global("TextEncoder").new_();
    const std::size_t units = js["length"].as<std::size_t>();  // UTF-16 code units
    // One byte a unit first (all of an ASCII text); what does not fit takes at most 3 bytes a
    // unit (a surrogate pair: 4 bytes for 2 units; a lone surrogate: U+FFFD, 3 bytes).
    std::string text(units, '\0');
    // No allocation between a view's making and its use: a growing heap would detach it.
    auto into = [&](const val& part, std::size_t at) {
        const val done = encoder.call<val>(
            "encodeInto", part,
            val(emscripten::typed_memory_view(text.size() - at, reinterpret_cast<unsigned char*>(text.data()) + at)));
        return std::pair{done["read"].as<std::size_t>(), done["written"].as<std::size_t>()};
    };
    auto [read, written] = into(js, 0);
    if (read < units) {
        text.resize(written + 3 * (units - read));
        written += into(js.call<val>("substring", read), written).second;
    }
    text.resize(written);
    return text;
}

val jsText(std::string_view text) {
    static const val decoder = val::global("TextDecoder").new_();
    return decoder.call<val>(
        "decode", val(emscripten::typed_memory_view(text.size(), reinterpret_cast<const unsigned char*>(text.data()))));
}

// A result's text, written into one block of the heap reserved up front. A first plan() runs
// on a fresh heap, where every page the engine first touches costs a page fault (about 11 us
// each on the machine of docs/benchmarks.md, against a 2 MB huge page natively); a std::string
// grown by doubling touches its final size and every smaller copy besides: about 52 MB of new
// heap for the 27 MB result of a 100K-node graph, the largest part of the first call's fresh
// pages. A block reserved larger than the text is only touched where the text is written (the
// heap's growth only reserves address space), so this touches the text's size once.
// It stops at limits::kMaxResultBytes: past it the text is cut and overLimit() says so.
class ResultText : public std::streambuf {
public:
    // A reservation the heap cannot make is no error: the block then grows as it is written.
    explicit ResultText(std::size_t reserve) { grow(std::min(reserve, kLimit)); }
    ResultText(ResultText&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)),
          overLimit_(std::exchange(other.overLimit_, false)) {}
    ResultText(const ResultText&) = delete;
    ResultText& operator=(const ResultText&) = delete;
    ResultText& operator=(ResultText&&) = delete;
    ~ResultText() override { std::free(data_); }

    operator std::string_view() const { return {data_, size_}; }
    bool overLimit() const { return overLimit_; }

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        const auto count = static_cast<std::size_t>(n);
        if (size_ + count > kLimit) {
            overLimit_ = true;
            return 0;
        }
        // A text larger than its block moves to one twice the size it needs (a copy, as a
        // std::string's growth would make), never past the limit.
        if (size_ + count > capacity_ && !grow(std::min(2 * (size_ + count), kLimit))) return 0;
        std::memcpy(data_ + size_, s, count);
        size_ += count;
        return n;
    }
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        const char ch = traits_type::to_char_type(c);
        return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
    }

private:
    bool grow(std::size_t capacity) {
        char* data = static_cast<char*>(std::realloc(data_, capacity));
        if (!data) return false;
        data_ = data;
        capacity_ = capacity;
        return true;
    }

    static constexpr std::size_t kLimit = static_cast<std::size_t>(limits::kMaxResultBytes);
    char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
    bool overLimit_ = false;
};

// What the result's text reserves: the results of the generated 100K-node graphs are 2.5 times
// their graph's text; more is only address space.
constexpr std::size_t kResultPerGraphByte = 4;

ResultText resultText(const GraphDocument& doc, const Result& result, std::size_t graphBytes) {
    ResultText text(kResultPerGraphByte * graphBytes + (1 << 20));
    std::ostream out(&text);
    writeResultJson(out, doc, result);
    if (text.overLimit())
        limits::exceeded(
            "the result is larger than " + std::to_string(limits::kMaxResultBytes) +
                " bytes, more than the browser can take: plan it with the command-line tool (spillway plan)",
            "resultBytes", limits::kMaxResultBytes, "");
    if (!out) throw std::bad_alloc();  // the block could not grow (the stream keeps the error)
    return text;
}

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// The contract's "where": only the members that are known.
Json whereJson(const ErrorPlace& w) {
    Json j = Json::object();
    if (!w.source.empty()) j["source"] = w.source;
    if (w.line) j["line"] = *w.line;
    if (w.column) j["column"] = *w.column;
    if (w.node) j["node"] = *w.node;
    if (w.nodeIndex) j["nodeIndex"] = *w.nodeIndex;
    if (!w.field.empty()) j["field"] = w.field;
    if (w.buffer) j["buffer"] = *w.buffer;
    if (w.edge) j["edge"] = *w.edge;
    if (w.step) j["step"] = *w.step;
    if (!w.cycle.empty()) j["cycle"] = w.cycle;
    if (w.memory) j["memory"] = *w.memory;
    if (w.limit) j["limit"] = {{"name", w.limit->name}, {"max", w.limit->max}};
    return j;
}

std::string errorJson(const char* kind, const std::string& message, const ErrorPlace& where = {}) {
    Json j;
    j["error"]["kind"] = kind;
    j["error"]["message"] = printable(message);
    j["error"]["where"] = whereJson(where);
    return dump(j);
}

// `f` returns the text (a std::string or a ResultText).
template <typename F>
val guarded(F&& f) {
    std::string error;
    try {
        return jsText(f());
    } catch (const InputError& e) {
        error = errorJson("input", e.what(), e.where);
    } catch (const std::bad_alloc&) {
        error = errorJson("input", "out of memory: the input is too large for the browser's WebAssembly memory");
    } catch (const std::exception& e) {
        error = errorJson("internal", e.what());
    }
    return jsText(error);
}

// The largest graph the browser plans: above it the WebAssembly heap (at most 4 GiB) and the
// page's copies of the result would not fit, so a larger graph gets this error instead of an
// abort (the native CLI has no such limit).
constexpr std::int64_t kBrowserMaxNodes = 600'000;

GraphDocument parseInBrowser(const std::string& graphJson) {
    return parseGraphDocument(graphJson, HostNodeLimit{kBrowserMaxNodes, "the browser", "browserNodes",
                                                       ": plan it with the command-line tool (spillway plan)"});
}

// The graph of plan()'s parameter, and the size of its text (what its result reserves).
GraphDocument parseGraph(const val& graphJson, std::size_t& graphBytes) {
    const std::string text = textOf(graphJson, "graphJson", "graph");
    graphBytes = text.size();
    return parseInBrowser(text);
}

std::string version() { return std::string("spillway ") + SPILLWAY_VERSION; }

std::string policies() { return dump(Json(policyNames())); }

// The policies, default first: [{"name", "title", "description", "forceable", "textbook"}].
std::string policyListJson() {
    Json out = Json::array();
    for (const PolicyInfo& p : policyList())
        out.push_back({{"name", p.name},
                       {"title", p.title},
                       {"description", p.description},
                       {"forceable", p.forceable},
                       {"textbook", p.textbook}});
    return dump(out);
}

// The graph a program becomes (docs/programs.md), as `spillway translate` prints it.
val translate(const val& programText) {
    return guarded([&] {
        GraphDocument doc = parseInBrowser(textOf(programText, "programText", "graph"));
        if (!doc.program) {
            ErrorPlace where;
            where.source = "graph";
            throw InputError("the text is a graph already (it starts with {): translate reads a program",
                             std::move(where));
        }
        return graphToJson(doc);
    });
}

// The order sources, default first: [{"name", "title", "description"}].
std::string orders() {
    Json out = Json::array();
    for (const OrderSourceInfo& o : orderSourceList())
        out.push_back({{"name", o.name}, {"title", o.title}, {"description", o.description}});
    return dump(out);
}

val plan(const val& graphJson, const val& optionsJson) {
    return guarded([&] {
        std::size_t graphBytes = 0;
        GraphDocument doc = parseGraph(graphJson, graphBytes);
        return resultText(doc, run(doc, parseRunOptions(textOf(optionsJson, "optionsJson", "options"))), graphBytes);
    });
}

// A progress report as onProgress gets it.
Json progressJson(const SearchProgress& p) {
    Json j;
    j["evaluations"] = p.evaluations;
    j["budget"] = p.budget;
    j["best"] = p.best;
    if (p.stages > 0) {
        j["stage"] = p.stage;
        j["stages"] = p.stages;
        j["stageName"] = p.stageName;
    }
    return j;
}

// Under the cycles objective the best plan so far goes to onProgress when it improves, but not
// sooner than kBestSoFarFloorMs after the last one, nor than kBestSoFarCostShare times what the
// last one cost (its timing, bounds, check and text, and what onProgress did with it: at most a
// fifth of the run goes to plans so far). Wall time decides only which plans the page sees while
// the run goes on, never the result.
constexpr double kBestSoFarFloorMs = 250;
constexpr double kBestSoFarCostShare = 4;

// plan() with the order search's progress: `onProgress` gets {"evaluations", "budget", "best"}
// every so often and returns false to stop the search, which then plans its best order so far.
// Under the cycles objective each report also says its stage ({"stage", "stages", "stageName"}),
// and the best plan so far comes as a second argument (its result JSON) with the last report.
val planWithProgress(const val& graphJson, const val& optionsJson, val onProgress) {
    return guarded([&] {
        std::size_t graphBytes = 0;
        GraphDocument doc = parseGraph(graphJson, graphBytes);
        RunOptions opts = parseRunOptions(textOf(optionsJson, "optionsJson", "options"));
        Json last = Json::object();
        opts.progress = [&](const SearchProgress& p) {
            last = progressJson(p);
            return onProgress(dump(last)).as<bool>();
        };
        std::optional<double> handedAt;
        double handOverMs = 0;  // what the last plan handed over cost
        opts.offerBestSoFar = [&](const std::function<Result()>& make) {
            const double now = emscripten_get_now();
            if (handedAt && now - *handedAt < std::max(kBestSoFarFloorMs, kBestSoFarCostShare * handOverMs)) return;
            const ResultText text = resultText(doc, make(), graphBytes);
            onProgress(dump(last), jsText(text));
            handedAt = emscripten_get_now();
            handOverMs = *handedAt - now;
        };
        return resultText(doc, run(doc, opts), graphBytes);
    });
}

// Re-verifies a result JSON (as plan() returned it, or edited) against its graph: the plan and
// every claim it makes (metrics, lower bounds recomputed, timing, spill cycles under its cost model).
val verify(const val& graphJson, const val& resultJson, const val& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseInBrowser(textOf(graphJson, "graphJson", "graph"));
        const Capacities caps = capacitiesFor(doc, parseRunOptions(textOf(optionsJson, "optionsJson", "options")));
        const ResultFile result = readResultFile(textOf(resultJson, "resultJson", "result"));
        Json out;
        out["violations"] = Json::array();
        for (const Violation& v : verifyResultRecomputing(doc.graph, caps, result.cost, result.plan, result.claims)) {
            Json j;
            j["kind"] = violationKindName(v.kind);
            j["message"] = v.message;
            if (v.node) j["node"] = *v.node;
            if (v.buffer) j["buffer"] = *v.buffer;
            if (v.step) j["step"] = *v.step;
            if (v.spill) j["spill"] = *v.spill;
            if (!v.field.empty()) j["field"] = v.field;
            out["violations"].push_back(std::move(j));
        }
        return dump(out);
    });
}

val metrics(const val& graphJson, const val& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseInBrowser(textOf(graphJson, "graphJson", "graph"));
        Problem problem = prepare(doc, parseRunOptions(textOf(optionsJson, "optionsJson", "options")));
        ResidencyPeaks peaks = peakResidency(doc.graph, problem.order);
        Json out;
        out["demandPeak"]["byType"] = peaks.byType;
        out["demandPeak"]["total"] = peaks.total;
        out["order"] = problem.order;
        return dump(out);
    });
}

// Every policy on every order source; rows as `spillway compare --json -` prints them.
val compareAll(const val& graphJson, const val& optionsJson) {
    return guarded([&] {
        GraphDocument doc = parseInBrowser(textOf(graphJson, "graphJson", "graph"));
        return comparisonToJson(compare(doc, parseRunOptions(textOf(optionsJson, "optionsJson", "options"))));
    });
}

// The trade-off front between data moved and cycles: the JSON `spillway frontier -o -` prints.
// The options are plan()'s; frontier() runs the cycles objective at its own margins.
val frontierText(const val& graphJson, const val& optionsJson, const FrontierProgress& progress = {}) {
    return guarded([&] {
        GraphDocument doc = parseInBrowser(textOf(graphJson, "graphJson", "graph"));
        const RunOptions opts = parseRunOptions(textOf(optionsJson, "optionsJson", "options"), Objective::Cycles);
        return frontierToJson(frontier(doc, opts, progress));
    });
}

val frontierOf(const val& graphJson, const val& optionsJson) { return frontierText(graphJson, optionsJson); }

// frontierOf() that tells `onFront` the front of the runs made so far after each run:
// {"runsMade", "runs", "points"} (the points as frontier() writes them).
val frontierWithProgress(const val& graphJson, const val& optionsJson, val onFront) {
    return frontierText(graphJson, optionsJson, [&](const std::vector<FrontierPoint>& front, int runsMade, int runs) {
        onFront(frontierProgressToJson(front, runsMade, runs));
    });
}

// Packs minimalloc's CSV (packing_io.h): the JSON `spillway pack FILE --json -` prints.
val pack(const val& csvText, const val& optionsJson) {
    return guarded([&] {
        const packing::PackRequest request = packing::parsePackOptions(textOf(optionsJson, "optionsJson", "options"));
        packing::CsvDocument doc = packing::parsePackingCsv(textOf(csvText, "csvText", "csv"));
        doc.problem.capacity = request.capacity;
        return packing::packResultToJson(doc, packing::packValidated(doc.problem, request.options));
    });
}

// The packer's switchable techniques: [{"name", "what"}], in the order of `--disable`'s help.
std::string packTechniques() {
    Json out = Json::array();
    for (const packing::TechniqueInfo& t : packing::techniques()) out.push_back({{"name", t.name}, {"what", t.what}});
    return dump(out);
}

// The cycles objective's switchable techniques: [{"name", "what"}], in the order of `--disable`'s help.
std::string cyclesTechniqueList() {
    Json out = Json::array();
    for (const CyclesTechniqueInfo& t : cyclesTechniques()) out.push_back({{"name", t.name}, {"what", t.what}});
    return dump(out);
}

std::string examples() {
    Json out = Json::array();
    for (const ExampleInfo& e : exampleList())
        out.push_back({{"name", e.name}, {"title", e.title}, {"description", e.description}});
    return dump(out);
}

val example(const val& name) {
    return guarded([&] { return exampleGraphJson(textOf(name, "name", "")); });
}

// Bytes the engine's allocator holds right now: tests check that failing calls leak nothing.
double heapInUse() { return static_cast<double>(mallinfo().uordblks); }

double browserMaxNodes() { return static_cast<double>(kBrowserMaxNodes); }

}  // namespace

EMSCRIPTEN_BINDINGS(spillway) {
    emscripten::function("version", &version);
    emscripten::function("policies", &policies);
    emscripten::function("policyList", &policyListJson);
    emscripten::function("orders", &orders);
    emscripten::function("plan", &plan);
    emscripten::function("translate", &translate);
    emscripten::function("planWithProgress", &planWithProgress);
    emscripten::function("verify", &verify);
    emscripten::function("metrics", &metrics);
    emscripten::function("compare", &compareAll);
    emscripten::function("frontier", &frontierOf);
    emscripten::function("frontierWithProgress", &frontierWithProgress);
    emscripten::function("pack", &pack);
    emscripten::function("packTechniques", &packTechniques);
    emscripten::function("cyclesTechniques", &cyclesTechniqueList);
    emscripten::function("examples", &examples);
    emscripten::function("example", &example);
    emscripten::function("heapInUse", &heapInUse);
    emscripten::function("browserMaxNodes", &browserMaxNodes);
}
