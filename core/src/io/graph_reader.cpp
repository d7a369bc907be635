// parseGraphDocument: the graph format read straight into the model from the JSON stream (no
// document tree), recording where each node, edge and Order entry is so that every later error
// about the graph can name its line and column.
#include <limits>

#include "field_reader.h"
#include "program_reader.h"
#include "spillway/id_table.h"
#include "spillway/json_io.h"
#include "spillway/limits.h"

namespace spillway {
namespace {

using json::FieldCheck;
using json::FieldValue;
using json::Kind;
using json::Scalar;

constexpr std::int64_t kBeyondInt64 = std::numeric_limits<std::int64_t>::min();  // an edge end too large to hold
// The bytes of the shortest valid entries, with the comma after them: [0,0], and
// {"Id":0,"Op":"A","Pipe":"P","Cycles":0,"Bufs":[]} (a buffer node is longer).
constexpr std::size_t kShortestEdge = 6;
constexpr std::size_t kShortestNode = 50;

class GraphReader {
public:
    GraphReader(const json::JsonText& text, const std::optional<HostNodeLimit>& hostLimit)
        : t_(text), hostLimit_(hostLimit), node_(text, "Nodes", false), capacities_(text, "Capacities", "Capacities") {}

    void onScalar(const Scalar& s) { value(s.kind, &s, s.offset); }
    bool onBegin(Kind k, std::size_t offset) { return value(k, nullptr, offset); }
    bool onKey(std::string& key, std::size_t offset);
    void onEnd(Kind k, std::size_t offset);
    GraphDocument finish();

private:
    enum class Ctx : std::uint8_t { Root, Nodes, Node, Bufs, Edges, Edge, Order, Capacities };
    enum RootField { kNodes, kEdges, kOrder, kCapacities, kOther };

    bool value(Kind k, const Scalar* s, std::size_t offset);
    bool rootField(Kind k, std::size_t offset);
    void refuseOverLimit(std::size_t open, std::int64_t max, std::size_t shortestEntry, const char* what) const;
    void edgeEntry(Kind k, const Scalar* s, std::size_t offset);
    void orderEntry(Kind k, const Scalar* s, std::size_t offset);
    void endEdge();
    void addEdge(std::size_t index, std::int64_t src, std::int64_t dst);
    void indexNodes();
    [[noreturn]] void tooLargeForHost() const {
        const std::int64_t max = hostLimit_->maxNodes;
        ErrorPlace where;
        where.limit = LimitPlace{hostLimit_->limitName, max};
        fail(firstOverHostLimit_,
             "the graph is too large for " + hostLimit_->host + " (" + std::to_string(max + nodesOverHostLimit_) +
                 " nodes, limit " + std::to_string(max) + ")" + hostLimit_->advice,
             std::move(where));
    }
    TextPosition here(std::size_t offset) const {
        const json::Position p = t_.position(offset);
        return {static_cast<std::uint32_t>(p.line), static_cast<std::uint32_t>(p.column)};
    }
    [[noreturn]] void fail(std::size_t offset, const std::string& message, ErrorPlace where = {}) const {
        t_.fail(offset, message, std::move(where));
    }
    [[noreturn]] void tooMany(std::size_t offset, const std::string& what, const char* limit, std::int64_t max) const {
        ErrorPlace where;
        where.limit = LimitPlace{limit, max};
        fail(offset,
             "the graph has more than " + std::to_string(max) + " " + what + " (limit " + limit + " = " +
                 std::to_string(max) + ")",
             std::move(where));
    }
    static ErrorPlace atField(const std::string& field) {
        ErrorPlace where;
        where.field = field;
        return where;
    }

    const json::JsonText& t_;
    const std::optional<HostNodeLimit>& hostLimit_;
    // Nodes beyond the host's limit: only counted (skipped unread), and where the first one is.
    std::int64_t nodesOverHostLimit_ = 0;
    std::size_t firstOverHostLimit_ = 0;
    GraphDocument doc_;
    std::vector<Ctx> stack_;
    RootField rootField_ = kOther;
    unsigned seen_ = 0;  // root fields seen, a bit each
    json::NodeFields node_;
    std::int64_t uses_ = 0;
    bool indexed_ = false;
    // The edge being read, and edges read before Nodes was complete (resolved at the end).
    std::size_t edgeStart_ = 0;
    std::int64_t edgeEnds_[2] = {0, 0};
    int edgeCount_ = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> pendingEdges_;
    json::CapacityEntries capacities_;
};

bool GraphReader::onKey(std::string& key, std::size_t offset) {
    switch (stack_.back()) {
        case Ctx::Root: {
            static const char* kFields[] = {"Nodes", "Edges", "Order", "Capacities"};
            rootField_ = kOther;
            for (int f = 0; f < kOther; ++f)
                if (key == kFields[f]) rootField_ = static_cast<RootField>(f);
            if (rootField_ != kOther && (seen_ & (1u << rootField_)))
                fail(offset, "the graph: field \"" + key + "\" appears twice", atField(key));
            if (rootField_ != kOther) seen_ |= 1u << rootField_;
            return rootField_ != kOther;
        }
        case Ctx::Node: return node_.key(key, offset);
        case Ctx::Capacities:
            capacities_.key(std::move(key), offset, *doc_.capacities);
            doc_.source.capacities[capacities_.name()] = here(offset);
            return true;
        default: return true;
    }
}

bool GraphReader::value(Kind k, const Scalar* s, std::size_t offset) {
    const bool container = k == Kind::Array || k == Kind::Object;
    if (stack_.empty()) {
        if (k != Kind::Object)
            fail(offset,
                 std::string("the graph must be a JSON object with \"Nodes\" and \"Edges\", got ") + json::kindName(k));
        doc_.source.document = here(offset);
        stack_.push_back(Ctx::Root);
        return true;
    }
    switch (stack_.back()) {
        case Ctx::Root: return rootField(k, offset);
        case Ctx::Nodes: {
            const std::size_t index = doc_.graph.nodes.size();
            if (k != Kind::Object) {
                ErrorPlace where;
                where.nodeIndex = static_cast<std::int64_t>(index);
                fail(offset, "Nodes[" + std::to_string(index) + "] must be an object, got " + json::kindName(k),
                     std::move(where));
            }
            if (static_cast<std::int64_t>(index) >= limits::kMaxNodes)
                tooMany(offset, "nodes", "nodes", limits::kMaxNodes);
            if (hostLimit_ && static_cast<std::int64_t>(index) >= hostLimit_->maxNodes) {
                if (nodesOverHostLimit_++ == 0) firstOverHostLimit_ = offset;
                return false;  // counted, not built: the error names the whole graph's size
            }
            node_.begin(offset, index);
            doc_.source.nodes.push_back(here(offset));
            stack_.push_back(Ctx::Node);
            return true;
        }
        case Ctx::Node:
            if (!container) {
                node_.scalar(*s);
                return false;
            }
            if (!node_.container(k, offset)) return false;
            stack_.push_back(Ctx::Bufs);
            return true;
        case Ctx::Bufs: node_.bufsEntry(s ? FieldValue::of(*s) : FieldValue::container(k, offset)); return false;
        case Ctx::Edges: {
            const std::size_t index = doc_.source.edges.size();
            if (static_cast<std::int64_t>(index) >= limits::kMaxEdges)
                tooMany(offset, "edges", "edges", limits::kMaxEdges);
            ErrorPlace where = atField("Edges[" + std::to_string(index) + "]");
            where.edge = static_cast<std::int64_t>(index);
            if (k != Kind::Array)
                fail(offset,
                     "Edges[" + std::to_string(index) + "] must be [src, dst] with two node ids, got " +
                         json::kindName(k),
                     std::move(where));
            doc_.source.edges.push_back(here(offset));
            edgeStart_ = offset;
            edgeCount_ = 0;
            stack_.push_back(Ctx::Edge);
            return true;
        }
        case Ctx::Edge: edgeEntry(k, s, offset); return false;
        case Ctx::Order: orderEntry(k, s, offset); return false;
        case Ctx::Capacities: (*doc_.capacities)[capacities_.name()] = capacities_.value(k, s, offset); return false;
    }
    return false;
}

bool GraphReader::rootField(Kind k, std::size_t offset) {
    static const char* kNames[] = {"Nodes", "Edges", "Order", "Capacities"};
    if (rootField_ == kOther) return false;  // a field we do not use: skipped
    const Kind want = rootField_ == kCapacities ? Kind::Object : Kind::Array;
    if (k != want) {
        const char* expected = rootField_ == kCapacities ? "an object like {\"L1\": 4096}"
                               : rootField_ == kOrder    ? "an array of node ids"
                                                         : "an array";
        fail(offset,
             std::string("the graph: field \"") + kNames[rootField_] + "\" must be " + expected + ", got " +
                 json::kindName(k),
             atField(kNames[rootField_]));
    }
    switch (rootField_) {
        case kNodes:
            refuseOverLimit(offset, limits::kMaxNodes, kShortestNode, "nodes");
            stack_.push_back(Ctx::Nodes);
            break;
        case kEdges:
            refuseOverLimit(offset, limits::kMaxEdges, kShortestEdge, "edges");
            stack_.push_back(Ctx::Edges);
            break;
        case kOrder:
            doc_.order.emplace();
            stack_.push_back(Ctx::Order);
            break;
        case kCapacities:
            doc_.capacities.emplace();
            stack_.push_back(Ctx::Capacities);
            break;
        case kOther: break;
    }
    return true;
}

// An array with an entry past its limit is refused when it begins, at that entry, with the error
// reading up to it would give, rather than after the whole array is read and stored. Only a
// text long enough for that many valid entries is walked: in a shorter one an entry before the
// limit is invalid, and reading stops there.
void GraphReader::refuseOverLimit(std::size_t open, std::int64_t max, std::size_t shortestEntry,
                                  const char* what) const {
    if (t_.text().size() - open < static_cast<std::size_t>(max) * shortestEntry) return;
    const std::size_t entry = json::arrayEntryOffset(t_.text(), open, static_cast<std::size_t>(max));
    if (entry != std::string_view::npos) tooMany(entry, what, what, max);
}

void GraphReader::edgeEntry(Kind k, const Scalar* s, std::size_t offset) {
    const std::size_t index = doc_.source.edges.size() - 1;
    if (k != Kind::Integer || edgeCount_ == 2) {
        ErrorPlace where = atField("Edges[" + std::to_string(index) + "]");
        where.edge = static_cast<std::int64_t>(index);
        fail(offset,
             "Edges[" + std::to_string(index) + "] must be [src, dst] with two node ids, got " +
                 (edgeCount_ == 2 ? std::string("a third entry") : std::string(json::kindName(k))),
             std::move(where));
    }
    edgeEnds_[edgeCount_++] = s->beyondInt64 ? kBeyondInt64 : s->integer;
}

void GraphReader::endEdge() {
    const std::size_t index = doc_.source.edges.size() - 1;
    if (edgeCount_ != 2) {
        ErrorPlace where = atField("Edges[" + std::to_string(index) + "]");
        where.edge = static_cast<std::int64_t>(index);
        fail(edgeStart_,
             "Edges[" + std::to_string(index) + "] must be [src, dst] with two node ids, got " +
                 std::to_string(edgeCount_) + (edgeCount_ == 1 ? " id" : " ids"),
             std::move(where));
    }
    if (indexed_)
        addEdge(index, edgeEnds_[0], edgeEnds_[1]);
    else
        pendingEdges_.emplace_back(edgeEnds_[0], edgeEnds_[1]);
}

void GraphReader::addEdge(std::size_t index, std::int64_t src, std::int64_t dst) {
    int ends[2];
    for (int k = 0; k < 2; ++k) {
        const std::int64_t id = k == 0 ? src : dst;
        const int found = doc_.graph.nodeIndex.find(id);
        if (found == IdTable::kAbsent) {
            ErrorPlace where = atField("Edges[" + std::to_string(index) + "][" + std::to_string(k) + "]");
            where.source = "graph";
            where.edge = static_cast<std::int64_t>(index);
            const TextPosition p = doc_.source.edges[index];
            throw locatedError(InputError("Edges[" + std::to_string(index) + "]: its " + (k == 0 ? "src" : "dst") +
                                              " " + (id == kBeyondInt64 ? "above 2^63" : std::to_string(id)) +
                                              " is the Id of no node in Nodes",
                                          std::move(where)),
                               p.line, p.column);
        }
        ends[k] = found;
    }
    doc_.graph.edges.emplace_back(ends[0], ends[1]);
}

void GraphReader::orderEntry(Kind k, const Scalar* s, std::size_t offset) {
    Order& order = *doc_.order;
    const std::string field = "Order[" + std::to_string(order.size()) + "]";
    ErrorPlace where = atField(field);
    where.step = static_cast<std::int64_t>(order.size());
    if (static_cast<std::int64_t>(order.size()) >= limits::kMaxNodes) {
        where.limit = LimitPlace{"nodes", limits::kMaxNodes};
        fail(offset,
             "the graph's \"Order\" has more than " + std::to_string(limits::kMaxNodes) +
                 " entries (limit nodes = " + std::to_string(limits::kMaxNodes) + ")",
             std::move(where));
    }
    if (k != Kind::Integer || s->beyondInt64 || s->integer < 0 || s->integer > limits::kMaxNodeId)
        fail(offset,
             field + " must be a node id, got " +
                 (k == Kind::Integer ? excerpt(t_.token(offset)) : std::string(json::kindName(k))),
             std::move(where));
    order.push_back(static_cast<NodeId>(s->integer));
    doc_.source.order.push_back(here(offset));
}

void GraphReader::onEnd(Kind, std::size_t) {
    const Ctx ended = stack_.back();
    stack_.pop_back();
    switch (ended) {
        case Ctx::Node: doc_.graph.nodes.push_back(node_.finish(uses_)); break;
        case Ctx::Nodes:
            if (nodesOverHostLimit_ > 0) tooLargeForHost();
            indexNodes();
            break;
        case Ctx::Edge: endEdge(); break;
        default: break;
    }
}

void GraphReader::indexNodes() {
    try {
        spillway::indexNodes(doc_.graph);
    } catch (const InputError& e) {
        throw locateInDocument(doc_, e);
    }
    indexed_ = true;
    for (std::size_t i = 0; i < pendingEdges_.size(); ++i) addEdge(i, pendingEdges_[i].first, pendingEdges_[i].second);
    pendingEdges_.clear();
    pendingEdges_.shrink_to_fit();
}

GraphDocument GraphReader::finish() {
    if (!(seen_ & (1u << kNodes))) {
        ErrorPlace where = atField("Nodes");
        where.source = "graph";
        throw locatedError(InputError("the graph: field \"Nodes\" is missing", std::move(where)),
                           doc_.source.document.line, doc_.source.document.column);
    }
    try {
        finalizeGraph(doc_.graph);
    } catch (const InputError& e) {
        throw locateInDocument(doc_, e);
    }
    return std::move(doc_);
}

}  // namespace

GraphDocument parseGraphDocument(const std::string& text, const std::optional<HostNodeLimit>& hostLimit) {
    if (isProgramText(text)) return parseProgram(text, hostLimit);
    const json::JsonText t(text, "graph", "the graph");
    GraphReader reader(t, hostLimit);
    json::readJson(t, reader);
    return reader.finish();
}

}  // namespace spillway
