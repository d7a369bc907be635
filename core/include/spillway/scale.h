// One threshold for "a huge graph": above it the engine leaves out the work whose cost grows
// faster than n log n or that multiplies whole plans (docs/policies.md, "The default on huge
// graphs"): the order search among the default's candidate orders, every policy but `lifetime`
// under policy "best", and the cycles objective's replanning techniques (policies, reserve).
#pragma once
#include <cstddef>

namespace spillway {

inline constexpr std::size_t kHugeGraphNodes = 100'000;

inline bool isHugeGraph(std::size_t nodes) { return nodes > kHugeGraphNodes; }

}  // namespace spillway
