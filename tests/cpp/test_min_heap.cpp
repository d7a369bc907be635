// The priority queues of the residency bound's flows (min_heap.h): they pop what
// std::priority_queue pops.
#include <cstdint>
#include <queue>
#include <random>
#include <set>

#include "../../core/src/bound/min_heap.h"
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

TEST_CASE("bucket queue: pops what std::priority_queue pops, each (distance, node) held once") {
    std::mt19937_64 rng(11);
    BucketQueue queue;
    using Entry = std::pair<std::int64_t, int>;
    for (int nodes : {1, 64, 65, 300, BucketQueue::kMaxNodes}) {
        queue.reset(nodes);
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> expected;
        std::set<Entry> held;
        int pops = 0;
        for (int round = 0; round < 20000; ++round) {
            const Entry e{static_cast<std::int64_t>(rng() % BucketQueue::kDistances), static_cast<int>(rng() % nodes)};
            if (expected.empty() || (rng() % 5 < 3 && !held.count(e))) {
                queue.push(e.first, e.second);
                expected.push(e);
                held.insert(e);
            } else {
                REQUIRE(!queue.empty());
                CHECK(queue.pop() == expected.top());
                held.erase(expected.top());
                expected.pop();
                ++pops;
            }
        }
        CHECK(pops > 5000);
        for (int i = 0; i < 10 && !expected.empty(); ++i) {  // the rest is left for clear() and reset()
            CHECK(queue.pop() == expected.top());
            expected.pop();
        }
        queue.clear();
        CHECK(queue.empty());
        queue.push(5, 0);
        queue.push(3, nodes - 1);
        CHECK(queue.pop() == Entry{3, nodes - 1});
        CHECK(queue.pop() == Entry{5, 0});
        CHECK(queue.empty());
        queue.push(BucketQueue::kDistances - 1, 0);  // left held for the next reset
    }
    CHECK(BucketQueue::fits(0));
    CHECK(BucketQueue::fits(BucketQueue::kDistances - 1));
    CHECK(!BucketQueue::fits(BucketQueue::kDistances));
    CHECK(!BucketQueue::fits(-1));
}
