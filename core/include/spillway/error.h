// Errors the library reports. Every message names the place (line/column, node id, field,
// buffer id, edge) so that a user can find what to fix without reading our code; an InputError
// also carries that place as data (ErrorPlace, the bindings' "where"), so that the playground
// can point at it without reading English (docs/result-format.md, "Errors").
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// A stated limit that input exceeded (limits.h lists them all).
struct LimitPlace {
    std::string name;
    std::int64_t max = 0;
};

// Where an input error is. Every member is optional: present only when known.
struct ErrorPlace {
    std::string source;                  // "graph" | "options" | "order" | "result" | "csv"
    std::optional<std::int64_t> line;    // 1-based, in that text
    std::optional<std::int64_t> column;  // 1-based, in bytes
    std::optional<std::int64_t> node;    // a node Id that exists in Nodes
    std::optional<std::int64_t> nodeIndex;
    std::string field;  // "Size", "Bufs[2]", "Capacities.UB", ...
    std::optional<std::int64_t> buffer;
    std::optional<std::int64_t> edge;  // index in Edges
    std::optional<std::int64_t> step;  // position in an order
    std::vector<std::int64_t> cycle;   // node ids of a dependency cycle
    std::optional<std::string> memory;
    std::optional<LimitPlace> limit;
};

// The input (graph, order, capacities, options, result file) is wrong. The CLI exits 2 on it.
// The message is made valid UTF-8 (invalid bytes become U+FFFD) and stays one line.
struct InputError : std::runtime_error {
    explicit InputError(const std::string& message, ErrorPlace where = {});
    ErrorPlace where;
};

// A plan failed the verifier or an invariant broke: a bug of ours, never printed as success.
// The CLI exits 3 on it.
struct InternalError : std::runtime_error {
    explicit InternalError(const std::string& message);
};

// The same error at a position in its text: "line L, column C: " + message, line and column in
// `where` (kept when the error already has them).
InputError locatedError(const InputError& e, std::int64_t line, std::int64_t column);

// Length of the valid UTF-8 sequence starting at text[i], or 0 when the byte there starts none
// (overlong forms, surrogates and code points above U+10FFFF are invalid, as in RFC 3629).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i);

// `text` as valid UTF-8 on one line: invalid bytes become U+FFFD, control characters spaces.
std::string printable(std::string_view text);

// A user's value quoted in a message: printable() and cut to `max` bytes (whole characters)
// with "..." and its full length, so that a 1 MB token is not echoed whole.
std::string excerpt(std::string_view text, std::size_t max = 40);

}  // namespace spillway
