// A plan: what the planner decides and what the verifier, timing and writers read.
// Only ids (never planner internals) appear here, so a plan can come from anywhere.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "free_list.h"
#include "graph.h"

namespace spillway {

// Where a buffer is placed when its ALLOC runs.
struct Allocation {
    BufferId buf = 0;
    std::string type;
    Bytes offset = 0;
    Bytes size = 0;
};

// One SPILL_OUT/SPILL_IN pair. Spill k (0-based, in this list's order) has
// outNode = base + 2k and inNode = base + 2k + 1, base = largest node id + 1.
struct Spill {
    BufferId buf = 0;
    std::string type;
    Bytes size = 0;
    Bytes oldOffset = 0;  // where it was when written out
    Bytes newOffset = 0;  // where its SPILL_IN puts it back
    NodeId outNode = 0;
    NodeId inNode = 0;
    int outStep = 0;  // positions of the two nodes in the new order
    int inStep = 0;
};

// One candidate the planner weighed when choosing whom to spill. The policy gives the score; the
// builder fills in the facts (size, next use, whether main memory holds its data).
struct Candidate {
    BufferId buf = 0;
    Bytes size = 0;
    int nextUseStep = 0;  // position (in the input order) of its next use
    bool copyIn = false;  // a COPY_IN filled it: main memory holds its data, writing it out is free
    double score = 0;     // the policy's own score (Decision::formula says how it is computed)
};

// A contiguous run of memory (holes and buffers) the policy weighed writing out whole.
struct SpillWindow {
    Bytes start = 0;
    Bytes end = 0;  // exclusive
    double cost = 0;
    std::vector<BufferId> bufs;  // the buffers in it, by address
};

// Why a spill was needed: the buffers that needed room, how many bytes they need, the memory's
// free bytes and largest hole at that moment, and the bytes missing by the policy's own measure.
struct Room {
    std::vector<BufferId> forBufs;
    Bytes need = 0;
    Bytes freeBytes = 0;
    Bytes largestHole = 0;
    Bytes shortfall = 0;
};

// A decision the planner made, in the order it made it; the playground replays these. Lists are
// bounded (the first kShownChoices, plus the chosen one and a spill's furthest next use where they
// rank lower) with the count weighed beside.
struct Decision {
    enum class Kind { Place, Spill, Reload, Free };
    Kind kind = Kind::Place;
    int step = 0;       // position in the input order of the node being processed
    int orderStep = 0;  // position in the new order of the node it emitted (ALLOC, SPILL_OUT, SPILL_IN, FREE)
    NodeId node = 0;    // that node's id
    BufferId buf = 0;   // the buffer placed / spilled / reloaded / freed
    std::string type;
    Bytes offset = 0;
    Bytes size = 0;
    std::string reason;  // one sentence a student can read
    // Place / Reload: the holes the placement chose among, by address (the chosen one holds offset).
    std::vector<Hole> holes;
    int holesTotal = 0;
    // Spill: the room needed, the policy's formula, and the candidates (best first) and windows
    // (cheapest first) it weighed.
    Room room;
    std::string formula;
    std::vector<Candidate> candidates;
    int candidatesTotal = 0;
    std::vector<SpillWindow> windows;
    int windowsTotal = 0;
};

inline constexpr int kShownChoices = 16;

// A plan with more spills than a quarter of its graph's nodes (and more than kDetailedSpillsFloor)
// is spill-heavy: its decisions are brief, as a huge graph's are (BriefDecision below), so that
// what the decision log keeps grows with the graph, not with the spills times the candidates of
// each (docs/result-format.md, "Brief decisions"). A graph that thrashes its memory spills far
// more often than it has nodes; real kernels spill a few times per hundred nodes.
inline constexpr std::size_t kDetailedSpillsFloor = 1024;
inline bool isSpillHeavy(std::size_t spills, std::size_t nodes) {
    return spills > kDetailedSpillsFloor && spills > nodes / 4;
}

// What a decision did, without why nor among what. A huge graph's plan (scale.h) and a spill-heavy
// one record these instead of Decisions: 32 bytes each against about 300 plus the texts and
// lists, for about a million decisions at 10^6 nodes. The result writes them with their buffer's
// type and size (docs/result-format.md, "Brief decisions").
struct BriefDecision {
    Decision::Kind kind = Decision::Kind::Place;
    int step = 0;
    int orderStep = 0;
    NodeId node = 0;
    BufferId buf = 0;
    Bytes offset = 0;
};

struct Plan {
    std::string policy;                                 // the policy that made it ("best" names its winner)
    std::vector<Allocation> allocations;                // ascending BufId
    std::vector<Spill> spills;                          // in spill order
    std::vector<NodeId> order;                          // the new order, spill nodes inserted
    std::vector<Node> addedNodes;                       // SPILL_OUT/SPILL_IN nodes, ascending id
    std::vector<std::pair<NodeId, NodeId>> addedEdges;  // sorted, no duplicates
    std::vector<Decision> decisions;                    // empty on a huge graph, which has briefDecisions
    std::vector<BriefDecision> briefDecisions;          // a huge graph's decisions, in the order made
};

}  // namespace spillway
