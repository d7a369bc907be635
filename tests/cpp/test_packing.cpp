// The exact packer (packing.h): verdicts against brute force, known packings found, proofs
// of "does not fit", budgets, determinism. Every packing is checked by the independent
// validator (packing_validator.h).
#include <functional>
#include <set>

#include "spillway/packing.h"
#include "spillway/packing_instances.h"
#include "spillway/packing_validator.h"
#include "support.h"

using spillway::Bytes;
using namespace spillway::packing;
using spillway::test::inputErrorOf;

namespace {

// Packs and, when it fits, requires the independent validator to accept the packing.
Result packChecked(const Problem& p, const Options& o = {}) {
    Result r = pack(p, o);
    if (r.verdict == Verdict::Fits) {
        const std::vector<PackingViolation> v = validatePacking(p, r.offsets);
        CHECK_MESSAGE(v.empty(), (v.empty() ? "" : v.front().message));
        CHECK(r.reason.empty());
    } else {
        CHECK(r.offsets.empty());
        CHECK(r.failing.has_value());
        CHECK(!r.reason.empty());
    }
    return r;
}

Options budget(std::int64_t nodes, std::vector<Technique> disabled = {}) {
    Options o;
    o.budget = nodes;
    o.disabled = std::move(disabled);
    return o;
}

Block block(Time lower, Time upper, Bytes size, Bytes alignment = 1, std::vector<Gap> gaps = {}) {
    return Block{lower, upper, size, alignment, std::move(gaps)};
}

// minimalloc's README example: fits in 12, its peak.
Problem readmeExample(Bytes capacity) {
    return Problem{{block(0, 3, 4), block(3, 9, 4), block(0, 9, 4), block(9, 21, 4), block(0, 21, 4)}, capacity};
}

// Whether a packing exists, by trying every offset of every block (tiny problems only). Pairs
// are judged by the validator on the two blocks alone, so this shares nothing with the packer.
bool packable(const Problem& p) {
    const size_t n = p.blocks.size();
    std::vector<Bytes> offsets(n, 0);
    auto compatible = [&](size_t i, size_t j) {
        Problem pair{{p.blocks[i], p.blocks[j]}, p.capacity};
        return validatePacking(pair, {offsets[i], offsets[j]}).empty();
    };
    std::function<bool(size_t)> place = [&](size_t k) {
        if (k == n) return true;
        for (Bytes o = 0; o + p.blocks[k].size <= p.capacity; ++o) {
            if (o % p.blocks[k].alignment) continue;
            offsets[k] = o;
            bool ok = true;
            for (size_t j = 0; j < k && ok; ++j) ok = compatible(j, k);
            if (ok && place(k + 1)) return true;
        }
        return false;
    };
    return place(0);
}

// A small xorshift for the test's own random problems.
struct TestRng {
    std::uint64_t s;
    std::int64_t below(std::int64_t n) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return static_cast<std::int64_t>(s % static_cast<std::uint64_t>(n));
    }
};

// Up to 7 blocks of up to 3 bytes (sometimes 0), with alignments and gaps (some with
// windows), in a memory of their peak load or one byte more: tight, so that fragmentation
// decides whether they fit.
Problem randomTinyProblem(TestRng& rng) {
    Problem p;
    const int n = 2 + static_cast<int>(rng.below(6));
    for (int i = 0; i < n; ++i) {
        Block b;
        b.lower = rng.below(6);
        b.upper = b.lower + 1 + rng.below(6);
        b.size = rng.below(12) == 0 ? 0 : 1 + rng.below(3);
        b.alignment = rng.below(5) == 0 ? 2 : 1;
        if (b.upper - b.lower >= 3 && rng.below(4) == 0) {
            Gap g{b.lower + 1, b.lower + 2 + rng.below(b.upper - b.lower - 2), std::nullopt};
            if (rng.below(2)) {
                // Mostly windows from the block's offset; sometimes one higher up or empty.
                const Bytes lo = rng.below(4) == 0 ? rng.below(b.size + 1) : 0;
                g.window = Window{lo, lo + rng.below(b.size - lo + 1)};
            }
            b.gaps.push_back(g);
        }
        p.blocks.push_back(b);
    }
    p.capacity = std::max<Bytes>(3, peakLoad(p).load) + rng.below(2);
    return p;
}

}  // namespace

TEST_CASE("packing: minimalloc's README example fits in 12 and not in 11") {
    Result fits = packChecked(readmeExample(12));
    CHECK(fits.verdict == Verdict::Fits);
    CHECK(fits.stats.peakLoad == 12);
    Result tight = packChecked(readmeExample(11));
    CHECK(tight.verdict == Verdict::DoesNotFit);
    // Proved by the load: 12 bytes are live at once from time 0 to 3.
    CHECK(tight.reason == "from time 0 to 3 the live blocks need 12 bytes, more than the capacity 11");
    CHECK(tight.failing->from == 0);
    CHECK(tight.failing->to == 3);
    CHECK(tight.failing->load == 12);
    CHECK(tight.stats.nodes == 0);
}

// Canonical placement reaches every packing when every gap window starts at its block's
// offset and holds bytes (packing.h); otherwise the packer may miss some, and never claims
// "does not fit" from its search alone.
bool searchIsExhaustive(const Problem& p) {
    for (const Block& b : p.blocks)
        for (const Gap& g : b.gaps)
            if (b.size > 0 && g.window && (g.window->lower > 0 || g.window->upper == 0)) return false;
    return true;
}

TEST_CASE("packing: tiny random problems agree with brute force, with every technique and with each one off") {
    TestRng rng{0x9E3779B97F4A7C15ULL};
    std::vector<Options> settings(1);
    for (const TechniqueInfo& t : techniques()) settings.push_back(budget(10000000, {t.technique}));
    Options none;
    for (const TechniqueInfo& t : techniques()) none.disabled.push_back(t.technique);
    settings.push_back(none);
    int fits = 0, provedBySearch = 0, inexhaustive = 0, missed = 0;
    for (int k = 0; k < 1000; ++k) {
        const Problem p = randomTinyProblem(rng);
        const bool expected = packable(p), exhaustive = searchIsExhaustive(p);
        for (const Options& o : settings) {
            const Result r = packChecked(p, o);
            const bool byBound = r.verdict == Verdict::DoesNotFit && r.stats.nodes == 0;
            if (exhaustive) {
                REQUIRE(r.verdict != Verdict::Unknown);
                CHECK_MESSAGE((r.verdict == Verdict::Fits) == expected, "problem " << k << ", " << o.disabled.size() << " techniques off");
            } else {
                CHECK((r.verdict != Verdict::Fits || expected));
                CHECK((r.verdict != Verdict::DoesNotFit || (byBound && !expected)));
                missed += expected && r.verdict != Verdict::Fits;
            }
        }
        fits += expected;
        inexhaustive += !exhaustive;
        provedBySearch += exhaustive && !expected && peakLoad(p).load <= p.capacity;
    }
    MESSAGE(fits << " of 1000 fit; " << provedBySearch << " do not although their peak load fits; " << inexhaustive
                 << " have windows the search does not exhaust (packings missed in " << missed << " runs)");
    CHECK(fits > 300);
    CHECK(provedBySearch > 10);  // the search itself, not only the load bound, proves some
    CHECK(inexhaustive > 50);
}

// 5 to 8 blocks, a third of them aligned to 2, in a memory of exactly their peak load:
// crowded enough that searches fail in one stretch of time while other stretches still have
// choices, which is where region probes act.
Problem randomCrowdedProblem(TestRng& rng) {
    Problem p;
    const int n = 5 + static_cast<int>(rng.below(4));
    for (int i = 0; i < n; ++i) {
        const Time lower = rng.below(8);
        const Time upper = lower + 1 + rng.below(5);
        const Bytes size = 1 + rng.below(3);
        p.blocks.push_back(block(lower, upper, size, rng.below(3) == 0 ? 2 : 1));
    }
    p.capacity = peakLoad(p).load;
    return p;
}

TEST_CASE("packing: region probes after every failed subtree agree with brute force, and their proofs cut branches") {
    TestRng rng{0xD1B54A32D192ED03ULL};
    Options probing;
    probing.probeAfter = 1;  // tiny searches never reach the default 256 nodes
    std::int64_t probes = 0, impossible = 0, nodesProbing = 0, nodesPlain = 0;
    int fits = 0;
    for (int k = 0; k < 400; ++k) {
        const Problem p = randomCrowdedProblem(rng);
        const bool expected = packable(p);
        const Result r = packChecked(p, probing);
        const Result plain = packChecked(p, budget(10000000, {Technique::RegionProbe}));
        REQUIRE(r.verdict != Verdict::Unknown);
        CHECK_MESSAGE((r.verdict == Verdict::Fits) == expected, "problem " << k);
        CHECK(plain.verdict == r.verdict);
        CHECK(plain.stats.probes == 0);
        fits += expected;
        probes += r.stats.probes;
        impossible += r.stats.probesImpossible;
        nodesProbing += r.stats.nodes;
        nodesPlain += plain.stats.nodes;
    }
    MESSAGE(fits << " of 400 fit; " << probes << " region probes, " << impossible << " regions proved impossible; nodes "
                 << nodesProbing << " with probes (theirs included), " << nodesPlain << " without");
    CHECK(fits > 300);
    CHECK(400 - fits > 20);  // proofs that they do not fit, found with probes cutting branches
    CHECK(probes > 100);
    CHECK(impossible > 50);
}

// A 1,024 x 1,024 rectangle (in units of 16) cut into `blocks` pieces in the seed's style, with
// `dropPercent` of them dropped: an instance known to pack.
static KnownInstance smallCut(std::uint64_t seed, int blocks, int dropPercent) {
    CutOptions o;
    o.style = static_cast<CutStyle>(seed % 3);
    o.blocks = blocks;
    o.capacity = 64 * 16;
    o.horizon = 64 * 16;
    o.unit = 16;
    o.dropPercent = dropPercent;
    o.seed = seed;
    return cutRectangle(o);
}

TEST_CASE("packing: a rectangle cut into pieces packs again, in every style") {
    int packed = 0;
    for (std::uint64_t seed = 1; seed <= 90; ++seed) {
        const KnownInstance k = smallCut(seed, 5 + static_cast<int>(seed % 40), static_cast<int>(seed % 4) * 10);
        REQUIRE(validatePacking(k.problem, k.offsets).empty());
        const Result r = packChecked(k.problem, budget(200000));
        CHECK_MESSAGE(r.verdict == Verdict::Fits, k.name << ": " << r.reason);
        packed += r.verdict == Verdict::Fits;
    }
    CHECK(packed == 90);
}

// Instances generated like minimalloc's challenging ones (spillway pack-instance SEED): those
// the default options pack within a few thousand nodes, with the nodes each takes. A change of
// the search shows here as changed counts (pack-bench measures all 100 of them).
TEST_CASE("packing: generated instances like minimalloc's pack, each within its known count of nodes") {
    const std::vector<std::pair<std::uint64_t, std::int64_t>> nodesBySeed = {
        {1, 312},  {4, 245},  {5, 392},  {6, 218},  {7, 410},  {8, 419},   {9, 3980},  {10, 247}, {12, 418},
        {13, 350}, {15, 227}, {16, 259}, {18, 1825}, {19, 349}, {22, 278}, {23, 336}, {25, 1204}, {26, 886}};
    std::set<std::string> styles;
    for (const auto& [seed, nodes] : nodesBySeed) {
        const KnownInstance k = challengingLike(seed);
        const Result r = packChecked(k.problem);
        CHECK_MESSAGE(r.verdict == Verdict::Fits, k.name << ": " << r.reason);
        CHECK_MESSAGE(r.stats.nodes == nodes, k.name);
        CHECK(r.stats.peakLoad <= k.problem.capacity);
        styles.insert(k.name.substr(0, k.name.find('-')));
    }
    CHECK(styles == std::set<std::string>{"even", "guillotine", "skyline"});
}

// guillotine-34 stalls where a stretch of time is already lost while other stretches are still
// being arranged: probes prove 20 such regions impossible (their nodes included) and the
// packing comes in half the nodes. (On easy instances probes can cost more than they save:
// docs/packing.md.)
TEST_CASE("packing: region probes cut a stalled search: guillotine-34 packs in half the nodes") {
    const KnownInstance k = challengingLike(34);
    const Result probing = packChecked(k.problem, budget(1000000));
    const Result plain = packChecked(k.problem, budget(1000000, {Technique::RegionProbe}));
    REQUIRE(probing.verdict == Verdict::Fits);
    REQUIRE(plain.verdict == Verdict::Fits);
    CHECK(probing.stats.nodes == 12178);
    CHECK(probing.stats.probes == 18);
    CHECK(probing.stats.probesImpossible == 20);
    CHECK(plain.stats.nodes == 23860);
    CHECK(plain.stats.probes == 0);
}

TEST_CASE("packing: same problem, same packing and the same count of nodes") {
    const KnownInstance k = challengingLike(4);
    const Result a = packChecked(k.problem, budget(300000));
    const Result b = packChecked(k.problem, budget(300000));
    CHECK(a.verdict == b.verdict);
    CHECK(a.offsets == b.offsets);
    CHECK(a.stats.nodes == b.stats.nodes);
    CHECK(a.stats.backtracks == b.stats.backtracks);
    CHECK(a.stats.preorder == b.stats.preorder);
}

TEST_CASE("packing: the budget counts search nodes; when it runs out the verdict is unknown, with a region") {
    const KnownInstance k = challengingLike(4);
    for (std::int64_t nodes : {0, 1, 50}) {
        const Result r = packChecked(k.problem, budget(nodes));
        CHECK(r.verdict == Verdict::Unknown);
        CHECK(r.stats.nodes <= nodes);
        CHECK(r.reason.find("budget of " + std::to_string(nodes) + " search nodes ran out") != std::string::npos);
        CHECK(r.failing->from < r.failing->to);
        CHECK(r.failing->load <= k.problem.capacity);
    }
}

TEST_CASE("packing: does not fit, proved by a block, by the load or by the search") {
    Problem big{{block(0, 4, 3), block(2, 9, 9)}, 8};
    Result r = packChecked(big);
    CHECK(r.verdict == Verdict::DoesNotFit);
    CHECK(r.reason == "block 1 needs 9 bytes, more than the capacity 8");
    CHECK(r.failing->from == 2);
    CHECK(r.failing->to == 9);
    // 4 bytes live and 4 of room, but the two blocks aligned to 2 take offsets 0 and 2, and the
    // 2-byte block finds no two free bytes in a row.
    Problem aligned{{block(0, 1, 1, 2), block(0, 1, 1, 2), block(0, 1, 2)}, 4};
    r = packChecked(aligned);
    CHECK(r.verdict == Verdict::DoesNotFit);
    CHECK(r.stats.peakLoad == 4);
    CHECK(r.reason == "no placement exists: the search tried every canonical placement of the blocks live between times 0 and 1");
    CHECK(r.stats.nodes > 0);
}

TEST_CASE("packing: gaps free bytes for others; a window keeps part of a block") {
    // b lives inside a's gap: without the gap, 8 bytes would not fit in 4.
    Problem p{{block(0, 10, 4, 1, {Gap{3, 7, std::nullopt}}), block(3, 7, 4)}, 4};
    CHECK(packChecked(p).verdict == Verdict::Fits);
    p.blocks[0].gaps.clear();
    CHECK(packChecked(p).verdict == Verdict::DoesNotFit);
    // During the gap a keeps bytes [0, 1) of itself: b (3 bytes) fits above them.
    Problem w{{block(0, 10, 4, 1, {Gap{3, 7, Window{0, 1}}}), block(3, 7, 3)}, 4};
    Result r = packChecked(w);
    REQUIRE(r.verdict == Verdict::Fits);
    CHECK(r.offsets == std::vector<Bytes>{0, 1});
    w.blocks[1].size = 4;
    CHECK(packChecked(w).verdict == Verdict::DoesNotFit);
}

TEST_CASE("packing: alignment is kept, and blocks apart in time form separate partitions") {
    Problem p{{block(0, 2, 3), block(0, 2, 4, 4), block(5, 6, 2), block(5, 6, 2, 8)}, 8};
    Result r = packChecked(p);
    REQUIRE(r.verdict == Verdict::Fits);
    CHECK(r.offsets[1] % 4 == 0);
    CHECK(r.offsets[3] % 8 == 0);
    CHECK(r.stats.partitions == 2);
    // Blocks that are never live (size 0, empty lifetime) take offset 0 and bother no one.
    Problem empty{{block(3, 3, 5), block(0, 4, 0), block(0, 4, 5)}, 5};
    r = packChecked(empty);
    REQUIRE(r.verdict == Verdict::Fits);
    CHECK(r.offsets == std::vector<Bytes>{0, 0, 0});
    CHECK(packChecked(Problem{{}, 1}).verdict == Verdict::Fits);
}

// Each block goes to the partition of its time, whatever its place in the input: blocks
// listed out of time order, blocks apart in time among others that overlap, blocks of size 0.
// 100,000 blocks each alone in time make 100,000 partitions (a pass over every block for each
// partition took minutes there).
TEST_CASE("packing: blocks listed out of time order land in their partitions; 100,000 blocks apart in time") {
    Problem p{{block(20, 22, 4), block(0, 3, 5), block(10, 11, 8), block(1, 4, 3), block(2, 3, 0), block(21, 23, 4)}, 8};
    Result r = packChecked(p);
    REQUIRE(r.verdict == Verdict::Fits);
    CHECK(r.stats.partitions == 3);
    CHECK(r.offsets == std::vector<Bytes>{0, 0, 0, 5, 0, 4});
    Problem apart{{}, 4096};
    for (Time t = 0; t < 100000; ++t) apart.blocks.push_back(block(99999 - t, 100000 - t, 1 + t % 4096));
    r = packChecked(apart);
    REQUIRE(r.verdict == Verdict::Fits);
    CHECK(r.stats.partitions == 100000);
    CHECK(r.stats.nodes == 200000);
    CHECK(std::all_of(r.offsets.begin(), r.offsets.end(), [](Bytes o) { return o == 0; }));
}

// Windowed region probes (probe-window) stay sound: with a probe after every failed subtree,
// every rectangle cut into pieces still packs (a wrong proof of a window would cut the
// packing away): 475 regions are proved impossible along the way.
TEST_CASE("packing: windowed region probes after every failed subtree lose no packing") {
    Options probing;
    probing.probeAfter = 1;
    probing.budget = 200000;
    std::int64_t probes = 0, impossible = 0;
    int packed = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const KnownInstance k = smallCut(seed, 40 + static_cast<int>(seed % 30), 0);
        const Result r = packChecked(k.problem, probing);
        CHECK_MESSAGE(r.verdict == Verdict::Fits, k.name << ": " << r.reason);
        packed += r.verdict == Verdict::Fits;
        probes += r.stats.probes;
        impossible += r.stats.probesImpossible;
    }
    MESSAGE(probes << " region probes, " << impossible << " regions proved impossible");
    CHECK(packed == 30);
    CHECK(probes == 1206);
    CHECK(impossible == 475);
}

// skyline-68's failing sections hold a block that lives over most of the problem, so a probe of
// their span is nearly the whole search; the blocks within 12 sections of the failure alone
// are proved impossible in a few nodes, and the search packs it.
TEST_CASE("packing: windowed region probes pack skyline-68, which the search without them does not") {
    const KnownInstance k = challengingLike(68);
    const Result windowed = packChecked(k.problem, budget(1000000));
    const Result wide = packChecked(k.problem, budget(200000, {Technique::ProbeWindow}));
    REQUIRE(windowed.verdict == Verdict::Fits);
    CHECK(windowed.stats.nodes == 22931);
    CHECK(windowed.stats.probesImpossible == 111);
    CHECK(wide.verdict == Verdict::Unknown);
}

TEST_CASE("packing: bad problems and options are input errors naming the block and field") {
    CHECK(inputErrorOf([] { pack(Problem{{block(0, 1, 1)}, 0}); }) == "capacity must be between 1 and 68719476736, got 0");
    CHECK(inputErrorOf([] { pack(Problem{{block(0, 1, 1), block(4, 2, 1)}, 8}); }) ==
          "block 1: field \"upper\" must be between lower (4) and 1099511627776, got 2");
    CHECK(inputErrorOf([] { pack(Problem{{block(0, 5, 1, 0)}, 8}); }) ==
          "block 0: field \"alignment\" must be between 1 and 68719476736, got 0");
    CHECK(inputErrorOf([] { pack(Problem{{block(0, 9, 2, 1, {Gap{4, 6, std::nullopt}, Gap{5, 7, std::nullopt}})}, 8}); }) ==
          "block 0: field \"gaps\", gap 2 (5-7): gaps must lie in the lifetime [0, 9) in time order without overlapping");
    CHECK(inputErrorOf([] { pack(Problem{{block(0, 9, 2, 1, {Gap{4, 6, Window{1, 3}}})}, 8}); }) ==
          "block 0: field \"gaps\", gap 1 (4-6): its window 1:3 must lie within the size (0:2)");
    CHECK(inputErrorOf([] { parseTechniques("dominance,speed"); }) ==
          "unknown packing technique \"speed\" (known: canonical, section-inference, dynamic-ordering, dominance, "
          "unallocated-floor, static-preordering, decomposition, monotonic-floor, hatless-pruning, region-probe, "
          "probe-window)");
    CHECK(inputErrorOf([] { parsePreorders("WAT,WAX"); }) == "preorder \"WAX\": unknown key 'X' (keys: ACLOTUWZR)");
    CHECK(parseTechniques("dominance,canonical") == std::vector<Technique>{Technique::Dominance, Technique::CanonicalOnly});
}
