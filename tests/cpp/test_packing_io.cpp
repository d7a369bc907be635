// minimalloc's CSV in and out, the bindings' pack options and the result JSON (packing_io.h).
#include <nlohmann/json.hpp>

#include "spillway/json_io.h"
#include "spillway/packing_graph.h"
#include "spillway/packing_io.h"
#include "support.h"

using namespace spillway::packing;
using spillway::Bytes;
using spillway::test::inputErrorOf;

namespace {
const char* kReadme = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";
}

TEST_CASE("packing csv: minimalloc's README example reads, packs in 12 and writes minimalloc's output") {
    CsvDocument doc = parsePackingCsv(kReadme);
    CHECK(doc.ids == std::vector<std::string>{"b1", "b2", "b3", "b4", "b5"});
    REQUIRE(doc.problem.blocks.size() == 5);
    CHECK(doc.problem.blocks[3].lower == 9);
    CHECK(doc.problem.blocks[3].upper == 21);
    CHECK(doc.problem.blocks[3].size == 4);
    CHECK(packingToCsv(doc) == kReadme);
    doc.problem.capacity = 12;
    const Result r = pack(doc.problem);
    REQUIRE(r.verdict == Verdict::Fits);
    const std::string out = packingToCsv(doc, r.offsets);
    CHECK(out.rfind("id,lower,upper,size,offset\nb1,0,3,4,", 0) == 0);
    // Read back, the output holds the same problem (the offset column is the answer, not input).
    CHECK(inputErrorOf([&] { parsePackingCsv(out); }).find("fixed offsets and hints are not supported") != std::string::npos);
}

TEST_CASE("packing csv: older spellings, inclusive ends, any column order, CRLF and blank lines") {
    const CsvDocument doc = parsePackingCsv("size,buffer,start,end\r\n\r\n8,x,0,4\r\n2,y,5,5\r\n\r\n");
    CHECK(doc.ids == std::vector<std::string>{"x", "y"});
    CHECK(doc.problem.blocks[0].upper == 5);  // inclusive end 4
    CHECK(doc.problem.blocks[1].lower == 5);
    CHECK(doc.problem.blocks[1].upper == 6);
    CHECK(packingToCsv(doc) == "id,lower,upper,size\nx,0,5,8\ny,5,6,2\n");
}

TEST_CASE("packing csv: alignment and gaps, with and without windows, round trip") {
    const std::string text = "id,lower,upper,size,alignment,gaps\na,0,10,8,4,2-4 6-8@0:2\nb,1,3,2,1,\n";
    const CsvDocument doc = parsePackingCsv(text);
    const Block& a = doc.problem.blocks[0];
    CHECK(a.alignment == 4);
    REQUIRE(a.gaps.size() == 2);
    CHECK(a.gaps[0].lower == 2);
    CHECK(a.gaps[0].upper == 4);
    CHECK(!a.gaps[0].window);
    REQUIRE(a.gaps[1].window);
    CHECK(a.gaps[1].window->upper == 2);
    CHECK(doc.problem.blocks[1].gaps.empty());
    CHECK(packingToCsv(doc) == text);
    // With an "end" column, gap ends are inclusive too.
    const CsvDocument old = parsePackingCsv("id,start,end,size,gaps\na,0,9,8,2-3\n");
    CHECK(old.problem.blocks[0].gaps[0].upper == 4);
    CHECK(packingToCsv(old) == "id,lower,upper,size,gaps\na,0,10,8,2-4\n");
}

TEST_CASE("packing csv: every mistake names the line and the column or field") {
    const std::pair<const char*, const char*> cases[] = {
        {"", "line 1: the header row is missing (expected id,lower,upper,size)"},
        {"id,lower,upper\n", "line 1: the header has no column \"size\" (required: id, lower, upper, size)"},
        {"id,lower,upper,size,colour\n", "line 1, column 5 (\"colour\"): unknown column (known: id, lower, upper, size, alignment, gaps)"},
        {"id,lower,start,upper,size\n", "line 1, column 3 (\"start\"): the column lower appears twice (columns 2 and 3)"},
        {"id,lower,upper,size,hint\n", "line 1, column 5 (\"hint\"): fixed offsets and hints are not supported: spillway pack chooses every offset"},
        {"id,lower,upper,size\na,0,4,8\nb,0,4\n", "line 3: 3 fields, but the header has 4"},
        {"id,lower,upper,size\na,0,4,8\n\nb,0,4x,8\n", "line 4, column 3 (upper): \"4x\" is not an integer"},
        {"id,lower,upper,size\na,0,4,-8\n", "line 2 (id \"a\"): field \"size\" must be between 0 and 68719476736, got -8"},
        {"id,lower,upper,size\na,5,4,8\n", "line 2 (id \"a\"): field \"upper\" must be between lower (5) and 1099511627776, got 4"},
        {"id,lower,upper,size\na,0,4,99999999999999\n", "line 2 (id \"a\"): field \"size\" must be between 0 and 68719476736, got 99999999999999"},
        {"id,lower,upper,size\na,0,4,9999999999999999999\n", "line 2, column 4 (size): \"9999999999999999999\" has more digits than any allowed value (at most 1099511627776)"},
        {"id,lower,upper,size\na,0,4,1234567890123456789x\n", "line 2, column 4 (size): \"1234567890123456789x\" is not an integer"},
        {"id,lower,upper,size\na,0,4,8\na,1,2,3\n", "line 3, column 1 (id): the id \"a\" was already used on line 2"},
        {"id,lower,upper,size\n ,0,4,8\n", "line 2, column 1 (id): the id is empty"},
        {"id,lower,upper,size,alignment\na,0,4,8,0\n", "line 2 (id \"a\"): field \"alignment\" must be between 1 and 68719476736, got 0"},
        {"id,lower,upper,size,gaps\na,0,9,8,2-x\n",
         "line 2, column 5 (gaps): \"2-x\" is not a gap (expected LOWER-UPPER or LOWER-UPPER@WINDOWLOWER:WINDOWUPPER)"},
        {"id,lower,upper,size,gaps\na,0,9,8,2-3@1\n",
         "line 2, column 5 (gaps): \"2-3@1\" is not a gap (expected LOWER-UPPER or LOWER-UPPER@WINDOWLOWER:WINDOWUPPER)"},
        {"id,lower,upper,size,gaps\na,0,9,8,7-12\n",
         "line 2 (id \"a\"): field \"gaps\", gap 1 (7-12): gaps must lie in the lifetime [0, 9) in time order without overlapping"},
        {"id,lower,upper,size,gaps\na,0,9,8,2-3@0:9\n",
         "line 2 (id \"a\"): field \"gaps\", gap 1 (2-3): its window 0:9 must lie within the size (0:8)"},
    };
    for (const auto& c : cases) CHECK(inputErrorOf([&] { parsePackingCsv(c.first); }) == c.second);
}

TEST_CASE("packing options: capacity required, budget and techniques checked by name") {
    const PackRequest r = parsePackOptions(R"({"capacity": 64, "budget": 500, "disable": ["dominance"], "preorders": ["TWA"]})");
    CHECK(r.capacity == 64);
    CHECK(r.options.budget == 500);
    CHECK(r.options.disabled == std::vector<Technique>{Technique::Dominance});
    CHECK(r.options.preorders == std::vector<std::string>{"TWA"});
    CHECK(parsePackOptions(R"({"capacity": 8})").options.budget == Options{}.budget);
    CHECK(inputErrorOf([] { parsePackOptions("{}"); }) == "options: field \"capacity\" is missing");
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 0})"); }) ==
          "options: field \"capacity\" must be an integer between 1 and 68719476736, got 0");
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 8, "budget": -1})"); }) ==
          "options: field \"budget\" must be an integer between 0 and 1125899906842624, got -1");
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 8, "disable": "dominance"})"); }) ==
          "options: field \"disable\" must be an array of strings, got \"dominance\"");
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 8, "disable": ["fast"]})"); }).rfind("unknown packing technique \"fast\"", 0) == 0);
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 8, "speed": 1})"); }) ==
          "options: field \"speed\" is unknown (known: capacity, budget, disable, preorders)");
    CHECK(inputErrorOf([] { parsePackOptions("[1]"); }) == "the options must be a JSON object like {\"capacity\": 1048576}");
    CHECK(inputErrorOf([] { parsePackOptions("{\"capacity\": "); }).rfind("line 1, column 14: the options is not valid JSON: ", 0) == 0);
    // nesting is checked before the options become a tree (whose printing recurses)
    CHECK(inputErrorOf([] { parsePackOptions("{\"disable\": " + std::string(100000, '[')); }) ==
          "line 1, column 44: the options nests arrays and objects deeper than 32 levels (limit depth = 32)");
}

TEST_CASE("packing result JSON: offsets and minimalloc's CSV when it fits, the region and reason when not") {
    CsvDocument doc = parsePackingCsv(kReadme);
    doc.problem.capacity = 12;
    const auto fits = nlohmann::json::parse(packResultToJson(doc, pack(doc.problem)));
    CHECK(fits["verdict"] == "fits");
    CHECK(fits["capacity"] == 12);
    CHECK(fits["failing"].is_null());
    CHECK(fits["stats"]["peakLoad"] == 12);
    REQUIRE(fits["blocks"].size() == 5);
    CHECK(fits["blocks"][0]["id"] == "b1");
    CHECK(fits["blocks"][0]["upper"] == 3);
    CHECK(fits["blocks"][0].contains("offset"));
    CHECK(fits["csv"].get<std::string>().rfind("id,lower,upper,size,offset\n", 0) == 0);
    doc.problem.capacity = 11;
    const auto not_ = nlohmann::json::parse(packResultToJson(doc, pack(doc.problem)));
    CHECK(not_["verdict"] == "does-not-fit");
    CHECK(not_["failing"] == nlohmann::json{{"from", 0}, {"to", 3}, {"load", 12}});
    CHECK(not_["reason"] == "from time 0 to 3 the live blocks need 12 bytes, more than the capacity 11");
    CHECK(!not_["blocks"][0].contains("offset"));
    CHECK(not_["csv"].is_null());
}

TEST_CASE("packing csv: quoted fields as RFC 4180 has them; an open quote is refused with its line; a BOM is skipped") {
    const CsvDocument doc = parsePackingCsv("\xEF\xBB\xBFid,lower,upper,size\n\"b,1\",0,3,4\n\"say \"\"hi\"\"\",\"1\",2,4\nb1,0,1,1\n");
    REQUIRE(doc.ids.size() == 3);
    CHECK(doc.ids[0] == "b,1");
    CHECK(doc.ids[1] == "say \"hi\"");
    CHECK(doc.problem.blocks[1].lower == 1);
    CHECK(packingToCsv(doc) == "id,lower,upper,size\n\"b,1\",0,3,4\n\"say \"\"hi\"\"\",1,2,4\nb1,0,1,1\n");
    CHECK(parsePackingCsv(packingToCsv(doc)).ids == doc.ids);
    CHECK(inputErrorOf([] { parsePackingCsv("id,lower,upper,size\nb1,0,3,4\n\"b1,0,3,4\n"); }) ==
          "line 3, column 1: the quote is not closed on its line");
    CHECK(inputErrorOf([] { parsePackingCsv("id,lower,upper,size\nb\"1,0,3,4\n"); }) ==
          "line 2, column 1: a quote inside a field (quote the whole field, doubling its quotes)");
    CHECK(inputErrorOf([] { parsePackingCsv("id,lower,upper,size\n\"b1\"x,0,3,4\n"); }) ==
          "line 2, column 1: text after the closing quote");
    CHECK(parsePackingCsv("\xEF\xBB\xBFid,lower,upper,size\n").ids.empty());
}

TEST_CASE("packing: sizes and capacities have the graph's limit, so that every problem packed can be planned") {
    const std::string most = std::to_string(spillway::limits::kMaxBytes);
    CHECK(inputErrorOf([&] { parsePackingCsv("id,lower,upper,size\na,0,4," + most + "1\n"); }) ==
          "line 2 (id \"a\"): field \"size\" must be between 0 and " + most + ", got " + most + "1");
    CsvDocument doc = parsePackingCsv("id,lower,upper,size\na,0,4," + most + "\nb,4,1099511627776," + most + "\n");
    doc.problem.capacity = spillway::limits::kMaxBytes;
    CHECK(pack(doc.problem).verdict == Verdict::Fits);
    const spillway::GraphDocument graph = spillway::parseGraphDocument(spillway::graphToJson(graphFromPacking(doc.problem)));
    CHECK(graph.graph.buffers.size() == 2);
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 68719476737})"); }) ==
          "options: field \"capacity\" must be an integer between 1 and 68719476736, got 68719476737");
    // As in the other readers, an integer written with an exponent or a fraction is one.
    CHECK(parsePackOptions(R"({"capacity": 64e0, "budget": 5.0E2})").capacity == 64);
    CHECK(parsePackOptions(R"({"capacity": 64e0, "budget": 5.0E2})").options.budget == 500);
    CHECK(inputErrorOf([] { parsePackOptions(R"({"capacity": 64.5})"); }) ==
          "options: field \"capacity\" must be an integer between 1 and 68719476736, got 64.5");
}
