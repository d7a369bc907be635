// Internal: a 128-bit fingerprint of a stream of integers, the key of the memos that know a
// problem by what it holds (spillway/memo.h): two 64-bit hashes chained from independent seeds
// through SplitMix64's mixer (rng.h). The same value natively and in WebAssembly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace spillway {

class Fingerprint {
public:
    using Value = std::pair<std::uint64_t, std::uint64_t>;
    struct Hash {
        std::size_t operator()(const Value& v) const { return static_cast<std::size_t>(v.first); }
    };

    void add(std::int64_t v) {
        a_ = mix(a_ ^ static_cast<std::uint64_t>(v));
        b_ = mix(b_ + static_cast<std::uint64_t>(v) * 0x9e3779b97f4a7c15ULL);
    }
    template <typename Range>
    void addAll(const Range& values) {
        add(static_cast<std::int64_t>(values.size()));
        for (auto v : values) add(static_cast<std::int64_t>(v));
    }
    void addText(const std::string& text) {
        add(static_cast<std::int64_t>(text.size()));
        for (char ch : text) add(ch);
    }
    Value value() const { return {a_, b_}; }

private:
    static std::uint64_t mix(std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t a_ = 0x243f6a8885a308d3ULL, b_ = 0x13198a2e03707344ULL;
};

}  // namespace spillway
