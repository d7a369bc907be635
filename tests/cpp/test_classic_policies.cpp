// The classic policies (lru, fifo, belady) against an independent simulation of their textbook
// rules on programs of loads and uses of one-slot, clean values. The simulation reads the program
// text itself and shares nothing with the engine: if the two disagree, one of them is wrong.
//
// The rules: a value's slot is free right after its last use (right after its load if it is never
// read); a use of a value that is not resident reloads it just before that use; when a slot is
// needed (a load or a reload) and none is free, lru evicts the value least recently loaded, used or
// reloaded, fifo the one placed (loaded or reloaded) earliest, belady the one whose next use is
// furthest away.
#include <sstream>

#include "../../core/src/model/rng.h"
#include "support.h"

using namespace spillway;

namespace {

// One instruction: `NAME = load` defines a new value, `use NAME` reads the name's latest value.
// Values are numbered in order of definition, as the program's buffers are.
struct Instruction {
    bool load = false;
    int value = 0;
};

struct Program {
    int registers = 0;
    int values = 0;
    std::vector<Instruction> instructions;
};

Program readProgram(const std::string& text) {
    Program p;
    std::map<std::string, int> latest;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first, second, third;
        words >> first >> second >> third;
        if (first.empty()) continue;
        if (first == "registers") {
            p.registers = std::stoi(second);
        } else if (first == "use") {
            REQUIRE(latest.count(second) == 1);
            p.instructions.push_back({false, latest[second]});
        } else {
            REQUIRE(second == "=");
            REQUIRE(third == "load");
            latest[first] = p.values;
            p.instructions.push_back({true, p.values++});
        }
    }
    return p;
}

enum class Classic { Lru, Fifo, Belady };

// The textbook simulation: the values it reloads, in order.
class Simulation {
public:
    Simulation(const Program& p, Classic policy)
        : program_(p), policy_(policy), lastRead_(p.values, -1), touched_(p.values), placed_(p.values) {
        for (int i = 0; i < static_cast<int>(p.instructions.size()); ++i) {
            const Instruction& ins = p.instructions[i];
            if (ins.load || lastRead_[ins.value] < i) lastRead_[ins.value] = i;
        }
    }

    std::vector<int> reloads() {
        std::vector<int> reloaded;
        for (int i = 0; i < static_cast<int>(program_.instructions.size()); ++i) {
            const int v = program_.instructions[i].value;
            if (!isResident(v)) {
                place(v, i);
                if (!program_.instructions[i].load) reloaded.push_back(v);
            }
            touched_[v] = i;
            if (lastRead_[v] == i) resident_.erase(std::find(resident_.begin(), resident_.end(), v));
        }
        return reloaded;
    }

private:
    bool isResident(int v) const { return std::find(resident_.begin(), resident_.end(), v) != resident_.end(); }

    void place(int v, int at) {
        if (static_cast<int>(resident_.size()) == program_.registers)
            resident_.erase(std::find(resident_.begin(), resident_.end(), victim(at)));
        resident_.push_back(v);
        placed_[v] = at;
    }

    // Every resident value is read again later (else its slot would be free), at a line of its own.
    int victim(int at) const {
        auto key = [&](int v) {
            if (policy_ == Classic::Lru) return touched_[v];
            if (policy_ == Classic::Fifo) return placed_[v];
            return -nextRead(v, at);
        };
        return *std::min_element(resident_.begin(), resident_.end(), [&](int a, int b) { return key(a) < key(b); });
    }

    int nextRead(int v, int after) const {
        for (int i = after + 1; i < static_cast<int>(program_.instructions.size()); ++i)
            if (program_.instructions[i].value == v) return i;
        FAIL("a resident value is never read again");
        return -1;
    }

    const Program& program_;
    Classic policy_;
    std::vector<int> lastRead_;  // the line after which a value's slot is free
    std::vector<int> touched_;   // last line that loaded, used or reloaded it
    std::vector<int> placed_;    // last line that loaded or reloaded it
    std::vector<int> resident_;
};

std::vector<int> simulatedReloads(const std::string& text, Classic policy) {
    Program p = readProgram(text);
    return Simulation(p, policy).reloads();
}

// The buffers of the plan's SPILL_IN nodes, in the plan's new order.
std::vector<int> planReloads(const Result& r) {
    std::map<NodeId, BufferId> reloadOf;
    for (const Spill& s : r.plan.spills) reloadOf[s.inNode] = s.buf;
    std::vector<int> reloaded;
    for (NodeId n : r.plan.order)
        if (reloadOf.count(n)) reloaded.push_back(reloadOf[n]);
    return reloaded;
}

Result planProgram(const std::string& text, const std::string& policy) {
    RunOptions opts;
    opts.orderSource = "graph";
    opts.policy = policy;
    return test::planVerified(parseGraphDocument(text), opts);
}

// A program of K registers (1 to 6, at most a fifth of its instructions) and 5 to 40 instructions
// over 1 to 3 more names than registers: a load defines a name not yet defined (half the time
// while some are left) or redefines one (one time in eight), every other instruction reads a
// defined name, so that more values are live than registers hold, values are read several times
// and names redefined.
std::string randomProgram(std::uint64_t seed) {
    Rng rng(seed);
    const int instructions = static_cast<int>(rng.between(5, 40));
    const int registers = static_cast<int>(rng.between(1, std::clamp(instructions / 5, 1, 6)));
    const int names = registers + static_cast<int>(rng.between(1, 3));
    int defined = 0;
    std::ostringstream text;
    text << "registers " << registers << "\n";
    for (int i = 0; i < instructions; ++i) {
        const bool define = defined < names && (defined == 0 || rng.below(2) == 0);
        if (define) {
            text << static_cast<char>('a' + defined++) << " = load\n";
        } else if (rng.below(8) == 0) {
            text << static_cast<char>('a' + rng.below(defined)) << " = load\n";
        } else {
            text << "use " << static_cast<char>('a' + rng.below(defined)) << "\n";
        }
    }
    return text.str();
}

const std::pair<const char*, Classic> kClassics[] = {
    {"lru", Classic::Lru}, {"fifo", Classic::Fifo}, {"belady", Classic::Belady}};

// Programs checked by hand, with the values lru, fifo and belady reload (value k: the k-th
// defined, buffer k).
struct HandChecked {
    const char* program;
    std::vector<int> reloads[3];  // in kClassics' order
};
const HandChecked kHandChecked[] = {
    // a=0 b=1 c=2. At `c = load` lru and fifo evict a (loaded first), belady b (read after a); lru
    // and fifo then evict b to bring a back, and b comes back into the slot a leaves.
    {"registers 2\na = load\nb = load\nc = load\nuse a\nuse b\nuse c\n", {{0, 1}, {0, 1}, {1}}},
    // `use a` makes a the most recent: at `c = load` lru evicts b, fifo a (placed first), then fifo
    // evicts b (placed before c) to bring a back.
    {"registers 2\na = load\nb = load\nuse a\nc = load\nuse a\nuse b\nuse c\n", {{1}, {0, 1}, {1}}},
    // One register: each value goes out for the one read next; the second `a = load` is value 2.
    {"registers 1\na = load\nb = load\nuse a\nuse b\na = load\nuse a\n", {{0, 1}, {0, 1}, {0, 1}}},
};

}  // namespace

TEST_CASE("classic policies: the simulation's and the engine's reloads on hand-checked programs") {
    for (const HandChecked& c : kHandChecked) {
        for (size_t k = 0; k < 3; ++k) {
            const std::string policy = kClassics[k].first, program = c.program;
            CAPTURE(program);
            CAPTURE(policy);
            CHECK(simulatedReloads(program, kClassics[k].second) == c.reloads[k]);
            Result r = planProgram(program, policy);
            CHECK(r.plan.policy == policy);
            CHECK(planReloads(r) == c.reloads[k]);
        }
    }
}

TEST_CASE("classic policies: on 30 random programs the engine reloads what the simulation does") {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const std::string text = randomProgram(seed);
        CAPTURE(text);
        for (const auto& [name, classic] : kClassics) {
            const std::string policy = name;
            CAPTURE(policy);
            const std::vector<int> expected = simulatedReloads(text, classic);
            Result r = planProgram(text, policy);
            CHECK(planReloads(r) == expected);
            CHECK(r.metrics.spills == static_cast<int>(expected.size()));
        }
        // with one-slot clean values Belady reloads the fewest values: as many as the optimum
        const size_t belady = simulatedReloads(text, Classic::Belady).size();
        CHECK(planReloads(planProgram(text, "residency")).size() == belady);
    }
}

TEST_CASE("classic policies: the random programs tell the three policies apart") {
    int withReloads = 0, lruNotFifo = 0, lruNotBelady = 0, fifoNotBelady = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const std::string text = randomProgram(seed);
        const std::vector<int> lru = simulatedReloads(text, Classic::Lru);
        const std::vector<int> fifo = simulatedReloads(text, Classic::Fifo);
        const std::vector<int> belady = simulatedReloads(text, Classic::Belady);
        CHECK(belady.size() <= lru.size());  // Belady reloads the fewest
        CHECK(belady.size() <= fifo.size());
        withReloads += !belady.empty();
        lruNotFifo += lru != fifo;
        lruNotBelady += lru != belady;
        fifoNotBelady += fifo != belady;
    }
    CHECK(withReloads == 23);
    CHECK(lruNotFifo == 8);
    CHECK(lruNotBelady == 11);
    CHECK(fifoNotBelady == 10);
}
