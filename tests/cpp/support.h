// Shared helpers for the C++ tests.
//
// Test suite "long": tests whose time goes into planning the contest cases and the large examples
// (results, not new kinds of input). `npm test` runs them natively only: the sanitized build
// (CMakeLists.txt) runs the tests of reading, checking and timing, where everything is ~8 times
// slower, and fuzz_plan takes every policy and order source through the sanitizers.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "spillway/engine.h"
#include "spillway/error.h"
#include "spillway/json_io.h"
#include "spillway/residency.h"
#include "spillway/verifier.h"

namespace spillway::test {

// The contest's graphs live in ../shared/cases on our machines and in CI, not in a user's clone:
// tests that need them say so and skip.
inline std::optional<std::string> sharedCase(const std::string& name) {
    std::ifstream in(std::string(SPILLWAY_SHARED_CASES) + "/" + name, std::ios::binary);
    if (!in) {
        MESSAGE("skipped: " << SPILLWAY_SHARED_CASES << "/" << name
                            << " is absent (only our machines and CI have ../shared)");
        return std::nullopt;
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline const char* kSharedCases[] = {"Matmul_Case0.json", "FlashAttention_Case0.json", "Conv_Case0.json"};

// docs/timing.md's worked example: two loads share MTE2, an ADD joins them, and the next L1
// buffer is placed over the bytes the first one left.
inline constexpr const char* kWorkedExample = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"ALLOC","BufId":1,"Size":50,"Type":"UB"},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":20,"Bufs":[1]},
 {"Id":4,"Op":"ADD","Pipe":"VECTOR","Cycles":5,"Bufs":[0,1]},
 {"Id":5,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"},
 {"Id":6,"Op":"ALLOC","BufId":2,"Size":100,"Type":"L1"},
 {"Id":7,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[2]},
 {"Id":8,"Op":"FREE","BufId":1,"Size":50,"Type":"UB"},
 {"Id":9,"Op":"FREE","BufId":2,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,4],[2,3],[3,4],[4,5],[4,8],[6,7],[7,9]],
 "Order":[0,1,2,3,4,5,6,7,8,9],
 "Capacities":{"L1":100,"UB":50}})";

// Capacities between the largest need of one node and the whole demand (3/2, 4/2 or 5/2 of that
// need by `seed`): random graphs spill in them.
// docs/policies.md's worked residency problem: L1 = 100, 10 forced bytes at every step; p (60
// bytes, not from a COPY_IN: 120 bytes of traffic) idle over steps 2-5, q (40 bytes, a COPY_IN's:
// 40) idle over steps 3-8.
inline ResidencyProblem workedResidency() {
    ResidencyProblem p;
    p.type = "L1";
    p.capacity = 100;
    p.forced.assign(10, 10);
    p.gaps = {{0, 1, 6, 60, 120}, {1, 2, 9, 40, 40}};
    return p;
}

inline Capacities tightCapacities(const Graph& g, std::uint64_t seed) {
    Capacities caps;
    for (const Node& n : g.nodes) {
        std::map<std::string, Bytes> need;
        for (BufferId id : g.buffersOf(n)) need[g.buffer(id).type] += g.buffer(id).size;
        for (auto& [type, bytes] : need) caps[type] = std::max(caps[type], bytes);
    }
    for (auto& [type, cap] : caps) cap = cap * (3 + seed % 3) / 2;
    return caps;
}

// Where two long texts (result files) first differ, with what each holds there; empty when they
// are equal. A failing CHECK on it prints a line instead of megabytes.
inline std::string firstDifference(const std::string& a, const std::string& b) {
    const size_t common = std::min(a.size(), b.size());
    size_t at = 0;
    while (at < common && a[at] == b[at]) ++at;
    if (at == common && a.size() == b.size()) return "";
    const size_t from = at < 40 ? 0 : at - 40;
    return "at character " + std::to_string(at) + ": \"" + a.substr(from, 100) + "\" against \"" + b.substr(from, 100) +
           "\"";
}

// Byte-level mutations of a text for the fuzz-like tests: 1 to 3 edits, each a deletion (1-4
// bytes), a duplication of a piece of the text (1 to `maxCopy` bytes) or a byte replaced by one of
// `alphabet`. Deterministic from `seed` (a linear congruential generator).
class Mutator {
public:
    Mutator(std::uint64_t seed, std::string alphabet, size_t maxCopy)
        : state_(seed), alphabet_(std::move(alphabet)), maxCopy_(maxCopy) {}

    std::string operator()(std::string text) {
        for (int m = 0, edits = 1 + static_cast<int>(next(3)); m < edits && !text.empty(); ++m) {
            const size_t at = next(text.size());
            switch (next(3)) {
                case 0: text.erase(at, 1 + next(4)); break;
                case 1: text.insert(at, text.substr(next(text.size()), 1 + next(maxCopy_))); break;
                default: text[at] = alphabet_[next(alphabet_.size())]; break;
            }
        }
        return text;
    }

private:
    size_t next(std::uint64_t bound) {
        state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<size_t>((state_ >> 33) % bound);
    }

    std::uint64_t state_;
    std::string alphabet_;
    size_t maxCopy_;
};

// The message of the InputError that `f` throws; fails the test if it throws none.
template <typename F>
std::string inputErrorOf(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("expected an InputError");
    return "";
}

// The seed policy on ascending id: tests of the seed's own decisions use these options.
inline RunOptions seedById() {
    RunOptions o;
    o.policy = "seed";
    o.orderSource = "id";
    return o;
}

inline GraphDocument parse(const std::string& text) { return parseGraphDocument(text); }

// Runs the engine (which itself refuses unverified plans) and re-verifies the plan here too.
inline Result planVerified(const GraphDocument& doc, const RunOptions& opts = {}) {
    Result r = run(doc, opts);
    auto violations = verifyResult(doc.graph, r.capacities, r.cost, r.plan, claimsOf(r));
    CHECK_MESSAGE(violations.empty(), (violations.empty() ? "" : violations.front().message));
    return r;
}

}  // namespace spillway::test
