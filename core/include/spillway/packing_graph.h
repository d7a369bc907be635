// A packing problem as a computation graph with a fixed order, so that the planner's policies
// can be measured where a packing is known to exist (`spillway pack FILE.csv --graph OUT.json`,
// `spillway pack-bench`).
#pragma once
#include <string>

#include "graph.h"
#include "packing.h"

namespace spillway::packing {

// Every block becomes one buffer of `memory`: ALLOC, a first use, a last use, FREE, placed in
// the Order by time (at equal times, ends before starts: lifetimes are half-open), so the bytes
// live at every step are the blocks live at that time. Between them, an operation "TICK"
// without buffers at every tick of time (the greatest common divisor of the times, at most
// 100,000 ticks), so that lifetimes keep their lengths. Capacities: {memory: capacity}. Gaps and
// alignment are dropped, and so are blocks of size 0 or an empty lifetime (a graph has no such
// buffers). Buffer k is the k-th block kept.
GraphDocument graphFromPacking(const Problem& problem, const std::string& memory = "L1");

}  // namespace spillway::packing
