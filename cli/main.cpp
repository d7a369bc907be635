// spillway: the command-line face of the engine. Thin on purpose: parse arguments, read files,
// call spillway::run, print. Exit codes: 0 success, 2 bad input, 3 internal error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "spillway/error.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"
#include "spillway/verifier.h"

namespace fs = std::filesystem;
using namespace spillway;

namespace {

constexpr const char* kUsageHead = R"(usage:
  spillway plan [GRAPH.json] [options]   plan a graph (no GRAPH: the built-in example)
  spillway compare [GRAPH.json] [--caps ...] [--cost C] [--effort N] [--json -]
                                         every policy on every order source, one table
  spillway bench [GRAPH.json ...] [--repeat N] [--policy P] [--order O] [--cost C] [--effort N]
                                         median times of each stage, as a table
  spillway verify GRAPH.json RESULT.json [--caps ...]
                                         re-verify a result file (exit 1 on violations)
  spillway examples                      list the built-in examples
  spillway example NAME                  print an example graph as JSON
  spillway orders                        list the order sources (--order)
  spillway generate matmul|flash-attention|conv [KEY=N ...]
                                         print a generated look-alike with every FREE at the end,
                                         as the contest's files: matmul m= n= k=, flash-attention
                                         queries= kvs=, conv groups= (defaults: the Case0 sizes)
  spillway --version | --help

plan options:
  --caps L1=4096,UB=1024,...   capacities (default: the graph's "Capacities", else
                               L1=4096,UB=1024,L0A=256,L0B=256,L0C=512)
)";

constexpr const char* kUsageTail = R"(  --effort N                   order search budget in evaluations (default: by graph size);
                               the same N gives the same order, a larger N one as good or better
  --cost seed|contest          spill cost model (default: contest)
  --fixed-latency N            seed cost model: cycles per spill (default 0)
  --cycles-per-byte N          seed cost model: cycles per byte (default 1)
  -o RESULT.json               write the full result (docs/result-format.md)
  --export DIR                 write schedule.txt, memory.txt, spill.txt (the contest's files)
)";

// Wraps `text` to lines of at most `width` characters, each starting with `indent`.
std::string wrapped(const std::string& text, const std::string& indent, size_t width) {
    std::string out, line;
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += indent + line + "\n";
    return out;
}

// The help text: the order sources and policies come from their registries.
std::string usage() {
    const std::string indent(31, ' ');
    std::string names;
    for (const OrderSourceInfo& o : orderSourceList()) names += (names.empty() ? "" : "|") + o.name;
    std::string text = kUsageHead;
    text += "  --order " + names + "|FILE\n";
    for (const OrderSourceInfo& o : orderSourceList())
        text += wrapped(o.name + (o.name == orderSourceList().front().name ? " (default)" : "") + ": " + o.description,
                        indent, 96);
    text += wrapped("FILE: one node id a line", indent, 96);
    std::string policies;
    for (const std::string& p : policyNames()) policies += (policies.empty() ? "" : "|") + p;
    text += "  --policy " + policies + "\n" +
            wrapped("planner policy (default: " + policyNames().front() + ", the least data moved of all)", indent, 96);
    return text + kUsageTail;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read " + path + ": no such file or not readable");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text)) throw InputError("cannot write " + path.string());
}

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
};

Args parseArgs(int argc, char** argv, int from, const std::vector<std::string>& known) {
    Args a;
    for (int i = from; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() > 1 && arg[0] == '-') {
            if (std::find(known.begin(), known.end(), arg) == known.end())
                throw InputError("unknown option " + arg + " (see spillway --help)");
            if (i + 1 >= argc) throw InputError("option " + arg + " needs a value");
            a.options[arg] = argv[++i];
        } else {
            a.positional.push_back(arg);
        }
    }
    return a;
}

std::int64_t parseCount(const std::string& option, const std::string& value) {
    bool ok = !value.empty() && value.size() <= 12 &&
              std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!ok) throw InputError("option " + option + " needs a non-negative integer, got \"" + value + "\"");
    return std::stoll(value);
}

RunOptions runOptionsFrom(const Args& a) {
    RunOptions opts;
    auto get = [&](const char* k) -> const std::string* {
        auto it = a.options.find(k);
        return it == a.options.end() ? nullptr : &it->second;
    };
    if (auto v = get("--caps")) opts.capacities = parseCapacityList(*v);
    if (auto v = get("--order")) {
        if (isOrderSource(*v)) {
            opts.orderSource = *v;
        } else {
            opts.orderSource = "given";
            opts.order = parseOrderText(readFile(*v));
        }
    }
    if (auto v = get("--policy")) opts.policy = *v;
    if (auto v = get("--effort")) opts.effort = parseCount("--effort", *v);
    if (auto v = get("--cost")) opts.cost = CostModel::parse(*v);
    if (auto v = get("--fixed-latency")) opts.cost.fixedLatency = parseCount("--fixed-latency", *v);
    if (auto v = get("--cycles-per-byte")) opts.cost.cyclesPerByte = parseCount("--cycles-per-byte", *v);
    return opts;
}

std::string graphTextFor(const Args& a, std::string& label) {
    if (a.positional.size() > 1) throw InputError("plan takes one graph file, got " + std::to_string(a.positional.size()));
    if (a.positional.empty()) {
        label = "example \"" + exampleList().front().name + "\"";
        return exampleGraphJson(exampleList().front().name);
    }
    label = a.positional.front();
    return readFile(label);
}

double millisecondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// "at the lower bound" or "within 12.5% of the lower bound": how far a plan may still improve
// for its order.
std::string withinBound(Bytes moved, Bytes bound) {
    if (moved == bound) return "the plan is at the bound: optimal for this order";
    if (bound == 0) return "the plan is above it; the bound is 0";
    char text[96];
    std::snprintf(text, sizeof text, "the plan is within %.1f%% of it",
                  100.0 * static_cast<double>(moved - bound) / static_cast<double>(bound));
    return text;
}

void printSummary(const std::string& label, const GraphDocument& doc, const Result& r, double ms) {
    const Metrics& m = r.metrics;
    std::printf("graph: %s (%zu nodes, %zu buffers)\n", label.c_str(), doc.graph.nodes.size(),
                doc.graph.buffers.size());
    std::printf("order: %s   policy: %s   cost: %s\n", r.orderSource.c_str(), r.policy.c_str(),
                r.cost.name().c_str());
    if (r.search)
        std::printf("order search: %lld evaluations (effort %lld), from %s\n", static_cast<long long>(r.search->evaluations),
                    static_cast<long long>(r.search->effort), r.search->start.c_str());
    std::printf("spills: %d\n", m.spills);
    std::printf("extra data moved: %lld bytes\n", static_cast<long long>(m.extraBytes));
    std::printf("lower bound for this order: %lld bytes (%s)\n", static_cast<long long>(m.bound.total),
                withinBound(m.extraBytes, m.bound.total).c_str());
    std::printf("peak of the order (demand / capacity):");
    for (const auto& [type, peak] : m.demandPeaks.byType)
        std::printf(" %s %lld/%lld", type.c_str(), static_cast<long long>(peak),
                    static_cast<long long>(r.capacities.at(type)));
    std::printf("; all types %lld\n", static_cast<long long>(m.demandPeaks.total));
    std::printf("total cycles: %lld\n", static_cast<long long>(m.totalCycles));
    std::printf("verified: yes (independent verifier, 0 violations)\n");
    std::printf("time: %.1f ms\n", ms);
}

int commandPlan(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--caps", "--order", "--policy", "--cost", "--fixed-latency",
                                       "--cycles-per-byte", "--effort", "-o", "--export"});
    RunOptions opts = runOptionsFrom(a);
    std::string label;
    const std::string text = graphTextFor(a, label);
    auto t0 = std::chrono::steady_clock::now();
    GraphDocument doc = parseGraphDocument(text);
    Result r = run(doc, opts);
    const double ms = millisecondsSince(t0);
    if (a.options.count("-o")) writeFile(a.options.at("-o"), resultToJson(doc.graph, r));
    if (a.options.count("--export")) {
        fs::path dir = a.options.at("--export");
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) throw InputError("cannot create " + dir.string() + ": " + ec.message());
        writeFile(dir / "schedule.txt", scheduleText(r.plan));
        writeFile(dir / "memory.txt", memoryText(r.plan));
        writeFile(dir / "spill.txt", spillText(r.plan));
    }
    printSummary(label, doc, r, ms);
    return 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Times each stage separately, `repeat` times, and prints medians: the numbers README quotes.
int commandBench(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--repeat", "--policy", "--cost", "--order", "--effort"});
    const int repeat = static_cast<int>(std::max<std::int64_t>(1, a.options.count("--repeat") ? parseCount("--repeat", a.options.at("--repeat")) : 15));
    RunOptions opts = runOptionsFrom(a);
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const std::string& path : a.positional) inputs.emplace_back(fs::path(path).filename().string(), readFile(path));
    if (inputs.empty())
        for (const ExampleInfo& e : exampleList()) inputs.emplace_back(e.name, exampleGraphJson(e.name));
    std::printf("median of %d runs, milliseconds (policy %s, cost %s)\n", repeat, opts.policy.c_str(),
                opts.cost.name().c_str());
    std::printf("%-28s %7s %7s %7s %8s %8s %8s %8s %8s\n", "graph", "nodes", "spills", "parse", "plan",
                "verify", "timing", "total", "extraB");
    for (const auto& [name, text] : inputs) {
        std::vector<double> tParse, tPlan, tVerify, tTiming, tTotal;
        Result r;
        size_t nodes = 0;
        for (int i = 0; i < repeat; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            GraphDocument doc = parseGraphDocument(text);
            auto t1 = std::chrono::steady_clock::now();
            r = Result{};
            Problem problem = prepare(doc, opts);
            r.capacities = problem.capacities;
            r.inputOrder = problem.order;
            // Order source "best" has planned each candidate order already: keep the winner's plan.
            r.plan = problem.plan ? std::move(*problem.plan)
                                  : planSpills(doc.graph, r.inputOrder, PlanOptions{r.capacities, opts.cost, opts.policy});
            auto t2 = std::chrono::steady_clock::now();
            auto violations = verifyPlan(doc.graph, r.capacities, r.plan);
            if (!violations.empty()) throw InternalError(name + ": plan failed verification: " + violations.front().message);
            auto t3 = std::chrono::steady_clock::now();
            r.timing = simulateTiming(doc.graph, r.plan);
            auto t4 = std::chrono::steady_clock::now();
            r.metrics = measure(doc.graph, r.capacities, r.inputOrder, r.plan, r.timing);
            nodes = doc.graph.nodes.size();
            auto ms = [](auto x, auto y) { return std::chrono::duration<double, std::milli>(y - x).count(); };
            tParse.push_back(ms(t0, t1));
            tPlan.push_back(ms(t1, t2));
            tVerify.push_back(ms(t2, t3));
            tTiming.push_back(ms(t3, t4));
            tTotal.push_back(ms(t0, t4));
        }
        std::printf("%-28s %7zu %7d %7.2f %8.2f %8.2f %8.2f %8.2f %8lld\n", name.c_str(), nodes, r.metrics.spills,
                    median(tParse), median(tPlan), median(tVerify), median(tTiming), median(tTotal),
                    static_cast<long long>(r.metrics.extraBytes));
    }
    return 0;
}

// Replays a result file with the independent verifier: for results made elsewhere or edited.
int commandVerify(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--caps", "--order"});
    if (a.positional.size() != 2) throw InputError("usage: spillway verify GRAPH.json RESULT.json [--caps ...]");
    GraphDocument doc = parseGraphDocument(readFile(a.positional[0]));
    Problem problem = prepare(doc, runOptionsFrom(a));
    Plan plan = planFromResultJson(readFile(a.positional[1]));
    std::vector<Violation> violations = verifyPlan(doc.graph, problem.capacities, plan);
    for (const Violation& v : violations) std::printf("%s: %s\n", v.kind.c_str(), v.message.c_str());
    if (!violations.empty()) return 1;
    std::printf("ok: %zu spills, every step verified\n", plan.spills.size());
    return 0;
}

// Every policy on every order source: what each decision is worth on this graph.
int commandCompare(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--caps", "--cost", "--fixed-latency", "--cycles-per-byte", "--effort", "--json"});
    if (a.options.count("--json") && a.options.at("--json") != "-")
        throw InputError("--json takes - (print JSON on stdout)");
    std::string label;
    GraphDocument doc = parseGraphDocument(graphTextFor(a, label));
    RunOptions opts = runOptionsFrom(a);
    std::vector<ComparisonRow> rows = compare(doc, opts);
    if (a.options.count("--json")) {
        std::fputs(comparisonToJson(rows).c_str(), stdout);
        return 0;
    }
    std::printf("graph: %s (%zu nodes, %zu buffers), cost %s; every plan verified\n", label.c_str(),
                doc.graph.nodes.size(), doc.graph.buffers.size(), opts.cost.name().c_str());
    std::printf("%-9s %-20s %7s %10s %10s %s %12s %9s\n", "order", "policy", "spills", "extra B", "bound B",
                "peak (order demand) per memory / all", "cycles", "ms");
    for (const ComparisonRow& r : rows) {
        std::string peaks;
        for (const auto& [type, peak] : r.metrics.demandPeaks.byType)
            peaks += type + " " + std::to_string(peak) + "  ";
        peaks += "/ " + std::to_string(r.metrics.demandPeaks.total);
        std::string policy = r.policy == r.planPolicy ? r.policy : r.policy + " (" + r.planPolicy + ")";
        std::printf("%-9s %-20s %7d %10lld %10lld  %s %12lld %9.1f\n", r.orderSource.c_str(), policy.c_str(),
                    r.metrics.spills, static_cast<long long>(r.metrics.extraBytes),
                    static_cast<long long>(r.metrics.bound.total), peaks.c_str(),
                    static_cast<long long>(r.metrics.totalCycles), r.milliseconds);
    }
    return 0;
}

int commandExamples() {
    for (const ExampleInfo& e : exampleList()) std::printf("%-22s %s\n", e.name.c_str(), e.title.c_str());
    return 0;
}

// Generated look-alikes of other sizes (examples.h), e.g. Matmul_Case1's shape: matmul m=16 n=16 k=16.
int commandGenerate(int argc, char** argv) {
    if (argc < 3) throw InputError("usage: spillway generate matmul|flash-attention|conv [KEY=N ...]");
    const std::string kind = argv[2];
    std::map<std::string, int> values;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        if (eq == std::string::npos) throw InputError("generate: \"" + arg + "\" must look like KEY=N");
        values[arg.substr(0, eq)] = static_cast<int>(std::min<std::int64_t>(parseCount(arg.substr(0, eq), arg.substr(eq + 1)), 1 << 20));
    }
    auto take = [&](const char* key, int& into) {
        auto it = values.find(key);
        if (it == values.end()) return;
        into = it->second;
        values.erase(it);
    };
    std::string graph;
    if (kind == "matmul") {
        MatmulParams p;
        p.m = p.n = p.k = 8;
        p.freesAtEnd = true;
        take("m", p.m);
        take("n", p.n);
        take("k", p.k);
        if (values.empty()) graph = generateTiledMatmul(p);
    } else if (kind == "flash-attention") {
        FlashAttentionParams p;
        p.freesAtEnd = true;
        take("queries", p.queryBlocks);
        take("kvs", p.kvBlocks);
        if (values.empty()) graph = generateFlashAttentionLike(p);
    } else if (kind == "conv") {
        ConvParams p;
        p.freesAtEnd = true;
        take("groups", p.groups);
        if (values.empty()) graph = generateConvLike(p);
    } else {
        throw InputError("generate: unknown kind \"" + kind + "\": expected matmul, flash-attention or conv");
    }
    if (!values.empty()) throw InputError("generate " + kind + ": unknown key \"" + values.begin()->first + "\"");
    std::fputs(graph.c_str(), stdout);
    return 0;
}

int commandOrders() {
    for (const OrderSourceInfo& o : orderSourceList()) std::printf("%-10s %s\n", o.name.c_str(), o.title.c_str());
    return 0;
}

int dispatch(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "--help";
    if (cmd == "plan") return commandPlan(argc, argv);
    if (cmd == "bench") return commandBench(argc, argv);
    if (cmd == "verify") return commandVerify(argc, argv);
    if (cmd == "compare") return commandCompare(argc, argv);
    if (cmd == "examples") return commandExamples();
    if (cmd == "orders") return commandOrders();
    if (cmd == "generate") return commandGenerate(argc, argv);
    if (cmd == "example") {
        if (argc != 3) throw InputError("usage: spillway example NAME (see spillway examples)");
        std::fputs(exampleGraphJson(argv[2]).c_str(), stdout);
        return 0;
    }
    if (cmd == "--version") {
        std::printf("spillway %s\n", SPILLWAY_VERSION);
        return 0;
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    throw InputError("unknown command \"" + cmd + "\" (see spillway --help)");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return dispatch(argc, argv);
    } catch (const InputError& e) {
        std::fprintf(stderr, "spillway: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spillway: internal error: %s\n", e.what());
        return 3;
    }
}
