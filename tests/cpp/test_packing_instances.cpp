// Generated packing problems with a known packing, and problems as graphs with a fixed order
// (packing_instances.h, packing_graph.h).
#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

#include "spillway/packing_graph.h"
#include "spillway/packing_instances.h"
#include "spillway/packing_validator.h"
#include "spillway/schedule.h"
#include "support.h"

using namespace spillway::packing;
using spillway::Bytes;

TEST_CASE("packing instances: the known packing is valid, in every style, and the same for a seed") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const KnownInstance k = challengingLike(seed);
        CHECK(validatePacking(k.problem, k.offsets).empty());
        CHECK(k.problem.capacity == 1048576);
        CHECK(k.problem.blocks.size() >= 100);
        CHECK(k.problem.blocks.size() <= 800);
        for (const Block& b : k.problem.blocks) {
            CHECK(b.size % 1024 == 0);
            CHECK(b.lower % 1024 == 0);
            CHECK(b.upper <= 1048576);
        }
        CHECK(peakLoad(k.problem).load <= 1048576);
        const KnownInstance again = challengingLike(seed);
        CHECK(again.offsets == k.offsets);
        CHECK(again.name == k.name);
    }
    std::set<std::string> styles;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) styles.insert(challengingLike(seed).name.substr(0, 4));
    CHECK(styles == std::set<std::string>{"even", "guil", "skyl"});
}

// The measured family is calibrated to minimalloc's 11 (docs/packing.md): like them, most
// instances have a few blocks of a quarter of the memory or more, and their block sizes and
// lifetimes go opposite ways (a big block lives briefly).
TEST_CASE("packing instances: the measured family: valid known packings, big short-lived blocks, by name") {
    int withBig = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const KnownInstance k = measuredLike(seed);
        CHECK(k.name == "measured-" + std::to_string(seed));
        CHECK(validatePacking(k.problem, k.offsets).empty());
        CHECK(k.problem.capacity == 1048576);
        CHECK(k.problem.blocks.size() >= 100);
        CHECK(k.problem.blocks.size() <= 800);
        CHECK(peakLoad(k.problem).load <= 1048576);
        Time longestBig = 0, longest = 0;
        int big = 0;
        for (const Block& b : k.problem.blocks) {
            CHECK(b.size % 1024 == 0);
            CHECK(b.upper <= 1048576);
            longest = std::max(longest, b.upper - b.lower);
            if (b.size >= 1048576 / 4) {
                ++big;
                longestBig = std::max(longestBig, b.upper - b.lower);
            }
        }
        withBig += big > 0;
        CHECK(longestBig * 4 < longest);
        const KnownInstance again = familyInstance("measured", seed);
        CHECK(again.offsets == k.offsets);
        CHECK(familyInstance("cut", seed).name == challengingLike(seed).name);
    }
    CHECK(withBig >= 30);
    CHECK(spillway::test::inputErrorOf([] { familyInstance("random", 1); }) == "unknown instance family \"random\" (known: measured, cut, derived)");
}

TEST_CASE("packing instances: a cut with nothing dropped fills the rectangle exactly") {
    for (CutStyle style : {CutStyle::Guillotine, CutStyle::Even}) {
        CutOptions o;
        o.style = style;
        o.blocks = 50;
        o.seed = 7;
        const KnownInstance k = cutRectangle(o);
        CHECK(k.problem.blocks.size() == 50);
        __extension__ unsigned __int128 area = 0;
        for (const Block& b : k.problem.blocks) area += static_cast<unsigned __int128>(b.size) * (b.upper - b.lower);
        CHECK(area == static_cast<unsigned __int128>(o.capacity) * o.horizon);
    }
    CHECK(spillway::test::inputErrorOf([] { cutRectangle(CutOptions{CutStyle::Even, 0}); }).rfind("cutRectangle: blocks must be", 0) == 0);
}

TEST_CASE("packing graph: a problem becomes a graph whose demand at every step is the load, in a fixed order") {
    CutOptions o;
    o.blocks = 40;
    o.seed = 3;
    o.dropPercent = 20;
    const KnownInstance k = cutRectangle(o);
    const spillway::GraphDocument doc = graphFromPacking(k.problem);
    CHECK(doc.graph.buffers.size() == k.problem.blocks.size());
    // Four nodes a block, and a TICK without buffers at every step of time (here 1024).
    Time first = k.problem.blocks.front().lower, last = 0, tick = 0;
    for (const Block& b : k.problem.blocks) {
        first = std::min(first, b.lower);
        last = std::max(last, b.upper);
        tick = std::gcd(tick, std::gcd(b.lower, b.upper));
    }
    CHECK(doc.graph.nodes.size() == 4 * k.problem.blocks.size() + static_cast<size_t>((last - first) / tick));
    REQUIRE(doc.order);
    REQUIRE(doc.capacities);
    CHECK(doc.capacities->at("L1") == k.problem.capacity);
    const spillway::ResidencyPeaks peaks = spillway::peakResidency(doc.graph, *doc.order);
    CHECK(peaks.byType.at("L1") == peakLoad(k.problem).load);
}

TEST_CASE("packing instances: minimalloc's 11 are built in, with a validated packing each") {
    CHECK(minimallocChallenging(0).name == "A");
    CHECK(minimallocChallenging(0).problem.blocks.size() == 154);  // A.1048576.csv's rows
    CHECK(minimallocChallenging(10).name == "K");
    CHECK(minimallocChallenging(10).problem.blocks.size() == 454);
    for (int i = 0; i < kChallengingInstances; ++i) {
        const KnownInstance& k = minimallocChallenging(i);
        CHECK(k.problem.capacity == 1048576);
        CHECK(validatePacking(k.problem, k.offsets).empty());
    }
    CHECK(spillway::test::inputErrorOf([] { minimallocChallenging(11); }) ==
          "minimalloc's challenging instances are numbered 0 to 10, not 11");
}

// Family derived (docs/packing.md): each block lies inside one block of its source, in time and
// in the bytes that block holds in the source's packing, starts and ends at the source's event
// times, and the known packing (the source's, carried over) is valid at the capacity.
TEST_CASE("packing instances: the derived family: inside its source block by block, a valid known packing, the same for a seed") {
    int changedInstances = 0;
    std::set<std::string> sources;
    for (std::uint64_t seed = 1; seed <= 22; ++seed) {
        const KnownInstance k = derivedFromChallenging(seed);
        const KnownInstance& source = minimallocChallenging(static_cast<int>(seed % kChallengingInstances));
        CHECK(k.name == "derived-" + source.name + "-" + std::to_string(seed));
        sources.insert(source.name);
        CHECK(k.problem.capacity == 1048576);
        CHECK(validatePacking(k.problem, k.offsets).empty());
        std::set<Time> events;
        __extension__ unsigned __int128 area = 0, sourceArea = 0;
        for (const Block& b : source.problem.blocks) {
            events.insert({b.lower, b.upper});
            sourceArea += static_cast<unsigned __int128>(b.size) * (b.upper - b.lower);
        }
        std::vector<Block> sorted = k.problem.blocks, sourceSorted = source.problem.blocks;
        for (size_t i = 0; i < k.problem.blocks.size(); ++i) {
            const Block& b = k.problem.blocks[i];
            const Bytes at = k.offsets[i];
            CHECK(events.count(b.lower) == 1);
            CHECK(events.count(b.upper) == 1);
            CHECK(b.size % 1024 == 0);
            CHECK(b.size >= 1024);
            area += static_cast<unsigned __int128>(b.size) * (b.upper - b.lower);
            bool inside = false;
            for (size_t j = 0; j < source.problem.blocks.size() && !inside; ++j) {
                const Block& s = source.problem.blocks[j];
                inside = s.lower <= b.lower && b.upper <= s.upper && source.offsets[j] <= at && at + b.size <= source.offsets[j] + s.size;
            }
            CHECK(inside);
        }
        CHECK(area <= sourceArea);
        // At most 1% of 460 blocks dropped (draws: a few more), at most 40% of them split.
        CHECK(k.problem.blocks.size() * 100 >= source.problem.blocks.size() * 95);
        CHECK(k.problem.blocks.size() * 100 <= source.problem.blocks.size() * 145);
        auto byLifetime = [](const Block& x, const Block& y) { return std::tie(x.lower, x.upper, x.size) < std::tie(y.lower, y.upper, y.size); };
        std::sort(sorted.begin(), sorted.end(), byLifetime);
        std::sort(sourceSorted.begin(), sourceSorted.end(), byLifetime);
        changedInstances += !std::equal(sorted.begin(), sorted.end(), sourceSorted.begin(), sourceSorted.end(), [](const Block& x, const Block& y) {
            return x.lower == y.lower && x.upper == y.upper && x.size == y.size;
        });
        const KnownInstance again = familyInstance("derived", seed);
        CHECK(again.name == k.name);
        CHECK(again.offsets == k.offsets);
        CHECK(std::equal(again.problem.blocks.begin(), again.problem.blocks.end(), k.problem.blocks.begin(), k.problem.blocks.end(),
                         [](const Block& x, const Block& y) { return x.lower == y.lower && x.upper == y.upper && x.size == y.size; }));
    }
    CHECK(changedInstances == 22);
    CHECK(sources.size() == 11);
    // The order carries no hint: the first blocks are not the source's first.
    const KnownInstance k = derivedFromChallenging(11);
    const Block& first = minimallocChallenging(0).problem.blocks.front();
    CHECK_FALSE((k.problem.blocks.front().lower == first.lower && k.problem.blocks.front().upper == first.upper &&
                 k.problem.blocks.front().size == first.size));
}
