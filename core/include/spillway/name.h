// A name from a graph (a node's Op and Pipe, a memory's Type), stored once however many nodes
// carry it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace spillway {

// An interned name: a pointer to the one copy of its text (8 bytes; a std::string is 32, and
// every node holds three names). It reads as its text (a const std::string& or string_view),
// compares equal by identity, which is the same as equal text, and orders by its text, so a
// std::map keyed by names keeps the order it had with strings. Empty text is a null pointer.
//
// Where the texts live: one table for the process, each text counted by the Names holding it
// and removed when the last one goes. So the table holds the distinct texts of the graphs and
// plans alive, never more: the browser's worker plans graph after graph in one process. A
// table per graph would need its graph at hand wherever a name is read (errors, writers, maps
// keyed by memory names) and would leave a plan's SPILL nodes pointing into a graph that may
// be gone; counting keeps copies and moves of graphs, plans and nodes correct on their own.
// Thread-safe: the table is locked when a text is added or its last Name goes (a counter
// change otherwise); parsing adds three names a node, an uncontended lock each.
class Name {
public:
    Name() noexcept = default;
    Name(std::string_view text);
    Name(const std::string& text) : Name(std::string_view(text)) {}
    Name(const char* text) : Name(std::string_view(text)) {}
    Name(const Name& other) noexcept : entry_(other.entry_) {
        if (entry_) entry_->uses.fetch_add(1, std::memory_order_relaxed);
    }
    Name(Name&& other) noexcept : entry_(std::exchange(other.entry_, nullptr)) {}
    Name& operator=(const Name& other) noexcept {
        Name copy(other);
        std::swap(entry_, copy.entry_);
        return *this;
    }
    Name& operator=(Name&& other) noexcept {
        std::swap(entry_, other.entry_);
        return *this;
    }
    ~Name() {
        if (entry_) release(entry_);
    }

    const std::string& str() const noexcept { return entry_ ? entry_->text : emptyText(); }
    operator const std::string&() const noexcept { return str(); }
    operator std::string_view() const noexcept { return view(); }
    std::string_view view() const noexcept { return entry_ ? std::string_view(entry_->text) : std::string_view(); }
    const char* c_str() const noexcept { return str().c_str(); }
    bool empty() const noexcept { return entry_ == nullptr; }
    std::size_t size() const noexcept { return view().size(); }

    // How many distinct texts the process holds (those of the Names alive): for tests.
    static std::size_t storedTexts();

    // Against another name by identity; against plain text by text (one overload per kind of
    // text, so that none is ambiguous). Friends found only with a Name operand, so comparisons
    // of plain strings with each other never consider converting them to Names.
    friend bool operator==(const Name& a, const Name& b) noexcept { return a.entry_ == b.entry_; }
    friend bool operator!=(const Name& a, const Name& b) noexcept { return a.entry_ != b.entry_; }
    friend bool operator==(const Name& a, std::string_view b) noexcept { return a.view() == b; }
    friend bool operator==(const Name& a, const std::string& b) noexcept { return a.view() == std::string_view(b); }
    friend bool operator==(const Name& a, const char* b) noexcept { return a.view() == std::string_view(b); }
    friend bool operator==(std::string_view a, const Name& b) noexcept { return b == a; }
    friend bool operator==(const std::string& a, const Name& b) noexcept { return b == a; }
    friend bool operator==(const char* a, const Name& b) noexcept { return b == a; }
    friend bool operator!=(const Name& a, std::string_view b) noexcept { return !(a == b); }
    friend bool operator!=(const Name& a, const std::string& b) noexcept { return !(a == b); }
    friend bool operator!=(const Name& a, const char* b) noexcept { return !(a == b); }
    friend bool operator!=(std::string_view a, const Name& b) noexcept { return !(b == a); }
    friend bool operator!=(const std::string& a, const Name& b) noexcept { return !(b == a); }
    friend bool operator!=(const char* a, const Name& b) noexcept { return !(b == a); }
    // By text, never by where the text happens to be stored: the order shows in results.
    friend bool operator<(const Name& a, const Name& b) noexcept { return a.entry_ != b.entry_ && a.view() < b.view(); }
    friend bool operator>(const Name& a, const Name& b) noexcept { return b < a; }
    friend bool operator<=(const Name& a, const Name& b) noexcept { return !(b < a); }
    friend bool operator>=(const Name& a, const Name& b) noexcept { return !(a < b); }

    // Text built around a name, as with a std::string ("Op " + node.op + " is ...").
    friend std::string operator+(std::string a, const Name& b) { return a.append(b.view()); }
    friend std::string operator+(const char* a, const Name& b) { return std::string(a).append(b.view()); }
    friend std::string operator+(const Name& a, std::string_view b) { return std::string(a.view()).append(b); }
    friend std::string operator+(const Name& a, const std::string& b) { return a + std::string_view(b); }
    friend std::string operator+(const Name& a, const char* b) { return a + std::string_view(b); }

    friend std::ostream& operator<<(std::ostream& os, const Name& n);

private:
    struct Entry {
        explicit Entry(std::string_view t) : text(t) {}
        const std::string text;
        std::atomic<std::uint32_t> uses{1};
    };
    friend struct NameTable;
    static const std::string& emptyText() noexcept;
    static void release(Entry* e) noexcept;

    Entry* entry_ = nullptr;
};

}  // namespace spillway
