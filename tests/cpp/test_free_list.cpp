#include <doctest/doctest.h>

#include "spillway/error.h"
#include "spillway/free_list.h"

using spillway::FreeList;
using spillway::Hole;

TEST_CASE("free list: a new memory is one hole") {
    FreeList f(4096);
    CHECK(f.largestHole() == 4096);
    REQUIRE(f.holes().size() == 1);
    CHECK(f.holes()[0] == Hole{0, 4096});
}

TEST_CASE("free list: best fit takes the smallest hole that holds the request, from its start") {
    FreeList f(100);
    CHECK(*f.bestFit(10) == 0);   // [0,10)
    CHECK(*f.bestFit(30) == 10);  // [10,40)
    CHECK(*f.bestFit(5) == 40);   // [40,45)
    CHECK(*f.bestFit(20) == 45);  // [45,65)
    f.release(0, 10);             // hole of 10 at 0
    f.release(40, 5);             // hole of 5 at 40
    // holes: [0,10) [40,45) [65,100): a 5-byte request goes to the 5-byte hole, not the first.
    CHECK(*f.bestFit(5) == 40);
    // 8 bytes: [0,10) is the smallest that holds it.
    CHECK(*f.bestFit(8) == 0);
    CHECK(f.holes().size() == 2);
    CHECK(f.holes()[0] == Hole{8, 10});
    CHECK(f.holes()[1] == Hole{65, 100});
}

TEST_CASE("free list: among equal holes the lowest wins") {
    FreeList f(30);
    CHECK(*f.bestFit(10) == 0);
    CHECK(*f.bestFit(10) == 10);
    CHECK(*f.bestFit(10) == 20);
    f.release(20, 10);
    f.release(0, 10);
    CHECK(*f.bestFit(10) == 0);
}

TEST_CASE("free list: exact fit removes the hole; no fit returns nothing") {
    FreeList f(64);
    CHECK(*f.bestFit(64) == 0);
    CHECK(f.holes().empty());
    CHECK(f.largestHole() == 0);
    CHECK_FALSE(f.bestFit(1).has_value());
}

TEST_CASE("free list: release merges with the previous, the next, or both neighbours") {
    FreeList f(40);
    for (int i = 0; i < 4; ++i) CHECK(*f.bestFit(10) == 10 * i);
    f.release(0, 10);
    f.release(20, 10);
    CHECK(f.holes().size() == 2);
    f.release(10, 10);  // joins both
    REQUIRE(f.holes().size() == 1);
    CHECK(f.holes()[0] == Hole{0, 30});
    f.release(30, 10);  // joins the previous
    REQUIRE(f.holes().size() == 1);
    CHECK(f.holes()[0] == Hole{0, 40});
}

TEST_CASE("free list: fragmentation: enough bytes in total but no hole large enough") {
    FreeList f(40);
    for (int i = 0; i < 4; ++i) f.bestFit(10);
    f.release(0, 10);
    f.release(20, 10);
    CHECK(f.largestHole() == 10);
    CHECK_FALSE(f.bestFit(20).has_value());
}

TEST_CASE("free list: releasing free or out-of-range bytes is an internal error") {
    FreeList f(40);
    f.bestFit(10);
    CHECK_THROWS_AS(f.release(10, 5), spillway::InternalError);  // already free
    CHECK_THROWS_AS(f.release(5, 10), spillway::InternalError);  // half free
    CHECK_THROWS_AS(f.release(35, 10), spillway::InternalError); // beyond capacity
}
