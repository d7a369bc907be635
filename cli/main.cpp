// spillway: the command-line face of the engine. Thin on purpose: parse arguments, read files,
// call spillway::run, print. Exit codes: 0 success, 2 bad input, 3 internal error.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <tuple>

#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <unistd.h>
#endif

#include "spillway/spillway.h"

namespace fs = std::filesystem;
using namespace spillway;

namespace {

constexpr const char* kUsageHead = R"(usage:
  spillway plan [GRAPH.json] [options]   plan a graph (no GRAPH: the built-in example); GRAPH may
                                         be a program (docs/programs.md)
  spillway translate PROGRAM [-o GRAPH.json]
                                         the graph a program becomes
  spillway compare [GRAPH.json] [--caps ...] [--cost C] [--effort N] [--objective O] [--json -]
                                         every policy on every order source, one table
  spillway frontier [GRAPH.json] [--caps ...] [--order O] [--policy P] [--cost C] [--effort N]
                    [--disable T,...] [-o FILE]
                                         the trade-off between data moved and cycles: the bytes
                                         plan and the cycles objective at margins 0 to 80%
                                         and 1000%, the plans no other beats on both (a
                                         table; -o: JSON)
  spillway bench [GRAPH.json ...] [--repeat N] [--policy P] [--order O] [--cost C] [--effort N]
                                         median times of each stage, as a table
  spillway verify GRAPH.json RESULT.json [--caps ...]
                                         re-verify a result file: the plan and every claim
                                         (metrics, timing, spill cycles, added edges);
                                         exit 1 on violations
  spillway pack FILE.csv --capacity N [options]
                                         place buffers with fixed lifetimes (minimalloc's CSV:
                                         id,lower,upper,size[,alignment][,gaps]); exit 0 when
                                         they fit, 1 when they do not or the budget ran out
  spillway pack-bench [FILE.csv ...] [--capacity N] [--instances N] [--budget N] [--lifetime on|off]
                    [--family measured,cut,derived]
                                         the packer on files, or on generated instances like
                                         minimalloc's "challenging" ones (CPU ms each, how many
                                         pack within 10 CPU seconds); then the lifetime policy
                                         on each as a graph; a table, counts per family
  spillway pack-instance SEED [--family measured|cut|derived]
                                         print a generated instance (CSV, capacity 1048576):
                                         measured (default): calibrated to minimalloc's 11;
                                         cut: rectangle cuts (guillotine, even, skyline);
                                         derived: minimalloc's 11 (built in), blocks split,
                                         shortened, shrunk (a packing of the source holds)
  spillway examples                      list the built-in examples
  spillway example NAME                  print an example graph as JSON
  spillway orders                        list the order sources (--order)
  spillway scale matmul|random [--sizes N,N,...] [--order O] [--policy P] [--effort N]
                                         plan generated graphs of growing size (default
                                         10000,100000,1000000 nodes): CPU seconds of each stage
                                         and each stage's fitted growth exponent
  spillway generate matmul M N K | flash Q KV | conv GROUPS LAYERS | random OPERATIONS
                    | thrash BUFFERS OPERATIONS USES
                    [--seed S] [--frees-at-end] [--alloc-edges PCT] [--bufferless PCT] [-o FILE]
                                         a generated graph (sizes of any scale, for benchmarks;
                                         thrash: BUFFERS one-byte UB buffers, capacity USES,
                                         each operation using USES of them at random)
  spillway --version | --help

plan options:
  --caps L1=4096,UB=1024,...   capacities (default: the graph's "Capacities", else
                               L1=4096,UB=1024,L0A=256,L0B=256,L0C=512)
)";

constexpr const char* kUsageTail =
    R"(  --effort N                   order search budget in evaluations (default: by graph size);
                               the same N gives the same order, a larger N one as good or better
  --objective bytes|cycles     bytes (default): the plan moving the least data; cycles: that plan
                               made to finish sooner, moving at most 10% more data (docs/timing.md)
  --margin PERCENT             with --objective cycles, the data it may move beyond the bytes
                               plan's (default 10; 0..1000)
  --disable T,...              with --objective cycles, switch techniques off to measure each:
%CYCLES%
  --cost seed|contest          spill cost model (default: contest)
  --fixed-latency N            seed cost model: cycles per spill (default 0)
  --cycles-per-byte N          seed cost model: cycles per byte (default 1)
  -o RESULT.json               write the full result (docs/result-format.md)
  --format summary|program     what plan prints: the summary (default), or a program's plan as
                               the program with its spill and reload lines and registers
  --force STEP=BUFFER          What if: write BUFFER out just before STEP of the input order, the
                               policy planning the rest (policies lifetime, residency, belady,
                               lru, fifo)
  --export DIR                 write schedule.txt, memory.txt, spill.txt (the contest's files)

limits (README.md, "Limits"): input files up to 1 GiB, JSON nesting 32 deep, 4,194,304 nodes,
16,777,216 edges; bench --repeat 1..1000; --fixed-latency 0..2^32, --cycles-per-byte 0..2^20.

pack options:
  --capacity N                 bytes of the memory (required)
  -o OUT.csv                   write minimalloc's output (the input columns plus offset)
  --budget N                   search nodes before answering "unknown" (default 10000000)
  --disable T,...              switch techniques off, to measure what each is worth:
%TECHNIQUES%
  --preorders K,...            static orders tried in turn (default WAT,TAW,TWA,TR,TR,TR); keys:
                               A area, C sections, L lower, O overlaps, T section total,
                               U upper, W width, Z size (each descending), R random
  --probe-after N              nodes a failed subtree takes before a region probe (default 256)
  --json -                     print the result as JSON (as the bindings' pack() returns it)
  --graph OUT.json             write the problem as a graph with a fixed order, to plan
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
    for (const PolicyInfo& p : policyList()) policies += (policies.empty() ? "" : "|") + p.name;
    text += "  --policy " + policies + "\n";
    for (const PolicyInfo& p : policyList())
        text +=
            wrapped(p.name + (p.name == policyList().front().name ? " (default)" : "") + ": " + p.title, indent, 96);
    text += kUsageTail;
    // the packing techniques from their registry
    std::string techniques;
    for (const packing::TechniqueInfo& t : packing::techniques()) {
        std::string line = indent + t.name;
        techniques += line + std::string(line.size() < 50 ? 50 - line.size() : 1, ' ') + t.what + "\n";
    }
    techniques.pop_back();
    const std::string slot = "%TECHNIQUES%";
    text.replace(text.find(slot), slot.size(), techniques);
    std::string cycles;
    for (const CyclesTechniqueInfo& t : cyclesTechniques())
        cycles += wrapped(std::string(t.name) + ": " + t.what, indent, 96);
    cycles.pop_back();
    const std::string cyclesSlot = "%CYCLES%";
    return text.replace(text.find(cyclesSlot), cyclesSlot.size(), cycles);
}

// Which file each kind of input came from, so that errors name it (ErrorPlace::source).
std::map<std::string, std::string> sourceFiles;
std::string orderFileText;  // kept to turn an order position into its line

// Reads at most limits::kMaxInputBytes, stopping at the first NUL byte: a device such as
// /dev/zero or an endless pipe is an error, never a hang.
std::string readFile(const std::string& path, const std::string& source) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read " + path + ": no such file or not readable");
    std::string text;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);  // a regular file: read it without regrowing the text
    if (!ec && fs::is_regular_file(path, ec))
        text.reserve(static_cast<std::size_t>(std::min<std::uintmax_t>(size, limits::kMaxInputBytes)));
    char chunk[1 << 16];
    while (in) {
        in.read(chunk, sizeof chunk);
        const std::string_view got(chunk, static_cast<std::size_t>(in.gcount()));
        if (got.find('\0') != std::string_view::npos)
            throw InputError(path + ": contains a NUL byte at byte " + std::to_string(text.size() + got.find('\0')) +
                             " (not a text file)");
        if (static_cast<std::int64_t>(text.size() + got.size()) > limits::kMaxInputBytes)
            limits::exceeded(path + " is larger than " + std::to_string(limits::kMaxInputBytes) + " bytes",
                             "inputBytes", limits::kMaxInputBytes, source);
        text.append(got);
    }
    if (in.bad()) throw InputError("cannot read " + path + ": read error");
    if (!source.empty()) sourceFiles[source] = path;
    return text;
}

// An output file named "-" is standard output, as `--json -` is.
bool isStdout(const fs::path& path) { return path == "-"; }

// The output options of `a` among `names` that name standard output ("-").
std::vector<std::string> optionsOnStdout(const std::map<std::string, std::string>& options,
                                         const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const std::string& n : names)
        if (options.count(n) && isStdout(options.at(n))) out.push_back(n);
    if (out.size() > 1)
        throw InputError(out[0] + " - and " + out[1] + " - both write to standard output: give one a file");
    return out;
}

// Writes the whole file with `write(stream)` and checks that it reached the disk (a full disk or
// /dev/full is an error, not a silent success). "-" writes to standard output (main checks it).
template <typename F>
void writeFileWith(const fs::path& path, F&& write) {
    if (isStdout(path)) {
        std::fflush(stdout);
        write(std::cout);
        std::cout.flush();
        return;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out) throw InputError("cannot write " + path.string() + ": cannot open it");
    write(out);
    out.close();
    if (!out) throw InputError("cannot write " + path.string() + ": " + std::strerror(errno));
}

void writeFile(const fs::path& path, const std::string& text) {
    writeFileWith(path, [&](std::ostream& out) { out << text; });
}

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
};

// Options in `known` take a value; those in `flags` take none (their value is "1").
Args parseArgs(int argc, char** argv, int from, const std::vector<std::string>& known,
               const std::vector<std::string>& flags = {}) {
    Args a;
    for (int i = from; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() > 1 && arg[0] == '-') {
            if (std::find(flags.begin(), flags.end(), arg) != flags.end()) {
                a.options[arg] = "1";
                continue;
            }
            if (std::find(known.begin(), known.end(), arg) == known.end())
                throw InputError("unknown option " + excerpt(arg) + " (see spillway --help)");
            if (i + 1 >= argc) throw InputError("option " + arg + " needs a value");
            a.options[arg] = argv[++i];
        } else {
            a.positional.push_back(arg);
        }
    }
    return a;
}

// A non-negative integer option in [min, max]; `limit` names the stated limit max is, if any.
std::int64_t parseCount(const std::string& option, const std::string& value, std::int64_t min, std::int64_t max,
                        const char* limit = nullptr) {
    const bool digits =
        !value.empty() && std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits) throw InputError("option " + option + " needs a non-negative integer, got \"" + excerpt(value) + "\"");
    // More than 18 digits is above every max (and would overflow stoll): out of range like any other.
    const bool tooLong = value.size() > 18;
    const std::int64_t n = tooLong ? max : std::stoll(value);
    if (tooLong || n < min || n > max) {
        ErrorPlace where;
        where.source = "options";
        where.field = option;
        if (limit) where.limit = LimitPlace{limit, max};
        throw InputError("option " + option + " must be between " + std::to_string(min) + " and " +
                             std::to_string(max) + ", got " + excerpt(value),
                         std::move(where));
    }
    return n;
}

// `--force STEP=BUFFER`: the spill What if forces (planner.h).
ForcedSpill parseForce(const std::string& value) {
    const size_t eq = value.find('=');
    if (eq == std::string::npos)
        throw InputError("option --force needs STEP=BUFFER (a step of the input order, a buffer id), got \"" +
                         excerpt(value) + "\"");
    ForcedSpill f;
    f.step = static_cast<int>(parseCount("--force", value.substr(0, eq), 0, limits::kMaxOrderLength));
    f.buffer = static_cast<BufferId>(parseCount("--force", value.substr(eq + 1), 0, limits::kMaxBufferId));
    return f;
}

RunOptions runOptionsFrom(const Args& a) {
    RunOptions opts;
    auto get = [&](const char* k) -> const std::string* {
        auto it = a.options.find(k);
        return it == a.options.end() ? nullptr : &it->second;
    };
    if (auto v = get("--caps")) opts.capacities = parseCapacityList(*v);
    if (auto v = get("--policy")) opts.policy = policyName(parsePolicy(*v));
    if (auto v = get("--effort")) opts.effort = parseCount("--effort", *v, 0, limits::kMaxEffort, "effort");
    if (auto v = get("--cost")) opts.cost = CostModel::parse(*v);
    if (auto v = get("--fixed-latency"))
        opts.cost.fixedLatency = parseCount("--fixed-latency", *v, 0, limits::kMaxFixedLatency, "fixedLatency");
    if (auto v = get("--cycles-per-byte"))
        opts.cost.cyclesPerByte = parseCount("--cycles-per-byte", *v, 0, limits::kMaxCyclesPerByte, "cyclesPerByte");
    if (auto v = get("--objective")) opts.objective = parseObjective(*v);
    if (auto v = get("--force")) opts.force = parseForce(*v);
    if (auto v = get("--disable")) {
        if (opts.objective != Objective::Cycles)
            throw InputError("--disable switches off techniques of --objective cycles");
        opts.cycles.disabled = parseCyclesTechniques(*v);
    }
    if (auto v = get("--margin")) {
        if (opts.objective != Objective::Cycles) throw InputError("--margin is the data margin of --objective cycles");
        opts.cycles.marginPercent =
            static_cast<int>(parseCount("--margin", *v, 0, limits::kMaxMarginPercent, "marginPercent"));
    }
    // Last: an order file is read only once every other option is known to be valid.
    if (auto v = get("--order")) {
        if (isOrderSource(*v)) {
            opts.orderSource = *v;
        } else {
            std::error_code ec;
            if (!fs::exists(*v, ec))
                throw InputError("unknown order source \"" + excerpt(*v) + "\": expected " + orderSourceNames() +
                                 " or an order file (no file " + *v + ")");
            opts.orderSource = "given";
            opts.orderFrom = "order";
            orderFileText = readFile(*v, "order");
            opts.order = parseOrderText(orderFileText);
        }
    }
    return opts;
}

std::string graphTextFor(const Args& a, std::string& label) {
    if (a.positional.size() > 1)
        throw InputError("plan takes one graph file, got " + std::to_string(a.positional.size()));
    if (a.positional.empty()) {
        label = "example \"" + exampleList().front().name + "\"";
        return exampleGraphJson(exampleList().front().name);
    }
    label = a.positional.front();
    return readFile(label, "graph");
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

// Under the cycles objective: whether a larger margin could change the plan.
const char* marginNote(const ObjectiveReport& c) {
    if (c.bytesPlanExtraBytes == 0)
        return "the bytes plan moves no data, so no margin allows any: each makes this plan";
    return c.marginLimited ? "the margin refused plans moving more data: a larger one may make another plan"
                           : "the margin refused no plan: a larger one makes this same plan";
}

// Names from the graph (memories, and the Op and Pipe names a step may quote) are printed
// through printable(), as errors are: a control byte in a name must not reach the terminal.
void printSummary(std::FILE* out, const std::string& label, const GraphDocument& doc, const Result& r, double ms) {
    const Metrics& m = r.metrics;
    std::fprintf(out, "graph: %s (%zu nodes, %zu buffers)\n", printable(label).c_str(), doc.graph.nodes.size(),
                 doc.graph.buffers.size());
    std::fprintf(out, "order: %s   policy: %s   cost: %s\n", r.orderSource.c_str(), r.policy.c_str(),
                 r.cost.name().c_str());
    if (r.search)
        std::fprintf(out, "order search: %lld evaluations (effort %lld), from %s\n",
                     static_cast<long long>(r.search->evaluations), static_cast<long long>(r.search->effort),
                     r.search->start.c_str());
    std::fprintf(out, "spills: %d\n", m.spills);
    std::fprintf(out, "extra data moved: %lld bytes\n", static_cast<long long>(m.extraBytes));
    std::fprintf(out, "lower bound for this order: %lld bytes (%s%s)\n", static_cast<long long>(m.bound.total),
                 withinBound(m.extraBytes, m.bound.total).c_str(),
                 m.bound.exact ? "" : "; a weaker bound: the relaxation by windows or out of its work budget");
    std::fprintf(out, "peak of the order (demand / capacity):");
    for (const auto& [type, peak] : m.demandPeaks.byType)
        std::fprintf(out, " %s %lld/%lld", printable(type).c_str(), static_cast<long long>(peak),
                     static_cast<long long>(r.capacities.at(type)));
    std::fprintf(out, "; all types %lld\n", static_cast<long long>(m.demandPeaks.total));
    std::fprintf(out, "total cycles: %lld\n", static_cast<long long>(m.totalCycles));
    std::fprintf(
        out, "cycles lower bound: %lld for this plan's spills (%s), %lld for this order (%s), %lld for any plan (%s)\n",
        static_cast<long long>(m.cyclesBound.plan.total), printable(m.cyclesBound.plan.limit).c_str(),
        static_cast<long long>(m.cyclesBound.order.total), printable(m.cyclesBound.order.limit).c_str(),
        static_cast<long long>(m.cyclesBound.graph.total), printable(m.cyclesBound.graph.limit).c_str());
    if (r.cycles) {
        const ObjectiveReport& c = *r.cycles;
        std::fprintf(out,
                     "objective cycles (margin %d%%): %lld cycles, %lld bytes moved; the bytes plan: %lld cycles, %lld "
                     "bytes moved\n",
                     c.marginPercent, static_cast<long long>(m.totalCycles), static_cast<long long>(m.extraBytes),
                     static_cast<long long>(c.bytesPlanCycles), static_cast<long long>(c.bytesPlanExtraBytes));
        for (const std::string& step : c.steps) std::fprintf(out, "  %s\n", printable(step).c_str());
        std::fprintf(out, "%s\n", marginNote(c));
    }
    std::fprintf(out, "verified: yes (independent verifier, 0 violations)\n");
    std::fprintf(out, "time: %.1f ms\n", ms);
}

// Frees a graph's text once it is parsed: the model holds everything later errors need (their
// places too), and a million-node graph's text is over 100 MB of the peak.
void releaseText(std::string& text) { std::string().swap(text); }

int commandPlan(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2,
                       {"--caps", "--order", "--policy", "--cost", "--fixed-latency", "--cycles-per-byte", "--effort",
                        "--objective", "--margin", "--disable", "-o", "--export", "--format", "--force"});
    const std::string format = a.options.count("--format") ? a.options.at("--format") : "summary";
    if (format != "summary" && format != "program")
        throw InputError("option --format takes summary or program, got \"" + excerpt(format) + "\"");
    RunOptions opts = runOptionsFrom(a);
    std::string label;
    std::string text = graphTextFor(a, label);
    auto t0 = std::chrono::steady_clock::now();
    GraphDocument doc = parseGraphDocument(text);
    releaseText(text);
    if (format == "program" && !doc.program)
        throw InputError("--format program prints a program's plan: " + label + " is a graph");
    Result r = run(doc, opts);
    const double ms = millisecondsSince(t0);
    // Streamed: a million-node result is hundreds of megabytes of text. With `-o -` it is all
    // standard output carries, and the summary goes to standard error.
    const bool resultOnStdout = !optionsOnStdout(a.options, {"-o"}).empty();
    if (a.options.count("-o"))
        writeFileWith(a.options.at("-o"), [&](std::ostream& out) { writeResultJson(out, doc, r); });
    if (a.options.count("--export")) {
        fs::path dir = a.options.at("--export");
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) throw InputError("cannot create " + dir.string() + ": " + ec.message());
        writeFile(dir / "schedule.txt", scheduleText(r.plan));
        writeFile(dir / "memory.txt", memoryText(r.plan));
        writeFile(dir / "spill.txt", spillText(r.plan));
    }
    if (format == "program")
        std::fputs(programText(rewriteProgram(*doc.program, doc.graph, r.plan)).c_str(),
                   resultOnStdout ? stderr : stdout);
    else
        printSummary(resultOnStdout ? stderr : stdout, label, doc, r, ms);
    return 0;
}

// `spillway translate PROGRAM [-o FILE]`: the graph a program becomes (docs/programs.md).
int commandTranslate(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"-o"});
    if (a.positional.size() != 1) throw InputError("usage: spillway translate PROGRAM [-o GRAPH.json]");
    std::string text = readFile(a.positional.front(), "graph");
    const GraphDocument doc = parseGraphDocument(text);
    releaseText(text);
    if (!doc.program)
        throw InputError(a.positional.front() + " is a graph already (it starts with {): translate reads a program");
    writeFile(a.options.count("-o") ? a.options.at("-o") : "-", graphToJson(doc));
    return 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Times each stage separately, `repeat` times, and prints medians: the numbers README quotes.
int commandBench(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--repeat", "--policy", "--cost", "--order", "--effort"});
    const int repeat = static_cast<int>(
        a.options.count("--repeat") ? parseCount("--repeat", a.options.at("--repeat"), 1, limits::kMaxRepeat, "repeat")
                                    : 15);
    RunOptions opts = runOptionsFrom(a);
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const std::string& path : a.positional)
        inputs.emplace_back(fs::path(path).filename().string(), readFile(path, "graph"));
    if (inputs.empty())
        for (const ExampleInfo& e : exampleList()) inputs.emplace_back(e.name, exampleGraphJson(e.name));
    std::printf("median of %d runs, milliseconds (policy %s, cost %s)\n", repeat, opts.policy.c_str(),
                opts.cost.name().c_str());
    std::printf("%-28s %7s %7s %7s %8s %8s %8s %8s %8s\n", "graph", "nodes", "spills", "parse", "plan", "verify",
                "timing", "total", "extraB");
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
            r.plan = problem.plan
                         ? std::move(*problem.plan)
                         : planSpills(doc.graph, r.inputOrder, PlanOptions{r.capacities, opts.cost, opts.policy, {}});
            auto t2 = std::chrono::steady_clock::now();
            r.timing = simulateTiming(doc.graph, r.plan);
            r.metrics = measure(doc.graph, r.capacities, opts.cost, r.inputOrder, r.plan, r.timing);
            auto t3 = std::chrono::steady_clock::now();
            auto violations = verifyResult(doc.graph, r.capacities, opts.cost, r.plan, claimsInPlace(r));
            if (!violations.empty())
                throw InternalError(name + ": plan failed verification: " + violations.front().message);
            auto t4 = std::chrono::steady_clock::now();
            nodes = doc.graph.nodes.size();
            auto ms = [](auto x, auto y) { return std::chrono::duration<double, std::milli>(y - x).count(); };
            tParse.push_back(ms(t0, t1));
            tPlan.push_back(ms(t1, t2));
            tTiming.push_back(ms(t2, t3));
            tVerify.push_back(ms(t3, t4));
            tTotal.push_back(ms(t0, t4));
        }
        std::printf("%-28s %7zu %7d %7.2f %8.2f %8.2f %8.2f %8.2f %8lld\n", name.c_str(), nodes, r.metrics.spills,
                    median(tParse), median(tPlan), median(tVerify), median(tTiming), median(tTotal),
                    static_cast<long long>(r.metrics.extraBytes));
    }
    return 0;
}

void checkScaleKind(const std::string& kind) {
    if (kind != "matmul" && kind != "random")
        throw InputError("spillway scale: unknown kind \"" + excerpt(kind) + "\": expected matmul or random");
}

// A generated graph of about `nodes` nodes: a tiled matmul (every FREE last, cube of tiles) or a
// random graph (seed 1); `kind` passed checkScaleKind.
std::string scaleGraph(const std::string& kind, std::int64_t nodes) {
    if (kind == "matmul") {
        MatmulParams m;  // about 7.2 nodes per tile triple
        m.m = m.n = m.k = std::max(1, static_cast<int>(std::lround(std::cbrt(static_cast<double>(nodes) / 7.17))));
        m.freesAtEnd = true;
        return generateTiledMatmul(m);
    }
    RandomGraphParams r;  // about 2.8 nodes per operation
    r.operations = std::max(1, static_cast<int>(nodes * 10 / 28));
    return generateRandomGraph(1, r);
}

// A stream that only counts the bytes written to it: `scale` times writing the result without
// holding its text (about a third of the peak memory at 10^5 nodes).
class ByteCounter : public std::streambuf {
protected:
    std::streamsize xsputn(const char*, std::streamsize n) override {
        bytes_ += static_cast<std::size_t>(n);
        return n;
    }
    int_type overflow(int_type c) override {
        if (!traits_type::eq_int_type(c, traits_type::eof())) ++bytes_;
        return traits_type::not_eof(c);
    }

private:
    std::size_t bytes_ = 0;
};

// CPU seconds of this process (not wall time: the machines are shared).
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The most memory this process has held so far (its peak resident set), in MB: read after each
// stage, it says which stage raised the peak.
long peakMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;  // Linux gives kilobytes
}

// Runs `stage` and returns the CPU seconds of one run: if it took under kMinStageSeconds it is run
// again until its runs have, and their mean is returned. At 10^4 nodes the stages after the
// order take a millisecond or so, at the clock's noise, and the fitted exponents leaned on them.
// `stage` must give the same result every time (every stage after the order does).
constexpr double kMinStageSeconds = 0.05;
template <typename Stage>
double stageSeconds(Stage&& stage) {
    const double start = cpuSeconds();
    int runs = 0;
    do {
        stage();
        ++runs;
    } while (cpuSeconds() - start < kMinStageSeconds);
    return (cpuSeconds() - start) / runs;
}

// spillway scale KIND: the default plan (or the given options) of generated graphs of growing
// size, each stage timed in CPU seconds once, and each stage's growth exponent fitted over the
// sizes (least squares of log time on log nodes): the issue's "no stage above ~n log n".
int commandScale(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--sizes", "--policy", "--order", "--effort", "--cost"});
    if (a.positional.size() != 1)
        throw InputError("usage: spillway scale matmul|random [--sizes N,N,...] [plan options]");
    const std::string kind = a.positional[0];
    checkScaleKind(kind);  // before anything is printed
    std::vector<std::int64_t> sizes = {10000, 100000, 1000000};
    if (a.options.count("--sizes")) {
        sizes.clear();
        std::stringstream list(a.options.at("--sizes"));
        for (std::string item; std::getline(list, item, ',');)
            sizes.push_back(parseCount("--sizes", item, 100, limits::kMaxNodes / 2));
    }
    const RunOptions opts = runOptionsFrom(a);
    const char* stages[] = {"parse", "order", "plan", "timing", "bound", "verify", "write"};
    constexpr int kStages = 7;
    std::printf(
        "%s graphs, options: order %s, policy %s; CPU seconds, one run each\n"
        "(parse and the stages after the plan: the mean of runs adding up to at least %.2f s)\n",
        kind.c_str(), opts.orderSource.c_str(), opts.policy.c_str(), kMinStageSeconds);
    std::printf("%9s %8s", "nodes", "spills");
    for (const char* st : stages) std::printf(" %7s", st);
    std::printf(" %7s %9s %s\n", "total", "extraB", "bound");
    std::vector<double> logNodes;
    std::vector<std::vector<double>> logTimes(kStages);
    std::vector<std::vector<double>> times(kStages);
    for (std::int64_t target : sizes) {
        std::string text = scaleGraph(kind, target);
        double seconds[kStages] = {};
        long peak[kStages + 1];
        peak[0] = peakMegabytes();
        GraphDocument doc;
        seconds[0] = stageSeconds([&] { doc = parseGraphDocument(text); });
        releaseText(text);
        peak[1] = peakMegabytes();
        const double orderStart = cpuSeconds();
        Result r;
        Problem problem = prepare(doc, opts);
        const double orderEnd = cpuSeconds();
        peak[2] = peakMegabytes();
        r.capacities = problem.capacities;
        r.orderSource = problem.orderSource;
        r.inputOrder = std::move(problem.order);
        r.search = problem.search;
        r.policy = opts.policy;
        r.cost = opts.cost;
        r.plan = problem.plan
                     ? std::move(*problem.plan)
                     : planSpills(doc.graph, r.inputOrder, PlanOptions{r.capacities, opts.cost, opts.policy, {}});
        seconds[1] = orderEnd - orderStart;
        seconds[2] = cpuSeconds() - orderEnd;
        peak[3] = peakMegabytes();
        seconds[3] = stageSeconds([&] { r.timing = simulateTiming(doc.graph, r.plan); });
        peak[4] = peakMegabytes();
        seconds[4] = stageSeconds(
            [&] { r.metrics = measure(doc.graph, r.capacities, opts.cost, r.inputOrder, r.plan, r.timing); });
        peak[5] = peakMegabytes();
        seconds[5] = stageSeconds([&] {
            const auto violations = verifyResult(doc.graph, r.capacities, opts.cost, r.plan, claimsInPlace(r));
            if (!violations.empty()) throw InternalError("the plan failed verification: " + violations.front().message);
        });
        peak[6] = peakMegabytes();
        seconds[6] = stageSeconds([&] {
            ByteCounter written;
            std::ostream sink(&written);
            writeResultJson(sink, doc.graph, r);
        });
        peak[7] = peakMegabytes();
        const auto nodes = static_cast<double>(doc.graph.nodes.size());
        std::printf("%9zu %8d", doc.graph.nodes.size(), r.metrics.spills);
        double total = 0;
        for (int i = 0; i < kStages; ++i) {
            times[i].push_back(seconds[i]);
            total += seconds[i];
            std::printf(" %7.2f", seconds[i]);
        }
        std::printf(" %7.2f %9lld %s%s\n", total, static_cast<long long>(r.metrics.extraBytes),
                    std::to_string(r.metrics.bound.total).c_str(), r.metrics.bound.exact ? "" : " (budget)");
        std::printf("%9s %8s", "peak MB", "");
        for (int i = 0; i < kStages; ++i) std::printf(" %7ld", peak[i + 1]);
        std::printf("   (the process's peak after each stage; %ld with the generated text, before parsing)\n", peak[0]);
        std::fflush(stdout);
        logNodes.push_back(std::log(nodes));
        for (int i = 0; i < kStages; ++i) logTimes[i].push_back(std::log(std::max(times[i].back(), 1e-3)));
    }
    if (sizes.size() < 2) return 0;
    // Slope of the least-squares line through (log n, log t); times under a millisecond count as one.
    std::printf("%9s %8s", "exponent", "");
    const double k = static_cast<double>(logNodes.size());
    double mx = 0;
    for (double x : logNodes) mx += x / k;
    double sxx = 0;
    for (double x : logNodes) sxx += (x - mx) * (x - mx);
    for (int i = 0; i < kStages; ++i) {
        double my = 0, sxy = 0;
        for (double y : logTimes[i]) my += y / k;
        for (size_t j = 0; j < logNodes.size(); ++j) sxy += (logNodes[j] - mx) * (logTimes[i][j] - my);
        std::printf(" %7.2f", sxx > 0 ? sxy / sxx : 0.0);
    }
    std::printf("\n");
    return 0;
}

// Replays a result file with the independent verifier, and recomputes everything it claims
// (metrics, timing, spill cycles under its cost model): for results made elsewhere or edited.
int commandVerify(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--caps"});
    if (a.positional.size() != 2) throw InputError("usage: spillway verify GRAPH.json RESULT.json [--caps ...]");
    GraphDocument doc = parseGraphDocument(readFile(a.positional[0], "graph"));
    const Capacities caps = capacitiesFor(doc, runOptionsFrom(a));
    const ResultFile result = readResultFile(readFile(a.positional[1], "result"));
    std::vector<Violation> violations =
        verifyResultRecomputing(doc.graph, caps, result.cost, result.plan, result.claims);
    for (const Violation& v : violations) std::printf("%s: %s\n", violationKindName(v.kind), v.message.c_str());
    if (!violations.empty()) return 1;
    std::printf(
        "ok: %zu spills, every step, metric, lower bound and time verified (decisions, search and objective not "
        "checked)\n",
        result.plan.spills.size());
    return 0;
}

std::string policyCell(const ComparisonRow& r) {
    return r.policy == r.planPolicy ? r.policy : r.policy + " (" + r.planPolicy + ")";
}

std::string peaksCell(const Metrics& m) {
    std::string peaks;
    for (const auto& [type, peak] : m.demandPeaks.byType) peaks += printable(type) + " " + std::to_string(peak) + "  ";
    return peaks + "/ " + std::to_string(m.demandPeaks.total);
}

// compare under the cycles objective: each row's bytes plan and the plan made from it to finish
// sooner, data moved and cycles side by side.
void printCyclesComparison(const std::string& label, const GraphDocument& doc, const RunOptions& opts,
                           const std::vector<ComparisonRow>& rows) {
    std::printf("graph: %s (%zu nodes, %zu buffers), cost %s, objective cycles (margin %d%%); every plan verified\n",
                printable(label).c_str(), doc.graph.nodes.size(), doc.graph.buffers.size(), opts.cost.name().c_str(),
                opts.cycles.marginPercent);
    std::printf("%-9s %-20s %-23s %-23s %9s\n", "", "", "  objective bytes", "  objective cycles", "");
    std::printf("%-9s %-20s %10s %12s %10s %12s %9s\n", "order", "policy", "extra B", "cycles", "extra B", "cycles",
                "ms");
    for (const ComparisonRow& r : rows)
        std::printf("%-9s %-20s %10lld %12lld %10lld %12lld %9.1f\n", r.orderSource.c_str(), policyCell(r).c_str(),
                    static_cast<long long>(r.cycles->bytesPlanExtraBytes),
                    static_cast<long long>(r.cycles->bytesPlanCycles), static_cast<long long>(r.metrics.extraBytes),
                    static_cast<long long>(r.metrics.totalCycles), r.milliseconds);
}

// Every policy on every order source: what each decision is worth on this graph.
int commandCompare(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2,
                       {"--caps", "--cost", "--fixed-latency", "--cycles-per-byte", "--effort", "--json", "--objective",
                        "--margin", "--disable"});
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
    if (opts.objective == Objective::Cycles) {
        printCyclesComparison(label, doc, opts, rows);
        return 0;
    }
    std::printf("graph: %s (%zu nodes, %zu buffers), cost %s; every plan verified\n", printable(label).c_str(),
                doc.graph.nodes.size(), doc.graph.buffers.size(), opts.cost.name().c_str());
    std::printf("%-9s %-20s %7s %10s %10s %s %12s %9s\n", "order", "policy", "spills", "extra B", "bound B",
                "peak (order demand) per memory / all", "cycles", "ms");
    for (const ComparisonRow& r : rows) {
        std::printf("%-9s %-20s %7d %10lld %10lld  %s %12lld %9.1f\n", r.orderSource.c_str(), policyCell(r).c_str(),
                    r.metrics.spills, static_cast<long long>(r.metrics.extraBytes),
                    static_cast<long long>(r.metrics.bound.total), peaksCell(r.metrics).c_str(),
                    static_cast<long long>(r.metrics.totalCycles), r.milliseconds);
    }
    return 0;
}

// The trade-off front between data moved and cycles: each point's plan verified, as a table or
// JSON (-o).
int commandFrontier(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2,
                       {"--caps", "--order", "--policy", "--cost", "--fixed-latency", "--cycles-per-byte", "--effort",
                        "--disable", "-o"});
    a.options["--objective"] = "cycles";  // --disable names the cycles objective's techniques
    std::string label;
    GraphDocument doc = parseGraphDocument(graphTextFor(a, label));
    int runs = kFrontierRuns;
    const std::vector<FrontierPoint> points =
        frontier(doc, runOptionsFrom(a), [&](const std::vector<FrontierPoint>&, int, int of) { runs = of; });
    if (a.options.count("-o")) {
        writeFile(a.options.at("-o"), frontierToJson(points));
        if (isStdout(a.options.at("-o"))) return 0;
    }
    std::printf("graph: %s (%zu nodes, %zu buffers); every plan verified\n", printable(label).c_str(),
                doc.graph.nodes.size(), doc.graph.buffers.size());
    std::printf("%-9s %7s %-9s %-20s %7s %10s %12s\n", "objective", "margin", "order", "policy", "spills", "extra B",
                "cycles");
    for (const FrontierPoint& p : points) {
        const std::string margin = p.objective == Objective::Cycles ? std::to_string(p.marginPercent) + "%" : "";
        std::printf("%-9s %7s %-9s %-20s %7d %10lld %12lld\n", objectiveName(p.objective), margin.c_str(),
                    p.orderSource.c_str(), printable(p.planPolicy).c_str(), p.metrics.spills,
                    static_cast<long long>(p.metrics.extraBytes), static_cast<long long>(p.metrics.totalCycles));
    }
    if (runs < kFrontierRuns)
        std::printf(
            "%d of %d runs made: the others would make a plan made already (their margin allows the data "
            "of a smaller one, or lies above a run its margin did not limit)\n",
            runs, kFrontierRuns);
    return 0;
}

// spillway generate KIND ...: the example generators at any size (benchmarks of large graphs).
int commandGenerate(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--seed", "-o", "--alloc-edges", "--bufferless"}, {"--frees-at-end"});
    const std::vector<std::string>& p = a.positional;
    const std::string kind = p.empty() ? "" : p[0];
    auto count = [&](std::size_t i, const char* what) {
        if (i >= p.size())
            throw InputError("spillway generate " + kind + ": missing " + what + " (see spillway --help)");
        return static_cast<int>(parseCount(what, p[i], 1, 1000000));
    };
    const bool freesAtEnd = a.options.count("--frees-at-end") != 0;
    const std::uint64_t seed =
        a.options.count("--seed")
            ? static_cast<std::uint64_t>(parseCount("--seed", a.options.at("--seed"), 0, INT64_MAX))
            : 1;
    std::string text;
    if (kind == "matmul") {
        MatmulParams m;
        m.m = count(1, "M");
        m.n = count(2, "N");
        m.k = count(3, "K");
        m.freesAtEnd = freesAtEnd;
        text = generateTiledMatmul(m);
    } else if (kind == "flash") {
        FlashAttentionParams f;
        f.queryBlocks = count(1, "Q");
        f.kvBlocks = count(2, "KV");
        f.freesAtEnd = freesAtEnd;
        text = generateFlashAttentionLike(f);
    } else if (kind == "conv") {
        ConvParams c;
        c.groups = count(1, "GROUPS");
        c.layersPerStage = count(2, "LAYERS");
        c.freesAtEnd = freesAtEnd;
        text = generateConvLike(c);
    } else if (kind == "random") {
        RandomGraphParams r;
        r.operations = count(1, "OPERATIONS");
        r.freesAtEnd = freesAtEnd;
        if (a.options.count("--alloc-edges"))
            r.allocEdgePercent = static_cast<int>(parseCount("--alloc-edges", a.options.at("--alloc-edges"), 0, 100));
        if (a.options.count("--bufferless"))
            r.bufferlessPercent = static_cast<int>(parseCount("--bufferless", a.options.at("--bufferless"), 0, 100));
        text = generateRandomGraph(seed, r);
    } else if (kind == "thrash") {
        ThrashParams t;
        t.buffers = count(1, "BUFFERS");
        t.operations = count(2, "OPERATIONS");
        t.usesPerOperation = count(3, "USES");
        t.capacity = t.usesPerOperation;
        text = generateThrash(seed, t);
    } else {
        throw InputError("spillway generate: unknown kind \"" + excerpt(kind) +
                         "\": expected matmul, flash, conv, random or thrash");
    }
    if (a.options.count("-o"))
        writeFile(a.options.at("-o"), text);
    else
        std::fputs(text.c_str(), stdout);
    return 0;
}

// Options shared by pack and pack-bench.
packing::Options packOptionsFrom(const Args& a) {
    packing::Options o;
    if (a.options.count("--budget"))
        o.budget = parseCount("--budget", a.options.at("--budget"), 1, std::int64_t{1} << 40);
    if (a.options.count("--disable")) o.disabled = packing::parseTechniques(a.options.at("--disable"));
    if (a.options.count("--preorders")) o.preorders = packing::parsePreorders(a.options.at("--preorders"));
    if (a.options.count("--probe-after"))
        o.probeAfter = parseCount("--probe-after", a.options.at("--probe-after"), 1, std::int64_t{1} << 40);
    return o;
}

int commandPack(int argc, char** argv) {
    Args a =
        parseArgs(argc, argv, 2,
                  {"--capacity", "-o", "--budget", "--disable", "--preorders", "--probe-after", "--json", "--graph"});
    if (a.positional.size() != 1)
        throw InputError("usage: spillway pack FILE.csv --capacity N [options] (see spillway --help)");
    if (!a.options.count("--capacity")) throw InputError("pack needs --capacity N (the bytes of the memory)");
    if (a.options.count("--json") && a.options.at("--json") != "-")
        throw InputError("--json takes - (print JSON on stdout)");
    // One output at most on standard output; the report goes to standard error then.
    const bool stdoutTaken = !optionsOnStdout(a.options, {"-o", "--json", "--graph"}).empty();
    std::FILE* report = stdoutTaken ? stderr : stdout;
    packing::CsvDocument doc = packing::parsePackingCsv(readFile(a.positional[0], "csv"));
    doc.problem.capacity = parseCount("--capacity", a.options.at("--capacity"), 1, packing::kMaxSize);
    const packing::Options options = packOptionsFrom(a);
    if (a.options.count("--graph"))
        writeFile(a.options.at("--graph"), graphToJson(packing::graphFromPacking(doc.problem)));
    auto t0 = std::chrono::steady_clock::now();
    const packing::Result r = packing::packValidated(doc.problem, options);
    const double ms = millisecondsSince(t0);
    const bool fits = r.verdict == packing::Verdict::Fits;
    if (fits && a.options.count("-o")) writeFile(a.options.at("-o"), packing::packingToCsv(doc, r.offsets));
    if (a.options.count("--json")) {
        std::fputs(packing::packResultToJson(doc, r).c_str(), stdout);
        return fits ? 0 : 1;
    }
    std::fprintf(report, "buffers: %zu (%s)\n", doc.ids.size(), a.positional[0].c_str());
    std::fprintf(report, "capacity: %lld   peak load: %lld (no packing needs less)\n",
                 static_cast<long long>(doc.problem.capacity), static_cast<long long>(r.stats.peakLoad));
    if (fits)
        std::fprintf(report, "verdict: fits\nverified: yes (independent validator, 0 violations)\n");
    else
        std::fprintf(report, "verdict: %s: %s\n",
                     r.verdict == packing::Verdict::DoesNotFit ? "does not fit" : "unknown", r.reason.c_str());
    std::fprintf(report,
                 "search: %lld nodes, %lld backtracks, %d partitions%s%s; region probes: %lld, %lld impossible\n",
                 static_cast<long long>(r.stats.nodes), static_cast<long long>(r.stats.backtracks), r.stats.partitions,
                 r.stats.preorder.empty() ? "" : ", preorder ", r.stats.preorder.c_str(),
                 static_cast<long long>(r.stats.probes), static_cast<long long>(r.stats.probesImpossible));
    if (fits && a.options.count("-o") && !isStdout(a.options.at("-o")))
        std::fprintf(report, "written: %s\n", a.options.at("-o").c_str());
    std::fprintf(report, "time: %.1f ms\n", ms);
    return fits ? 0 : 1;
}

int commandPackInstance(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2, {"--family"});
    if (a.positional.size() != 1)
        throw InputError("usage: spillway pack-instance SEED [--family measured|cut|derived]");
    const std::string family = a.options.count("--family") ? a.options.at("--family") : "measured";
    const packing::KnownInstance k =
        packing::familyInstance(family, static_cast<std::uint64_t>(parseCount("SEED", a.positional[0], 0, INT64_MAX)));
    packing::CsvDocument doc;
    doc.problem = k.problem;
    for (size_t i = 0; i < k.problem.blocks.size(); ++i) doc.ids.push_back(std::to_string(i));
    std::fputs(packing::packingToCsv(doc).c_str(), stdout);
    return 0;
}

// The packer's results over one set of instances (a file list or a generated family).
struct PackTally {
    std::vector<double> times;
    std::vector<std::string> unpacked;
    int fits = 0, within10s = 0, fallbacks = 0, count = 0;

    void print(const std::string& label, std::int64_t budget, bool withLifetime) const {
        std::printf("%spacked: %d of %d; within 10 CPU seconds each: %d (%.0f%%); median %.1f ms, slowest %.1f ms\n",
                    label.c_str(), fits, count, within10s, 100.0 * within10s / count, median(times),
                    *std::max_element(times.begin(), times.end()));
        if (!unpacked.empty()) {
            std::string names;
            for (const std::string& n : unpacked) names += (names.empty() ? "" : ", ") + n;
            std::printf("%snot packed (budget %lld nodes): %s\n", label.c_str(), static_cast<long long>(budget),
                        names.c_str());
        }
        if (withLifetime)
            std::printf("%slifetime policy fell back to seed on %d of %d\n", label.c_str(), fallbacks, count);
    }
};

// The instance as a graph, planned: an error names the instance (a block larger than the
// capacity is an input error of the graph, about a node of no file).
Result lifetimePlan(const std::string& name, const packing::Problem& problem, const RunOptions& options) {
    try {
        return run(packing::graphFromPacking(problem), options);
    } catch (const InputError& e) {
        throw InputError(name + ", as a graph for the lifetime policy: " + e.what());
    }
}

// The packer on each instance (files, or generated ones with a known packing), then the
// lifetime policy on the instance as a graph with a fixed order: does it fall back to seed?
int commandPackBench(int argc, char** argv) {
    Args a = parseArgs(argc, argv, 2,
                       {"--capacity", "--instances", "--budget", "--disable", "--preorders", "--probe-after",
                        "--lifetime", "--family"});
    const std::string lifetimeOption = a.options.count("--lifetime") ? a.options.at("--lifetime") : "on";
    if (lifetimeOption != "on" && lifetimeOption != "off")
        throw InputError("--lifetime takes on or off, got \"" + lifetimeOption + "\"");
    const bool withLifetime = lifetimeOption == "on";
    const packing::Options options = packOptionsFrom(a);
    // (set, instance name, problem): one set for files, one per generated family.
    std::vector<std::tuple<std::string, std::string, packing::Problem>> inputs;
    const Bytes capacity = a.options.count("--capacity")
                               ? parseCount("--capacity", a.options.at("--capacity"), 1, packing::kMaxSize)
                               : 1048576;
    for (const std::string& path : a.positional) {
        packing::CsvDocument doc = packing::parsePackingCsv(readFile(path, "csv"));
        doc.problem.capacity = capacity;
        inputs.emplace_back("", fs::path(path).filename().string(), std::move(doc.problem));
    }
    if (inputs.empty()) {
        const std::int64_t count =
            a.options.count("--instances") ? parseCount("--instances", a.options.at("--instances"), 1, 100000) : 100;
        const std::string families = a.options.count("--family") ? a.options.at("--family") : "measured,cut";
        std::istringstream list(families);
        for (std::string family; std::getline(list, family, ',');)
            for (std::int64_t seed = 1; seed <= count && !family.empty(); ++seed) {
                packing::KnownInstance k = packing::familyInstance(family, static_cast<std::uint64_t>(seed));
                inputs.emplace_back(family, k.name, std::move(k.problem));
            }
        if (inputs.empty())
            throw InputError("--family: give at least one family (known: " + std::string(packing::kInstanceFamilies) +
                             ")");
    }
    // Times are CPU time of this process: on a shared machine wall time counts the others' work.
    std::printf("%-16s %7s %8s %-12s %10s %9s | %-22s\n", "instance", "buffers", "peak %", "verdict", "nodes", "cpu ms",
                "lifetime: spills, plan");
    std::vector<std::pair<std::string, PackTally>> tallies;
    for (const auto& [set, name, problem] : inputs) {
        if (tallies.empty() || tallies.back().first != set) tallies.emplace_back(set, PackTally{});
        PackTally& t = tallies.back().second;
        const double t0 = cpuSeconds();
        const packing::Result r = packing::packValidated(problem, options);
        const double ms = 1000 * (cpuSeconds() - t0);
        ++t.count;
        t.times.push_back(ms);
        t.fits += r.verdict == packing::Verdict::Fits;
        t.within10s += r.verdict == packing::Verdict::Fits && ms <= 10000;
        if (r.verdict != packing::Verdict::Fits) t.unpacked.push_back(name);
        std::string lifetimeCell = "-";
        if (withLifetime) {
            RunOptions lifetime;
            lifetime.policy = "lifetime";
            const Result plan = lifetimePlan(name, problem, lifetime);
            t.fallbacks += plan.plan.policy != "lifetime";
            lifetimeCell = std::to_string(plan.metrics.spills) + ", " + plan.plan.policy;
        }
        std::printf("%-16s %7zu %8.1f %-12s %10lld %9.1f | %s\n", name.c_str(), problem.blocks.size(),
                    100.0 * static_cast<double>(r.stats.peakLoad) / static_cast<double>(problem.capacity),
                    packing::verdictName(r.verdict), static_cast<long long>(r.stats.nodes), ms, lifetimeCell.c_str());
        std::fflush(stdout);  // a long run shows its progress
    }
    for (const auto& [set, tally] : tallies)
        tally.print(set.empty() ? "" : "family " + set + ": ", options.budget, withLifetime);
    return 0;
}

int commandExamples() {
    for (const ExampleInfo& e : exampleList()) std::printf("%-22s %s\n", e.name.c_str(), e.title.c_str());
    return 0;
}

int commandOrders() {
    for (const OrderSourceInfo& o : orderSourceList()) std::printf("%-10s %s\n", o.name.c_str(), o.title.c_str());
    return 0;
}

int dispatch(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "--help";
    if (cmd == "plan") return commandPlan(argc, argv);
    if (cmd == "translate") return commandTranslate(argc, argv);
    if (cmd == "bench") return commandBench(argc, argv);
    if (cmd == "verify") return commandVerify(argc, argv);
    if (cmd == "compare") return commandCompare(argc, argv);
    if (cmd == "frontier") return commandFrontier(argc, argv);
    if (cmd == "pack") return commandPack(argc, argv);
    if (cmd == "pack-bench") return commandPackBench(argc, argv);
    if (cmd == "pack-instance") return commandPackInstance(argc, argv);
    if (cmd == "examples") return commandExamples();
    if (cmd == "orders") return commandOrders();
    if (cmd == "generate") return commandGenerate(argc, argv);
    if (cmd == "scale") return commandScale(argc, argv);
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
    throw InputError("unknown command \"" + excerpt(cmd) + "\" (see spillway --help)");
}

// The error's one line: the file it is about first, when known, and an order file's line.
std::string errorLine(const InputError& e) {
    auto file = sourceFiles.find(e.where.source);
    std::string line = e.what();
    if (e.where.source == "order" && !e.where.line && e.where.step) {
        const std::int64_t at = orderTextLine(orderFileText, *e.where.step);
        if (at > 0) line = "line " + std::to_string(at) + ": " + line;
    }
    if (e.where.memory && e.where.field == "Type") line += " (--caps " + printable(*e.where.memory) + "=BYTES)";
    return file == sourceFiles.end() ? line : file->second + ": " + line;
}

// stdout must have reached its destination too: `spillway plan > /dev/full` is an error.
int finishOutput(int code) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "spillway: error: cannot write to standard output: %s\n", std::strerror(errno));
        return 2;
    }
    return code;
}

}  // namespace

// Freed memory stays with the process for the next stage: no array gets its own mapping and the
// heap's top is never given back. A million-node run's stages each make arrays of tens of MB and
// walk them once; with mappings of their own (8 MB and more, as before) every stage faulted its
// arrays in afresh and the kernel cleared each page (a quarter of the timing stage at 10^6, a
// fault on every 2 MB huge page). From the heap, a later stage's arrays take the pages an earlier
// stage freed, already mapped. The cost is peak memory, the holes of the order stage's
// temporaries staying in the heap: `spillway plan` of the 10^6 random graph 478 -> 521 MB, of the
// 10^6 matmul 620 -> 658 MB (docs/benchmarks.md, "Freed memory kept"); outputs unchanged.
void keepFreedMemory() {
#ifdef __GLIBC__
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
#endif
}

// Large arrays in transparent huge pages: on a million-node graph most of the timing and verify
// stages' time was page faults on arrays made once and walked once (a fault per 4 KB page; one per
// 2 MB with huge pages). glibc reads its tunables only when a process starts, so the CLI starts
// itself once more with `glibc.malloc.hugetlb=1` added, unless GLIBC_TUNABLES already says
// something of it (a user's choice, or this second start). Measured on a 1,008,592-node tiled
// matmul, `spillway plan -o`, alternated: 13.9 and 17.2 -> 10.7 and 7.7 CPU s, peak 594 -> 617 MB
// (docs/benchmarks.md). Where exec fails, or on other C libraries, the run goes on without.
void useHugePages(char** argv) {
#ifdef __GLIBC__
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;
    const std::string value =
        tunables && *tunables ? std::string(tunables) + ":glibc.malloc.hugetlb=1" : "glibc.malloc.hugetlb=1";
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
    execv("/proc/self/exe", argv);
#else
    (void)argv;
#endif
}

int main(int argc, char** argv) {
    useHugePages(argv);
    keepFreedMemory();
    try {
        return finishOutput(dispatch(argc, argv));
    } catch (const InputError& e) {
        std::fprintf(stderr, "spillway: error: %s\n", errorLine(e).c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "spillway: error: out of memory (the input is too large for this machine)\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spillway: internal error: %s\n", printable(e.what()).c_str());
        return 3;
    }
}
