// Internal: the default's choice among candidate orders on a huge graph (engine.cpp,
// prepareHugeDefault; docs/policies.md, "The default on huge graphs"): the order whose lifetime
// draft moves the least data, ties to the first candidate. A draft costs seconds on 10^6 nodes
// (on a random graph the schedule order's falls back to seed's whole plan), a lower bound on the
// data an order must move (excessBound, residency.h) a tenth of a second: an order whose bound
// shows it cannot beat the best draft so far (nor tie it from an earlier place) is not drafted.
// The last candidate is drafted first, without a bound: the candidates come in the order they
// were built to move less data (schedule, then reuse, whose scheduler follows a simulated cache),
// so the last is the likely winner, against which the others are bounded. The choice and its
// draft are those of drafting every candidate.
#pragma once
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "policies.h"
#include "spillway/residency.h"

namespace spillway {

struct DraftChoice {
    std::size_t index = 0;              // the candidate chosen
    std::optional<LifetimeDraft> draft;  // its draft
    std::vector<char> drafted;          // per candidate: drafted (else its bound ruled it out)
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
DraftChoice leastMovingDraft(std::size_t candidates, BoundOf&& boundOf, DraftOf&& draftOf) {
    DraftChoice choice;
    choice.drafted.assign(candidates, 0);
    for (std::size_t k = 0; k < candidates; ++k) {
        const std::size_t i = k == 0 ? candidates - 1 : k - 1;
        if (choice.draft && !mayBeat(boundOf(i), i, choice.draft->extraBytes(), choice.index)) continue;
        LifetimeDraft draft = draftOf(i);
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
