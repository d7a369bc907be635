// readResultFile: a result file (docs/result-format.md) read back from the JSON stream for
// re-verification: the plan, the cost model it states and everything it claims about the plan.
// "decisions" and the informational fields are skipped unread; "metrics.cyclesBound", like
// "waits", is read when present (results written before it existed are still read).
#include <limits>

#include "field_reader.h"
#include "spillway/json_io.h"
#include "spillway/limits.h"

namespace spillway {
namespace {

using json::FieldCheck;
using json::FieldValue;
using json::Kind;
using json::ObjectFields;
using json::Scalar;

constexpr std::int64_t kAnyMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kAnyMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxId = std::numeric_limits<NodeId>::max();

class ResultReader {
public:
    explicit ResultReader(const json::JsonText& text)
        : t_(text),
          cost_(text, json::costFieldNames()),
          metrics_(text, {"spills", "extraBytes", "totalCycles"}),
          demand_(text, {"total"}),
          allocation_(text, {"buf", "type", "offset", "size"}),
          spill_(text, {"buf", "type", "size", "oldOffset", "newOffset", "outNode", "inNode", "outStep", "inStep"}),
          wait_(text, {"cause", "node", "buffer", "cycles", "pipe"}),
          bound_(text, {"total", "exact"}),
          cyclesBound_(text, {"total", "limit", "criticalPath"}),
          pipe_(text, {"busy", "bound"}),
          capacities_(text, "the result's capacities", "capacities"),
          node_(text, "addedNodes", true) {}

    void onScalar(const Scalar& s) { value(s.kind, &s, s.offset); }
    bool onBegin(Kind k, std::size_t offset) { return value(k, nullptr, offset); }
    bool onKey(std::string& key, std::size_t offset);
    void onEnd(Kind k, std::size_t offset);
    ResultFile finish();

private:
    enum class Ctx : std::uint8_t {
        Root,
        Cost,
        InputOrder,
        Metrics,
        DemandPeak,
        DemandByType,
        ResidentPeak,
        Allocations,
        Allocation,
        Spills,
        Spill,
        Order,
        AddedNodes,
        AddedNode,
        AddedNodeBufs,
        AddedEdges,
        AddedEdge,
        Timing,
        TimingEntry,
        Waits,
        Wait,
        Capacities,
        Bound,
        BoundByType,
        CyclesBounds,
        CyclesBound,
        Pipes,
        Pipe
    };
    // The fields of the top-level object that are read, and the kind each must have.
    struct RootField {
        const char* name;
        Kind kind;
        Ctx ctx;        // entered for a container
        bool required;  // "waits" came later: results without it are still read
    };
    static constexpr RootField kRoot[] = {
        {"format", Kind::Integer, Ctx::Root, true},
        {"cost", Kind::Object, Ctx::Cost, true},
        {"inputOrder", Kind::Array, Ctx::InputOrder, true},
        {"metrics", Kind::Object, Ctx::Metrics, true},
        {"allocations", Kind::Array, Ctx::Allocations, true},
        {"spills", Kind::Array, Ctx::Spills, true},
        {"order", Kind::Array, Ctx::Order, true},
        {"addedNodes", Kind::Array, Ctx::AddedNodes, true},
        {"addedEdges", Kind::Array, Ctx::AddedEdges, true},
        {"timing", Kind::Array, Ctx::Timing, true},
        {"planPolicy", Kind::String, Ctx::Root, true},
        {"waits", Kind::Array, Ctx::Waits, false},
        {"capacities", Kind::Object, Ctx::Capacities, true},
    };
    static constexpr int kRootFields = sizeof(kRoot) / sizeof(kRoot[0]);

    bool value(Kind k, const Scalar* s, std::size_t offset);
    bool rootValue(Kind k, const Scalar* s, std::size_t offset);
    bool metricsValue(Kind k, const Scalar* s, std::size_t offset);
    bool cyclesBoundValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset);
    bool peakMapValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset);
    bool objectListEntry(Ctx ctx, Kind k, std::size_t offset);
    bool orderEntry(Ctx ctx, Kind k, const Scalar* s, std::size_t offset);
    bool addedNodeValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset);
    bool tupleValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset);
    // A member of the current object `fields`: a scalar, or a container recorded by kind (and
    // skipped).
    static bool member(json::ObjectFields& fields, Kind k, const Scalar* s, std::size_t offset) {
        if (k == Kind::Array || k == Kind::Object)
            fields.container(k, offset);
        else
            fields.value(*s);
        return false;
    }
    bool enter(Ctx ctx) {
        stack_.push_back(ctx);
        count_.push_back(0);
        return true;
    }
    // Entry `count_.back()` of the current array; `name` + "[i]" in messages.
    std::string entry(const char* name) const { return std::string(name) + "[" + std::to_string(count_.back()) + "]"; }
    std::string parentEntry(const char* name) const {
        return std::string(name) + "[" + std::to_string(count_[count_.size() - 2]) + "]";
    }
    void limitCount(const char* name, std::size_t offset, std::int64_t max, const char* limit);
    // An array entry that must be an integer in [min, max].
    std::int64_t integerEntry(Kind k, const Scalar* s, std::size_t offset, const std::string& field, std::int64_t min,
                              std::int64_t max);
    void finishAllocation();
    void finishSpill();
    void finishWait();
    void finishCyclesBound();
    void finishPipe();
    void finishBound(std::size_t metricsOffset);
    [[noreturn]] void fail(std::size_t offset, const std::string& message, const std::string& field = "") const {
        t_.failField(offset, message, field);
    }

    const json::JsonText& t_;
    ResultFile r_;
    std::vector<Ctx> stack_;
    std::vector<std::int64_t> count_;  // entries so far of each open container
    int rootField_ = -1;
    bool seen_[kRootFields] = {};
    std::size_t rootOffset_ = 0;
    ObjectFields cost_, metrics_, demand_, allocation_, spill_, wait_, bound_, cyclesBound_, pipe_;
    json::CapacityEntries capacities_;
    bool seenDemand_ = false, seenByType_ = false, seenResident_ = false, seenBound_ = false, seenBoundByType_ = false;
    std::string mapKey_;          // the current key of metrics, demandPeak.byType, residentPeak, bound.byType
    std::string setKey_;          // the current key of cyclesBound: "plan", "order" or "graph"
    std::string pipeKey_;         // the current pipe of a cycles bound's pipes
    CyclesBound* set_ = nullptr;  // the cycles bound being read
    bool seenPipes_ = false;      // its "pipes"
    std::size_t cyclesBoundOffset_ = 0;
    json::NodeFields node_;
    std::int64_t uses_ = 0;
    std::int64_t tuple_[3] = {0, 0, 0};
    std::size_t tupleStart_ = 0;
};

bool ResultReader::onKey(std::string& key, std::size_t offset) {
    switch (stack_.back()) {
        case Ctx::Root:
            rootField_ = -1;
            for (int f = 0; f < kRootFields; ++f)
                if (key == kRoot[f].name) rootField_ = f;
            if (rootField_ >= 0 && seen_[rootField_])
                fail(offset, "the result: field \"" + key + "\" appears twice", key);
            if (rootField_ >= 0) seen_[rootField_] = true;
            return rootField_ >= 0;
        case Ctx::Cost: cost_.key(key, offset, "the result's cost"); break;
        case Ctx::Metrics:
            metrics_.key(key, offset, "the result's metrics");
            mapKey_ = key;
            break;
        case Ctx::DemandPeak:
            demand_.key(key, offset, "metrics.demandPeak");
            mapKey_ = key;
            break;
        case Ctx::DemandByType:
        case Ctx::ResidentPeak:
        case Ctx::BoundByType: mapKey_ = std::move(key); break;
        case Ctx::Capacities: capacities_.key(std::move(key), offset, *r_.claims.capacities); break;
        case Ctx::Bound:
            bound_.key(key, offset, "metrics.bound");
            mapKey_ = key;
            break;
        case Ctx::CyclesBounds: setKey_ = std::move(key); break;
        case Ctx::CyclesBound:
            cyclesBound_.key(key, offset, "metrics.cyclesBound." + setKey_);
            mapKey_ = key;
            break;
        case Ctx::Pipes: pipeKey_ = std::move(key); break;
        case Ctx::Pipe: pipe_.key(key, offset, "metrics.cyclesBound." + setKey_ + ".pipes." + pipeKey_); break;
        case Ctx::Allocation: allocation_.key(key, offset, parentEntry("allocations")); break;
        case Ctx::Spill: spill_.key(key, offset, parentEntry("spills")); break;
        case Ctx::Wait: wait_.key(key, offset, parentEntry("waits")); break;
        case Ctx::AddedNode: return node_.key(key, offset);
        default: break;
    }
    return true;
}

void ResultReader::limitCount(const char* name, std::size_t offset, std::int64_t max, const char* limit) {
    if (count_.back() < max) return;
    ErrorPlace where;
    where.field = name;
    where.limit = LimitPlace{limit, max};
    t_.fail(offset,
            std::string("the result's \"") + name + "\" has more than " + std::to_string(max) + " entries (limit " +
                limit + " = " + std::to_string(max) + ")",
            std::move(where));
}

std::int64_t ResultReader::integerEntry(Kind k, const Scalar* s, std::size_t offset, const std::string& field,
                                        std::int64_t min, std::int64_t max) {
    if (k != Kind::Integer) fail(offset, field + " must be an integer, got " + json::kindName(k), field);
    if (s->beyondInt64 || s->integer < min || s->integer > max)
        fail(offset,
             field + " must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                 excerpt(t_.token(offset)),
             field);
    return s->integer;
}

bool ResultReader::value(Kind k, const Scalar* s, std::size_t offset) {
    const bool container = k == Kind::Array || k == Kind::Object;
    if (stack_.empty()) {
        if (k != Kind::Object) fail(offset, std::string("the result must be a JSON object, got ") + json::kindName(k));
        rootOffset_ = offset;
        return enter(Ctx::Root);
    }
    const Ctx ctx = stack_.back();
    if (ctx != Ctx::Root && ctx != Ctx::Metrics && ctx != Ctx::DemandPeak && ctx != Ctx::Cost &&
        ctx != Ctx::Allocation && ctx != Ctx::Spill && ctx != Ctx::AddedNode && ctx != Ctx::Wait && ctx != Ctx::Bound &&
        ctx != Ctx::CyclesBound && ctx != Ctx::Pipe)
        ++count_.back();  // an array entry (or a map value)
    switch (ctx) {
        case Ctx::Root: return rootValue(k, s, offset);
        case Ctx::Cost:
            if (container)
                cost_.container(k, offset);
            else
                cost_.value(*s);
            return false;
        case Ctx::Metrics: return metricsValue(k, s, offset);
        case Ctx::DemandPeak:
            if (mapKey_ == "byType" && k == Kind::Object && !seenByType_) {
                seenByType_ = true;
                return enter(Ctx::DemandByType);
            }
            if (container)
                demand_.container(k, offset);
            else
                demand_.value(*s);
            return false;
        case Ctx::DemandByType:
        case Ctx::ResidentPeak:
        case Ctx::BoundByType: return peakMapValue(ctx, k, s, offset);
        case Ctx::Capacities:
            (*r_.claims.capacities)[capacities_.name()] = capacities_.value(k, s, offset);
            return false;
        case Ctx::Bound:
            if (mapKey_ == "byType" && k == Kind::Object && !seenBoundByType_) {
                seenBoundByType_ = true;
                return enter(Ctx::BoundByType);
            }
            return member(bound_, k, s, offset);
        case Ctx::CyclesBounds:
        case Ctx::CyclesBound:
        case Ctx::Pipes:
        case Ctx::Pipe: return cyclesBoundValue(ctx, k, s, offset);
        case Ctx::Allocations:
        case Ctx::Spills:
        case Ctx::Waits: return objectListEntry(ctx, k, offset);
        case Ctx::Allocation:
        case Ctx::Spill:
        case Ctx::Wait: {
            ObjectFields& f = ctx == Ctx::Allocation ? allocation_ : ctx == Ctx::Spill ? spill_ : wait_;
            if (container)
                f.container(k, offset);
            else
                f.value(*s);
            return false;
        }
        case Ctx::InputOrder:
        case Ctx::Order: return orderEntry(ctx, k, s, offset);
        case Ctx::AddedNodes:
        case Ctx::AddedNode:
        case Ctx::AddedNodeBufs: return addedNodeValue(ctx, k, s, offset);
        case Ctx::AddedEdges:
        case Ctx::Timing:
        case Ctx::AddedEdge:
        case Ctx::TimingEntry: return tupleValue(ctx, k, s, offset);
    }
    return false;
}

// An entry of a memory -> bytes map: demandPeak.byType, residentPeak, bound.byType.
bool ResultReader::peakMapValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset) {
    const char* name = ctx == Ctx::DemandByType   ? "metrics.demandPeak.byType"
                       : ctx == Ctx::ResidentPeak ? "metrics.residentPeak"
                                                  : "metrics.bound.byType";
    auto& map = ctx == Ctx::DemandByType   ? r_.claims.demandPeakByType
                : ctx == Ctx::ResidentPeak ? r_.claims.residentPeak
                                           : r_.claims.bound->byType;
    limitCount(name, offset, limits::kMaxMemories + 1, "memories");
    map[mapKey_] = integerEntry(k, s, offset, std::string(name) + "." + mapKey_, kAnyMin, kAnyMax);
    return false;
}

// An entry of allocations, spills or waits: an object, entered.
bool ResultReader::objectListEntry(Ctx ctx, Kind k, std::size_t offset) {
    --count_.back();  // counted when the object ends
    if (ctx == Ctx::Waits) {
        limitCount("waits", offset, limits::kMaxOrderLength, "orderLength");
        if (k != Kind::Object)
            fail(offset, entry("waits") + " must be an object, got " + json::kindName(k), entry("waits"));
        wait_.begin(offset);
        return enter(Ctx::Wait);
    }
    const bool alloc = ctx == Ctx::Allocations;
    const char* name = alloc ? "allocations" : "spills";
    limitCount(name, offset, alloc ? limits::kMaxNodes : limits::kMaxSpills, alloc ? "nodes" : "spills");
    if (k != Kind::Object) fail(offset, entry(name) + " must be an object, got " + json::kindName(k), entry(name));
    (alloc ? allocation_ : spill_).begin(offset);
    return enter(alloc ? Ctx::Allocation : Ctx::Spill);
}

// An entry of inputOrder or order: a node id.
bool ResultReader::orderEntry(Ctx ctx, Kind k, const Scalar* s, std::size_t offset) {
    const bool input = ctx == Ctx::InputOrder;
    const char* name = input ? "inputOrder" : "order";
    limitCount(name, offset, (input ? limits::kMaxNodes : limits::kMaxOrderLength) + 1,
               input ? "nodes" : "orderLength");
    const std::string field = std::string(name) + "[" + std::to_string(count_.back() - 1) + "]";
    const auto id = static_cast<NodeId>(integerEntry(k, s, offset, field, 0, input ? limits::kMaxNodeId : kMaxId));
    (input ? r_.claims.inputOrder : r_.plan.order).push_back(id);
    return false;
}

// An entry of addedNodes (an object, entered), a member of one, or an entry of its Bufs.
bool ResultReader::addedNodeValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset) {
    if (ctx == Ctx::AddedNodeBufs) {
        node_.bufsEntry(s ? FieldValue::of(*s) : FieldValue::container(k, offset));
        return false;
    }
    if (ctx == Ctx::AddedNode) {
        if (k != Kind::Array && k != Kind::Object) {
            node_.scalar(*s);
            return false;
        }
        if (!node_.container(k, offset)) return false;
        return enter(Ctx::AddedNodeBufs);
    }
    limitCount("addedNodes", offset, 2 * limits::kMaxSpills + 1, "spills");
    const std::size_t index = static_cast<std::size_t>(count_.back() - 1);
    if (k != Kind::Object)
        fail(offset, "addedNodes[" + std::to_string(index) + "] must be an object, got " + json::kindName(k));
    node_.begin(offset, index);
    return enter(Ctx::AddedNode);
}

// An entry of addedEdges ([src, dst]) or timing ([id, start, end]), entered, or a number of one.
bool ResultReader::tupleValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset) {
    if (ctx == Ctx::AddedEdge || ctx == Ctx::TimingEntry) {
        const bool edge = ctx == Ctx::AddedEdge;
        const std::int64_t size = edge ? 2 : 3;
        const std::string field =
            std::string(edge ? "addedEdges[" : "timing[") + std::to_string(count_[count_.size() - 2] - 1) + "]";
        if (count_.back() > size)
            fail(offset, field + (edge ? " must be [src, dst]" : " must be [id, start, end]") + ", got more entries",
                 field);
        tuple_[count_.back() - 1] = integerEntry(k, s, offset, field, kAnyMin, kAnyMax);
        return false;
    }
    const bool edges = ctx == Ctx::AddedEdges;
    const char* name = edges ? "addedEdges" : "timing";
    limitCount(name, offset, (edges ? limits::kMaxAddedEdges : limits::kMaxOrderLength) + 1,
               edges ? "addedEdges" : "orderLength");
    const std::string field = std::string(name) + "[" + std::to_string(count_.back() - 1) + "]";
    if (k != Kind::Array)
        fail(offset,
             field + (edges ? " must be [src, dst], got " : " must be [id, start, end], got ") + json::kindName(k),
             field);
    tupleStart_ = offset;
    return enter(edges ? Ctx::AddedEdge : Ctx::TimingEntry);
}

bool ResultReader::rootValue(Kind k, const Scalar* s, std::size_t offset) {
    if (rootField_ < 0) return false;  // informational or unknown: skipped
    const RootField& f = kRoot[rootField_];
    if (k != f.kind)
        fail(offset,
             std::string("the result: field \"") + f.name + "\" must be " + json::kindName(f.kind) + ", got " +
                 json::kindName(k),
             f.name);
    if (k == Kind::Integer) {  // "format"
        if (s->beyondInt64 || s->integer != kResultFormat)
            fail(offset,
                 "the result has format " + excerpt(t_.token(offset)) + "; this engine reads format " +
                     std::to_string(kResultFormat) +
                     (s->integer == 1 ? " (format 1 added the contest's literal edges; plan again)" : ""),
                 "format");
        return false;
    }
    if (k == Kind::String) {  // "planPolicy"
        r_.plan.policy = std::move(*s->string);
        return false;
    }
    if (f.ctx == Ctx::Cost) cost_.begin(offset);
    if (f.ctx == Ctx::Metrics) metrics_.begin(offset);
    if (f.ctx == Ctx::Waits) r_.claims.waits.emplace();
    if (f.ctx == Ctx::Capacities) r_.claims.capacities.emplace();
    return enter(f.ctx);
}

bool ResultReader::metricsValue(Kind k, const Scalar* s, std::size_t offset) {
    if (mapKey_ == "bound" || mapKey_ == "cyclesBound") {
        const bool bytes = mapKey_ == "bound";
        if (bytes ? seenBound_ : r_.claims.cyclesBound.has_value())
            fail(offset, "the result's metrics: field \"" + mapKey_ + "\" appears twice", "metrics." + mapKey_);
        if (k != Kind::Object)
            fail(offset, "the result's metrics: field \"" + mapKey_ + "\" must be an object, got " + json::kindName(k),
                 "metrics." + mapKey_);
        if (!bytes) {
            r_.claims.cyclesBound.emplace();
            cyclesBoundOffset_ = offset;
            return enter(Ctx::CyclesBounds);
        }
        seenBound_ = true;
        r_.claims.bound.emplace();
        bound_.begin(offset);
        return enter(Ctx::Bound);
    }
    if (mapKey_ == "demandPeak" || mapKey_ == "residentPeak") {
        const bool demand = mapKey_ == "demandPeak";
        bool& seen = demand ? seenDemand_ : seenResident_;
        if (seen) fail(offset, "the result's metrics: field \"" + mapKey_ + "\" appears twice", "metrics." + mapKey_);
        if (k != Kind::Object)
            fail(offset, "the result's metrics: field \"" + mapKey_ + "\" must be an object, got " + json::kindName(k),
                 "metrics." + mapKey_);
        seen = true;
        if (demand) demand_.begin(offset);
        return enter(demand ? Ctx::DemandPeak : Ctx::ResidentPeak);
    }
    if (k == Kind::Array || k == Kind::Object)
        metrics_.container(k, offset);
    else
        metrics_.value(*s);
    return false;
}

// metrics.cyclesBound: {"plan", "order", "graph"}, each {"total", "limit", "criticalPath",
// "pipes": {NAME: {"busy", "bound"}}}.
bool ResultReader::cyclesBoundValue(Ctx ctx, Kind k, const Scalar* s, std::size_t offset) {
    const std::string place = "metrics.cyclesBound." + setKey_;
    switch (ctx) {
        case Ctx::CyclesBounds: {
            CyclesBounds& c = *r_.claims.cyclesBound;
            set_ = setKey_ == "plan"    ? &c.plan
                   : setKey_ == "order" ? &c.order
                   : setKey_ == "graph" ? &c.graph
                                        : nullptr;
            if (!set_) return false;  // not a bound: skipped
            if (k != Kind::Object) fail(offset, place + " must be an object, got " + json::kindName(k), place);
            if (!set_->limit.empty()) fail(offset, place + " appears twice", place);
            seenPipes_ = false;
            cyclesBound_.begin(offset);
            return enter(Ctx::CyclesBound);
        }
        case Ctx::CyclesBound:
            if (mapKey_ != "pipes") return member(cyclesBound_, k, s, offset);
            if (seenPipes_) fail(offset, place + ": field \"pipes\" appears twice", place + ".pipes");
            if (k != Kind::Object)
                fail(offset, place + ": field \"pipes\" must be an object, got " + json::kindName(k), place + ".pipes");
            seenPipes_ = true;
            return enter(Ctx::Pipes);
        case Ctx::Pipes: {
            const std::string field = place + ".pipes." + pipeKey_;
            limitCount((place + ".pipes").c_str(), offset, limits::kMaxNodes + 1, "nodes");
            if (k != Kind::Object) fail(offset, field + " must be an object, got " + json::kindName(k), field);
            pipe_.begin(offset);  // a pipe named twice is the verifier's to report
            return enter(Ctx::Pipe);
        }
        default: return member(pipe_, k, s, offset);
    }
}

void ResultReader::finishCyclesBound() {
    const std::string place = "metrics.cyclesBound." + setKey_;
    ErrorPlace base;
    base.field = place;
    FieldCheck f(t_, place, base, cyclesBound_.offset());
    set_->total = f.integer(cyclesBound_["total"], "total", kAnyMin, kAnyMax);
    set_->limit = f.string(cyclesBound_["limit"], "limit");
    if (set_->limit.empty()) f.fail("limit", cyclesBound_["limit"].offset, "must name a pipe or the critical path");
    set_->criticalPath = f.integer(cyclesBound_["criticalPath"], "criticalPath", kAnyMin, kAnyMax);
    if (!seenPipes_) f.fail("pipes", cyclesBound_.offset(), "is missing");
}

void ResultReader::finishPipe() {
    const std::string place = "metrics.cyclesBound." + setKey_ + ".pipes." + pipeKey_;
    ErrorPlace base;
    base.field = place;
    FieldCheck f(t_, place, base, pipe_.offset());
    CyclesBound::Pipe p;
    p.name = pipeKey_;
    p.busy = f.integer(pipe_["busy"], "busy", kAnyMin, kAnyMax);
    p.bound = f.integer(pipe_["bound"], "bound", kAnyMin, kAnyMax);
    set_->pipes.push_back(std::move(p));
}

void ResultReader::finishBound(std::size_t metricsOffset) {
    ErrorPlace base;
    base.field = "metrics";
    FieldCheck metrics(t_, "the result's metrics", base, metricsOffset);
    if (!seenBound_) metrics.fail("bound", metricsOffset, "is missing");
    base.field = "metrics.bound";
    FieldCheck f(t_, "metrics.bound", base, bound_.offset());
    if (!seenBoundByType_) f.fail("byType", bound_.offset(), "is missing");
    r_.claims.bound->total = f.integer(bound_["total"], "total", kAnyMin, kAnyMax);
    if (bound_["exact"].present) r_.claims.bound->exact = f.boolean(bound_["exact"], "exact");
}

void ResultReader::finishAllocation() {
    const std::string place = entry("allocations");
    ErrorPlace base;
    base.field = place;
    FieldCheck f(t_, place, base, allocation_.offset());
    Allocation a;
    a.buf = static_cast<BufferId>(f.integer(allocation_["buf"], "buf", 0, limits::kMaxBufferId, "bufferId"));
    a.type = f.name(allocation_["type"], "type");
    a.offset = f.integer(allocation_["offset"], "offset", -limits::kMaxBytes, limits::kMaxBytes, "bytes");
    a.size = f.integer(allocation_["size"], "size", 0, limits::kMaxBytes, "bytes");
    r_.plan.allocations.push_back(std::move(a));
}

void ResultReader::finishSpill() {
    const std::string place = entry("spills");
    ErrorPlace base;
    base.field = place;
    FieldCheck f(t_, place, base, spill_.offset());
    Spill s;
    s.buf = static_cast<BufferId>(f.integer(spill_["buf"], "buf", 0, limits::kMaxBufferId, "bufferId"));
    s.type = f.name(spill_["type"], "type");
    s.size = f.integer(spill_["size"], "size", 0, limits::kMaxBytes, "bytes");
    s.oldOffset = f.integer(spill_["oldOffset"], "oldOffset", -limits::kMaxBytes, limits::kMaxBytes, "bytes");
    s.newOffset = f.integer(spill_["newOffset"], "newOffset", -limits::kMaxBytes, limits::kMaxBytes, "bytes");
    s.outNode = static_cast<NodeId>(f.integer(spill_["outNode"], "outNode", 0, kMaxId));
    s.inNode = static_cast<NodeId>(f.integer(spill_["inNode"], "inNode", 0, kMaxId));
    s.outStep = static_cast<int>(f.integer(spill_["outStep"], "outStep", -1, kMaxId));
    s.inStep = static_cast<int>(f.integer(spill_["inStep"], "inStep", -1, kMaxId));
    r_.plan.spills.push_back(std::move(s));
}

void ResultReader::finishWait() {
    const std::string place = entry("waits");
    ErrorPlace base;
    base.field = place;
    FieldCheck f(t_, place, base, wait_.offset());
    ResultClaims::NodeWait w;
    FieldValue& cause = wait_["cause"];
    w.cause = f.string(cause, "cause");
    if (w.cause != "none" && w.cause != "edge" && w.cause != "pipe" && w.cause != "address")
        f.fail("cause", cause.offset,
               "must be \"none\", \"edge\", \"pipe\" or \"address\", got \"" + excerpt(w.cause) + "\"");
    if (wait_["node"].present) w.node = f.integer(wait_["node"], "node", kAnyMin, kAnyMax);
    if (wait_["buffer"].present) w.buffer = f.integer(wait_["buffer"], "buffer", kAnyMin, kAnyMax);
    if (wait_["cycles"].present) w.cycles = f.integer(wait_["cycles"], "cycles", kAnyMin, kAnyMax);
    if (wait_["pipe"].present) w.pipe = f.string(wait_["pipe"], "pipe");
    r_.claims.waits->push_back(std::move(w));
}

void ResultReader::onEnd(Kind, std::size_t) {
    const Ctx ended = stack_.back();
    const std::int64_t entries = count_.back();
    stack_.pop_back();
    count_.pop_back();
    switch (ended) {
        case Ctx::Allocation:
            finishAllocation();
            ++count_.back();
            break;
        case Ctx::Spill:
            finishSpill();
            ++count_.back();
            break;
        case Ctx::Wait:
            finishWait();
            ++count_.back();
            break;
        case Ctx::AddedNode: r_.plan.addedNodes.push_back(node_.finish(uses_)); break;
        case Ctx::CyclesBound: finishCyclesBound(); break;
        case Ctx::Pipe: finishPipe(); break;
        case Ctx::CyclesBounds:
            for (const char* set : {"plan", "order", "graph"}) {
                const CyclesBounds& c = *r_.claims.cyclesBound;
                const CyclesBound& b = std::string(set) == "plan"    ? c.plan
                                       : std::string(set) == "order" ? c.order
                                                                     : c.graph;
                if (b.limit.empty())
                    fail(cyclesBoundOffset_, std::string("metrics.cyclesBound: field \"") + set + "\" is missing",
                         std::string("metrics.cyclesBound.") + set);
            }
            break;
        case Ctx::AddedEdge:
        case Ctx::TimingEntry: {
            const bool edge = ended == Ctx::AddedEdge;
            const std::size_t index = static_cast<std::size_t>(count_.back() - 1);
            const std::string field = std::string(edge ? "addedEdges[" : "timing[") + std::to_string(index) + "]";
            if (entries != (edge ? 2 : 3))
                fail(tupleStart_,
                     field + (edge ? " must be [src, dst]" : " must be [id, start, end]") + ", got " +
                         std::to_string(entries) + " entries",
                     field);
            if (!edge) {
                r_.claims.timing.push_back({tuple_[0], tuple_[1], tuple_[2]});
            } else if (tuple_[0] < std::numeric_limits<NodeId>::min() || tuple_[0] > kMaxId ||
                       tuple_[1] < std::numeric_limits<NodeId>::min() || tuple_[1] > kMaxId) {
                r_.claims.foreignEdges.push_back({index, tuple_[0], tuple_[1]});
            } else {
                r_.plan.addedEdges.emplace_back(static_cast<NodeId>(tuple_[0]), static_cast<NodeId>(tuple_[1]));
            }
            break;
        }
        default: break;
    }
}

ResultFile ResultReader::finish() {
    for (int f = 0; f < kRootFields; ++f)
        if (!seen_[f] && kRoot[f].ctx != Ctx::Root && kRoot[f].required)
            fail(rootOffset_, std::string("the result: field \"") + kRoot[f].name + "\" is missing", kRoot[f].name);
    if (!seen_[0]) fail(rootOffset_, "the result: field \"format\" is missing", "format");
    ErrorPlace base;
    base.field = "cost";
    FieldCheck cost(t_, "the result's cost", base, cost_.offset());
    r_.cost = json::costModelFrom(cost_, cost);
    base.field = "metrics";
    FieldCheck metrics(t_, "the result's metrics", base, metrics_.offset());
    r_.claims.spills = metrics.integer(metrics_["spills"], "spills", kAnyMin, kAnyMax);
    r_.claims.extraBytes = metrics.integer(metrics_["extraBytes"], "extraBytes", kAnyMin, kAnyMax);
    r_.claims.totalCycles = metrics.integer(metrics_["totalCycles"], "totalCycles", kAnyMin, kAnyMax);
    if (!seenDemand_) metrics.fail("demandPeak", metrics_.offset(), "is missing");
    if (!seenResident_) metrics.fail("residentPeak", metrics_.offset(), "is missing");
    base.field = "metrics.demandPeak";
    FieldCheck demand(t_, "metrics.demandPeak", base, demand_.offset());
    if (!seenByType_) demand.fail("byType", demand_.offset(), "is missing");
    r_.claims.demandPeakTotal = demand.integer(demand_["total"], "total", kAnyMin, kAnyMax);
    finishBound(metrics_.offset());
    return std::move(r_);
}

}  // namespace

ResultFile readResultFile(const std::string& text) {
    const json::JsonText t(text, "result", "the result");
    ResultReader reader(t);
    json::readJson(t, reader);
    return reader.finish();
}

}  // namespace spillway
