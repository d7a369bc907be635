// Packing problems with a packing known to exist, for tests and benchmarks: a rectangle of
// capacity x time is cut into pieces, and each piece becomes a block (its place in the
// rectangle is the known packing). Seeded and deterministic on every platform.
#pragma once
#include <cstdint>
#include <string>

#include "packing.h"

namespace spillway::packing {

enum class CutStyle {
    Guillotine,  // cut a random piece, across time or space, anywhere: sizes and lifetimes of every scale
    Even,        // cut the largest piece near its middle: blocks of similar size and lifetime
    Skyline,     // walk through time and fill every free hole with new blocks: an allocator's churn
};

struct CutOptions {
    CutStyle style = CutStyle::Guillotine;
    int blocks = 200;      // how many pieces to aim for (before dropping)
    Bytes capacity = 1048576;
    Time horizon = 1048576;
    std::int64_t unit = 1024;  // sizes and times are multiples of it
    int dropPercent = 0;   // pieces removed afterwards (skyline: holes left): the rest fits, with slack
    std::uint64_t seed = 1;
};

struct KnownInstance {
    std::string name;
    Problem problem;
    std::vector<Bytes> offsets;  // a packing at problem.capacity
};

KnownInstance cutRectangle(const CutOptions& options);

// Like google/minimalloc's 11 "challenging" instances: 150 to 460 buffers, capacity and time
// span 1,048,576 in steps of 1,024, sizes and lifetimes of every scale or all alike, memory
// full at its peak or nearly so. The style and counts come from the seed.
KnownInstance challengingLike(std::uint64_t seed);

}  // namespace spillway::packing
