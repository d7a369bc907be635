#include "spillway/json_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "spillway/error.h"

namespace spillway {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace {

std::string lineColumn(const std::string& text, size_t byte) {
    // nlohmann reports the 1-based index of the last byte it read.
    size_t line = 1, column = 1;
    const size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
    for (size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// nlohmann's message minus its "[json.exception...] " and "parse error at line L, column C: ".
std::string parseErrorReason(const std::string& what) {
    std::string reason = what;
    if (reason.rfind("[json.exception.", 0) == 0 && reason.find("] ") != std::string::npos)
        reason = reason.substr(reason.find("] ") + 2);
    if (reason.rfind("parse error", 0) == 0 && reason.find(": ") != std::string::npos)
        reason = reason.substr(reason.find(": ") + 2);
    return reason;
}

Json parseJson(const std::string& text, const std::string& what) {
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            throw InputError(what + " is empty: expected a JSON object");
        throw InputError(what + " is not valid JSON: " + lineColumn(text, e.byte) + ": " +
                         parseErrorReason(e.what()));
    } catch (const Json::exception& e) {
        // e.g. a number too large for a double ("number overflow parsing '1e400'"): nlohmann
        // gives no position, so find the quoted literal in the text.
        const std::string reason = parseErrorReason(e.what());
        const auto q1 = reason.find('\''), q2 = reason.rfind('\'');
        const size_t at = q1 != std::string::npos && q2 > q1 ? text.find(reason.substr(q1 + 1, q2 - q1 - 1)) : std::string::npos;
        throw InputError(what + " is not valid JSON: " + (at == std::string::npos ? "" : lineColumn(text, at + 1) + ": ") + reason);
    }
}

const char* typeName(const Json& v) {
    if (v.is_number_integer()) return "an integer";
    if (v.is_number()) return "a non-integer number";
    return v.type_name();
}

// Reads one field of an object, naming `place` and the field in every error.
class Fields {
public:
    Fields(const Json& obj, std::string place) : obj_(obj), place_(std::move(place)) {}

    const Json* find(const char* key) const {
        auto it = obj_.find(key);
        return it == obj_.end() ? nullptr : &*it;
    }
    const Json& require(const char* key) const {
        const Json* v = find(key);
        if (!v) fail(key, "is missing");
        return *v;
    }
    std::int64_t integer(const char* key, std::int64_t min, std::int64_t max) const {
        return integerValue(require(key), key, min, max);
    }
    std::int64_t integerValue(const Json& v, const std::string& key, std::int64_t min,
                              std::int64_t max) const {
        if (!v.is_number_integer())
            fail(key, std::string("must be an integer, got ") + typeName(v));
        std::int64_t x = v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX
                             ? INT64_MAX
                             : v.get<std::int64_t>();
        if (x < min || x > max)
            fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                          ", got " + v.dump());
        return x;
    }
    std::string string(const char* key) const {
        const Json& v = require(key);
        if (!v.is_string() || v.get<std::string>().empty())
            fail(key, std::string("must be a non-empty string, got ") + typeName(v));
        return v.get<std::string>();
    }
    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(place_ + ": field \"" + key + "\" " + problem);
    }
    const std::string& place() const { return place_; }

private:
    const Json& obj_;
    std::string place_;
};

constexpr std::int64_t kMaxId = 2147483647 / 2;  // leaves room for the spill ids after them
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;
constexpr std::int64_t kMaxCycles = std::int64_t{1} << 40;

Node parseNode(const Json& v, size_t index) {
    const std::string at = "Nodes[" + std::to_string(index) + "]";
    if (!v.is_object()) throw InputError(at + " must be an object, got " + typeName(v));
    Node n;
    n.id = static_cast<NodeId>(Fields(v, at).integer("Id", 0, kMaxId));
    Fields f(v, "node " + std::to_string(n.id));
    n.op = f.string("Op");
    if (n.isBufferNode()) {
        n.buf = static_cast<BufferId>(f.integer("BufId", 0, INT32_MAX));
        n.size = f.integer("Size", 1, kMaxBytes);
        n.type = f.string("Type");
        return n;
    }
    n.pipe = f.string("Pipe");
    n.cycles = f.integer("Cycles", 0, kMaxCycles);
    const Json& bufs = f.require("Bufs");
    if (!bufs.is_array()) f.fail("Bufs", std::string("must be an array, got ") + typeName(bufs));
    for (size_t k = 0; k < bufs.size(); ++k)
        n.bufs.push_back(static_cast<BufferId>(
            f.integerValue(bufs[k], "Bufs[" + std::to_string(k) + "]", 0, INT32_MAX)));
    return n;
}

std::pair<int, int> parseEdge(const Json& v, size_t index, const Graph& g) {
    const std::string at = "Edges[" + std::to_string(index) + "]";
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
        throw InputError(at + " must be [src, dst] with two node ids, got " + v.dump());
    std::pair<int, int> e;
    for (int k = 0; k < 2; ++k) {
        auto it = g.nodeIndex.find(v[k].get<std::int64_t>() <= kMaxId && v[k].get<std::int64_t>() >= 0
                                       ? static_cast<NodeId>(v[k].get<std::int64_t>())
                                       : -1);
        if (it == g.nodeIndex.end())
            throw InputError(at + " " + v.dump() + " names node " + v[k].dump() +
                             ", which is not in Nodes");
        (k == 0 ? e.first : e.second) = it->second;
    }
    return e;
}

Order parseOrderArray(const Json& v, const std::string& what) {
    if (!v.is_array()) throw InputError(what + " must be an array of node ids, got " + typeName(v));
    Order order;
    order.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 ||
            v[i].get<std::int64_t>() > kMaxId)
            throw InputError(what + "[" + std::to_string(i) + "] must be a node id, got " +
                             v[i].dump());
        order.push_back(static_cast<NodeId>(v[i].get<std::int64_t>()));
    }
    return order;
}

Capacities parseCapacityObject(const Json& v, const std::string& what) {
    if (!v.is_object())
        throw InputError(what + " must be an object like {\"L1\": 4096}, got " + typeName(v));
    Capacities caps;
    Fields f(v, what);
    for (auto it = v.begin(); it != v.end(); ++it)
        caps[it.key()] = f.integerValue(it.value(), it.key(), 1, kMaxBytes);
    return caps;
}

}  // namespace

GraphDocument parseGraphDocument(const std::string& text) {
    const Json root = parseJson(text, "the graph");
    if (!root.is_object())
        throw InputError(std::string("the graph must be a JSON object with \"Nodes\" and "
                                     "\"Edges\", got ") + typeName(root));
    Fields top(root, "the graph");
    const Json& nodes = top.require("Nodes");
    if (!nodes.is_array()) top.fail("Nodes", std::string("must be an array, got ") + typeName(nodes));
    const Json* edges = top.find("Edges");
    if (edges && !edges->is_array())
        top.fail("Edges", std::string("must be an array, got ") + typeName(*edges));

    GraphDocument doc;
    Graph& g = doc.graph;
    g.nodes.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) g.nodes.push_back(parseNode(nodes[i], i));
    // Index first so that edges can name nodes; finalizeGraph re-checks duplicates.
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i)
        if (!g.nodeIndex.emplace(g.nodes[i].id, i).second)
            throw InputError("duplicate node Id " + std::to_string(g.nodes[i].id) + " (Nodes[" +
                             std::to_string(g.nodeIndex[g.nodes[i].id]) + "] and Nodes[" +
                             std::to_string(i) + "])");
    if (edges) {
        g.edges.reserve(edges->size());
        for (size_t i = 0; i < edges->size(); ++i) g.edges.push_back(parseEdge((*edges)[i], i, g));
    }
    finalizeGraph(g);
    if (const Json* order = top.find("Order")) doc.order = parseOrderArray(*order, "Order");
    if (const Json* caps = top.find("Capacities"))
        doc.capacities = parseCapacityObject(*caps, "Capacities");
    return doc;
}

Order parseOrderText(const std::string& text) {
    Order order;
    std::istringstream in(text);
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        line.erase(0, line.find_first_not_of(" \t\r"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (line.empty()) continue;
        bool digits = line.size() <= 9 &&
                      std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isdigit(c); });
        if (!digits)
            throw InputError("order file, line " + std::to_string(lineNo) +
                             ": expected one node id, got \"" + line + "\"");
        order.push_back(std::stoi(line));
    }
    return order;
}

Capacities parseCapacityList(const std::string& text) {
    Capacities caps;
    std::istringstream in(text);
    std::string entry;
    while (std::getline(in, entry, ',')) {
        auto eq = entry.find('=');
        std::string name = entry.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : entry.substr(eq + 1);
        bool ok = eq != std::string::npos && !name.empty() && !value.empty() && value.size() <= 13 &&
                  std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
        if (!ok)
            throw InputError("--caps entry \"" + entry + "\" must look like L1=4096");
        Bytes cap = std::stoll(value);
        if (cap <= 0 || cap > kMaxBytes)
            throw InputError("--caps entry \"" + entry + "\": capacity must be between 1 and " +
                             std::to_string(kMaxBytes));
        caps[name] = cap;
    }
    if (caps.empty()) throw InputError("--caps is empty: expected e.g. L1=4096,UB=1024");
    return caps;
}

RunOptions parseRunOptions(const std::string& json) {
    RunOptions opts;
    if (json.find_first_not_of(" \t\r\n") == std::string::npos) return opts;
    const Json root = parseJson(json, "the options");
    if (!root.is_object()) throw InputError("the options must be a JSON object");
    Fields f(root, "options");
    if (const Json* caps = f.find("capacities"))
        opts.capacities = parseCapacityObject(*caps, "options.capacities");
    if (const Json* order = f.find("order")) {
        if (order->is_string()) {
            opts.orderSource = order->get<std::string>();
            const std::vector<std::string> named = {"graph", "id", "schedule", "reuse", "best"};
            if (std::find(named.begin(), named.end(), opts.orderSource) == named.end())
                f.fail("order", "must be \"graph\", \"id\", \"schedule\", \"reuse\", \"best\" or an array of node ids");
        } else {
            opts.orderSource = "given";
            opts.order = parseOrderArray(*order, "options.order");
        }
    }
    if (f.find("policy")) opts.policy = f.string("policy");
    if (const Json* cost = f.find("cost")) {
        if (!cost->is_object()) f.fail("cost", "must be an object like {\"model\": \"contest\"}");
        Fields c(*cost, "options.cost");
        opts.cost = CostModel::parse(c.string("model"));
        if (c.find("fixedLatency")) opts.cost.fixedLatency = c.integer("fixedLatency", 0, kMaxCycles);
        if (c.find("cyclesPerByte")) opts.cost.cyclesPerByte = c.integer("cyclesPerByte", 0, 1 << 20);
    }
    return opts;
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
    j["format"] = 1;
    j["engine"] = std::string("spillway ") + SPILLWAY_VERSION;
    j["policy"] = r.policy;
    j["planPolicy"] = r.plan.policy;
    j["cost"] = costJson(r.cost);
    j["capacities"] = r.capacities;
    j["orderSource"] = r.orderSource;
    j["inputOrder"] = r.inputOrder;

    OrderedJson m;
    m["spills"] = r.metrics.spills;
    m["extraBytes"] = r.metrics.extraBytes;
    m["demandPeak"]["byType"] = r.metrics.demandPeaks.byType;
    m["demandPeak"]["total"] = r.metrics.demandPeaks.total;
    m["residentPeak"] = r.metrics.residentPeaks;
    m["totalCycles"] = r.metrics.totalCycles;
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
    for (const NodeTiming& t : r.timing.nodes) timing.push_back({t.id, t.start, t.end});
    j["timing"] = std::move(timing);
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
    return j.dump() + "\n";
}

Plan planFromResultJson(const std::string& text) {
    const Json root = parseJson(text, "the result");
    if (!root.is_object()) throw InputError("the result must be a JSON object");
    Fields top(root, "the result");
    auto array = [&](const char* key) -> const Json& {
        const Json& v = top.require(key);
        if (!v.is_array()) top.fail(key, std::string("must be an array, got ") + typeName(v));
        return v;
    };
    Plan p;
    const Json& allocs = array("allocations");
    for (size_t i = 0; i < allocs.size(); ++i) {
        Fields f(allocs[i], "allocations[" + std::to_string(i) + "]");
        p.allocations.push_back({static_cast<BufferId>(f.integer("buf", 0, INT32_MAX)), f.string("type"),
                                 f.integer("offset", -kMaxBytes, kMaxBytes), f.integer("size", 0, kMaxBytes)});
    }
    const Json& spills = array("spills");
    for (size_t i = 0; i < spills.size(); ++i) {
        Fields f(spills[i], "spills[" + std::to_string(i) + "]");
        Spill s;
        s.buf = static_cast<BufferId>(f.integer("buf", 0, INT32_MAX));
        s.type = f.string("type");
        s.size = f.integer("size", 0, kMaxBytes);
        s.oldOffset = f.integer("oldOffset", -kMaxBytes, kMaxBytes);
        s.newOffset = f.integer("newOffset", -kMaxBytes, kMaxBytes);
        s.outNode = static_cast<NodeId>(f.integer("outNode", 0, INT32_MAX));
        s.inNode = static_cast<NodeId>(f.integer("inNode", 0, INT32_MAX));
        s.outStep = static_cast<int>(f.integer("outStep", -1, INT32_MAX));
        s.inStep = static_cast<int>(f.integer("inStep", -1, INT32_MAX));
        p.spills.push_back(s);
    }
    const Json& order = array("order");
    for (size_t i = 0; i < order.size(); ++i)
        p.order.push_back(static_cast<NodeId>(top.integerValue(order[i], "order[" + std::to_string(i) + "]", 0, INT32_MAX)));
    const Json& added = array("addedNodes");
    for (size_t i = 0; i < added.size(); ++i) {
        if (!added[i].is_object()) throw InputError("addedNodes[" + std::to_string(i) + "] must be an object");
        p.addedNodes.push_back(parseNode(added[i], i));
    }
    const Json& edges = array("addedEdges");
    for (size_t i = 0; i < edges.size(); ++i) {
        const Json& e = edges[i];
        if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
            throw InputError("addedEdges[" + std::to_string(i) + "] must be [src, dst], got " + e.dump());
        p.addedEdges.emplace_back(e[0].get<NodeId>(), e[1].get<NodeId>());
    }
    return p;
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
        j["ms"] = std::round(r.milliseconds * 10) / 10;
        out.push_back(std::move(j));
    }
    return out.dump() + "\n";
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
    return j.dump(1) + "\n";
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
