// Internal to the order search: the graph cut into *units* — the groups the search orders — and
// the structure found among them.
//
// A buffer is a *chain* when its operations run one after another, each with an edge to the next
// (an accumulator: the L0C tile a MATMUL chain adds into, an L0A copy a MOVE makes for one
// MATMUL, a workspace a CONV chain fills). Operations linked by chains form a unit: in a tiled
// matmul, one output tile's MATMULs with the MOVEs feeding them and its COPY_OUT. A unit's
// *spine* is its chain with the most operations; its *beats* end at the spine's operations, so
// that units sharing a slot run interleaved beat by beat (two outputs k-step by k-step).
//
// Operations in no chain are single-operation units: a *feeder* (its result is used by other
// operations, e.g. a COPY_IN of a tile many units read) runs when its first consumer needs it; a
// *sink* (nothing uses its result) runs as soon as it can. The search orders the other units.
//
// *Lines*: buffers that the same set of units read (the tiles of one row of A: every output tile
// of that row). When the lines of two families each partition the units that read shared
// buffers — rows and columns — the units form a grid, which the search sweeps in blocks.
#pragma once
#include <vector>

#include "spillway/schedule.h"

namespace spillway {

struct Unit {
    std::vector<int> ops;    // node indices, in hint order
    std::vector<int> beats;  // index into ops one past the end of each beat
    int spineMemory = -1;    // memory index of the spine buffer (-1: no chain)
    Bytes spineBytes = 0;
};

struct Grid {
    // rows[r] / columns[c]: units of that line; every gridded unit is in one row and one column.
    std::vector<std::vector<int>> rows, columns;
};

struct UnitModel {
    std::vector<Unit> units;  // the ordered ones, by first operation in hint order
    std::vector<int> unitOf;  // node index -> unit, or -1
    std::vector<char> eager;  // node index -> a sink operation run as soon as ready
    std::vector<std::string> memories;
    std::vector<Bytes> capacity;  // per memory index
    std::vector<Grid> grids;      // zero, one or more grids, largest first
};

// linkDivisor > 0: a buffer smaller than its memory's capacity / linkDivisor links nothing (a
// flag or a statistic barely weighs on memory, but it can tie work of distant layers into one
// unit).
UnitModel findUnits(const Graph& g, const Order& hint, const Capacities& caps, Bytes linkDivisor = 0);

// Whether units a and b can share a slot: their spines fit their memory together.
bool canShareSlot(const UnitModel& m, const std::vector<int>& slot, int unit);

}  // namespace spillway
