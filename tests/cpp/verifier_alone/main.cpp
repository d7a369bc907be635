// Links against spillway_verify and spillway_model only (CMakeLists.txt): that this program
// builds is the proof that the verifier needs nothing of the planners, schedulers or timing. It
// also checks that the verifier, alone, accepts a right plan and rejects a wrong one.
#include <cstdio>

#include "spillway/verifier.h"

using namespace spillway;

int main() {
    Graph g;
    Node alloc;
    alloc.id = 0;
    alloc.op = kAlloc;
    alloc.buf = 0;
    alloc.size = 64;
    alloc.type = "UB";
    Node use;
    use.id = 1;
    use.op = "ADD";
    use.pipe = "VECTOR";
    use.cycles = 5;
    use.bufs = {0};
    Node free = alloc;
    free.id = 2;
    free.op = kFree;
    g.nodes = {alloc, use, free};
    g.edges = {{0, 1}, {1, 2}};
    finalizeGraph(g);

    Plan plan;
    plan.allocations = {{0, "UB", 0, 64}};
    plan.order = {0, 1, 2};
    const Capacities caps = {{"UB", 64}};
    ResultClaims claims;
    claims.inputOrder = {0, 1, 2};
    claims.demandPeakByType = {{"UB", 64}};
    claims.demandPeakTotal = 64;
    claims.residentPeak = {{"UB", 64}};
    claims.totalCycles = 5;
    claims.timing = {{0, 0, 0}, {1, 0, 5}, {2, 5, 5}};
    const auto good = verifyResult(g, caps, CostModel{}, plan, claims);
    claims.totalCycles = 4;
    const auto lie = verifyResult(g, caps, CostModel{}, plan, claims);
    if (!good.empty()) {
        std::printf("verifier alone: a right plan was rejected: %s\n", good.front().message.c_str());
        return 1;
    }
    if (lie.size() != 1 || lie.front().kind != ViolationKind::Metrics) {
        std::printf("verifier alone: a falsified totalCycles was not caught\n");
        return 1;
    }
    std::printf("verifier alone: ok (%s: %s)\n", violationKindName(lie.front().kind), lie.front().message.c_str());
    return 0;
}
