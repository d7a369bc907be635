// The cycles objective (docs/timing.md, "Plans that finish sooner"): the bytes objective's plan
// made to finish sooner under the pipe model (timing.h) while moving no more data than a stated
// margin above it. Its techniques, each switchable:
//   placement  time-aware placement: every buffer where the bytes were left earliest in
//              simulated time (ties by best fit), so that it waits for no one; in the L0
//              memories this alternates buffers, so the next one is filled while the current
//              one is read (double buffering)
//   fit        placement fit to need: each buffer on the bytes left latest by the time it is
//              needed (its first user could start), so the bytes left earlier stay for buffers
//              needed sooner (a reload waiting for room)
//   schedule   the order follows the simulated start times: a list scheduler runs next the node
//              that can start earliest, per pipe, keeping the order among equals
//   hoist      early reloads and loads: with schedule, a SPILL_IN or ALLOC (and so its COPY_IN)
//              moves ahead of earlier nodes as far as edges and bytes allow
//   swaps      the best plan scheduled again with two nodes in a row on one pipe swapped (where
//              the second waited for the first), each kept when it finishes sooner
//   policies   the other policies' plans of the same order are improved too, when they move no
//              more data than the margin allows (each places and spills differently)
//   reserve    spare room: the spills are chosen again with room kept free in a memory for loads
//              ahead (over the whole order, then over stretches from where the plan spills to its
//              last reload), when the data moved stays within the margin and the plan finishes sooner
//              (policies and reserve plan the order again: skipped on a huge graph, scale.h)
//   orders     the plans of the other orders order source "best" made (schedule, reuse, search)
//              as starts too, when they move no more data than the margin allows
//   search     with orders: the order search run again with 4 times its effort (a count), its
//              order and last runners-up planned as starts too, within the margin
//   headroom   with orders: that longer search with the memory spilled from most smaller by one
//              spilled buffer, its orders planned with the real capacity (the room left free
//              for loads to overlap) as starts too, within the margin
//   stagger    orders with each unit overlapping the one before by half (an accumulator's first
//              k-steps beside the last of the one before, where both fit their memory), so one
//              unit's loads run while the other computes: with orders, the order search run
//              again building its orders so; and the orders of the two plans that finished
//              soonest so far, staggered; each planned by every policy as starts, within the
//              margin (and with reserve's room, by the policy that finished soonest)
//   sequence   when the best plan's order is a staggered one: a local search over its sequence of
//              units, each unit swapped with the next in turn, each order planned by the best
//              plan's policy (room for a load kept free) and improved like a start; a swap kept
//              when it finishes no later, a plan when within the margin and sooner (an order
//              search scored by cycles; CyclesOptions::sequences orders)
//   retime     windows of the best plan's input order (32 positions) put in the order of their
//              simulated starts, each planned again and improved like a start; kept when within
//              the margin and sooner (an order search scored by cycles; windows counted)
// Every step keeps the plan valid and the result is verified like any other; budgets are counts
// (rounds), never time, so the plan is the same natively and in WebAssembly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cost.h"
#include "plan.h"
#include "schedule.h"

namespace spillway {

class ResidencyMemo;  // residency.h

enum class Objective { Bytes, Cycles };
// "bytes" | "cycles"; InputError (field "objective") otherwise.
Objective parseObjective(const std::string& name);
const char* objectiveName(Objective o);

enum class CyclesTechnique {
    Placement,
    Fit,
    Schedule,
    Hoist,
    Swaps,
    Policies,
    Reserve,
    Orders,
    Search,
    Headroom,
    Stagger,
    Sequence,
    Retime
};
struct CyclesTechniqueInfo {
    CyclesTechnique technique;
    const char* name;  // as `--disable` and the bindings' "disable" spell it
    const char* what;
};
const std::vector<CyclesTechniqueInfo>& cyclesTechniques();
// "placement,hoist": InputError (field "disable") naming an unknown one.
std::vector<CyclesTechnique> parseCyclesTechniques(const std::string& commaList);
CyclesTechnique cyclesTechnique(const std::string& name);  // InputError (field "disable")

struct Shortened;

struct CyclesOptions {
    std::vector<CyclesTechnique> disabled;
    int swaps = 1000;  // schedules tried by technique swaps at most (a count)
    // and plan nodes those schedules handle in all (each schedules the whole plan: a plan of n
    // nodes tries at most swapsWork / n pairs, so the technique's work does not grow with n^2)
    std::int64_t swapsWork = 5'000'000;
    int retimes = 512;       // windows technique retime plans at most, in all its passes (a count)
    int sequences = 128;     // orders technique sequence plans at most (a count)
    int rounds = 4;          // placement + schedule rounds from each start (a count, not a time)
    int marginPercent = 10;  // data moved may exceed the bytes plan's by this much (reserve)
    // Told after each start is improved: the starts improved so far and the fewest cycles yet
    // (it observes; the run goes on).
    std::function<void(std::int64_t starts, Cycles best)> progress;
    // Offered the best plan so far after each start while it is better than the last plan made
    // (the first: the bytes plan improved; one left unmade is offered again after the next
    // start); calling `make` builds it as shortenPlan would return it. It observes: the run and
    // its result are the same whether or not plans are made.
    std::function<void(const std::function<Shortened()>& make)> offerBest;
    bool enabled(CyclesTechnique t) const;
    // The most data a plan may move against the bytes plan's `bytesPlanBytes`: marginPercent more.
    Bytes allowedBytes(Bytes bytesPlanBytes) const;
};

// The room one load needs where `plan` spills the most data (ties: the first memory by name): as
// much as the smallest buffer it spills there. Techniques headroom and sequence keep it free.
struct LoadRoom {
    std::string type;
    Bytes bytes = 0;
};
// nullopt when `plan` spills nothing.
std::optional<LoadRoom> loadRoom(const Graph& g, const Plan& plan);
// `caps` with `room` taken from its memory; nullopt when a node's own buffers no longer fit.
std::optional<Capacities> capacitiesWithRoom(const Graph& g, const Capacities& caps, const LoadRoom& room);

// What the cycles objective made, and how the bytes plan it started from compares.
struct Shortened {
    Plan plan;
    Order inputOrder;         // plan.order without its spill nodes
    std::string orderSource;  // technique orders: the source of the order it came from, else ""
    Bytes bytesPlanExtraBytes = 0;
    Cycles bytesPlanCycles = 0;
    std::vector<std::string> steps;  // what each technique did, in order ("placement: 138666 -> 108915")
    // Whether the margin refused a start, a stretch or a window (it would move more data than
    // allowed): without that, any larger margin gives this plan again.
    bool marginLimited = false;
};

// Another order's plan, a start of technique orders.
struct OrderStart {
    std::string source;  // the order source that made the order
    std::string label;   // how the steps name it ("reuse", "search (runner-up from ...)")
    Order order;
    Plan plan;
};

// What shortenPlan remembers for its later calls on the same graph and cost model: the residency
// choices of its plans and the starts it improved. Compare's rows shorten plans of one order by
// several policies, whose starts and retimed windows repeat; a memo gives each call the result
// and work counts it would get alone, in less time. Its memory is bounded (ResidencyMemo,
// cycles.cpp's ImprovedStarts).
class CyclesMemo {
public:
    CyclesMemo();
    ~CyclesMemo();
    CyclesMemo(const CyclesMemo&) = delete;
    CyclesMemo& operator=(const CyclesMemo&) = delete;
    ResidencyMemo& residency();  // for the caller's own plans of the same graph
    struct Parts;
    Parts& parts() { return *parts_; }

private:
    std::unique_ptr<Parts> parts_;
};

// `plan` (made for `inputOrder` under `caps` and `cost` by policy plan.policy) made to finish
// sooner, `others` (plans of other orders) tried as starts too. The result is never slower than
// `plan` and moves at most marginPercent more data. With a `memo`, what earlier calls on the
// same graph and cost model found is not found again (the result is the same).
Shortened shortenPlan(const Graph& g, const Capacities& caps, const CostModel& cost, const Order& inputOrder,
                      const Plan& plan, const CyclesOptions& opts, const std::vector<OrderStart>& others = {},
                      CyclesMemo* memo = nullptr);

}  // namespace spillway
