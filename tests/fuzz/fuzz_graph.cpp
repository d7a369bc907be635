// libFuzzer driver: graph documents and programs (docs/programs.md). Any text gives a verified
// plan or one clear InputError.
#include "fuzz_support.h"
#include "spillway/engine.h"
#include "spillway/json_io.h"

using namespace spillway;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expectInputErrorAtMost([&] {
        GraphDocument doc = parseGraphDocument(text);
        if (doc.graph.nodes.size() > 3000) return;  // keep each run fast; big graphs are benchmarked
        const Result r = run(doc, {});              // throws InternalError when the verifier objects
        // What the engine writes, it reads back, and the verifier accepts every claim.
        const ResultFile back = readResultFile(resultToJson(doc, r));  // a program's: its lines too
        if (!verifyResult(doc.graph, r.capacities, back.cost, back.plan, back.claims).empty()) std::abort();
    });
    return 0;
}
