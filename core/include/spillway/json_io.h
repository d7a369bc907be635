// JSON in and out. The graph format is the contest's ({"Nodes": [...], "Edges": [[s, d]...]})
// with optional "Order" and "Capacities"; the result format is documented in docs/result-format.md.
#pragma once
#include <string>

#include "engine.h"

namespace spillway {

// Parses and validates the structure (finalizeGraph). Throws InputError naming line/column for
// malformed JSON, and node id + field for bad content.
GraphDocument parseGraphDocument(const std::string& text);

// One id per line (blank lines and '#' comments ignored). InputError names the line.
Order parseOrderText(const std::string& text);

// "L1=4096,UB=1024". InputError names the entry.
Capacities parseCapacityList(const std::string& text);

// Parses the options object the bindings take (see wasm/spillway.d.ts).
RunOptions parseRunOptions(const std::string& json);

std::string resultToJson(const Graph& g, const Result& r);
// Reads back the plan part of a result (allocations, spills, order, added nodes and edges) so
// that a result file can be re-verified. InputError names the field.
Plan planFromResultJson(const std::string& text);
std::string graphToJson(const GraphDocument& doc);
// The rows of compare(): [{"policy", "planPolicy", "order", "spills", "extraBytes",
// "demandPeak": {"byType", "total"}, "totalCycles", "ms"}].
std::string comparisonToJson(const std::vector<ComparisonRow>& rows);

// The contest's three files.
std::string scheduleText(const Plan& p);  // one id a line
std::string memoryText(const Plan& p);    // BufId:Offset, ascending BufId
std::string spillText(const Plan& p);     // BufId:NewOffset, spill order

}  // namespace spillway
