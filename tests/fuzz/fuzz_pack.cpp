// libFuzzer driver: minimalloc CSV read and packed. The reader gives a problem or an InputError;
// the packer, within a small budget, answers, and every packing it returns passes the
// independent validator (packValidated throws InternalError otherwise: a finding).
#include "fuzz_support.h"
#include "spillway/limits.h"
#include "spillway/packing_io.h"
#include "spillway/packing_validator.h"

using namespace spillway;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expectInputErrorAtMost([&] {
        packing::CsvDocument doc = packing::parsePackingCsv(text);
        packing::Options options;
        options.budget = 2000;
        // a tight memory and a roomy one: both verdicts get exercised; and the largest allowed,
        // where offsets pass 2^32
        for (const Bytes capacity : {Bytes{16}, Bytes{1} << 20, limits::kMaxBytes}) {
            doc.problem.capacity = capacity;
            packing::packValidated(doc.problem, options);
        }
    });
    return 0;
}
