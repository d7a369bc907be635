// The independent verifier. It replays a plan against the graph and capacities and names every
// violation. It shares no code with the planner: it trusts nothing but the Graph model and the
// plan's ids, offsets and order.
#pragma once
#include <string>
#include <vector>

#include "plan.h"

namespace spillway {

struct Violation {
    // "order", "residency", "overlap", "bounds", "spill-pair", "spill-ids", "edges", "allocation"
    std::string kind;
    std::string message;  // names the node/buffer/step concerned
};

std::vector<Violation> verifyPlan(const Graph& g, const Capacities& caps, const Plan& plan);

}  // namespace spillway
