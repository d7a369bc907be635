#include "spillway/cost.h"

#include "spillway/error.h"

namespace spillway {

CostModel CostModel::parse(const std::string& name) {
    CostModel c;
    if (name == "contest") c.kind = Kind::Contest;
    else if (name == "seed") c.kind = Kind::Seed;
    else throw InputError("unknown cost model \"" + name + "\": expected seed or contest");
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

Bytes spillTrafficBytes(const Buffer& b) { return b.hasCopyIn ? b.size : 2 * b.size; }

}  // namespace spillway
