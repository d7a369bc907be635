#include "spillway/name.h"

#include <memory>
#include <mutex>
#include <ostream>
#include <unordered_map>

namespace spillway {

// The texts of the Names alive, each keyed by a view of its own text.
struct NameTable {
    std::mutex lock;
    std::unordered_map<std::string_view, std::unique_ptr<Name::Entry>> entries;
};

namespace {

NameTable& table() {
    // Never destroyed: Names in static objects may still let go of their text at exit.
    static NameTable* const t = new NameTable;
    return *t;
}

}  // namespace

Name::Name(std::string_view text) {
    if (text.empty()) return;
    NameTable& t = table();
    std::lock_guard<std::mutex> hold(t.lock);
    auto it = t.entries.find(text);
    if (it != t.entries.end()) {
        entry_ = it->second.get();
        entry_->uses.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    auto e = std::make_unique<Entry>(text);
    entry_ = e.get();
    t.entries.emplace(std::string_view(entry_->text), std::move(e));
}

const std::string& Name::emptyText() noexcept {
    static const std::string* const empty = new std::string;
    return *empty;
}

void Name::release(Entry* e) noexcept {
    std::uint32_t uses = e->uses.load(std::memory_order_relaxed);
    while (uses > 1)
        if (e->uses.compare_exchange_weak(uses, uses - 1, std::memory_order_release, std::memory_order_relaxed)) return;
    // Maybe the last holder: decide under the lock, where the constructor may take the text
    // up again meanwhile (then the count is not 1 any more and the text stays).
    NameTable& t = table();
    std::lock_guard<std::mutex> hold(t.lock);
    if (e->uses.fetch_sub(1, std::memory_order_acq_rel) == 1) t.entries.erase(std::string_view(e->text));
}

std::size_t Name::storedTexts() {
    NameTable& t = table();
    std::lock_guard<std::mutex> hold(t.lock);
    return t.entries.size();
}

std::ostream& operator<<(std::ostream& os, const Name& n) { return os << n.view(); }

}  // namespace spillway
