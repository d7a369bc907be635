// Exact packing: place blocks whose lifetimes are fixed into one memory of a given capacity,
// without two blocks sharing a byte at the same time. This is google/minimalloc's problem; the
// packer searches with its ideas (canonical placement at the lowest offset, section-based lower
// bounds, dominance and "hatless" pruning, static and dynamic ordering, temporal decomposition),
// each switchable so that what it is worth can be measured (`spillway pack --disable ...`).
//
// The search is deterministic and anytime: its budget counts search nodes, never time, so the
// same problem and options give the same answer natively and in WebAssembly. It answers
// "fits" (with offsets), "does not fit" (proved: a moment when the live sizes exceed the
// capacity, or a search that exhausted every canonical placement) or "unknown" (budget spent).
// Callers: `spillway pack` (minimalloc's CSV, packing_csv.h) and the lifetime policy, which
// packs its resident stretches here when its greedy orders fail.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph.h"
#include "limits.h"

namespace spillway::packing {

using Time = std::int64_t;

// The largest time the packer takes: sums over a million blocks stay far from overflow.
inline constexpr std::int64_t kMaxTime = std::int64_t{1} << 40;
// The largest size, alignment or capacity: a graph's (limits::kMaxBytes), so that every problem
// `spillway pack` takes can be planned as a graph (`--graph`) and the lifetime policy's blocks
// are never refused here.
inline constexpr std::int64_t kMaxSize = limits::kMaxBytes;
inline constexpr std::size_t kMaxBlocks = 1000000;

// Bytes [lower, upper) of a block, counted from its offset.
struct Window {
    Bytes lower = 0, upper = 0;
};

// A stretch of a block's lifetime where it holds only `window` of its bytes (or none).
struct Gap {
    Time lower = 0, upper = 0;  // half-open, inside the block's lifetime, gaps in time order
    std::optional<Window> window;
};

// One buffer (or one resident stretch of a buffer) to place: it holds bytes
// [offset, offset + size) during [lower, upper), except where a gap says otherwise.
struct Block {
    Time lower = 0, upper = 0;  // half-open
    Bytes size = 0;
    Bytes alignment = 1;  // the offset must be a multiple of it
    std::vector<Gap> gaps;
};

struct Problem {
    std::vector<Block> blocks;
    Bytes capacity = 0;
};

// The techniques of the search, each switchable (all on by default).
enum class Technique {
    CanonicalOnly,      // place blocks in non-decreasing offset order (no permutations of a layout)
    SectionInference,   // prune when a section's placed floor plus its unplaced sizes exceed the capacity
    DynamicOrdering,    // try the block with the lowest possible offset first
    Dominance,          // never leave a gap below a block where an unplaced block would fit whole
    UnallocatedFloor,   // a section's floor is at least the lowest offset any of its unplaced blocks can take
    StaticPreordering,  // order blocks by the preorder keys (e.g. WAT) before the search
    Decomposition,      // split the rest into independent problems where no unplaced block spans a cut in time
    MonotonicFloor,     // unplaced blocks lie above the current offset, so sections rise with it
    HatlessPruning,     // a block with no unplaced block overlapping it needs no alternative
    RegionProbe,        // after a large failed subtree, prove the blocks around the failure cannot be packed at all
    ProbeWindow,        // probe first the blocks live within a few sections of the failure, then the wider region
};

struct TechniqueInfo {
    Technique technique;
    const char* name;  // as `--disable` and the bindings' "disable" spell it
    const char* what;
};
const std::vector<TechniqueInfo>& techniques();

// Preorder keys, most significant first, each sorting descending: A area (size x lifetime),
// C sections spanned, L lower, O overlapping blocks, T largest section total it is part of,
// U upper, W lifetime width, Z size, R random (a new deterministic draw each time a preorder
// is tried). Ties keep the input order.
inline constexpr const char* kPreorderKeys = "ACLOTUWZR";

struct Options {
    std::int64_t budget = 10000000;  // search nodes, over every preorder tried
    std::vector<Technique> disabled;
    // Tried in turn with a doubling node limit (minimalloc's round robin) until one succeeds:
    // minimalloc's three, then three random orders among blocks of equal section total (each
    // R draws anew), which rescue many problems whose search gets stuck (docs/benchmarks.md).
    std::vector<std::string> preorders = {"WAT", "TAW", "TWA", "TR", "TR", "TR"};
    // Region probe: a failed subtree of at least this many nodes is followed by a probe of
    // the region where it last found no room, with as many nodes as the subtree took.
    std::int64_t probeAfter = 256;

    bool enabled(Technique t) const;
};

// Parses "dominance,hatless-pruning": InputError naming an unknown technique.
std::vector<Technique> parseTechniques(const std::string& commaList);
// Checks "WAT,TAW": InputError naming a bad key.
std::vector<std::string> parsePreorders(const std::string& commaList);

enum class Verdict { Fits, DoesNotFit, Unknown };
const char* verdictName(Verdict v);  // "fits", "does-not-fit", "unknown"

// Where packing fails: a span of time and the most bytes live at once in it.
struct Region {
    Time from = 0, to = 0;
    Bytes load = 0;
};

struct Stats {
    std::int64_t nodes = 0;             // search nodes visited (what the budget counts)
    std::int64_t backtracks = 0;        // nodes whose every alternative failed
    Bytes peakLoad = 0;                 // most bytes live at once: a lower bound on the capacity needed
    int partitions = 0;                 // independent spans of time the problem splits into
    std::int64_t probes = 0;            // region probes run (their nodes count in `nodes`)
    std::int64_t probesImpossible = 0;  // of them (or of the regions met again) proved impossible
    std::string preorder;               // the preorder that found the packing
};

struct Result {
    Verdict verdict = Verdict::Unknown;
    std::vector<Bytes> offsets;     // one per block when the verdict is Fits, else empty
    std::string reason;             // why not, in words (empty when it fits)
    std::optional<Region> failing;  // where (DoesNotFit and Unknown)
    Stats stats;
};

// What is wrong with a block, naming the field as minimalloc's CSV does (lower, upper, size,
// alignment, gaps); empty when nothing is. pack() and the CSV reader both check with it.
std::string blockError(const Block& block);

// Checks the problem (InputError naming the block and field) and packs it.
Result pack(const Problem& problem, const Options& options = {});

// The most bytes live at one moment, and when: max over time of the sum of live window sizes.
Region peakLoad(const Problem& problem);

}  // namespace spillway::packing
