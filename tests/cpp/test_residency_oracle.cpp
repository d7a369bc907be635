// The residency step and the lower bound against an exact solver (CBC, from Debian's coinor-cbc,
// installed by scripts/setup.sh --test): on random graphs with at most 40 buffers and random
// orders and capacities, the integer program "which gaps stay resident" is solved exactly by
// CBC; the bound must never exceed its optimum, and the residency step must reach it.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "spillway/examples.h"
#include "spillway/residency.h"
#include "support.h"

using namespace spillway;

namespace {

std::string cbcPath() {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/"}) {
        const std::string path = std::string(dir) + "cbc";
        if (std::ifstream(path)) return path;
    }
    return "";
}

// The integer program of one memory in CPLEX LP format: minimise the traffic of the gaps written
// out, i.e. maximise the traffic of the gaps kept (binary x), under the capacity at every step.
std::string lpText(const ResidencyProblem& p, Bytes& totalTraffic) {
    std::ostringstream lp;
    lp << "Maximize\n obj:";
    totalTraffic = 0;
    for (size_t i = 0; i < p.gaps.size(); ++i) {
        lp << " + " << p.gaps[i].traffic << " x" << i << (i % 8 == 7 ? "\n" : "");
        totalTraffic += p.gaps[i].traffic;
    }
    lp << "\nSubject To\n";
    for (size_t t = 0; t < p.forced.size(); ++t) {
        std::ostringstream row;
        for (size_t i = 0; i < p.gaps.size(); ++i)
            if (p.gaps[i].from < static_cast<int>(t) && static_cast<int>(t) < p.gaps[i].to)
                row << " + " << p.gaps[i].size << " x" << i;
        if (!row.str().empty()) lp << " c" << t << ":" << row.str() << " <= " << p.capacity - p.forced[t] << "\n";
    }
    lp << "Binary\n";
    for (size_t i = 0; i < p.gaps.size(); ++i) lp << " x" << i << "\n";
    lp << "End\n";
    return lp.str();
}

// CBC's optimal objective (the traffic kept), or -1 if it did not prove optimality.
Bytes solveWithCbc(const std::string& cbc, const std::string& lp, const std::string& dir) {
    const std::string model = dir + "/model.lp", solution = dir + "/solution.txt";
    std::ofstream(model) << lp;
    std::remove(solution.c_str());
    const std::string command = cbc + " " + model + " solve solu " + solution + " > /dev/null 2>&1";
    if (std::system(command.c_str()) != 0) return -1;
    std::ifstream in(solution);
    std::string status, word;
    in >> status;  // "Optimal - objective value 1234"
    if (status != "Optimal") return -1;
    double value = -1;
    while (in >> word)
        if (word == "value") {
            in >> value;
            break;
        }
    return static_cast<Bytes>(value + 0.5);
}

}  // namespace

TEST_CASE("residency oracle: bound <= CBC's optimum == the residency step, graphs with <= 40 buffers") {
    const std::string cbc = cbcPath();
    REQUIRE_MESSAGE(!cbc.empty(), "CBC (coinor-cbc) is missing: run scripts/setup.sh --test");
    char dirTemplate[] = "/tmp/spillway-oracle-XXXXXX";
    REQUIRE(mkdtemp(dirTemplate) != nullptr);
    const std::string dir = dirTemplate;
    int solved = 0, withTraffic = 0, boundBelow = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomGraphParams params;
        params.operations = 14 + static_cast<int>(seed % 12);
        params.memories = {"L1", "UB"};
        params.minBytes = 8;
        params.maxBytes = 120;
        params.maxReads = 1 + static_cast<int>(seed % 3);
        params.freesAtEnd = seed % 4 == 0;
        params.capacities = {{"L1", 240 + 8 * static_cast<Bytes>(seed % 9)},
                             {"UB", 200 + 16 * static_cast<Bytes>(seed % 5)}};
        const GraphDocument doc = parseGraphDocument(generateRandomGraph(seed, params));
        if (doc.graph.buffers.size() > 40) continue;
        const Order order = seed % 2 ? orderById(doc.graph) : scheduleForMemory(doc.graph, orderById(doc.graph));
        for (const ResidencyProblem& p : residencyProblems(doc.graph, order, *doc.capacities)) {
            if (p.gaps.empty()) continue;
            CAPTURE(seed);
            CAPTURE(p.type);
            Bytes total = 0;
            const std::string lp = lpText(p, total);
            // CBC is an outside process that may fail to answer on a loaded machine: it gets a second try.
            Bytes kept = solveWithCbc(cbc, lp, dir);
            if (kept < 0) kept = solveWithCbc(cbc, lp, dir);
            REQUIRE(kept >= 0);
            const Bytes optimum = total - kept;
            const ResidencyChoice choice = chooseResidency(p);
            CHECK(relaxResidency(p).traffic <= optimum);
            CHECK(choice.traffic == optimum);
            CHECK(choice.optimal);
            ++solved;
            withTraffic += optimum > 0;
            boundBelow += relaxResidency(p).traffic < optimum;
        }
    }
    std::system(("rm -rf " + dir).c_str());
    MESSAGE(solved << " memories solved by CBC, " << withTraffic << " with traffic, bound strictly below in "
                   << boundBelow);
    CHECK(solved >= 60);
    CHECK(withTraffic >= 20);  // the capacities are small enough that residency is a real choice
}
