// libFuzzer driver: the option parsers (bindings' JSON options, --caps lists, order files), each
// then used on a small graph. Lines: the JSON options, then a --caps list, then an order file.
#include "fuzz_support.h"
#include "spillway/engine.h"
#include "spillway/examples.h"
#include "spillway/json_io.h"

using namespace spillway;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::size_t a = text.find('\n'), b = a == std::string::npos ? a : text.find('\n', a + 1);
    const std::string options = text.substr(0, a);
    const std::string caps = a == std::string::npos ? "" : text.substr(a + 1, b == std::string::npos ? b : b - a - 1);
    const std::string order = b == std::string::npos ? "" : text.substr(b + 1);
    static const GraphDocument doc = parseGraphDocument(exampleGraphJson("one-spill"));
    fuzz::expectInputErrorAtMost([&] { run(doc, parseRunOptions(options)); });
    fuzz::expectInputErrorAtMost([&] {
        RunOptions o;
        o.capacities = parseCapacityList(caps);
        run(doc, o);
    });
    fuzz::expectInputErrorAtMost([&] {
        RunOptions o;
        o.orderSource = "given";
        o.orderFrom = "order";
        o.order = parseOrderText(order);
        run(doc, o);
        orderTextLine(order, 3);
    });
    return 0;
}
