// The program form (docs/programs.md): a few lines of code translated to the graph model, so that
// every policy, order source and view works on it. A value is a buffer; `load` fills it by a
// COPY_IN (main memory holds it: clean), an operation computes it on chip (dirty); the program's
// order is the graph's Order and each value is freed right after its last read.
#include <algorithm>
#include <cctype>
#include <map>

#include "program_reader.h"
#include "spillway/limits.h"
#include "spillway/program.h"

namespace spillway {
namespace {

constexpr Cycles kTransferCycles = 10;  // a load or store, plus one a byte (or slot)
constexpr Cycles kOperationCycles = 1;
constexpr int kMaxOperands = static_cast<int>(limits::kMaxBufsPerNode) - 1;

const char* const kKeywords[] = {"registers", "cache", "bytes", "load", "use", "store", "spill", "reload"};
const char* const kReservedOps[] = {kAlloc, kFree, kCopyIn, "COPY_OUT", kSpillOut, kSpillIn, "USE"};

struct Token {
    std::string_view text;
    int column = 0;  // 1-based, in bytes
};

struct Statement {
    enum class Kind { Load, Compute, Use, Store };
    Kind kind = Kind::Use;
    int line = 0;
    int column = 0;
    int defines = -1;        // value index
    std::string op;          // Compute: the operation's name, upper case
    std::vector<int> reads;  // value indices, without repeats
    std::string text;
};

bool isIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentifierPart(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isKeyword(std::string_view word) {
    return std::any_of(std::begin(kKeywords), std::end(kKeywords), [&](const char* k) { return word == k; });
}

class ProgramReader {
public:
    ProgramReader(std::string_view text, const std::optional<HostNodeLimit>& hostLimit)
        : text_(text), hostLimit_(hostLimit) {}

    GraphDocument read() {
        if (static_cast<std::int64_t>(text_.size()) > limits::kMaxInputBytes)
            limits::exceeded("the program", "inputBytes", limits::kMaxInputBytes, "graph");
        std::size_t at = 0;
        for (int line = 1; at <= text_.size(); ++line) {
            const std::size_t end = std::min(text_.find('\n', at), text_.size());
            readLine(text_.substr(at, end - at), line);
            at = end + 1;
        }
        if (!source_.memoryLine.size())
            fail(1, 1, "a program starts with its memory: `registers K` (K slots) or `cache N bytes`");
        if (statements_.empty()) fail(1, 1, "the program has no instruction after its memory line");
        return translate();
    }

private:
    [[noreturn]] void fail(int line, int column, const std::string& message, ErrorPlace where = {}) const {
        where.source = "graph";
        throw locatedError(InputError(message, std::move(where)), line, column);
    }

    // The limit on nodes: the engine's, or the host's when lower.
    LimitPlace nodeLimit() const {
        if (hostLimit_ && hostLimit_->maxNodes < limits::kMaxNodes)
            return {hostLimit_->limitName, hostLimit_->maxNodes};
        return {"nodes", limits::kMaxNodes};
    }

    [[noreturn]] void tooLarge(const Statement& s) const {
        ErrorPlace where;
        where.limit = nodeLimit();
        const LimitPlace& limit = *where.limit;
        const std::string host = hostLimit_ && limit.name == hostLimit_->limitName ? " for " + hostLimit_->host : "";
        const std::string message = "the program is too large" + host + ": its graph passes " +
                                    std::to_string(limit.max) + " nodes (limit " + limit.name + " = " +
                                    std::to_string(limit.max) + ")" + (host.empty() ? "" : hostLimit_->advice);
        fail(s.line, s.column, message, std::move(where));
    }

    std::vector<Token> tokenize(std::string_view line, int lineNo) const {
        std::vector<Token> tokens;
        for (std::size_t i = 0; i < line.size();) {
            const char c = line[i];
            const int column = static_cast<int>(i) + 1;
            if (c == '#') break;
            if (c == ' ' || c == '\t' || c == '\r') {
                ++i;
            } else if (c == '=' || c == ':') {
                tokens.push_back({line.substr(i, 1), column});
                ++i;
            } else if (isIdentifierPart(c)) {
                std::size_t j = i;
                while (j < line.size() && isIdentifierPart(line[j])) ++j;
                if (static_cast<std::int64_t>(j - i) > limits::kMaxNameBytes)
                    fail(lineNo, column,
                         "a name of more than " + std::to_string(limits::kMaxNameBytes) + " characters");
                tokens.push_back({line.substr(i, j - i), column});
                i = j;
            } else {
                std::size_t j = i + 1;  // the whole of a UTF-8 sequence
                while (j < line.size() && (static_cast<unsigned char>(line[j]) & 0xC0) == 0x80) ++j;
                fail(lineNo, column, "unexpected character \"" + excerpt(line.substr(i, j - i)) + "\"");
            }
        }
        return tokens;
    }

    void readLine(std::string_view line, int lineNo) {
        const std::vector<Token> tokens = tokenize(line, lineNo);
        if (tokens.empty()) return;
        const std::string_view first = tokens[0].text;
        std::string text(line.substr(0, line.find('#')));
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
        if (first == "registers" || first == "cache") return readMemory(tokens, lineNo, std::move(text));
        if (source_.memoryLine.empty())
            fail(lineNo, tokens[0].column, "the memory comes first: `registers K` or `cache N bytes`");
        Statement s;
        s.line = lineNo;
        s.column = tokens[0].column;
        s.text = std::move(text);
        // Each instruction is at least one node: a program too large is refused while read.
        if (static_cast<std::int64_t>(statements_.size()) >= nodeLimit().max) tooLarge(s);
        const bool assignment = tokens.size() > 1 && (tokens[1].text == "=" || tokens[1].text == ":");
        if (!assignment && (first == "use" || first == "store"))
            readAccess(tokens, s);
        else
            readDefinition(tokens, s);
        statements_.push_back(std::move(s));
    }

    void readMemory(const std::vector<Token>& t, int lineNo, std::string text) {
        if (!source_.memoryLine.empty())
            fail(lineNo, t[0].column, "a second memory line: a program has one memory (" + source_.memoryLine + ")");
        const bool cache = t[0].text == "cache";
        const size_t expected = cache && t.size() == 3 ? 3 : 2;
        if (t.size() < 2 || t.size() != expected || (expected == 3 && t[2].text != "bytes"))
            fail(lineNo, t[0].column, cache ? "expected `cache N bytes`" : "expected `registers K`");
        capacity_ = number(t[1], lineNo, "the capacity");
        source_.unit = cache ? ProgramSource::Unit::Cache : ProgramSource::Unit::Registers;
        source_.memoryLine = std::move(text);
        memory_ = cache ? kCacheMemory : kRegisterMemory;
    }

    std::int64_t number(const Token& t, int lineNo, const std::string& what) const {
        if (!std::all_of(t.text.begin(), t.text.end(), [](char c) { return c >= '0' && c <= '9'; }))
            fail(lineNo, t.column, what + " must be a whole number, got \"" + excerpt(t.text) + "\"");
        std::int64_t value = 0;
        for (char c : t.text) {
            value = value * 10 + (c - '0');
            if (value > limits::kMaxBytes) break;
        }
        if (value < 1 || value > limits::kMaxBytes)
            fail(lineNo, t.column, what + " must be between 1 and " + std::to_string(limits::kMaxBytes));
        return value;
    }

    // `use a b`, `store c`
    void readAccess(const std::vector<Token>& t, Statement& s) {
        const bool store = t[0].text == "store";
        s.kind = store ? Statement::Kind::Store : Statement::Kind::Use;
        if (t.size() < 2) fail(s.line, t[0].column, std::string("`") + std::string(t[0].text) + "` needs a value");
        if (store && t.size() > 2) fail(s.line, t[2].column, "`store` writes one value back");
        readOperands(t, 1, s);
    }

    // `a = load`, `b:2 = load`, `c = mul a b`
    void readDefinition(const std::vector<Token>& t, Statement& s) {
        size_t i = 0;
        const Token& name = t[i++];
        checkName(name, s.line);
        std::int64_t size = 1;
        if (i < t.size() && t[i].text == ":") {
            if (++i >= t.size()) fail(s.line, t[i - 1].column, "a size follows `:`");
            size = number(t[i++], s.line, "a value's size");
            if (size > capacity_)
                fail(s.line, t[i - 1].column,
                     "a value of " + std::to_string(size) + " does not fit the memory (" + source_.memoryLine + ")");
        }
        if (i >= t.size() || t[i].text != "=")
            fail(s.line, i < t.size() ? t[i].column : name.column,
                 "expected `NAME = load`, `NAME = OP VALUES`, `use VALUES` or `store VALUE`");
        if (++i >= t.size()) fail(s.line, t[i - 1].column, "`=` needs `load` or an operation after it");
        const Token& op = t[i++];
        if (op.text == "load") {
            s.kind = Statement::Kind::Load;
            if (i < t.size()) fail(s.line, t[i].column, "`load` reads nothing: its value comes from main memory");
        } else {
            checkOperation(op, s.line);
            s.kind = Statement::Kind::Compute;
            s.op = upper(op.text);
            readOperands(t, i, s);
        }
        s.defines = static_cast<int>(sizes_.size());
        sizes_.push_back(size);
        source_.valueNames.emplace_back(name.text);
        latest_[std::string(name.text)] = s.defines;
        std::int64_t together = size;
        for (int v : s.reads) together += sizes_[v];
        if (together > capacity_)
            fail(s.line, s.column,
                 "this instruction needs " + std::to_string(together) + " at once, more than the memory (" +
                     source_.memoryLine + ")");
    }

    void readOperands(const std::vector<Token>& t, size_t first, Statement& s) {
        if (static_cast<int>(t.size() - first) > kMaxOperands)
            fail(s.line, t[first].column, "more than " + std::to_string(kMaxOperands) + " values in one instruction");
        for (size_t i = first; i < t.size(); ++i) {
            checkName(t[i], s.line);
            auto value = latest_.find(std::string(t[i].text));
            if (value == latest_.end())
                fail(s.line, t[i].column, "value \"" + excerpt(t[i].text) + "\" is read before it is defined");
            if (std::find(s.reads.begin(), s.reads.end(), value->second) == s.reads.end())
                s.reads.push_back(value->second);
        }
    }

    void checkName(const Token& t, int lineNo) const {
        if (t.text == "=" || t.text == ":") fail(lineNo, t.column, "expected a value's name");
        if (!isIdentifierStart(t.text[0]))
            fail(lineNo, t.column, "a name starts with a letter or _, got \"" + excerpt(t.text) + "\"");
        if (isKeyword(t.text)) fail(lineNo, t.column, "\"" + std::string(t.text) + "\" is a keyword, not a name");
    }

    void checkOperation(const Token& t, int lineNo) const {
        checkName(t, lineNo);
        const std::string op = upper(t.text);
        for (const char* reserved : kReservedOps)
            if (op == reserved)
                fail(lineNo, t.column, "\"" + std::string(t.text) + "\" is reserved: name the operation otherwise");
    }

    static std::string upper(std::string_view text) {
        std::string out(text);
        for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return out;
    }

    GraphDocument translate();

    std::string_view text_;
    const std::optional<HostNodeLimit>& hostLimit_;
    ProgramSource source_;
    std::string memory_;
    Bytes capacity_ = 0;
    std::vector<Bytes> sizes_;           // per value
    std::map<std::string, int> latest_;  // name -> its latest value
    std::vector<Statement> statements_;
};

// Nodes in program order: a value's ALLOC before the instruction defining it, the instruction,
// then the FREE of every value it read last (or defined and nobody reads).
GraphDocument ProgramReader::translate() {
    std::vector<int> lastStatement(sizes_.size());
    for (size_t i = 0; i < statements_.size(); ++i) {
        const Statement& s = statements_[i];
        if (s.defines >= 0) lastStatement[s.defines] = static_cast<int>(i);
        for (int v : s.reads) lastStatement[v] = static_cast<int>(i);
    }
    GraphDocument doc;
    Graph& g = doc.graph;
    std::vector<std::vector<int>> touching(sizes_.size());  // per value: node indices in order
    auto add = [&](Node n, const Statement& s) {
        n.id = static_cast<NodeId>(g.nodes.size());
        if (n.id >= nodeLimit().max) tooLarge(s);
        g.nodes.push_back(std::move(n));
        doc.source.nodes.push_back({static_cast<std::uint32_t>(s.line), static_cast<std::uint32_t>(s.column)});
        return static_cast<int>(g.nodes.size()) - 1;
    };
    auto bufferNode = [&](const char* op, int v) {
        Node n;
        n.op = op;
        n.buf = v;
        n.size = sizes_[v];
        n.type = memory_;
        return n;
    };
    std::vector<int> freed;
    for (size_t i = 0; i < statements_.size(); ++i) {
        const Statement& s = statements_[i];
        if (s.defines >= 0) touching[s.defines].push_back(add(bufferNode(kAlloc, s.defines), s));
        Node n;
        std::vector<int> bufs = s.reads;
        if (s.defines >= 0) bufs.insert(bufs.begin(), s.defines);
        switch (s.kind) {
            case Statement::Kind::Load: n.op = kCopyIn, n.pipe = kSpillInPipe; break;
            case Statement::Kind::Store: n.op = "COPY_OUT", n.pipe = kSpillOutPipe; break;
            case Statement::Kind::Use: n.op = "USE", n.pipe = "VECTOR"; break;
            case Statement::Kind::Compute: n.op = s.op, n.pipe = "VECTOR"; break;
        }
        const bool transfer = s.kind == Statement::Kind::Load || s.kind == Statement::Kind::Store;
        n.cycles = transfer ? kTransferCycles + sizes_[bufs.front()] : kOperationCycles;
        n.bufs.assign(bufs.begin(), bufs.end());
        const int node = add(std::move(n), s);
        for (int v : bufs) touching[v].push_back(node);
        source_.statements.push_back({s.text, s.line, node, s.defines});
        freed.clear();
        for (int v : bufs)
            if (lastStatement[v] == static_cast<int>(i)) freed.push_back(v);
        std::sort(freed.begin(), freed.end());
        for (int v : freed) touching[v].push_back(add(bufferNode(kFree, v), s));
    }
    for (const std::vector<int>& chain : touching)
        for (size_t k = 1; k < chain.size(); ++k) g.edges.emplace_back(chain[k - 1], chain[k]);
    std::sort(g.edges.begin(), g.edges.end());
    g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
    std::vector<NodeId> order(g.nodes.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<NodeId>(k);
    doc.order = std::move(order);
    doc.capacities = Capacities{{memory_, capacity_}};
    finalizeGraph(g);
    doc.program = std::make_shared<const ProgramSource>(std::move(source_));
    return doc;
}

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string_view withoutByteOrderMark(std::string_view text) {
    return text.substr(0, kByteOrderMark.size()) == kByteOrderMark ? text.substr(kByteOrderMark.size()) : text;
}

}  // namespace

bool isProgramText(std::string_view text) {
    for (char c : withoutByteOrderMark(text)) {
        if (c == '{' || c == '[') return false;  // JSON: a graph, or a wrong one
        if (!std::isspace(static_cast<unsigned char>(c))) return true;
    }
    return false;
}

GraphDocument parseProgram(std::string_view text, const std::optional<HostNodeLimit>& hostLimit) {
    return ProgramReader(withoutByteOrderMark(text), hostLimit).read();
}

}  // namespace spillway
