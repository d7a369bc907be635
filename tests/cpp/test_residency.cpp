// The residency problem of an order: the relaxation (lower bound) and the whole-gap choice,
// against brute force on small random problems.
#include <algorithm>

#include "spillway/examples.h"
#include "spillway/residency.h"
#include "support.h"

using namespace spillway;

namespace {

struct Lcg {  // the tests' own deterministic numbers
    std::uint64_t state;
    int below(int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    }
};

// Gaps of 2 to `longest` steps (default: half the steps).
ResidencyProblem randomProblem(std::uint64_t seed, int steps, int gaps, bool equalSizes, int longest = 0) {
    if (longest == 0) longest = steps / 2 + 1;
    Lcg rng{seed};
    ResidencyProblem p;
    p.type = "UB";
    p.capacity = 64 + 16 * rng.below(8);
    p.forced.assign(steps, 0);
    for (Bytes& f : p.forced) f = 16 * rng.below(3);
    for (int i = 0; i < gaps; ++i) {
        Gap g;
        g.buf = i;
        g.from = rng.below(steps - 2);
        g.to = std::min(steps - 1, g.from + 2 + rng.below(longest - 1));
        g.size = equalSizes ? 32 : 8 * (1 + rng.below(8));
        g.traffic = rng.below(2) ? g.size : 2 * g.size;
        p.gaps.push_back(g);
    }
    return p;
}

bool feasible(const ResidencyProblem& p, const std::vector<char>& keep) {
    for (size_t t = 0; t < p.forced.size(); ++t) {
        Bytes load = p.forced[t];
        for (size_t i = 0; i < p.gaps.size(); ++i)
            if (keep[i] && p.gaps[i].from < static_cast<int>(t) && static_cast<int>(t) < p.gaps[i].to)
                load += p.gaps[i].size;
        if (load > p.capacity) return false;
    }
    return true;
}

Bytes traffic(const ResidencyProblem& p, const std::vector<char>& keep) {
    Bytes t = 0;
    for (size_t i = 0; i < p.gaps.size(); ++i)
        if (!keep[i]) t += p.gaps[i].traffic;
    return t;
}

Bytes bruteForce(const ResidencyProblem& p) {
    const size_t n = p.gaps.size();
    Bytes best = -1;
    std::vector<char> keep(n);
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
        for (size_t i = 0; i < n; ++i) keep[i] = (mask >> i) & 1;
        if (!feasible(p, keep)) continue;
        const Bytes t = traffic(p, keep);
        if (best < 0 || t < best) best = t;
    }
    return best;
}

// Whether the greedy's swap rule would bring gap i back into `keep` and save traffic: the kept
// gaps over it written out cheapest per byte first (ties by index), each only while i does not
// fit yet and their traffic stays below i's (docs/policies.md); feasibility by brute force.
bool swapSaves(const ResidencyProblem& p, std::vector<char> keep, int i) {
    const Gap& in = p.gaps[i];
    std::vector<int> victims;
    for (int j = 0; j < static_cast<int>(p.gaps.size()); ++j)
        if (keep[j] && p.gaps[j].from + 1 < in.to && in.from + 1 < p.gaps[j].to) victims.push_back(j);
    std::sort(victims.begin(), victims.end(), [&](int a, int b) {
        const Bytes x = p.gaps[a].traffic * p.gaps[b].size, y = p.gaps[b].traffic * p.gaps[a].size;
        return x != y ? x < y : a < b;
    });
    keep[i] = 1;
    Bytes lost = 0;
    for (int j : victims) {
        if (feasible(p, keep)) return true;
        keep[j] = 0;
        lost += p.gaps[j].traffic;
        if (lost >= in.traffic) return false;
    }
    return feasible(p, keep);
}

// The greedy's choice on `p` is feasible, counts its traffic, and no swap of the rule saves traffic.
// Returns the gaps it writes out; `swapped` counts problems where its swaps saved traffic.
int checkSwapsDone(const ResidencyProblem& p, int& swapped) {
    const ResidencyEffort greedyOnly{false, 0, 1000, -1};  // passes until one changes nothing
    const ResidencyChoice choice = chooseResidency(p, {}, greedyOnly);
    REQUIRE(feasible(p, choice.keep));
    CHECK(traffic(p, choice.keep) == choice.traffic);
    int refused = 0;
    for (int i = 0; i < static_cast<int>(p.gaps.size()); ++i)
        if (!choice.keep[i]) {
            CHECK_FALSE(swapSaves(p, choice.keep, i));
            ++refused;
        }
    swapped += choice.traffic < chooseResidency(p, {}, {false, 0, 0, -1}).traffic;
    return refused;
}

}  // namespace

TEST_CASE("residency: the greedy's swaps run until no swap saves traffic") {
    int swapped = 0, refused = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        INFO("seed " << seed);
        refused += checkSwapsDone(randomProblem(seed, 40, 24, false), swapped);
    }
    CHECK(swapped > 20);   // the swaps had work to do
    CHECK(refused > 500);  // and many gaps to refuse
}

// Many short gaps over a long time line: each swap finds its victims among its own span's buckets,
// not among all the contested gaps.
TEST_CASE("residency: the greedy's swaps run until no swap saves traffic, many short gaps") {
    int swapped = 0, refused = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        INFO("seed " << seed);
        refused += checkSwapsDone(randomProblem(seed, 600, 400, false, 9), swapped);
    }
    CHECK(swapped >= 3);
    CHECK(refused > 300);
}

TEST_CASE("residency: the relaxation never exceeds the optimum; the choice reaches it (brute force)") {
    int strict = 0, fractional = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        const bool equal = seed % 3 == 0;
        const ResidencyProblem p = randomProblem(seed, 24, 12, equal);
        const Bytes optimum = bruteForce(p);
        const Relaxation lp = relaxResidency(p);
        const ResidencyChoice choice = chooseResidency(p);
        INFO("seed " << seed);
        CHECK(lp.traffic <= optimum);
        if (equal) CHECK(lp.traffic == optimum);  // equal sizes: the relaxation is integral
        CHECK(feasible(p, choice.keep));
        CHECK(traffic(p, choice.keep) == choice.traffic);
        CHECK(choice.traffic == optimum);
        CHECK(choice.optimal);
        strict += lp.traffic < optimum;
        fractional += !lp.integral;
    }
    CHECK(strict > 10);      // the bound is not trivially the optimum: sizes differ
    CHECK(fractional > 10);  // and branch and bound had work to do
}

TEST_CASE("residency: a memo gives each problem the choice and work counts it gets anew, and tells problems apart") {
    ResidencyMemo memo;
    int solved = 0, searched = 0;
    for (int pass = 0; pass < 2; ++pass)  // the second pass from the memo
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            const ResidencyProblem p = randomProblem(seed, 24, 12, seed % 3 == 0);
            const ResidencyChoice anew = chooseResidency(p), remembered = memo.choose(p);
            INFO("seed " << seed << ", pass " << pass);
            CHECK(remembered.keep == anew.keep);
            CHECK(remembered.traffic == anew.traffic);
            CHECK(remembered.optimal == anew.optimal);
            CHECK(remembered.work == anew.work);
            CHECK(remembered.exactWork == anew.exactWork);
            if (pass == 0) solved += anew.work > 0, searched += anew.exactWork > 0;
        }
    CHECK(searched > 10);      // branch and bound ran
    CHECK(solved > searched);  // and some choices needed only the relaxation
    CHECK(memo.size() == static_cast<size_t>(solved));
    CHECK(memo.searches() <= static_cast<size_t>(searched));
    // The same problem with its gaps' traffic changed is another problem.
    int changed = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        ResidencyProblem p = randomProblem(seed, 24, 12, false);
        const ResidencyChoice before = chooseResidency(p);
        if (before.exactWork == 0) continue;
        for (Gap& g : p.gaps) g.traffic = g.traffic == g.size ? 2 * g.size : g.size;
        const ResidencyChoice anew = chooseResidency(p), remembered = memo.choose(p);
        INFO("seed " << seed);
        CHECK(remembered.keep == anew.keep);
        CHECK(remembered.traffic == anew.traffic);
        changed += anew.traffic != before.traffic;
    }
    CHECK(changed > 10);
}

TEST_CASE("residency: a branch and bound is met again in a problem that differs only where nothing is contested") {
    ResidencyMemo memo;
    int met = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        const ResidencyProblem p = randomProblem(seed, 24, 12, false);
        if (chooseResidency(p).exactWork == 0) continue;
        // Ten more steps after the last, with a small buffer resident over them: it always fits.
        ResidencyProblem longer = p;
        longer.forced.resize(p.forced.size() + 10, 0);
        const int first = static_cast<int>(p.forced.size()), last = first + 9;
        longer.forced[first] += 8, longer.forced[last] += 8;
        longer.gaps.push_back({static_cast<int>(p.gaps.size()), first, last, 8, 16});
        const std::size_t before = memo.searches();
        const ResidencyChoice once = memo.choose(p), again = memo.choose(longer), anew = chooseResidency(longer);
        INFO("seed " << seed);
        CHECK(memo.searches() == before + 1);  // the longer problem's search was the first's
        CHECK(again.keep == anew.keep);
        CHECK(again.traffic == anew.traffic);
        CHECK(again.traffic == once.traffic);
        CHECK(again.optimal == anew.optimal);
        CHECK(again.work == anew.work);
        CHECK(again.exactWork == anew.exactWork);
        CHECK(again.keep.back() == 1);
        ++met;
    }
    CHECK(met > 10);
}

TEST_CASE("residency: large problems get a feasible greedy choice between the bound and all-out") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const ResidencyProblem p = randomProblem(seed, 400, 600, false);
        const Relaxation lp = relaxResidency(p);
        const ResidencyChoice choice = chooseResidency(p, {}, {true, 0});
        CHECK(feasible(p, choice.keep));
        CHECK(traffic(p, choice.keep) == choice.traffic);
        CHECK(lp.traffic <= choice.traffic);
        std::vector<char> none(p.gaps.size(), 0);
        CHECK(choice.traffic < traffic(p, none));
    }
}

TEST_CASE("residency: out of its work budget the relaxation still bounds the optimum, only weaker") {
    int weaker = 0, useful = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const ResidencyProblem p = randomProblem(seed, 400, 600, seed % 2 == 0);
        const Relaxation full = relaxResidency(p);
        const Relaxation cut = relaxResidency(p, {}, 0);  // stops after the first shortest paths
        const ResidencyChoice choice = chooseResidency(p, {}, {true, 0, 2, 0});
        INFO("seed " << seed);
        CHECK(full.exact);
        CHECK(full.traffic <= choice.traffic);
        CHECK(cut.traffic <= full.traffic);
        CHECK(cut.traffic >= 0);
        if (!cut.exact) {
            CHECK_FALSE(cut.integral);
            ++weaker;
            useful += cut.traffic > 0;
        } else {
            CHECK(cut.traffic == full.traffic);
        }
        CHECK(feasible(p, choice.keep));  // a budget-starved choice is the greedy's, still feasible
        CHECK(traffic(p, choice.keep) == choice.traffic);
    }
    CHECK(weaker > 20);
    CHECK(useful > 10);  // the duality bound is more than the trivial 0
}

TEST_CASE("residency: the bound of a large tiled matmul's order within its budget") {
    MatmulParams mp;
    mp.m = mp.n = mp.k = 8;
    mp.freesAtEnd = true;
    const GraphDocument doc = parseGraphDocument(generateTiledMatmul(mp));
    const Order order = scheduleForMemory(doc.graph, orderById(doc.graph));
    const Capacities caps = defaultCapacities();
    const TrafficBound full = trafficLowerBound(doc.graph, order, caps);
    const TrafficBound cut = trafficLowerBound(doc.graph, order, caps, 100000);  // about a tenth of what it needs
    CHECK(full.exact);
    CHECK_FALSE(cut.exact);
    CHECK(cut.total <= full.total);
    CHECK(cut.total * 10 >= full.total * 9);  // within 10% here
}

TEST_CASE("residency: the relaxation by windows bounds the relaxation from below") {
    // Gaps cut at their window's end: never above the whole relaxation, equal to it with one
    // window, and more than nothing on contested problems (cut gaps still compete inside a window).
    int useful = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const ResidencyProblem p = randomProblem(seed, 400, 600, seed % 2 == 0);
        const Relaxation full = relaxResidency(p);
        INFO("seed " << seed);
        REQUIRE(full.exact);
        const int steps = static_cast<int>(p.forced.size());
        CHECK(windowedRelaxation(p, steps + 1, std::int64_t(1) << 40) == full.traffic);
        for (int window : {400, 100, 25, 5}) {
            const Bytes windowed = windowedRelaxation(p, window);
            CHECK(windowed <= full.traffic);
            CHECK(windowed >= 0);
            if (window == 100) useful += windowed > 0 && windowed * 2 >= full.traffic;
        }
    }
    CHECK(useful > 10);
}

TEST_CASE("residency: a window whose cut gaps all fit adds nothing to the bound by windows, flow or not") {
    // Two 60-byte gaps over steps 1-14 and 9-18 of a 100-byte memory: contested together. Cut into
    // windows of 8 steps each window holds one of them, which fits: nothing to write out, also
    // with no flow work at all; in one window, one of them goes (units of 60: one fits).
    ResidencyProblem p;
    p.type = "UB";
    p.capacity = 100;
    p.forced.assign(20, 0);
    p.gaps = {{0, 0, 15, 60, 120}, {1, 8, 19, 60, 120}};
    CHECK(relaxResidency(p).traffic == 120);
    CHECK(windowedRelaxation(p, 20, std::int64_t(1) << 40) == 120);
    CHECK(windowedRelaxation(p, 8) == 0);
    CHECK(windowedRelaxation(p, 8, 0) == 0);
    // Windows of 16: both start in the first, cut at step 16, and still overlap over steps 9-14.
    CHECK(windowedRelaxation(p, 16) == 120);
}

TEST_CASE("residency: a budget below a step's own buffers keeps nothing over that step") {
    ResidencyProblem p;
    p.type = "L1";
    p.capacity = 100;
    p.forced = {10, 0, 0, 10};
    p.gaps = {{0, 0, 3, 50, 100}};
    CHECK(chooseResidency(p).traffic == 0);
    std::vector<Bytes> budget = {100, 100, 40, 100};
    const ResidencyChoice c = chooseResidency(p, budget);
    CHECK(c.traffic == 100);
    CHECK(c.keep[0] == 0);
    CHECK(relaxResidency(p, budget).traffic == 100);
}

TEST_CASE("residency: the worked example of docs/policies.md") {
    const ResidencyProblem p = test::workedResidency();
    const Relaxation lp = relaxResidency(p);
    CHECK(lp.traffic == 20);
    CHECK(lp.kept == std::vector<Bytes>{60, 20});
    CHECK_FALSE(lp.integral);
    const ResidencyChoice choice = chooseResidency(p);
    CHECK(choice.traffic == 40);
    CHECK(choice.keep == std::vector<char>{1, 0});
    CHECK(choice.optimal);
}
