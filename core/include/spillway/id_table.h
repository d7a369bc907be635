#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace spillway {

// A map from ids as the user wrote them (node or buffer ids) to small non-negative ints: a flat
// array over [least id, largest id] when the ids are dense, as generated and contest graphs are
// (nodes numbered from 0, spill nodes after them), else a hash map. At a million nodes each
// lookup in a hash map is two or three cache misses in scattered heap nodes, and they made the
// timing and the verifier grow faster than n; the flat array's is one, and 4 bytes an id.
class IdTable {
public:
    static constexpr int kAbsent = -1;

    IdTable() = default;
    // Ready for ids within [least, largest], `count` of them or about.
    IdTable(std::int64_t least, std::int64_t largest, std::size_t count) {
        const std::int64_t span = largest - least + 1;
        flat_ = count > 0 && span <= 4 * static_cast<std::int64_t>(count) + 1024;
        if (flat_) {
            base_ = least;
            table_.assign(static_cast<std::size_t>(span), kAbsent);
        } else {
            hashed_.reserve(count);
        }
    }
    // A table of `ids` (any range of ints), ready for them; nothing inserted yet.
    template <typename Ids>
    static IdTable over(const Ids& ids) {
        if (ids.begin() == ids.end()) return IdTable();
        auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
        return IdTable(*lo, *hi, static_cast<std::size_t>(ids.end() - ids.begin()));
    }

    // A table mapping each of `ids` to its position among them (the first, if repeated).
    template <typename Ids>
    static IdTable positions(const Ids& ids) {
        IdTable t = over(ids);
        int i = 0;
        for (auto id : ids) t.emplace(id, i++);
        return t;
    }

    // Maps `id` to `value` unless it is mapped already; returns the value it maps to now.
    int emplace(std::int64_t id, int value) {
        if (!flat_) return hashed_.emplace(id, value).first->second;
        int& slot = table_[static_cast<std::size_t>(id - base_)];  // ids outside the range: a caller's bug
        if (slot == kAbsent) slot = value, ++flatCount_;
        return slot;
    }
    int find(std::int64_t id) const {
        if (!flat_) {
            auto it = hashed_.find(id);
            return it == hashed_.end() ? kAbsent : it->second;
        }
        if (id < base_ || id - base_ >= static_cast<std::int64_t>(table_.size())) return kAbsent;
        return table_[static_cast<std::size_t>(id - base_)];
    }
    bool contains(std::int64_t id) const { return find(id) != kAbsent; }
    // Maps each id to to[the value it maps to]: a new numbering without a second table.
    void renumber(const std::vector<int>& to) {
        for (int& v : table_)
            if (v != kAbsent) v = to[static_cast<std::size_t>(v)];
        for (auto& entry : hashed_) entry.second = to[static_cast<std::size_t>(entry.second)];
    }
    // The value of an id that must be there; throws std::out_of_range if not (as
    // std::unordered_map::at, which Graph::node(id) used before).
    int at(std::int64_t id) const {
        const int value = find(id);
        if (value == kAbsent) throw std::out_of_range("no id " + std::to_string(id) + " in the table");
        return value;
    }
    // How many ids are mapped.
    std::size_t size() const { return flat_ ? flatCount_ : hashed_.size(); }

private:
    bool flat_ = false;
    std::int64_t base_ = 0;
    std::vector<int> table_;
    std::size_t flatCount_ = 0;
    std::unordered_map<std::int64_t, int> hashed_;
};

}  // namespace spillway
