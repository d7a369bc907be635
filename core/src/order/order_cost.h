// Internal to the order search: what an order is worth, fast enough to score thousands of them.
// - traffic: the data the residency step moves for the order, summed over memories. A memory
//   whose buffers all have one size and one cost per byte is solved by Belady's rule (write out
//   the buffer used furthest ahead), which is optimal there, in O(uses log uses); one whose
//   buffers share a size by the relaxation, which is integral there (exact); any other by the
//   residency step's greedy choice (chooseResidency without the relaxation: fast, not exact).
// - peaks: the peak of resident bytes over all memories, then the sum of each memory's peak
//   (the contest's sub-problem 1), ignoring capacities.
#pragma once
#include <vector>

#include "spillway/residency.h"

namespace spillway {

class OrderCost {
public:
    OrderCost(const Graph& g, const Capacities& caps);

    Bytes traffic(const std::vector<int>& order);  // node indices in order

    struct Peaks {
        Bytes total = 0;          // of all memories together
        Bytes sumOfMemories = 0;  // each memory's own peak, summed
        bool operator<(const Peaks& o) const {
            return total != o.total ? total < o.total : sumOfMemories < o.sumOfMemories;
        }
    };
    Peaks peaks(const std::vector<int>& order) const;

    // Operations spent in traffic() so far: a deterministic measure of time.
    std::int64_t work() const { return work_; }

private:
    struct Memory {
        std::string type;
        Bytes capacity = 0;
        bool uniform = true;  // one size and one traffic per buffer
        bool oneSize = true;
        Bytes size = 0, traffic = 0;
        std::vector<int> buffers;
    };
    bool contended(const Memory& m);
    Bytes belady(const Memory& m, int memory);

    const Graph& g_;
    Capacities caps_;
    std::vector<Memory> memories_;
    std::vector<int> memoryOfBuffer_;          // -1: no capacity given
    std::vector<std::vector<int>> buffersOf_;  // node index -> buffer indices, without repeats
    // Per node: the bytes an ALLOC adds or a FREE takes (0 for operations) and the memory, the
    // last (memories_.size()) for buffers in no memory with a capacity; read by peaks().
    struct Resize {
        Bytes delta = 0;
        int memory = 0;
    };
    std::vector<Resize> resize_;
    // scratch, per evaluation
    std::vector<int> stepOf_;
    std::vector<std::vector<int>> uses_;  // per buffer: steps, ascending
    std::vector<int> nextUse_;            // per buffer: index into uses_
    std::vector<char> resident_;
    std::vector<std::vector<int>> stepsOf_;  // per memory: steps whose node uses it
    std::vector<Bytes> live_;
    ResidencyProblem problem_;  // of the memory being scored
    const std::vector<int>* order_ = nullptr;
    std::int64_t work_ = 0;
};

}  // namespace spillway
