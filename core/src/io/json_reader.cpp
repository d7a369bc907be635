#include "json_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace spillway::json {

std::string_view withoutByteOrderMark(std::string_view text) {
    constexpr std::string_view kMark = "\xEF\xBB\xBF";
    return text.substr(0, kMark.size()) == kMark ? text.substr(kMark.size()) : text;
}

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
bool isNumberChar(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

}  // namespace

std::size_t arrayEntryOffset(std::string_view text, std::size_t open, std::size_t index) {
    std::size_t depth = 0, commas = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        switch (text[i]) {
            case '"':
                for (++i; i < text.size() && text[i] != '"'; ++i)
                    if (text[i] == '\\') ++i;
                break;
            case '[':
            case '{': ++depth; break;
            case ']':
            case '}':
                if (--depth == 0) return std::string_view::npos;
                break;
            case ',':
                if (depth == 1 && ++commas == index) {
                    const std::size_t entry = text.find_first_not_of(" \t\r\n", i + 1);
                    return entry == std::string_view::npos ? text.size() : entry;
                }
                break;
            default: break;
        }
    }
    return std::string_view::npos;
}

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

namespace {

bool isHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The length of the escape at `p` (a backslash) when the library takes it without question, 0
// otherwise (also for any \u of a surrogate: the library pairs them, the lexer checks those).
std::size_t plainEscapeLength(const char* p, const char* end) {
    if (end - p < 2) return 0;
    if (std::strchr("\"\\/bfnrt", p[1]) != nullptr && p[1] != '\0') return 2;
    if (p[1] != 'u' || end - p < 6 || !std::all_of(p + 2, p + 6, isHexDigit)) return 0;
    const bool surrogate = (p[2] == 'd' || p[2] == 'D') && std::strchr("89abcdefABCDEF", p[3]) != nullptr;
    return surrogate ? 0 : 6;
}

}  // namespace

const char* StringLeap::enter(const char* content) {
    bool plain = true;
    const char* p = content;
    while (p < end_ && *p != '"') {
        const auto c = static_cast<unsigned char>(*p);
        std::size_t n = 1;
        if (c == '\\')
            n = plainEscapeLength(p, end_);
        else if (c >= 0x80)
            n = utf8SequenceLength(std::string_view(p, static_cast<std::size_t>(end_ - p)), 0);
        else if (c < 0x20)
            n = 0;
        if (n == 0) {
            plain = false;
            n = c == '\\' && end_ - p >= 2 ? 2 : 1;  // the string still ends at the first unescaped quote
        }
        p += n;
    }
    quietUntil_ = p < end_ ? p + 1 : end_;
    opening_ = nullptr;
    if (!plain || p >= end_) return content;  // the lexer reads it and reports what is wrong
    opening_ = content - 1;
    leapt_ += static_cast<std::size_t>(p - content);
    return p;
}

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

Scalar numberScalar(std::string_view token) {
    Scalar s{Kind::Float};
    auto isDigit = [&](std::size_t i) { return i < token.size() && token[i] >= '0' && token[i] <= '9'; };
    std::size_t i = token.empty() || token[0] != '-' ? 0 : 1;
    const bool negative = i == 1;
    std::string digits;         // the significant digits, the point dropped
    std::int64_t exponent = 0;  // the power of ten of the last digit
    for (; isDigit(i); ++i) digits += token[i];
    if (i < token.size() && token[i] == '.')
        for (++i; isDigit(i); ++i, --exponent) digits += token[i];
    if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
        const bool minus = ++i < token.size() && token[i] == '-';
        if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
        std::int64_t e = 0;  // saturates: any exponent beyond stays beyond every limit
        for (; isDigit(i); ++i) e = std::min<std::int64_t>(e * 10 + (token[i] - '0'), std::int64_t{1} << 30);
        exponent += minus ? -e : e;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {  // 0.0, -0e5
        s.kind = Kind::Integer;
        return s;
    }
    const std::size_t last = digits.find_last_not_of('0');
    exponent += static_cast<std::int64_t>(digits.size() - 1 - last);
    digits = digits.substr(first, last + 1 - first);
    if (exponent < 0) return s;  // a fraction remains
    constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (static_cast<std::int64_t>(digits.size()) + exponent > 19) {  // at least 10^19, beyond 2^63
        if (negative) return s;
        s.kind = Kind::Integer;
        s.beyondInt64 = true;
        s.integer = std::numeric_limits<std::int64_t>::max();
        return s;
    }
    std::uint64_t v = 0;  // below 10^19 < 2^64
    for (char c : digits) v = v * 10 + static_cast<std::uint64_t>(c - '0');
    for (std::int64_t k = 0; k < exponent; ++k) v *= 10;
    if (negative && v > kMax + 1) return s;
    s.kind = Kind::Integer;
    s.beyondInt64 = !negative && v > kMax;
    s.integer = negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(std::min(v, kMax));
    return s;
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
    t.fail(offset,
           t.what() + " nests arrays and objects deeper than " + std::to_string(limits::kMaxDepth) +
               " levels (limit depth = " + std::to_string(limits::kMaxDepth) + ")",
           std::move(where));
}

}  // namespace detail
}  // namespace spillway::json
