// Execution time of a planned order under the pipe model: each pipe runs its nodes one at a
// time in schedule order, pipes run in parallel, a node starts once its predecessors (original
// and added edges) have ended and its pipe is free, and a buffer placed over bytes an earlier
// buffer occupied starts after that buffer left them (its FREE or SPILL_OUT ended, and every
// node that used it there ended). ALLOC and FREE take 0 cycles and use no pipe.
//
// Every node also gets its wait: which of the three rules set its start (docs/timing.md).
//   edge     a predecessor ended last (the one earliest in the order among equals)
//   pipe     the node before it on its pipe ended last
//   address  the bytes it is placed on were left last by `buffer`; `node` is the node whose end
//            that was (the FREE or SPILL_OUT, or a later-ending user of the buffer there)
//   none     it starts at 0
// When rules tie, edge comes before pipe, pipe before address. `cycles` is how much later the
// node starts than the other two rules alone would let it: what this cause cost it.
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "plan.h"

namespace spillway {

enum class WaitCause { None, Edge, Pipe, Address };
const char* waitCauseName(WaitCause c);  // "none", "edge", "pipe", "address"

struct Wait {
    WaitCause cause = WaitCause::None;
    NodeId node = -1;      // edge, pipe, address: the node whose end the start is
    BufferId buffer = -1;  // address: the buffer that left the bytes last
    Cycles cycles = 0;     // start - the latest of the other rules' times (0 for none)
};

struct NodeTiming {
    NodeId id = 0;
    Cycles start = 0;
    Cycles end = 0;
    Wait wait;
    std::string pipe;  // the node's pipe ("" for ALLOC/FREE)
};

struct Timing {
    std::vector<NodeTiming> nodes;  // in the plan's order
    Cycles total = 0;               // the last end
};

Timing simulateTiming(const Graph& g, const Plan& plan);

// For each byte range of one memory, who left it last and when. A byte keeps its latest leave:
// in a graph without edges an occupant can leave (its FREE, its users) before the time it was
// placed, and the next one must still wait for every earlier occupant.
class ByteLeaves {
public:
    struct Left {
        Cycles time = 0;
        int step = -1;         // the step of the leaving node (FREE, SPILL_OUT); -1: never occupied
        BufferId buffer = -1;
        NodeId node = -1;      // whose end `time` is
        bool before(const Left& o) const { return time != o.time ? time < o.time : step < o.step; }
    };
    // The latest leave over [start, end): largest time, then largest step.
    Left latest(Bytes start, Bytes end) const;
    // Records `left` over [start, end) where it is later than what the bytes hold.
    void leave(Bytes start, Bytes end, const Left& left);
    // Calls f(from, to, left) for each recorded range meeting [start, end), by address, clipped
    // to it (bytes never left are skipped).
    template <typename F>
    void forEachIn(Bytes start, Bytes end, F&& f) const {
        auto it = segments_.upper_bound(start);
        if (it != segments_.begin()) --it;
        for (; it != segments_.end() && it->first < end; ++it)
            if (it->second.end > start) f(std::max(it->first, start), std::min(it->second.end, end), it->second.left);
    }

private:
    struct Segment {
        Bytes end;
        Left left;
    };
    void split(Bytes at);
    std::map<Bytes, Segment> segments_;
};

// The pipe model run node by node: simulateTiming's engine, and the clock of the planners that
// place and order for time (cycles.h). It knows a plan's nodes and predecessors; the caller says
// which node runs next and, for a placing node (ALLOC, SPILL_IN), at which offset.
class PipeModel {
public:
    using Left = ByteLeaves::Left;

    PipeModel(const Graph& g, const Plan& plan);

    const Node& node(NodeId id) const;
    // The buffer a node places or releases: an ALLOC/FREE's own, a spill node's; else -1.
    BufferId movedBuffer(const Node& n) const;
    // The latest leave over [offset, offset + size) of `type`, latest step among equal times.
    Left leftAt(const std::string& type, Bytes offset, Bytes size) const;
    // When `id` could start if it ran next, placed at `offset` when it places a buffer (its
    // pipe left empty: run() fills it).
    NodeTiming peek(NodeId id, Bytes offset = 0) const;
    // The times the rules alone would let `id` start if it ran next: its predecessors (edge), its
    // pipe, and (placing nodes) the bytes at `offset`.
    struct Ready {
        Cycles edge = 0, pipe = 0, address = 0;
    };
    Ready readyOf(NodeId id, Bytes offset = 0) const;
    const ByteLeaves* leavesOf(const std::string& type) const;
    // Runs `id` next (at `offset` when it places a buffer) and returns its timing.
    NodeTiming run(NodeId id, Bytes offset = 0);
    int steps() const { return step_; }
    Cycles total() const { return total_; }
    Cycles endOf(NodeId id) const;  // of a node that ran

private:
    struct Placement {
        std::string type;
        Bytes offset = 0;
        Bytes size = 0;
        Cycles lastUseEnd = 0;  // latest end of a node that used the buffer at this place
        NodeId lastUser = -1;   // the first node (in order) to end then
    };
    struct Ran {
        Cycles end = 0;
        int step = 0;
    };
    struct Rules {
        Cycles edge = 0, pipe = 0;
        NodeId edgeNode = -1, pipeNode = -1;
        Left left;
    };
    Rules rulesOf(const Node& n, Bytes offset) const;
    NodeTiming timingOf(const Node& n, Bytes offset) const;

    const Graph& g_;
    std::unordered_map<NodeId, const Node*> nodes_;
    std::unordered_map<NodeId, std::vector<NodeId>> preds_;
    std::unordered_map<NodeId, Ran> ran_;
    std::map<std::string, std::pair<Cycles, NodeId>> pipeFree_;  // pipe -> (end, node) of its last node
    std::map<std::string, ByteLeaves> leaves_;
    std::unordered_map<BufferId, Placement> placed_;
    int step_ = 0;
    Cycles total_ = 0;
};

}  // namespace spillway
