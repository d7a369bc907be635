// Internal: the priority queues of Dijkstra in the residency bound's flows (min_cost_flow.cpp).
//
// MinHeap: a binary min-heap whose pop is bottom-up (Wegener): the hole left by the top moves
// down to a leaf along the smaller children, one comparison a level, and the last entry then
// rises from that leaf, which it seldom leaves. std::pop_heap compares twice a level on the way
// down (the children, then the smaller against the entry sinking), and the entry taken from the
// bottom belongs near the bottom. Dijkstra's heap in the residency bound's flows (min_cost_flow.cpp)
// pops millions of times on a huge graph.
//
// Entries that compare equal may pop in another order than std::priority_queue's; with distinct
// entries (a strict order) every heap pops the same sequence.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace spillway {

template <typename T, typename Less = std::less<T>>
class MinHeap {
public:
    bool empty() const { return items_.empty(); }
    std::size_t size() const { return items_.size(); }
    const T& top() const { return items_.front(); }
    // Empties the heap, keeping its storage.
    void clear() { items_.clear(); }

    void push(T item) {
        items_.push_back(std::move(item));
        riseFrom(items_.size() - 1);
    }

    // Removes the smallest entry and returns it.
    T pop() {
        T smallest = std::move(items_.front());
        T last = std::move(items_.back());
        items_.pop_back();
        const std::size_t n = items_.size();
        if (n == 0) return smallest;
        std::size_t hole = 0;
        for (std::size_t child = 1; child < n; child = 2 * hole + 1) {
            if (child + 1 < n && less_(items_[child + 1], items_[child])) ++child;
            items_[hole] = std::move(items_[child]);
            hole = child;
        }
        items_[hole] = std::move(last);
        riseFrom(hole);
        return smallest;
    }

private:
    void riseFrom(std::size_t at) {
        T item = std::move(items_[at]);
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!less_(item, items_[parent])) break;
            items_[at] = std::move(items_[parent]);
            at = parent;
        }
        items_[at] = std::move(item);
    }

    std::vector<T> items_;
    Less less_;
};

// Entries (distance, node) with small distances (below kDistances) and nodes (below kMaxNodes),
// smallest distance first, then smallest node, as a heap of such pairs pops them: a bitset of
// nodes per distance, and a bit per distance that holds any. A push sets a bit; a pop takes the
// lowest bit of the lowest distance held, a few word operations where the heap's pop moves entries
// along a path of compares that mispredict. A bit stands for one entry: each (distance, node)
// may be held once (Dijkstra pushes a node again only at a smaller distance).
class BucketQueue {
public:
    static constexpr int kDistances = 256;
    static constexpr int kMaxNodes = 1024;
    static bool fits(std::int64_t distance) { return 0 <= distance && distance < kDistances; }

    // Empties the queue for nodes below `nodes` (at most kMaxNodes).
    void reset(int nodes) {
        const int words = (nodes + 63) / 64;
        if (words != words_) {
            words_ = words;
            bits_.assign(static_cast<std::size_t>(kDistances) * static_cast<std::size_t>(words_), 0);
            count_.fill(0);
            held_.fill(0);
            size_ = 0;
            return;
        }
        clear();
    }
    // Empties the queue, clearing only the distances it holds.
    void clear() {
        for (int w = 0; w < kDistances / 64; ++w)
            for (std::uint64_t held = held_[w]; held != 0; held &= held - 1) {
                const int d = 64 * w + __builtin_ctzll(held);
                std::fill_n(bits_.begin() + static_cast<std::ptrdiff_t>(d) * words_, words_, 0);
                count_[d] = 0;
            }
        held_.fill(0);
        size_ = 0;
    }
    bool empty() const { return size_ == 0; }

    // No branch: the distance's bit is set whether or not it was (a test of its count was
    // taken as often as not, a fifth of Dijkstra's time in the bound's flows).
    void push(std::int64_t distance, int node) {
        const int d = static_cast<int>(distance);
        bits_[static_cast<std::size_t>(d) * words_ + node / 64] |= std::uint64_t(1) << (node % 64);
        ++count_[d];
        held_[d / 64] |= std::uint64_t(1) << (d % 64);
        ++size_;
    }

    // Removes the smallest entry and returns it.
    std::pair<std::int64_t, int> pop() {
        int w = 0;
        while (held_[w] == 0) ++w;
        const int d = 64 * w + __builtin_ctzll(held_[w]);
        std::uint64_t* row = bits_.data() + static_cast<std::size_t>(d) * words_;
        int i = 0;
        while (row[i] == 0) ++i;
        const int node = 64 * i + __builtin_ctzll(row[i]);
        row[i] &= row[i] - 1;
        if (--count_[d] == 0) held_[d / 64] &= ~(std::uint64_t(1) << (d % 64));
        --size_;
        return {d, node};
    }

private:
    int words_ = 0;                                      // per distance
    std::vector<std::uint64_t> bits_;                    // kDistances rows of words_
    std::array<int, kDistances> count_{};                // entries held per distance
    std::array<std::uint64_t, kDistances / 64> held_{};  // a bit per distance with entries
    int size_ = 0;
};

}  // namespace spillway
