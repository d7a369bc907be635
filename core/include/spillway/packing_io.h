// Packing problems in and out: google/minimalloc's CSV, the options the bindings take, and the
// result as JSON (the same text from `spillway pack --json -` and from the bindings' pack()).
//
// CSV input: a header row, then one buffer a row: `id,lower,upper,size` with half-open
// lifetimes [lower, upper), and optionally `alignment` (offsets must be multiples of it) and
// `gaps` (space-separated `LOWER-UPPER`, where the buffer holds nothing, or
// `LOWER-UPPER@WL:WU`, where it holds only its bytes [WL, WU)). Columns in any order.
// minimalloc's older spellings are read too: `start`/`begin` for lower, `buffer`/`buffer_id` for
// id, and `end` for an inclusive upper bound (then gap upper bounds are inclusive too).
// CSV output: the input columns (lower/upper spelling, half-open) plus `offset`, as minimalloc
// writes them: `alignment` only when some alignment is not 1, `gaps` only when some buffer has
// gaps.
#pragma once
#include <string>
#include <vector>

#include "packing.h"

namespace spillway::packing {

struct CsvDocument {
    std::vector<std::string> ids;  // one per block
    Problem problem;               // capacity 0: the file does not hold it
};

// InputError naming the line, and the column or field, of the first problem found.
CsvDocument parsePackingCsv(const std::string& text);

// With offsets (one per block): minimalloc's output. Without: the input, normalised.
std::string packingToCsv(const CsvDocument& doc, const std::vector<Bytes>& offsets = {});

// What the bindings' pack() takes: {"capacity": N (required), "budget": N, "disable":
// ["dominance", ...], "preorders": ["WAT", ...]}. InputError naming the field.
struct PackRequest {
    Bytes capacity = 0;
    Options options;
};
PackRequest parsePackOptions(const std::string& json);

// {"verdict": "fits"|"does-not-fit"|"unknown", "capacity", "reason", "failing": {"from", "to",
//  "load"} or null, "stats": {"nodes", "backtracks", "peakLoad", "partitions", "preorder"},
//  "blocks": [{"id", "lower", "upper", "size", "offset" (when it fits)}], "csv": minimalloc's
//  output when it fits, else null}. Nothing in it depends on the clock.
std::string packResultToJson(const CsvDocument& doc, const Result& result);

}  // namespace spillway::packing
