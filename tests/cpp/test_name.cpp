// Interned names (name.h): a node's Op and Pipe and a memory's Type read, compare and order as
// their text, outlive the graph they were read with, and the process keeps only the texts of
// the names alive (the browser's worker plans graph after graph in one process).
#include <map>
#include <sstream>
#include <vector>

#include "support.h"

using namespace spillway;
using spillway::test::parse;
using spillway::test::planVerified;
using spillway::test::seedById;

namespace {

// b0 must leave L1 (100 bytes) while b1 is used, and come back for its second use.
const char* kOneSpill = R"({"Nodes":[
 {"Id":0,"Op":"ALLOC","BufId":0,"Size":100,"Type":"L1"},
 {"Id":1,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[0]},
 {"Id":2,"Op":"ALLOC","BufId":1,"Size":100,"Type":"L1"},
 {"Id":3,"Op":"COPY_IN","Pipe":"MTE2","Cycles":10,"Bufs":[1]},
 {"Id":4,"Op":"FREE","BufId":1,"Size":100,"Type":"L1"},
 {"Id":5,"Op":"ADD","Pipe":"VECTOR","Cycles":5,"Bufs":[0]},
 {"Id":6,"Op":"FREE","BufId":0,"Size":100,"Type":"L1"}],
 "Edges":[[0,1],[1,2],[2,3],[3,4],[4,5],[5,6]],
 "Capacities":{"L1":100}})";

}  // namespace

TEST_CASE("names compare by text and order by text, whatever order they were stored in") {
    const Name vector("VECTOR"), cube("CUBE"), again(std::string("VECTOR"));
    CHECK(vector == again);
    CHECK(vector != cube);
    CHECK(vector == "VECTOR");
    CHECK("VECTOR" == vector);
    CHECK(vector == std::string("VECTOR"));
    CHECK(std::string_view("VECTOR") == vector);
    CHECK(vector != "VECTO");
    CHECK(cube < vector);
    CHECK_FALSE(vector < again);
    CHECK(Name().empty());
    CHECK(Name("") == Name());
    CHECK(Name().str().empty());

    // Stored zeta first: a map keyed by names still lists them by text, as with strings.
    std::map<Name, int> byName{{"zeta", 1}, {"alpha", 2}, {"L1", 3}, {"", 4}};
    std::vector<std::string> keys;
    for (const auto& [name, value] : byName) keys.push_back(name);
    CHECK(keys == std::vector<std::string>{"", "L1", "alpha", "zeta"});

    CHECK("Op " + vector + " runs" == "Op VECTOR runs");
    std::ostringstream os;
    os << cube << '/' << vector;
    CHECK(os.str() == "CUBE/VECTOR");
}

TEST_CASE("the process keeps the texts of the names alive, and no others") {
    const std::size_t before = Name::storedTexts();
    {
        std::vector<Name> names;
        for (int i = 0; i < 1000; ++i) names.emplace_back("test_name op " + std::to_string(i));
        CHECK(Name::storedTexts() == before + 1000);
        const std::vector<Name> copies = names;  // the same texts: none added
        CHECK(Name::storedTexts() == before + 1000);
        Name moved = std::move(names[7]);
        CHECK(moved == "test_name op 7");
        names.clear();
        CHECK(Name::storedTexts() == before + 1000);  // the copies hold them still
        CHECK(copies[999] == "test_name op 999");
    }
    CHECK(Name::storedTexts() == before);
}

TEST_CASE("a copied graph and a plan's spill nodes keep their names after the graph is gone") {
    Graph copy;
    Plan plan;
    {
        const GraphDocument doc = parse(kOneSpill);
        copy = doc.graph;
        plan = planVerified(doc, seedById()).plan;
    }
    CHECK(copy.node(5).op == "ADD");
    CHECK(copy.node(5).pipe == "VECTOR");
    CHECK(copy.buffer(0).type == "L1");
    REQUIRE(plan.addedNodes.size() == 2);
    CHECK(plan.addedNodes[0].op == "SPILL_OUT");
    CHECK(plan.addedNodes[0].pipe == "MTE3");
    CHECK(plan.addedNodes[1].op == "SPILL_IN");
    CHECK(plan.addedNodes[1].pipe == "MTE2");
    // 8-byte names instead of 32-byte strings (on 64-bit hosts; WebAssembly's pointers are 4).
    CHECK(sizeof(Node) <= 80);
}
