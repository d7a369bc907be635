// Internal to the planners: records a walk over the input order as a Plan. A policy decides
// where buffers go and whom to spill; the builder emits SPILL_OUT/SPILL_IN nodes with the
// contest's ids and edges, keeps each buffer's use steps and residency, and logs decisions.
#pragma once
#include <string>
#include <vector>

#include "spillway/cost.h"
#include "spillway/plan.h"
#include "spillway/schedule.h"

namespace spillway {

enum class Residency { Unallocated, Resident, Spilled, Freed };

class PlanBuilder {
public:
    PlanBuilder(const Graph& g, const Order& order, const CostModel& cost);

    int steps() const { return static_cast<int>(order_.size()); }
    int step() const { return step_; }
    const Node& nodeAt(int step) const { return g_.node(order_[step]); }
    // Buffer indices (into Graph::buffers) the node at `step` touches, without repeats.
    const std::vector<int>& buffersAt(int step) const { return buffersAt_[step]; }

    Residency residency(int b) const { return states_[b].residency; }
    Bytes offset(int b) const { return states_[b].offset; }
    // Step of b's next use (a user or its FREE) not yet run; at the current step, the current node.
    int nextUse(int b) const { return states_[b].uses[states_[b].nextUse]; }
    // All use steps of b (users then its FREE, ascending) and how many have run.
    const std::vector<int>& uses(int b) const { return states_[b].uses; }

    void beginStep(int step) { step_ = step; }
    // Places b at `offset`: its initial placement at ALLOC, or its reload (SPILL_IN) if spilled.
    void place(int b, Bytes offset, std::string reason);
    // Writes b out (SPILL_OUT) and frees its bytes; its reload comes with a later place().
    void spill(int b, std::string reason, std::vector<Candidate> candidates = {});
    // Emits the current step's node; a FREE releases its buffer. Then advances use cursors.
    void runNode();

    Plan finish();

private:
    struct BufferState {
        Residency residency = Residency::Unallocated;
        Bytes offset = 0;
        std::vector<int> uses;
        size_t nextUse = 0;
        int pendingSpill = -1;   // index into plan_.spills awaiting its SPILL_IN
        NodeId lastSpillIn = -1;
        size_t reloadedAt = 0;   // uses run when it was last reloaded (0: since its ALLOC)
    };
    void addSpillEdges(int b, NodeId out, NodeId in);
    void edge(NodeId from, NodeId to) { plan_.addedEdges.emplace_back(from, to); }
    void decide(Decision::Kind kind, int b, std::string reason);

    const Graph& g_;
    const Order& order_;
    const CostModel& cost_;
    std::vector<std::vector<int>> buffersAt_;
    std::vector<BufferState> states_;
    NodeId spillBase_;
    int step_ = 0;
    Plan plan_;
};

}  // namespace spillway
