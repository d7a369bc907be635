// Internal to the cycles objective (spillway/cycles.h): its two steps, each keeping a plan valid.
//
// placeForTime walks the order with the pipe model running and places each buffer (at its ALLOC
// or SPILL_IN) where the bytes were left earliest in simulated time, so that it waits for no
// one; ties by best fit. It stays safe without any search: a buffer never takes bytes that a
// buffer placed later, while it is still resident, had in the layout it starts from, so each
// later buffer can always fall back to its old place.
//
// scheduleForTime emits the nodes in the order the pipes can start them: a list scheduler over
// the plan's dependencies (edges, added edges, a buffer's placement before its users before its
// release, and the release of bytes before the next placement on them), always running next the
// node that can start earliest (ties: priority). With hoisting, a placing node (ALLOC, SPILL_IN)
// may move ahead of nodes that came before it; without, it keeps its place among them.
#pragma once
#include <vector>

#include "plan_layout.h"

namespace spillway {

// What placeForTime chose among for one placing node, and when the bytes it took were left.
struct PlacementNote {
    bool moved = false;       // false: the buffer kept its place (no note)
    std::vector<Hole> holes;  // the ranges free now and not promised to a later buffer
    Cycles left = 0;          // when the bytes it took were left
};

// A layout a step made, with its total cycles (the pipe model ran it while making it: as
// timingOf(layout).total).
struct TimedLayout {
    Layout layout;
    Cycles total = 0;
};

// `notes`, when given: per dense node index. `fitToNeed`: each buffer takes, among the bytes
// left by the time it is needed (an ALLOC: when its first user could start but for it, in the
// timing of `in`; a SPILL_IN: its own cycles before that, or when it could start if later),
// those left latest, so that the bytes left earlier stay for buffers needed sooner; when none
// is left by then, the earliest as above.
TimedLayout placeForTime(const PlanNodes& nodes, const Graph& g, const Capacities& caps, const Layout& in,
                         std::vector<PlacementNote>* notes = nullptr, bool fitToNeed = false);

enum class SchedulePriority {
    Order,     // the position in the order it starts from: stable
    Tail,      // the longest chain of cycles from the node to the end, then the position
    Backward,  // the most work after it in a schedule built backwards from the end, pipes included
};

// `ranks`, when given (per dense node index, a permutation of the positions), replace the
// priority's.
TimedLayout scheduleForTime(const PlanNodes& nodes, const Graph& g, const Layout& in, bool hoist,
                            SchedulePriority priority, const std::vector<int>* ranks = nullptr);

}  // namespace spillway
