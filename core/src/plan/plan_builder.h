// Internal to the planners: records a walk over the input order as a Plan. A policy decides
// where buffers go and whom to spill; the builder emits SPILL_OUT/SPILL_IN nodes with the
// contest's ids and edges, keeps each buffer's use steps and residency, and logs decisions.
// Every decision is recorded with what it chose among, so that any policy explains itself: the
// builder keeps each memory's free holes and fills in the facts (holes at a placement, free
// bytes and largest hole at a spill, each candidate's size, next use and COPY_IN flag); a policy
// gives only what is its own (its scores, formula, the room it needed, the holes it weighed when
// they are not the memory's free holes of the moment).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spillway/cost.h"
#include "spillway/free_list.h"
#include "spillway/plan.h"
#include "spillway/schedule.h"

namespace spillway {

enum class Residency { Unallocated, Resident, Spilled, Freed };

// A candidate victim as a policy scores it: a buffer index and the policy's own score.
struct Scored {
    int buf;
    double score;
};

// A contiguous run of memory a policy weighed writing out whole: its buffers (indices, by address).
struct WeighedWindow {
    Bytes start, end;
    double cost;
    std::vector<int> bufs;
};

// What a policy says about one spill (see Decision in plan.h).
struct SpillWhy {
    std::string reason;                  // one sentence a student can read
    std::string formula;                 // how the candidates are scored and the victim chosen
    std::vector<int> forBufs;            // buffer indices that needed the room
    Bytes need = 0;                      // bytes they need
    Bytes shortfall = 0;                 // bytes missing, by the policy's own measure
    std::vector<Scored> ranked;          // the candidates weighed, the policy's preferred victim first
    int weighed = -1;                    // how many were weighed, when `ranked` is a shortlist already
    std::vector<WeighedWindow> windows;  // windows weighed, cheapest first (window policy)
    int windowsWeighed = -1;             // how many, when `windows` is a shortlist already
};

class PlanBuilder {
public:
    PlanBuilder(const Graph& g, const Order& order, const CostModel& cost, const Capacities& capacities);

    // The first kShownChoices of `ranked`, plus any buffer of `keep` further down, in ranked order:
    // what a decision records of a long candidate list.
    static std::vector<Scored> shortlist(const std::vector<Scored>& ranked, const std::vector<int>& keep);

    int steps() const { return static_cast<int>(order_.size()); }
    int step() const { return step_; }
    const Node& nodeAt(int step) const { return g_.nodes[nodeAt_[step]]; }
    // Buffer indices (into Graph::buffers) the node at `step` touches, without repeats.
    IndexRange buffersAt(int step) const {
        const int* flat = bufferIndicesAt_.data();
        return {flat + firstBufferAt_[step], flat + firstBufferAt_[step + 1]};
    }

    Residency residency(int b) const { return states_[b].residency; }
    Bytes offset(int b) const { return states_[b].offset; }
    // Step of b's next use (a user or its FREE) not yet run; at the current step, the current node.
    int nextUse(int b) const { return states_[b].uses[states_[b].nextUse]; }
    // All use steps of b (users then its FREE, ascending) and how many have run.
    const std::vector<int>& uses(int b) const { return states_[b].uses; }

    // Whether decisions keep their reason, holes and candidates: not on a huge graph (scale.h),
    // nor once the plan is spill-heavy (isSpillHeavy, plan.h), whose decisions are brief. A policy
    // builds none of them when they would be dropped.
    bool keepsReasons() const { return !brief_; }
    // Whether they would still keep them with `spills` spills in the plan: a policy that knows its
    // spills before recording them (lifetime, residency) explains none of a spill-heavy plan's.
    bool keepsReasonsFor(int spills) const {
        return !brief_ && !isSpillHeavy(static_cast<size_t>(spills), g_.nodes.size());
    }

    // A policy that knows how many spills its plan makes (lifetime, before replaying them) says so,
    // so that the plan's arrays are allocated once at their final size: grown by doubling, a
    // million-node graph's plan copied each of them about 20 times, into fresh pages each time.
    void expectSpills(int spills);

    void beginStep(int step) { step_ = step; }
    // Places b at `offset`: its initial placement at ALLOC, or its reload (SPILL_IN) if spilled.
    // `considered`: the holes the policy chose among, when they are not the memory's free holes
    // of this moment (an offline packer's gaps free over the buffer's whole stretch).
    void place(int b, Bytes offset, std::string reason, std::optional<std::vector<Hole>> considered = std::nullopt);
    // Writes b out (SPILL_OUT) and frees its bytes; its reload comes with a later place().
    void spill(int b, SpillWhy why);
    // Emits the current step's node; a FREE releases its buffer. Then advances use cursors.
    void runNode();

    Plan finish();

private:
    struct BufferState {
        Residency residency = Residency::Unallocated;
        Bytes offset = 0;
        std::vector<int> uses;
        size_t nextUse = 0;
        int pendingSpill = -1;  // index into plan_.spills awaiting its SPILL_IN
        NodeId lastSpillIn = -1;
        size_t reloadedAt = 0;  // uses run when it was last reloaded (0: since its ALLOC)
    };
    void addSpillEdges(int b, NodeId out, NodeId in);
    void edge(NodeId from, NodeId to) { plan_.addedEdges.emplace_back(from, to); }
    // Records a decision; null when decisions are brief (nothing to add to them).
    Decision* decide(Decision::Kind kind, int b, std::string reason, int orderStep);
    // From here on decisions are brief, and so are those recorded so far: a plan's decisions are
    // all of one kind.
    void becomeBrief();
    size_t decisionCount() const { return brief_ ? plan_.briefDecisions.size() : plan_.decisions.size(); }
    void recordHoles(Decision& d, std::vector<Hole> holes) const;
    void recordChoice(Decision& d, int victim, SpillWhy& why) const;

    const Graph& g_;
    const Order& order_;
    const CostModel& cost_;
    bool brief_;  // a huge graph (scale.h) or a spill-heavy plan: decisions without texts and choices (BriefDecision)
    std::vector<int> nodeAt_;  // node index per step: nodeAt() without a hash lookup
    // The buffers of step s are bufferIndicesAt_[firstBufferAt_[s] .. firstBufferAt_[s + 1]): flat,
    // as a vector per step cost about 56 bytes a node (a million-node graph's plan keeps these).
    std::vector<int> firstBufferAt_;
    std::vector<int> bufferIndicesAt_;
    std::vector<BufferState> states_;
    std::map<std::string, FreeList> memories_;  // each memory's free holes, as the plan leaves them
    std::vector<FreeList*> memoryOf_;           // per buffer
    std::vector<size_t> placedThisStep_;        // ALLOC placements waiting for their node's position
    NodeId spillBase_;
    int step_ = 0;
    Plan plan_;
};

}  // namespace spillway
