// The program form's reader (docs/programs.md), behind parseGraphDocument.
#pragma once
#include <optional>
#include <string_view>

#include "spillway/json_io.h"

namespace spillway {

// A text whose first character other than white space (and a UTF-8 byte order mark) is not `{`
// (nor `[`, which is JSON too, if no graph).
bool isProgramText(std::string_view text);
// The graph a program translates to, with its Order, Capacities and ProgramSource. InputError
// (source "graph") with the line and column of every error.
GraphDocument parseProgram(std::string_view text, const std::optional<HostNodeLimit>& hostLimit);

}  // namespace spillway
