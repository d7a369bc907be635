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

// The nodes in the graph's numbering: the graph's, then the plan's added nodes.
struct PlanNodes::Source {
    const Graph& g;
    const Plan& plan;
    // renumbered[k]: the index of the node the graph's numbering gives k (empty: the same).
    std::vector<int> renumbered;
    // A node's kind (kPlaces, kReleases, kSpill) by its Op: Names compare by identity.
    const Name alloc{kAlloc}, free{kFree}, spillIn{kSpillIn}, spillOut{kSpillOut};

    size_t count() const { return g.nodes.size() + plan.addedNodes.size(); }
    const Node& nodeAt(size_t k) const { return k < g.nodes.size() ? g.nodes[k] : plan.addedNodes[k - g.nodes.size()]; }
    size_t renumber(size_t k) const { return renumbered.empty() ? k : static_cast<size_t>(renumbered[k]); }
    std::uint8_t kindOf(const Node& n) const {
        return static_cast<std::uint8_t>((n.op == alloc || n.op == spillIn ? kPlaces : 0) |
                                         (n.op == free || n.op == spillOut ? kReleases : 0) |
                                         (n.op == spillIn || n.op == spillOut ? kSpill : 0));
    }
};

PlanNodes::PlanNodes(const Graph& g, const Plan& plan, Numbering numbering) {
    Source s{g, plan, {}};
    s.renumbered = numberNodes(s, numbering);
    numberBuffers(g);
    readFacts(s);
    if (!s.renumbered.empty()) numberPipesInPlanOrder();
    predecessorRows(s);
}

// The node index, and in plan order the renumbering (empty in the graph's numbering).
std::vector<int> PlanNodes::numberNodes(const Source& s, Numbering numbering) {
    const size_t count = s.count();
    std::vector<NodeId> ids(count);
    for (size_t k = 0; k < count; ++k) ids[k] = s.nodeAt(k).id;
    index_ = IdTable::positions(ids);
    std::vector<int> renumbered;
    if (numbering == Numbering::InPlanOrder) {
        renumbered.assign(count, -1);
        int placed = 0;
        for (NodeId id : s.plan.order) {
            int& to = renumbered[static_cast<size_t>(indexOf(id))];
            if (to < 0) to = placed++;
        }
        for (int& to : renumbered)
            if (to < 0) to = placed++;
        index_.renumber(renumbered);
    }
    return renumbered;
}

// Memories numbered as they first appear, looked up by name only where a run of buffers changes it.
void PlanNodes::numberBuffers(const Graph& g) {
    std::vector<NodeId> bufferIds;
    bufferIds.reserve(g.buffers.size());
    for (const Buffer& b : g.buffers) bufferIds.push_back(b.id);
    bufferIndex_ = IdTable::positions(bufferIds);
    std::map<Name, int> memories;
    buffers_.reserve(g.buffers.size());
    const Name* lastType = nullptr;
    int lastMemory = 0;
    for (const Buffer& b : g.buffers) {
        if (!lastType || *lastType != b.type) {
            lastType = &b.type;
            lastMemory = memories.try_emplace(b.type, static_cast<int>(memories.size())).first->second;
        }
        buffers_.push_back({b.size, b.id, lastMemory});
    }
    memories_ = static_cast<int>(memories.size());
}

int PlanNodes::bufferFor(const Node& n, BufferId b) const {
    const int index = bufferIndex_.find(b);
    if (index < 0)
        throw InternalError("timing: node " + std::to_string(n.id) + " names unknown buffer " + std::to_string(b));
    return index;
}

// An operation's uses are its Bufs without repeats; a buffer node and a spill node with a
// buffer have none (they move one).
template <typename Use>
void PlanNodes::forEachUse(const Node& n, std::uint8_t kind, Use&& use) const {
    if ((kind & (kPlaces | kReleases)) && ((kind & kSpill) == 0 || !n.bufs.empty())) return;
    for (auto b = n.bufs.begin(); b != n.bufs.end(); ++b)
        if (std::find(n.bufs.begin(), b, *b) == b) use(bufferFor(n, *b));
}

// Each node's facts are read from its record in the graph's numbering (records in storage
// order, read sequentially) and written at its index: read in plan order, the records of a
// 10^6-node plan were cache misses scattered over the whole graph, a few a node. Pipes are
// numbered as they first appear.
void PlanNodes::readFacts(const Source& s) {
    const size_t count = s.count();
    usesStart_.assign(count + 1, 0);
    for (size_t k = 0; k < count; ++k) {
        const Node& n = s.nodeAt(k);
        forEachUse(n, s.kindOf(n), [&](int) { ++usesStart_[s.renumber(k) + 1]; });
    }
    for (size_t i = 0; i < count; ++i) usesStart_[i + 1] += usesStart_[i];
    uses_.resize(static_cast<size_t>(usesStart_.back()));
    facts_.resize(count);
    pipeNames_.assign(1, Name());
    const Name* lastPipe = nullptr;  // runs of nodes share a pipe: one compare instead of a search
    int lastPipeIndex = 0;
    for (size_t k = 0; k < count; ++k) {
        const Node& n = s.nodeAt(k);
        const size_t i = s.renumber(k);
        if (!lastPipe || *lastPipe != n.pipe) {
            lastPipe = &n.pipe;
            // A graph has a handful of pipes; Names compare by identity.
            lastPipeIndex =
                static_cast<int>(std::find(pipeNames_.begin(), pipeNames_.end(), n.pipe) - pipeNames_.begin());
            if (lastPipeIndex == pipes()) pipeNames_.push_back(n.pipe);
        }
        const std::uint8_t kind = s.kindOf(n);
        Facts& f = facts_[i];
        f = {&n, n.cycles, n.id, -1, lastPipeIndex, kind};
        if ((kind & (kPlaces | kReleases)) && (kind & kSpill) == 0) {
            f.moved = bufferFor(n, n.buf);
        } else if ((kind & kSpill) && !n.bufs.empty()) {
            f.moved = bufferFor(n, n.bufs.front());
        } else {
            int at = usesStart_[i];
            forEachUse(n, kind, [&](int b) { uses_[static_cast<size_t>(at++)] = b; });
        }
    }
}

// Pipes numbered as they first appear in the plan's numbering, as for the graph's.
void PlanNodes::numberPipesInPlanOrder() {
    std::vector<int> pipeTo(pipeNames_.size(), -1);
    std::vector<Name> names;
    pipeTo[0] = 0;
    names.push_back(Name());
    for (Facts& f : facts_) {
        int& p = f.pipe;
        if (pipeTo[static_cast<size_t>(p)] < 0) {
            pipeTo[static_cast<size_t>(p)] = static_cast<int>(names.size());
            names.push_back(pipeNames_[static_cast<size_t>(p)]);
        }
        p = pipeTo[static_cast<size_t>(p)];
    }
    pipeNames_.swap(names);
}

// Rows by counting: each row lists the graph's edges, then the added ones, in their order.
// predsStart_[i] first counts row i's arcs, then marks its end, and each arc, placed from the
// last, moves it back to the row's start.
void PlanNodes::predecessorRows(const Source& s) {
    const size_t count = s.count();
    const Graph& g = s.g;
    std::vector<std::pair<int, int>> added;  // (to, from) as indices
    added.reserve(s.plan.addedEdges.size());
    for (auto [from, to] : s.plan.addedEdges) added.emplace_back(indexOf(to), indexOf(from));
    predsStart_.assign(count + 1, 0);
    for (auto [from, to] : g.edges) ++predsStart_[s.renumber(static_cast<size_t>(to))];
    for (auto [to, from] : added) ++predsStart_[static_cast<size_t>(to)];
    for (size_t i = 1; i <= count; ++i) predsStart_[i] += predsStart_[i - 1];
    preds_.resize(static_cast<size_t>(predsStart_[count]));
    for (auto e = added.rbegin(); e != added.rend(); ++e)
        preds_[static_cast<size_t>(--predsStart_[static_cast<size_t>(e->first)])] = e->second;
    for (auto e = g.edges.rbegin(); e != g.edges.rend(); ++e)
        preds_[static_cast<size_t>(--predsStart_[s.renumber(static_cast<size_t>(e->second))])] =
            static_cast<int>(s.renumber(static_cast<size_t>(e->first)));
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
    : nodes_(nodes),
      ran_(nodes.size()),
      pipeFree_(nodes.pipes(), {0, -1}),
      leaves_(nodes.memories(), ByteLeaves(mergedLeaves)),
      placed_(g.buffers.size()) {}

NodeTiming PipeModel::peek(int i, Bytes offset) const { return timingOf(i, offset); }

PipeModel::Ready PipeModel::readyOf(int i, Bytes offset) const {
    const Rules r = rulesOf(i, offset);
    return {r.edge, r.pipe, r.left.time};
}

// The three rules' times, each with the node (and buffer) that sets it.
PipeModel::Rules PipeModel::rulesOf(int i, Bytes offset) const {
    Rules r;
    int edgeStep = -1;
    for (int pred : nodes_.preds(i)) {
        const Ran& p = ran_[pred];
        if (p.step < 0)
            throw InternalError("timing: node " + std::to_string(nodes_.id(i)) + " runs before its predecessor " +
                                std::to_string(nodes_.id(pred)));
        if (r.edgeNode < 0 || p.end > r.edge || (p.end == r.edge && p.step < edgeStep)) {
            r.edge = p.end;
            r.edgeNode = pred;
            edgeStep = p.step;
        }
    }
    if (nodes_.pipe(i) > 0) std::tie(r.pipe, r.pipeNode) = pipeFree_[nodes_.pipe(i)];
    if (nodes_.places(i)) {
        const int b = nodes_.moved(i);
        r.left = leftAt(nodes_.memoryOf(b), offset, nodes_.bufferSize(b));
    }
    return r;
}

NodeTiming PipeModel::timingOf(int i, Bytes offset) const {
    const Rules r = rulesOf(i, offset);
    const Cycles address = r.left.time;
    NodeTiming t;
    t.id = nodes_.id(i);
    t.start = std::max({Cycles{0}, r.edge, r.pipe, address});
    t.end = t.start + nodes_.cycles(i);
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
    NodeTiming t = timingOf(i, offset);
    t.pipe = nodes_.pipeName(nodes_.pipe(i));
    const int step = steps_++;
    const int moved = nodes_.moved(i);
    if (nodes_.places(i)) placed_[moved] = {offset, 0, -1, true};
    ran_[i] = {t.end, step};
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
    if (nodes_.isSpill(i)) used(moved);
    for (int b : nodes_.uses(i)) used(b);
    if (nodes_.releases(i)) {
        const Placement& at = placed_[moved];
        if (!at.placed)
            throw InternalError("timing: node " + std::to_string(nodes_.id(i)) + " releases an unplaced buffer");
        const bool last = t.end >= at.lastUseEnd;
        leaves_[nodes_.memoryOf(moved)].leave(
            at.offset, at.offset + nodes_.bufferSize(moved),
            {last ? t.end : at.lastUseEnd, step, nodes_.bufferId(moved), nodes_.id(last ? i : at.lastUser)});
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
    for (size_t step = 0; step < plan.order.size(); ++step) {
        const NodeId id = plan.order[step];
        // Numbered in plan order, the node at a step is that step's index unless a node repeats.
        const int i = static_cast<int>(step) < nodes.size() && nodes.id(static_cast<int>(step)) == id
                          ? static_cast<int>(step)
                          : nodes.indexOf(id);
        Bytes offset = 0;
        if (nodes.places(i)) offset = nodes.isSpill(i) ? reloadOffset[i] : initialOffset[nodes.moved(i)];
        if (offset == kUnplaced)
            throw InternalError("timing: node " + std::to_string(id) + " places a buffer at no offset");
        timing.nodes.push_back(model.run(i, offset));
    }
    timing.total = model.total();
    return timing;
}

}  // namespace spillway
