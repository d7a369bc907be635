// Shared helpers for the C++ tests.
//
// Test suite "long": tests whose time goes into planning the contest cases and the large examples
// (results, not new kinds of input). `npm test` runs them natively only: the sanitized build
// (CMakeLists.txt) runs the tests of reading, checking and timing, where everything is ~8 times
// slower, and fuzz_plan takes every policy and order source through the sanitizers.
#pragma once
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "spillway/error.h"
#include "spillway/json_io.h"
#include "spillway/verifier.h"

namespace spillway::test {

// The contest's graphs live in ../shared/cases on our machines and in CI, not in a user's clone:
// tests that need them say so and skip.
inline std::optional<std::string> sharedCase(const std::string& name) {
    std::ifstream in(std::string(SPILLWAY_SHARED_CASES) + "/" + name, std::ios::binary);
    if (!in) {
        MESSAGE("skipped: " << SPILLWAY_SHARED_CASES << "/" << name << " is absent (only our machines and CI have ../shared)");
        return std::nullopt;
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline const char* kSharedCases[] = {"Matmul_Case0.json", "FlashAttention_Case0.json", "Conv_Case0.json"};

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
