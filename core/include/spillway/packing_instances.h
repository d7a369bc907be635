// Packing problems with a packing known to exist, for tests and benchmarks: a rectangle of
// capacity x time is cut into pieces, and each piece becomes a block (its place in the
// rectangle is the known packing); or minimalloc's own instances, changed so that their packing
// still holds. Seeded and deterministic on every platform.
#pragma once
#include <cstdint>
#include <string>

#include "packing.h"

namespace spillway::packing {

enum class CutStyle {
    Guillotine,  // cut a random piece, across time or space, anywhere: sizes and lifetimes of every scale
    Even,        // cut the largest piece near its middle: blocks of similar size and lifetime
    Skyline,     // walk through time and fill every free hole with new blocks: an allocator's churn
    Measured,    // sizes and areas drawn as measured on minimalloc's 11, placed lowest first, then tightened
};

struct CutOptions {
    CutStyle style = CutStyle::Guillotine;
    int blocks = 200;  // how many pieces to aim for (before dropping)
    Bytes capacity = 1048576;
    Time horizon = 1048576;
    std::int64_t unit = 1024;  // sizes and times are multiples of it
    int dropPercent = 0;       // pieces removed afterwards (skyline: holes left): the rest fits, with slack
    int stretchPercent = 0;    // Measured: blocks that then live on while their bytes stay free
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

// The family calibrated to the statistics measured on minimalloc's 11 (docs/packing.md):
// 150 to 460 buffers, sizes drawn from their measured size distribution (a few blocks of a
// quarter to four fifths of the memory), each block's area (size x lifetime) from their
// measured spread around the mean, starting and ending at one of (blocks / 2) steps, each
// placed at the lowest free offset; then every block grows up to the one above it, and 0 to
// 80% of them (drawn) live on while their bytes stay free, which spreads the fill over the
// measured range.
KnownInstance measuredLike(std::uint64_t seed);

// google/minimalloc's 11 "challenging" instances (bench/minimalloc-challenging, embedded at
// build time), index 0 to 10 for A to K, named "A" to "K", with the packing this packer finds
// for each (default options, validated; computed once per process).
inline constexpr int kChallengingInstances = 11;
KnownInstance minimallocChallenging(int index);

// The family derived from minimalloc's 11 (docs/packing.md, "derived"): instance seed % 11,
// some of its blocks split in time at one of the instance's event times or in size, some
// lifetimes shortened to an event time inside them, some sizes shrunk, 1% dropped, then
// shuffled. Every change keeps a block inside its source block, so every packing of the source
// packs the instance: the known packing is the source's, carried over.
KnownInstance derivedFromChallenging(std::uint64_t seed);

// The generated families by name: "measured" (measuredLike), "cut" (challengingLike, the
// first family: guillotine, even and skyline cuts) and "derived" (derivedFromChallenging).
// InputError naming an unknown family.
KnownInstance familyInstance(const std::string& family, std::uint64_t seed);
inline constexpr const char* kInstanceFamilies = "measured, cut, derived";

}  // namespace spillway::packing
