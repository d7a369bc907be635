// Every limit the engine enforces on its input, in one place (README.md, "Limits", lists them).
// Each is checked where the input is read and exceeding it is an InputError naming the limit
// (ErrorPlace::limit). The ranges are chosen so that no sum the engine computes can overflow a
// 64-bit integer:
//   - a node takes at most kMaxCycles cycles, a spill node at most kMaxSpillCycles;
//   - a plan has at most kMaxNodes graph nodes and 2 * kMaxSpills spill nodes;
//   so total cycles <= 2^22 * 2^32 + 2^23 * 2^39 < 2^63 (pipes serial, every node waiting for
//   the previous one is the worst case);
//   - offsets and sizes are at most kMaxBytes = 2^36, so offset + size < 2^37 and a memory's
//     resident bytes sum to at most kMaxMemories * 2^36 < 2^45;
//   - node ids stay below 2^30 so that spill ids (largest id + 1 + 2k, k < kMaxSpills) fit an int.
#pragma once
#include <cstdint>
#include <string>

namespace spillway::limits {

constexpr std::int64_t kMaxInputBytes = std::int64_t{1} << 30;          // any text: graph, result, order, options
constexpr int kMaxDepth = 32;                                           // JSON nesting (arrays and objects)
constexpr std::int64_t kMaxNodes = std::int64_t{1} << 22;               // Nodes (4,194,304)
constexpr std::int64_t kMaxEdges = std::int64_t{1} << 24;               // Edges (16,777,216)
constexpr std::int64_t kMaxUses = std::int64_t{1} << 24;                // all Bufs entries together
constexpr std::int64_t kMaxBufsPerNode = 64;                            // one node's Bufs entries
constexpr std::int64_t kMaxSpills = std::int64_t{1} << 22;              // spills in one plan
constexpr std::int64_t kMaxOrderLength = kMaxNodes + 2 * kMaxSpills;    // an order, spill nodes included
constexpr std::int64_t kMaxAddedEdges = 4 * kMaxSpills + 2 * kMaxUses;  // a result's addedEdges (the rule's most)
constexpr std::int64_t kMaxMemories = 256;                              // capacity entries; distinct Types
constexpr std::int64_t kMaxNameBytes = 256;                             // Op, Pipe, Type and memory names
constexpr std::int64_t kMaxNodeId = (std::int64_t{1} << 30) - 1;
// The largest id a plan gives a spill node: kMaxNodeId + 1 + 2k + 1 for the last spill k.
constexpr std::int64_t kMaxSpillNodeId = kMaxNodeId + 2 * kMaxSpills;
constexpr std::int64_t kMaxBufferId = (std::int64_t{1} << 31) - 1;
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 36;          // Size, capacity, offsets
constexpr std::int64_t kMaxCycles = std::int64_t{1} << 32;         // a node's Cycles
constexpr std::int64_t kMaxSpillCycles = std::int64_t{1} << 39;    // a spill node's cycles (cost model)
constexpr std::int64_t kMaxFixedLatency = std::int64_t{1} << 32;   // seed cost model
constexpr std::int64_t kMaxCyclesPerByte = std::int64_t{1} << 20;  // seed cost model
constexpr std::int64_t kMaxEffort = 100'000'000;                   // evaluations of the order search
constexpr std::int64_t kMaxRepeat = 1000;                          // spillway bench --repeat
constexpr std::int64_t kMaxMarginPercent = 1000;                   // the cycles objective's data margin
// A result text the WebAssembly bindings return (plan(), planWithProgress()): half the longest
// string V8 makes (2^29 - 24 characters), so that the page can still parse it. A larger result is
// an input error naming this limit, found as the text is written (no larger block is made).
constexpr std::int64_t kMaxResultBytes = std::int64_t{1} << 28;

// Throws InputError "<what> exceeds the limit of <max> <unit> (limit: <name>)" with the limit in
// ErrorPlace::limit and `source` as its source.
[[noreturn]] void exceeded(const std::string& what, const char* name, std::int64_t max, const std::string& source);

}  // namespace spillway::limits
