#include "spillway/json_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "field_reader.h"
#include "spillway/error.h"
#include "spillway/limits.h"

namespace spillway {

using OrderedJson = nlohmann::ordered_json;

namespace {

// Lines of an order file that hold an id: (line number, the id's text), comments and blanks gone.
template <typename F>
void forEachOrderLine(const std::string& text, F&& f) {
    std::istringstream in(text);
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
                                 std::to_string(limits::kMaxNodes) + " ids (limit nodes = " +
                                 std::to_string(limits::kMaxNodes) + ")",
                             std::move(where));
        }
        const bool digits = line.size() <= 10 &&
                            std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isdigit(c); });
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
            limits::exceeded("--caps names more than " + std::to_string(limits::kMaxMemories) + " memories",
                             "memories", limits::kMaxMemories, "options");
    }
    if (caps.empty()) fail("--caps is empty: expected e.g. L1=4096,UB=1024");
    return caps;
}

namespace {

using json::FieldCheck;
using json::FieldValue;
using json::Kind;
using json::Scalar;

// The options object of the bindings: {"capacities", "order", "policy", "cost"}, other keys
// ignored.
class OptionsReader {
public:
    explicit OptionsReader(const json::JsonText& text)
        : t_(text), capacities_(text, "options.capacities", "capacities"), cost_(text, json::costFieldNames()) {}

    void onScalar(const Scalar& s) { value(s.kind, &s, s.offset); }
    bool onBegin(Kind k, std::size_t offset) { return value(k, nullptr, offset); }
    void onKey(std::string& key, std::size_t offset) {
        switch (stack_.back()) {
            case Ctx::Root:
                if (key == "cost" || key == "order" || key == "policy" || key == "capacities" || key == "effort" ||
                    key == "objective" || key == "disable") {
                    if (!seen_.insert(key).second) fail(offset, "options: field \"" + key + "\" appears twice", key);
                }
                key_ = std::move(key);
                break;
            case Ctx::Capacities: capacities_.key(std::move(key), offset, *opts_.capacities); break;
            case Ctx::Cost: cost_.key(key, offset, "options.cost"); break;
            case Ctx::Order:
            case Ctx::Disable: break;
        }
    }
    void onEnd(Kind, std::size_t) {
        if (stack_.back() == Ctx::Cost) {
            ErrorPlace where;
            where.field = "cost";
            FieldCheck f(t_, "options.cost", where, cost_.offset());
            opts_.cost = json::costModelFrom(cost_, f);
        }
        stack_.pop_back();
    }
    RunOptions finish() {
        // "disable" may come before "objective": checked once both are read.
        if (!opts_.cycles.disabled.empty() && opts_.objective != Objective::Cycles)
            fail(disableOffset_, "options: field \"disable\" switches off techniques of the objective \"cycles\", "
                                 "but the objective is \"bytes\"",
                 "disable");
        return std::move(opts_);
    }

private:
    enum class Ctx : std::uint8_t { Root, Capacities, Order, Cost, Disable };

    bool value(Kind k, const Scalar* s, std::size_t offset) {
        if (stack_.empty()) {
            if (k != Kind::Object) fail(offset, std::string("the options must be a JSON object, got ") + json::kindName(k));
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
                    t_.fail(offset, "options.order has more than " + std::to_string(limits::kMaxNodes) +
                                        " entries (limit nodes = " + std::to_string(limits::kMaxNodes) + ")",
                            std::move(where));
                }
                if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > limits::kMaxNodeId)
                    t_.fail(offset, "options." + field + " must be a node id, got " +
                                        (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
                            std::move(where));
                opts_.order->push_back(static_cast<NodeId>(s->integer));
                return false;
            }
            case Ctx::Cost:
                if (s) cost_.value(*s);
                else cost_.container(k, offset);
                return false;
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
                fail(offset, std::string("options: field \"capacities\" must be an object like {\"L1\": 4096}, got ") +
                                 json::kindName(k),
                     "capacities");
            opts_.capacities.emplace();
            stack_.push_back(Ctx::Capacities);
            return true;
        }
        if (key_ == "order") {
            if (k == Kind::String) {
                if (!isOrderSource(*s->string))
                    fail(offset, "options: field \"order\" must be one of " + orderSourceNames() + ", or an array of node ids, got \"" +
                                     excerpt(*s->string) + "\"",
                         "order");
                opts_.orderSource = *s->string;
                return false;
            }
            if (k != Kind::Array)
                fail(offset, std::string("options: field \"order\" must be a string or an array of node ids, got ") +
                                 json::kindName(k),
                     "order");
            opts_.orderSource = "given";
            opts_.order.emplace();
            stack_.push_back(Ctx::Order);
            return true;
        }
        if (key_ == "policy") {
            if (k != Kind::String || s->string->empty())
                fail(offset, std::string("options: field \"policy\" must be a non-empty string, got ") +
                                 (k == Kind::String ? "an empty string" : json::kindName(k)),
                     "policy");
            opts_.policy = std::move(*s->string);
            return false;
        }
        if (key_ == "effort") {
            if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > limits::kMaxEffort)
                fail(offset, "options: field \"effort\" must be an integer between 0 and " + std::to_string(limits::kMaxEffort) +
                                 ", got " + (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
                     "effort");
            opts_.effort = s->integer;
            return false;
        }
        if (key_ == "objective") {
            if (k != Kind::String)
                fail(offset, std::string("options: field \"objective\" must be \"bytes\" or \"cycles\", got ") + json::kindName(k),
                     "objective");
            try {
                opts_.objective = parseObjective(*s->string);
            } catch (const InputError& e) {
                fail(offset, std::string("options: ") + e.what(), "objective");
            }
            return false;
        }
        if (key_ == "disable") {
            if (k != Kind::Array)
                fail(offset, std::string("options: field \"disable\" must be an array of technique names, got ") + json::kindName(k),
                     "disable");
            disableOffset_ = offset;
            stack_.push_back(Ctx::Disable);
            return true;
        }
        if (key_ == "cost") {
            if (k != Kind::Object)
                fail(offset, std::string("options: field \"cost\" must be an object like {\"model\": \"contest\"}, got ") +
                                 json::kindName(k),
                     "cost");
            cost_.begin(offset);
            stack_.push_back(Ctx::Cost);
            return true;
        }
        return false;  // an option this engine does not know: ignored
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
    int disableCount_ = 0;
};

}  // namespace

RunOptions parseRunOptions(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {};
    const json::JsonText t(text, "options", "the options");
    OptionsReader reader(t);
    json::readJson(t, reader);
    return reader.finish();
}

namespace {

OrderedJson nodeJson(const Node& n) {
    OrderedJson j;
    j["Id"] = n.id;
    j["Op"] = n.op;
    if (n.isBufferNode()) {
        j["BufId"] = n.buf;
        j["Size"] = n.size;
        j["Type"] = n.type;
    } else {
        j["Pipe"] = n.pipe;
        j["Cycles"] = n.cycles;
        j["Bufs"] = n.bufs;
    }
    return j;
}

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
    if (!b.exact) j["exact"] = false;  // only when the relaxation ran out of its work budget
    return j;
}

OrderedJson cyclesBoundJson(const CyclesBound& b) {
    OrderedJson j;
    j["total"] = b.total;
    j["limit"] = b.limit;
    j["criticalPath"] = b.criticalPath;
    OrderedJson pipes;
    for (const CyclesBound::Pipe& p : b.pipes) pipes[p.name] = {{"busy", p.busy}, {"bound", p.bound}};
    j["pipes"] = std::move(pipes);
    return j;
}

// A placement's holes, [start, end) pairs by address.
void addPlacement(OrderedJson& dj, const Decision& d) {
    OrderedJson holes = OrderedJson::array();
    for (const Hole& h : d.holes) holes.push_back({h.start, h.end});
    dj["holes"] = std::move(holes);
    dj["holesTotal"] = d.holesTotal;
}

// A spill's room, formula, candidates (best first) and, for a policy that weighs windows, windows.
void addSpillChoice(OrderedJson& dj, const Decision& d) {
    dj["room"] = {{"for", d.room.forBufs}, {"need", d.room.need}, {"free", d.room.freeBytes},
                  {"largestHole", d.room.largestHole}, {"shortfall", d.room.shortfall}};
    dj["formula"] = d.formula;
    OrderedJson cands = OrderedJson::array();
    for (const Candidate& c : d.candidates)
        cands.push_back({{"buf", c.buf}, {"nextUseStep", c.nextUseStep}, {"score", c.score}, {"size", c.size},
                         {"copyIn", c.copyIn}});
    dj["candidates"] = std::move(cands);
    dj["candidatesTotal"] = d.candidatesTotal;
    if (d.windows.empty()) return;
    OrderedJson windows = OrderedJson::array();
    for (const SpillWindow& w : d.windows)
        windows.push_back({{"start", w.start}, {"end", w.end}, {"cost", w.cost}, {"bufs", w.bufs}});
    dj["windows"] = std::move(windows);
    dj["windowsTotal"] = d.windowsTotal;
}

// A node's pipe and what it waited for (docs/timing.md): members that do not apply are left out.
OrderedJson waitJson(const NodeTiming& t) {
    OrderedJson j;
    if (!t.pipe.empty()) j["pipe"] = t.pipe;
    j["cause"] = waitCauseName(t.wait.cause);
    if (t.wait.cause == WaitCause::None) return j;
    j["node"] = t.wait.node;
    if (t.wait.cause == WaitCause::Address) j["buffer"] = t.wait.buffer;
    j["cycles"] = t.wait.cycles;
    return j;
}

// Under the cycles objective: the bytes plan it started from and what each technique gained.
OrderedJson objectiveJson(const ObjectiveReport& c) {
    OrderedJson j;
    j["name"] = "cycles";
    j["disabled"] = c.disabled;
    j["bytesPlan"] = {{"extraBytes", c.bytesPlanExtraBytes}, {"totalCycles", c.bytesPlanCycles}};
    j["steps"] = c.steps;
    return j;
}

OrderedJson costJson(const CostModel& c) {
    OrderedJson j;
    j["model"] = c.name();
    if (c.kind == CostModel::Kind::Seed) {
        j["fixedLatency"] = c.fixedLatency;
        j["cyclesPerByte"] = c.cyclesPerByte;
    }
    return j;
}

}  // namespace

std::string resultToJson(const Graph&, const Result& r) {
    OrderedJson j;
    j["format"] = kResultFormat;
    j["engine"] = std::string("spillway ") + SPILLWAY_VERSION;
    j["policy"] = r.policy;
    j["planPolicy"] = r.plan.policy;
    j["cost"] = costJson(r.cost);
    j["capacities"] = r.capacities;
    j["orderSource"] = r.orderSource;
    if (r.search)
        j["search"] = {{"evaluations", r.search->evaluations}, {"effort", r.search->effort}, {"start", r.search->start}};
    if (r.cycles) j["objective"] = objectiveJson(*r.cycles);
    j["inputOrder"] = r.inputOrder;

    OrderedJson m;
    m["spills"] = r.metrics.spills;
    m["extraBytes"] = r.metrics.extraBytes;
    m["demandPeak"]["byType"] = r.metrics.demandPeaks.byType;
    m["demandPeak"]["total"] = r.metrics.demandPeaks.total;
    m["residentPeak"] = r.metrics.residentPeaks;
    m["totalCycles"] = r.metrics.totalCycles;
    m["bound"] = boundJson(r.metrics.bound);
    m["cyclesBound"] = {{"plan", cyclesBoundJson(r.metrics.cyclesBound.plan)},
                        {"order", cyclesBoundJson(r.metrics.cyclesBound.order)},
                        {"graph", cyclesBoundJson(r.metrics.cyclesBound.graph)}};
    j["metrics"] = std::move(m);

    const Plan& p = r.plan;
    OrderedJson allocs = OrderedJson::array();
    for (const Allocation& a : p.allocations)
        allocs.push_back({{"buf", a.buf}, {"type", a.type}, {"offset", a.offset}, {"size", a.size}});
    j["allocations"] = std::move(allocs);
    OrderedJson spills = OrderedJson::array();
    for (const Spill& s : p.spills)
        spills.push_back({{"buf", s.buf}, {"type", s.type}, {"size", s.size},
                          {"oldOffset", s.oldOffset}, {"newOffset", s.newOffset},
                          {"outNode", s.outNode}, {"inNode", s.inNode},
                          {"outStep", s.outStep}, {"inStep", s.inStep}});
    j["spills"] = std::move(spills);
    j["order"] = p.order;
    OrderedJson added = OrderedJson::array();
    for (const Node& n : p.addedNodes) added.push_back(nodeJson(n));
    j["addedNodes"] = std::move(added);
    OrderedJson edges = OrderedJson::array();
    for (auto [s, d] : p.addedEdges) edges.push_back({s, d});
    j["addedEdges"] = std::move(edges);
    OrderedJson timing = OrderedJson::array();
    OrderedJson waits = OrderedJson::array();
    for (const NodeTiming& t : r.timing.nodes) {
        timing.push_back({t.id, t.start, t.end});
        waits.push_back(waitJson(t));
    }
    j["timing"] = std::move(timing);
    j["waits"] = std::move(waits);
    OrderedJson decisions = OrderedJson::array();
    for (const Decision& d : p.decisions) {
        OrderedJson dj;
        dj["kind"] = decisionKind(d.kind);
        dj["step"] = d.step;
        dj["orderStep"] = d.orderStep;
        dj["node"] = d.node;
        dj["buf"] = d.buf;
        dj["type"] = d.type;
        dj["offset"] = d.offset;
        dj["size"] = d.size;
        dj["reason"] = d.reason;
        if (d.kind == Decision::Kind::Place || d.kind == Decision::Kind::Reload) addPlacement(dj, d);
        if (d.kind == Decision::Kind::Spill) addSpillChoice(dj, d);
        decisions.push_back(std::move(dj));
    }
    j["decisions"] = std::move(decisions);
    return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
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
            j["bytesPlan"] = {{"extraBytes", r.cycles->bytesPlanExtraBytes}, {"totalCycles", r.cycles->bytesPlanCycles}};
        j["ms"] = std::round(r.milliseconds * 10) / 10;
        out.push_back(std::move(j));
    }
    return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string graphToJson(const GraphDocument& doc) {
    OrderedJson j;
    OrderedJson nodes = OrderedJson::array();
    for (const Node& n : doc.graph.nodes) nodes.push_back(nodeJson(n));
    j["Nodes"] = std::move(nodes);
    OrderedJson edges = OrderedJson::array();
    for (auto [s, d] : doc.graph.edges)
        edges.push_back({doc.graph.nodes[s].id, doc.graph.nodes[d].id});
    j["Edges"] = std::move(edges);
    if (doc.order) j["Order"] = *doc.order;
    if (doc.capacities) j["Capacities"] = *doc.capacities;
    return j.dump(1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string scheduleText(const Plan& p) {
    std::string out;
    for (NodeId id : p.order) out += std::to_string(id) + "\n";
    return out;
}

std::string memoryText(const Plan& p) {
    std::string out;
    for (const Allocation& a : p.allocations)
        out += std::to_string(a.buf) + ":" + std::to_string(a.offset) + "\n";
    return out;
}

std::string spillText(const Plan& p) {
    std::string out;
    for (const Spill& s : p.spills)
        out += std::to_string(s.buf) + ":" + std::to_string(s.newOffset) + "\n";
    return out;
}

}  // namespace spillway
