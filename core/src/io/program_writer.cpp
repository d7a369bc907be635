// The rewritten program: the plan's order read back through the statements of the program it was
// translated from. ALLOC and FREE print nothing (a value's slot is taken by its instruction and
// freed after its last read); each SPILL_OUT is a `spill`, each SPILL_IN a `reload`.
#include <algorithm>

#include "spillway/program_text.h"

namespace spillway {
namespace {

class ProgramRewriter {
public:
    ProgramRewriter(const ProgramSource& program, const Graph& g, const Plan& plan)
        : program_(program), g_(g), plan_(plan), statementOf_(g.nodes.size(), -1), offset_(g.buffers.size(), 0) {
        for (size_t i = 0; i < program.statements.size(); ++i)
            statementOf_[program.statements[i].node] = static_cast<int>(i);
        for (const Allocation& a : plan.allocations) offset_[g.bufferIndex.at(a.buf)] = a.offset;
    }

    std::vector<ProgramLine> lines() {
        code_.push_back({program_.memoryLine, ""});
        steps_.push_back(-1);
        const NodeId firstSpillNode = g_.maxNodeId() + 1;
        for (size_t step = 0; step < plan_.order.size(); ++step) {
            const NodeId id = plan_.order[step];
            if (id >= firstSpillNode)
                addSpillNode(plan_.spills[static_cast<size_t>((id - firstSpillNode) / 2)],
                             (id - firstSpillNode) % 2 == 0);
            else
                addStatementOf(g_.nodeIndex.at(id));
            steps_.resize(code_.size(), static_cast<int>(step));
        }
        return aligned();
    }

private:
    void addSpillNode(const Spill& s, bool out) {
        const int b = g_.bufferIndex.at(s.buf);
        const std::string& name = program_.valueNames[b];
        if (out) {
            code_.push_back({"spill " + name, name + " leaves " + place(s.oldOffset, s.size) +
                                                  (g_.buffers[b].hasCopyIn ? ": clean, nothing is written"
                                                                           : ": written out to memory")});
            return;
        }
        offset_[b] = s.newOffset;
        code_.push_back({"reload " + name, name + " in " + place(s.newOffset, s.size)});
    }

    void addStatementOf(int node) {
        const int k = statementOf_[node];
        if (k < 0) return;
        const ProgramStatement& st = program_.statements[k];
        if (st.defines < 0) return code_.push_back({st.text, ""});
        code_.push_back({st.text, program_.valueNames[st.defines] + " in " +
                                      place(offset_[st.defines], g_.buffers[st.defines].size)});
    }

    std::string place(Bytes offset, Bytes size) const {
        if (program_.unit == ProgramSource::Unit::Cache) return "bytes " + range(offset, size);
        return size == 1 ? "r" + std::to_string(offset) : "r" + range(offset, size);
    }
    static std::string range(Bytes offset, Bytes size) {
        return std::to_string(offset) + "-" + std::to_string(offset + size - 1);
    }

    // Comments in one column after the longest instruction.
    std::vector<ProgramLine> aligned() const {
        size_t width = 0;
        for (const auto& [text, comment] : code_)
            if (!comment.empty()) width = std::max(width, text.size());
        std::vector<ProgramLine> out;
        for (size_t i = 0; i < code_.size(); ++i) {
            const auto& [text, comment] = code_[i];
            std::string line = text;
            if (!comment.empty()) line += std::string(width - text.size() + 2, ' ') + "# " + comment;
            out.push_back({std::move(line), steps_[i]});
        }
        return out;
    }

    const ProgramSource& program_;
    const Graph& g_;
    const Plan& plan_;
    std::vector<int> statementOf_;                           // node index -> statement, -1 for ALLOC and FREE
    std::vector<Bytes> offset_;                              // per buffer index: where it is now
    std::vector<std::pair<std::string, std::string>> code_;  // (instruction, comment)
    std::vector<int> steps_;
};

}  // namespace

std::vector<ProgramLine> rewriteProgram(const ProgramSource& program, const Graph& g, const Plan& plan) {
    return ProgramRewriter(program, g, plan).lines();
}

std::string programText(const std::vector<ProgramLine>& lines) {
    std::string out;
    for (const ProgramLine& l : lines) out += l.text + "\n";
    return out;
}

}  // namespace spillway
