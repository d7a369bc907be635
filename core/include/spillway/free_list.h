// Free space of one memory: a sorted list of disjoint, merged holes [start, end).
#pragma once
#include <optional>
#include <vector>

#include "graph.h"

namespace spillway {

struct Hole {
    Bytes start = 0;
    Bytes end = 0;  // exclusive
    Bytes size() const { return end - start; }
    bool operator==(const Hole& o) const { return start == o.start && end == o.end; }
};

class FreeList {
public:
    explicit FreeList(Bytes capacity);

    // Best fit: the smallest hole that holds `size` (the lowest one among equals), taken from
    // its start. nullopt when no hole is large enough.
    std::optional<Bytes> bestFit(Bytes size);
    // Takes [offset, offset+size) out of the free space. Precondition: the range is free.
    void take(Bytes offset, Bytes size);
    // Returns [offset, offset+size) to the free space, merging with neighbouring holes.
    // Precondition: the range is inside the memory and not free already.
    void release(Bytes offset, Bytes size);
    Bytes largestHole() const;
    Bytes capacity() const { return capacity_; }
    const std::vector<Hole>& holes() const { return holes_; }

private:
    Bytes capacity_;
    std::vector<Hole> holes_;
};

}  // namespace spillway
