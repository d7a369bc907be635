#include "spillway/error.h"

#include "spillway/limits.h"

namespace spillway {

std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c == 0xE0)
        n = 3, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC)
        n = 3;
    else if (c == 0xED)
        n = 3, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF)
        n = 3;
    else if (c == 0xF0)
        n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
        n = 4;
    else if (c == 0xF4)
        n = 4, hi = 0x8F;
    else
        return 0;
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8SequenceLength(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else if (n == 1 && (static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7F)) {
            out += ' ';
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string excerpt(std::string_view text, std::size_t max) {
    std::string clean = printable(text.substr(0, max + 4));
    if (text.size() <= max) return clean;
    std::size_t cut = std::min(max, clean.size());
    while (cut > 0 && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80) --cut;  // whole characters
    return clean.substr(0, cut) + "... (" + std::to_string(text.size()) + " bytes)";
}

InputError::InputError(const std::string& message, ErrorPlace place)
    : std::runtime_error(printable(message)), where(std::move(place)) {}

InternalError::InternalError(const std::string& message) : std::runtime_error(printable(message)) {}

InputError locatedError(const InputError& e, std::int64_t line, std::int64_t column) {
    if (e.where.line) return e;
    ErrorPlace where = e.where;
    where.line = line;
    where.column = column;
    return InputError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + e.what(),
                      std::move(where));
}

namespace limits {

void exceeded(const std::string& what, const char* name, std::int64_t max, const std::string& source) {
    ErrorPlace where;
    where.source = source;
    where.limit = LimitPlace{name, max};
    throw InputError(what + " (limit " + name + " = " + std::to_string(max) + ")", std::move(where));
}

}  // namespace limits
}  // namespace spillway
