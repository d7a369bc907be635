#include "spillway/free_list.h"

#include <algorithm>

#include "spillway/error.h"

namespace spillway {

FreeList::FreeList(Bytes capacity) : capacity_(capacity), holes_{{0, capacity}} {}

std::optional<Bytes> FreeList::bestFit(Bytes size) {
    auto best = holes_.end();
    for (auto it = holes_.begin(); it != holes_.end(); ++it)
        if (it->size() >= size && (best == holes_.end() || it->size() < best->size())) best = it;
    if (best == holes_.end()) return std::nullopt;
    const Bytes offset = best->start;
    best->start += size;
    if (best->size() == 0) holes_.erase(best);
    return offset;
}

void FreeList::take(Bytes offset, Bytes size) {
    const Bytes end = offset + size;
    auto hole =
        std::upper_bound(holes_.begin(), holes_.end(), offset, [](Bytes at, const Hole& h) { return at < h.start; });
    if (hole == holes_.begin() || std::prev(hole)->end < end)
        throw InternalError("free list: taking [" + std::to_string(offset) + ", " + std::to_string(end) +
                            ") which is not free");
    --hole;
    if (hole->start == offset && hole->end == end) {
        holes_.erase(hole);
    } else if (hole->start == offset) {
        hole->start = end;
    } else if (hole->end == end) {
        hole->end = offset;
    } else {
        const Hole after{end, hole->end};
        hole->end = offset;
        holes_.insert(std::next(hole), after);
    }
}

void FreeList::release(Bytes offset, Bytes size) {
    const Bytes end = offset + size;
    auto next =
        std::lower_bound(holes_.begin(), holes_.end(), offset, [](const Hole& h, Bytes at) { return h.start < at; });
    const bool overlapsNext = next != holes_.end() && next->start < end;
    const bool overlapsPrev = next != holes_.begin() && std::prev(next)->end > offset;
    if (offset < 0 || end > capacity_ || overlapsNext || overlapsPrev)
        throw InternalError("free list: releasing [" + std::to_string(offset) + ", " + std::to_string(end) +
                            ") which is not fully allocated");
    const bool mergePrev = next != holes_.begin() && std::prev(next)->end == offset;
    const bool mergeNext = next != holes_.end() && next->start == end;
    if (mergePrev && mergeNext) {
        std::prev(next)->end = next->end;
        holes_.erase(next);
    } else if (mergePrev) {
        std::prev(next)->end = end;
    } else if (mergeNext) {
        next->start = offset;
    } else {
        holes_.insert(next, Hole{offset, end});
    }
}

Bytes FreeList::largestHole() const {
    Bytes best = 0;
    for (const Hole& h : holes_) best = std::max(best, h.size());
    return best;
}

}  // namespace spillway
