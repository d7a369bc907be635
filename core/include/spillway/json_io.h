// JSON in and out. The graph format is the contest's ({"Nodes": [...], "Edges": [[s, d]...]})
// with optional "Order" and "Capacities"; the result format is documented in docs/result-format.md.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "graph.h"
#include "run.h"
#include "verifier.h"

namespace spillway {

// Parses and validates the structure (finalizeGraph), reading the JSON as a stream straight into
// the model (no document tree). Throws InputError with line and column for every error about the
// text (ErrorPlace source "graph"), and node id + field for bad content; enforces the limits of
// limits.h. The document's SourceMap keeps where nodes, edges and Order entries are, so that later
// errors (capacities, order) are located too.
// A host's own limit on the graph's size (the browser's memory): a graph with more nodes is
// refused once its Nodes are counted, without building them, with "the graph is too large for
// <host> (N nodes, limit M)" + advice, located at the first node over the limit, and the limit
// named in ErrorPlace::limit.
struct HostNodeLimit {
    std::int64_t maxNodes = 0;
    std::string host;       // "the browser"
    const char* limitName;  // ErrorPlace::limit's name
    std::string advice;     // appended to the message
};
GraphDocument parseGraphDocument(const std::string& text, const std::optional<HostNodeLimit>& hostLimit = std::nullopt);

// One id per line (blank lines and '#' comments ignored). InputError names the line.
Order parseOrderText(const std::string& text);
// The line of order-file `text` that holds entry `step` of the order it parses to (0 if none).
std::int64_t orderTextLine(const std::string& text, std::int64_t step);

// "L1=4096,UB=1024". InputError names the entry.
Capacities parseCapacityList(const std::string& text);

// Parses the options object the bindings take (see wasm/spillway.d.ts). Errors have ErrorPlace
// source "options" with line and column. `objective`: the one when the options name none
// (frontier() runs the cycles objective, whose techniques "disable" names).
RunOptions parseRunOptions(const std::string& json, Objective objective = Objective::Bytes);

// A result file read back for re-verification: its plan, the cost model it states and what it
// claims (metrics, timing, input order). InputError (source "result") names the field.
struct ResultFile {
    Plan plan;
    CostModel cost;
    ResultClaims claims;
};
ResultFile readResultFile(const std::string& text);

// The result format's version: 2 since added edges are the rule's reduced set (format 1 held the
// contest's literal, quadratic set, which the verifier now reports as extra edges).
constexpr int kResultFormat = 2;
// The result document (docs/result-format.md), written as a stream (no document tree); the bytes
// of both forms are the same.
std::string resultToJson(const Graph& g, const Result& r);
void writeResultJson(std::ostream& out, const Graph& g, const Result& r);
// The same for the document planned: a program's result also holds the program rewritten with
// its plan ("program", docs/result-format.md).
std::string resultToJson(const GraphDocument& doc, const Result& r);
void writeResultJson(std::ostream& out, const GraphDocument& doc, const Result& r);
std::string graphToJson(const GraphDocument& doc);
// The rows of compare(): [{"policy", "planPolicy", "order", "spills", "extraBytes",
// "demandPeak": {"byType", "total"}, "totalCycles", "ms"}].
std::string comparisonToJson(const std::vector<ComparisonRow>& rows);
// `spillway frontier`'s document: {"points": [{"objective", "marginPercent", "order", "planPolicy",
// "spills", "extraBytes", "totalCycles", "verified": true}, ...]} (docs/timing.md).
std::string frontierToJson(const std::vector<FrontierPoint>& points);
// The front of the runs made so far, as a front in the making tells it: {"runsMade", "runs",
// "points"}, the points as frontierToJson writes them.
std::string frontierProgressToJson(const std::vector<FrontierPoint>& points, int runsMade, int runs);

// The contest's three files.
std::string scheduleText(const Plan& p);  // one id a line
std::string memoryText(const Plan& p);    // BufId:Offset, ascending BufId
std::string spillText(const Plan& p);     // BufId:NewOffset, spill order

}  // namespace spillway
