// Shared by the libFuzzer drivers (tests/fuzz/README.md): what every input must satisfy. Bad
// input must be an InputError with a printable one-line message; anything else (an
// InternalError, another exception, a sanitizer report, a hang) is a finding.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "spillway/error.h"

namespace spillway::fuzz {

inline void checkInputError(const InputError& e) {
    const std::string message = e.what();
    if (message.empty() || printable(message) != message || message.size() > 4096) {
        std::fprintf(stderr, "bad error message: %s\n", message.c_str());
        std::abort();
    }
    if ((e.where.line && *e.where.line < 1) || (e.where.column && *e.where.column < 1)) {
        std::fprintf(stderr, "bad error place: %s\n", message.c_str());
        std::abort();
    }
}

// Runs `f`; an InputError is fine (checked), anything else escapes to libFuzzer.
template <typename F>
void expectInputErrorAtMost(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        checkInputError(e);
    }
}

}  // namespace spillway::fuzz
