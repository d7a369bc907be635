// The order sources (`--order`, the bindings' "order" option): one list from which the CLI's
// help and option parsing, the bindings' orders(), compare's rows and the docs' table derive.
// An explicit order (a file, an array of ids) is the source "given", which is not in the list.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph.h"
#include "order_search.h"

namespace spillway {

struct OrderSourceInfo {
    std::string name;         // what --order and the options take
    std::string title;        // a short menu label
    std::string description;  // what it does, in a sentence or three
};

// Menu order; the first ("graph") is the default.
std::vector<OrderSourceInfo> orderSourceList();
bool isOrderSource(const std::string& name);
// "graph, id, schedule, ..." for messages and help.
std::string orderSourceNames();

class ScheduleDependencies;  // internal to the schedulers (core/src/order/ready_set.h)

// What making an order needs and returns (used by the engine).
struct OrderRequest {
    const GraphDocument& doc;
    const Capacities& capacities;
    std::int64_t effort = -1;                             // search sources: -1 for the default
    std::function<bool(const SearchProgress&)> progress;  // search sources: may stop early
    std::vector<std::pair<std::string, Order>> known;     // orders already made (the search scores them)
    int runnersUp = 0;                                    // search sources: runners-up to keep
    // schedule and reuse: their dependency lists of the graph by ascending id, when already built
    std::shared_ptr<const ScheduleDependencies> dependencies;
    SearchMemo* searchMemo = nullptr;  // search sources: scores shared between searches of the graph
    bool staggered = false;            // search sources: SearchOptions::staggered
};
struct MadeOrder {
    Order order;
    std::optional<SearchResult> search;  // when a search made it
};

// The order of a plain source (not "graph" or "best", which the engine resolves by planning).
// Throws InputError for an unknown name.
MadeOrder makeOrder(const std::string& source, const OrderRequest& request);

// The schedulers behind the sources "schedule" and "reuse".

// A topological order that keeps residency low (sub-problem 1 of the contest): it follows `hint`
// (e.g. ascending id) but runs each FREE as soon as its buffer's last user has run and each
// ALLOC just before the buffer's first user, so that no buffer is resident longer than its uses
// need. O(n log n).
Order scheduleForMemory(const Graph& g, const Order& hint);

// A topological order that moves less data under `caps` (the "reuse" order source): the same
// ALLOC/FREE placement as scheduleForMemory, but it chooses the next operations (a consumer and
// its unrun inputs) by the traffic a simulated per-memory cache says they would cause, ties to
// `hint`. Bounded work per step, deterministic.
Order scheduleForReuse(const Graph& g, const Order& hint, const Capacities& caps);

// The sources "best" plans and chooses among, and the ones compare() lists (besides "graph").
std::vector<std::string> bestOrderCandidates();
std::vector<std::string> comparedOrderSources();

}  // namespace spillway
