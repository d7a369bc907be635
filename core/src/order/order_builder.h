// Internal to the order search: turns a sequence of slots (each a few units, run interleaved beat
// by beat) into a node order. Each operation runs after its unrun ancestors, pulled in just
// before it (non-ALLOC ancestors in hint order, then the ALLOCs, so a buffer is allocated just
// before its first user); a FREE runs right after its buffer's last use; a sink runs as soon as
// it can; whatever no slot reached runs at the end in hint order. Any sequence gives a valid
// order. Linear in nodes and edges per build, allocation-free after construction.
#pragma once
#include <vector>

#include "units.h"

namespace spillway {

using Slots = std::vector<std::vector<int>>;

class OrderBuilder {
public:
    OrderBuilder(const Graph& g, const Order& hint, const UnitModel& model);

    // Node indices in order (valid until the next build).
    const std::vector<int>& build(const Slots& slots);
    // The units of `sequence` one after another, each overlapping the one before it: its first
    // half of beats run beside that one's second half, beat by beat, where their spines fit
    // their memory together (else it starts when that one ends); never more than two at once.
    // So one unit's inputs are loaded while the other still computes. Node indices in order.
    // `holdFrees`: a buffer whose last user runs in a beat is freed after the beat, not right
    // after that user, so the beat's own loads do not take the bytes its inputs leave (a load
    // there waits for the input's last reader); the plans of such orders keep more resident.
    const std::vector<int>& buildStaggered(const std::vector<int>& sequence, bool holdFrees = false);

private:
    void begin();
    void releaseHeld();
    void runBeat(const Unit& unit, size_t beat);
    const std::vector<int>& finish();
    void pull(int v);
    void emit(int v);
    void drainEager();

    const UnitModel& m_;
    std::vector<int> byHint_;  // node indices in hint order
    Adjacency preds_, succs_;  // including ALLOC -> user -> FREE
    std::vector<int> initialRemaining_, initialRemainingOps_;
    std::vector<int> remaining_, remainingOps_;  // unrun predecessors (all / non-ALLOC)
    std::vector<char> done_;
    // Each node's op as a byte: emit() asks for every successor, and the graph's op names are
    // a string comparison away.
    enum : char { kOpNode, kAllocNode, kFreeNode };
    std::vector<char> kind_;
    std::vector<int> order_;
    std::vector<int> eagerQueue_, freeQueue_;
    bool holdFrees_ = false;
    std::vector<int> heldFrees_;  // FREEs ready during the beat running, when holdFrees_
    std::vector<std::pair<int, size_t>> stack_;
};

}  // namespace spillway
