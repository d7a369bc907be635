#include "json_reader.h"

#include <cstring>

namespace spillway::json {

const char* kindName(Kind k) {
    switch (k) {
        case Kind::Null: return "null";
        case Kind::Bool: return "a boolean";
        case Kind::Integer: return "an integer";
        case Kind::Float: return "a non-integer number";
        case Kind::String: return "a string";
        case Kind::Array: return "an array";
        case Kind::Object: return "an object";
    }
    return "?";
}

namespace {

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
bool isNumberChar(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

Position JsonText::position(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    if (offset < cachedOffset_) {
        cachedOffset_ = 0;
        cached_ = {1, 1};
    }
    const char* p = text_.data() + cachedOffset_;
    const char* end = text_.data() + offset;
    while (p < end) {
        const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        if (nl == nullptr) {
            for (; p < end; ++p)
                if (!isContinuationByte(*p)) ++cached_.column;
            break;
        }
        ++cached_.line;
        cached_.column = 1;
        p = static_cast<const char*>(nl) + 1;
    }
    cachedOffset_ = offset;
    return cached_;
}

std::string_view JsonText::token(std::size_t offset) const {
    if (offset >= text_.size()) return {};
    std::size_t end = offset + 1;
    if (text_[offset] == '"') {
        while (end < text_.size() && text_[end] != '"') end += text_[end] == '\\' ? 2 : 1;
        end = std::min(end + 1, text_.size());
    } else {
        while (end < text_.size() && (isNumberChar(text_[end]) || (text_[end] >= 'a' && text_[end] <= 'z'))) ++end;
    }
    return text_.substr(offset, end - offset);
}

void JsonText::fail(std::size_t offset, const std::string& message, ErrorPlace where) const {
    if (where.source.empty()) where.source = source_;
    const Position p = position(offset);
    throw locatedError(InputError(message, std::move(where)), p.line, p.column);
}

void JsonText::failField(std::size_t offset, const std::string& message, const std::string& field) const {
    ErrorPlace where;
    where.field = field;
    fail(offset, message, std::move(where));
}

namespace detail {

void checkText(const JsonText& t) {
    const std::string_view text = t.text();
    if (static_cast<std::int64_t>(text.size()) > limits::kMaxInputBytes)
        limits::exceeded(t.what() + " has " + std::to_string(text.size()) + " bytes", "inputBytes",
                         limits::kMaxInputBytes, t.source());
    const void* nul = std::memchr(text.data(), '\0', text.size());
    if (nul != nullptr)
        t.fail(static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()),
               t.what() + " contains a NUL byte: not JSON text");
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        ErrorPlace where;
        where.source = t.source();
        throw InputError(t.what() + " is empty: expected a JSON object", std::move(where));
    }
}

std::size_t numberStart(std::string_view text, std::size_t read) {
    // The lexer has read one byte past a number (and put it back) unless the text ended there;
    // either way the number is the run of number characters ending at or just before `read`.
    std::size_t end = std::min(read, text.size());
    if (end > 0 && !(text[end - 1] >= '0' && text[end - 1] <= '9')) --end;
    std::size_t start = end;
    while (start > 0 && isNumberChar(text[start - 1])) --start;
    return start;
}

std::size_t stringStart(std::string_view text, std::size_t read) {
    // text[read - 1] is the closing quote; the opening one is the nearest earlier quote that is
    // not escaped (preceded by an even number of backslashes).
    std::size_t q = read - 1;
    while (q > 0) {
        q = text.rfind('"', q - 1);
        if (q == std::string_view::npos) return 0;
        std::size_t slashes = 0;
        while (q > slashes && text[q - 1 - slashes] == '\\') ++slashes;
        if (slashes % 2 == 0) return q;
    }
    return 0;
}

void syntaxError(const JsonText& t, std::size_t position, const std::string& what) {
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5: <reason>"; the
    // reason may quote the token read ("... last read: '<token>'"), which can be huge.
    std::string reason = what;
    if (reason.rfind("[json.exception.", 0) == 0 && reason.find("] ") != std::string::npos)
        reason = reason.substr(reason.find("] ") + 2);
    if (reason.rfind("parse error", 0) == 0 && reason.find(": ") != std::string::npos)
        reason = reason.substr(reason.find(": ") + 2);
    const std::size_t q1 = reason.find('\''), q2 = reason.rfind('\'');
    if (q1 != std::string::npos && q2 > q1)
        reason = reason.substr(0, q1 + 1) + excerpt(std::string_view(reason).substr(q1 + 1, q2 - q1 - 1)) +
                 reason.substr(q2);
    // The position counts the bytes read, the offending one included; a number too large for a
    // double is reported at its first digit.
    const std::string_view text = t.text();
    std::size_t at = position > 0 ? position - 1 : 0;
    if (reason.rfind("number overflow", 0) == 0) at = numberStart(text, position);
    if (at < text.size() && (text[at] == ']' || text[at] == '}')) {
        const std::size_t before = text.find_last_not_of(" \t\r\n", at == 0 ? 0 : at - 1);
        if (at > 0 && before != std::string_view::npos && text[before] == ',')
            t.fail(before, t.what() + " is not valid JSON: a trailing comma before '" + std::string(1, text[at]) +
                               "' (JSON allows none)");
    }
    t.fail(at, t.what() + " is not valid JSON: " + reason);
}

void tooDeep(const JsonText& t, std::size_t offset) {
    ErrorPlace where;
    where.limit = LimitPlace{"depth", limits::kMaxDepth};
    t.fail(offset, t.what() + " nests arrays and objects deeper than " + std::to_string(limits::kMaxDepth) +
                       " levels (limit depth = " + std::to_string(limits::kMaxDepth) + ")",
           std::move(where));
}

}  // namespace detail
}  // namespace spillway::json
