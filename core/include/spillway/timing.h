// Execution time of a planned order under the pipe model: each pipe runs its nodes one at a
// time in schedule order, pipes run in parallel, a node starts once its predecessors (original
// and added edges) have ended and its pipe is free, and a buffer placed over bytes an earlier
// buffer occupied starts after that buffer left them (its FREE or SPILL_OUT ended, and every
// node that used it there ended). ALLOC and FREE take 0 cycles and use no pipe.
#pragma once
#include <vector>

#include "plan.h"

namespace spillway {

struct NodeTiming {
    NodeId id = 0;
    Cycles start = 0;
    Cycles end = 0;
};

struct Timing {
    std::vector<NodeTiming> nodes;  // in the plan's order
    Cycles total = 0;               // the last end
};

Timing simulateTiming(const Graph& g, const Plan& plan);

}  // namespace spillway
