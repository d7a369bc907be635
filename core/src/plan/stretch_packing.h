// Internal: placement of resident stretches, the one seam between deciding who stays resident
// (policies lifetime and residency) and deciding where. A stretch is one buffer resident over a
// span of time; packing gives every stretch an offset so that stretches overlapping in time do
// not overlap in memory. The packer here is greedy; the exact packer (spillway/packing.h) takes
// over where it fails.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "spillway/free_list.h"
#include "spillway/graph.h"

namespace spillway {

// Event times within step s: write-outs at 4s, reloads at 4s+1, the node (and its ALLOC's
// placement) at 4s+2, a FREE's release at 4s+3. A stretch occupies [from, to).
using Time = std::int64_t;
inline Time outTime(int s) { return 4 * Time{s}; }
inline Time inTime(int s) { return 4 * Time{s} + 1; }
inline Time nodeTime(int s) { return 4 * Time{s} + 2; }
inline Time freeTime(int s) { return 4 * Time{s} + 3; }

struct Stretch {
    int buf;
    Time from, to;
    Bytes size;
    Bytes offset = -1;
};

// What the decision log shows of a packing: the order that packed, and per stretch the gaps
// free over its whole time span that its placement chose among.
struct PackingNotes {
    const char* order = "";
    std::vector<std::vector<Hole>> gaps;
};

// Sets every stretch's offset within [0, capacity), trying several orders. Returns nullopt on
// success (and fills `notes` if given), else a stretch that found no room in the first order (the
// caller makes room around it and tries again). `unplaced`, when given and every order fails: every
// stretch that found no room in the first order, packing on past each (the returned one first).
std::optional<Stretch> packStretches(std::vector<Stretch>& stretches, Bytes capacity, PackingNotes* notes = nullptr,
                                     std::vector<Stretch>* unplaced = nullptr);

// Per stretch of a complete packing (every offset set, e.g. by the exact packer): the gaps free
// over its whole time span given every other stretch, the one it occupies among them.
std::vector<std::vector<Hole>> gapsAround(const std::vector<Stretch>& stretches, Bytes capacity);

}  // namespace spillway
