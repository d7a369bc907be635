// A program in the teaching form (docs/programs.md): what the graph it translates to keeps of the
// text, so that a plan can be printed back as the program with its spills and reloads.
#pragma once
#include <string>
#include <vector>

#include "graph.h"

namespace spillway {

// One instruction of the program: the node it became and the value it defines, if any.
struct ProgramStatement {
    std::string text;  // as written, without its comment
    int line = 0;      // 1-based
    int node = -1;     // index into Graph::nodes of the node it became
    int defines = -1;  // index into Graph::buffers of the value it defines (-1: none)
};

struct ProgramSource {
    enum class Unit { Registers, Cache };
    Unit unit = Unit::Registers;
    std::string memoryLine;               // "registers 3", as written without its comment
    std::vector<std::string> valueNames;  // per buffer index (= BufId): the name it was defined as
    std::vector<ProgramStatement> statements;
};

// The memory a program's values live in: "REG" for `registers K`, "CACHE" for `cache N bytes`.
inline constexpr const char* kRegisterMemory = "REG";
inline constexpr const char* kCacheMemory = "CACHE";

}  // namespace spillway
