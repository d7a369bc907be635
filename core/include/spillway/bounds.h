// What a lower bound says, as data: computed by residency.h (bytes) and cycles_bound.h (cycles),
// written in every result's metrics, and read back from a result as claims the verifier checks
// (verifier.h), which is why these live apart from the code that computes them.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "graph.h"

namespace spillway {

// No plan of an order moves less data (residency.h, trafficLowerBound): per memory and in all.
struct TrafficBound {
    Bytes total = 0;
    std::map<std::string, Bytes> byType;
    bool exact = true;  // false: a weaker bound (work budget out, or windows on huge graphs)
};

// No plan of a set finishes sooner (cycles_bound.h).
struct CyclesBound {
    Cycles total = 0;   // the largest of criticalPath and each pipe's bound
    std::string limit;  // what gives total: a pipe's name, or "critical path"
    Cycles criticalPath = 0;
    struct Pipe {
        std::string name;
        Cycles busy = 0;   // the cycles of its nodes (and of the spill work assumed)
        Cycles bound = 0;  // busy with the shortest head before and tail after
    };
    std::vector<Pipe> pipes;  // by name
};

// What gives a CyclesBound its total when the critical path does.
inline constexpr const char* kCriticalPathLimit = "critical path";

// The three sets of plans a result bounds (cycles_bound.h): re-scheduling this plan's spills,
// any plan of its input order, any plan of the graph.
struct CyclesBounds {
    CyclesBound plan, order, graph;
};

// Every lower bound a result states (metrics.bound, metrics.cyclesBound).
struct LowerBounds {
    TrafficBound bytes;
    CyclesBounds cycles;
};

}  // namespace spillway
