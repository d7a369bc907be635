// The independent packing validator (packing_validator.h): each rule caught on its own.
#include "spillway/packing_validator.h"
#include "support.h"

using namespace spillway::packing;
using spillway::Bytes;

namespace {
std::vector<std::string> kinds(const Problem& p, const std::vector<Bytes>& offsets) {
    std::vector<std::string> out;
    for (const PackingViolation& v : validatePacking(p, offsets)) out.push_back(packingViolationKindName(v.kind));
    return out;
}
using Kinds = std::vector<std::string>;
}  // namespace

TEST_CASE("packing validator: accepts a packing and catches overlap, bounds, alignment and count") {
    const Problem p{{Block{0, 4, 4, 1, {}}, Block{2, 6, 4, 2, {}}, Block{4, 8, 4, 1, {}}}, 12};
    // Blocks that never share a moment may share bytes; [0,4) and [4,8) are half-open.
    CHECK(kinds(p, {0, 4, 0}).empty());
    const std::vector<PackingViolation> overlap = validatePacking(p, {0, 2, 6});
    REQUIRE(overlap.size() == 1);
    CHECK(overlap[0].kind == PackingViolationKind::Overlap);
    CHECK(overlap[0].message == "block 0 and block 1 share bytes while both are live (offsets 0 and 2)");
    CHECK(kinds(p, {0, 4, 5}) == Kinds{"overlap"});
    CHECK(kinds(p, {0, 4, 9}) == Kinds{"bounds"});
    CHECK(kinds(p, {-1, 4, 0}) == Kinds{"bounds"});
    CHECK(validatePacking(p, {0, 3, 0}).front().message == "block 1 at offset 3 is not a multiple of its alignment 2");
    CHECK(kinds(p, {0, 4}) == Kinds{"count"});
}

TEST_CASE("packing validator: gaps free bytes; a window keeps its bytes; one block stays below the other") {
    // a holds nothing during [2, 4): b can use a's bytes then.
    Problem p{{Block{0, 6, 4, 1, {Gap{2, 4, std::nullopt}}}, Block{2, 4, 4, 1, {}}}, 4};
    CHECK(kinds(p, {0, 0}).empty());
    // With a window [1, 3) a keeps bytes 1 and 2 of itself: b (2 bytes) fits below it at 0
    // only if it stays below a over all their shared time, which the window allows.
    p.blocks[0].gaps[0].window = Window{1, 3};
    p.blocks[1].size = 1;
    CHECK(kinds(p, {0, 0}).empty());   // b at byte 0, under a's window
    CHECK(kinds(p, {0, 3}).empty());   // b at byte 3, above a's window
    CHECK(kinds(p, {0, 1}) == Kinds{"overlap"});
    // Live at several moments, a block must stay on one side of another throughout.
    Problem two{{Block{0, 6, 2, 1, {Gap{2, 4, Window{0, 1}}}}, Block{0, 6, 2, 1, {Gap{2, 4, Window{1, 2}}}}}, 4};
    CHECK(kinds(two, {0, 2}).empty());
    CHECK(kinds(two, {0, 1}) == Kinds{"overlap"});
}

TEST_CASE("packing validator: reports at most the limit") {
    Problem p;
    p.capacity = 4;
    for (int i = 0; i < 30; ++i) p.blocks.push_back(Block{0, 1, 4, 1, {}});
    CHECK(validatePacking(p, std::vector<Bytes>(30, 0)).size() == 20);
    CHECK(validatePacking(p, std::vector<Bytes>(30, 0), 3).size() == 3);
}
