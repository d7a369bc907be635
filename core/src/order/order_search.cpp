#include "spillway/order_search.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>

#include "order_builder.h"
#include "order_cost.h"
#include "model/fingerprint.h"
#include "model/rng.h"
#include "spillway/error.h"
#include "spillway/order_sources.h"

namespace spillway {
namespace {

// Lower is better: the objective, then a tie-breaker that rewards less pressure.
struct Score {
    Bytes primary = 0, secondary = 0;
    bool operator<(const Score& o) const {
        return primary != o.primary ? primary < o.primary : secondary < o.secondary;
    }
    bool operator<=(const Score& o) const { return !(o < *this); }
};

constexpr int kMaxRun = 8;                         // slots moved together
constexpr int kMaxReverse = 32;                    // slots reversed together
constexpr std::int64_t kMinPatience = 50;          // evaluations without progress before giving up
constexpr size_t kMaxGrids = 2;                    // grids swept by the constructions (the largest)
constexpr std::int64_t kDefaultWork = 40'000'000;  // operations of scoring the default effort allows
// Work the constructions may spend, scoring included (each is an order of every node, scored):
// all of them on the contest cases (under 10^7), fewer where one scoring costs more, in their
// usual order. Counted like the default effort, so it bounds the real cost of a scoring, which
// grows faster than the graph where many long gaps contend.
constexpr std::int64_t kConstructionWork = 100'000'000;

// Unit models, coarse to fine: every chain links its operations; then only chains of buffers of
// at least 1/64, and 1/16, of their memory (see findUnits).
const std::pair<Bytes, const char*> kGranularities[] = {
    {0, "all chains"},
    {64, "chains of 1/64 memory"},
    {16, "chains of 1/16 memory"},
};

class Search {
public:
    Search(const Graph& g, const Order& hint, const SearchOptions& opts)
        : g_(g), hint_(hint), opts_(opts), cost_(g, opts.capacities), memo_(opts.memo ? *opts.memo : ownMemo_) {
        levels_.reserve(std::size(kGranularities));  // builders refer to their level's model: no moves
        for (const auto& [divisor, name] : kGranularities) {
            UnitModel model = findUnits(g, hint, opts.capacities, divisor);
            const bool same = std::any_of(levels_.begin(), levels_.end(),
                                          [&](const Level& l) { return l.model.unitOf == model.unitOf; });
            if (same) continue;  // no chain of that size: the same units as a coarser model
            levels_.push_back({name, std::move(model), nullptr, std::nullopt, {}});
            levels_.back().builder = std::make_unique<OrderBuilder>(g, hint, levels_.back().model);
            units_ = std::max(units_, levels_.back().model.units.size());
        }
    }

    SearchResult run() {
        // The other order sources' orders: the search never returns worse than them.
        std::vector<std::pair<std::string, Order>> known = opts_.known;
        if (known.empty()) {
            known.emplace_back("schedule", scheduleForMemory(g_, hint_));
            if (opts_.objective == SearchOptions::Objective::Traffic)
                known.emplace_back("reuse", scheduleForReuse(g_, hint_, opts_.capacities));
        }
        for (const auto& [name, order] : known) {
            label_ = name;
            // A staggered search scores them staggered (their units in the order they come).
            if (opts_.staggered)
                evaluate(slotsFollowing(nodesOf(order)));
            else
                scoreOf(nodesOf(order));
        }
        for (level_ = 0; level_ < levels_.size() && constructionsLeft(); ++level_) constructions();
        constructionCount_ = evaluations_;
        budget_ = opts_.effort >= 0 ? opts_.effort : defaultEffort();
        // The unit models improve their best starts, the best start first with half the effort,
        // then the others sharing what is left (including what an early stop did not use).
        std::vector<size_t> byStart(levels_.size());
        for (size_t i = 0; i < byStart.size(); ++i) byStart[i] = i;
        std::stable_sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
            return levels_[a].start && (!levels_[b].start || levels_[a].startScore < levels_[b].startScore);
        });
        const std::int64_t end = evaluations_ + budget_;
        for (size_t k = 0; k < byStart.size() && !stopped_; ++k) {
            level_ = byStart[k];
            const std::int64_t left = end - evaluations_;
            const std::int64_t share = k == 0 ? left / 2 : left / static_cast<std::int64_t>(byStart.size() - k);
            if (!model().units.empty() && levels_[level_].start)
                improve(share);  // a level may have had no construction left
        }
        report();
        SearchResult r;
        r.order = std::move(bestOrder_);
        r.score = best_.primary;
        r.evaluations = evaluations_;
        r.effort = budget_;
        r.start = bestStart_;
        r.runnersUp = std::move(runnersUp_);
        return r;
    }

private:
    // ---- scoring ----
    Score scoreOf(const std::vector<int>& nodes) {
        ++evaluations_;
        work_ += 2 * static_cast<std::int64_t>(nodes.size());  // building the order
        const Score s = remembered(nodes);
        if (!bestOrder_.empty() && !(s < best_)) return s;
        if (!bestOrder_.empty() && opts_.runnersUp > 0) {
            // The best so far becomes a runner-up (the most recent first, at most runnersUp).
            runnersUp_.insert(runnersUp_.begin(), {bestStart_, std::move(bestOrder_)});
            if (runnersUp_.size() > static_cast<size_t>(opts_.runnersUp)) runnersUp_.pop_back();
        }
        best_ = s;
        bestOrder_.clear();
        for (int v : nodes) bestOrder_.push_back(g_.nodes[v].id);
        bestStart_ = label_;
        return s;
    }
    Score scored(const std::vector<int>& nodes) {
        const OrderCost::Peaks peaks = cost_.peaks(nodes);
        if (opts_.objective == SearchOptions::Objective::Peak) return {peaks.total, peaks.sumOfMemories};
        return {cost_.traffic(nodes), peaks.total};
    }
    // The score from the memo when the order was scored before (moves often build an order met
    // already; a longer search meets a shorter one's orders again), its work counted again.
    Score remembered(const std::vector<int>& nodes) {
        Fingerprint f;
        f.add(static_cast<std::int64_t>(opts_.objective));
        for (const auto& [type, capacity] : opts_.capacities) f.addText(type), f.add(capacity);
        f.addAll(nodes);
        const Fingerprint::Value key = f.value();
        if (const ScoredOrder* known = memo_.find(key)) {
            work_ += known->work;
            return {known->primary, known->secondary};
        }
        const std::int64_t before = cost_.work();
        const Score s = scored(nodes);
        memo_.remember(key, {s.primary, s.secondary, cost_.work() - before});
        return s;
    }
    Score evaluate(const Slots& slots) {
        if (!opts_.staggered) return scoreOf(builder().build(slots));
        std::vector<int> units;
        for (const std::vector<int>& slot : slots) units.insert(units.end(), slot.begin(), slot.end());
        return scoreOf(builder().buildStaggered(units));
    }
    void tick() {
        if (opts_.progress && evaluations_ % kProgressEvery == 0 &&
            !opts_.progress({evaluations_, budget_ + constructionCount_, best_.primary}))
            stopped_ = true;
    }
    void report() {
        if (opts_.progress) opts_.progress({evaluations_, budget_ + constructionCount_, best_.primary});
    }

    // ---- constructions ----
    std::vector<int> nodesOf(const Order& order) const {
        std::vector<int> nodes;
        nodes.reserve(order.size());
        for (NodeId id : order) nodes.push_back(g_.nodeIndex.at(id));
        return nodes;
    }

    bool constructionsLeft() const { return work_ + cost_.work() < kConstructionWork; }

    void consider(const std::string& label, const Slots& slots) {
        if (!constructionsLeft()) return;
        Level& level = levels_[level_];
        label_ = level.name + ", " + label;
        const Score s = evaluate(slots);
        if (!level.start || s < level.startScore) {
            level.start = slots;
            level.startScore = s;
        }
    }

    void constructions() {
        Slots hint;
        for (int u = 0; u < static_cast<int>(model().units.size()); ++u) hint.push_back({u});
        consider("hint", hint);
        consider("hint, paired", paired(hint));
        consider("schedule", slotsFollowing(nodesOf(scheduleForMemory(g_, hint_))));
        const Slots greedy = greedyOverlap();
        consider("greedy", greedy);
        consider("greedy, paired", paired(greedy));
        // The largest grids only: each sweep reorders one grid, and a graph of many copies would
        // otherwise spend its constructions on them.
        for (size_t i = 0; i < model().grids.size() && i < kMaxGrids; ++i)
            gridSweeps(model().grids[i], static_cast<int>(i));
    }

    // Units in the order their first operation appears in `nodes`.
    Slots slotsFollowing(const std::vector<int>& nodes) const {
        Slots slots;
        std::vector<char> seen(model().units.size(), 0);
        for (int v : nodes) {
            const int u = model().unitOf[v];
            if (u >= 0 && !seen[u]) {
                seen[u] = 1;
                slots.push_back({u});
            }
        }
        return slots;
    }

    // Consecutive units share a slot while their spines fit together.
    Slots paired(const Slots& slots) const {
        Slots out;
        for (const auto& slot : slots)
            for (int u : slot) {
                if (!out.empty() && canShareSlot(model(), out.back(), u))
                    out.back().push_back(u);
                else
                    out.push_back({u});
            }
        return out;
    }

    // Next the unit whose shared inputs are most resident, residency modelled as the most
    // recently read shared buffers that fit each memory. Ties: hint order.
    Slots greedyOverlap() const {
        const int units = static_cast<int>(model().units.size());
        std::vector<std::vector<int>> inputs(units), readers(g_.buffers.size());
        for (int u = 0; u < units; ++u) {
            for (int v : model().units[u].ops)
                for (BufferId id : g_.nodes[v].bufs) {
                    const int b = g_.bufferIndex.at(id);
                    if (std::find(inputs[u].begin(), inputs[u].end(), b) == inputs[u].end()) inputs[u].push_back(b);
                }
            for (int b : inputs[u]) readers[b].push_back(u);
        }
        std::map<std::string, int> memoryIndex;
        for (size_t i = 0; i < model().memories.size(); ++i)
            memoryIndex.emplace(model().memories[i], static_cast<int>(i));
        std::vector<Bytes> score(units, 0), used(model().memories.size(), 0);
        std::vector<std::vector<int>> recent(model().memories.size());  // oldest first
        std::vector<char> placed(units, 0), resident(g_.buffers.size(), 0);
        auto setResident = [&](int b, bool on) {
            resident[b] = on;
            for (int u : readers[b]) score[u] += on ? g_.buffers[b].size : -g_.buffers[b].size;
        };
        Slots out;
        for (int step = 0; step < units; ++step) {
            int pick = -1;
            for (int u = 0; u < units; ++u)
                if (!placed[u] && (pick < 0 || score[u] > score[pick])) pick = u;
            placed[pick] = 1;
            out.push_back({pick});
            for (int b : inputs[pick]) {
                if (readers[b].size() < 2) continue;
                auto it = memoryIndex.find(g_.buffers[b].type);
                if (it == memoryIndex.end()) continue;
                auto& lru = recent[it->second];
                auto pos = std::find(lru.begin(), lru.end(), b);
                if (pos != lru.end())
                    lru.erase(pos);
                else {
                    setResident(b, true);
                    used[it->second] += g_.buffers[b].size;
                }
                lru.push_back(b);
                while (used[it->second] > model().capacity[it->second] && lru.size() > 1) {
                    const int old = lru.front();
                    lru.erase(lru.begin());
                    setResident(old, false);
                    used[it->second] -= g_.buffers[old].size;
                }
            }
        }
        return out;
    }

    // Block sweeps of a grid: R rows at a time, their units column by column, snaking (every
    // other block runs the columns backwards, every other column the rows) so that consecutive
    // units share a line; both orientations, every R, units alone or paired. The other units
    // follow the last grid unit they depend on.
    void gridSweeps(const Grid& grid, int index) {
        for (int orientation = 0; orientation < 2; ++orientation) {
            const auto& rows = orientation == 0 ? grid.rows : grid.columns;
            const auto& columns = orientation == 0 ? grid.columns : grid.rows;
            std::vector<int> rowOf(model().units.size(), -1), columnOf(model().units.size(), -1);
            for (size_t r = 0; r < rows.size(); ++r)
                for (int u : rows[r]) rowOf[u] = static_cast<int>(r);
            for (size_t c = 0; c < columns.size(); ++c)
                for (int u : columns[c]) columnOf[u] = static_cast<int>(c);
            for (size_t height = 1; height <= rows.size() && !stopped_ && constructionsLeft(); ++height) {
                std::vector<int> sweep;
                for (size_t first = 0, block = 0; first < rows.size(); first += height, ++block) {
                    const size_t last = std::min(rows.size(), first + height);
                    for (size_t ci = 0; ci < columns.size(); ++ci) {
                        const size_t c = block % 2 ? columns.size() - 1 - ci : ci;
                        std::vector<int> cell;
                        for (size_t r = first; r < last; ++r)
                            for (int u : rows[r])
                                if (columnOf[u] == static_cast<int>(c)) cell.push_back(u);
                        if (ci % 2) std::reverse(cell.begin(), cell.end());
                        sweep.insert(sweep.end(), cell.begin(), cell.end());
                    }
                }
                const Slots slots = withOthers(sweep);
                const std::string label = "grid " + std::to_string(index) + (orientation ? " transposed" : "") +
                                          ", blocks of " + std::to_string(height);
                consider(label, slots);
                consider(label + ", paired", paired(slots));
            }
        }
    }

    // `sweep` (some units) with every other unit inserted right after the last unit of `sweep`
    // it depends on (through any path), or first if none.
    Slots withOthers(const std::vector<int>& sweep) const {
        std::vector<int> at(model().units.size(), -1);
        for (size_t i = 0; i < sweep.size(); ++i) at[sweep[i]] = static_cast<int>(i);
        std::vector<int> key(g_.nodes.size(), -1);
        for (NodeId id : hint_) {  // topological: the latest swept unit above each node
            const int v = g_.nodeIndex.at(id);
            for (int p : g_.predecessors[v]) {
                key[v] = std::max(key[v], key[p]);
                const int u = model().unitOf[p];
                if (u >= 0 && at[u] >= 0) key[v] = std::max(key[v], at[u]);
            }
        }
        std::vector<std::pair<int, int>> others;  // (after, unit)
        std::vector<int> unitKey(model().units.size(), -1);
        for (size_t u = 0; u < model().units.size(); ++u) {
            if (at[u] >= 0) continue;
            for (int v : model().units[u].ops) unitKey[u] = std::max(unitKey[u], key[v]);
            others.emplace_back(unitKey[u], static_cast<int>(u));
        }
        std::stable_sort(others.begin(), others.end());
        Slots slots;
        size_t o = 0;
        for (int i = -1; i < static_cast<int>(sweep.size()); ++i) {
            if (i >= 0) slots.push_back({sweep[i]});
            for (; o < others.size() && others[o].first == i; ++o) slots.push_back({others[o].second});
        }
        return slots;
    }

    // The default effort: about kDefaultWork operations of scoring (counted, so deterministic;
    // the constructions tell what one evaluation costs on this graph), at most a hundred
    // evaluations per unit to order, and between 50 and 5000.
    std::int64_t defaultEffort() const {
        const std::int64_t perEvaluation =
            std::max<std::int64_t>(1, (work_ + cost_.work()) / std::max<std::int64_t>(1, evaluations_));
        const std::int64_t byUnits = 100 * static_cast<std::int64_t>(units_);
        // At least 50 unless one evaluation alone costs more than kDefaultWork / 50 (huge graphs).
        const std::int64_t floor = std::min<std::int64_t>(50, kDefaultWork / perEvaluation);
        return std::clamp<std::int64_t>(std::min(kDefaultWork / perEvaluation, byUnits), floor, 5000);
    }

    // ---- local search ----
    void improve(std::int64_t budget) {
        Slots current = *levels_[level_].start;
        Score currentScore = levels_[level_].startScore;
        label_ = levels_[level_].name + ", improved";
        if (current.size() < 2 || (best_.primary == 0 && opts_.objective == SearchOptions::Objective::Traffic)) return;
        Rng rng(0x5eed5eedULL);
        const std::int64_t end = evaluations_ + budget;
        Slots candidate;
        // Stops early after a quarter of the budget without a better order (a larger effort
        // waits longer, so it never ends worse). Moves that do not apply (a pair that does not
        // fit) cost no evaluation; bound them too.
        const std::int64_t patience = std::max<std::int64_t>(kMinPatience, budget_ / 4);
        std::int64_t lastImprovement = evaluations_;
        for (std::int64_t tries = 0; evaluations_ < end && !stopped_ && tries < 16 * budget; ++tries) {
            if (evaluations_ - lastImprovement > patience) break;
            candidate = current;
            if (!mutate(candidate, rng)) continue;
            const Score s = evaluate(candidate);
            tick();
            if (s.primary < currentScore.primary) lastImprovement = evaluations_;
            if (s <= currentScore) {  // sideways moves too: plateaus are wide
                current.swap(candidate);
                currentScore = s;
            }
        }
    }

    // A position near i most of the time, anywhere sometimes.
    int near(int i, int n, Rng& rng) {
        if (rng.choose(4) == 0) return rng.choose(n);
        const int span = 1 + rng.choose(16);
        return std::clamp(i + rng.choose(2 * span + 1) - span, 0, n - 1);
    }

    bool mutate(Slots& s, Rng& rng) {
        const int n = static_cast<int>(s.size());
        if (n < 2) return false;
        const int i = rng.choose(n);
        switch (rng.choose(6)) {
            case 0: {  // move a run of slots
                const int len = std::min(n - i, 1 + rng.choose(kMaxRun));
                std::vector<std::vector<int>> run(s.begin() + i, s.begin() + i + len);
                s.erase(s.begin() + i, s.begin() + i + len);
                const int j = near(i, static_cast<int>(s.size()) + 1, rng);
                s.insert(s.begin() + j, run.begin(), run.end());
                return j != i;
            }
            case 1: {  // swap two slots
                const int j = near(i, n, rng);
                if (i == j) return false;
                std::swap(s[i], s[j]);
                return true;
            }
            case 2: {  // reverse a run
                const int j = std::min(n - 1, i + 1 + rng.choose(kMaxReverse));
                std::reverse(s.begin() + i, s.begin() + j + 1);
                return true;
            }
            case 3: {  // pair: move a unit into a nearby slot it can share
                const int j = near(i, n, rng);
                if (i == j || s[i].size() != 1 || !canShareSlot(model(), s[j], s[i][0])) return false;
                s[j].push_back(s[i][0]);
                s.erase(s.begin() + i);
                return true;
            }
            case 4: {  // unpair: a unit leaves its slot, to run right before or after it
                if (s[i].size() < 2) return false;
                const int k = rng.choose(static_cast<int>(s[i].size()));
                const int u = s[i][k];
                s[i].erase(s[i].begin() + k);
                s.insert(s.begin() + i + rng.choose(2), std::vector<int>{u});
                return true;
            }
            default: {  // swap units between two slots
                const int j = near(i, n, rng);
                if (i == j) return false;
                const int a = rng.choose(static_cast<int>(s[i].size())), b = rng.choose(static_cast<int>(s[j].size()));
                std::swap(s[i][a], s[j][b]);
                return true;
            }
        }
    }

    // A unit model with the builder for it and its best construction.
    struct Level {
        std::string name;
        UnitModel model;
        std::unique_ptr<OrderBuilder> builder;
        std::optional<Slots> start;
        Score startScore;
    };
    const UnitModel& model() const { return levels_[level_].model; }
    OrderBuilder& builder() { return *levels_[level_].builder; }

    const Graph& g_;
    const Order& hint_;
    const SearchOptions& opts_;
    std::vector<Level> levels_;
    size_t level_ = 0;
    OrderCost cost_;
    SearchMemo ownMemo_;  // when the caller gives none
    SearchMemo& memo_;
    std::int64_t budget_ = 0, evaluations_ = 0, constructionCount_ = 0;
    bool stopped_ = false;
    std::string label_;
    Score best_;
    Order bestOrder_;
    std::string bestStart_;
    std::vector<std::pair<std::string, Order>> runnersUp_;
    size_t units_ = 0;       // of the largest unit model
    std::int64_t work_ = 0;  // building orders (scoring counts its own)
};

}  // namespace

SearchResult searchOrder(const Graph& g, const Order& hint, const SearchOptions& opts) {
    return Search(g, hint, opts).run();
}

// Each unit's operations by id: in an order a schedule may have run some early (a MOVE of the
// next k-step), and they would join the wrong beat.
struct StaggeredOrders::Parts {
    Parts(const Graph& g, const Capacities& caps)
        : byId(orderById(g)), model(findUnits(g, byId, caps)), builder(g, byId, model) {}
    const Order byId;
    const UnitModel model;
    mutable OrderBuilder builder;  // reused by every build: its buffers are sized once
};

StaggeredOrders::StaggeredOrders(const Graph& g, const Capacities& caps)
    : g_(g), parts_(std::make_unique<Parts>(g, caps)) {}
StaggeredOrders::~StaggeredOrders() = default;

std::vector<int> StaggeredOrders::sequenceOf(const Order& order) const {
    const UnitModel& model = parts_->model;
    std::vector<int> position(g_.nodes.size());
    for (size_t p = 0; p < order.size(); ++p) position[g_.nodeIndex.at(order[p])] = static_cast<int>(p);
    const auto firstStep = [&](int u) {
        const Unit& unit = model.units[u];
        return position[unit.ops[unit.beats.empty() ? 0 : unit.beats.front() - 1]];
    };
    std::vector<int> sequence(model.units.size());
    for (size_t u = 0; u < sequence.size(); ++u) sequence[u] = static_cast<int>(u);
    std::sort(sequence.begin(), sequence.end(), [&](int a, int b) { return firstStep(a) < firstStep(b); });
    return sequence;
}

Order StaggeredOrders::build(const std::vector<int>& sequence, bool holdFrees) const {
    Order out;
    out.reserve(g_.nodes.size());
    for (int v : parts_->builder.buildStaggered(sequence, holdFrees)) out.push_back(g_.nodes[v].id);
    return out;
}

Order staggeredOrder(const Graph& g, const Order& order, const Capacities& caps) {
    const StaggeredOrders orders(g, caps);
    return orders.build(orders.sequenceOf(order), false);
}

}  // namespace spillway
