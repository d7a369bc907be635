// Internal to the schedulers: which nodes may run next while an order is being built.
// Dependencies are the graph's edges plus the implicit ones every plan needs (ALLOC -> user ->
// FREE, ALLOC -> FREE). ALLOCs wait to be pulled by their buffer's first user, so a buffer is
// resident no earlier than needed; FREEs (and ALLOCs nobody uses) run as soon as they are ready,
// so it is resident no longer than needed; an operation is eligible once every predecessor has
// run or is an ALLOC ready to be pulled. Schedulers differ only in which eligible operation
// they run next.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>

#include "spillway/error.h"
#include "spillway/schedule.h"

namespace spillway {

// A set of positions in [0, n): a bit per position, a bit per word of them above, and so on up to
// one word (four levels at a million), so that the first position from p on is found in a few
// word reads, and inserting or erasing allocates nothing. (The eligible operations were a
// std::set: a 40-byte node each and several cache misses a step on a million-node graph.)
class PositionSet {
public:
    explicit PositionSet(int n) {
        size_t words = static_cast<size_t>(std::max(n, 1));
        do {
            words = (words + 63) / 64;
            levels_.emplace_back(words, 0);
        } while (words > 1);
    }
    bool empty() const { return levels_.back()[0] == 0; }
    void insert(int p) {
        for (auto& level : levels_) {
            std::uint64_t& word = level[static_cast<size_t>(p) >> 6];
            const bool wasEmpty = word == 0;
            word |= std::uint64_t{1} << (p & 63);
            if (!wasEmpty) return;
            p >>= 6;
        }
    }
    void erase(int p) {
        for (auto& level : levels_) {
            std::uint64_t& word = level[static_cast<size_t>(p) >> 6];
            word &= ~(std::uint64_t{1} << (p & 63));
            if (word != 0) return;
            p >>= 6;
        }
    }
    // The first position from p on in the set, or -1.
    int next(int p) const { return nextAt(0, static_cast<size_t>(p)); }

private:
    int nextAt(size_t level, size_t p) const {
        const std::vector<std::uint64_t>& words = levels_[level];
        const size_t w = p >> 6;
        if (w >= words.size()) return -1;
        const std::uint64_t here = words[w] & (~std::uint64_t{0} << (p & 63));
        if (here != 0) return static_cast<int>(w << 6 | static_cast<size_t>(__builtin_ctzll(here)));
        if (level + 1 == levels_.size()) return -1;  // the top level is one word
        const int up = nextAt(level + 1, w + 1);     // the next word holding a position
        if (up < 0) return -1;
        const size_t u = static_cast<size_t>(up);
        return static_cast<int>(u << 6 | static_cast<size_t>(__builtin_ctzll(words[u])));
    }

    std::vector<std::vector<std::uint64_t>> levels_;  // levels_[0]: a bit per position
};

// What the schedulers follow, by node index, for one graph and hint: each node's kind, id and
// position in the hint, its successors (ascending position) and predecessors (ascending index)
// with the implicit arcs, which ALLOCs are pulled, the ALLOCs each operation pulls and the buffer
// each FREE releases. It depends on the graph and the hint alone, so the default on huge graphs
// builds it once for both schedulers (engine.cpp), which built the same lists each (a fifth of the
// schedule order's time on a tiled matmul). Running a node reads only these flat arrays, not the
// graph's Node and Buffer records (a cache miss or three each on a million-node graph).
class ScheduleDependencies {
public:
    ScheduleDependencies(const Graph& g, const Order& hint)
        : n_(static_cast<int>(g.nodes.size())), position_(n_), atPosition_(n_, -1), kind_(n_), id_(n_), freed_(n_, -1) {
        for (int v = 0; v < n_; ++v) {
            const Node& node = g.nodes[v];
            kind_[v] = node.isAlloc() ? Kind::Alloc : node.isFree() ? Kind::Free : Kind::Operation;
            id_[v] = node.id;
            if (node.isFree()) freed_[v] = g.bufferIndex.at(node.buf);
        }
        for (int i = 0; i < static_cast<int>(hint.size()); ++i) {
            const int v = g.nodeIndex.at(hint[i]);
            position_[v] = i;
            atPosition_[i] = v;
        }
        succ_ = Adjacency::fromArcs(g.nodes.size(), [&](auto&& add) {
            for (int v = 0; v < n_; ++v)
                for (int s : g.successors[v]) add(v, s);
            for (const Buffer& b : g.buffers) {
                for (int u : b.users) {
                    add(b.allocNode, u);
                    add(u, b.freeNode);
                }
                add(b.allocNode, b.freeNode);
            }
        });
        succ_.sortEachUnique([&](int a, int b) { return position_[a] < position_[b]; });
        pred_ = succ_.reversed();
        // Whether an ALLOC is pulled depends on the graph alone; computed once, as closures ask
        // it for every ALLOC they meet (a buffer's users can be many).
        pulled_.assign(n_, 0);
        for (const Buffer& b : g.buffers) {
            const auto& s = succ_[b.allocNode];
            pulled_[b.allocNode] =
                std::any_of(s.begin(), s.end(), [&](int x) { return isOperation(x); }) &&
                std::all_of(s.begin(), s.end(), [&](int x) { return isOperation(x) || x == b.freeNode; });
        }
        buildPulls(g);
    }

    int nodes() const { return n_; }
    int position(int v) const { return position_[v]; }
    int atPosition(int i) const { return atPosition_[i]; }
    IndexRange successors(int v) const { return succ_[v]; }    // ascending position
    IndexRange predecessors(int v) const { return pred_[v]; }  // ascending node index
    bool isOperation(int v) const { return kind_[v] == Kind::Operation; }
    bool isAlloc(int v) const { return kind_[v] == Kind::Alloc; }
    bool isFree(int v) const { return kind_[v] == Kind::Free; }
    // An ALLOC waits to be pulled by an operation when some operation and nothing but operations
    // wait for it (its own FREE aside): a buffer node after it could not pull it, so then it runs
    // when ready.
    bool pulled(int alloc) const { return pulled_[alloc] != 0; }
    NodeId id(int v) const { return id_[v]; }
    // The ALLOCs operation v pulls when it runs, in the order they run: its buffers' (in the order
    // of its Bufs), then any other ALLOC an edge puts before it (ascending index).
    IndexRange pulls(int v) const { return pulls_[v]; }
    // The buffer index a FREE releases (-1 for other nodes).
    int freed(int v) const { return freed_[v]; }

private:
    // Read from the graph once, into one flat list, as fromArcs reads the arcs twice.
    void buildPulls(const Graph& g) {
        // listedFor[a]: the operation ALLOC a was last listed for (a node with many ALLOCs before
        // it, from edges, lists each once without searching its list).
        std::vector<int> count(n_, 0), allocs, listedFor(n_, -1);
        for (int v = 0; v < n_; ++v) {
            if (!isOperation(v)) continue;
            const size_t first = allocs.size();
            auto pull = [&](int a) {
                if (listedFor[a] == v) return;
                listedFor[a] = v;
                allocs.push_back(a);
            };
            for (BufferId id : g.nodes[v].bufs) pull(g.buffers[g.bufferIndex.at(id)].allocNode);
            for (int p : pred_[v])
                if (isAlloc(p)) pull(p);
            count[v] = static_cast<int>(allocs.size() - first);
        }
        pulls_ = Adjacency::fromArcs(g.nodes.size(), [&](auto&& add) {
            size_t i = 0;
            for (int v = 0; v < n_; ++v)
                for (int k = 0; k < count[v]; ++k) add(v, allocs[i++]);
        });
    }

    int n_;
    std::vector<int> position_;
    std::vector<int> atPosition_;  // node index by position in the hint
    enum class Kind : char { Operation, Alloc, Free };
    std::vector<Kind> kind_;    // by node, so that the hot loops need not read the Node
    std::vector<char> pulled_;  // by node: an ALLOC pulled by its first user
    std::vector<NodeId> id_;
    std::vector<int> freed_;  // by node: the buffer index a FREE releases
    Adjacency succ_, pred_, pulls_;
};

class ReadySet {
public:
    // `deps` must outlive the set.
    explicit ReadySet(const ScheduleDependencies& deps)
        : deps_(deps), n_(deps.nodes()), remaining_(n_, 0), readyAllocPreds_(n_, 0), done_(n_, false), eligible_(n_) {
        for (int v = 0; v < n_; ++v) remaining_[v] = static_cast<int>(deps.predecessors(v).size());
        order_.reserve(static_cast<size_t>(n_));
    }

    int position(int v) const { return deps_.position(v); }
    bool done(int v) const { return done_[v]; }
    int remaining(int v) const { return remaining_[v]; }
    bool finished() const { return static_cast<int>(order_.size()) == n_; }
    Order takeOrder() { return std::move(order_); }                         // once finished
    IndexRange successors(int v) const { return deps_.successors(v); }      // ascending position
    IndexRange predecessors(int v) const { return deps_.predecessors(v); }  // ascending node index
    // Eligible operations as (position in the hint, node index), earliest first.
    class Eligible {
    public:
        class Iterator {
        public:
            Iterator(const ReadySet& r, int pos) : r_(&r), pos_(pos) {}
            std::pair<int, int> operator*() const { return {pos_, r_->deps_.atPosition(pos_)}; }
            struct Arrow {
                std::pair<int, int> p;
                const std::pair<int, int>* operator->() const { return &p; }
            };
            Arrow operator->() const { return {**this}; }
            Iterator& operator++() {
                pos_ = r_->eligible_.next(pos_ + 1);
                return *this;
            }
            bool operator!=(const Iterator& o) const { return pos_ != o.pos_; }

        private:
            const ReadySet* r_;
            int pos_;  // -1 past the last
        };
        explicit Eligible(const ReadySet& r) : r_(r) {}
        Iterator begin() const { return {r_, r_.eligible_.next(0)}; }
        Iterator end() const { return {r_, -1}; }
        bool empty() const { return r_.eligible_.empty(); }

    private:
        const ReadySet& r_;
    };
    Eligible eligible() const { return Eligible(*this); }

    bool isOperation(int v) const { return deps_.isOperation(v); }
    bool isAlloc(int v) const { return deps_.isAlloc(v); }
    bool isFree(int v) const { return deps_.isFree(v); }
    bool isEligible(int v) const { return isOperation(v) && !done_[v] && remaining_[v] == readyAllocPreds_[v]; }
    bool pulled(int alloc) const { return deps_.pulled(alloc); }

    // Runs what is ready before any operation. onFree(buffer index) is told of every FREE run.
    template <typename OnFree>
    void start(OnFree&& onFree) {
        for (int v = 0; v < n_; ++v)
            if (remaining_[v] == 0) becameReady(v);
        runPending(onFree);
    }

    // Runs eligible operation v: its pending ALLOCs (its buffers' first, then any other ALLOC an
    // edge puts before it), v, then every FREE this made ready.
    template <typename OnFree>
    void run(int v, OnFree&& onFree) {
        if (!isEligible(v)) throw InternalError("scheduler: node " + std::to_string(deps_.id(v)) + " is not ready");
        for (int a : deps_.pulls(v))
            if (!done_[a]) emit(a);
        eligible_.erase(deps_.position(v));
        emit(v);
        runPending(onFree);
    }

private:
    void becameReady(int v) {
        if (isAlloc(v) && pulled(v)) {
            for (int s : deps_.successors(v)) {
                ++readyAllocPreds_[s];
                checkEligible(s);
            }
        } else if (!isOperation(v)) {
            pending_.push_back(v);
        } else {
            checkEligible(v);
        }
    }

    void checkEligible(int v) {
        if (isEligible(v)) eligible_.insert(deps_.position(v));
    }

    void emit(int v) {
        done_[v] = true;
        order_.push_back(deps_.id(v));
        const bool pulledAlloc = isAlloc(v) && pulled(v);
        for (int s : deps_.successors(v)) {
            if (pulledAlloc) --readyAllocPreds_[s];
            if (--remaining_[s] == 0)
                becameReady(s);
            else
                checkEligible(s);
        }
    }

    template <typename OnFree>
    void runPending(OnFree&& onFree) {
        while (!pending_.empty()) {
            const int v = pending_.back();
            pending_.pop_back();
            emit(v);
            if (isFree(v)) onFree(deps_.freed(v));
        }
    }

    const ScheduleDependencies& deps_;
    int n_;
    std::vector<int> remaining_;        // predecessors not yet run
    std::vector<int> readyAllocPreds_;  // of those, ALLOCs ready to be pulled
    std::vector<char> done_;
    PositionSet eligible_;      // positions of the eligible operations
    std::vector<int> pending_;  // FREEs and unused ALLOCs ready to run
    Order order_;
};

// The schedulers on dependencies already built (schedule.h has them from a graph and hint).
// checkRemembered (for tests): the reuse scheduler checks each closure it remembered from an
// earlier step against the one found afresh, and each cost against a step-by-step simulation,
// and throws InternalError on a difference (slow).
Order scheduleForMemory(const ScheduleDependencies& deps);
Order scheduleForReuse(const Graph& g, const ScheduleDependencies& deps, const Capacities& caps,
                       bool checkRemembered = false);

}  // namespace spillway
