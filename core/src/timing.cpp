#include "spillway/timing.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "spillway/error.h"

namespace spillway {

const char* waitCauseName(WaitCause c) {
    switch (c) {
        case WaitCause::None: return "none";
        case WaitCause::Edge: return "edge";
        case WaitCause::Pipe: return "pipe";
        case WaitCause::Address: return "address";
    }
    return "?";
}

ByteLeaves::Left ByteLeaves::latest(Bytes start, Bytes end) const {
    Left best;
    auto it = segments_.upper_bound(start);
    if (it != segments_.begin()) --it;
    for (; it != segments_.end() && it->first < end; ++it)
        if (it->second.end > start && best.before(it->second.left)) best = it->second.left;
    return best;
}

void ByteLeaves::leave(Bytes start, Bytes end, const Left& left) {
    split(start);
    split(end);
    std::vector<std::pair<Bytes, Segment>> uncovered;
    Bytes at = start;
    for (auto it = segments_.lower_bound(start); it != segments_.end() && it->first < end; ++it) {
        if (it->first > at) uncovered.push_back({at, Segment{it->first, left}});
        if (it->second.left.before(left)) it->second.left = left;
        at = it->second.end;
    }
    if (at < end) uncovered.push_back({at, Segment{end, left}});
    for (const auto& [from, segment] : uncovered) segments_.emplace(from, segment);
    if (merged_) mergeAround(start, end);
}

// Joins touching ranges over [start, end] (and the one ending at start) that hold the same leave.
void ByteLeaves::mergeAround(Bytes start, Bytes end) {
    auto it = segments_.lower_bound(start);
    if (it != segments_.begin()) --it;
    while (it != segments_.end() && it->first < end) {
        const auto next = std::next(it);
        if (next != segments_.end() && next->first == it->second.end && next->second.left == it->second.left) {
            it->second.end = next->second.end;
            segments_.erase(next);
        } else {
            it = next;
        }
    }
}

void ByteLeaves::split(Bytes at) {
    auto it = segments_.upper_bound(at);
    if (it == segments_.begin()) return;
    --it;
    if (it->first < at && it->second.end > at) {
        Segment right{it->second.end, it->second.left};
        it->second.end = at;
        segments_.emplace(at, right);
    }
}

PlanNodes::PlanNodes(const Graph& g, const Plan& plan, Numbering numbering) {
    nodes_.reserve(g.nodes.size() + plan.addedNodes.size());
    for (const Node& n : g.nodes) nodes_.push_back(&n);
    for (const Node& n : plan.addedNodes) nodes_.push_back(&n);
    std::vector<NodeId> ids;
    ids.reserve(nodes_.size());
    for (const Node* n : nodes_) ids.push_back(n->id);
    index_ = IdTable::positions(ids);
    // renumbered[i]: the index of the node the graph's numbering gives i (empty: the same).
    std::vector<int> renumbered;
    if (numbering == Numbering::InPlanOrder) {
        renumbered.assign(nodes_.size(), -1);
        std::vector<const Node*> inOrder;
        inOrder.reserve(nodes_.size());
        for (NodeId id : plan.order) {
            const int i = indexOf(id);
            if (renumbered[i] >= 0) continue;
            renumbered[i] = static_cast<int>(inOrder.size());
            inOrder.push_back(nodes_[i]);
        }
        for (size_t i = 0; i < nodes_.size(); ++i)
            if (renumbered[i] < 0) {
                renumbered[i] = static_cast<int>(inOrder.size());
                inOrder.push_back(nodes_[i]);
            }
        nodes_.swap(inOrder);
        for (size_t i = 0; i < nodes_.size(); ++i) ids[i] = nodes_[i]->id;
        index_ = IdTable::positions(ids);
    }
    auto renumber = [&](int i) { return renumbered.empty() ? i : renumbered[i]; };
    moved_.assign(nodes_.size(), -1);
    pipe_.assign(nodes_.size(), 0);
    usesStart_.assign(nodes_.size() + 1, 0);
    std::map<std::string, int> pipes{{"", 0}}, memories;
    ids.clear();
    for (const Buffer& b : g.buffers) ids.push_back(b.id);
    bufferIndex_ = IdTable::positions(ids);
    const Name* lastPipe = nullptr;  // runs of nodes share a pipe: one compare instead of a map lookup
    int lastPipeIndex = 0;
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& n = *nodes_[i];
        if (!lastPipe || *lastPipe != n.pipe) {
            lastPipe = &n.pipe;
            lastPipeIndex = pipes.emplace(n.pipe, static_cast<int>(pipes.size())).first->second;
        }
        pipe_[i] = lastPipeIndex;
        auto buffer = [&](BufferId b) {
            const int index = bufferIndex_.find(b);
            if (index < 0) throw InternalError("timing: node " + std::to_string(n.id) + " names unknown buffer " + std::to_string(b));
            return index;
        };
        if (n.isBufferNode()) {
            moved_[i] = buffer(n.buf);
        } else if ((n.isSpillIn() || n.isSpillOut()) && !n.bufs.empty()) {
            moved_[i] = buffer(n.bufs.front());
        } else {
            for (BufferId b : n.bufs) {
                const int bi = buffer(b);
                if (std::find(uses_.begin() + usesStart_[i], uses_.end(), bi) == uses_.end()) uses_.push_back(bi);
            }
        }
        usesStart_[i + 1] = static_cast<int>(uses_.size());
    }
    pipes_ = static_cast<int>(pipes.size());
    memoryOf_.reserve(g.buffers.size());
    for (const Buffer& b : g.buffers) memoryOf_.push_back(memories.emplace(b.type, static_cast<int>(memories.size())).first->second);
    memories_ = static_cast<int>(memories.size());
    // Rows by counting: each row lists the graph's edges, then the added ones, in their order.
    std::vector<std::pair<int, int>> added;  // (to, from) as indices
    added.reserve(plan.addedEdges.size());
    for (auto [s, d] : plan.addedEdges) added.emplace_back(indexOf(d), indexOf(s));
    predsStart_.assign(nodes_.size() + 1, 0);
    for (auto [s, d] : g.edges) ++predsStart_[renumber(d) + 1];
    for (auto [d, s] : added) ++predsStart_[d + 1];
    for (size_t i = 0; i < nodes_.size(); ++i) predsStart_[i + 1] += predsStart_[i];
    preds_.resize(static_cast<size_t>(predsStart_.back()));
    std::vector<int> next(predsStart_.begin(), predsStart_.end() - 1);
    for (auto [s, d] : g.edges) preds_[next[renumber(d)]++] = renumber(s);
    for (auto [d, s] : added) preds_[next[d]++] = s;
}

int PlanNodes::bufferIndexOf(BufferId id) const {
    const int i = bufferIndex_.find(id);
    if (i < 0) throw InternalError("timing: unknown buffer " + std::to_string(id));
    return i;
}

int PlanNodes::indexOf(NodeId id) const {
    const int i = index_.find(id);
    if (i < 0) throw InternalError("timing: unknown node " + std::to_string(id));
    return i;
}

PipeModel::PipeModel(const Graph& g, const PlanNodes& nodes, bool mergedLeaves)
    : g_(g), nodes_(nodes), end_(nodes.size(), 0), step_(nodes.size(), -1), pipeFree_(nodes.pipes(), {0, -1}),
      leaves_(nodes.memories(), ByteLeaves(mergedLeaves)), placed_(g.buffers.size()) {}

NodeTiming PipeModel::peek(int i, Bytes offset) const { return timingOf(i, offset); }

PipeModel::Ready PipeModel::readyOf(int i, Bytes offset) const {
    const Rules r = rulesOf(i, offset);
    return {r.edge, r.pipe, r.left.time};
}

// The three rules' times, each with the node (and buffer) that sets it.
PipeModel::Rules PipeModel::rulesOf(int i, Bytes offset) const {
    Rules r;
    for (int pred : nodes_.preds(i)) {
        if (step_[pred] < 0)
            throw InternalError("timing: node " + std::to_string(nodes_.id(i)) + " runs before its predecessor " +
                                std::to_string(nodes_.id(pred)));
        if (r.edgeNode < 0 || end_[pred] > r.edge || (end_[pred] == r.edge && step_[pred] < step_[r.edgeNode])) {
            r.edge = end_[pred];
            r.edgeNode = pred;
        }
    }
    if (nodes_.pipe(i) > 0) std::tie(r.pipe, r.pipeNode) = pipeFree_[nodes_.pipe(i)];
    if (nodes_.places(i)) {
        const int b = nodes_.moved(i);
        r.left = leftAt(nodes_.memoryOf(b), offset, g_.buffers[b].size);
    }
    return r;
}

NodeTiming PipeModel::timingOf(int i, Bytes offset) const {
    const Rules r = rulesOf(i, offset);
    const Cycles address = r.left.time;
    NodeTiming t;
    t.id = nodes_.id(i);
    t.start = std::max({Cycles{0}, r.edge, r.pipe, address});
    t.end = t.start + nodes_.node(i).cycles;
    Wait& w = t.wait;
    if (t.start == 0) return t;
    if (r.edgeNode >= 0 && r.edge == t.start) {
        w = {WaitCause::Edge, nodes_.id(r.edgeNode), -1, t.start - std::max(r.pipe, address)};
    } else if (r.pipeNode >= 0 && r.pipe == t.start) {
        w = {WaitCause::Pipe, nodes_.id(r.pipeNode), -1, t.start - std::max(r.edge, address)};
    } else {
        w = {WaitCause::Address, r.left.node, r.left.buffer, t.start - std::max(r.edge, r.pipe)};
    }
    return t;
}

NodeTiming PipeModel::run(int i, Bytes offset) {
    const Node& n = nodes_.node(i);
    NodeTiming t = timingOf(i, offset);
    t.pipe = n.pipe;
    const int step = steps_++;
    const int moved = nodes_.moved(i);
    if (nodes_.places(i)) placed_[moved] = {offset, 0, -1, true};
    end_[i] = t.end;
    step_[i] = step;
    if (nodes_.pipe(i) > 0) pipeFree_[nodes_.pipe(i)] = {t.end, i};
    total_ = std::max(total_, t.end);
    // A spill node uses its buffer too (its end counts towards when the bytes are left).
    auto used = [&](int b) {
        Placement& p = placed_[b];
        if (p.placed && t.end > p.lastUseEnd) {
            p.lastUseEnd = t.end;
            p.lastUser = i;
        }
    };
    if (n.isSpillIn() || n.isSpillOut()) used(moved);
    for (int b : nodes_.uses(i)) used(b);
    if (nodes_.releases(i)) {
        const Placement& at = placed_[moved];
        if (!at.placed) throw InternalError("timing: node " + std::to_string(n.id) + " releases an unplaced buffer");
        const bool last = t.end >= at.lastUseEnd;
        const Buffer& b = g_.buffers[moved];
        leaves_[nodes_.memoryOf(moved)].leave(at.offset, at.offset + b.size,
                                              {last ? t.end : at.lastUseEnd, step, b.id, nodes_.id(last ? i : at.lastUser)});
    }
    return t;
}

Timing simulateTiming(const Graph& g, const Plan& plan) {
    const PlanNodes nodes(g, plan, PlanNodes::Numbering::InPlanOrder);
    // Offsets by dense index (a node's, a buffer's): hash maps here were cache misses a step.
    constexpr Bytes kUnplaced = std::numeric_limits<Bytes>::min();
    std::vector<Bytes> initialOffset(g.buffers.size(), kUnplaced);
    for (const Allocation& a : plan.allocations) initialOffset[nodes.bufferIndexOf(a.buf)] = a.offset;
    std::vector<Bytes> reloadOffset(nodes.size(), kUnplaced);
    for (const Spill& s : plan.spills) reloadOffset[nodes.indexOf(s.inNode)] = s.newOffset;

    PipeModel model(g, nodes, true);
    Timing timing;
    timing.nodes.reserve(plan.order.size());
    for (NodeId id : plan.order) {
        const int i = nodes.indexOf(id);
        const Node& n = nodes.node(i);
        Bytes offset = 0;
        if (n.isAlloc()) offset = initialOffset[nodes.moved(i)];
        if (n.isSpillIn()) offset = reloadOffset[i];
        if (offset == kUnplaced) throw InternalError("timing: node " + std::to_string(id) + " places a buffer at no offset");
        timing.nodes.push_back(model.run(i, offset));
    }
    timing.total = model.total();
    return timing;
}

}  // namespace spillway
