// The bottom-up heap of the residency bound's flows (min_heap.h): it pops what
// std::priority_queue pops.
#include <cstdint>
#include <queue>
#include <random>

#include "../../core/src/min_heap.h"
#include "support.h"

using namespace spillway;

TEST_CASE("min heap: pops what std::priority_queue pops, pushes and pops interleaved") {
    std::mt19937_64 rng(5);
    MinHeap<std::uint64_t> heap;
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>> queue;
    int pops = 0;
    for (int round = 0; round < 20000; ++round) {
        if (queue.empty() || rng() % 5 < 3) {
            const std::uint64_t v = rng() % 1000;  // repeats too: equal entries pop as equal values
            heap.push(v);
            queue.push(v);
        } else {
            REQUIRE(heap.top() == queue.top());
            CHECK(heap.pop() == queue.top());
            queue.pop();
            ++pops;
        }
        REQUIRE(heap.size() == queue.size());
    }
    while (!queue.empty()) {
        CHECK(heap.pop() == queue.top());
        queue.pop();
    }
    CHECK(heap.empty());
    CHECK(pops > 5000);
    heap.push(7);
    heap.clear();
    CHECK(heap.empty());
}

TEST_CASE("min heap: pairs under another order, largest first") {
    MinHeap<std::pair<std::int64_t, int>, std::greater<std::pair<std::int64_t, int>>> heap;
    for (int v : {3, 9, 1, 9, 4}) heap.push({v, -v});
    CHECK(heap.pop() == std::pair<std::int64_t, int>{9, -9});
    CHECK(heap.pop() == std::pair<std::int64_t, int>{9, -9});
    CHECK(heap.pop() == std::pair<std::int64_t, int>{4, -4});
    CHECK(heap.pop() == std::pair<std::int64_t, int>{3, -3});
    CHECK(heap.pop() == std::pair<std::int64_t, int>{1, -1});
    CHECK(heap.empty());
}
