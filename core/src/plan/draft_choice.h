// Internal: the default's choice among candidate orders (engine.cpp): the order whose plan (or,
// on a huge graph, whose lifetime draft) moves the least data, ties to the first candidate. A plan
// costs seconds on large graphs (on a random graph the schedule order's falls back to seed's whole
// plan), a lower bound on the data an order must move (excessBound, residency.h) a tenth of a
// second on 10^6 nodes: an order whose bound shows it cannot beat the best plan so far (nor tie it
// from an earlier place) is not planned. The last candidate is planned first, without a bound: the
// candidates come in the order they were built to move less data (schedule, then reuse, whose
// scheduler follows a simulated cache, then the search that starts from both), so the last is the
// likely winner, against which the others are bounded. The choice and its plan are those of
// planning every candidate.
#pragma once
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "policies.h"
#include "spillway/residency.h"

namespace spillway {

// `Draft`: anything with extraBytes(), the data its plan moves.
template <typename Draft>
struct LeastMovingChoice {
    std::size_t index = 0;       // the candidate chosen
    std::optional<Draft> draft;  // its draft
    std::vector<char> drafted;   // per candidate: drafted (else its bound ruled it out)
};
using DraftChoice = LeastMovingChoice<LifetimeDraft>;

// A whole plan as a draft.
struct PlanDraft {
    Plan plan;
    Bytes bytes = 0;
    Bytes extraBytes() const { return bytes; }
};

// `mayBeat(bound, i, bestBytes, best)`: whether candidate i, which moves at least `bound` bytes,
// can still be chosen over candidate `best`, whose draft moves `bestBytes` (ties to the first).
inline bool mayBeat(Bytes bound, std::size_t i, Bytes bestBytes, std::size_t best) {
    return bound < bestBytes || (bound == bestBytes && i < best);
}

// `boundOf(i)`: a lower bound on the data candidate i's plan moves; `draftOf(i)`: its draft.
// Returns the candidate whose draft moves the least data (ties to the lower index), drafting the
// last first, then each other whose bound may beat the best draft so far.
template <typename BoundOf, typename DraftOf>
auto leastMovingDraft(std::size_t candidates, BoundOf&& boundOf, DraftOf&& draftOf) {
    LeastMovingChoice<std::decay_t<decltype(draftOf(std::size_t{0}))>> choice;
    choice.drafted.assign(candidates, 0);
    for (std::size_t k = 0; k < candidates; ++k) {
        const std::size_t i = k == 0 ? candidates - 1 : k - 1;
        if (choice.draft && !mayBeat(boundOf(i), i, choice.draft->extraBytes(), choice.index)) continue;
        auto draft = draftOf(i);
        choice.drafted[i] = 1;
        if (!choice.draft || mayBeat(draft.extraBytes(), i, choice.draft->extraBytes(), choice.index)) {
            choice.draft = std::move(draft);
            choice.index = i;
        }
    }
    return choice;
}

// The same for candidate orders of `g` planned with `opts`, each bounded by excessBound.
inline DraftChoice leastMovingDraft(const Graph& g, std::vector<Order> orders, const PlanOptions& opts) {
    return leastMovingDraft(
        orders.size(), [&](std::size_t i) { return excessBound(g, orders[i], opts.capacities); },
        [&](std::size_t i) { return LifetimeDraft(g, std::move(orders[i]), opts); });
}

}  // namespace spillway
