// The residency problem of an order: for each memory, which buffers stay resident between two
// consecutive uses. A buffer is used at its ALLOC, by its operations and at its FREE; between
// two uses (a *gap*) it either stays resident, taking its bytes at every step in between, or is
// written out once and read back (spillTrafficBytes). The node at each step needs its own
// buffers resident; the rest of the capacity goes to the gaps kept. The choice of gaps decides
// the data a plan moves; where the buffers go (packing) is a separate step.
//
// Solving it:
// - relaxResidency: the fractional relaxation (keep any fraction of a gap, ignore where bytes
//   go). It is an interval LP, solved exactly as a minimum-cost flow on the time line; its value
//   is a lower bound on the data any plan for this order moves in this memory. When every gap of
//   the memory has the same size, the LP is integral and its solution is the optimum.
// - chooseResidency: a whole-gap choice (what a plan can do): exact when the relaxation is
//   integral or, on small problems, by branch and bound on it; else the better of two greedy
//   choices (gaps by traffic per byte, and by how much of them the relaxation keeps), each
//   improved by swaps.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bounds.h"
#include "memo.h"
#include "schedule.h"

namespace spillway {

struct Gap {
    int buf = 0;   // index into Graph::buffers
    int from = 0;  // step of a use; the buffer is resident over steps from+1 .. to-1
    int to = 0;    // step of the next use
    Bytes size = 0;
    Bytes traffic = 0;  // bytes moved if it is written out (spillTrafficBytes)
};

struct ResidencyProblem {
    std::string type;
    Bytes capacity = 0;
    std::vector<Bytes> forced;  // per step: bytes of this memory the node at that step uses
    std::vector<Gap> gaps;      // only gaps with at least one step inside (to > from + 1)
};

// One problem per memory of `caps` that the graph uses, in Capacities order. `order` must be valid.
std::vector<ResidencyProblem> residencyProblems(const Graph& g, const Order& order, const Capacities& caps);
// The same from each node's step (indexed like Graph::nodes, a permutation of 0..n-1).
std::vector<ResidencyProblem> residencyProblemsAt(const Graph& g, const std::vector<int>& stepOf,
                                                  const Capacities& caps);
// The forced bytes and gaps of one memory's problem into `p` (type and capacity left as they are),
// for a caller that knows each buffer's use steps already (the order search's scoring): `buffers`
// the memory's buffers (indices into g.buffers, ascending), `uses[b]` the steps at which buffer b
// is allocated, used or freed (ascending, distinct), `steps` the order's length.
void residencyProblemFromUses(const Graph& g, const std::vector<int>& buffers,
                              const std::vector<std::vector<int>>& uses, std::size_t steps, ResidencyProblem& p);

// `budget`: capacity per step (empty: the memory's capacity everywhere); a step whose budget is
// below its forced bytes keeps no gap. `flowWork` (-1: none) bounds the flow's work (counted
// operations, so deterministic); out of it, the flow stops and the value is still a lower bound
// (the cost so far plus the unsent units at the next path's cost), only weaker: exact false.
struct Relaxation {
    Bytes traffic = 0;        // lower bound: total traffic of the gaps minus the most saved
    std::vector<Bytes> kept;  // bytes kept per gap (0..size); only meaningful when exact
    bool integral = false;    // every gap wholly kept or wholly written out: an optimal choice
    bool exact = true;        // the relaxation's own value (false: its work budget ran out)
};
Relaxation relaxResidency(const ResidencyProblem& p, const std::vector<Bytes>& budget = {}, std::int64_t flowWork = -1);

struct ResidencyChoice {
    std::vector<char> keep;      // per gap
    Bytes traffic = 0;           // of the gaps written out
    bool optimal = false;        // proven optimal for this budget (fragmentation aside)
    std::int64_t work = 0;       // operations spent: a deterministic measure of time (but exactWork)
    std::int64_t exactWork = 0;  // branch and bound's flows' work (its own node budget bounds it)
};
struct ResidencyEffort {
    bool relaxation = true;      // solve the relaxation too (exact when integral; guides the greedy)
    int exactNodes = 5000;       // branch-and-bound nodes allowed on small problems
    int swapPasses = 2;          // passes of improving swaps after the greedy
    std::int64_t flowWork = -1;  // the relaxation's work budget (-1: none); out of it, the greedy's choice
};
// Without the relaxation only the greedy and its swaps run: fast, for scoring many orders.
ResidencyChoice chooseResidency(const ResidencyProblem& p, const std::vector<Bytes>& budget = {},
                                ResidencyEffort effort = {});

// What a branch and bound over a problem's contested gaps found (residency.cpp): which of them it
// writes out (positions among them), their traffic, whether proven optimal, its flows' work.
struct ExactSearchOutcome {
    std::vector<int> writtenOut;
    Bytes traffic = 0;
    bool optimal = false;
    std::int64_t work = 0;
    std::size_t contested = 0;  // a fingerprint met with another count is a miss, never a write past it
};

// Choices remembered by their problem, for a caller that plans many orders whose memories'
// problems repeat (the cycles objective's starts and windows, compare's rows): a problem met
// before gets the same choice and the same work counts, without solving it again. Only choices
// that ran a branch and bound (on small problems), or solved the relaxation and write out at most
// kMostWrittenOut gaps, are kept (the greedy alone costs little; a huge graph's problems, planned
// once, are not met again), and the oldest are forgotten past kEntries, so that its memory stays
// bounded. A problem is known by a 128-bit fingerprint of all it holds and the effort.
// Besides, the branch and bound's outcomes by what alone it reads: the contested gaps as spans
// between their ends, the least free bytes between consecutive ends, the greedy choice it starts
// from and its node budget. Orders that differ elsewhere (another memory's node moved, a window
// of the order retimed where this memory has nothing contested) meet the same search again.
class ResidencyMemo {
public:
    ResidencyChoice choose(const ResidencyProblem& p, const std::vector<Bytes>& budget = {},
                           ResidencyEffort effort = {});
    std::size_t size() const { return entries_.size(); }       // choices kept
    std::size_t searches() const { return searches_.size(); }  // branch-and-bound outcomes kept

private:
    static constexpr std::size_t kEntries = 1 << 14;
    static constexpr std::size_t kMostWrittenOut = 256;
    struct Entry {
        Bytes traffic = 0;
        bool optimal = false;
        std::int64_t work = 0, exactWork = 0;
        std::vector<int> writtenOut;  // gaps not kept
        std::size_t gaps = 0;  // of the problem: a fingerprint met with another count is a miss, never a write past it
    };
    FingerprintMemo<Entry> entries_{kEntries};
    FingerprintMemo<ExactSearchOutcome> searches_{kEntries};
};

// The lower bound of an order: the relaxation's value summed over memories. No plan for this
// order moves less data; a plan that does is a bug.
// The relaxation is solved within a work budget per memory (-1: kBoundFlowWork), so that the
// bound costs at most a constant beside linear work; within it (every contest case) the value is
// the relaxation's own. Out of it, and on huge graphs (scale.h) without a given budget, the
// relaxation by windows (exact false): each contested gap cut at the end of the window of
// kBoundWindowSteps where it starts, each window's flow within kBoundWindowWorkPerStep work per
// step. Linear, and mostly stronger than one budgeted flow over the whole time line (whose early
// stop prices little): the larger of the two.
inline constexpr std::int64_t kBoundFlowWork = 8'000'000;
inline constexpr int kBoundWindowSteps = 1024;
inline constexpr std::int64_t kBoundWindowWorkPerStep = 256;
// The planners' budget for one relaxation (policy residency, its retries, the search's scoring):
// max(kBoundWorkFloor, kBoundWorkPerStep x steps). Out of it, they take the greedy choice.
inline constexpr std::int64_t kBoundWorkFloor = 60'000'000;
inline constexpr std::int64_t kBoundWorkPerStep = 40;
std::int64_t boundFlowWork(size_t steps);
// The relaxation by windows of `windowSteps` steps, each window's flow within `workPerStep` work
// per step: a lower bound on relaxResidency(p).traffic, equal to it when one window holds every
// step and its flow finishes.
Bytes windowedRelaxation(const ResidencyProblem& p, int windowSteps = kBoundWindowSteps,
                         std::int64_t workPerStep = kBoundWindowWorkPerStep);
TrafficBound trafficLowerBound(const Graph& g, const Order& order, const Capacities& caps, std::int64_t flowWork = -1);

// A lower bound without a flow, linear in the steps and gaps: each gap goes to the window of
// `windowSteps` steps where it starts, cut at that window's end (a relaxation, as for
// windowedRelaxation); in a window, at any one step the gaps over it beyond the free bytes must
// be written out, at least at the cheapest traffic per byte (1 for a COPY_IN buffer, else 2).
// The largest such step of each window, summed over windows. Far weaker than the relaxation, but
// enough to tell that an order cannot beat a plan of another (engine.cpp, the default on huge
// graphs), at a small part of the relaxation's cost.
Bytes excessBound(const ResidencyProblem& p, int windowSteps = kBoundWindowSteps);
Bytes excessBound(const Graph& g, const Order& order, const Capacities& caps);

}  // namespace spillway
