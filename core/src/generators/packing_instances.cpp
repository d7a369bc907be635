#include "spillway/packing_instances.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <numeric>

#include "minimalloc_challenging.h"
#include "model/rng.h"
#include "spillway/error.h"
#include "spillway/packing_io.h"
#include "spillway/packing_validator.h"

namespace spillway::packing {
namespace {

// A piece of the rectangle, in units: times [t0, t1), bytes [y0, y1).
struct Piece {
    std::int64_t t0, t1, y0, y1;
    bool hole = false;  // skyline: room left empty for a while, not a block
    std::int64_t area() const { return (t1 - t0) * (y1 - y0); }
};

// Splits pieces until there are `count` or none can be split. Random: a piece drawn with
// probability proportional to its area, cut across time or space between 10% and 90% of its
// extent. Even: the largest piece, across its relatively longer side, near the middle.
std::vector<Piece> cutPieces(std::int64_t width, std::int64_t height, int count, bool even, Rng& rng) {
    std::vector<Piece> pieces = {{0, width, 0, height, false}};
    while (static_cast<int>(pieces.size()) < count) {
        std::int64_t splittableArea = 0;
        for (const Piece& p : pieces)
            if (p.area() > 1) splittableArea += p.area();
        if (splittableArea == 0) break;
        size_t pick = 0;
        if (even) {
            for (size_t i = 1; i < pieces.size(); ++i)
                if (pieces[i].area() > pieces[pick].area()) pick = i;
        } else {
            std::int64_t at = rng.below(splittableArea);
            while (pieces[pick].area() <= 1 || at >= pieces[pick].area()) {
                if (pieces[pick].area() > 1) at -= pieces[pick].area();
                ++pick;
            }
        }
        Piece p = pieces[pick];
        const std::int64_t across = p.t1 - p.t0, up = p.y1 - p.y0;
        bool inTime = even ? across * height >= up * width : rng.below(2) == 0;
        if (across < 2) inTime = false;
        if (up < 2) inTime = true;
        const std::int64_t extent = inTime ? across : up;
        const std::int64_t at =
            std::clamp<std::int64_t>(extent * (even ? rng.between(35, 65) : rng.between(10, 90)) / 100, 1, extent - 1);
        Piece q = p;
        if (inTime) {
            p.t1 = p.t0 + at;
            q.t0 = p.t1;
        } else {
            p.y1 = p.y0 + at;
            q.y0 = p.y1;
        }
        pieces[pick] = p;
        pieces.push_back(q);
    }
    return pieces;
}

// Draws from a quantile function given at 21 evenly spaced probabilities (0%, 5%, ..., 100%),
// linear between them. Integers only: the same draws on every platform.
std::int64_t drawQuantile(const std::int64_t (&q)[21], Rng& rng) {
    const std::int64_t at = rng.below(20 * 1000);  // probability in thousandths of a 5% step
    const std::int64_t step = at / 1000, within = at % 1000;
    return q[step] + (q[step + 1] - q[step]) * within / 1000;
}

// The distributions measured over the 3,112 blocks of google/minimalloc's 11 "challenging"
// instances (docs/packing.md): block sizes in 1/1024ths of the capacity, and block areas
// (size x lifetime) in percent of their instance's mean block area.
constexpr std::int64_t kMeasuredSize[21] = {1,  4,  8,  12, 17, 24,  33,  41,  47,  53, 58,
                                            63, 68, 73, 79, 87, 104, 141, 203, 330, 861};
constexpr std::int64_t kMeasuredArea[21] = {0,   18,  30,  45,  57,  68,  76,  81,  87,  92, 98,
                                            105, 112, 118, 127, 135, 143, 156, 170, 184, 217};

// Walks through time; whenever blocks end, fills every free hole with new blocks of random
// size and duration, like an allocator under churn; with probability skipPercent a piece stays
// empty for its duration instead.
std::vector<Piece> skylinePieces(std::int64_t width, std::int64_t height, int count, int skipPercent, Rng& rng) {
    // Aim at `count` blocks: each block covers about width * height / count units.
    const std::int64_t area = std::max<std::int64_t>(1, width * height / std::max(1, count));
    std::vector<Piece> done, live;
    std::int64_t t = 0;
    while (t < width) {
        std::sort(live.begin(), live.end(), [](const Piece& a, const Piece& b) { return a.y0 < b.y0; });
        std::vector<Piece> next;
        std::int64_t y = 0;
        auto fill = [&](std::int64_t from, std::int64_t to) {
            while (from < to) {
                // Sizes and durations of every scale: a random split of the typical area.
                const std::int64_t size =
                    std::min(to - from, rng.between(1, std::max<std::int64_t>(1, 2 * height / 16)));
                const std::int64_t span =
                    std::clamp<std::int64_t>(area / size * rng.between(50, 150) / 100, 1, width - t);
                next.push_back({t, t + span, from, from + size, rng.below(100) < skipPercent});
                from += size;
            }
        };
        for (const Piece& p : live) {
            fill(y, p.y0);
            y = p.y1;
            next.push_back(p);
        }
        fill(y, height);
        live.clear();
        std::int64_t soonest = width;
        for (const Piece& p : next) soonest = std::min(soonest, p.t1);
        for (const Piece& p : next) (p.t1 == soonest ? done : live).push_back(p);
        t = soonest;
    }
    for (const Piece& p : live) done.push_back(p);
    done.erase(std::remove_if(done.begin(), done.end(), [](const Piece& p) { return p.hole; }), done.end());
    return done;
}

// Like a program's buffers (the Measured style): blocks whose size and area are drawn from the
// distributions measured on minimalloc's 11, each placed at the lowest offset free over its
// lifetime, at the best of a few random start steps (one is rejected when it would pass the
// capacity). Then the layout is tightened to minimalloc's peak and fill: every block grows up to
// the block above it (or the capacity), and with probability stretchPercent it lives on,
// earlier and later, until a block below or above it in the same bytes needs them.
std::vector<Piece> measuredPieces(std::int64_t width, std::int64_t height, int count, int stretchPercent, Rng& rng) {
    const std::int64_t meanArea = std::max<std::int64_t>(1, width * height / std::max(1, count));
    constexpr int kStartTries = 8, kRejectionsPerBlock = 20;
    // Blocks start and end at one of count / 2 steps, as a program's buffers do at its operations.
    const std::int64_t step = std::max<std::int64_t>(1, width / std::max(1, count / 2));
    std::vector<Piece> placed;
    auto lowestFree = [&](std::int64_t t0, std::int64_t t1, std::int64_t size) {
        std::vector<std::pair<std::int64_t, std::int64_t>> below;
        for (const Piece& p : placed)
            if (p.t0 < t1 && t0 < p.t1) below.emplace_back(p.y0, p.y1);
        std::sort(below.begin(), below.end());
        std::int64_t y = 0;
        for (const auto& [y0, y1] : below) {
            if (y + size <= y0) break;
            y = std::max(y, y1);
        }
        return y;
    };
    for (int rejected = 0; static_cast<int>(placed.size()) < count && rejected < kRejectionsPerBlock * count;) {
        const std::int64_t size = std::clamp<std::int64_t>(drawQuantile(kMeasuredSize, rng) * height / 1024, 1, height);
        const std::int64_t drawn =
            std::clamp<std::int64_t>(meanArea * drawQuantile(kMeasuredArea, rng) / 100 / size, 1, width);
        const std::int64_t span = std::min(width / step * step, (drawn + step - 1) / step * step);
        Piece best{0, 0, height + 1, 0};
        for (int k = 0; k < kStartTries; ++k) {
            const std::int64_t t0 = rng.below((width - span) / step + 1) * step, y = lowestFree(t0, t0 + span, size);
            if (y < best.y0) best = {t0, t0 + span, y, y + size};
        }
        if (best.y1 <= height)
            placed.push_back(best);
        else
            ++rejected;
    }
    std::vector<size_t> order(placed.size());
    std::iota(order.begin(), order.end(), 0);
    rng.shuffle(order);
    for (size_t i : order) {
        Piece& p = placed[i];
        std::int64_t top = height;
        for (const Piece& q : placed)
            if (&q != &p && q.t0 < p.t1 && p.t0 < q.t1 && q.y0 >= p.y1) top = std::min(top, q.y0);
        p.y1 = top;
    }
    for (size_t i : order) {
        if (rng.below(100) >= stretchPercent) continue;
        Piece& p = placed[i];
        std::int64_t from = 0, to = width;
        for (const Piece& q : placed)
            if (&q != &p && q.y0 < p.y1 && p.y0 < q.y1) {
                if (q.t1 <= p.t0) from = std::max(from, q.t1);
                if (q.t0 >= p.t1) to = std::min(to, q.t0);
            }
        p.t0 = from;
        p.t1 = to;
    }
    return placed;
}

}  // namespace

KnownInstance cutRectangle(const CutOptions& o) {
    if (o.unit < 1 || o.capacity < o.unit || o.horizon < o.unit || o.capacity > kMaxSize || o.horizon > kMaxTime)
        throw InputError("cutRectangle: capacity must be between unit (" + std::to_string(o.unit) + ") and " +
                         std::to_string(kMaxSize) + ", horizon between unit and " + std::to_string(kMaxTime));
    if (o.blocks < 1 || static_cast<size_t>(o.blocks) > kMaxBlocks || o.dropPercent < 0 || o.dropPercent > 100 ||
        o.stretchPercent < 0 || o.stretchPercent > 100)
        throw InputError("cutRectangle: blocks must be between 1 and " + std::to_string(kMaxBlocks) +
                         ", dropPercent and stretchPercent between 0 and 100");
    Rng rng(o.seed);
    const std::int64_t width = o.horizon / o.unit, height = o.capacity / o.unit;
    std::vector<Piece> pieces;
    if (o.style == CutStyle::Skyline) {
        pieces = skylinePieces(width, height, o.blocks, o.dropPercent, rng);
    } else if (o.style == CutStyle::Measured) {
        pieces = measuredPieces(width, height, o.blocks, o.stretchPercent, rng);
    } else {
        pieces = cutPieces(width, height, o.blocks, o.style == CutStyle::Even, rng);
    }
    // Drop some pieces (skyline walks left their holes already), then shuffle: the order of the
    // blocks must not give the packing away.
    const bool walked = o.style == CutStyle::Skyline || o.style == CutStyle::Measured;
    for (size_t i = pieces.size(); i-- > 0 && !walked;)
        if (pieces.size() > 1 && rng.below(100) < o.dropPercent) pieces.erase(pieces.begin() + static_cast<long>(i));
    rng.shuffle(pieces);
    KnownInstance k;
    k.problem.capacity = o.capacity;
    for (const Piece& p : pieces) {
        k.problem.blocks.push_back({p.t0 * o.unit, p.t1 * o.unit, (p.y1 - p.y0) * o.unit, 1, {}});
        k.offsets.push_back(p.y0 * o.unit);
    }
    const char* style = o.style == CutStyle::Guillotine ? "guillotine"
                        : o.style == CutStyle::Even     ? "even"
                        : o.style == CutStyle::Skyline  ? "skyline"
                                                        : "measured";
    k.name = std::string(style) + "-" + std::to_string(o.seed);
    return k;
}

KnownInstance challengingLike(std::uint64_t seed) {
    Rng rng(seed * 0x2545F4914F6CDD1DULL + 17);
    CutOptions o;
    o.seed = seed;
    o.style = static_cast<CutStyle>(rng.below(3));
    o.blocks = static_cast<int>(rng.between(150, 460));
    // minimalloc's instances fill 57% to 98% of capacity x time; cuts fill all of it, so some
    // pieces go (a perfect tiling is a puzzle of another kind).
    o.dropPercent = static_cast<int>(o.style == CutStyle::Skyline ? rng.between(5, 25) : rng.between(2, 40));
    if (o.style != CutStyle::Skyline) o.blocks = o.blocks * 100 / (100 - o.dropPercent);
    return cutRectangle(o);
}

KnownInstance measuredLike(std::uint64_t seed) {
    Rng rng(seed * 0x9E3779B97F4A7C15ULL + 29);
    CutOptions o;
    o.seed = seed;
    o.style = CutStyle::Measured;
    o.blocks = static_cast<int>(rng.between(150, 460));
    o.stretchPercent = static_cast<int>(rng.between(0, 80));  // spreads the fill as measured (0.64 to 0.97)
    return cutRectangle(o);
}

KnownInstance minimallocChallenging(int index) {
    if (index < 0 || index >= kChallengingInstances)
        throw InputError("minimalloc's challenging instances are numbered 0 to 10, not " + std::to_string(index));
    // Packed once per process: family "derived" draws on each instance about every 11th seed.
    static std::array<std::once_flag, kChallengingInstances> once;
    static std::array<KnownInstance, kChallengingInstances> instances;
    std::call_once(once[static_cast<size_t>(index)], [index] {
        const EmbeddedCsv& csv = kMinimallocChallengingCsv[index];
        KnownInstance& k = instances[static_cast<size_t>(index)];
        k.name = std::string(csv.name).substr(0, 1);
        k.problem = parsePackingCsv(csv.text).problem;
        k.problem.capacity = 1048576;  // in the file name: A.1048576.csv
        const Result r = packValidated(k.problem, Options{});
        if (r.verdict != Verdict::Fits)
            throw InternalError("the packer did not pack minimalloc's " + std::string(csv.name) + " (" + r.reason +
                                ")");
        k.offsets = r.offsets;
    });
    return instances[static_cast<size_t>(index)];
}

namespace {

// A block of a derived instance and its place in the source's packing.
struct PlacedBlock {
    Block block;
    Bytes offset;
};

// One change to a source block (docs/packing.md, family "derived"); each keeps the result
// inside the block's rectangle (lifetime x bytes at its offset), so the source's packing holds.
enum class Change { SplitInTime, SplitInSize, ShortenLifetime, ShrinkSize };

// Applies one change, drawn uniformly among those that apply to `b`, or none when none does.
// `inner` are the source's event times strictly inside b's lifetime; sizes stay multiples of
// 1,024 (as every size of minimalloc's 11 is).
void changeBlock(const PlacedBlock& p, const std::vector<Time>& inner, Rng& rng, std::vector<PlacedBlock>& out) {
    constexpr Bytes kUnit = 1024;
    const Block& b = p.block;
    std::vector<Change> apply;
    if (!inner.empty()) apply.insert(apply.end(), {Change::SplitInTime, Change::ShortenLifetime});
    if (b.size >= 2 * kUnit && b.size % kUnit == 0)
        apply.insert(apply.end(), {Change::SplitInSize, Change::ShrinkSize});
    if (apply.empty()) {
        out.push_back(p);
        return;
    }
    PlacedBlock first = p, second = p;
    switch (rng.pick(apply)) {
        case Change::SplitInTime:
            first.block.upper = second.block.lower = rng.pick(inner);
            out.insert(out.end(), {first, second});
            return;
        case Change::SplitInSize:
            first.block.size = rng.between(1, b.size / kUnit - 1) * kUnit;
            second.block.size = b.size - first.block.size;
            second.offset = p.offset + first.block.size;
            out.insert(out.end(), {first, second});
            return;
        case Change::ShortenLifetime: {
            const Time t = rng.pick(inner);
            (rng.below(2) == 0 ? first.block.lower : first.block.upper) = t;
            out.push_back(first);
            return;
        }
        case Change::ShrinkSize:
            first.block.size = rng.between((b.size / kUnit + 1) / 2, b.size / kUnit - 1) * kUnit;
            out.push_back(first);
            return;
    }
}

}  // namespace

KnownInstance derivedFromChallenging(std::uint64_t seed) {
    const KnownInstance source = minimallocChallenging(static_cast<int>(seed % kChallengingInstances));
    Rng rng(seed * 0xD1B54A32D192ED03ULL + 43);
    const int changePercent = static_cast<int>(rng.between(10, 40));
    constexpr int kDropPercent = 1;
    // The instance's event times: where its buffers start and end (a program's operations).
    std::vector<Time> events;
    for (const Block& b : source.problem.blocks) events.insert(events.end(), {b.lower, b.upper});
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    std::vector<PlacedBlock> blocks;
    for (size_t i = 0; i < source.problem.blocks.size(); ++i) {
        const PlacedBlock p{source.problem.blocks[i], source.offsets[i]};
        if (rng.below(100) < kDropPercent) continue;
        if (rng.below(100) >= changePercent) {
            blocks.push_back(p);
            continue;
        }
        const std::vector<Time> inner(std::upper_bound(events.begin(), events.end(), p.block.lower),
                                      std::lower_bound(events.begin(), events.end(), p.block.upper));
        changeBlock(p, inner, rng, blocks);
    }
    // Shuffled: the order of the blocks must not give the source or its packing away.
    rng.shuffle(blocks);
    KnownInstance k;
    k.name = "derived-" + source.name + "-" + std::to_string(seed);
    k.problem.capacity = source.problem.capacity;
    for (const PlacedBlock& p : blocks) {
        k.problem.blocks.push_back(p.block);
        k.offsets.push_back(p.offset);
    }
    return k;
}

KnownInstance familyInstance(const std::string& family, std::uint64_t seed) {
    if (family == "measured") return measuredLike(seed);
    if (family == "cut") return challengingLike(seed);
    if (family == "derived") return derivedFromChallenging(seed);
    throw InputError("unknown instance family \"" + family + "\" (known: " + kInstanceFamilies + ")");
}

}  // namespace spillway::packing
