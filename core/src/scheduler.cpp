#include <algorithm>
#include <set>

#include "spillway/error.h"
#include "spillway/schedule.h"

namespace spillway {
namespace {

// How many ready operations are weighed per step: enough to find the one that frees memory
// among the ready ones, bounded so that scheduling stays linear in the graph's size.
constexpr int kWindow = 256;

class MemoryScheduler {
public:
    MemoryScheduler(const Graph& g, const Capacities& caps, const Order& hint)
        : g_(g), n_(static_cast<int>(g.nodes.size())), position_(n_), remaining_(n_, 0),
          readyAllocPreds_(n_, 0), done_(n_, false), succ_(n_) {
        for (int i = 0; i < static_cast<int>(hint.size()); ++i) position_[g.nodeIndex.at(hint[i])] = i;
        buildDependencies();
        for (const Buffer& b : g.buffers) memIndex_.emplace(b.type, 0);
        int m = 0;
        for (auto& [type, idx] : memIndex_) {
            idx = m++;
            capacity_.push_back(caps.at(type));
        }
        live_.assign(capacity_.size(), 0);
        bufferMemory_.reserve(g.buffers.size());
        for (const Buffer& b : g.buffers) bufferMemory_.push_back(memIndex_.at(b.type));
    }

    Order run() {
        for (int v = 0; v < n_; ++v)
            if (remaining_[v] == 0) becameReady(v);
        flushFrees();
        while (static_cast<int>(order_.size()) < n_) {
            if (eligible_.empty()) throw InternalError("scheduler: no node can run (cycle?)");
            runOperation(pickOperation());
            flushFrees();
        }
        return order_;
    }

private:
    // Graph edges plus the implicit ones every plan needs: ALLOC -> user -> FREE, ALLOC -> FREE.
    void buildDependencies() {
        for (int v = 0; v < n_; ++v) succ_[v] = g_.successors[v];
        for (const Buffer& b : g_.buffers) {
            for (int u : b.users) {
                succ_[b.allocNode].push_back(u);
                succ_[u].push_back(b.freeNode);
            }
            succ_[b.allocNode].push_back(b.freeNode);
        }
        for (auto& s : succ_) {
            std::sort(s.begin(), s.end());
            s.erase(std::unique(s.begin(), s.end()), s.end());
            for (int d : s) ++remaining_[d];
        }
    }

    bool isOperation(int v) const { return !g_.nodes[v].isBufferNode(); }
    bool feedsOperation(int alloc) const {
        return std::any_of(succ_[alloc].begin(), succ_[alloc].end(), [&](int s) { return isOperation(s); });
    }

    // v's predecessors are all done. ALLOCs wait to be pulled by their first user (unless no
    // operation uses them); FREEs run at once; operations become eligible.
    void becameReady(int v) {
        const Node& node = g_.nodes[v];
        if (node.isAlloc() && feedsOperation(v)) {
            for (int s : succ_[v]) {
                ++readyAllocPreds_[s];
                checkEligible(s);
            }
        } else if (node.isBufferNode()) {
            pendingFrees_.push_back(v);  // a FREE, or an ALLOC nobody uses
        } else {
            checkEligible(v);
        }
    }

    void checkEligible(int v) {
        if (isOperation(v) && !done_[v] && remaining_[v] == readyAllocPreds_[v])
            eligible_.emplace(position_[v], v);
    }

    void emit(int v) {
        done_[v] = true;
        order_.push_back(g_.nodes[v].id);
        const Node& node = g_.nodes[v];
        if (node.isBufferNode()) {
            int b = g_.bufferIndex.at(node.buf);
            live_[bufferMemory_[b]] += node.isAlloc() ? node.size : -node.size;
        }
        const bool pulledAlloc = node.isAlloc() && feedsOperation(v);
        for (int s : succ_[v]) {
            if (pulledAlloc) --readyAllocPreds_[s];
            if (--remaining_[s] == 0) becameReady(s);
            else checkEligible(s);
        }
    }

    void flushFrees() {
        while (!pendingFrees_.empty()) {
            int v = pendingFrees_.back();
            pendingFrees_.pop_back();
            emit(v);
        }
    }

    struct Key {
        Bytes overflowGrowth;
        Bytes net;
        int position;
        bool operator<(const Key& o) const {
            if (overflowGrowth != o.overflowGrowth) return overflowGrowth < o.overflowGrowth;
            if (net != o.net) return net < o.net;
            return position < o.position;
        }
    };

    Key weigh(int v) {
        std::vector<Bytes>& alloc = scratchAlloc_;
        alloc.assign(capacity_.size(), 0);
        Bytes net = 0;
        for (BufferId id : g_.nodes[v].bufs) {
            const int b = g_.bufferIndex.at(id);
            const Buffer& buf = g_.buffers[b];
            const bool allocPending = !done_[buf.allocNode];
            if (allocPending && !counted(b)) {
                alloc[bufferMemory_[b]] += buf.size;
                net += buf.size;
            }
            // The FREE waits for this node, and for the ALLOC if it is pulled now.
            if (remaining_[buf.freeNode] == 1 + (allocPending ? 1 : 0) && !counted(b)) net -= buf.size;
        }
        seen_.clear();
        Bytes growth = 0;
        for (size_t m = 0; m < capacity_.size(); ++m) {
            if (alloc[m] == 0) continue;
            growth += std::max<Bytes>(0, live_[m] + alloc[m] - capacity_[m]) - std::max<Bytes>(0, live_[m] - capacity_[m]);
        }
        return {growth, net, position_[v]};
    }

    // A buffer listed twice in Bufs is counted once (weigh() clears the set after each node).
    bool counted(int b) {
        if (std::find(seen_.begin(), seen_.end(), b) != seen_.end()) return true;
        seen_.push_back(b);
        return false;
    }

    int pickOperation() {
        int best = -1;
        Key bestKey{};
        int weighed = 0;
        for (auto it = eligible_.begin(); it != eligible_.end() && weighed < kWindow; ++it, ++weighed) {
            Key k = weigh(it->second);
            if (best < 0 || k < bestKey) {
                best = it->second;
                bestKey = k;
            }
        }
        return best;
    }

    void runOperation(int v) {
        std::vector<int> allocs;
        for (BufferId id : g_.nodes[v].bufs) {
            int a = g_.buffers[g_.bufferIndex.at(id)].allocNode;
            if (!done_[a] && std::find(allocs.begin(), allocs.end(), a) == allocs.end()) allocs.push_back(a);
        }
        for (int a : allocs) emit(a);
        emit(v);
        eligible_.erase({position_[v], v});
    }

    const Graph& g_;
    int n_;
    std::vector<int> position_;
    std::vector<int> remaining_;        // predecessors not yet emitted
    std::vector<int> readyAllocPreds_;  // of those, ALLOCs ready to be pulled
    std::vector<char> done_;
    std::vector<std::vector<int>> succ_;
    std::map<std::string, int> memIndex_;
    std::vector<Bytes> capacity_, live_;
    std::vector<int> bufferMemory_;
    std::set<std::pair<int, int>> eligible_;  // (position in hint, node index)
    std::vector<int> pendingFrees_;
    std::vector<Bytes> scratchAlloc_;
    std::vector<int> seen_;
    Order order_;
};

}  // namespace

Order scheduleForMemory(const Graph& g, const Capacities& caps, const Order& hint) {
    return MemoryScheduler(g, caps, hint).run();
}

}  // namespace spillway
