// Internal: a binary min-heap whose pop is bottom-up (Wegener): the hole left by the top moves
// down to a leaf along the smaller children, one comparison a level, and the last entry then
// rises from that leaf, which it seldom leaves. std::pop_heap compares twice a level on the way
// down (the children, then the smaller against the entry sinking), and the entry taken from the
// bottom belongs near the bottom. Dijkstra's heap in the residency bound's flows (min_cost_flow.cpp)
// pops millions of times on a huge graph.
//
// Entries that compare equal may pop in another order than std::priority_queue's; with distinct
// entries (a strict order) every heap pops the same sequence.
#pragma once
#include <cstddef>
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

}  // namespace spillway
