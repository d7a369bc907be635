// A plan: what the planner decides and what the verifier, timing and writers read.
// Only ids (never planner internals) appear here, so a plan can come from anywhere.
#pragma once
#include <string>
#include <vector>

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
    int outStep = 0;      // positions of the two nodes in the new order
    int inStep = 0;
};

// One candidate the planner weighed when choosing whom to spill.
struct Candidate {
    BufferId buf = 0;
    int nextUseStep = 0;  // position (in the input order) of its next use
    double score = 0;     // larger is spilled first
};

// A decision the planner made, in the order it made it; the playground replays these.
struct Decision {
    enum class Kind { Place, Spill, Reload, Free };
    Kind kind = Kind::Place;
    int step = 0;          // position in the input order of the node being processed
    NodeId node = 0;       // that node's id
    BufferId buf = 0;      // the buffer placed / spilled / reloaded / freed
    std::string type;
    Bytes offset = 0;
    Bytes size = 0;
    std::string reason;    // one sentence a student can read
    std::vector<Candidate> candidates;  // Spill only: everyone weighed, victim included
};

struct Plan {
    std::string policy;                   // the policy that made it ("best" names its winner)
    std::vector<Allocation> allocations;  // ascending BufId
    std::vector<Spill> spills;            // in spill order
    std::vector<NodeId> order;            // the new order, spill nodes inserted
    std::vector<Node> addedNodes;         // SPILL_OUT/SPILL_IN nodes, ascending id
    std::vector<std::pair<NodeId, NodeId>> addedEdges;  // sorted, no duplicates
    std::vector<Decision> decisions;
};

}  // namespace spillway
