// A bounded map from a 128-bit fingerprint (core/src/model/fingerprint.h) to what was computed
// for it, behind the memos that give a problem met again its earlier answer: ResidencyMemo
// (residency.h), SearchMemo (order_search.h) and the cycles objective's improved starts. Each
// entry has a weight (1, or the plan nodes it holds); past the capacity the oldest are forgotten,
// so that its memory stays bounded. Which entries it keeps changes no answer, only the time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>

namespace spillway {

template <typename Value>
class FingerprintMemo {
public:
    using Key = std::pair<std::uint64_t, std::uint64_t>;
    explicit FingerprintMemo(std::size_t capacity) : capacity_(capacity) {}

    const Value* find(const Key& key) const {
        const auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : &it->second.value;
    }
    void remember(const Key& key, Value value, std::size_t weight = 1) {
        if (weight > capacity_ || entries_.count(key)) return;
        while (stored_ + weight > capacity_) {
            stored_ -= entries_.at(age_.front()).weight;
            entries_.erase(age_.front());
            age_.pop_front();
        }
        entries_.emplace(key, Entry{std::move(value), weight});
        age_.push_back(key);
        stored_ += weight;
    }
    std::size_t size() const { return entries_.size(); }

private:
    struct Hash {  // the fingerprint is mixed already
        std::size_t operator()(const Key& k) const { return static_cast<std::size_t>(k.first); }
    };
    struct Entry {
        Value value;
        std::size_t weight;
    };
    std::unordered_map<Key, Entry, Hash> entries_;
    std::deque<Key> age_;  // oldest first
    std::size_t capacity_, stored_ = 0;
};

}  // namespace spillway
