#include "field_reader.h"

#include <cstring>

#include "spillway/limits.h"

namespace spillway::json {

FieldValue FieldValue::of(const Scalar& s) {
    FieldValue v;
    v.present = true;
    v.kind = s.kind;
    v.boolean = s.boolean;
    v.integer = s.integer;
    v.beyondInt64 = s.beyondInt64;
    if (s.string) v.string = std::move(*s.string);
    v.offset = s.offset;
    return v;
}

FieldValue FieldValue::container(Kind k, std::size_t offset) {
    FieldValue v;
    v.present = true;
    v.kind = k;
    v.offset = offset;
    return v;
}

void FieldCheck::fail(const std::string& key, std::size_t offset, const std::string& problem,
                      std::optional<LimitPlace> limit) const {
    ErrorPlace where = base_;
    where.field = base_.field.empty() ? key : base_.field + "." + key;
    where.limit = std::move(limit);
    text_.fail(offset, place_ + ": field \"" + key + "\" " + problem, std::move(where));
}

void FieldCheck::requirePresent(const FieldValue& v, const std::string& key) const {
    if (!v.present) fail(key, objectOffset_, "is missing");
}

void FieldCheck::requireKind(const FieldValue& v, const std::string& key, Kind kind, const char* expected) const {
    requirePresent(v, key);
    if (v.kind != kind) fail(key, v.offset, std::string("must be ") + expected + ", got " + kindName(v.kind));
}

std::int64_t FieldCheck::integer(const FieldValue& v, const std::string& key, std::int64_t min, std::int64_t max,
                                 const char* limit) const {
    requireKind(v, key, Kind::Integer, "an integer");
    if (v.beyondInt64 || v.integer < min || v.integer > max) {
        std::optional<LimitPlace> stated;
        if (limit && (v.beyondInt64 || v.integer > max)) stated = LimitPlace{limit, max};
        fail(key, v.offset,
             "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                 excerpt(text_.token(v.offset)),
             std::move(stated));
    }
    return v.integer;
}

std::string FieldCheck::string(FieldValue& v, const std::string& key) const {
    requireKind(v, key, Kind::String, "a string");
    return std::move(v.string);
}

bool FieldCheck::boolean(const FieldValue& v, const std::string& key) const {
    requireKind(v, key, Kind::Bool, "true or false");
    return v.boolean;
}

std::string FieldCheck::name(FieldValue& v, const std::string& key) const {
    requirePresent(v, key);
    if (v.kind != Kind::String || v.string.empty())
        fail(key, v.offset,
             std::string("must be a non-empty string, got ") +
                 (v.kind == Kind::String ? "an empty string" : kindName(v.kind)));
    if (static_cast<std::int64_t>(v.string.size()) > limits::kMaxNameBytes)
        fail(key, v.offset,
             "is " + std::to_string(v.string.size()) +
                 " bytes long (limit nameBytes = " + std::to_string(limits::kMaxNameBytes) + ")",
             LimitPlace{"nameBytes", limits::kMaxNameBytes});
    return std::move(v.string);
}

// ---- ObjectFields ----------------------------------------------------------------------------

void ObjectFields::begin(std::size_t offset) {
    start_ = offset;
    current_ = -1;
    for (FieldValue& v : values_) v = FieldValue{};
}

void ObjectFields::key(const std::string& key, std::size_t offset, const std::string& place) {
    current_ = -1;
    for (std::size_t i = 0; i < names_.size(); ++i)
        if (key == names_[i]) current_ = static_cast<int>(i);
    if (current_ >= 0 && values_[current_].present) {
        ErrorPlace where;
        where.field = key;
        text_.fail(offset, place + ": field \"" + key + "\" appears twice", std::move(where));
    }
}

void ObjectFields::value(const Scalar& s) {
    if (current_ >= 0) values_[current_] = FieldValue::of(s);
}

void ObjectFields::container(Kind k, std::size_t offset) {
    if (current_ >= 0) values_[current_] = FieldValue::container(k, offset);
}

FieldValue& ObjectFields::operator[](const char* name) {
    for (std::size_t i = 0; i < names_.size(); ++i)
        if (std::strcmp(name, names_[i]) == 0) return values_[i];
    throw InternalError(std::string("reader: no field ") + name);
}

// ---- CapacityEntries -------------------------------------------------------------------------

void CapacityEntries::fail(std::size_t offset, const std::string& problem, std::optional<LimitPlace> limit) const {
    ErrorPlace where;
    where.field = field_ + "." + key_;
    where.memory = key_;
    where.limit = std::move(limit);
    text_.fail(offset, place_ + ": " + problem, std::move(where));
}

void CapacityEntries::key(std::string key, std::size_t offset, const Capacities& caps) {
    key_ = std::move(key);
    if (key_.empty()) fail(offset, "a memory name is empty");
    if (caps.count(key_)) fail(offset, "memory \"" + excerpt(key_) + "\" appears twice");
    if (static_cast<std::int64_t>(caps.size()) >= limits::kMaxMemories)
        fail(offset,
             "names more than " + std::to_string(limits::kMaxMemories) +
                 " memories (limit memories = " + std::to_string(limits::kMaxMemories) + ")",
             LimitPlace{"memories", limits::kMaxMemories});
}

Bytes CapacityEntries::value(Kind k, const Scalar* s, std::size_t offset) const {
    ErrorPlace where;
    where.memory = key_;
    where.field = field_;
    FieldCheck f(text_, place_, where, offset);
    return f.integer(s ? FieldValue::of(*s) : FieldValue::container(k, offset), key_, 1, limits::kMaxBytes, "bytes");
}

std::vector<const char*> costFieldNames() { return {"model", "fixedLatency", "cyclesPerByte"}; }

CostModel costModelFrom(ObjectFields& fields, const FieldCheck& check) {
    FieldValue& model = fields["model"];
    check.requireKind(model, "model", Kind::String, "a string");
    if (model.string != "seed" && model.string != "contest")
        check.fail("model", model.offset, "must be \"seed\" or \"contest\", got \"" + excerpt(model.string) + "\"");
    CostModel cost = CostModel::parse(model.string);
    if (fields["fixedLatency"].present)
        cost.fixedLatency =
            check.integer(fields["fixedLatency"], "fixedLatency", 0, limits::kMaxFixedLatency, "fixedLatency");
    if (fields["cyclesPerByte"].present)
        cost.cyclesPerByte =
            check.integer(fields["cyclesPerByte"], "cyclesPerByte", 0, limits::kMaxCyclesPerByte, "cyclesPerByte");
    return cost;
}

// ---- NodeFields ------------------------------------------------------------------------------

namespace {
constexpr std::string_view kNodeFieldNames[] = {"Id", "Op", "Pipe", "Cycles", "Bufs", "BufId", "Size", "Type"};
}

void NodeFields::begin(std::size_t offset, std::size_t index) {
    start_ = offset;
    index_ = index;
    current_ = -1;
    for (FieldValue& f : fields_) f = FieldValue{};
    bufs_.clear();
    badBuf_.reset();
}

bool NodeFields::key(const std::string& key, std::size_t offset) {
    current_ = -1;
    for (int f = 0; f < kFieldCount; ++f)
        if (key == kNodeFieldNames[f]) current_ = f;
    if (current_ >= 0 && fields_[current_].present) fail(offset, key, "field \"" + key + "\" appears twice");
    return current_ >= 0;
}

void NodeFields::fail(std::size_t offset, const std::string& field, const std::string& problem,
                      std::optional<LimitPlace> limit) const {
    ErrorPlace where;
    where.nodeIndex = static_cast<std::int64_t>(index_);
    where.field = field;
    where.limit = std::move(limit);
    text_.fail(offset, place() + ": " + problem, std::move(where));
}

void NodeFields::scalar(const Scalar& s) {
    if (current_ >= 0) fields_[current_] = FieldValue::of(s);
}

bool NodeFields::container(Kind k, std::size_t offset) {
    if (current_ < 0) return false;
    fields_[current_] = FieldValue::container(k, offset);
    return current_ == kBufs && k == Kind::Array;
}

void NodeFields::bufsEntry(const FieldValue& v) {
    if (static_cast<std::int64_t>(bufs_.size()) >= limits::kMaxBufsPerNode)
        fail(v.offset, "Bufs",
             "field \"Bufs\" has more than " + std::to_string(limits::kMaxBufsPerNode) +
                 " entries (limit bufsPerNode = " + std::to_string(limits::kMaxBufsPerNode) + ")",
             LimitPlace{"bufsPerNode", limits::kMaxBufsPerNode});
    const std::size_t index = bufs_.size() + (badBuf_ ? 1 : 0);
    const bool ok = v.kind == Kind::Integer && !v.beyondInt64 && v.integer >= 0 && v.integer <= limits::kMaxBufferId;
    if (ok)
        bufs_.push_back(v.integer);
    else if (!badBuf_)
        badBuf_.emplace(index, v);
}

Node NodeFields::finish(std::int64_t& totalUses) {
    ErrorPlace base;
    base.nodeIndex = static_cast<std::int64_t>(index_);
    FieldCheck f(text_, place(), base, start_);
    Node n;
    n.id =
        static_cast<NodeId>(f.integer(fields_[kId], "Id", 0, spillNodes_ ? limits::kMaxSpillNodeId : limits::kMaxNodeId,
                                      spillNodes_ ? "spillNodeId" : "nodeId"));
    f.rename("node " + std::to_string(n.id));
    f.base().node = n.id;
    n.op = f.name(fields_[kOp], "Op");
    if (n.isBufferNode()) {
        n.buf = static_cast<BufferId>(f.integer(fields_[kBufId], "BufId", 0, limits::kMaxBufferId, "bufferId"));
        n.size = f.integer(fields_[kSize], "Size", 1, limits::kMaxBytes, "bytes");
        n.type = f.name(fields_[kType], "Type");
        return n;
    }
    n.pipe = f.name(fields_[kPipe], "Pipe");
    n.cycles = f.integer(fields_[kCycles], "Cycles", 0, spillNodes_ ? limits::kMaxSpillCycles : limits::kMaxCycles,
                         spillNodes_ ? "spillCycles" : "cycles");
    f.requireKind(fields_[kBufs], "Bufs", Kind::Array, "an array");
    if (badBuf_)
        f.integer(badBuf_->second, "Bufs[" + std::to_string(badBuf_->first) + "]", 0, limits::kMaxBufferId, "bufferId");
    totalUses += static_cast<std::int64_t>(bufs_.size());
    if (totalUses > limits::kMaxUses)
        f.fail("Bufs", start_,
               "brings the Bufs entries of all nodes above " + std::to_string(limits::kMaxUses) +
                   " (limit uses = " + std::to_string(limits::kMaxUses) + ")",
               LimitPlace{"uses", limits::kMaxUses});
    n.bufs.assign(bufs_.begin(), bufs_.end());
    return n;
}

}  // namespace spillway::json
