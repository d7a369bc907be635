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
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "id_table.h"
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
    Name pipe;  // the node's pipe (empty for ALLOC/FREE); 8 bytes where a string took 32
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
        int step = -1;  // the step of the leaving node (FREE, SPILL_OUT); -1: never occupied
        BufferId buffer = -1;
        NodeId node = -1;  // whose end `time` is
        bool before(const Left& o) const { return time != o.time ? time < o.time : step < o.step; }
        bool operator==(const Left& o) const {
            return time == o.time && step == o.step && buffer == o.buffer && node == o.node;
        }
    };
    // `merged`: neighbouring ranges left alike become one range. latest() and leave() answer the
    // same either way; forEachIn() then sees fewer boundaries. Without it every offset a buffer
    // ever started or ended at stays a boundary, and on a long plan a placement walked hundreds of
    // them (simulateTiming's time grew faster than n); the planners take the boundaries as
    // candidate offsets, so they keep them all.
    explicit ByteLeaves(bool merged = false) : merged_(merged) {}
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
    void mergeAround(Bytes start, Bytes end);
    std::map<Bytes, Segment> segments_;
    bool merged_ = false;
};

// The nodes of a plan (graph nodes and spill nodes) by dense index: the graph's nodes as in
// Graph::nodes, then the plan's added nodes; or (InPlanOrder) each node at its first step in
// plan.order, nodes missing from it after them. With what the pipe model and the planners ask of
// them, each fact in its own flat array (read without the node's `Node` record).
class PlanNodes {
public:
    enum class Numbering { GraphThenAdded, InPlanOrder };
    // InPlanOrder keeps a walk of the order sequential in every per-node array, and a node's
    // predecessors close to it: at 10^6 nodes the graph's numbering made each step's reads cache
    // misses scattered over the whole graph (simulateTiming grew faster than n).
    PlanNodes(const Graph& g, const Plan& plan, Numbering numbering = Numbering::GraphThenAdded);

    int size() const { return static_cast<int>(facts_.size()); }
    int indexOf(NodeId id) const;          // InternalError for an id that is no node of the plan
    int bufferIndexOf(BufferId id) const;  // the index in Graph::buffers; InternalError if none
    const Node& node(int i) const { return *facts_[i].node; }
    NodeId id(int i) const { return facts_[i].id; }
    Cycles cycles(int i) const { return facts_[i].cycles; }
    // ALLOC and SPILL_IN place a buffer; FREE and SPILL_OUT release it.
    bool places(int i) const { return (facts_[i].kind & kPlaces) != 0; }
    bool releases(int i) const { return (facts_[i].kind & kReleases) != 0; }
    bool isSpill(int i) const { return (facts_[i].kind & kSpill) != 0; }  // SPILL_OUT or SPILL_IN
    // The buffer (index into Graph::buffers) a placing or releasing node moves, else -1.
    int moved(int i) const { return facts_[i].moved; }
    // The buffers (indices) an operation node (not ALLOC/FREE/SPILL_*) uses, without repeats.
    IndexRange uses(int i) const { return {uses_.data() + usesStart_[i], uses_.data() + usesStart_[i + 1]}; }
    // Predecessors by the graph's and the plan's added edges (what timing waits for).
    IndexRange preds(int i) const { return {preds_.data() + predsStart_[i], preds_.data() + predsStart_[i + 1]}; }
    // The node's pipe as a small index (0: none), the pipes' count (with none), a pipe's name.
    int pipe(int i) const { return facts_[i].pipe; }
    int pipes() const { return static_cast<int>(pipeNames_.size()); }
    const Name& pipeName(int pipe) const { return pipeNames_[pipe]; }
    // A buffer's (index into Graph::buffers) memory as a small index, the memories' count, and
    // the buffer's size and id.
    int memoryOf(int buffer) const { return buffers_[buffer].memory; }
    int memories() const { return memories_; }
    Bytes bufferSize(int buffer) const { return buffers_[buffer].size; }
    BufferId bufferId(int buffer) const { return buffers_[buffer].id; }

private:
    enum : std::uint8_t { kPlaces = 1, kReleases = 2, kSpill = 4 };
    struct BufferFacts {
        Bytes size;
        BufferId id;
        int memory;
    };
    // A node's facts in one record of 32 bytes on a 32-byte boundary (within one cache line):
    // in plan order they are written scattered, a cache miss each, and a vector a fact made that
    // six misses a node at 10^6 nodes.
    struct alignas(32) Facts {
        const Node* node;
        Cycles cycles;
        NodeId id;
        int moved;  // -1: none
        int pipe;   // 0: none
        std::uint8_t kind;
    };
    std::vector<Facts> facts_;
    IdTable index_, bufferIndex_;       // node ids, buffer ids -> dense indices
    std::vector<Name> pipeNames_;       // by pipe index; 0: none
    std::vector<BufferFacts> buffers_;  // by buffer index
    // Each node's uses and predecessors as rows of one array (row i: [start[i], start[i + 1])):
    // a vector per node was two allocations a node, 100 MB and scattered reads at 10^6 nodes.
    std::vector<int> uses_, usesStart_, preds_, predsStart_;
    int memories_ = 0;

    struct Source;  // the graph's nodes then the plan's added ones, and their renumbering
    std::vector<int> numberNodes(const Source& s, Numbering numbering);
    void numberBuffers(const Graph& g);
    int bufferFor(const Node& n, BufferId b) const;
    template <typename Use>
    void forEachUse(const Node& n, std::uint8_t kind, Use&& use) const;
    void readFacts(const Source& s);
    void numberPipesInPlanOrder();
    void predecessorRows(const Source& s);
};

// The pipe model run node by node: simulateTiming's engine, and the clock of the planners that
// place and order for time (cycles.h). The caller says which node runs next (a dense index of
// `nodes`, which must outlive the model) and, for a placing node, at which offset.
class PipeModel {
public:
    using Left = ByteLeaves::Left;

    // `mergedLeaves`: see ByteLeaves (for a model whose leaves() nobody walks).
    PipeModel(const Graph& g, const PlanNodes& nodes, bool mergedLeaves = false);

    const PlanNodes& nodes() const { return nodes_; }
    // The latest leave over [offset, offset + size) of a memory (PlanNodes::memoryOf), latest
    // step among equal times.
    Left leftAt(int memory, Bytes offset, Bytes size) const { return leaves_[memory].latest(offset, offset + size); }
    const ByteLeaves& leaves(int memory) const { return leaves_[memory]; }
    // When node i could start if it ran next, placed at `offset` when it places a buffer (its
    // pipe left empty: run() fills it).
    NodeTiming peek(int i, Bytes offset = 0) const;
    // The times the rules alone would let node i start if it ran next: its predecessors (edge),
    // its pipe, and (placing nodes) the bytes at `offset`.
    struct Ready {
        Cycles edge = 0, pipe = 0, address = 0;
    };
    Ready readyOf(int i, Bytes offset = 0) const;
    // Runs node i next (at `offset` when it places a buffer) and returns its timing.
    NodeTiming run(int i, Bytes offset = 0);
    Cycles total() const { return total_; }

private:
    struct Placement {
        Bytes offset = 0;
        Cycles lastUseEnd = 0;  // latest end of a node that used the buffer at this place
        int lastUser = -1;      // the first node (in order) to end then
        bool placed = false;
    };
    struct Rules {
        Cycles edge = 0, pipe = 0;
        int edgeNode = -1, pipeNode = -1;
        Left left;
    };
    Rules rulesOf(int i, Bytes offset) const;
    NodeTiming timingOf(int i, Bytes offset) const;

    // A node's end and step, side by side: a predecessor's are read together.
    struct Ran {
        Cycles end = 0;
        int step = -1;  // -1: has not run
    };

    const PlanNodes& nodes_;
    std::vector<Ran> ran_;
    std::vector<std::pair<Cycles, int>> pipeFree_;  // per pipe: (end, node) of its last node
    std::vector<ByteLeaves> leaves_;                // per memory
    std::vector<Placement> placed_;                 // per buffer
    int steps_ = 0;
    Cycles total_ = 0;
};

}  // namespace spillway
