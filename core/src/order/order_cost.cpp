#include "order_cost.h"

#include <algorithm>
#include <map>
#include <queue>

#include "spillway/cost.h"

namespace spillway {

OrderCost::OrderCost(const Graph& g, const Capacities& caps)
    : g_(g), caps_(caps), memoryOfBuffer_(g.buffers.size(), -1), buffersOf_(g.nodes.size()) {
    std::map<std::string, int> index;
    for (const auto& [type, cap] : caps) {
        index.emplace(type, static_cast<int>(memories_.size()));
        memories_.push_back({type, cap, true, true, 0, 0, {}});
    }
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        const Buffer& buf = g.buffers[b];
        auto it = index.find(buf.type);
        if (it == index.end()) continue;
        Memory& m = memories_[it->second];
        memoryOfBuffer_[b] = it->second;
        const Bytes traffic = spillTrafficBytes(buf);
        if (m.buffers.empty()) {
            m.size = buf.size;
            m.traffic = traffic;
        } else {
            m.oneSize &= buf.size == m.size;
            m.uniform &= buf.size == m.size && traffic == m.traffic;
        }
        m.buffers.push_back(static_cast<int>(b));
    }
    for (size_t v = 0; v < g.nodes.size(); ++v)
        for (BufferId id : g.buffersOf(g.nodes[v])) {
            const int b = g.bufferIndex.at(id);
            auto& list = buffersOf_[v];
            if (std::find(list.begin(), list.end(), b) == list.end()) list.push_back(b);
        }
    resize_.resize(g.nodes.size());
    for (size_t v = 0; v < g.nodes.size(); ++v) {
        const Node& n = g.nodes[v];
        if (!n.isBufferNode()) continue;
        const int b = buffersOf_[v].front(), m = memoryOfBuffer_[b];
        resize_[v] = {n.isAlloc() ? g.buffers[b].size : -g.buffers[b].size,
                      m < 0 ? static_cast<int>(memories_.size()) : m};
    }
    stepOf_.assign(g.nodes.size(), 0);
    uses_.resize(g.buffers.size());
    nextUse_.assign(g.buffers.size(), 0);
    resident_.assign(g.buffers.size(), 0);
    stepsOf_.resize(memories_.size());
}

Bytes OrderCost::traffic(const std::vector<int>& order) {
    order_ = &order;
    work_ += static_cast<std::int64_t>(order.size() + g_.buffers.size());
    for (auto& u : uses_) u.clear();
    for (auto& steps : stepsOf_) steps.clear();
    for (int t = 0; t < static_cast<int>(order.size()); ++t) {
        stepOf_[order[t]] = t;
        int last = -1;
        for (int b : buffersOf_[order[t]]) {
            uses_[b].push_back(t);
            const int m = memoryOfBuffer_[b];
            if (m >= 0 && m != last) {
                if (stepsOf_[m].empty() || stepsOf_[m].back() != t) stepsOf_[m].push_back(t);
                last = m;
            }
        }
    }
    Bytes total = 0;
    for (size_t i = 0; i < memories_.size(); ++i) {
        const Memory& m = memories_[i];
        if (m.buffers.empty() || !contended(m)) continue;
        if (m.uniform) {
            total += belady(m, static_cast<int>(i));
        } else {
            // One size: the relaxation is integral, so exact. Sizes that differ: the greedy.
            ResidencyProblem& p = problem_;
            p.type = m.type;
            p.capacity = m.capacity;
            residencyProblemFromUses(g_, m.buffers, uses_, order.size(), p);
            // Within the bound's flow budget (on huge graphs: the greedy's choice instead).
            const ResidencyChoice choice = chooseResidency(p, {}, {m.oneSize, 0, 1, boundFlowWork(p.forced.size())});
            total += choice.traffic;
            work_ += choice.work + static_cast<std::int64_t>(p.gaps.size());
        }
    }
    return total;
}

// Whether the buffers alive (first to last use) ever exceed the capacity: if not, nothing moves.
bool OrderCost::contended(const Memory& m) {
    live_.assign(order_->size() + 1, 0);
    for (int b : m.buffers) {
        live_[uses_[b].front()] += g_.buffers[b].size;
        live_[uses_[b].back() + 1] -= g_.buffers[b].size;
    }
    Bytes now = 0;
    for (Bytes delta : live_)
        if ((now += delta) > m.capacity) return true;
    return false;
}

// Belady's rule with the node's own buffers pinned: when the memory holds more buffers than fit,
// the resident buffer whose next use is furthest is written out (and costs its traffic when it
// comes back). With one size and one cost it keeps the most gaps, which is optimal.
Bytes OrderCost::belady(const Memory& m, int memory) {
    const std::vector<int>& order = *order_;
    const std::int64_t slots = m.capacity / m.size;
    for (int b : m.buffers) {
        nextUse_[b] = 0;
        resident_[b] = 0;
    }
    std::priority_queue<std::pair<int, int>> furthest;  // (next use, buffer)
    std::int64_t count = 0;
    Bytes traffic = 0;
    work_ += static_cast<std::int64_t>(stepsOf_[memory].size());
    for (int t : stepsOf_[memory]) {
        const auto& here = buffersOf_[order[t]];
        for (int b : here) {
            if (memoryOfBuffer_[b] != memory || resident_[b]) continue;
            if (nextUse_[b] > 0) traffic += m.traffic;  // it was written out: it comes back
            resident_[b] = 1;
            ++count;
        }
        while (count > slots && !furthest.empty()) {
            const auto [use, b] = furthest.top();
            furthest.pop();
            ++work_;
            if (!resident_[b] || uses_[b][nextUse_[b]] != use || use == t) continue;
            resident_[b] = 0;
            --count;
        }
        for (int b : here) {
            if (memoryOfBuffer_[b] != memory) continue;
            if (++nextUse_[b] < static_cast<int>(uses_[b].size())) {
                furthest.emplace(uses_[b][nextUse_[b]], b);
            } else {
                resident_[b] = 0;
                --count;
            }
        }
    }
    return traffic;
}

OrderCost::Peaks OrderCost::peaks(const std::vector<int>& order) const {
    std::vector<Bytes> now(memories_.size() + 1, 0), peak(memories_.size() + 1, 0);
    Bytes total = 0;
    Peaks p;
    for (int v : order) {
        const Resize& r = resize_[v];
        if (r.delta == 0) continue;
        total += r.delta;
        p.total = std::max(p.total, total);
        now[r.memory] += r.delta;
        peak[r.memory] = std::max(peak[r.memory], now[r.memory]);
    }
    peak.pop_back();  // of the buffers in no memory with a capacity
    for (Bytes x : peak) p.sumOfMemories += x;
    return p;
}

}  // namespace spillway
