#include "order_builder.h"

#include <algorithm>

#include "spillway/error.h"

namespace spillway {

OrderBuilder::OrderBuilder(const Graph& g, const Order& hint, const UnitModel& model) : m_(model) {
    const int n = static_cast<int>(g.nodes.size());
    std::vector<int> position(n);
    for (int i = 0; i < static_cast<int>(hint.size()); ++i) {
        position[g.nodeIndex.at(hint[i])] = i;
        byHint_.push_back(g.nodeIndex.at(hint[i]));
    }
    preds_ = Adjacency::fromArcs(g.nodes.size(), [&](auto&& add) {  // add(node, its predecessor)
        for (int v = 0; v < n; ++v)
            for (int p : g.predecessors[v]) add(v, p);
        for (const Buffer& b : g.buffers) {
            for (int u : b.users) {
                add(u, b.allocNode);
                add(b.freeNode, u);
            }
            add(b.freeNode, b.allocNode);
        }
    });
    // Operations and FREEs first (hint order), ALLOCs last: pulled just before their user.
    preds_.sortEachUnique([&](int a, int b) {
        const bool aa = g.nodes[a].isAlloc(), ba = g.nodes[b].isAlloc();
        return aa != ba ? ba : position[a] < position[b];
    });
    succs_ = preds_.reversed();
    kind_.resize(n);
    for (int v = 0; v < n; ++v)
        kind_[v] = g.nodes[v].isAlloc() ? kAllocNode : g.nodes[v].isFree() ? kFreeNode : kOpNode;
    initialRemaining_.assign(n, 0);
    initialRemainingOps_.assign(n, 0);
    for (int v = 0; v < n; ++v)
        for (int q : preds_[v]) {
            ++initialRemaining_[v];
            if (!g.nodes[q].isAlloc()) ++initialRemainingOps_[v];
        }
    done_.assign(n, 0);
    order_.reserve(n);
}

const std::vector<int>& OrderBuilder::build(const Slots& slots) {
    begin();
    for (const std::vector<int>& slot : slots) {
        size_t beats = 0;
        for (int u : slot) beats = std::max(beats, m_.units[u].beats.size());
        for (size_t beat = 0; beat < beats; ++beat)
            for (int u : slot)
                if (beat < m_.units[u].beats.size()) runBeat(m_.units[u], beat);
    }
    return finish();
}

const std::vector<int>& OrderBuilder::buildStaggered(const std::vector<int>& sequence, bool holdFrees) {
    // Each unit's first beat on a common clock of beats, half the beats of the one before after
    // it; ends[t] is one past its last. On one clock the earlier unit runs first, so a unit may
    // start on the clock of the last beat of the one two before it, which frees its spine.
    const size_t n = sequence.size();
    std::vector<size_t> starts(n, 0), ends(n, 0);
    for (size_t t = 0; t < n; ++t) {
        if (t > 0) {
            const size_t half = std::max<size_t>(1, m_.units[sequence[t - 1]].beats.size() / 2);
            const bool overlaps = canShareSlot(m_, {sequence[t - 1]}, sequence[t]);
            const size_t free = t > 1 ? std::max(ends[t - 2], size_t{1}) - 1 : 0;
            starts[t] = overlaps ? std::max(starts[t - 1] + half, free) : ends[t - 1];
        }
        ends[t] = starts[t] + m_.units[sequence[t]].beats.size();
    }
    std::vector<std::pair<size_t, size_t>> beats;  // (clock, position in sequence): ties, the earlier unit
    for (size_t t = 0; t < n; ++t)
        for (size_t clock = starts[t]; clock < ends[t]; ++clock) beats.emplace_back(clock, t);
    std::sort(beats.begin(), beats.end());
    begin();
    holdFrees_ = holdFrees;
    for (const auto& [clock, t] : beats) {
        runBeat(m_.units[sequence[t]], clock - starts[t]);
        releaseHeld();
    }
    holdFrees_ = false;
    return finish();
}

void OrderBuilder::begin() {
    remaining_ = initialRemaining_;
    remainingOps_ = initialRemainingOps_;
    std::fill(done_.begin(), done_.end(), 0);
    order_.clear();
    for (int v : byHint_)  // sinks with nothing to wait for (and nodes with no predecessor that no one pulls)
        if (m_.eager[v] && remainingOps_[v] == 0) eagerQueue_.push_back(v);
    drainEager();
}

void OrderBuilder::runBeat(const Unit& unit, size_t beat) {
    const int from = beat == 0 ? 0 : unit.beats[beat - 1];
    for (int i = from; i < unit.beats[beat]; ++i) {
        pull(unit.ops[i]);
        drainEager();
    }
}

const std::vector<int>& OrderBuilder::finish() {
    for (int v : byHint_) {
        pull(v);
        drainEager();
    }
    return order_;
}

// Depth-first over unrun predecessors, iteratively (chains of thousands of nodes).
void OrderBuilder::pull(int v) {
    if (done_[v]) return;
    stack_.clear();
    stack_.emplace_back(v, 0);
    while (!stack_.empty()) {
        auto& [node, next] = stack_.back();
        const auto& p = preds_[node];
        while (next < p.size() && done_[p[next]]) ++next;
        if (next < p.size()) {
            const int q = p[next];
            stack_.emplace_back(q, 0);
            continue;
        }
        const int ready = node;
        stack_.pop_back();
        if (!done_[ready]) emit(ready);
    }
}

void OrderBuilder::emit(int v) {
    done_[v] = 1;
    order_.push_back(v);
    freeQueue_.clear();
    freeQueue_.push_back(v);
    for (size_t i = 0; i < freeQueue_.size(); ++i) {
        const int x = freeQueue_[i];
        if (x != v) {
            done_[x] = 1;
            order_.push_back(x);
        }
        for (int s : succs_[x]) {
            --remaining_[s];
            if (kind_[x] != kAllocNode) --remainingOps_[s];
            if (done_[s]) continue;
            if (kind_[s] == kFreeNode && remaining_[s] == 0)
                (holdFrees_ ? heldFrees_ : freeQueue_).push_back(s);
            else if (m_.eager[s] && remainingOps_[s] == 0)
                eagerQueue_.push_back(s);
        }
    }
}

// The FREEs held during a beat (buildStaggered's holdFrees), run now; what they release runs too.
void OrderBuilder::releaseHeld() {
    while (!heldFrees_.empty()) {
        std::vector<int> held;
        held.swap(heldFrees_);
        for (int f : held)
            if (!done_[f]) emit(f);
        drainEager();
    }
}

void OrderBuilder::drainEager() {
    while (!eagerQueue_.empty()) {
        const int v = eagerQueue_.back();
        eagerQueue_.pop_back();
        pull(v);
    }
}

}  // namespace spillway
