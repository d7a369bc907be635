// Internal: the seeded PRNG of the generators (random graphs, packing instances) and of the
// order search. SplitMix64: tiny, fast, and the same sequence everywhere (never <random>'s
// distributions, which differ between standard libraries).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace spillway {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform enough in [0, n) for n far below 2^64.
    std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }
    std::int64_t between(std::int64_t lo, std::int64_t hi) { return lo + below(hi - lo + 1); }
    // In [0, n), drawing nothing when there is no choice (n <= 1 gives 0), so that a draw with
    // one option does not move the sequence (the order search's moves rely on it).
    int choose(int n) { return n <= 1 ? 0 : static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    // A uniform element of a non-empty vector (one draw of below()).
    template <typename T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(below(static_cast<std::int64_t>(v.size())))];
    }
    // Fisher-Yates from the back: the generators' shuffles (the same permutation everywhere).
    template <typename T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i)
            std::swap(v[i - 1], v[static_cast<std::size_t>(below(static_cast<std::int64_t>(i)))]);
    }

private:
    std::uint64_t state_;
};

}  // namespace spillway
