// An independent check of a packing: it shares no code with the packer (packer.cpp) and
// replays minimalloc's rules from the problem alone. Every packing the packer returns is
// checked here before anyone sees it.
#pragma once
#include <string>
#include <vector>

#include "packing.h"

namespace spillway::packing {

enum class PackingViolationKind { Count, Bounds, Alignment, Overlap };
// "count", "bounds", "alignment", "overlap"
const char* packingViolationKindName(PackingViolationKind kind);

struct PackingViolation {
    PackingViolationKind kind;
    std::string message;
};

// Every rule a packing must keep: one offset per block; 0 <= offset and offset + size <=
// capacity; offset a multiple of the alignment; two blocks live at the same time keep one of
// them below the other over all the time they share (the bytes a gap's window leaves are
// free). Reports at most `limit` violations.
std::vector<PackingViolation> validatePacking(const Problem& problem, const std::vector<Bytes>& offsets,
                                              size_t limit = 20);

// pack(), with the packing (when it fits) checked here: InternalError when it breaks a rule, so
// an unchecked packing never reaches a user. What the CLI and the bindings call.
Result packValidated(const Problem& problem, const Options& options);

}  // namespace spillway::packing
