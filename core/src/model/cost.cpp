#include "spillway/cost.h"

#include <algorithm>

#include "spillway/error.h"
#include "spillway/limits.h"

namespace spillway {

CostModel CostModel::parse(const std::string& name) {
    CostModel c;
    if (name == "contest")
        c.kind = Kind::Contest;
    else if (name == "seed")
        c.kind = Kind::Seed;
    else {
        ErrorPlace where;
        where.field = "cost.model";
        throw InputError("unknown cost model \"" + excerpt(name) + "\": expected seed or contest", std::move(where));
    }
    return c;
}

std::string CostModel::name() const { return kind == Kind::Seed ? "seed" : "contest"; }

namespace {
// The contest's transfer time for one direction: 2 cycles a byte plus a fixed 150.
Cycles contestTransfer(Bytes size) { return 2 * size + 150; }
}  // namespace

Cycles CostModel::spillOutCycles(const Buffer& b) const {
    if (kind == Kind::Seed) return fixedLatency + cyclesPerByte * b.size;
    return b.hasCopyIn ? 0 : contestTransfer(b.size);  // main memory already holds a COPY_IN's data
}

Cycles CostModel::spillInCycles(const Buffer& b) const {
    if (kind == Kind::Seed) return fixedLatency + cyclesPerByte * b.size;
    return contestTransfer(b.size);
}

void CostModel::validate(const Graph& g, const std::string& source) const {
    auto place = [&](const char* field) {
        ErrorPlace where;
        where.source = source;
        where.field = std::string("cost.") + field;
        return where;
    };
    if (fixedLatency < 0 || fixedLatency > limits::kMaxFixedLatency) {
        ErrorPlace where = place("fixedLatency");
        where.limit = LimitPlace{"fixedLatency", limits::kMaxFixedLatency};
        throw InputError("fixed latency must be between 0 and " + std::to_string(limits::kMaxFixedLatency) + ", got " +
                             std::to_string(fixedLatency),
                         std::move(where));
    }
    if (cyclesPerByte < 0 || cyclesPerByte > limits::kMaxCyclesPerByte) {
        ErrorPlace where = place("cyclesPerByte");
        where.limit = LimitPlace{"cyclesPerByte", limits::kMaxCyclesPerByte};
        throw InputError("cycles per byte must be between 0 and " + std::to_string(limits::kMaxCyclesPerByte) +
                             ", got " + std::to_string(cyclesPerByte),
                         std::move(where));
    }
    // Both are below 2^21 * 2^36 + 2^32 here: no overflow.
    for (const Buffer& b : g.buffers) {
        const Cycles most = std::max(spillOutCycles(b), spillInCycles(b));
        if (most > limits::kMaxSpillCycles) {
            ErrorPlace where = place(kind == Kind::Seed ? "cyclesPerByte" : "model");
            where.buffer = b.id;
            where.limit = LimitPlace{"spillCycles", limits::kMaxSpillCycles};
            throw InputError("a spill of buffer " + std::to_string(b.id) + " (" + std::to_string(b.size) +
                                 " bytes) would take " + std::to_string(most) + " cycles under the " + name() +
                                 " cost model, above the limit spillCycles = " +
                                 std::to_string(limits::kMaxSpillCycles) + ": lower the cost parameters",
                             std::move(where));
        }
    }
}

Bytes spillTrafficBytes(const Buffer& b) { return b.hasCopyIn ? b.size : 2 * b.size; }

}  // namespace spillway
