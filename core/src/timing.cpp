#include "spillway/timing.h"

#include <algorithm>
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

PipeModel::PipeModel(const Graph& g, const Plan& plan) : g_(g) {
    nodes_.reserve(g.nodes.size() + plan.addedNodes.size());
    for (const Node& n : g.nodes) nodes_.emplace(n.id, &n);
    for (const Node& n : plan.addedNodes) nodes_.emplace(n.id, &n);
    for (auto [s, d] : g.edges) preds_[g.nodes[d].id].push_back(g.nodes[s].id);
    for (auto [s, d] : plan.addedEdges) preds_[d].push_back(s);
}

const Node& PipeModel::node(NodeId id) const {
    auto found = nodes_.find(id);
    if (found == nodes_.end()) throw InternalError("timing: unknown node " + std::to_string(id));
    return *found->second;
}

BufferId PipeModel::movedBuffer(const Node& n) const {
    if (n.isBufferNode()) return n.buf;
    if ((n.isSpillIn() || n.isSpillOut()) && !n.bufs.empty()) return n.bufs.front();
    return -1;
}

PipeModel::Left PipeModel::leftAt(const std::string& type, Bytes offset, Bytes size) const {
    auto it = leaves_.find(type);
    return it == leaves_.end() ? Left{} : it->second.latest(offset, offset + size);
}

Cycles PipeModel::endOf(NodeId id) const {
    auto it = ran_.find(id);
    if (it == ran_.end()) throw InternalError("timing: node " + std::to_string(id) + " has not run");
    return it->second.end;
}

NodeTiming PipeModel::peek(NodeId id, Bytes offset) const { return timingOf(node(id), offset); }

PipeModel::Ready PipeModel::readyOf(NodeId id, Bytes offset) const {
    const Rules r = rulesOf(node(id), offset);
    return {r.edge, r.pipe, r.left.time};
}

const ByteLeaves* PipeModel::leavesOf(const std::string& type) const {
    auto it = leaves_.find(type);
    return it == leaves_.end() ? nullptr : &it->second;
}

// The three rules' times, each with the node (and buffer) that sets it.
PipeModel::Rules PipeModel::rulesOf(const Node& n, Bytes offset) const {
    Rules r;
    int edgeStep = 0;
    if (auto p = preds_.find(n.id); p != preds_.end())
        for (NodeId pred : p->second) {
            auto found = ran_.find(pred);
            if (found == ran_.end())
                throw InternalError("timing: node " + std::to_string(n.id) + " runs before its predecessor " +
                                    std::to_string(pred));
            const Ran& ran = found->second;
            if (r.edgeNode < 0 || ran.end > r.edge || (ran.end == r.edge && ran.step < edgeStep)) {
                r.edge = ran.end;
                r.edgeNode = pred;
                edgeStep = ran.step;
            }
        }
    if (!n.pipe.empty())
        if (auto f = pipeFree_.find(n.pipe); f != pipeFree_.end()) std::tie(r.pipe, r.pipeNode) = f->second;
    if (n.isAlloc() || n.isSpillIn()) {
        const Buffer& b = g_.buffer(movedBuffer(n));
        r.left = leftAt(b.type, offset, b.size);
    }
    return r;
}

NodeTiming PipeModel::timingOf(const Node& n, Bytes offset) const {
    const Rules r = rulesOf(n, offset);
    const Cycles address = r.left.time;
    NodeTiming t;
    t.id = n.id;
    t.start = std::max({Cycles{0}, r.edge, r.pipe, address});
    t.end = t.start + n.cycles;
    Wait& w = t.wait;
    if (t.start == 0) return t;
    if (r.edgeNode >= 0 && r.edge == t.start) {
        w = {WaitCause::Edge, r.edgeNode, -1, t.start - std::max(r.pipe, address)};
    } else if (r.pipeNode >= 0 && r.pipe == t.start) {
        w = {WaitCause::Pipe, r.pipeNode, -1, t.start - std::max(r.edge, address)};
    } else {
        w = {WaitCause::Address, r.left.node, r.left.buffer, t.start - std::max(r.edge, r.pipe)};
    }
    return t;
}

NodeTiming PipeModel::run(NodeId id, Bytes offset) {
    const Node& n = node(id);
    NodeTiming t = timingOf(n, offset);
    t.pipe = n.pipe;
    const int step = step_++;
    const BufferId moved = movedBuffer(n);
    if (n.isAlloc() || n.isSpillIn()) {
        const Buffer& b = g_.buffer(moved);
        placed_[b.id] = {b.type, offset, b.size, 0, -1};
    }
    ran_[id] = {t.end, step};
    if (!n.pipe.empty()) pipeFree_[n.pipe] = {t.end, id};
    total_ = std::max(total_, t.end);
    if (!n.isBufferNode())
        for (BufferId b : n.bufs) {
            auto p = placed_.find(b);
            if (p != placed_.end() && t.end > p->second.lastUseEnd) {
                p->second.lastUseEnd = t.end;
                p->second.lastUser = id;
            }
        }
    if (n.isFree() || n.isSpillOut()) {
        auto p = placed_.find(moved);
        if (p == placed_.end()) throw InternalError("timing: node " + std::to_string(id) + " releases an unplaced buffer");
        const Placement& at = p->second;
        const bool last = t.end >= at.lastUseEnd;
        leaves_[at.type].leave(at.offset, at.offset + at.size,
                               {last ? t.end : at.lastUseEnd, step, moved, last ? id : at.lastUser});
    }
    return t;
}

Timing simulateTiming(const Graph& g, const Plan& plan) {
    std::unordered_map<BufferId, Bytes> initialOffset;
    for (const Allocation& a : plan.allocations) initialOffset[a.buf] = a.offset;
    std::unordered_map<NodeId, Bytes> reloadOffset;
    for (const Spill& s : plan.spills) reloadOffset[s.inNode] = s.newOffset;

    PipeModel model(g, plan);
    Timing timing;
    timing.nodes.reserve(plan.order.size());
    for (NodeId id : plan.order) {
        const Node& n = model.node(id);
        Bytes offset = 0;
        if (n.isAlloc()) offset = initialOffset.at(n.buf);
        if (n.isSpillIn()) offset = reloadOffset.at(id);
        timing.nodes.push_back(model.run(id, offset));
    }
    timing.total = model.total();
    return timing;
}

}  // namespace spillway
