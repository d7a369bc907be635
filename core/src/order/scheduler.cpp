#include "ready_set.h"
#include "spillway/order_sources.h"

namespace spillway {

// The earliest ready operation in hint order. (Choosing by memory growth instead was measured
// worse on every contest case: it runs MOVEs early for work far ahead, filling the small L0
// memories; see docs/policies.md.)
Order scheduleForMemory(const Graph& g, const Order& hint) { return scheduleForMemory(ScheduleDependencies(g, hint)); }

Order scheduleForMemory(const ScheduleDependencies& deps) {
    ReadySet ready(deps);
    auto noop = [](int) {};
    ready.start(noop);
    while (!ready.finished()) {
        if (ready.eligible().empty()) throw InternalError("scheduler: no node can run (cycle?)");
        ready.run(ready.eligible().begin()->second, noop);
    }
    return ready.takeOrder();
}

}  // namespace spillway
