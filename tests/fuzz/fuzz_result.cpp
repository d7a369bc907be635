// libFuzzer driver: result files read back and verified against a graph with spills. The reader
// gives a ResultFile or an InputError; the verifier, whatever the file claims, answers (as
// `spillway verify` does: the claimed lower bounds recomputed on a sound plan).
#include "fuzz_support.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"

using namespace spillway;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    static const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    static const Capacities caps = capacitiesFor(doc, {});
    fuzz::expectInputErrorAtMost([&] {
        const ResultFile r = readResultFile(text);
        verifyResultRecomputing(doc.graph, caps, r.cost, r.plan, r.claims);
    });
    return 0;
}
