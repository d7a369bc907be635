#include "spillway/json_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "field_reader.h"
#include "json_writer.h"
#include "spillway/error.h"
#include "spillway/id_table.h"
#include "spillway/limits.h"
#include "spillway/order_sources.h"
#include "spillway/planner.h"
#include "spillway/program_text.h"

namespace spillway {

using OrderedJson = nlohmann::ordered_json;

namespace {

// Lines of an order file that hold an id: (line number, the id's text), comments and blanks gone.
template <typename F>
void forEachOrderLine(const std::string& text, F&& f) {
    std::istringstream in(std::string(json::withoutByteOrderMark(text)));
    std::string line;
    for (std::int64_t lineNo = 1; std::getline(in, line); ++lineNo) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        line.erase(0, line.find_first_not_of(" \t\r"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (!line.empty()) f(lineNo, line);
    }
}

}  // namespace

Order parseOrderText(const std::string& text) {
    ErrorPlace at;
    at.source = "order";
    if (static_cast<std::int64_t>(text.size()) > limits::kMaxInputBytes)
        limits::exceeded("the order file has " + std::to_string(text.size()) + " bytes", "inputBytes",
                         limits::kMaxInputBytes, "order");
    Order order;
    forEachOrderLine(text, [&](std::int64_t lineNo, const std::string& line) {
        ErrorPlace where = at;
        where.line = lineNo;
        where.column = 1;
        where.step = static_cast<std::int64_t>(order.size());
        if (static_cast<std::int64_t>(order.size()) >= limits::kMaxNodes) {
            where.limit = LimitPlace{"nodes", limits::kMaxNodes};
            throw InputError("order file, line " + std::to_string(lineNo) + ": more than " +
                                 std::to_string(limits::kMaxNodes) +
                                 " ids (limit nodes = " + std::to_string(limits::kMaxNodes) + ")",
                             std::move(where));
        }
        const bool digits =
            line.size() <= 10 && std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isdigit(c); });
        if (!digits || std::stoll(line) > limits::kMaxNodeId)
            throw InputError("order file, line " + std::to_string(lineNo) + ": expected one node id (0.." +
                                 std::to_string(limits::kMaxNodeId) + "), got \"" + excerpt(line) + "\"",
                             std::move(where));
        order.push_back(static_cast<NodeId>(std::stoll(line)));
    });
    return order;
}

std::int64_t orderTextLine(const std::string& text, std::int64_t step) {
    std::int64_t found = 0, entry = 0;
    forEachOrderLine(text, [&](std::int64_t lineNo, const std::string&) {
        if (entry++ == step) found = lineNo;
    });
    return found;
}

Capacities parseCapacityList(const std::string& text) {
    Capacities caps;
    std::istringstream in(text);
    std::string entry;
    auto fail = [](const std::string& message, const std::string& memory = "", bool overLimit = false) {
        ErrorPlace where;
        where.source = "options";
        where.field = "--caps";
        if (!memory.empty()) where.memory = memory;
        if (overLimit) where.limit = LimitPlace{"bytes", limits::kMaxBytes};
        throw InputError(message, std::move(where));
    };
    while (std::getline(in, entry, ',')) {
        auto eq = entry.find('=');
        std::string name = entry.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : entry.substr(eq + 1);
        bool ok = eq != std::string::npos && !name.empty() && !value.empty() && value.size() <= 12 &&
                  std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
        if (!ok) fail("--caps entry \"" + excerpt(entry) + "\" must look like L1=4096");
        if (printable(name) != name || static_cast<std::int64_t>(name.size()) > limits::kMaxNameBytes)
            fail("--caps entry \"" + excerpt(entry) + "\": a memory name is printable UTF-8 of at most " +
                 std::to_string(limits::kMaxNameBytes) + " bytes");
        Bytes cap = std::stoll(value);
        if (cap <= 0 || cap > limits::kMaxBytes)
            fail("--caps entry \"" + excerpt(entry) + "\": capacity must be between 1 and " +
                     std::to_string(limits::kMaxBytes),
                 name, cap > limits::kMaxBytes);
        if (!caps.emplace(name, cap).second) fail("--caps names memory " + name + " twice", name);
        if (static_cast<std::int64_t>(caps.size()) > limits::kMaxMemories)
            limits::exceeded("--caps names more than " + std::to_string(limits::kMaxMemories) + " memories", "memories",
                             limits::kMaxMemories, "options");
    }
    if (caps.empty()) fail("--caps is empty: expected e.g. L1=4096,UB=1024");
    return caps;
}

namespace {

using json::FieldCheck;
using json::FieldValue;
using json::Kind;
using json::Scalar;

// The options object of the bindings: {"capacities", "order", "policy", "cost", "effort",
// "objective", "margin", "disable", "force"}, other keys ignored.
class OptionsReader {
public:
    OptionsReader(const json::JsonText& text, Objective objective)
        : t_(text), capacities_(text, "options.capacities", "capacities"), cost_(text, json::costFieldNames()) {
        opts_.objective = objective;
    }

    void onScalar(const Scalar& s) { value(s.kind, &s, s.offset); }
    bool onBegin(Kind k, std::size_t offset) { return value(k, nullptr, offset); }
    bool onKey(std::string& key, std::size_t offset) {
        switch (stack_.back()) {
            case Ctx::Root:
                if (key == "cost" || key == "order" || key == "policy" || key == "capacities" || key == "effort" ||
                    key == "objective" || key == "margin" || key == "disable" || key == "force") {
                    if (!seen_.insert(key).second) fail(offset, "options: field \"" + key + "\" appears twice", key);
                }
                key_ = std::move(key);
                break;
            case Ctx::Capacities: capacities_.key(std::move(key), offset, *opts_.capacities); break;
            case Ctx::Cost: cost_.key(key, offset, "options.cost"); break;
            case Ctx::Force: forceKey_ = std::move(key); break;
            case Ctx::Order:
            case Ctx::Disable: break;
        }
        return true;
    }
    void onEnd(Kind, std::size_t) {
        if (stack_.back() == Ctx::Force && (forceStep_ < 0 || forceBuffer_ < 0))
            fail(forceOffset_, "options: field \"force\" needs \"step\" and \"buffer\"", "force");
        if (stack_.back() == Ctx::Cost) {
            ErrorPlace where;
            where.field = "cost";
            FieldCheck f(t_, "options.cost", where, cost_.offset());
            opts_.cost = json::costModelFrom(cost_, f);
        }
        stack_.pop_back();
    }
    RunOptions finish() {
        if (forceStep_ >= 0)
            opts_.force = ForcedSpill{static_cast<int>(forceStep_), static_cast<BufferId>(forceBuffer_)};
        // "disable" may come before "objective": checked once both are read.
        if (!opts_.cycles.disabled.empty() && opts_.objective != Objective::Cycles)
            fail(disableOffset_,
                 "options: field \"disable\" switches off techniques of the objective \"cycles\", "
                 "but the objective is \"bytes\"",
                 "disable");
        if (marginOffset_ && opts_.objective != Objective::Cycles)
            fail(*marginOffset_,
                 "options: field \"margin\" is the data margin of the objective \"cycles\", but the objective is "
                 "\"bytes\"",
                 "margin");
        return std::move(opts_);
    }

private:
    enum class Ctx : std::uint8_t { Root, Capacities, Order, Cost, Disable, Force };

    bool value(Kind k, const Scalar* s, std::size_t offset) {
        if (stack_.empty()) {
            if (k != Kind::Object)
                fail(offset, std::string("the options must be a JSON object, got ") + json::kindName(k));
            stack_.push_back(Ctx::Root);
            return true;
        }
        switch (stack_.back()) {
            case Ctx::Root: return field(k, s, offset);
            case Ctx::Capacities:
                (*opts_.capacities)[capacities_.name()] = capacities_.value(k, s, offset);
                return false;
            case Ctx::Order: {
                const std::string field = "order[" + std::to_string(opts_.order->size()) + "]";
                ErrorPlace where;
                where.field = field;
                where.step = static_cast<std::int64_t>(opts_.order->size());
                if (static_cast<std::int64_t>(opts_.order->size()) >= limits::kMaxNodes) {
                    where.limit = LimitPlace{"nodes", limits::kMaxNodes};
                    t_.fail(offset,
                            "options.order has more than " + std::to_string(limits::kMaxNodes) +
                                " entries (limit nodes = " + std::to_string(limits::kMaxNodes) + ")",
                            std::move(where));
                }
                if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > limits::kMaxNodeId)
                    t_.fail(offset,
                            "options." + field + " must be a node id, got " +
                                (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
                            std::move(where));
                opts_.order->push_back(static_cast<NodeId>(s->integer));
                return false;
            }
            case Ctx::Cost:
                if (s)
                    cost_.value(*s);
                else
                    cost_.container(k, offset);
                return false;
            case Ctx::Force: forceValue(k, s, offset); return false;
            case Ctx::Disable: {
                const std::string field = "disable[" + std::to_string(disableCount_++) + "]";
                if (k != Kind::String)
                    fail(offset, "options." + field + " must be a technique's name, got " + json::kindName(k), field);
                try {
                    opts_.cycles.disabled.push_back(cyclesTechnique(*s->string));
                } catch (const InputError& e) {
                    fail(offset, std::string("options.") + field + ": " + e.what(), field);
                }
                return false;
            }
        }
        return false;
    }

    bool field(Kind k, const Scalar* s, std::size_t offset) {
        if (key_ == "capacities") {
            if (k != Kind::Object)
                fail(offset,
                     std::string("options: field \"capacities\" must be an object like {\"L1\": 4096}, got ") +
                         json::kindName(k),
                     "capacities");
            opts_.capacities.emplace();
            stack_.push_back(Ctx::Capacities);
            return true;
        }
        if (key_ == "order") {
            if (k == Kind::String) {
                if (!isOrderSource(*s->string))
                    fail(offset,
                         "options: field \"order\" must be one of " + orderSourceNames() +
                             ", or an array of node ids, got \"" + excerpt(*s->string) + "\"",
                         "order");
                opts_.orderSource = *s->string;
                return false;
            }
            if (k != Kind::Array)
                fail(offset,
                     std::string("options: field \"order\" must be a string or an array of node ids, got ") +
                         json::kindName(k),
                     "order");
            opts_.orderSource = "given";
            opts_.order.emplace();
            stack_.push_back(Ctx::Order);
            return true;
        }
        if (key_ == "policy") {
            if (k != Kind::String || s->string->empty())
                fail(offset,
                     std::string("options: field \"policy\" must be a non-empty string, got ") +
                         (k == Kind::String ? "an empty string" : json::kindName(k)),
                     "policy");
            try {
                opts_.policy = policyName(parsePolicy(*s->string));
            } catch (const InputError& e) {
                fail(offset, std::string("options: ") + e.what(), "policy");
            }
            return false;
        }
        if (key_ == "effort") {
            opts_.effort = integerIn(k, s, offset, limits::kMaxEffort, "effort", "");
            return false;
        }
        if (key_ == "objective") {
            if (k != Kind::String)
                fail(offset,
                     std::string("options: field \"objective\" must be \"bytes\" or \"cycles\", got ") +
                         json::kindName(k),
                     "objective");
            try {
                opts_.objective = parseObjective(*s->string);
            } catch (const InputError& e) {
                fail(offset, std::string("options: ") + e.what(), "objective");
            }
            return false;
        }
        if (key_ == "margin") {
            opts_.cycles.marginPercent =
                static_cast<int>(integerIn(k, s, offset, limits::kMaxMarginPercent, "margin", " (percent)"));
            marginOffset_ = offset;
            return false;
        }
        if (key_ == "disable") {
            if (k != Kind::Array)
                fail(offset,
                     std::string("options: field \"disable\" must be an array of technique names, got ") +
                         json::kindName(k),
                     "disable");
            disableOffset_ = offset;
            stack_.push_back(Ctx::Disable);
            return true;
        }
        if (key_ == "cost") {
            if (k != Kind::Object)
                fail(offset,
                     std::string("options: field \"cost\" must be an object like {\"model\": \"contest\"}, got ") +
                         json::kindName(k),
                     "cost");
            cost_.begin(offset);
            stack_.push_back(Ctx::Cost);
            return true;
        }
        if (key_ == "force") {
            if (k != Kind::Object)
                fail(
                    offset,
                    std::string("options: field \"force\" must be an object like {\"step\": 12, \"buffer\": 3}, got ") +
                        json::kindName(k),
                    "force");
            forceOffset_ = offset;
            stack_.push_back(Ctx::Force);
            return true;
        }
        return false;  // an option this engine does not know: ignored
    }

    // The integer value of option `field` (`unit` after its name in the message), 0 to `max`.
    std::int64_t integerIn(Kind k, const Scalar* s, std::size_t offset, std::int64_t max, const char* field,
                           const char* unit) {
        if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > max)
            fail(offset,
                 std::string("options: field \"") + field + "\"" + unit + " must be an integer between 0 and " +
                     std::to_string(max) + ", got " +
                     (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
                 field);
        return s->integer;
    }

    // "step" (of the input order) or "buffer" (an id) of "force"; other keys are refused.
    void forceValue(Kind k, const Scalar* s, std::size_t offset) {
        const bool step = forceKey_ == "step";
        if (!step && forceKey_ != "buffer")
            fail(offset, "options.force: unknown field \"" + excerpt(forceKey_) + "\" (expected step, buffer)",
                 "force");
        const std::int64_t max = step ? limits::kMaxOrderLength : limits::kMaxBufferId;
        if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > max)
            fail(offset,
                 "options.force." + forceKey_ + " must be an integer between 0 and " + std::to_string(max) + ", got " +
                     (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
                 "force." + forceKey_);
        (step ? forceStep_ : forceBuffer_) = s->integer;
    }

    [[noreturn]] void fail(std::size_t offset, const std::string& message, const std::string& field = "") const {
        t_.failField(offset, message, field);
    }

    const json::JsonText& t_;
    RunOptions opts_;
    std::vector<Ctx> stack_;
    std::string key_;
    std::set<std::string> seen_;
    json::CapacityEntries capacities_;
    json::ObjectFields cost_;
    std::size_t disableOffset_ = 0;
    std::optional<std::size_t> marginOffset_;  // where "margin" was given, if it was
    int disableCount_ = 0;
    std::string forceKey_;
    std::int64_t forceStep_ = -1, forceBuffer_ = -1;
    std::size_t forceOffset_ = 0;
};

}  // namespace

RunOptions parseRunOptions(const std::string& text, Objective objective) {
    RunOptions none;
    none.objective = objective;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return none;
    const json::JsonText t(text, "options", "the options");
    OptionsReader reader(t, objective);
    json::readJson(t, reader);
    return reader.finish();
}

namespace {

const char* decisionKind(Decision::Kind k) {
    switch (k) {
        case Decision::Kind::Place: return "place";
        case Decision::Kind::Spill: return "spill";
        case Decision::Kind::Reload: return "reload";
        case Decision::Kind::Free: return "free";
    }
    return "?";
}

OrderedJson boundJson(const TrafficBound& b) {
    OrderedJson j;
    j["total"] = b.total;
    j["byType"] = b.byType;
    if (!b.exact) j["exact"] = false;  // only when relaxed by windows or out of its work budget
    return j;
}

// A lower bound on total cycles (cycles_bound.h): the limiting pipe or path and each pipe's busy time.
void writeCyclesBound(JsonWriter& w, const CyclesBound& b) {
    w.beginObject().member("total", b.total).member("limit", b.limit).member("criticalPath", b.criticalPath);
    w.key("pipes").beginObject();
    for (const CyclesBound::Pipe& p : b.pipes)
        w.key(p.name).beginObject().member("busy", p.busy).member("bound", p.bound).endObject();
    w.endObject().endObject();
}

void writeBound(JsonWriter& w, const TrafficBound& b) {
    w.beginObject().member("total", b.total).member("byType", b.byType);
    if (!b.exact) w.member("exact", false);  // only when relaxed by windows or out of its work budget
    w.endObject();
}

void writeNode(JsonWriter& w, const Node& n) {
    w.beginObject().member("Id", n.id).member("Op", n.op);
    if (n.isBufferNode())
        w.member("BufId", n.buf).member("Size", n.size).member("Type", n.type);
    else
        w.member("Pipe", n.pipe).member("Cycles", n.cycles).member("Bufs", n.bufs);
    w.endObject();
}

// A placement's holes, [start, end) pairs by address.
void writePlacement(JsonWriter& w, const Decision& d) {
    w.key("holes").beginArray();
    for (const Hole& h : d.holes) w.beginArray().value(h.start).value(h.end).endArray();
    w.endArray().member("holesTotal", d.holesTotal);
}

// A spill's room, formula, candidates (best first) and, for a policy that weighs windows, windows.
void writeSpillChoice(JsonWriter& w, const Decision& d) {
    w.key("room")
        .beginObject()
        .member("for", d.room.forBufs)
        .member("need", d.room.need)
        .member("free", d.room.freeBytes)
        .member("largestHole", d.room.largestHole)
        .member("shortfall", d.room.shortfall)
        .endObject();
    w.member("formula", d.formula).key("candidates").beginArray();
    for (const Candidate& c : d.candidates)
        w.beginObject()
            .member("buf", c.buf)
            .member("nextUseStep", c.nextUseStep)
            .member("score", c.score)
            .member("size", c.size)
            .member("copyIn", c.copyIn)
            .endObject();
    w.endArray().member("candidatesTotal", d.candidatesTotal);
    if (d.windows.empty()) return;
    w.key("windows").beginArray();
    for (const SpillWindow& sw : d.windows)
        w.beginObject()
            .member("start", sw.start)
            .member("end", sw.end)
            .member("cost", sw.cost)
            .member("bufs", sw.bufs)
            .endObject();
    w.endArray().member("windowsTotal", d.windowsTotal);
}

// A node's pipe and what it waited for (docs/timing.md): members that do not apply are left out.
void writeWait(JsonWriter& w, const NodeTiming& t) {
    w.beginObject();
    if (!t.pipe.empty()) w.member("pipe", t.pipe);
    w.member("cause", waitCauseName(t.wait.cause));
    if (t.wait.cause != WaitCause::None) {
        w.member("node", t.wait.node);
        if (t.wait.cause == WaitCause::Address) w.member("buffer", t.wait.buffer);
        w.member("cycles", t.wait.cycles);
    }
    w.endObject();
}

void writeDecision(JsonWriter& w, const Decision& d) {
    w.beginObject()
        .member("kind", decisionKind(d.kind))
        .member("step", d.step)
        .member("orderStep", d.orderStep)
        .member("node", d.node)
        .member("buf", d.buf)
        .member("type", d.type)
        .member("offset", d.offset)
        .member("size", d.size)
        .member("reason", d.reason);
    if (d.kind == Decision::Kind::Place || d.kind == Decision::Kind::Reload) writePlacement(w, d);
    if (d.kind == Decision::Kind::Spill) writeSpillChoice(w, d);
    w.endObject();
}

// A huge graph's decision: what was done, with its buffer's type and size, but no reason nor choices.
// `bufferAt`: buffer ids -> indices in g.buffers (a flat table where the graph's hash map was a
// cache miss or two a decision, a million decisions at 10^6 nodes).
void writeBriefDecision(JsonWriter& w, const Graph& g, const IdTable& bufferAt, const BriefDecision& d) {
    const int at = bufferAt.find(d.buf);
    if (at == IdTable::kAbsent) throw InternalError("result: a decision names unknown buffer " + std::to_string(d.buf));
    const Buffer& buf = g.buffers[static_cast<std::size_t>(at)];
    w.beginObject()
        .member("kind", decisionKind(d.kind))
        .member("step", d.step)
        .member("orderStep", d.orderStep)
        .member("node", d.node)
        .member("buf", d.buf)
        .member("type", buf.type)
        .member("offset", d.offset)
        .member("size", buf.size)
        .endObject();
}

// The result document, member by member (docs/result-format.md).
void writeProgram(JsonWriter& w, const ProgramSource& program, const Graph& g, const Plan& p) {
    w.key("program").beginObject().member("unit",
                                          program.unit == ProgramSource::Unit::Registers ? "registers" : "cache");
    w.key("lines").beginArray();
    for (const ProgramLine& line : rewriteProgram(program, g, p))
        w.beginObject().member("text", line.text).member("step", line.step).endObject();
    w.endArray().endObject();
}

void writeResult(JsonWriter& w, const Graph& g, const Result& r, const ProgramSource* program = nullptr) {
    w.beginObject()
        .member("format", kResultFormat)
        .member("engine", std::string("spillway ") + SPILLWAY_VERSION)
        .member("policy", r.policy)
        .member("planPolicy", r.plan.policy);
    w.key("cost").beginObject().member("model", r.cost.name());
    if (r.cost.kind == CostModel::Kind::Seed)
        w.member("fixedLatency", r.cost.fixedLatency).member("cyclesPerByte", r.cost.cyclesPerByte);
    w.endObject();
    w.member("capacities", r.capacities).member("orderSource", r.orderSource);
    if (r.search)
        w.key("search")
            .beginObject()
            .member("evaluations", r.search->evaluations)
            .member("effort", r.search->effort)
            .member("start", r.search->start)
            .endObject();
    if (r.cycles) {
        // Under the cycles objective: the bytes plan it started from and what each technique gained.
        const ObjectiveReport& c = *r.cycles;
        w.key("objective").beginObject().member("name", "cycles").member("disabled", c.disabled);
        w.member("margin", c.marginPercent).member("marginLimited", c.marginLimited);
        w.key("bytesPlan")
            .beginObject()
            .member("extraBytes", c.bytesPlanExtraBytes)
            .member("totalCycles", c.bytesPlanCycles)
            .endObject();
        w.member("steps", c.steps).endObject();
    }
    w.member("inputOrder", r.inputOrder);

    const Metrics& m = r.metrics;
    w.key("metrics").beginObject().member("spills", m.spills).member("extraBytes", m.extraBytes);
    w.key("demandPeak")
        .beginObject()
        .member("byType", m.demandPeaks.byType)
        .member("total", m.demandPeaks.total)
        .endObject();
    w.member("residentPeak", m.residentPeaks).member("totalCycles", m.totalCycles).key("bound");
    writeBound(w, m.bound);
    w.key("cyclesBound").beginObject().key("plan");
    writeCyclesBound(w, m.cyclesBound.plan);
    w.key("order");
    writeCyclesBound(w, m.cyclesBound.order);
    w.key("graph");
    writeCyclesBound(w, m.cyclesBound.graph);
    w.endObject().endObject();

    const Plan& p = r.plan;
    w.key("allocations").beginArray();
    for (const Allocation& a : p.allocations)
        w.beginObject()
            .member("buf", a.buf)
            .member("type", a.type)
            .member("offset", a.offset)
            .member("size", a.size)
            .endObject();
    w.endArray().key("spills").beginArray();
    for (const Spill& s : p.spills)
        w.beginObject()
            .member("buf", s.buf)
            .member("type", s.type)
            .member("size", s.size)
            .member("oldOffset", s.oldOffset)
            .member("newOffset", s.newOffset)
            .member("outNode", s.outNode)
            .member("inNode", s.inNode)
            .member("outStep", s.outStep)
            .member("inStep", s.inStep)
            .endObject();
    w.endArray().member("order", p.order).key("addedNodes").beginArray();
    for (const Node& n : p.addedNodes) writeNode(w, n);
    w.endArray().key("addedEdges").beginArray();
    for (auto [s, d] : p.addedEdges) w.beginArray().value(s).value(d).endArray();
    w.endArray().key("timing").beginArray();
    for (const NodeTiming& t : r.timing.nodes) w.beginArray().value(t.id).value(t.start).value(t.end).endArray();
    w.endArray().key("waits").beginArray();
    for (const NodeTiming& t : r.timing.nodes) writeWait(w, t);
    w.endArray();
    // Brief on a huge graph (docs/result-format.md): said so before them.
    if (!p.briefDecisions.empty()) w.member("decisionsBrief", true);
    w.key("decisions").beginArray();
    for (const Decision& d : p.decisions) writeDecision(w, d);
    if (!p.briefDecisions.empty()) {
        std::vector<BufferId> ids;
        ids.reserve(g.buffers.size());
        for (const Buffer& b : g.buffers) ids.push_back(b.id);
        const IdTable bufferAt = IdTable::positions(ids);
        for (const BriefDecision& d : p.briefDecisions) writeBriefDecision(w, g, bufferAt, d);
    }
    w.endArray();
    if (program) writeProgram(w, *program, g, p);
    w.endObject();
}

}  // namespace

std::string resultToJson(const Graph& g, const Result& r) {
    JsonWriter w;
    writeResult(w, g, r);
    std::string text = w.take();
    text += '\n';
    return text;
}

void writeResultJson(std::ostream& out, const Graph& g, const Result& r) {
    JsonWriter w(out);
    writeResult(w, g, r);
    w.flush();
    out << '\n';
}

std::string resultToJson(const GraphDocument& doc, const Result& r) {
    JsonWriter w;
    writeResult(w, doc.graph, r, doc.program.get());
    std::string text = w.take();
    text += '\n';
    return text;
}

void writeResultJson(std::ostream& out, const GraphDocument& doc, const Result& r) {
    JsonWriter w(out);
    writeResult(w, doc.graph, r, doc.program.get());
    w.flush();
    out << '\n';
}

std::string comparisonToJson(const std::vector<ComparisonRow>& rows) {
    OrderedJson out = OrderedJson::array();
    for (const ComparisonRow& r : rows) {
        OrderedJson j;
        j["policy"] = r.policy;
        j["planPolicy"] = r.planPolicy;
        j["order"] = r.orderSource;
        j["spills"] = r.metrics.spills;
        j["extraBytes"] = r.metrics.extraBytes;
        j["demandPeak"]["byType"] = r.metrics.demandPeaks.byType;
        j["demandPeak"]["total"] = r.metrics.demandPeaks.total;
        j["totalCycles"] = r.metrics.totalCycles;
        j["bound"] = boundJson(r.metrics.bound);
        if (r.cycles)
            j["bytesPlan"] = {{"extraBytes", r.cycles->bytesPlanExtraBytes},
                              {"totalCycles", r.cycles->bytesPlanCycles}};
        j["ms"] = std::round(r.milliseconds * 10) / 10;
        out.push_back(std::move(j));
    }
    return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

namespace {

OrderedJson frontierPoints(const std::vector<FrontierPoint>& points) {
    OrderedJson list = OrderedJson::array();
    for (const FrontierPoint& p : points) {
        OrderedJson j;
        j["objective"] = objectiveName(p.objective);
        j["marginPercent"] = p.marginPercent;
        j["order"] = p.orderSource;
        j["planPolicy"] = p.planPolicy;
        j["spills"] = p.metrics.spills;
        j["extraBytes"] = p.metrics.extraBytes;
        j["totalCycles"] = p.metrics.totalCycles;
        j["verified"] = true;  // frontier() keeps only plans run() verified
        list.push_back(std::move(j));
    }
    return list;
}

}  // namespace

std::string frontierToJson(const std::vector<FrontierPoint>& points) {
    OrderedJson out;
    out["points"] = frontierPoints(points);
    return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string frontierProgressToJson(const std::vector<FrontierPoint>& points, int runsMade, int runs) {
    OrderedJson out;
    out["runsMade"] = runsMade;
    out["runs"] = runs;
    out["points"] = frontierPoints(points);
    return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

// One node a line, the layout of the built-in examples, written piece by piece: a document tree
// of a few million nodes would take gigabytes.
std::string graphToJson(const GraphDocument& doc) {
    const Graph& g = doc.graph;
    auto compact = [](auto&& write) {
        JsonWriter w;
        write(w);
        return w.take();
    };
    std::string out = "{\n \"Nodes\": [";
    for (size_t i = 0; i < g.nodes.size(); ++i)
        out += (i ? ",\n  " : "\n  ") + compact([&](JsonWriter& w) { writeNode(w, g.nodes[i]); });
    out += "\n ],\n \"Edges\": [";
    for (size_t i = 0; i < g.edges.size(); ++i)
        out += std::string(i ? "," : "") + (i % 12 == 0 ? "\n  " : "") + "[" +
               std::to_string(g.nodes[g.edges[i].first].id) + "," + std::to_string(g.nodes[g.edges[i].second].id) + "]";
    out += "\n ]";
    if (doc.order) out += ",\n \"Order\": " + compact([&](JsonWriter& w) { w.value(*doc.order); });
    if (doc.capacities) out += ",\n \"Capacities\": " + compact([&](JsonWriter& w) { w.value(*doc.capacities); });
    return out + "\n}\n";
}

std::string scheduleText(const Plan& p) {
    std::string out;
    for (NodeId id : p.order) out += std::to_string(id) + "\n";
    return out;
}

std::string memoryText(const Plan& p) {
    std::string out;
    for (const Allocation& a : p.allocations) out += std::to_string(a.buf) + ":" + std::to_string(a.offset) + "\n";
    return out;
}

std::string spillText(const Plan& p) {
    std::string out;
    for (const Spill& s : p.spills) out += std::to_string(s.buf) + ":" + std::to_string(s.newOffset) + "\n";
    return out;
}

}  // namespace spillway
