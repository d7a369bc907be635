// The exact packer (packing.h): a depth-first search over canonical placements, after
// minimalloc (Moffitt, ASPLOS 2023), written for this project.
//
// Canonical placement: every block goes at the lowest offset left free by the blocks placed
// before it, and blocks are placed in non-decreasing offset order. Any packing can be pushed
// down into such a form, so searching these orders alone is complete, and each layout is met
// once instead of once per permutation.
//
// Sections: the sets of blocks live at the moments just before some block ends (every set of
// blocks live together is inside one of them). Each section keeps a floor (the top of what is
// placed in it) and a total (the sizes of its unplaced blocks); floor + total > capacity proves
// that the partial placement cannot be completed.
//
// The search runs on an explicit stack, not by recursion: a lifetime plan can hand it tens of
// thousands of blocks, deeper than a thread's (or WebAssembly's) stack allows.
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <numeric>

#include "model/rng.h"
#include "spillway/error.h"
#include "spillway/packing.h"

namespace spillway::packing {

const std::vector<TechniqueInfo>& techniques() {
    static const std::vector<TechniqueInfo> all = {
        {Technique::CanonicalOnly, "canonical", "place blocks in non-decreasing offset order only"},
        {Technique::SectionInference, "section-inference",
         "prune when a section's floor + unplaced sizes exceed capacity"},
        {Technique::DynamicOrdering, "dynamic-ordering", "try the block with the lowest possible offset first"},
        {Technique::Dominance, "dominance", "never leave room below a block where another fits whole"},
        {Technique::UnallocatedFloor, "unallocated-floor", "a section's floor is its unplaced blocks' lowest offset"},
        {Technique::StaticPreordering, "static-preordering", "rank blocks by the preorder keys before searching"},
        {Technique::Decomposition, "decomposition", "split the rest where no unplaced block spans a moment"},
        {Technique::MonotonicFloor, "monotonic-floor", "unplaced blocks lie above the current offset (with canonical)"},
        {Technique::HatlessPruning, "hatless-pruning", "no alternatives to a block no unplaced block overlaps"},
        {Technique::RegionProbe, "region-probe", "after a large failed subtree, search the failure's region alone"},
        {Technique::ProbeWindow, "probe-window", "probe the blocks near the failure before the wider region"},
    };
    return all;
}

bool Options::enabled(Technique t) const { return std::find(disabled.begin(), disabled.end(), t) == disabled.end(); }

namespace {

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::string item;
    for (char c : text + ",") {
        if (c != ',') {
            item += c;
        } else if (!item.empty()) {
            out.push_back(item);
            item.clear();
        }
    }
    return out;
}

}  // namespace

std::vector<Technique> parseTechniques(const std::string& commaList) {
    std::vector<Technique> out;
    for (const std::string& name : splitList(commaList)) {
        auto it = std::find_if(techniques().begin(), techniques().end(),
                               [&](const TechniqueInfo& t) { return name == t.name; });
        if (it == techniques().end()) {
            std::string known;
            for (const TechniqueInfo& t : techniques()) known += std::string(known.empty() ? "" : ", ") + t.name;
            throw InputError("unknown packing technique \"" + name + "\" (known: " + known + ")");
        }
        out.push_back(it->technique);
    }
    return out;
}

std::vector<std::string> parsePreorders(const std::string& commaList) {
    std::vector<std::string> out = splitList(commaList);
    if (out.empty()) throw InputError("preorders: give at least one, e.g. WAT");
    for (const std::string& p : out)
        for (char c : p)
            if (std::string(kPreorderKeys).find(c) == std::string::npos)
                throw InputError("preorder \"" + p + "\": unknown key '" + std::string(1, c) +
                                 "' (keys: " + kPreorderKeys + ")");
    return out;
}

const char* verdictName(Verdict v) {
    switch (v) {
        case Verdict::Fits: return "fits";
        case Verdict::DoesNotFit: return "does-not-fit";
        case Verdict::Unknown: return "unknown";
    }
    return "unknown";
}

std::string blockError(const Block& b) {
    auto outside = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo || v > hi; };
    auto range = [](std::int64_t hi, std::int64_t v) {
        return " and " + std::to_string(hi) + ", got " + std::to_string(v);
    };
    if (outside(b.lower, 0, kMaxTime)) return "field \"lower\" must be between 0" + range(kMaxTime, b.lower);
    if (outside(b.upper, b.lower, kMaxTime))
        return "field \"upper\" must be between lower (" + std::to_string(b.lower) + ")" + range(kMaxTime, b.upper);
    if (outside(b.size, 0, kMaxSize)) return "field \"size\" must be between 0" + range(kMaxSize, b.size);
    if (outside(b.alignment, 1, kMaxSize))
        return "field \"alignment\" must be between 1" + range(kMaxSize, b.alignment);
    Time at = b.lower;
    for (size_t i = 0; i < b.gaps.size(); ++i) {
        const Gap& g = b.gaps[i];
        const std::string where = "field \"gaps\", gap " + std::to_string(i + 1) + " (" + std::to_string(g.lower) +
                                  "-" + std::to_string(g.upper) + "): ";
        if (g.lower < at || g.upper < g.lower || g.upper > b.upper)
            return where + "gaps must lie in the lifetime [" + std::to_string(b.lower) + ", " +
                   std::to_string(b.upper) + ") in time order without overlapping";
        if (g.window && (g.window->lower < 0 || g.window->upper < g.window->lower || g.window->upper > b.size))
            return where + "its window " + std::to_string(g.window->lower) + ":" + std::to_string(g.window->upper) +
                   " must lie within the size (0:" + std::to_string(b.size) + ")";
        at = g.upper;
    }
    return "";
}

namespace {

// A stretch of a block's lifetime holding a fixed window of its bytes.
struct Piece {
    Time from, to;
    Bytes lower, upper;  // from the block's offset
};

std::vector<Piece> piecesOf(const Block& b) {
    std::vector<Piece> out;
    Time at = b.lower;
    for (const Gap& g : b.gaps) {
        if (at < g.lower) out.push_back({at, g.lower, 0, b.size});
        if (g.window && g.lower < g.upper) out.push_back({g.lower, g.upper, g.window->lower, g.window->upper});
        at = g.upper;
    }
    if (at < b.upper) out.push_back({at, b.upper, 0, b.size});
    return out;
}

// How far above `below`'s offset `above` must start so that their bytes never meet while both
// are live; nullopt when they are never live together.
std::optional<Bytes> distanceAbove(const std::vector<Piece>& below, const std::vector<Piece>& above) {
    std::optional<Bytes> d;
    for (size_t i = 0, j = 0; i < below.size() && j < above.size();) {
        if (below[i].from < above[j].to && above[j].from < below[i].to)
            d = std::max(d.value_or(below[i].upper - above[j].lower), below[i].upper - above[j].lower);
        if (below[i].to < above[j].to)
            ++i;
        else
            ++j;
    }
    return d;
}

// A block's part in a run of consecutive sections.
struct Span {
    int from, to;  // sections [from, to)
    Bytes top;     // window upper: the block's top in these sections, from its offset
    Bytes height;  // window size
};

struct Overlap {
    int other;
    Bytes distance;  // other's offset >= this offset + distance when other lies above
};

// The problem cut into sections, with every block's spans and overlaps.
struct Sweep {
    std::vector<Time> from, to;             // section s covers [from[s], to[s])
    std::vector<Bytes> load;                // sum of heights live in it
    std::vector<std::vector<int>> members;  // blocks live in it, ascending
    std::vector<std::vector<int>> slot;     // per block, section by section: its index in members
    std::vector<std::vector<Span>> spans;   // per block, in time order
    std::vector<int> first, end;            // per block: sections [first, end) it spans (end 0: none)
    std::vector<std::vector<Overlap>> overlaps;

    explicit Sweep(const Problem& p) {
        const size_t n = p.blocks.size();
        std::vector<std::vector<Piece>> pieces(n);
        std::vector<Time> times, ends;
        for (size_t b = 0; b < n; ++b) {
            // A block of size 0 fits at offset 0 beneath anything: it takes no part in the search.
            if (p.blocks[b].size == 0) continue;
            pieces[b] = piecesOf(p.blocks[b]);
            for (const Piece& x : pieces[b]) {
                times.push_back(x.from);
                times.push_back(x.to);
                ends.push_back(x.to);
            }
        }
        sortUnique(times);
        sortUnique(ends);
        // Elementary intervals [times[k], times[k+1]) covered by some piece and ending where a
        // piece ends: the moments just before an end see every set of blocks live together.
        std::vector<int> covered(times.size() + 1, 0);
        for (const auto& ps : pieces)
            for (const Piece& x : ps) {
                ++covered[index(times, x.from)];
                --covered[index(times, x.to)];
            }
        for (size_t k = 0, live = 0; k + 1 < times.size(); ++k) {
            live += covered[k];
            if (live > 0 && std::binary_search(ends.begin(), ends.end(), times[k + 1])) {
                from.push_back(times[k]);
                to.push_back(times[k + 1]);
            }
        }
        load.assign(from.size(), 0);
        members.resize(from.size());
        slot.resize(n);
        spans.resize(n);
        first.assign(n, 0);
        end.assign(n, 0);
        std::vector<Bytes> loadDelta(from.size() + 1, 0);
        for (size_t b = 0; b < n; ++b) {
            for (const Piece& x : pieces[b]) {
                const int s0 = index(from, x.from), s1 = index(from, x.to);
                spans[b].push_back({s0, s1, x.upper, x.upper - x.lower});
                loadDelta[s0] += x.upper - x.lower;
                loadDelta[s1] -= x.upper - x.lower;
                for (int s = s0; s < s1; ++s) {
                    slot[b].push_back(static_cast<int>(members[s].size()));
                    members[s].push_back(static_cast<int>(b));
                }
            }
            if (!spans[b].empty()) {
                first[b] = spans[b].front().from;
                end[b] = spans[b].back().to;
            }
        }
        Bytes running = 0;
        for (size_t s = 0; s < from.size(); ++s) load[s] = running += loadDelta[s];
        findOverlaps(pieces);
    }

private:
    static void sortUnique(std::vector<Time>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    static int index(const std::vector<Time>& sorted, Time t) {
        return static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
    }

    // Blocks live together share a section: sweep blocks by first section, keeping those whose
    // span has not ended.
    void findOverlaps(const std::vector<std::vector<Piece>>& pieces) {
        const size_t n = pieces.size();
        overlaps.resize(n);
        std::vector<int> byFirst;
        for (size_t b = 0; b < n; ++b)
            if (end[b] > 0) byFirst.push_back(static_cast<int>(b));
        std::stable_sort(byFirst.begin(), byFirst.end(), [&](int a, int b) { return first[a] < first[b]; });
        std::vector<int> open;
        for (int b : byFirst) {
            open.erase(std::remove_if(open.begin(), open.end(), [&](int a) { return end[a] <= first[b]; }), open.end());
            for (int a : open) {
                const std::optional<Bytes> up = distanceAbove(pieces[a], pieces[b]);
                if (!up) continue;
                overlaps[a].push_back({b, *up});
                overlaps[b].push_back({a, *distanceAbove(pieces[b], pieces[a])});
            }
            open.push_back(b);
        }
        for (auto& o : overlaps)
            std::sort(o.begin(), o.end(), [](const Overlap& x, const Overlap& y) { return x.other < y.other; });
    }
};

// size x lifetime reaches 2^80: a 128-bit integer (a GCC/Clang extension, as in Emscripten).
__extension__ typedef __int128 Area;

// A set of unplaced blocks over sections [from, to) that no other unplaced block reaches.
struct Partition {
    std::vector<int> blocks;
    int from = 0, to = 0;
};

// Sections either side of a failure that a windowed region probe takes (technique
// probe-window). Of the 23 cut instances not packed within a million nodes before, windows of
// 12 and of 30 sections each pack skyline-68 and no other (docs/packing.md).
constexpr int kProbeWindow = 12;

// What region probes (below) found: sets of unplaced blocks, each with the lowest offset it
// could take, that cannot all be packed, that can, or that a probe of so many nodes did not
// settle. Raising a lowest offset only takes packings away, so a set proved impossible stays
// impossible under any higher lowest offsets.
class RegionMemo {
public:
    enum class Answer { Impossible, Settled, New };

    // Impossible when a proof covers these lowest offsets; Settled when this very region was
    // packed, or probed with at least `nodes` without an answer.
    Answer lookup(const std::vector<int>& blocks, const std::vector<Bytes>& lowest, std::int64_t nodes) const {
        auto it = regions_.find(blocks);
        if (it == regions_.end()) return Answer::New;
        for (const Entry& e : it->second) {
            if (e.verdict == Verdict::DoesNotFit) {
                bool covered = true;
                for (size_t i = 0; i < lowest.size() && covered; ++i) covered = lowest[i] >= e.lowest[i];
                if (covered) return Answer::Impossible;
            } else if (e.lowest == lowest && (e.verdict == Verdict::Fits || e.nodes >= nodes)) {
                return Answer::Settled;
            }
        }
        return Answer::New;
    }
    void record(const std::vector<int>& blocks, const std::vector<Bytes>& lowest, Verdict verdict, std::int64_t nodes) {
        if (entries_ >= kMaxEntries) return;
        ++entries_;
        regions_[blocks].push_back({lowest, verdict, nodes});
    }

private:
    struct Entry {
        std::vector<Bytes> lowest;
        Verdict verdict;
        std::int64_t nodes;  // the probe's node limit
    };
    static constexpr size_t kMaxEntries = 20000;  // bounds the memory a long search takes
    std::map<std::vector<int>, std::vector<Entry>> regions_;
    size_t entries_ = 0;
};

class Search {
public:
    // `lowest`: when given, each block's lowest offset (a region probe's blocks above those
    // already placed around them); otherwise 0.
    Search(const Problem& p, const Sweep& sweep, const Options& o, const std::vector<Bytes>* lowest = nullptr)
        : p_(p),
          sw_(sweep),
          o_(o),
          offset_(p.blocks.size(), -1),
          minOffset_(lowest ? *lowest : std::vector<Bytes>(p.blocks.size(), 0)),
          solution_(p.blocks.size(), 0),
          floor_(sweep.from.size(), 0),
          total_(sweep.load),
          cut_(sweep.from.size(), 0),
          witness_(sweep.members.size(), -1) {
        for (const TechniqueInfo& t : techniques())
            if (o.enabled(t.technique)) enabled_ |= bit(t.technique);
        unplaced_.resize(sweep.members.size());
        where_.resize(sweep.members.size());
        for (size_t x = 0; x < sweep.members.size(); ++x) {
            unplaced_[x].resize(sweep.members[x].size());
            std::iota(unplaced_[x].begin(), unplaced_[x].end(), 0);
            where_[x] = unplaced_[x];
        }
        // Canonical placement (each block above the blocks it meets, in offset order) reaches
        // every packing when every window starts at its block's offset and holds bytes. Other
        // windows can ask for a block above another at a lower or equal offset.
        for (const Block& b : p.blocks)
            for (const Gap& g : b.gaps)
                if (b.size > 0 && g.window && (g.window->lower > 0 || g.window->upper == 0)) exhaustive_ = false;
        for (size_t b = 0; b < p.blocks.size(); ++b)
            for (int s = sw_.first[b]; s + 1 < sw_.end[b]; ++s) ++cut_[s];
    }

    Result run() {
        Result r;
        std::vector<Partition> parts = staticPartitions();
        r.stats.partitions = static_cast<int>(parts.size());
        if (parts.empty()) {
            r.verdict = Verdict::Fits;
            r.offsets = solution_;
            return finish(r);
        }
        std::vector<bool> solved(parts.size(), false);
        const std::vector<std::string> preorders =
            on(Technique::StaticPreordering) ? o_.preorders : std::vector<std::string>{""};
        // minimalloc's round robin: every preorder with a small node limit, then doubled, so
        // that whichever suits the problem finishes early.
        std::int64_t limit = std::max<std::int64_t>(2, static_cast<std::int64_t>(p_.blocks.size()));
        size_t failedPart = 0;
        bool searchEnded = false;  // every preorder ran to the end without a packing
        while (nodes_ < o_.budget && !searchEnded) {
            limit = preorders.size() > 1 ? std::min(limit * 2, o_.budget) : o_.budget;
            size_t ended = 0;
            for (const std::string& preorder : preorders) {
                ++draw_;
                nodesLeft_ = std::min(limit, o_.budget - nodes_);
                if (nodesLeft_ <= 0) break;
                Status st = Status::Found;
                for (size_t i = 0; i < parts.size() && st == Status::Found; ++i) {
                    if (solved[i]) continue;
                    const std::int64_t before = nodesLeft_;
                    st = solve(parts[i], preorder);
                    nodes_ += before - nodesLeft_;
                    if (st == Status::Found)
                        solved[i] = true;
                    else
                        failedPart = i;
                }
                if (st == Status::Found) {
                    r.verdict = Verdict::Fits;
                    r.offsets = solution_;
                    r.stats.preorder = preorder;
                    return finish(r);
                }
                if (st == Status::NotFound && exhaustive_) {
                    r.verdict = Verdict::DoesNotFit;
                    r.failing = regionOf(parts[failedPart]);
                    r.reason =
                        "no placement exists: the search tried every canonical placement of the blocks live between "
                        "times " +
                        std::to_string(r.failing->from) + " and " + std::to_string(r.failing->to);
                    return finish(r);
                }
                ended += st == Status::NotFound;
            }
            searchEnded = ended == preorders.size();
        }
        r.verdict = Verdict::Unknown;
        r.failing = regionOf(parts[failedPart]);
        const std::string where = " the blocks live between times " + std::to_string(r.failing->from) + " and " +
                                  std::to_string(r.failing->to);
        r.reason = searchEnded
                       ? "the search found no placement of" + where +
                             ", but with gap windows that do not start at the block's offset or hold no bytes it does "
                             "not try them all"
                       : "the budget of " + std::to_string(o_.budget) + " search nodes ran out while placing" + where;
        return finish(r);
    }

private:
    enum class Status { Found, NotFound, OutOfBudget };

    struct Candidate {
        Bytes offset;
        int rank;
        int block;
    };

    // One level of the search. A Search frame tries its candidates one by one; a Split frame
    // solves, in turn, the independent problems a placement left.
    struct Frame {
        bool split = false;
        const Partition* part = nullptr;
        const std::vector<int>* ranked = nullptr;  // the partition's blocks, best first
        std::vector<int> ownRanking;               // when this frame started a partition
        Bytes lastOffset = 0;                      // of the placement that led here
        int lastRank = 0;
        std::vector<Candidate> candidates;
        std::vector<int> heavy;  // see findHeavy
        size_t next = 0;
        bool entered = false;
        int placed = -1;  // block placed by the candidate being explored
        size_t offsetMark = 0, floorMark = 0;
        bool hatless = false;
        std::int64_t childStart = 0;  // nodesLeft_ when the child was pushed
        // Split frames
        int cutBlock = -1;  // the placement whose cuts it restores
        std::vector<Partition> subparts;
        size_t nextSub = 0;
    };

    // No block spans a cut, so each block lies in the partition of its first section: one pass
    // over the blocks, not one per partition (quadratic when every block lives alone).
    std::vector<Partition> staticPartitions() const {
        std::vector<Partition> parts;
        std::vector<int> partOf(sw_.from.size());
        int from = 0;
        for (int s = 0; s < static_cast<int>(sw_.from.size()); ++s) {
            partOf[s] = static_cast<int>(parts.size());
            if (s + 1 == static_cast<int>(sw_.from.size()) || cut_[s] == 0) {
                parts.push_back(Partition{{}, from, s + 1});
                from = s + 1;
            }
        }
        for (size_t b = 0; b < p_.blocks.size(); ++b)
            if (sw_.end[b] > 0) parts[partOf[sw_.first[b]]].blocks.push_back(static_cast<int>(b));
        return parts;
    }

    Region regionOf(const Partition& part) const {
        Region r{sw_.from[part.from], sw_.to[part.to - 1], 0};
        for (int s = part.from; s < part.to; ++s) r.load = std::max(r.load, sw_.load[s]);
        return r;
    }

    Result& finish(Result& r) {
        r.stats.nodes = nodes_;
        r.stats.backtracks = backtracks_;
        r.stats.probes = probes_;
        r.stats.probesImpossible = probesImpossible_;
        return r;
    }

    // The partition's blocks best first under a preorder (minimalloc's SubSolve ranking).
    std::vector<int> rank(const Partition& part, const std::string& preorder) const {
        struct Key {
            Area area;
            std::int64_t sections, lower, overlaps, total, upper, width, size;
            std::uint64_t shuffle;
            int block;
        };
        std::vector<Key> keys;
        for (int b : part.blocks) {
            const Block& x = p_.blocks[b];
            Bytes total = 0;
            for (const Span& sp : sw_.spans[b])
                for (int s = sp.from; s < sp.to; ++s) total = std::max(total, total_[s]);
            keys.push_back({static_cast<Area>(x.size) * (x.upper - x.lower), sw_.end[b] - sw_.first[b], x.lower,
                            static_cast<std::int64_t>(sw_.overlaps[b].size()), total, x.upper, x.upper - x.lower,
                            x.size, Rng(static_cast<std::uint64_t>(b) ^ (draw_ << 32)).next(), b});
        }
        auto before = [&](const Key& a, const Key& b) {
            for (char c : preorder) {
                switch (c) {
                    case 'A':
                        if (a.area != b.area) return a.area > b.area;
                        break;
                    case 'C':
                        if (a.sections != b.sections) return a.sections > b.sections;
                        break;
                    case 'L':
                        if (a.lower != b.lower) return a.lower > b.lower;
                        break;
                    case 'O':
                        if (a.overlaps != b.overlaps) return a.overlaps > b.overlaps;
                        break;
                    case 'T':
                        if (a.total != b.total) return a.total > b.total;
                        break;
                    case 'U':
                        if (a.upper != b.upper) return a.upper > b.upper;
                        break;
                    case 'W':
                        if (a.width != b.width) return a.width > b.width;
                        break;
                    case 'Z':
                        if (a.size != b.size) return a.size > b.size;
                        break;
                    case 'R':
                        if (a.shuffle != b.shuffle) return a.shuffle > b.shuffle;
                        break;
                }
            }
            return a.block < b.block;
        };
        std::sort(keys.begin(), keys.end(), before);
        std::vector<int> out;
        for (const Key& k : keys) out.push_back(k.block);
        return out;
    }

    Status solve(const Partition& root, const std::string& preorder) {
        preorder_ = &preorder;
        stack_.clear();
        pushSolve(root);
        Status result = Status::NotFound;
        while (!stack_.empty()) {
            Frame& f = stack_.back();
            const bool pushed = f.split ? stepSplit(f, result) : stepSearch(f, result);
            if (!pushed) stack_.pop_back();
        }
        return result;
    }

    void pushSolve(const Partition& part) {
        stack_.emplace_back();
        Frame& f = stack_.back();
        f.part = &part;
        f.ownRanking = rank(part, *preorder_);
        f.ranked = &f.ownRanking;
    }

    // Advances a search frame. Returns true while the frame stays on the stack (it pushed a
    // child or will try again); false when it is done, with its status in `result`.
    bool stepSearch(Frame& f, Status& result) {
        if (f.placed >= 0) {  // a child returned `result`
            const bool hatless = f.hatless;
            unplace(f);
            if (result != Status::NotFound) return false;
            if (hatless) dropAfterHatless(f, f.candidates[f.next - 1]);
            if (f.childStart - nodesLeft_ >= o_.probeAfter && regionImpossible(f, f.childStart - nodesLeft_))
                return backtrack(result);
        } else if (!f.entered) {
            f.entered = true;
            if (nodesLeft_ <= 0) {
                result = Status::OutOfBudget;
                return false;
            }
            --nodesLeft_;
            if (!collectCandidates(f)) {
                result = Status::Found;
                return false;
            }
            findHeavy(f);
        }
        while (f.next < f.candidates.size()) {
            const Candidate c = f.candidates[f.next++];
            if (!mayFit(f, c)) {
                if (hatlessAt(c.block)) dropAfterHatless(f, c);
                continue;
            }
            if (place(f, c)) {
                f.childStart = nodesLeft_;
                pushChild(f, c);
                return true;
            }
            const bool hatless = f.hatless;
            unplace(f);
            if (hatless) dropAfterHatless(f, c);
        }
        return backtrack(result);
    }

    // A block that no unplaced block overlaps keeps its lowest offset whatever is placed next,
    // so a canonical placement must place it before anything of a larger (offset, rank): once
    // it failed, those candidates are dead too (with dynamic ordering, all the rest).
    void dropAfterHatless(Frame& f, const Candidate& x) const {
        if (!on(Technique::HatlessPruning)) return;
        // Without canonical order any completion can place it first: nothing else is worth trying.
        const bool canonical = on(Technique::CanonicalOnly);
        auto later = [&](const Candidate& y) {
            return !canonical || (y.offset != x.offset ? y.offset > x.offset : y.rank > x.rank);
        };
        f.candidates.erase(std::remove_if(f.candidates.begin() + static_cast<long>(f.next), f.candidates.end(), later),
                           f.candidates.end());
    }

    bool backtrack(Status& result) {
        ++backtracks_;
        result = Status::NotFound;
        return false;
    }

    // The candidates of a node, in the order to try them; false when every block is placed.
    bool collectCandidates(Frame& f) {
        bool any = false;
        Bytes minHeight = kMaxSize * 2;
        for (size_t r = 0; r < f.ranked->size(); ++r) {
            const int b = (*f.ranked)[r];
            if (offset_[b] >= 0) continue;
            any = true;
            minHeight = std::min(minHeight, minOffset_[b] + p_.blocks[b].size);
        }
        if (!any) return false;
        for (size_t r = 0; r < f.ranked->size(); ++r) {
            const int b = (*f.ranked)[r];
            if (offset_[b] >= 0) continue;
            const Bytes at = minOffset_[b];
            const int rk = static_cast<int>(r);
            if (on(Technique::CanonicalOnly) && (at < f.lastOffset || (at == f.lastOffset && rk < f.lastRank)))
                continue;
            // Placing a block at or above where another could end leaves room for that one
            // below it: such layouts are dominated by the one with the other block down there.
            if (on(Technique::Dominance) && at >= minHeight) continue;
            if (at + p_.blocks[b].size > p_.capacity) continue;
            f.candidates.push_back({at, rk, b});
        }
        if (on(Technique::DynamicOrdering))
            std::stable_sort(f.candidates.begin(), f.candidates.end(), [](const Candidate& a, const Candidate& b) {
                return a.offset != b.offset ? a.offset < b.offset : a.rank < b.rank;
            });
        return true;
    }

    // Places a candidate and propagates: raises the lowest offsets of the blocks it overlaps
    // and the floors of its sections. False when the result is provably infeasible.
    bool place(Frame& f, const Candidate& c) {
        const int b = c.block;
        f.placed = b;
        f.offsetMark = offsetLog_.size();
        f.floorMark = floorLog_.size();
        const bool inference = on(Technique::SectionInference);
        offset_[b] = c.offset;
        solution_[b] = c.offset;
        f.hatless = true;
        bool feasible = true;
        for (const Overlap& ov : sw_.overlaps[b]) {
            const int j = ov.other;
            if (offset_[j] >= 0) continue;
            f.hatless = false;
            const Bytes align = p_.blocks[j].alignment;
            const Bytes at = (c.offset + ov.distance + align - 1) / align * align;
            if (minOffset_[j] >= at) continue;
            offsetLog_.push_back({j, minOffset_[j]});
            minOffset_[j] = at;
            if (inference && at + p_.blocks[j].size > p_.capacity) feasible = failedAt(sw_.first[j]);
        }
        for (const Span& sp : sw_.spans[b])
            for (int s = sp.from; s < sp.to; ++s) {
                floorLog_.push_back({s, floor_[s]});
                floor_[s] = std::max(floor_[s], c.offset + sp.top);
                total_[s] -= sp.height;
            }
        if (on(Technique::UnallocatedFloor)) leaveSections(b);
        return feasible && sectionsFit(*f.part, c.offset);
    }

    // Records where the search last found no room (the region a probe looks at); false.
    bool failedAt(int section) {
        failSection_ = section;
        return false;
    }

    // Region probe: a subtree of `spent` nodes below this node failed. The unplaced blocks that
    // live where the search last found no room, taken alone, each no lower than it can go now,
    // form a smaller problem without the order constraint (blocks go in offset order) and
    // without the other unplaced blocks: if even that cannot be packed, neither can this node,
    // whatever its other candidates do elsewhere in time. Proofs are remembered: the same
    // region comes back under every arrangement of an independent part of the problem, which
    // is what makes a plain depth-first search stall (docs/packing.md).
    bool regionImpossible(const Frame& f, std::int64_t spent) {
        if (!on(Technique::RegionProbe) || !exhaustive_ || failSection_ < f.part->from || failSection_ >= f.part->to)
            return false;
        int from = f.part->to, to = f.part->from;
        for (int b : sw_.members[failSection_])
            if (offset_[b] < 0) {
                from = std::min(from, sw_.first[b]);
                to = std::max(to, sw_.end[b]);
            }
        // The span of a failing section's blocks often reaches over most of the problem (one
        // long block suffices), and so does its probe. The blocks near the failure alone are
        // a weaker relaxation but a far smaller search, which often proves it in a few nodes.
        if (on(Technique::ProbeWindow)) {
            const int nearFrom = std::max(from, failSection_ - kProbeWindow),
                      nearTo = std::min(to, failSection_ + kProbeWindow + 1);
            if ((nearFrom > from || nearTo < to) && probeImpossible(f, nearFrom, nearTo, spent)) return true;
        }
        return probeImpossible(f, from, to, spent);
    }

    // Probes the unplaced blocks live in sections [from, to): true when they cannot be packed.
    bool probeImpossible(const Frame& f, int from, int to, std::int64_t spent) {
        std::vector<int> region;
        size_t unplaced = 0;
        for (int b : f.part->blocks) {
            if (offset_[b] >= 0) continue;
            ++unplaced;
            if (sw_.first[b] < to && sw_.end[b] > from) region.push_back(b);
        }
        if (region.empty() || region.size() == unplaced) return false;
        std::vector<Bytes> lowest;
        for (int b : region) lowest.push_back(minOffset_[b]);
        const std::int64_t limit = std::min<std::int64_t>(spent, nodesLeft_);
        const RegionMemo::Answer known = memo_->lookup(region, lowest, limit);
        probesImpossible_ += known == RegionMemo::Answer::Impossible;
        if (known != RegionMemo::Answer::New) return known == RegionMemo::Answer::Impossible;
        if (limit <= 0) return false;
        Problem alone{{}, p_.capacity};
        for (int b : region) alone.blocks.push_back(p_.blocks[b]);
        Options options = o_;
        options.budget = limit;
        options.preorders = {*preorder_};
        options.disabled.push_back(Technique::RegionProbe);  // a probe does not probe
        const Sweep sweep(alone);
        const Result r = Search(alone, sweep, options, &lowest).run();
        nodesLeft_ -= r.stats.nodes;
        ++probes_;
        const bool impossible = r.verdict == Verdict::DoesNotFit;
        memo_->record(region, lowest, r.verdict, limit);
        probesImpossible_ += impossible;
        return impossible;
    }

    // The section bounds after placing c, before propagating it (cheap: no block's lowest
    // offset moves yet): when they fail, placing would fail too, since propagation only raises.
    // Sections c does not touch passed at the parent's placement; with c's offset as their new
    // floor they fail only where offset + total exceeds the capacity (the frame's `heavy`).
    bool mayFit(const Frame& f, const Candidate& c) {
        const bool monotonic = monotonicFloor(), inference = on(Technique::SectionInference);
        const std::vector<Span>& spans = sw_.spans[c.block];
        auto spanAt = [&](int s) -> const Span* {
            auto it = std::upper_bound(spans.begin(), spans.end(), s, [](int x, const Span& sp) { return x < sp.to; });
            return it != spans.end() && it->from <= s ? &*it : nullptr;
        };
        for (int s : f.heavy) {
            if (c.offset + total_[s] <= p_.capacity) break;
            if (!spanAt(s)) return failedAt(s);
        }
        for (const Span& sp : spans)
            for (int s = std::max(sp.from, f.part->from); s < std::min(sp.to, f.part->to); ++s) {
                const Bytes total = total_[s] - sp.height;
                Bytes top = std::max(floor_[s], c.offset + sp.top);
                if (monotonic && total > 0) top = std::max(top, c.offset);
                if (inference) top += total;
                if (top > p_.capacity) return failedAt(s);
            }
        return true;
    }

    // The sections where the highest candidate offset plus the unplaced total would exceed
    // the capacity, most loaded first (mayFit's quick rejections).
    void findHeavy(Frame& f) const {
        if (!monotonicFloor() || !on(Technique::SectionInference) || f.candidates.empty()) return;
        Bytes highest = 0;
        for (const Candidate& c : f.candidates) highest = std::max(highest, c.offset);
        for (int s = f.part->from; s < f.part->to; ++s)
            if (highest + total_[s] > p_.capacity) f.heavy.push_back(s);
        std::sort(f.heavy.begin(), f.heavy.end(),
                  [&](int a, int b) { return total_[a] != total_[b] ? total_[a] > total_[b] : a < b; });
    }

    // Unplaced blocks lie above the current offset only when blocks are placed in offset order.
    bool monotonicFloor() const { return on(Technique::MonotonicFloor) && on(Technique::CanonicalOnly); }

    // True when no unplaced block overlaps b: placing it constrains nothing else.
    bool hatlessAt(int b) const {
        for (const Overlap& ov : sw_.overlaps[b])
            if (offset_[ov.other] < 0) return false;
        return true;
    }

    bool sectionsFit(const Partition& part, Bytes offset) {
        const bool monotonic = monotonicFloor(), inference = on(Technique::SectionInference);
        const bool unallocated = on(Technique::UnallocatedFloor);
        for (int s = part.from; s < part.to; ++s) {
            Bytes top = floor_[s];
            if (monotonic && total_[s] > 0) top = std::max(top, offset);
            if (inference) top += total_[s];
            if (top > p_.capacity) return failedAt(s);
            // No unplaced block of the section can start below the lowest offset any of them can
            // take: with the floor raised to it, does the section still hold its blocks?
            if (unallocated && total_[s] > 0 && allStartAbove(s, p_.capacity - (inference ? total_[s] : 0)))
                return failedAt(s);
        }
        return true;
    }

    // True when every unplaced block of section s has its lowest offset above `level`. Checked
    // when needed instead of kept up to date: a placement raises the lowest offsets of many
    // blocks over many sections, and most sections find a block at or below the level at once.
    // The member found at or below the level last time is asked first: it often still is.
    bool allStartAbove(int s, Bytes level) {
        const int w = witness_[s];  // unplaced: leaveSections forgets a witness placed
        if (w >= 0 && minOffset_[w] <= level) return false;
        const std::vector<int>& members = sw_.members[s];
        for (int m : unplaced_[s])
            if (minOffset_[members[m]] <= level) {
                witness_[s] = members[m];
                return false;
            }
        return true;
    }

    // The unplaced members of each section, by index into members (order does not matter):
    // removed by swapping with the last, put back in reverse (placements undo last first).
    void leaveSections(int b) {
        size_t k = 0;
        for (const Span& sp : sw_.spans[b])
            for (int s = sp.from; s < sp.to; ++s, ++k) {
                std::vector<int>& list = unplaced_[s];
                const int at = where_[s][sw_.slot[b][k]], last = list.back();
                list[at] = last;
                where_[s][last] = at;
                list.pop_back();
                if (witness_[s] == b) witness_[s] = -1;
            }
    }
    void returnToSections(int b) {
        size_t k = sw_.slot[b].size();
        for (auto sp = sw_.spans[b].rbegin(); sp != sw_.spans[b].rend(); ++sp)
            for (int s = sp->to; s-- > sp->from;) {
                std::vector<int>& list = unplaced_[s];
                const int mine = sw_.slot[b][--k], at = where_[s][mine];
                if (at == static_cast<int>(list.size())) {
                    list.push_back(mine);
                } else {
                    list.push_back(list[at]);
                    where_[s][list[at]] = static_cast<int>(list.size()) - 1;
                    list[at] = mine;
                }
            }
    }

    void unplace(Frame& f) {
        const int b = f.placed;
        if (on(Technique::UnallocatedFloor)) returnToSections(b);
        for (size_t i = floorLog_.size(); i-- > f.floorMark;) floor_[floorLog_[i].first] = floorLog_[i].second;
        floorLog_.resize(f.floorMark);
        for (size_t i = offsetLog_.size(); i-- > f.offsetMark;) minOffset_[offsetLog_[i].first] = offsetLog_[i].second;
        offsetLog_.resize(f.offsetMark);
        for (const Span& sp : sw_.spans[b])
            for (int s = sp.from; s < sp.to; ++s) total_[s] += sp.height;
        offset_[b] = -1;
        f.placed = -1;
    }

    // After placing c: go on in the same partition, or through a Split frame when the
    // placement leaves independent problems behind (no unplaced block spans some moment).
    void pushChild(Frame& f, const Candidate& c) {
        const Partition* part = f.part;
        const std::vector<int>* ranked = f.ranked;
        if (!on(Technique::Decomposition)) {
            pushSearch(part, ranked, c);
            return;
        }
        std::vector<int> cuts;
        for (int s = sw_.first[c.block]; s + 1 < sw_.end[c.block]; ++s)
            if (--cut_[s] == 0) cuts.push_back(s + 1);
        stack_.emplace_back();
        Frame& split = stack_.back();
        split.split = true;
        split.cutBlock = c.block;
        if (!cuts.empty()) {
            cuts.insert(cuts.begin(), part->from);
            cuts.push_back(part->to);
            for (size_t i = 0; i + 1 < cuts.size(); ++i) {
                Partition sub{{}, cuts[i], cuts[i + 1]};
                for (int b : part->blocks)
                    if (offset_[b] < 0 && sw_.end[b] > sub.from && sw_.first[b] < sub.to) sub.blocks.push_back(b);
                if (!sub.blocks.empty()) split.subparts.push_back(std::move(sub));
            }
        }
        // Nothing to split (or nothing left): the search goes on in this partition.
        if (split.subparts.empty()) pushSearch(part, ranked, c);
    }

    void pushSearch(const Partition* part, const std::vector<int>* ranked, const Candidate& c) {
        stack_.emplace_back();
        Frame& child = stack_.back();
        child.part = part;
        child.ranked = ranked;
        child.lastOffset = c.offset;
        child.lastRank = c.rank;
    }

    // A split frame without subparts passes its search child's status through; otherwise it
    // solves its subparts in turn (each with its own ranking) and fails as soon as one does.
    bool stepSplit(Frame& f, Status& result) {
        const bool done =
            f.subparts.empty() || (f.nextSub > 0 && result != Status::Found) || f.nextSub == f.subparts.size();
        if (done) {
            for (int s = sw_.first[f.cutBlock]; s + 1 < sw_.end[f.cutBlock]; ++s) ++cut_[s];
            return false;
        }
        pushSolve(f.subparts[f.nextSub++]);
        return true;
    }

    // Whether a technique is on: the options' list read once, as the search asks at every node.
    static std::uint32_t bit(Technique t) {
        static_assert(static_cast<int>(Technique::ProbeWindow) < 32, "a bit per technique");
        return std::uint32_t{1} << static_cast<int>(t);
    }
    bool on(Technique t) const { return (enabled_ & bit(t)) != 0; }

    const Problem& p_;
    const Sweep& sw_;
    const Options& o_;
    std::uint32_t enabled_ = 0;
    const std::string* preorder_ = nullptr;
    std::vector<Bytes> offset_, minOffset_, solution_;
    std::vector<Bytes> floor_, total_;
    std::vector<int> cut_;
    std::vector<std::vector<int>> unplaced_, where_;  // per section: unplaced members; a member's place in it
    std::vector<int> witness_;  // per section: a block last found at or below allStartAbove's level, or -1
    std::vector<std::pair<int, Bytes>> offsetLog_, floorLog_;
    bool exhaustive_ = true;  // a search that ends without a packing proves there is none
    int failSection_ = -1;    // where the search last found no room
    std::shared_ptr<RegionMemo> memo_ = std::make_shared<RegionMemo>();
    std::int64_t probes_ = 0, probesImpossible_ = 0;
    std::deque<Frame> stack_;  // references to frames stay valid while others are pushed
    std::int64_t nodes_ = 0, nodesLeft_ = 0, backtracks_ = 0;
    std::uint64_t draw_ = 0;  // counts the preorders tried: seeds the preorder key R
};

Result fromBound(Verdict v, std::string reason, Region where) {
    Result r;
    r.verdict = v;
    r.reason = std::move(reason);
    r.failing = where;
    return r;
}

}  // namespace

Region peakLoad(const Problem& problem) {
    std::vector<std::pair<Time, Bytes>> events;
    for (const Block& b : problem.blocks)
        for (const Piece& x : piecesOf(b)) {
            events.emplace_back(x.from, x.upper - x.lower);
            events.emplace_back(x.to, -(x.upper - x.lower));
        }
    std::sort(events.begin(), events.end());  // at equal times ends (negative) come first
    Region peak;
    Bytes live = 0;
    for (size_t i = 0; i < events.size(); ++i) {
        live += events[i].second;
        if (live > peak.load) {
            peak.load = live;
            peak.from = events[i].first;
            peak.to = i + 1 < events.size() ? events[i + 1].first : events[i].first;
        }
    }
    return peak;
}

Result pack(const Problem& problem, const Options& options) {
    if (problem.capacity < 1 || problem.capacity > kMaxSize)
        throw InputError("capacity must be between 1 and " + std::to_string(kMaxSize) + ", got " +
                         std::to_string(problem.capacity));
    if (problem.blocks.size() > kMaxBlocks)
        throw InputError("at most " + std::to_string(kMaxBlocks) + " blocks, got " +
                         std::to_string(problem.blocks.size()));
    if (options.budget < 0) throw InputError("budget must be at least 0, got " + std::to_string(options.budget));
    for (size_t i = 0; i < problem.blocks.size(); ++i)
        if (std::string e = blockError(problem.blocks[i]); !e.empty())
            throw InputError("block " + std::to_string(i) + ": " + e);
    for (const std::string& p : options.preorders) parsePreorders(p);

    const Region peak = peakLoad(problem);
    Result r;
    for (size_t i = 0; i < problem.blocks.size(); ++i) {
        const Block& b = problem.blocks[i];
        if (b.size > problem.capacity)
            r = fromBound(Verdict::DoesNotFit,
                          "block " + std::to_string(i) + " needs " + std::to_string(b.size) +
                              " bytes, more than the capacity " + std::to_string(problem.capacity),
                          Region{b.lower, b.upper, b.size});
        if (r.failing) break;
    }
    if (!r.failing && peak.load > problem.capacity)
        r = fromBound(Verdict::DoesNotFit,
                      "from time " + std::to_string(peak.from) + " to " + std::to_string(peak.to) +
                          " the live blocks need " + std::to_string(peak.load) + " bytes, more than the capacity " +
                          std::to_string(problem.capacity),
                      peak);
    if (!r.failing) {
        const Sweep sweep(problem);
        r = Search(problem, sweep, options).run();
    }
    r.stats.peakLoad = peak.load;
    return r;
}

}  // namespace spillway::packing
