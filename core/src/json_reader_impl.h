// Internal: the template part of json_reader.h (the SAX adapter). Include json_reader.h instead.
#pragma once
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "spillway/limits.h"

namespace spillway::json::detail {

// Checks that apply before parsing: size, NUL bytes, nothing but whitespace.
void checkText(const JsonText& text);
// The first byte of the token the lexer has just read, `read` bytes into the text.
std::size_t numberStart(std::string_view text, std::size_t read);
std::size_t stringStart(std::string_view text, std::size_t read);
// A syntax error at the lexer's position, with the library's reason made one readable line.
[[noreturn]] void syntaxError(const JsonText& text, std::size_t position, const std::string& reason);
[[noreturn]] void tooDeep(const JsonText& text, std::size_t offset);

// A character iterator that tells how far the parser has read (nlohmann reads one byte at a
// time through it, in order).
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** readUpTo) : at_(at), readUpTo_(readUpTo) {}
    reference operator*() const { return *at_; }
    TrackingIterator& operator++() {
        *readUpTo_ = ++at_;
        return *this;
    }
    TrackingIterator operator++(int) {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& o) const { return at_ == o.at_; }
    bool operator!=(const TrackingIterator& o) const { return at_ != o.at_; }

private:
    const char* at_;
    const char** readUpTo_;
};

template <typename Reader>
class SaxAdapter {
public:
    using Json = nlohmann::json;

    SaxAdapter(const JsonText& text, Reader& reader, const char* const& readUpTo)
        : text_(text), reader_(reader), readUpTo_(readUpTo) {}

    bool null() { return scalar(Scalar{Kind::Null}, literal(4)); }
    bool boolean(bool value) {
        Scalar s{Kind::Bool};
        s.boolean = value;
        return scalar(s, literal(value ? 4 : 5));
    }
    bool number_integer(Json::number_integer_t value) {
        Scalar s{Kind::Integer};
        s.integer = value;
        return scalar(s, numberStart(text_.text(), read()));
    }
    bool number_unsigned(Json::number_unsigned_t value) {
        Scalar s{Kind::Integer};
        s.beyondInt64 = value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        s.integer = s.beyondInt64 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(value);
        return scalar(s, numberStart(text_.text(), read()));
    }
    bool number_float(Json::number_float_t, const Json::string_t&) {
        return scalar(Scalar{Kind::Float}, numberStart(text_.text(), read()));
    }
    bool string(Json::string_t& value) {
        Scalar s{Kind::String};
        s.string = &value;
        return scalar(s, stringStart(text_.text(), read()));
    }
    bool binary(Json::binary_t&) { return true; }  // not produced by JSON text

    bool start_object(std::size_t) { return begin(Kind::Object); }
    bool start_array(std::size_t) { return begin(Kind::Array); }
    bool end_object() { return end(Kind::Object); }
    bool end_array() { return end(Kind::Array); }
    bool key(Json::string_t& k) {
        if (skipping_ == 0) reader_.onKey(k, stringStart(text_.text(), read()));
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        syntaxError(text_, position, e.what());
    }

private:
    std::size_t read() const { return static_cast<std::size_t>(readUpTo_ - text_.text().data()); }
    std::size_t literal(std::size_t length) const { return read() - length; }

    bool scalar(Scalar s, std::size_t offset) {
        if (skipping_ > 0) return true;
        s.offset = offset;
        reader_.onScalar(s);
        return true;
    }
    bool begin(Kind k) {
        const std::size_t offset = read() - 1;
        if (++depth_ > limits::kMaxDepth) tooDeep(text_, offset);
        if (skipping_ > 0) ++skipping_;
        else if (!reader_.onBegin(k, offset)) skipping_ = 1;
        return true;
    }
    bool end(Kind k) {
        --depth_;
        if (skipping_ > 0) --skipping_;
        else reader_.onEnd(k, read() - 1);
        return true;
    }

    const JsonText& text_;
    Reader& reader_;
    const char* const& readUpTo_;
    int depth_ = 0;
    int skipping_ = 0;  // > 0: inside a container the reader skips, at that depth below it
};

}  // namespace spillway::json::detail

namespace spillway::json {

template <typename Reader>
void readJson(const JsonText& text, Reader& reader) {
    detail::checkText(text);
    const char* begin = text.text().data();
    const char* readUpTo = begin;
    detail::SaxAdapter<Reader> sax(text, reader, readUpTo);
    detail::TrackingIterator first(begin, &readUpTo), last(begin + text.text().size(), &readUpTo);
    nlohmann::json::sax_parse(first, last, &sax);
}

}  // namespace spillway::json
