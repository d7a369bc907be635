// The "reuse" order source: a list scheduler that keeps the dependency bookkeeping of
// scheduleForMemory (ALLOC pulled just before the first user, FREE as soon as it is ready) but
// chooses the next operations by the data they would make the planner move. It simulates one
// cache per memory with its capacity: a buffer is fresh (not yet written), resident, evicted or
// freed. Running an operation makes its buffers resident; a memory over capacity evicts, by a
// proxy of Belady, the buffer whose earliest unrun user comes last in the hint order (COPY_IN
// buffers, which cost half to write out, count double distance), never one of the running
// operation's buffers.
//
// Each step considers a bounded set of targets: the consumers (up to two levels down) of the
// first eligible operations in hint order and of the buffers now resident. A target is run
// together with its unrun ancestors (its closure, bounded in size and depth), so that a choice is
// costed by everything the consumer needs, not only by the cheap first operation (a MOVE of a hot
// tile that commits to a chain whose other inputs are cold). The cost of a closure is the traffic
// of the evicted buffers it reloads plus the estimated traffic of what it pushes out beyond
// capacity, divided by its number of operations; the cheapest runs, ties to the hint order (then
// the larger closure). A closure whose target feeds operations that cannot run yet (a MOVE whose
// MATMUL still waits for an earlier one) is only chosen when no complete one exists, so that the
// small memories do not fill with work far ahead. Work per step is bounded by the candidate and
// closure bounds and the number of resident buffers; closures are remembered from step to step
// while nothing they read changes (currentClosure), which chooses the same but finds few afresh.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>

#include "ready_set.h"
#include "spillway/order_sources.h"

namespace spillway {
namespace {

constexpr int kEligibleSeeds = 24;  // first eligible operations (hint order) seeding targets
constexpr int kResidentSeeds = 48;  // resident buffers whose next users seed targets
constexpr int kFanout = 3;          // successors followed per level
constexpr int kMaxClosure = 12;     // operations in one closure
constexpr int kMaxDepth = 3;
constexpr int kClosureSlotBits = 14;  // closures remembered across steps, by target (16,384 slots)

enum class State : char { Fresh, Resident, Evicted, Freed };

class ReuseScheduler {
public:
    ReuseScheduler(const Graph& g, const ScheduleDependencies& deps, const Capacities& caps, bool checkRemembered)
        : g_(g), n_(static_cast<int>(g.nodes.size())), ready_(deps), checkRemembered_(checkRemembered) {
        opSucc_ = Adjacency::fromArcs(n_, [&](auto&& add) {
            for (int v = 0; v < n_; ++v)
                for (int s : ready_.successors(v))
                    if (ready_.isOperation(s)) add(v, s);
        });
        buildBuffers(caps);
        triedStep_.assign(n_, 0);
        changed_.assign(n_, 0);
        closures_.resize(size_t{1} << kClosureSlotBits);
    }

    Order run() {
        ready_.start(release_);
        while (!ready_.finished()) {
            if (ready_.eligible().empty()) throw InternalError("reuse scheduler: no node can run (cycle?)");
            runClosure(pickClosure());
        }
        return ready_.takeOrder();
    }

private:
    void buildBuffers(const Capacities& caps) {
        const int nb = static_cast<int>(g_.buffers.size());
        state_.assign(nb, State::Fresh);
        memOf_.resize(nb);
        size_.resize(nb);
        copyIn_.resize(nb);
        unrun_.resize(nb);
        next_.assign(nb, 0);
        slot_.assign(nb, -1);
        std::map<std::string, int> memIndex;
        for (int b = 0; b < nb; ++b) {
            const Buffer& buf = g_.buffers[b];
            auto it = memIndex.find(buf.type);
            if (it == memIndex.end()) {
                it = memIndex.emplace(buf.type, static_cast<int>(capacity_.size())).first;
                auto c = caps.find(buf.type);
                capacity_.push_back(c == caps.end() ? Bytes(1) << 60 : c->second);
            }
            memOf_[b] = it->second;
            size_[b] = buf.size;
            copyIn_[b] = buf.hasCopyIn;
            unrun_[b] = static_cast<int>(buf.users.size());
        }
        users_ = Adjacency::fromArcs(nb, [&](auto&& add) {
            for (int b = 0; b < nb; ++b)
                for (int u : g_.buffers[b].users) add(b, u);
        });
        users_.sortEachUnique([&](int a, int c) { return ready_.position(a) < ready_.position(c); });
        used_.assign(capacity_.size(), 0);
        resident_.resize(capacity_.size());
        // Each operation's buffer indices, without repeats, in the order of its Bufs.
        opBufs_ = Adjacency::fromArcs(n_, [&](auto&& add) {
            for (int v = 0; v < n_; ++v) {
                if (!ready_.isOperation(v)) continue;
                const auto& ids = g_.nodes[v].bufs;
                for (auto id = ids.begin(); id != ids.end(); ++id)
                    if (std::find(ids.begin(), id, *id) == id) add(v, g_.bufferIndex.at(*id));
            }
        });
    }

    // ---- the simulated caches ----
    Bytes sizeOf(int b) const { return size_[b]; }
    Bytes traffic(int b) const { return copyIn_[b] ? sizeOf(b) : 2 * sizeOf(b); }

    int nextUserPosition(int b) {
        auto& i = next_[b];
        while (i < static_cast<int>(users_[b].size()) && ready_.done(users_[b][i])) ++i;
        return i < static_cast<int>(users_[b].size()) ? ready_.position(users_[b][i]) : n_;
    }

    void addResident(int b) {
        auto& r = resident_[memOf_[b]];
        slot_[b] = static_cast<int>(r.size());
        r.push_back(b);
        used_[memOf_[b]] += sizeOf(b);
        state_[b] = State::Resident;
        touched(b);
    }
    void removeResident(int b, State to) {
        auto& r = resident_[memOf_[b]];
        int s = slot_[b];
        r[s] = r.back();
        slot_[r[s]] = s;
        r.pop_back();
        slot_[b] = -1;
        used_[memOf_[b]] -= sizeOf(b);
        state_[b] = to;
        touched(b);
    }
    void release(int b) {
        if (state_[b] == State::Resident) {
            removeResident(b, State::Freed);
        } else {
            state_[b] = State::Freed;
            touched(b);
        }
    }
    // The buffer's state or unrun users changed: the closures costed with it are stale.
    void touched(int b) {
        for (int u : users_[b]) changed_[u] = step_;
    }

    // The eviction key of a resident buffer: larger = evicted first.
    std::int64_t evictionKey(int b, int base) {
        std::int64_t d = std::max(0, nextUserPosition(b) - base) + 1;
        return copyIn_[b] ? 2 * d : d;
    }

    int victim(int mem, IndexRange protect) {
        int best = -1;
        std::int64_t bestKey = -1;
        const int base = ready_.eligible().empty() ? 0 : ready_.eligible().begin()->first;
        for (int b : resident_[mem]) {
            if (std::find(protect.begin(), protect.end(), b) != protect.end()) continue;
            std::int64_t k = evictionKey(b, base);
            if (k > bestKey || (k == bestKey && b < best)) bestKey = k, best = b;
        }
        return best;
    }

    void runOperation(int v) {
        const IndexRange bufs = opBufs_[v];
        for (int b : bufs)
            if (state_[b] == State::Fresh || state_[b] == State::Evicted) addResident(b);
        for (int b : bufs) {
            int m = memOf_[b];
            while (used_[m] > capacity_[m]) {
                int x = victim(m, bufs);
                if (x < 0) break;
                removeResident(x, State::Evicted);
            }
        }
        ready_.run(v, release_);
        changed_[v] = step_;
        // A closure has at most kMaxClosure operations, so it sees a buffer's unrun users only by
        // whether it runs them all: not while more than that are left (a tile of a tiled matmul
        // has dozens of users, each of whose closures would be found again).
        for (int b : bufs)
            if (--unrun_[b] <= kMaxClosure) touched(b);
    }

    // ---- choosing ----
    struct Candidate {
        std::vector<int> ops;  // topological (post-order), target last
        double cost = 0;       // per operation
        int minPos = 0;
        bool fallback = false;  // an operation run alone though it feeds others
        bool valid = false;
    };

    // A target's closure, remembered across steps: a step runs a few operations and changes a
    // few buffers, while most of the next step's targets have the same closure (about 160
    // closures a step on random graphs). Its cost depends on the memories' use at the start of
    // the step, which changes at every step, only through `rises`: the rest is remembered too.
    struct Rise {
        int mem;
        Bytes now;   // the closure's change to the memory's use so far
        Bytes peak;  // the highest `now` at a capacity check
    };
    struct Closure {
        int target = -1;
        int madeAt = 0;     // the step whose state it was found from
        int currentAt = 0;  // the last step it was found still current
        bool valid = false;
        bool lasting = true;  // else found again at every step (closure())
        int waitsOn = -1;     // the FREE or unpulled ALLOC that made it invalid
        // Valid: the target's unrun ancestors plus the target, topological, target last;
        // invalid: the operations visited until it failed.
        std::vector<int> ops;
        int minPos = 0;           // of ops, in the hint
        bool summarized = false;  // the fields below, made when first costed
        Bytes reloads = 0;        // traffic of the evicted buffers it reloads
        std::vector<Rise> rises;  // one per memory its buffers are in
    };

    // The target's closure for this step's state: the remembered one unless something it
    // depends on changed since it was found (closure() says what that is).
    Closure& currentClosure(int target) {
        Closure& c = closures_[slotOf(target)];
        if (c.target == target && c.currentAt == step_) return c;
        if (c.target == target && stillCurrent(c)) {
            if (checkRemembered_) checkAgainstFresh(c);
            return c;
        }
        find(c, target);
        return c;
    }
    void find(Closure& c, int target) {
        c.target = target;
        c.madeAt = c.currentAt = step_;
        c.summarized = false;
        waitsOn_ = -1;
        lasting_ = true;
        c.valid = closure(target, c.ops);
        c.lasting = lasting_;
        c.waitsOn = c.valid ? -1 : waitsOn_;
        if (!c.valid) c.ops = seen_;
        c.minPos = n_;
        for (int v : c.ops) c.minPos = std::min(c.minPos, ready_.position(v));
    }
    bool stillCurrent(Closure& c) {
        if (!c.lasting || (c.waitsOn >= 0 && ready_.done(c.waitsOn))) return false;
        for (int v : c.ops)
            if (changed_[v] >= c.madeAt) return false;
        c.currentAt = step_;
        return true;
    }
    // For tests: a remembered closure must be the one found afresh, with the same summary.
    void checkAgainstFresh(Closure& c) {
        Closure fresh;
        find(fresh, c.target);
        if (c.summarized) summarize(fresh);
        if (fresh.valid != c.valid || fresh.ops != c.ops || fresh.waitsOn != c.waitsOn || fresh.minPos != c.minPos ||
            (c.summarized && (fresh.reloads != c.reloads || !sameRises(fresh.rises, c.rises))))
            throw InternalError("reuse scheduler: a remembered closure differs from the one found afresh");
    }
    static bool sameRises(const std::vector<Rise>& a, const std::vector<Rise>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Rise& x, const Rise& y) {
            return x.mem == y.mem && x.now == y.now && x.peak == y.peak;
        });
    }
    size_t slotOf(int target) const {
        return (static_cast<std::uint32_t>(target) * 0x9E3779B1u) >> (32 - kClosureSlotBits);
    }

    // The target's unrun ancestors plus the target, in an order that respects dependencies;
    // invalid when a needed node cannot be pulled in (a pending FREE or ALLOC, too large).
    //
    // What the result depends on, so that it can be kept while that holds: whether each
    // predecessor of a visited operation has run, and for an ALLOC among them whether it is
    // pulled and waits on nothing. A node that has run stays run; a predecessor operation not yet
    // run is visited itself; a pulled ALLOC that waits on nothing is passed over whether it has
    // run or not. So the result changes only when a visited operation runs (changed_), when the
    // FREE or unpulled ALLOC it failed on runs (waitsOn_), or when a pulled ALLOC it failed on
    // stops waiting on other nodes, which is not tracked (lasting_ false: found again each step).
    bool closure(int target, std::vector<int>& out) {
        out.clear();
        seen_.clear();
        return visit(target, 0, out);
    }
    bool visit(int v, int depth, std::vector<int>& out) {
        if (std::find(seen_.begin(), seen_.end(), v) != seen_.end()) return true;
        seen_.push_back(v);
        if (depth > kMaxDepth) return false;
        for (int p : ready_.predecessors(v)) {
            if (ready_.done(p)) continue;
            if (ready_.isAlloc(p)) {
                if (!ready_.pulled(p)) return waitOn(p);
                if (ready_.remaining(p) != 0) return lasting_ = false;
                continue;  // pulled by its first user
            }
            if (ready_.isFree(p)) return waitOn(p);
            if (!visit(p, depth + 1, out)) return false;
        }
        out.push_back(v);
        return static_cast<int>(out.size()) <= kMaxClosure;
    }
    bool waitOn(int node) {
        waitsOn_ = node;
        return false;
    }

    // The traffic the closure would cause, simulated on a copy of the touched state, in two
    // parts: the reloads, which depend on its buffers alone, and per memory the highest rise of
    // its use at a capacity check (after an operation's buffers come in, before those it used
    // last leave). Each check caps the use at the capacity, so a memory starting at `used` has
    // pushed out max(0, used + peak - capacity) bytes by the end: the highest excess at any check.
    // A closure touches a few dozen buffers: flat lists, searched linearly, in reused scratch.
    struct Touched {
        int buf;
        State state;
        int unrun;  // users not yet run
    };
    Touched& touch(int b) {
        for (Touched& t : touched_)
            if (t.buf == b) return t;
        touched_.push_back({b, state_[b], unrun_[b]});
        return touched_.back();
    }
    static Rise& riseOf(std::vector<Rise>& rises, int mem) {
        for (Rise& r : rises)
            if (r.mem == mem) return r;
        rises.push_back({mem, 0, std::numeric_limits<Bytes>::min()});
        return rises.back();
    }
    void summarize(Closure& c) {
        touched_.clear();
        c.rises.clear();
        c.reloads = 0;
        for (int v : c.ops) {
            for (int b : opBufs_[v]) {
                State& s = touch(b).state;
                if (s == State::Evicted) c.reloads += traffic(b);
                if (s == State::Evicted || s == State::Fresh) {
                    riseOf(c.rises, memOf_[b]).now += sizeOf(b);
                    s = State::Resident;
                }
            }
            for (int b : opBufs_[v]) {
                Rise& r = riseOf(c.rises, memOf_[b]);
                r.peak = std::max(r.peak, r.now);
            }
            for (int b : opBufs_[v]) {
                Touched& t = touch(b);
                if (--t.unrun == 0 && t.state == State::Resident) {
                    riseOf(c.rises, memOf_[b]).now -= sizeOf(b);
                    t.state = State::Freed;
                }
            }
        }
        c.summarized = true;
    }
    // Every term is a whole number of bytes below 2^53 (limits.h), so the sum is exact in any
    // order, as when it was summed check by check.
    double costOf(Closure& c) {
        if (!c.summarized) summarize(c);
        double cost = static_cast<double>(c.reloads);
        for (const Rise& r : c.rises) {
            const Bytes over = used_[r.mem] + r.peak - capacity_[r.mem];
            if (over > 0) cost += static_cast<double>(over) * factor(r.mem);
        }
        if (checkRemembered_ && cost != simulatedCost(c.ops))
            throw InternalError("reuse scheduler: a closure's cost from its rises differs from its simulation");
        return cost;
    }
    // For tests: the cost simulated check by check, capping each memory's use at its capacity.
    double simulatedCost(const std::vector<int>& ops) {
        touched_.clear();
        std::vector<Bytes> used = used_;
        double cost = 0;
        for (int v : ops) {
            for (int b : opBufs_[v]) {
                State& s = touch(b).state;
                if (s == State::Evicted) cost += static_cast<double>(traffic(b));
                if (s == State::Evicted || s == State::Fresh) {
                    used[memOf_[b]] += sizeOf(b);
                    s = State::Resident;
                }
            }
            for (int b : opBufs_[v]) {
                const int m = memOf_[b];
                if (used[m] > capacity_[m]) {
                    cost += static_cast<double>(used[m] - capacity_[m]) * factor(m);
                    used[m] = capacity_[m];
                }
            }
            for (int b : opBufs_[v]) {
                Touched& t = touch(b);
                if (--t.unrun == 0 && t.state == State::Resident) {
                    used[memOf_[b]] -= sizeOf(b);
                    t.state = State::Freed;
                }
            }
        }
        return cost;
    }

    // Traffic per byte of what a memory would evict next (1 for a COPY_IN buffer, else 2).
    double factor(int m) {
        if (factor_[m] < 0) {
            int x = victim(m, {nullptr, nullptr});
            factor_[m] = x < 0 ? 2.0 : (copyIn_[x] ? 1.0 : 2.0);
        }
        return factor_[m];
    }

    bool closureValid(int target) { return currentClosure(target).valid; }

    // Costs the target's closure once a step; the best so far is kept in `best`.
    void consider(int target, Candidate& best, bool fallback = false) {
        if (ready_.done(target) || triedStep_[target] == step_) return;
        triedStep_[target] = step_;
        Closure& c = currentClosure(target);
        if (!c.valid) return;
        const std::vector<int>& ops = c.ops;
        const double cost = costOf(c) / static_cast<double>(ops.size());
        const int minPos = c.minPos;
        if (!best.valid || fallback < best.fallback ||
            (fallback == best.fallback &&
             (cost < best.cost || (cost == best.cost && (minPos < best.minPos ||
                                                         (minPos == best.minPos && ops.size() > best.ops.size())))))) {
            best.ops.assign(ops.begin(), ops.end());
            best.fallback = fallback;
            best.cost = cost;
            best.minPos = minPos;
            best.valid = true;
        }
    }

    // Targets from a seed: its consumers two levels down (the deepest valid), else the seed.
    void targetsFrom(int v, Candidate& best) {
        int one[kFanout], ones = 0;
        for (int s : opSucc_[v]) {
            if (ready_.done(s)) continue;
            one[ones++] = s;
            if (ones == kFanout) break;
        }
        bool any = false;
        for (int i = 0; i < ones; ++i) {
            const int w = one[i];
            int deeper = 0;
            for (int s : opSucc_[w]) {
                if (ready_.done(s)) continue;
                if (closureValid(s)) {
                    consider(s, best);
                    any = true;
                }
                if (++deeper == kFanout) break;
            }
            if (!any && closureValid(w)) {
                consider(w, best, deeper > 0);  // w feeds others that cannot run yet
                any = true;
            }
        }
        if (!any) consider(v, best, ones > 0);
    }

    Candidate pickClosure() {
        factor_.assign(capacity_.size(), -1.0);
        ++step_;
        Candidate best;
        int k = 0;
        for (auto [pos, v] : ready_.eligible()) {
            targetsFrom(v, best);
            if (++k == kEligibleSeeds) break;
        }
        int seeds = 0;
        for (const auto& mem : resident_)
            for (int b : mem) {
                if (seeds++ >= kResidentSeeds) break;
                int taken = 0;
                nextUserPosition(b);  // skips the users already run, once for all steps
                for (int i = next_[b]; i < static_cast<int>(users_[b].size()) && taken < 2; ++i) {
                    int u = users_[b][i];
                    if (ready_.done(u)) continue;
                    ++taken;
                    targetsFrom(u, best);
                }
            }
        if (!best.valid) {  // cannot happen while something is eligible, but stay safe
            best.ops = {ready_.eligible().begin()->second};
            best.valid = true;
        }
        return best;
    }

    void runClosure(const Candidate& c) {
        for (int v : c.ops) {
            if (ready_.done(v)) continue;
            if (!ready_.isEligible(v)) throw InternalError("reuse scheduler: closure out of order");
            runOperation(v);
        }
    }

    const Graph& g_;
    int n_;
    ReadySet ready_;
    const bool checkRemembered_;
    Adjacency opSucc_;  // each node's successors that are operations, ascending position
    Adjacency opBufs_;  // each operation's buffer indices
    std::function<void(int)> release_ = [this](int b) { release(b); };

    std::vector<State> state_;
    std::vector<int> memOf_, unrun_, next_, slot_;
    std::vector<Bytes> size_;  // by buffer, so that the hot loops need not read the Buffer
    std::vector<char> copyIn_;
    Adjacency users_;  // each buffer's users, ascending position
    std::vector<Bytes> capacity_, used_;
    std::vector<std::vector<int>> resident_;
    std::vector<double> factor_;

    // A step number stamps the targets already tried in a step, and by operation the last step
    // that ran it or changed the state or unrun users of one of its buffers.
    int step_ = 0;
    std::vector<int> triedStep_, changed_;
    std::vector<Closure> closures_;  // direct-mapped by target (slotOf)
    // Scratch of one closure or cost.
    std::vector<int> seen_;
    int waitsOn_ = -1;
    bool lasting_ = true;
    std::vector<Touched> touched_;
};

}  // namespace

Order scheduleForReuse(const Graph& g, const Order& hint, const Capacities& caps) {
    return scheduleForReuse(g, ScheduleDependencies(g, hint), caps);
}

Order scheduleForReuse(const Graph& g, const ScheduleDependencies& deps, const Capacities& caps, bool checkRemembered) {
    return ReuseScheduler(g, deps, caps, checkRemembered).run();
}

}  // namespace spillway
