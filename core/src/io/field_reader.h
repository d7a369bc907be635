// Internal to the document readers (graph, result file, options): fields as the JSON stream
// delivers them, checked against their type and range with messages that name the place, and
// the node format that graph files and result files share.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "json_reader.h"
#include "spillway/cost.h"
#include "spillway/graph.h"

namespace spillway::json {

// A field's value as found: a scalar, or only the kind of a container the reader skipped.
struct FieldValue {
    bool present = false;
    Kind kind = Kind::Null;
    bool boolean = false;
    std::int64_t integer = 0;
    bool beyondInt64 = false;
    std::string string;
    std::size_t offset = 0;

    static FieldValue of(const Scalar& s);  // moves the string out
    static FieldValue container(Kind k, std::size_t offset);
};

// Checks the fields of one object (or the entries of one array): every failure is an InputError
// "<place>: field \"<key>\" <problem>" at the value (or at the object when the field is missing).
class FieldCheck {
public:
    FieldCheck(const JsonText& text, std::string place, ErrorPlace base, std::size_t objectOffset)
        : text_(text), place_(std::move(place)), base_(std::move(base)), objectOffset_(objectOffset) {}

    const std::string& place() const { return place_; }
    void rename(std::string place) { place_ = std::move(place); }
    ErrorPlace& base() { return base_; }

    // An integer in [min, max]; `limit` names the stated limit `max` is, if it is one.
    std::int64_t integer(const FieldValue& v, const std::string& key, std::int64_t min, std::int64_t max,
                         const char* limit = nullptr) const;
    // A non-empty string of at most limits::kMaxNameBytes bytes.
    std::string name(FieldValue& v, const std::string& key) const;
    // Any string.
    std::string string(FieldValue& v, const std::string& key) const;
    bool boolean(const FieldValue& v, const std::string& key) const;
    void requireKind(const FieldValue& v, const std::string& key, Kind kind, const char* expected) const;
    [[noreturn]] void fail(const std::string& key, std::size_t offset, const std::string& problem,
                           std::optional<LimitPlace> limit = std::nullopt) const;

private:
    void requirePresent(const FieldValue& v, const std::string& key) const;

    const JsonText& text_;
    std::string place_;
    ErrorPlace base_;
    std::size_t objectOffset_;
};

// The scalar fields of one object, by name, collected in any order (containers are recorded by
// kind and skipped). Unknown keys are ignored; a known key given twice is an error.
class ObjectFields {
public:
    ObjectFields(const JsonText& text, std::vector<const char*> names)
        : text_(text), names_(std::move(names)), values_(names_.size()) {}

    void begin(std::size_t offset);
    std::size_t offset() const { return start_; }
    void key(const std::string& key, std::size_t offset, const std::string& place);
    void value(const Scalar& s);
    void container(Kind k, std::size_t offset);
    FieldValue& operator[](const char* name);

private:
    const JsonText& text_;
    std::vector<const char*> names_;
    std::vector<FieldValue> values_;
    std::size_t start_ = 0;
    int current_ = -1;
};

// The entries of a capacities object ({"L1": 4096, ...}) in a graph ("Capacities") or the options
// ("capacities"): names non-empty and given once, at most limits::kMaxMemories of them, values in
// 1..limits::kMaxBytes. `place` names the object in messages, `field` in ErrorPlace::field.
class CapacityEntries {
public:
    CapacityEntries(const JsonText& text, std::string place, std::string field)
        : text_(text), place_(std::move(place)), field_(std::move(field)) {}
    // A key: checked against the entries so far, then the current entry.
    void key(std::string key, std::size_t offset, const Capacities& caps);
    const std::string& name() const { return key_; }
    // The current entry's value.
    Bytes value(Kind k, const Scalar* s, std::size_t offset) const;

private:
    [[noreturn]] void fail(std::size_t offset, const std::string& problem,
                           std::optional<LimitPlace> limit = std::nullopt) const;

    const JsonText& text_;
    std::string place_, field_, key_;
};

// A cost model object {"model", "fixedLatency", "cyclesPerByte"} (options and result files).
std::vector<const char*> costFieldNames();
CostModel costModelFrom(ObjectFields& fields, const FieldCheck& check);

// The fields of one node object ({"Id", "Op", "Pipe", "Cycles", "Bufs"} or {"Id", "Op", "BufId",
// "Size", "Type"}), collected in any order and checked at its end in a fixed order, so that the
// first problem reported is the same whatever the key order.
class NodeFields {
public:
    // `array` names the array holding the nodes in messages ("Nodes", "addedNodes").
    // `spillNodes`: the nodes are a plan's spill nodes, whose Id goes up to kMaxSpillNodeId and
    // Cycles up to kMaxSpillCycles (a graph's nodes: kMaxNodeId and kMaxCycles).
    NodeFields(const JsonText& text, const char* array, bool spillNodes)
        : text_(text), array_(array), spillNodes_(spillNodes) {}

    void begin(std::size_t offset, std::size_t index);
    // False for a key that is no node field (its value is not read).
    bool key(const std::string& key, std::size_t offset);
    void scalar(const Scalar& s);
    // A container as the current key's value: true when it is the Bufs array (read its entries
    // with bufsEntry), false when it is to be skipped (it is recorded as the field's value).
    bool container(Kind k, std::size_t offset);
    void bufsEntry(const FieldValue& v);
    // Checks the fields and builds the node. `totalUses` counts Bufs entries across nodes
    // (limits::kMaxUses).
    Node finish(std::int64_t& totalUses);

private:
    enum Field { kId, kOp, kPipe, kCycles, kBufs, kBufId, kSize, kType, kFieldCount };

    const JsonText& text_;
    const char* array_;
    bool spillNodes_;
    std::size_t start_ = 0;
    std::size_t index_ = 0;
    std::string place() const { return std::string(array_) + "[" + std::to_string(index_) + "]"; }
    [[noreturn]] void fail(std::size_t offset, const std::string& field, const std::string& problem,
                           std::optional<LimitPlace> limit = std::nullopt) const;
    int current_ = -1;  // the field whose value comes next, -1 for an unknown key
    FieldValue fields_[kFieldCount];
    std::vector<std::int64_t> bufs_;
    std::optional<std::pair<std::size_t, FieldValue>> badBuf_;  // first Bufs entry that is no integer
};

}  // namespace spillway::json
