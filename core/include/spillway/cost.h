// Spill cost models: how many cycles a SPILL_OUT / SPILL_IN takes and how many bytes a spill
// moves between on-chip memory and main memory.
#pragma once
#include <string>

#include "graph.h"

namespace spillway {

struct CostModel {
    enum class Kind { Seed, Contest };
    Kind kind = Kind::Contest;
    Cycles fixedLatency = 0;   // seed model only
    Cycles cyclesPerByte = 1;  // seed model only

    static CostModel parse(const std::string& name);  // "seed" | "contest"; InputError otherwise
    std::string name() const;

    Cycles spillOutCycles(const Buffer& b) const;
    Cycles spillInCycles(const Buffer& b) const;

    // Throws InputError naming the limit when a parameter is out of range (fixedLatency
    // 0..limits::kMaxFixedLatency, cyclesPerByte 0..limits::kMaxCyclesPerByte) or a spill of some
    // buffer of `g` would take more than limits::kMaxSpillCycles cycles (so that no sum of cycles
    // can overflow; limits.h). `source` is where the parameters came from ("options").
    void validate(const Graph& g, const std::string& source = "options") const;
};

// Bytes one spill of `b` moves (the seed's spill_extra_bytes term): a buffer a COPY_IN uses
// already lives in main memory, so only the reload moves data; any other is written and read.
Bytes spillTrafficBytes(const Buffer& b);

}  // namespace spillway
