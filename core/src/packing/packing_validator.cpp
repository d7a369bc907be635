// Written apart from the packer on purpose: it rebuilds what each block occupies from the
// problem's own fields and compares pairs directly.
#include "spillway/packing_validator.h"

#include <algorithm>

#include "spillway/error.h"

namespace spillway::packing {
namespace {

// Bytes [low, high) held over times [begin, end).
struct Occupied {
    Time begin, end;
    Bytes low, high;
};

// What a block at `offset` holds over its lifetime, gap by gap.
std::vector<Occupied> occupiedBy(const Block& b, Bytes offset) {
    std::vector<Occupied> held;
    Time t = b.lower;
    for (const Gap& gap : b.gaps) {
        held.push_back({t, gap.lower, offset, offset + b.size});
        if (gap.window) held.push_back({gap.lower, gap.upper, offset + gap.window->lower, offset + gap.window->upper});
        t = gap.upper;
    }
    held.push_back({t, b.upper, offset, offset + b.size});
    held.erase(std::remove_if(held.begin(), held.end(), [](const Occupied& o) { return o.begin >= o.end; }),
               held.end());
    return held;
}

std::string name(size_t i) { return "block " + std::to_string(i); }

}  // namespace

const char* packingViolationKindName(PackingViolationKind kind) {
    switch (kind) {
        case PackingViolationKind::Count: return "count";
        case PackingViolationKind::Bounds: return "bounds";
        case PackingViolationKind::Alignment: return "alignment";
        case PackingViolationKind::Overlap: return "overlap";
    }
    return "?";
}

std::vector<PackingViolation> validatePacking(const Problem& problem, const std::vector<Bytes>& offsets, size_t limit) {
    std::vector<PackingViolation> out;
    auto report = [&](PackingViolationKind kind, std::string message) {
        if (out.size() < limit) out.push_back({kind, std::move(message)});
    };
    const size_t n = problem.blocks.size();
    if (offsets.size() != n) {
        report(PackingViolationKind::Count,
               std::to_string(offsets.size()) + " offsets for " + std::to_string(n) + " blocks");
        return out;
    }
    for (size_t i = 0; i < n; ++i) {
        const Block& b = problem.blocks[i];
        if (offsets[i] < 0 || offsets[i] > problem.capacity - b.size)
            report(PackingViolationKind::Bounds, name(i) + " at offset " + std::to_string(offsets[i]) + " with size " +
                                                     std::to_string(b.size) + " leaves the memory [0, " +
                                                     std::to_string(problem.capacity) + ")");
        if (b.alignment < 1 || offsets[i] % b.alignment != 0)
            report(PackingViolationKind::Alignment, name(i) + " at offset " + std::to_string(offsets[i]) +
                                                        " is not a multiple of its alignment " +
                                                        std::to_string(b.alignment));
    }
    std::vector<std::vector<Occupied>> held(n);
    std::vector<size_t> byStart(n);
    for (size_t i = 0; i < n; ++i) {
        held[i] = occupiedBy(problem.blocks[i], offsets[i]);
        byStart[i] = i;
    }
    std::sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
        return problem.blocks[a].lower != problem.blocks[b].lower ? problem.blocks[a].lower < problem.blocks[b].lower
                                                                  : a < b;
    });
    for (size_t x = 0; x < n; ++x) {
        const size_t i = byStart[x];
        for (size_t y = x + 1; y < n && problem.blocks[byStart[y]].lower < problem.blocks[i].upper; ++y) {
            const size_t j = byStart[y];
            // Over every moment both hold bytes, i must stay below j throughout, or above.
            bool shared = false, iBelow = true, jBelow = true;
            for (const Occupied& a : held[i])
                for (const Occupied& c : held[j]) {
                    if (std::max(a.begin, c.begin) >= std::min(a.end, c.end)) continue;
                    shared = true;
                    iBelow = iBelow && a.high <= c.low;
                    jBelow = jBelow && c.high <= a.low;
                }
            if (shared && !iBelow && !jBelow)
                report(PackingViolationKind::Overlap, name(std::min(i, j)) + " and " + name(std::max(i, j)) +
                                                          " share bytes while both are live (offsets " +
                                                          std::to_string(offsets[std::min(i, j)]) + " and " +
                                                          std::to_string(offsets[std::max(i, j)]) + ")");
        }
    }
    return out;
}

Result packValidated(const Problem& problem, const Options& options) {
    Result r = pack(problem, options);
    if (r.verdict == Verdict::Fits)
        if (std::vector<PackingViolation> v = validatePacking(problem, r.offsets, 1); !v.empty())
            throw InternalError("the packing failed validation: " + v.front().message);
    return r;
}

}  // namespace spillway::packing
