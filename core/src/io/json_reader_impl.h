// Internal: the template part of json_reader.h (the SAX adapter). Include json_reader.h instead.
#pragma once
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "spillway/limits.h"

namespace spillway::json::detail {

// A number the library read as a float (a fraction or an exponent), from its text: an integer
// when it is one exactly (1e0, 128e0, 2.0; beyondInt64 above 2^63 - 1), decided on its digits,
// not on a double. Otherwise Kind::Float (1.5, 1e-400, and integers below -2^63, as the library
// reads those).
Scalar numberScalar(std::string_view token);
// Checks that apply before parsing: size, NUL bytes, nothing but whitespace.
void checkText(const JsonText& text);
// The first byte of the token the lexer has just read, `read` bytes into the text.
std::size_t numberStart(std::string_view text, std::size_t read);
std::size_t stringStart(std::string_view text, std::size_t read);
// A syntax error at the lexer's position, with the library's reason made one readable line.
[[noreturn]] void syntaxError(const JsonText& text, std::size_t position, const std::string& reason);
[[noreturn]] void tooDeep(const JsonText& text, std::size_t offset);

// Strings no reader will see (values of keys it does not use, anything inside a container it
// skips) are leapt over instead of lexed: the library would build each in memory, twice (its
// token and its raw text), an unused field costing its size several times over. The iterator, on
// passing an opening quote while armed, checks the string as the library would (escapes,
// control characters, UTF-8) and moves to its closing quote, so the lexer reads "". A string
// that fails the check is left to the lexer, which reports it as before.
class StringLeap {
public:
    explicit StringLeap(std::string_view text) : end_(text.data() + text.size()) {}
    void arm(bool on) { armed_ = on; }
    // `at` is just past a quote the lexer read: where the lexer goes on.
    const char* passedQuote(const char* at) {
        if (!armed_ || at <= quietUntil_) return at;
        return enter(at);
    }
    // The opening quote of the string that ends just before `at`, when it was leapt over.
    const char* leaptOpening(const char* at) const { return at == quietUntil_ ? opening_ : nullptr; }
    // The bytes the lexer did not read: its count of characters read plus these is the offset.
    std::size_t leapt() const { return leapt_; }

private:
    const char* enter(const char* content);
    const char* end_;
    bool armed_ = false;
    const char* quietUntil_ = nullptr;  // past the closing quote of the last string entered
    const char* opening_ = nullptr;     // that string's opening quote, if it was leapt over
    std::size_t leapt_ = 0;
};

// A character iterator that tells how far the parser has read (nlohmann reads one byte at a
// time through it, in order).
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** readUpTo, StringLeap* leap)
        : at_(at), readUpTo_(readUpTo), leap_(leap) {}
    reference operator*() const { return *at_; }
    TrackingIterator& operator++() {
        if (*at_++ == '"') at_ = leap_->passedQuote(at_);
        *readUpTo_ = at_;
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
    StringLeap* leap_;
};

template <typename Reader>
class SaxAdapter {
public:
    using Json = nlohmann::json;

    SaxAdapter(const JsonText& text, Reader& reader, const char* const& readUpTo, StringLeap& leap)
        : text_(text), reader_(reader), readUpTo_(readUpTo), leap_(leap) {}

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
    bool number_float(Json::number_float_t, const Json::string_t& token) {
        return scalar(numberScalar(token), numberStart(text_.text(), read()));
    }
    bool string(Json::string_t& value) {
        Scalar s{Kind::String};
        s.string = &value;
        const char* opening = leap_.leaptOpening(readUpTo_);  // found without searching back over it
        return scalar(
            s, opening ? static_cast<std::size_t>(opening - text_.text().data()) : stringStart(text_.text(), read()));
    }
    bool binary(Json::binary_t&) { return true; }  // not produced by JSON text

    bool start_object(std::size_t) { return begin(Kind::Object); }
    bool start_array(std::size_t) { return begin(Kind::Array); }
    bool end_object() { return end(Kind::Object); }
    bool end_array() { return end(Kind::Array); }
    bool key(Json::string_t& k) {
        // The value comes next: unused, its string need not be built.
        if (skipping_ == 0) leap_.arm(!reader_.onKey(k, stringStart(text_.text(), read())));
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        syntaxError(text_, position + leap_.leapt(), e.what());
    }

private:
    std::size_t read() const { return static_cast<std::size_t>(readUpTo_ - text_.text().data()); }
    std::size_t literal(std::size_t length) const { return read() - length; }

    bool scalar(Scalar s, std::size_t offset) {
        leap_.arm(skipping_ > 0);
        if (skipping_ > 0) return true;
        s.offset = offset;
        reader_.onScalar(s);
        return true;
    }
    bool begin(Kind k) {
        const std::size_t offset = read() - 1;
        if (++depth_ > limits::kMaxDepth) tooDeep(text_, offset);
        if (skipping_ > 0)
            ++skipping_;
        else if (!reader_.onBegin(k, offset))
            skipping_ = 1;
        leap_.arm(skipping_ > 0);
        return true;
    }
    bool end(Kind k) {
        --depth_;
        if (skipping_ > 0)
            --skipping_;
        else
            reader_.onEnd(k, read() - 1);
        leap_.arm(skipping_ > 0);
        return true;
    }

    const JsonText& text_;
    Reader& reader_;
    const char* const& readUpTo_;
    StringLeap& leap_;
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
    detail::StringLeap leap(text.text());
    detail::SaxAdapter<Reader> sax(text, reader, readUpTo, leap);
    detail::TrackingIterator first(begin, &readUpTo, &leap), last(begin + text.text().size(), &readUpTo, &leap);
    nlohmann::json::sax_parse(first, last, &sax);
}

}  // namespace spillway::json
