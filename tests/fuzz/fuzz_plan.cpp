// libFuzzer driver: plan + verify on generated graphs. The bytes choose a random graph (its
// size, shapes, memories, capacities) and the options (policy, order, cost model, objective);
// every plan must pass the independent verifier, claims included, and read back identically.
#include <algorithm>
#include <vector>

#include "fuzz_support.h"
#include "spillway/cycles.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"
#include "spillway/limits.h"

using namespace spillway;

namespace {

class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    // 0..bound-1; zeros once the input is used up. Four bytes, eight for a bound above 2^32 (a
    // capacity of up to limits::kMaxBytes squeezed by any amount).
    std::uint64_t next(std::uint64_t bound) {
        std::uint64_t v = 0;
        for (int i = 0, n = bound > (std::uint64_t{1} << 32) ? 8 : 4; i < n; ++i)
            v = (v << 8) | (at_ < size_ ? data_[at_++] : 0);
        return bound == 0 ? 0 : v % bound;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_, at_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    RandomGraphParams p;
    p.operations = 1 + static_cast<int>(in.next(60));
    p.maxReads = 1 + static_cast<int>(in.next(4));
    p.maxUsesPerBuffer = 1 + static_cast<int>(in.next(6));
    p.lateFreePercent = static_cast<int>(in.next(101));
    p.freesAtEnd = in.next(2);
    p.minBytes = 1 + static_cast<Bytes>(in.next(64));
    p.maxBytes = p.minBytes + static_cast<Bytes>(in.next(512));
    p.allocEdgePercent = static_cast<int>(in.next(101));
    p.bufferlessPercent = static_cast<int>(in.next(101));
    static const std::vector<std::string> names = {"L1", "UB", "L0A", "L0B", "L0C", "M x", "\xC3\xBC"};
    p.memories.clear();
    for (std::size_t i = 0, n = 1 + in.next(4); i < n; ++i) p.memories.push_back(names[in.next(names.size())]);
    for (const std::string& m : p.memories) p.capacities[m] = 8 + static_cast<Bytes>(in.next(2048));
    const std::uint64_t seed = in.next(1u << 31);
    RunOptions o;
    o.policy = policyNames()[in.next(policyNames().size())];
    static const char* kOrders[] = {"graph", "id", "schedule", "reuse", "best"};
    o.orderSource = kOrders[in.next(5)];
    o.cost = CostModel::parse(in.next(2) ? "seed" : "contest");
    o.cost.fixedLatency = static_cast<Cycles>(in.next(2) ? in.next(1000) : limits::kMaxFixedLatency);
    o.cost.cyclesPerByte = static_cast<Cycles>(in.next(2) ? in.next(8) : limits::kMaxCyclesPerByte);
    // Sizes and capacities times 2^0 .. 2^30, up to limits::kMaxBytes: past 2^31 and 2^32, where
    // 32-bit or product overflows would show. Read last, so that an input ending before it
    // decodes as it did without it (three of the corpus's four did).
    const int scale = static_cast<int>(in.next(31));
    const auto scaled = [&](Bytes bytes) { return std::min(limits::kMaxBytes, bytes << scale); };
    p.minBytes = scaled(p.minBytes);
    p.maxBytes = scaled(p.maxBytes);
    for (auto& [m, c] : p.capacities) c = scaled(c);
    std::string text;
    try {
        text = generateRandomGraph(seed, p);
    } catch (const InputError&) {
        return 0;  // parameters the generator refuses (a memory too small for a node's buffers)
    }
    // The graph's capacities, squeezed below what the generator allowed: memories too small for
    // a node are input errors, the rest must plan.
    GraphDocument doc = parseGraphDocument(text);
    Capacities caps = *doc.capacities;
    for (auto& [m, c] : caps) c = std::max<Bytes>(1, c - static_cast<Bytes>(in.next(static_cast<std::uint64_t>(c))));
    o.capacities = caps;
    // The cycles objective, at a margin of 0 to 1000% with any techniques disabled. Read last, so
    // that an input ending before it decodes as it did without it (and plans for the least data).
    if (in.next(2)) {
        o.objective = Objective::Cycles;
        o.cycles.marginPercent = static_cast<int>(in.next(2) ? in.next(101) : in.next(1001));
        const std::uint64_t off = in.next(std::uint64_t{1} << cyclesTechniques().size());
        for (std::size_t t = 0; t < cyclesTechniques().size(); ++t)
            if (off >> t & 1) o.cycles.disabled.push_back(cyclesTechniques()[t].technique);
    }
    fuzz::expectInputErrorAtMost([&] {
        const Result r = run(doc, o);
        const ResultFile back = readResultFile(resultToJson(doc.graph, r));
        if (back.plan.addedEdges != r.plan.addedEdges || back.plan.order != r.plan.order) std::abort();
        if (!verifyResultRecomputing(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty()) std::abort();
    });
    return 0;
}
