#include "time_planning.h"

#include <algorithm>
#include <map>
#include <functional>
#include <optional>
#include <queue>
#include <set>
#include <tuple>

#include "spillway/error.h"
#include "spillway/free_list.h"

namespace spillway {
namespace {

// Offsets tried in one free range: its ends and where the leave times change, at most this many
// (a fragmented memory has many; the first ones by address are as good a sample as any).
constexpr size_t kMaxCandidatesPerRange = 32;
// A buffer placed while more than this many others are placed and still resident keeps its
// place: weighing the ranges they had would cost more than it gains.
constexpr size_t kMaxLaterNeighbours = 256;

// Each placing position's release position, and per memory the placing positions in order.
struct Stretches {
    std::vector<int> releaseAt;                        // by position of a placing node, else -1
    std::map<std::string, std::vector<int>> placings;  // memory -> positions of placing nodes
};

Stretches stretchesOf(const PlanNodes& nodes, const Graph& g, const Layout& in) {
    Stretches s;
    const int L = static_cast<int>(in.order.size());
    s.releaseAt.assign(L, -1);
    std::vector<int> open(g.buffers.size(), -1);
    for (int p = 0; p < L; ++p) {
        const int i = in.order[p];
        if (nodes.places(i)) {
            open[nodes.moved(i)] = p;
            s.placings[g.buffers[nodes.moved(i)].type].push_back(p);
        } else if (nodes.releases(i)) {
            s.releaseAt[open[nodes.moved(i)]] = p;
        }
    }
    return s;
}

// [start, end) ranges, sorted and merged.
std::vector<Hole> merged(std::vector<Hole> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const Hole& a, const Hole& b) { return a.start < b.start; });
    std::vector<Hole> out;
    for (const Hole& r : ranges) {
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}

// `free` minus `forbidden` (both sorted and disjoint).
std::vector<Hole> allowed(const std::vector<Hole>& free, const std::vector<Hole>& forbidden) {
    std::vector<Hole> out;
    size_t f = 0;
    for (const Hole& h : free) {
        Bytes at = h.start;
        while (f < forbidden.size() && forbidden[f].end <= at) ++f;
        for (size_t k = f; k < forbidden.size() && forbidden[k].start < h.end; ++k) {
            if (forbidden[k].start > at) out.push_back({at, forbidden[k].start});
            at = std::max(at, forbidden[k].end);
        }
        if (at < h.end) out.push_back({at, h.end});
    }
    return out;
}

// The offset in `ranges` where a buffer of `size` placed now starts soonest (the bytes left
// earliest), then whose bytes were left earliest, then in the smallest range (best fit), then
// the lowest. With `need` (fit to need): among the bytes left by `need`, those left latest
// (the earlier ones stay free for buffers needed sooner), then as above; else the earliest.
// nullopt when no range holds it.
std::optional<Bytes> earliestPlace(const PipeModel& model, int memory, Bytes size, Cycles ready,
                                   const std::vector<Hole>& ranges, std::optional<Cycles> need = std::nullopt) {
    const ByteLeaves* leaves = &model.leaves(memory);
    std::optional<std::tuple<Cycles, Cycles, Bytes, Bytes>> best;
    std::vector<Bytes> candidates;
    for (const Hole& r : ranges) {
        if (r.size() < size) continue;
        candidates = {r.start, r.end - size};
        if (leaves)
            leaves->forEachIn(r.start, r.end, [&](Bytes from, Bytes to, const ByteLeaves::Left&) {
                if (candidates.size() >= kMaxCandidatesPerRange) return;
                for (Bytes o : {from, to, from - size, to - size})
                    if (o >= r.start && o + size <= r.end) candidates.push_back(o);
            });
        for (Bytes o : candidates) {
            const Cycles left = leaves ? leaves->latest(o, o + size).time : 0;
            auto key = std::make_tuple(std::max(ready, left), left, r.size(), o);
            if (need)
                key = left <= *need ? std::make_tuple(Cycles{0}, -left, r.size(), o)
                                    : std::make_tuple(Cycles{1}, left, r.size(), o);
            if (!best || key < *best) best = key;
        }
    }
    if (!best) return std::nullopt;
    return std::get<3>(*best);
}

// For each placing node (by dense index), when its buffer is needed in the timing of `in`: when
// the buffer's first user could have started but for this node (the end of its other
// predecessors and of the node before it on its pipe), a SPILL_IN's own cycles earlier. -1 for
// other nodes and buffers nothing uses.
std::vector<Cycles> neededAt(const PlanNodes& nodes, const Graph& g, const Layout& in) {
    const Timing timing = timingOf(nodes, g, in);
    std::vector<Cycles> end(nodes.size(), 0), need(nodes.size(), -1);
    std::vector<int> waitingAlloc(g.buffers.size(), -1);  // the placing node whose buffer has no user yet
    std::vector<Cycles> pipeEnd(nodes.pipes(), 0);
    for (size_t p = 0; p < in.order.size(); ++p) {
        const int i = in.order[p];
        Cycles ready = nodes.pipe(i) > 0 ? pipeEnd[nodes.pipe(i)] : 0;
        for (int u : nodes.uses(i))
            if (waitingAlloc[u] >= 0) {
                Cycles other = ready;
                for (int pred : nodes.preds(i))
                    if (pred != waitingAlloc[u]) other = std::max(other, end[pred]);
                // A reload is needed its own cycles before its user.
                need[waitingAlloc[u]] = other - nodes.node(waitingAlloc[u]).cycles;
                waitingAlloc[u] = -1;
            }
        if (nodes.places(i))
            waitingAlloc[nodes.moved(i)] = i;
        else if (nodes.releases(i))
            waitingAlloc[nodes.moved(i)] = -1;
        end[i] = timing.nodes[p].end;
        if (nodes.pipe(i) > 0) pipeEnd[nodes.pipe(i)] = end[i];
    }
    return need;
}

}  // namespace

TimedLayout placeForTime(const PlanNodes& nodes, const Graph& g, const Capacities& caps, const Layout& in,
                         std::vector<PlacementNote>* notes, bool fitToNeed) {
    const int L = static_cast<int>(in.order.size());
    const Stretches stretches = stretchesOf(nodes, g, in);
    const std::vector<Cycles> need = fitToNeed ? neededAt(nodes, g, in) : std::vector<Cycles>{};
    // For each placing position: the old ranges of the buffers placed after it while it is still
    // resident (it must not take them), or none when it keeps its place.
    std::vector<std::vector<Hole>> forbidden(L);
    std::vector<char> keepsPlace(L, 0);
    for (const auto& [type, positions] : stretches.placings)
        for (size_t k = 0; k < positions.size(); ++k) {
            const int p = positions[k];
            std::vector<Hole> ranges;
            for (size_t q = k + 1; q < positions.size() && positions[q] < stretches.releaseAt[p]; ++q) {
                if (ranges.size() == kMaxLaterNeighbours) {
                    keepsPlace[p] = 1;
                    break;
                }
                const int j = in.order[positions[q]];
                ranges.push_back({in.offset[j], in.offset[j] + g.buffers[nodes.moved(j)].size});
            }
            forbidden[p] = merged(std::move(ranges));
        }

    std::map<std::string, FreeList> memories;
    for (const auto& [type, cap] : caps) memories.emplace(type, FreeList(cap));
    PipeModel model(g, nodes);
    Layout out = in;
    std::vector<Bytes> at(g.buffers.size(), 0);
    for (int p = 0; p < L; ++p) {
        const int i = in.order[p];
        if (!nodes.places(i)) {
            model.run(i);
            if (nodes.releases(i)) {
                const int b = nodes.moved(i);
                memories.at(g.buffers[b].type).release(at[b], g.buffers[b].size);
            }
            continue;
        }
        const int b = nodes.moved(i);
        const Buffer& buf = g.buffers[b];
        FreeList& memory = memories.at(buf.type);
        Bytes offset = in.offset[i];
        if (!keepsPlace[p]) {
            const std::vector<Hole> ranges = allowed(memory.holes(), forbidden[p]);
            const PipeModel::Ready ready = model.readyOf(i);
            const Cycles readyAt = std::max(ready.edge, ready.pipe);
            std::optional<Cycles> needAt;
            if (fitToNeed) needAt = need[i] >= 0 ? std::max(need[i], readyAt) : readyAt;
            const std::optional<Bytes> chosen =
                earliestPlace(model, nodes.memoryOf(b), buf.size, readyAt, ranges, needAt);
            if (!chosen)
                throw InternalError("time-aware placement: buffer " + std::to_string(buf.id) + " lost its place");
            offset = *chosen;
            if (notes) (*notes)[i] = {true, ranges, model.leftAt(nodes.memoryOf(b), offset, buf.size).time};
        }
        memory.take(offset, buf.size);
        at[b] = offset;
        out.offset[i] = offset;
        model.run(i, offset);
    }
    return {std::move(out), model.total()};
}

namespace {

// The plan's dependencies as a DAG over dense node indices: every arc goes forward in `in.order`.
struct Dag {
    Adjacency succ;
    std::vector<int> indegree;
};

Dag dependencies(const PlanNodes& nodes, const Graph& g, const Layout& in) {
    Dag d;
    d.indegree.assign(nodes.size(), 0);
    std::vector<std::pair<int, int>> arcs;
    auto arc = [&](int from, int to) {
        arcs.push_back({from, to});
        ++d.indegree[to];
    };
    std::vector<int> placer(g.buffers.size(), -1);
    std::vector<std::vector<int>> users(g.buffers.size());
    std::vector<Bytes> at(g.buffers.size(), 0);
    std::map<std::string, ByteLeaves> lastLeft;  // who left each byte last (node = dense index)
    for (size_t p = 0; p < in.order.size(); ++p) {
        const int i = in.order[p];
        for (int pred : nodes.preds(i)) arc(pred, i);
        const int b = nodes.moved(i);
        if (nodes.places(i)) {
            const Buffer& buf = g.buffers[b];
            std::vector<int> leavers;
            lastLeft[buf.type].forEachIn(in.offset[i], in.offset[i] + buf.size,
                                         [&](Bytes, Bytes, const ByteLeaves::Left& l) { leavers.push_back(l.node); });
            std::sort(leavers.begin(), leavers.end());
            leavers.erase(std::unique(leavers.begin(), leavers.end()), leavers.end());
            for (int leaver : leavers) arc(leaver, i);
            placer[b] = i;
            at[b] = in.offset[i];
        } else if (nodes.releases(i)) {
            arc(placer[b], i);
            for (int u : users[b]) arc(u, i);
            users[b].clear();
            const int step = static_cast<int>(p);
            lastLeft[g.buffers[b].type].leave(at[b], at[b] + g.buffers[b].size, {step, step, g.buffers[b].id, i});
        } else {
            for (int u : nodes.uses(i)) {
                if (placer[u] >= 0) arc(placer[u], i);
                users[u].push_back(i);
            }
        }
    }
    d.succ = Adjacency::fromArcs(nodes.size(), [&](auto&& add) {
        for (const auto& [from, to] : arcs) add(from, to);
    });
    return d;
}

// The nodes ready to run, by pipe (index 0: no pipe): those waiting for their data or bytes, by
// (time, rank), and, per pipe, those ready by the time it is free, by rank. next() takes the node
// that can start earliest, then the best rank: a list scheduler's choice.
class ReadyNodes {
public:
    explicit ReadyNodes(size_t pipes) : waiting_(pipes), available_(pipes), free_(pipes, 0) {}
    void add(int pipe, Cycles ready, int rank) { waiting_[pipe].push({ready, rank}); }
    // The rank of the node to run next and its start; then say when its pipe is free again.
    std::pair<int, Cycles> next() {
        std::pair<Cycles, int> best{0, -1};
        size_t from = 0;
        for (size_t q = 0; q < waiting_.size(); ++q) {
            auto& w = waiting_[q];
            if (q > 0)
                while (!w.empty() && w.top().first <= free_[q]) {
                    available_[q].push(w.top().second);
                    w.pop();
                }
            std::pair<Cycles, int> candidate;
            if (q > 0 && !available_[q].empty())
                candidate = {free_[q], available_[q].top()};
            else if (!w.empty())
                candidate = w.top();
            else
                continue;
            if (best.second < 0 || candidate < best) {
                best = candidate;
                from = q;
            }
        }
        if (best.second < 0) throw InternalError("time-aware schedule: no node can run");
        if (from > 0 && !available_[from].empty() && available_[from].top() == best.second)
            available_[from].pop();
        else
            waiting_[from].pop();
        return {best.second, best.first};
    }
    void pipeFreeAt(int pipe, Cycles t) {
        if (pipe > 0) free_[pipe] = t;
    }

private:
    template <typename T>
    using MinHeap = std::priority_queue<T, std::vector<T>, std::greater<T>>;
    std::vector<MinHeap<std::pair<Cycles, int>>> waiting_;  // by (time, rank); ranks are distinct
    std::vector<MinHeap<int>> available_;
    std::vector<Cycles> free_;
};

// The schedule backwards: from the end, each node as late as its successors and its pipe allow
// (a list scheduler on the reversed dependencies, latest in the order first among equals). Returns
// per node the cycles from its start to the end of that schedule: the work still to come after it,
// pipes included.
std::vector<Cycles> workAfter(const PlanNodes& nodes, const Layout& in, const Dag& dag) {
    const int L = static_cast<int>(in.order.size());
    std::vector<int> outdegree(nodes.size(), 0), rank(nodes.size(), 0);
    std::vector<std::vector<int>> pred(nodes.size());
    for (int i : in.order)
        for (int s : dag.succ[i]) {
            ++outdegree[i];
            pred[s].push_back(i);
        }
    std::vector<int> byRank(L);
    for (int p = 0; p < L; ++p) {
        rank[in.order[p]] = L - 1 - p;
        byRank[L - 1 - p] = in.order[p];
    }
    std::vector<Cycles> ready(nodes.size(), 0), end(nodes.size(), 0);
    ReadyNodes queue(static_cast<size_t>(nodes.pipes()));
    for (int i : in.order)
        if (outdegree[i] == 0) queue.add(nodes.pipe(i), 0, rank[i]);
    for (int n = 0; n < L; ++n) {
        const auto [r, start] = queue.next();
        const int i = byRank[r];
        end[i] = start + nodes.node(i).cycles;
        queue.pipeFreeAt(nodes.pipe(i), end[i]);
        for (int p : pred[i]) {
            ready[p] = std::max(ready[p], end[i]);
            if (--outdegree[p] == 0) queue.add(nodes.pipe(p), ready[p], rank[p]);
        }
    }
    return end;
}

// Ranks (lower first) of the nodes of `in.order` under a priority.
std::vector<int> ranksOf(const PlanNodes& nodes, const Layout& in, const Dag& dag, SchedulePriority priority) {
    const int L = static_cast<int>(in.order.size());
    std::vector<int> byRank(in.order.begin(), in.order.end());
    if (priority == SchedulePriority::Tail) {
        std::vector<Cycles> tail(nodes.size(), 0);
        for (int p = L - 1; p >= 0; --p) {
            const int i = in.order[p];
            Cycles after = 0;
            for (int s : dag.succ[i]) after = std::max(after, tail[s]);
            tail[i] = nodes.node(i).cycles + after;
        }
        std::stable_sort(byRank.begin(), byRank.end(), [&](int a, int b) { return tail[a] > tail[b]; });
    } else if (priority == SchedulePriority::Backward) {
        const std::vector<Cycles> after = workAfter(nodes, in, dag);
        std::stable_sort(byRank.begin(), byRank.end(), [&](int a, int b) { return after[a] > after[b]; });
    }
    std::vector<int> rank(nodes.size(), -1);
    for (int r = 0; r < L; ++r) rank[byRank[r]] = r;
    return rank;
}

}  // namespace

TimedLayout scheduleForTime(const PlanNodes& nodes, const Graph& g, const Layout& in, bool hoist,
                            SchedulePriority priority, const std::vector<int>* ranks) {
    const int L = static_cast<int>(in.order.size());
    Dag dag = dependencies(nodes, g, in);
    const std::vector<int> rank = ranks ? *ranks : ranksOf(nodes, in, dag, priority);
    std::vector<int> byRank(L);
    std::vector<int> pos(nodes.size(), -1);
    for (int p = 0; p < L; ++p) {
        byRank[rank[in.order[p]]] = in.order[p];
        pos[in.order[p]] = p;
    }

    ReadyNodes queue(static_cast<size_t>(nodes.pipes()));
    PipeModel model(g, nodes);
    auto offsetOf = [&](int i) { return std::max<Bytes>(0, in.offset[i]); };
    auto becomeReady = [&](int i) {
        const PipeModel::Ready r = model.readyOf(i, offsetOf(i));
        queue.add(nodes.pipe(i), std::max(r.edge, r.address), rank[i]);
    };
    std::vector<char> emitted(nodes.size(), 0), held(nodes.size(), 0);
    int frontier = 0;  // the first position of `in.order` not emitted yet
    for (int i : in.order)
        if (dag.indegree[i] == 0) {
            if (!hoist && nodes.places(i) && pos[i] > frontier)
                held[i] = 1;
            else
                becomeReady(i);
        }

    Layout out;
    out.offset = in.offset;
    out.order.reserve(L);
    for (int emittedCount = 0; emittedCount < L; ++emittedCount) {
        const int i = byRank[queue.next().first];
        const NodeTiming t = model.run(i, offsetOf(i));
        queue.pipeFreeAt(nodes.pipe(i), t.end);
        out.order.push_back(i);
        emitted[i] = 1;
        for (int s : dag.succ[i])
            if (--dag.indegree[s] == 0) {
                if (!hoist && nodes.places(s) && pos[s] > frontier)
                    held[s] = 1;
                else
                    becomeReady(s);
            }
        while (frontier < L && emitted[in.order[frontier]]) ++frontier;
        if (frontier < L && held[in.order[frontier]]) {
            held[in.order[frontier]] = 0;
            becomeReady(in.order[frontier]);
        }
    }
    return {std::move(out), model.total()};
}

}  // namespace spillway
