#include "spillway/timing.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "spillway/error.h"

namespace spillway {
namespace {

// For each byte range of one memory, the latest time an occupant left it. The bytes keep the
// largest time: in a graph without edges an occupant can leave (its FREE, its users) before the
// time it was placed, and the next one must still wait for every earlier occupant.
class LeaveTimes {
public:
    Cycles latest(Bytes start, Bytes end) const {
        Cycles t = 0;
        auto it = segments_.upper_bound(start);
        if (it != segments_.begin()) --it;
        for (; it != segments_.end() && it->first < end; ++it)
            if (it->second.end > start) t = std::max(t, it->second.time);
        return t;
    }
    void paint(Bytes start, Bytes end, Cycles time) {
        split(start);
        split(end);
        std::vector<std::pair<Bytes, Segment>> uncovered;
        Bytes at = start;
        for (auto it = segments_.lower_bound(start); it != segments_.end() && it->first < end; ++it) {
            if (it->first > at) uncovered.push_back({at, Segment{it->first, time}});
            it->second.time = std::max(it->second.time, time);
            at = it->second.end;
        }
        if (at < end) uncovered.push_back({at, Segment{end, time}});
        for (const auto& [from, segment] : uncovered) segments_.emplace(from, segment);
    }

private:
    struct Segment {
        Bytes end;
        Cycles time;
    };
    void split(Bytes at) {
        auto it = segments_.upper_bound(at);
        if (it == segments_.begin()) return;
        --it;
        if (it->first < at && it->second.end > at) {
            Segment right{it->second.end, it->second.time};
            it->second.end = at;
            segments_.emplace(at, right);
        }
    }
    std::map<Bytes, Segment> segments_;
};

struct Placement {
    std::string type;
    Bytes offset = 0;
    Bytes size = 0;
    Cycles lastUseEnd = 0;  // latest end of a node that used the buffer at this place
};

}  // namespace

Timing simulateTiming(const Graph& g, const Plan& plan) {
    std::unordered_map<NodeId, const Node*> nodes;
    for (const Node& n : g.nodes) nodes.emplace(n.id, &n);
    for (const Node& n : plan.addedNodes) nodes.emplace(n.id, &n);
    std::unordered_map<NodeId, std::vector<NodeId>> preds;
    for (auto [s, d] : g.edges) preds[g.nodes[d].id].push_back(g.nodes[s].id);
    for (auto [s, d] : plan.addedEdges) preds[d].push_back(s);

    std::unordered_map<BufferId, Bytes> initialOffset;
    for (const Allocation& a : plan.allocations) initialOffset[a.buf] = a.offset;
    std::unordered_map<NodeId, Bytes> reloadOffset;
    for (const Spill& s : plan.spills) reloadOffset[s.inNode] = s.newOffset;

    std::unordered_map<NodeId, Cycles> endOf;
    std::map<std::string, Cycles> pipeFree;
    std::map<std::string, LeaveTimes> leaves;
    std::unordered_map<BufferId, Placement> placed;

    Timing timing;
    timing.nodes.reserve(plan.order.size());
    for (NodeId id : plan.order) {
        auto found = nodes.find(id);
        if (found == nodes.end()) throw InternalError("timing: unknown node " + std::to_string(id));
        const Node& n = *found->second;
        Cycles start = 0;
        for (NodeId p : preds[id]) {
            auto e = endOf.find(p);
            if (e == endOf.end())
                throw InternalError("timing: node " + std::to_string(id) + " runs before its predecessor " +
                                    std::to_string(p));
            start = std::max(start, e->second);
        }
        if (!n.pipe.empty()) start = std::max(start, pipeFree[n.pipe]);

        const bool placing = n.isAlloc() || n.isSpillIn();
        const BufferId placedBuf = n.isBufferNode() ? n.buf : (n.bufs.empty() ? -1 : n.bufs.front());
        if (placing) {
            const Buffer& b = g.buffer(placedBuf);
            const Bytes offset = n.isAlloc() ? initialOffset.at(b.id) : reloadOffset.at(id);
            placed[b.id] = {b.type, offset, b.size, 0};
            start = std::max(start, leaves[b.type].latest(offset, offset + b.size));
        }
        const Cycles end = start + n.cycles;
        if (!n.pipe.empty()) pipeFree[n.pipe] = end;
        endOf[id] = end;
        timing.nodes.push_back({id, start, end});
        timing.total = std::max(timing.total, end);

        if (!n.isBufferNode())
            for (BufferId b : n.bufs) {
                auto p = placed.find(b);
                if (p != placed.end()) p->second.lastUseEnd = std::max(p->second.lastUseEnd, end);
            }
        if (n.isFree() || n.isSpillOut()) {
            const Placement& p = placed.at(placedBuf);
            leaves[p.type].paint(p.offset, p.offset + p.size, std::max(end, p.lastUseEnd));
        }
    }
    return timing;
}

}  // namespace spillway
