// A JSON text written as it goes, with no document tree: a million-node result is written in
// one pass over the plan instead of first building the JSON library's tree (3.6 GB for a 445 MB
// result). The bytes are those of the library's compact dump (`dump(-1)`, invalid UTF-8 replaced
// by U+FFFD): plain strings and integers are written here, strings needing escapes through the
// library itself and floating-point numbers with its formatting function, so the two cannot
// drift apart.
#pragma once
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "spillway/name.h"

namespace spillway {

class JsonWriter {
public:
    // Writes into a string (take() hands it over), or, with a sink, into the stream in pieces.
    JsonWriter() = default;
    explicit JsonWriter(std::ostream& sink) : sink_(&sink) {}

    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    // An object's member name; its value follows.
    JsonWriter& key(std::string_view name) {
        separate();
        string(name);
        out_ += ':';
        comma_ = false;
        return *this;
    }

    JsonWriter& value(std::int64_t v) {
        separate();
        char digits[24];
        out_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
        return done();
    }
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(bool v) {
        separate();
        out_ += v ? "true" : "false";
        return done();
    }
    // The library's own number formatting (shortest round-trip digits), as its dump() calls it.
    JsonWriter& value(double v) {
        separate();
        if (std::isfinite(v)) {
            char digits[64];
            out_.append(digits, nlohmann::detail::to_chars(digits, digits + sizeof digits, v));
        } else {
            out_ += "null";
        }
        return done();
    }
    JsonWriter& value(std::string_view s) {
        separate();
        string(s);
        return done();
    }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(const Name& s) { return value(s.view()); }
    // An array of the elements of `items` (numbers or strings).
    template <typename T>
    JsonWriter& value(const std::vector<T>& items) {
        beginArray();
        for (const T& item : items) value(item);
        return endArray();
    }
    // An object of a map's entries, in the map's (ascending key) order.
    template <typename T>
    JsonWriter& value(const std::map<std::string, T>& entries) {
        beginObject();
        for (const auto& [name, v] : entries) key(name).value(v);
        return endObject();
    }
    template <typename T>
    JsonWriter& member(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }

    // The text written (no sink), or what the sink has not received yet (none after flush()).
    std::string take() { return std::move(out_); }
    void flush() {
        if (sink_ && !out_.empty()) {
            sink_->write(out_.data(), static_cast<std::streamsize>(out_.size()));
            out_.clear();
        }
    }

private:
    static constexpr std::size_t kChunk = 1 << 20;

    void separate() {
        if (comma_) out_ += ',';
    }
    JsonWriter& done() {
        comma_ = true;
        if (sink_ && out_.size() >= kChunk) flush();
        return *this;
    }
    JsonWriter& open(char bracket) {
        separate();
        out_ += bracket;
        comma_ = false;
        return *this;
    }
    JsonWriter& close(char bracket) {
        out_ += bracket;
        return done();
    }
    // Printable ASCII without quote or backslash is written as is; anything else (escapes,
    // control characters, UTF-8, invalid bytes) the library writes.
    void string(std::string_view s) {
        for (unsigned char c : s)
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                out_ += nlohmann::ordered_json(std::string(s))
                            .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
                return;
            }
        out_ += '"';
        out_ += s;
        out_ += '"';
    }

    std::string out_;
    std::ostream* sink_ = nullptr;
    bool comma_ = false;
};

}  // namespace spillway
