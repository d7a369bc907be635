// Internal to the readers: JSON text as a stream of events with their places, built on the JSON
// library's SAX parser (no document tree: a reader keeps only what its model needs).
//
// nlohmann's SAX callbacks carry no position, so the text is fed through an iterator that
// publishes how far the lexer has read; every callback comes right after its token was scanned,
// so the token's first byte is found from there (JsonText::tokenStart). The parser itself keeps
// an explicit stack (no recursion); this layer also stops at limits::kMaxDepth levels of nesting,
// rejects NUL bytes (which the library would take as the end of the text) and texts over
// limits::kMaxInputBytes, and turns syntax errors into one-line InputErrors with line and column.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "spillway/error.h"

namespace spillway::json {

enum class Kind : std::uint8_t { Null, Bool, Integer, Float, String, Array, Object };

// The text without a UTF-8 byte order mark at its start: the JSON library skips one, and so do
// the other text readers (CSV, order files), so that a file saved with one reads the same.
std::string_view withoutByteOrderMark(std::string_view text);

// "an integer", "a string", ... as messages say what was found.
const char* kindName(Kind k);

// A scalar value and where its token starts.
struct Scalar {
    Kind kind = Kind::Null;
    bool boolean = false;
    std::int64_t integer = 0;       // Kind::Integer
    bool beyondInt64 = false;       // Kind::Integer above 2^63 - 1 (`integer` is then INT64_MAX)
    std::string* string = nullptr;  // Kind::String; the reader may move from it
    std::size_t offset = 0;
};

struct Position {
    std::int64_t line = 0, column = 0;  // 1-based; column counts characters (code points)
};

// The text being read: positions of byte offsets and the token at an offset.
class JsonText {
public:
    JsonText(std::string_view text, std::string source, std::string what)
        : text_(text), source_(std::move(source)), what_(std::move(what)) {}

    std::string_view text() const { return text_; }
    const std::string& source() const { return source_; }  // "graph", "options", "result"
    const std::string& what() const { return what_; }      // "the graph", ...

    // Line and column of a byte offset. Increasing offsets cost what lies between them.
    Position position(std::size_t offset) const;
    // The token starting at `offset` (a number, string with its quotes, or literal).
    std::string_view token(std::size_t offset) const;
    // An InputError at `offset`: "line L, column C: " + message, with `where` completed.
    [[noreturn]] void fail(std::size_t offset, const std::string& message, ErrorPlace where = {}) const;
    // The same, naming the field (ErrorPlace::field) the error is about.
    [[noreturn]] void failField(std::size_t offset, const std::string& message, const std::string& field) const;

private:
    std::string_view text_;
    std::string source_, what_;
    mutable std::size_t cachedOffset_ = 0;
    mutable Position cached_{1, 1};
};

// The offset of entry `index` (0-based) of the array whose '[' is at `open`, or npos when the
// array has no such entry. A quick walk over the text that counts the commas outside strings
// and nested containers, checking no syntax (the parser does that): a reader asks it for the
// entry just past a count limit, to refuse the limit when the array begins rather than after
// reading (and storing) every entry up to it.
std::size_t arrayEntryOffset(std::string_view text, std::size_t open, std::size_t index);

// What a reader implements (all called in text order):
//   void onScalar(const Scalar&);                 // a value that is no container
//   bool onBegin(Kind k, std::size_t offset);     // an array or object starts; false skips it
//                                                 // whole (its onEnd is not called either)
//   bool onKey(std::string& key, std::size_t offset);  // false: the key's value is not used
//                                                 // (a string value then arrives empty)
//   void onEnd(Kind k, std::size_t offset);
// Throws InputError for malformed text and whatever the reader's callbacks throw.
template <typename Reader>
void readJson(const JsonText& text, Reader& reader);

}  // namespace spillway::json

#include "json_reader_impl.h"
