// A plan printed back as its program (docs/programs.md): the instructions in the plan's order,
// each value's register (or cache address), and a `spill` / `reload` line for each spill.
#pragma once
#include <string>
#include <vector>

#include "plan.h"
#include "program.h"

namespace spillway {

struct ProgramLine {
    std::string text;
    int step = -1;  // the line's position in the plan's order (-1: the memory line)
};

// `plan` is a plan of the graph `program` translated to.
std::vector<ProgramLine> rewriteProgram(const ProgramSource& program, const Graph& g, const Plan& plan);
// The lines, one a line.
std::string programText(const std::vector<ProgramLine>& lines);

}  // namespace spillway
