// Example graphs and generators (see examples.h and docs/examples.md).
//
// Two layers: Builder emits nodes in the order it is called (explicit ALLOC / FREE, used by the
// hand-written teaching examples and the random generator) and derives every edge; Program
// records operations on declared buffers and lets the Builder place each ALLOC just before the
// buffer's first use and each FREE just after its last (or at the end), used by the kernels.
#include "spillway/examples.h"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <utility>

#include "model/rng.h"
#include "spillway/error.h"
#include "spillway/limits.h"

namespace spillway {
namespace {

using OJson = nlohmann::ordered_json;

constexpr int kMaxNodes = static_cast<int>(limits::kMaxNodes);  // what the engine reads

// The contest's COPY_IN cycles follow 2 * size + 69 (128 -> 325, 256 -> 581, 768 -> 1605).
// A generated transfer's cycles: `perByte` a byte plus `fixed`, capped at the limit on a node's
// Cycles so that a graph of any allowed Size reads back.
Cycles transferCycles(Bytes size, Cycles fixed, Bytes perByte) {
    return std::min(limits::kMaxCycles, perByte * size + fixed);
}
Cycles copyInCycles(Bytes size) { return transferCycles(size, 69, 2); }

[[noreturn]] void badParam(const std::string& what, const std::string& problem) {
    throw InputError("generator parameter " + what + " " + problem);
}

void requireAtLeast(const std::string& what, std::int64_t value, std::int64_t min) {
    if (value < min) badParam(what, "must be at least " + std::to_string(min) + ", got " + std::to_string(value));
}

// Memories in the order a reader expects them (the pipeline's), then any others by name.
int memoryRank(const std::string& type) {
    static const char* const kOrder[] = {"L1", "UB", "L0A", "L0B", "L0C"};
    for (int i = 0; i < 5; ++i)
        if (type == kOrder[i]) return i;
    return 5;
}

class Builder {
public:
    Builder(Capacities written, bool freesAtEnd)
        : written_(std::move(written)),
          freesAtEnd_(freesAtEnd),
          limits_(written_.empty() ? defaultCapacities() : written_) {}

    BufferId alloc(const std::string& type, Bytes size) {
        auto cap = limits_.find(type);
        if (cap == limits_.end())
            throw InputError("generator: memory \"" + type + "\" has no capacity (give one in capacities)");
        if (size < 1 || size > cap->second)
            throw InputError("generator: a " + type + " buffer of " + std::to_string(size) +
                             " bytes does not fit its capacity " + std::to_string(cap->second));
        const BufferId id = static_cast<BufferId>(bufs_.size());
        BufState st;
        st.type = type;
        st.size = size;
        st.allocNode = addNode(bufferNode(kAlloc, id, size, type));
        bufs_.push_back(std::move(st));
        return id;
    }

    // An operation writing `writes` and reading `reads` (a buffer in both is read, then written:
    // an accumulation). Bufs lists the written buffers first.
    NodeId op(const std::string& name, const std::string& pipe, Cycles cycles, const std::vector<BufferId>& writes,
              const std::vector<BufferId>& reads) {
        std::vector<BufferId> all;
        for (BufferId b : writes)
            if (std::find(all.begin(), all.end(), b) == all.end()) all.push_back(b);
        for (BufferId b : reads)
            if (std::find(all.begin(), all.end(), b) == all.end()) all.push_back(b);
        std::map<std::string, Bytes> perMemory;
        for (BufferId b : all) {
            const BufState& st = live(b, name);
            perMemory[st.type] += st.size;
        }
        for (const auto& [type, bytes] : perMemory)
            if (bytes > limits_.at(type))
                throw InputError("generator: a " + name + " node would use " + std::to_string(bytes) + " bytes of " +
                                 type + ", over its capacity " + std::to_string(limits_.at(type)));
        OJson j;
        j["Id"] = static_cast<NodeId>(nodes_.size());
        j["Op"] = name;
        j["Pipe"] = pipe;
        j["Cycles"] = cycles;
        j["Bufs"] = all;
        const NodeId id = addNode(std::move(j));
        for (BufferId b : all) {
            BufState& st = bufs_[b];
            edge(st.allocNode, id);
            st.users.push_back(id);
        }
        for (BufferId b : reads) {
            BufState& st = bufs_[b];
            if (st.lastWriter >= 0) edge(st.lastWriter, id);
            st.readers.push_back(id);
        }
        for (BufferId b : writes) {
            BufState& st = bufs_[b];
            if (st.lastWriter >= 0) edge(st.lastWriter, id);  // write after write
            for (NodeId r : st.readers)
                if (r != id) edge(r, id);  // write after read
            st.readers.clear();
            st.lastWriter = id;
        }
        return id;
    }

    // FREE now, or at the end when frees go last.
    void release(BufferId b) {
        live(b, "FREE");
        if (freesAtEnd_) {
            bufs_[b].releaseRequested = true;
            return;
        }
        emitFree(b);
    }

    bool isLive(BufferId b) const { return b >= 0 && b < static_cast<BufferId>(bufs_.size()) && bufs_[b].freeNode < 0; }
    NodeId allocNodeOf(BufferId b) const { return bufs_.at(b).allocNode; }
    // An edge beyond the data dependencies (from an earlier node to a later one).
    void dependency(NodeId from, NodeId to) { edge(from, to); }
    int nodeCount() const { return static_cast<int>(nodes_.size()); }
    Bytes sizeOf(BufferId b) const { return bufs_.at(b).size; }

    // Frees what is still live (ascending BufId) and writes the document; with `pinOrder`, also
    // "Order": ascending id, so that a lesson shows under the default options whatever the
    // schedulers would do (the compare table then shows what other orders do).
    std::string finish(bool pinOrder = false) {
        for (BufferId b = 0; b < static_cast<BufferId>(bufs_.size()); ++b)
            if (bufs_[b].freeNode < 0) emitFree(b);
        std::sort(edges_.begin(), edges_.end());
        edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());

        std::string out = "{\n";
        if (!written_.empty()) {
            std::vector<std::pair<std::string, Bytes>> caps(written_.begin(), written_.end());
            std::stable_sort(caps.begin(), caps.end(),
                             [](const auto& a, const auto& b) { return memoryRank(a.first) < memoryRank(b.first); });
            OJson c = OJson::object();
            for (const auto& [type, cap] : caps) c[type] = cap;
            out += " \"Capacities\": " + c.dump() + ",\n";
        }
        if (pinOrder) {
            out += " \"Order\": [";
            for (size_t i = 0; i < nodes_.size(); ++i) out += (i ? "," : "") + std::to_string(i);
            out += "],\n";
        }
        out += " \"Nodes\": [\n";
        for (size_t i = 0; i < nodes_.size(); ++i) out += "  " + nodes_[i] + (i + 1 < nodes_.size() ? ",\n" : "\n");
        out += " ],\n \"Edges\": [";
        for (size_t i = 0; i < edges_.size(); ++i) {
            if (i % 12 == 0) out += "\n  ";
            out += "[" + std::to_string(edges_[i].first) + "," + std::to_string(edges_[i].second) + "]";
            if (i + 1 < edges_.size()) out += ",";
        }
        out += edges_.empty() ? "]\n}\n" : "\n ]\n}\n";
        return out;
    }

private:
    struct BufState {
        std::string type;
        Bytes size = 0;
        NodeId allocNode = -1;
        NodeId freeNode = -1;
        NodeId lastWriter = -1;
        std::vector<NodeId> readers;  // since the last write
        std::vector<NodeId> users;
        bool releaseRequested = false;
    };

    static OJson bufferNode(const char* op, BufferId b, Bytes size, const std::string& type) {
        OJson j;
        j["Id"] = 0;  // set by addNode
        j["Op"] = op;
        j["BufId"] = b;
        j["Size"] = size;
        j["Type"] = type;
        return j;
    }

    // Keeps the node as its text (a million-node graph's document trees would need gigabytes).
    NodeId addNode(OJson j) {
        const NodeId id = static_cast<NodeId>(nodes_.size());
        if (id >= kMaxNodes)
            throw InputError("generator: the graph would exceed " + std::to_string(kMaxNodes) + " nodes");
        j["Id"] = id;
        nodes_.push_back(j.dump());
        return id;
    }

    const BufState& live(BufferId b, const std::string& user) const {
        if (!isLive(b))
            throw InternalError("examples: " + user + " uses buffer " + std::to_string(b) + " outside its ALLOC..FREE");
        return bufs_[b];
    }

    void emitFree(BufferId b) {
        BufState& st = bufs_[b];
        const NodeId f = addNode(bufferNode(kFree, b, st.size, st.type));
        st.freeNode = f;
        if (st.users.empty()) edge(st.allocNode, f);
        for (NodeId u : st.users) edge(u, f);
    }

    void edge(NodeId s, NodeId d) { edges_.emplace_back(s, d); }

    Capacities written_;
    bool freesAtEnd_;
    Capacities limits_;
    std::vector<std::string> nodes_;  // each node's JSON
    std::vector<std::pair<NodeId, NodeId>> edges_;
    std::vector<BufState> bufs_;
};

// Operations on declared buffers; ALLOC and FREE are placed when emitted.
class Program {
public:
    int buffer(const std::string& type, Bytes size) {
        decls_.push_back({type, size});
        return static_cast<int>(decls_.size()) - 1;
    }
    void op(const std::string& name, const std::string& pipe, Cycles cycles, std::vector<int> writes,
            std::vector<int> reads) {
        ops_.push_back({name, pipe, cycles, std::move(writes), std::move(reads)});
        if (ops_.size() > static_cast<size_t>(kMaxNodes))
            throw InputError("generator: the graph would exceed " + std::to_string(kMaxNodes) + " nodes");
    }

    std::string emit(const Capacities& caps, bool freesAtEnd) const {
        std::vector<int> lastUse(decls_.size(), -1);
        for (size_t i = 0; i < ops_.size(); ++i) {
            for (int h : ops_[i].writes) lastUse[h] = static_cast<int>(i);
            for (int h : ops_[i].reads) lastUse[h] = static_cast<int>(i);
        }
        Builder b(caps, freesAtEnd);
        std::vector<BufferId> id(decls_.size(), -1);
        for (size_t i = 0; i < ops_.size(); ++i) {
            const Op& o = ops_[i];
            std::vector<int> used = o.writes;
            used.insert(used.end(), o.reads.begin(), o.reads.end());
            for (int h : used)
                if (id[h] < 0) id[h] = b.alloc(decls_[h].type, decls_[h].size);
            auto ids = [&](const std::vector<int>& hs) {
                std::vector<BufferId> r;
                for (int h : hs) r.push_back(id[h]);
                return r;
            };
            b.op(o.name, o.pipe, o.cycles, ids(o.writes), ids(o.reads));
            std::vector<BufferId> dead;
            for (int h : used)
                if (lastUse[h] == static_cast<int>(i)) dead.push_back(id[h]);
            std::sort(dead.begin(), dead.end());
            dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
            for (BufferId d : dead) b.release(d);
        }
        return b.finish();
    }

private:
    struct Decl {
        std::string type;
        Bytes size;
    };
    struct Op {
        std::string name, pipe;
        Cycles cycles;
        std::vector<int> writes, reads;
    };
    std::vector<Decl> decls_;
    std::vector<Op> ops_;
};

// ---- Teaching examples -------------------------------------------------------------------------
// Each is written node by node so that its lesson holds under the "seed" policy with ascending
// id order; the comments give the state the allocator sees. tests/cpp/test_examples.cpp checks
// the lessons against the planner.

// Two k-steps of a 1x1 tile matmul. L1 holds exactly two tiles and each L0 memory one: every
// tile is freed right after its last reader, so the next step reuses the same bytes.
std::string exampleFits() {
    Builder b({{"L1", 256}, {"L0A", 128}, {"L0B", 128}, {"L0C", 256}}, false);
    const BufferId c = b.alloc("L0C", 256);
    for (int k = 0; k < 2; ++k) {
        const BufferId a1 = b.alloc("L1", 128);
        b.op("COPY_IN", "MTE2", copyInCycles(128), {a1}, {});
        const BufferId b1 = b.alloc("L1", 128);
        b.op("COPY_IN", "MTE2", copyInCycles(128), {b1}, {});
        const BufferId a0 = b.alloc("L0A", 128);
        b.op("MOVE", "MTE1", 31, {a0}, {a1});
        b.release(a1);
        const BufferId b0 = b.alloc("L0B", 128);
        b.op("MOVE", "MTE1", 31, {b0}, {b1});
        b.release(b1);
        if (k == 0)
            b.op("MATMUL", "CUBE", 128, {c}, {a0, b0});
        else
            b.op("MATMUL", "CUBE", 128, {c}, {c, a0, b0});
        b.release(a0);
        b.release(b0);
    }
    b.op("COPY_OUT", "FIXP", 263, {}, {c});
    b.release(c);
    return b.finish(/*pinOrder=*/true);
}

// UB holds four 128-byte tiles; five are needed at once. The allocator spills the one whose next
// use is furthest away (x, needed only at the end) and reloads it just before that use.
std::string exampleOneSpill() {
    Builder b({{"UB", 512}}, false);
    const BufferId x = b.alloc("UB", 128);  // 0: x, a scale needed only at the end
    b.op("COPY_IN", "MTE2", copyInCycles(128), {x}, {});
    const BufferId a = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {a}, {});
    const BufferId c = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {c}, {});
    const BufferId s = b.alloc("UB", 128);
    b.op("ADD", "VECTOR", 37, {s}, {a, c});  // UB full: x, a, c, s
    const BufferId t = b.alloc("UB", 128);   // node 8: no room; x's next use is furthest
    b.op("SUB", "VECTOR", 24, {t}, {s, a});
    b.release(a);
    b.release(s);
    const BufferId u = b.alloc("UB", 128);
    b.op("MUL", "VECTOR", 38, {u}, {t, c});
    b.release(t);
    b.release(c);
    const BufferId v = b.alloc("UB", 128);
    b.op("MUL", "VECTOR", 38, {v}, {u, x});  // x is reloaded just before this node
    b.release(u);
    b.release(x);
    b.op("COPY_OUT", "MTE3", 191, {}, {v});
    b.release(v);
    return b.finish(/*pinOrder=*/true);
}

// UB 512: a@0, b@128, c@256, d@384; b and d leave, so 256 bytes are free, in two 128-byte holes.
// e needs 256 contiguous bytes: no hole is large enough and c (next use furthest) is spilled,
// although resident bytes never exceed the capacity (a, c, e = 512, later e, h, c = 512).
std::string exampleFragmentation() {
    Builder b({{"UB", 512}}, false);
    const BufferId a = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {a}, {});
    const BufferId eb = b.alloc("UB", 128);
    b.op("EXP", "VECTOR", 31, {eb}, {a});
    const BufferId c = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {c}, {});
    const BufferId d = b.alloc("UB", 128);
    b.op("EXP", "VECTOR", 31, {d}, {c});
    b.op("COPY_OUT", "MTE3", 191, {}, {eb});
    b.release(eb);
    b.op("COPY_OUT", "MTE3", 191, {}, {d});
    b.release(d);
    const BufferId e = b.alloc("UB", 256);  // node 12: 256 bytes free, largest hole 128
    b.op("COPY_IN", "MTE2", copyInCycles(256), {e}, {});
    b.op("MUL", "VECTOR", 38, {e}, {e, a});  // in place: e *= a
    b.release(a);
    const BufferId h = b.alloc("UB", 128);
    b.op("ADD", "VECTOR", 37, {h}, {e, c});  // c is reloaded just before this node
    b.release(e);
    b.release(c);
    b.op("COPY_OUT", "MTE3", 191, {}, {h});
    b.release(h);
    return b.finish(/*pinOrder=*/true);
}

// UB holds three tiles. At node 9 the candidates are q (loaded by COPY_IN, next use 6 steps
// away) and p (computed on chip, next use 9 steps away). Furthest-next-use alone would spill p,
// moving 256 bytes (write + reload); the seed's score halves p's value for that cost and spills
// q, whose copy in main memory is still valid: only its reload moves data, 128 bytes.
std::string exampleCopyInCheaper() {
    Builder b({{"UB", 384}}, false);
    const BufferId q = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {q}, {});
    const BufferId r = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {r}, {});
    const BufferId p = b.alloc("UB", 128);
    b.op("EXP", "VECTOR", 218, {p}, {r});
    b.release(r);
    const BufferId s = b.alloc("UB", 128);
    b.op("COPY_IN", "MTE2", copyInCycles(128), {s}, {});  // UB full: q, p, s
    const BufferId t = b.alloc("UB", 128);                // node 9: spill q (score 6) over p (4.5)
    b.op("EXP", "VECTOR", 218, {t}, {s});
    b.release(s);
    b.op("COPY_OUT", "MTE3", 191, {}, {t});
    b.release(t);
    const BufferId u = b.alloc("UB", 128);
    b.op("EXP", "VECTOR", 218, {u}, {q});  // node 15: q reloaded before it
    b.release(q);
    const BufferId v = b.alloc("UB", 128);
    b.op("ADD", "VECTOR", 37, {v}, {u, p});  // node 18: p's next use
    b.release(u);
    b.release(p);
    b.op("COPY_OUT", "MTE3", 191, {}, {v});
    b.release(v);
    return b.finish(/*pinOrder=*/true);
}

MatmulParams smallMatmulParams() {
    MatmulParams p;
    p.m = 2;
    p.n = 2;
    p.k = 2;
    p.capacities = {{"L1", 512}, {"L0A", 256}, {"L0B", 256}, {"L0C", 512}};
    return p;
}

MatmulParams contestMatmulParams() {
    MatmulParams p;
    p.m = 8;
    p.n = 8;
    p.k = 8;
    p.freesAtEnd = true;
    return p;
}

FlashAttentionParams contestFlashAttentionParams() {
    FlashAttentionParams p;
    p.freesAtEnd = true;
    return p;
}

ConvParams contestConvParams() {
    ConvParams p;
    p.freesAtEnd = true;
    return p;
}

struct ExampleEntry {
    ExampleInfo info;
    std::function<std::string()> make;
};

const std::vector<ExampleEntry>& examples() {
    static const std::vector<ExampleEntry> kExamples = {
        {{"fits", "Fits without spilling",
          "A two-step tile matmul in memories that hold exactly one step's tiles. Every tile is "
          "freed right after its last reader, so the second step reuses the first step's bytes: "
          "resident bytes reach each capacity and no spill is needed."},
         exampleFits},
        {{"one-spill", "One spill",
          "Five 128-byte tiles must be in a 512-byte UB at once. The allocator spills the tile "
          "whose next use is furthest away (x, needed only by the last MUL) and reloads it just "
          "before that use: one SPILL_OUT/SPILL_IN pair, 128 bytes moved (x came from a COPY_IN)."},
         exampleOneSpill},
        {{"fragmentation", "Fragmentation",
          "Resident bytes never exceed UB's 512, yet a spill happens: when the 256-byte e arrives, "
          "256 bytes are free but split in two 128-byte holes. Online best fit placed b and d "
          "apart; a planner that knew every lifetime would have put them side by side."},
         exampleFragmentation},
        {{"copyin-cheaper", "COPY_IN buffers are cheaper to spill",
          "Two idle tiles, q (loaded by COPY_IN) and p (computed on chip). p's next use is further "
          "away, but spilling it moves 256 bytes (write and reload) while q's copy in main "
          "memory is still valid, so spilling q moves only 128: the seed's score picks q."},
         exampleCopyInCheaper},
        {{"tiled-matmul-small", "Tiled matmul 2x2x2",
          "C = A x B in 2x2 tiles with a reduction of 2: A tiles are reused along a row of C and B "
          "tiles down a column. With L1 reduced to four tiles, the tiles kept for reuse compete "
          "with the ones being loaded."},
         [] { return generateTiledMatmul(smallMatmulParams()); }},
        {{"tiled-matmul", "Tiled matmul 8x8x8 (Matmul_Case0 look-alike)",
          "Generated like the contest's Matmul_Case0: 4160 nodes, 1216 buffers in L1, L0A, L0B "
          "and L0C, every FREE at the end (ascending id is the worst order for memory)."},
         [] { return generateTiledMatmul(contestMatmulParams()); }},
        {{"flash-attention-like", "Flash attention 4x4 (FlashAttention_Case0 look-alike)",
          "Generated like the contest's FlashAttention_Case0: 1716 nodes, online softmax over 4 "
          "query and 4 key/value blocks, L1, UB, L0A, L0B and L0C, every FREE at the end."},
         [] { return generateFlashAttentionLike(contestFlashAttentionParams()); }},
        {{"conv-like", "Residual conv net (Conv_Case0 look-alike)",
          "Generated in the style of the contest's Conv_Case0: 18 convolution layers over 4 channel "
          "groups in L1 with weights in L0B, residual adds and depth-to-space, every FREE at the end."},
         [] { return generateConvLike(contestConvParams()); }},
    };
    return kExamples;
}

}  // namespace

std::vector<ExampleInfo> exampleList() {
    std::vector<ExampleInfo> list;
    for (const ExampleEntry& e : examples()) list.push_back(e.info);
    return list;
}

std::string exampleGraphJson(const std::string& name) {
    std::string known;
    for (const ExampleEntry& e : examples()) {
        if (e.info.name == name) return e.make();
        known += (known.empty() ? "" : ", ") + e.info.name;
    }
    throw InputError("unknown example \"" + name + "\": expected one of " + known);
}

std::string generateTiledMatmul(const MatmulParams& p) {
    requireAtLeast("m", p.m, 1);
    requireAtLeast("n", p.n, 1);
    requireAtLeast("k", p.k, 1);
    requireAtLeast("tileBytes", p.tileBytes, 1);
    requireAtLeast("accBytes", p.accBytes, 1);
    // Its node count, checked before building: 7 per MATMUL step (two MOVEs, the MATMUL, the
    // ALLOC and FREE of both L0 tiles) and 3 per output tile and per input tile.
    const std::int64_t m = p.m, n = p.n, k = p.k;
    if (7 * m * n * k + 3 * (m * n + m * k + k * n) > kMaxNodes)
        badParam("m * n * k", "is too large (the graph would exceed " + std::to_string(kMaxNodes) + " nodes)");
    Program pr;
    std::vector<int> a(static_cast<size_t>(p.m) * p.k, -1), bt(static_cast<size_t>(p.k) * p.n, -1);
    for (int i = 0; i < p.m; ++i) {
        for (int j = 0; j < p.n; ++j) {
            const int c = pr.buffer("L0C", p.accBytes);
            for (int kk = 0; kk < p.k; ++kk) {
                int& ta = a[static_cast<size_t>(i) * p.k + kk];
                int& tb = bt[static_cast<size_t>(kk) * p.n + j];
                if (ta < 0) {
                    ta = pr.buffer("L1", p.tileBytes);
                    pr.op("COPY_IN", "MTE2", copyInCycles(p.tileBytes), {ta}, {});
                }
                if (tb < 0) {
                    tb = pr.buffer("L1", p.tileBytes);
                    pr.op("COPY_IN", "MTE2", copyInCycles(p.tileBytes), {tb}, {});
                }
                const int l0a = pr.buffer("L0A", p.tileBytes);
                const int l0b = pr.buffer("L0B", p.tileBytes);
                pr.op("MOVE", "MTE1", 31, {l0a}, {ta});
                pr.op("MOVE", "MTE1", 31, {l0b}, {tb});
                if (kk == 0)
                    pr.op("MATMUL", "CUBE", 128, {c}, {l0a, l0b});
                else
                    pr.op("MATMUL", "CUBE", 128, {c}, {c, l0a, l0b});
            }
            pr.op("COPY_OUT", "FIXP", 263, {}, {c});
        }
    }
    return pr.emit(p.capacities, p.freesAtEnd);
}

namespace {

void checkFlashAttentionParams(const FlashAttentionParams& p) {
    requireAtLeast("queryBlocks", p.queryBlocks, 1);
    requireAtLeast("kvBlocks", p.kvBlocks, 1);
    requireAtLeast("headChunks", p.headChunks, 1);
    requireAtLeast("outChunks", p.outChunks, 1);
    for (const auto& [what, v] : {std::pair<const char*, Bytes>{"tileBytes", p.tileBytes},
                                  {"l0Bytes", p.l0Bytes},
                                  {"accBytes", p.accBytes},
                                  {"rowBytes", p.rowBytes},
                                  {"statBytes", p.statBytes},
                                  {"scratchBytes", p.scratchBytes}})
        requireAtLeast(what, v, 1);
    if (static_cast<std::int64_t>(p.queryBlocks) * p.kvBlocks * (p.headChunks + p.outChunks + 10) > kMaxNodes / 8)
        badParam("queryBlocks * kvBlocks",
                 "is too large (the graph would exceed " + std::to_string(kMaxNodes) + " nodes)");
}

// Flash attention's program, block (i, j) of query block i and key/value block j at a time:
// the scores, their softmax statistics merged with the running ones, the weighted values.
class FlashAttentionProgram {
public:
    explicit FlashAttentionProgram(const FlashAttentionParams& p)
        : p_(p),
          nq_(p.queryBlocks),
          nkv_(p.kvBlocks),
          hc_(p.headChunks),
          oc_(p.outChunks),
          q_(static_cast<size_t>(nq_) * hc_, -1),
          k_(static_cast<size_t>(nkv_) * hc_, -1),
          v_(static_cast<size_t>(nkv_) * oc_, -1),
          runMax_(nq_, -1),
          runSum_(nq_, -1),
          runOut_(nq_, std::vector<int>(oc_, -1)) {}

    std::string emit() {
        for (int j = 0; j < nkv_; ++j)
            for (int i = 0; i < nq_; ++i) block(i, j);
        return pr_.emit(p_.capacities, p_.freesAtEnd);
    }

private:
    struct Scales {
        int old = -1, fresh = -1;  // the running statistics' factor, this block's
    };

    void block(int i, int j) {
        const int sAcc = scores(i, j);
        // Softmax statistics of this block.
        const int s = ub(p_.rowBytes);
        pr_.op("COPY", "FIXP", 41, {s}, {sAcc});
        const int mx = ub(p_.rowBytes);
        pr_.op("ROWMAX", "VECTOR", 310, {mx}, {s});
        const int m = ub(p_.statBytes), mScratch = ub(p_.scratchBytes);
        pr_.op("COMPACT", "VECTOR", 113, {m, mScratch}, {mx});
        const int d = ub(p_.rowBytes);
        pr_.op("SUB", "VECTOR", 151, {d}, {s, mx});
        const int e = ub(p_.rowBytes);
        pr_.op("EXP", "VECTOR", 218, {e}, {d});
        const int rs = ub(p_.rowBytes);
        pr_.op("ROWSUM", "VECTOR", 342, {rs}, {e});
        const int l = ub(p_.statBytes), lScratch = ub(p_.scratchBytes);
        pr_.op("COMPACT", "VECTOR", 113, {l, lScratch}, {rs});
        const Scales scales = mergeStatistics(i, j, m, l);
        const std::vector<int> oAcc = weightedValues(j, e);
        mergeOutputs(i, j, oAcc, scales);
        if (j == nkv_ - 1) finishQueryBlock(i);
    }

    // S = Q_i K_j^T, accumulated over head chunks.
    int scores(int i, int j) {
        const int sAcc = pr_.buffer("L0C", p_.accBytes);
        for (int c = 0; c < hc_; ++c) {
            int& qt = q_[static_cast<size_t>(i) * hc_ + c];
            int& kt = k_[static_cast<size_t>(j) * hc_ + c];
            loadTile(qt);
            loadTile(kt);
            const int qa = pr_.buffer("L0A", p_.l0Bytes);
            const int kb = pr_.buffer("L0B", p_.l0Bytes);
            pr_.op("MOVE", "MTE1", 31, {qa}, {qt});
            pr_.op("MOVE", "MTE1", 54, {kb}, {kt});
            if (c == 0)
                pr_.op("MATMUL", "CUBE", 128, {sAcc}, {qa, kb});
            else
                pr_.op("MATMUL", "CUBE", 128, {sAcc}, {sAcc, qa, kb});
        }
        return sAcc;
    }

    // Merges this block's max `m` and sum `l` with the running statistics.
    Scales mergeStatistics(int i, int j, int m, int l) {
        if (j == 0) {
            runMax_[i] = m;
            runSum_[i] = l;
            return {};
        }
        Scales scales;
        const int mn = ub(p_.statBytes);
        pr_.op("MAX", "VECTOR", 23, {mn}, {runMax_[i], m});
        const int t1 = ub(p_.statBytes);
        pr_.op("SUB", "VECTOR", 24, {t1}, {runMax_[i], mn});
        scales.old = ub(p_.statBytes);
        pr_.op("EXP", "VECTOR", 31, {scales.old}, {t1});
        const int t2 = ub(p_.statBytes);
        pr_.op("SUB", "VECTOR", 24, {t2}, {m, mn});
        scales.fresh = ub(p_.statBytes);
        pr_.op("EXP", "VECTOR", 31, {scales.fresh}, {t2});
        const int lNew = ub(p_.statBytes);
        pr_.op("MUL", "VECTOR", 25, {lNew}, {l, scales.fresh});
        const int lOld = ub(p_.statBytes);
        pr_.op("MUL", "VECTOR", 25, {lOld}, {runSum_[i], scales.old});
        const int ln = ub(p_.statBytes);
        pr_.op("ADD", "VECTOR", 24, {ln}, {lOld, lNew});
        runMax_[i] = mn;
        runSum_[i] = ln;
        return scales;
    }

    // O_j = P V_j, one L0C tile per output chunk.
    std::vector<int> weightedValues(int j, int e) {
        const int pt = pr_.buffer("L1", p_.tileBytes);
        pr_.op("COPY", "MTE3", 271, {pt}, {e});
        std::vector<int> oAcc(oc_);
        for (int h = 0; h < oc_; ++h) {
            oAcc[h] = pr_.buffer("L0C", p_.accBytes);
            int& vt = v_[static_cast<size_t>(j) * oc_ + h];
            loadTile(vt);
            const int pa = pr_.buffer("L0A", p_.l0Bytes);
            const int vb = pr_.buffer("L0B", p_.l0Bytes);
            pr_.op("MOVE", "MTE1", 31, {pa}, {pt});
            pr_.op("MOVE", "MTE1", 54, {vb}, {vt});
            pr_.op("MATMUL", "CUBE", 128, {oAcc[h]}, {pa, vb});
        }
        return oAcc;
    }

    void mergeOutputs(int i, int j, const std::vector<int>& oAcc, Scales scales) {
        for (int h = 0; h < oc_; ++h) {
            const int o = ub(p_.rowBytes);
            pr_.op("COPY", "FIXP", 41, {o}, {oAcc[h]});
            if (j == 0) {
                runOut_[i][h] = o;
            } else {
                const int on = ub(p_.rowBytes);
                pr_.op("MUL", "VECTOR", 38, {on}, {o, scales.fresh});
                const int oo = ub(p_.rowBytes);
                pr_.op("MUL", "VECTOR", 38, {oo}, {runOut_[i][h], scales.old});
                const int os = ub(p_.rowBytes);
                pr_.op("ADD", "VECTOR", 37, {os}, {oo, on});
                runOut_[i][h] = os;
            }
        }
    }

    void finishQueryBlock(int i) {
        const int r = ub(p_.statBytes);
        pr_.op("REC", "VECTOR", 37, {r}, {runSum_[i]});
        for (int h = 0; h < oc_; ++h) {
            const int of = ub(p_.rowBytes);
            pr_.op("MUL", "VECTOR", 38, {of}, {runOut_[i][h], r});
            pr_.op("COPY_OUT", "MTE3", 191, {}, {of});
        }
        pr_.op("COPY_OUT", "MTE3", 150, {}, {runSum_[i]});
        pr_.op("COPY_OUT", "MTE3", 150, {}, {runMax_[i]});
    }

    void loadTile(int& h) {
        if (h >= 0) return;
        h = pr_.buffer("L1", p_.tileBytes);
        pr_.op("COPY_IN", "MTE2", copyInCycles(p_.tileBytes), {h}, {});
    }
    int ub(Bytes size) { return pr_.buffer("UB", size); }

    const FlashAttentionParams& p_;
    Program pr_;
    const int nq_, nkv_, hc_, oc_;
    std::vector<int> q_, k_, v_;  // tiles loaded into L1, -1: not yet
    // Running state per query block: max, sum, output chunks.
    std::vector<int> runMax_, runSum_;
    std::vector<std::vector<int>> runOut_;
};

}  // namespace

std::string generateFlashAttentionLike(const FlashAttentionParams& p) {
    checkFlashAttentionParams(p);
    return FlashAttentionProgram(p).emit();
}

std::string generateConvLike(const ConvParams& p) {
    requireAtLeast("groups", p.groups, 1);
    requireAtLeast("layersPerStage", p.layersPerStage, 1);
    if (p.stageActBytes.empty()) badParam("stageActBytes", "must list at least one stage");
    for (Bytes a : p.stageActBytes) requireAtLeast("stageActBytes[]", a, 1);
    requireAtLeast("workspaceFactor", p.workspaceFactor, 1);
    requireAtLeast("weightBytes", p.weightBytes, 1);
    requireAtLeast("weightL0Bytes", p.weightL0Bytes, 1);
    if (static_cast<std::int64_t>(p.groups) * p.groups * p.layersPerStage *
            static_cast<std::int64_t>(p.stageActBytes.size()) >
        kMaxNodes / 8)
        badParam("groups * groups * layers",
                 "is too large (the graph would exceed " + std::to_string(kMaxNodes) + " nodes)");
    Program pr;
    const int g = p.groups;
    std::vector<int> cur(g);
    Bytes curBytes = p.stageActBytes.front();
    for (int i = 0; i < g; ++i) {
        cur[i] = pr.buffer("L1", curBytes);
        pr.op("COPY_IN", "MTE2", copyInCycles(curBytes), {cur[i]}, {});
    }
    for (size_t s = 0; s < p.stageActBytes.size(); ++s) {
        const Bytes act = p.stageActBytes[s];
        if (act > curBytes) {  // depth to space: fewer channels, more pixels
            for (int i = 0; i < g; ++i) {
                const int up = pr.buffer("L1", act);
                pr.op("D2S", "MTE1", 30 + act + curBytes / 2, {up}, {cur[i]});
                cur[i] = up;
            }
            curBytes = act;
        }
        std::vector<int> skip;
        for (int layer = 0; layer < p.layersPerStage; ++layer) {
            const bool residual = layer == p.layersPerStage - 1 && !skip.empty();
            std::vector<int> out(g);
            for (int o = 0; o < g; ++o) {
                const int ws = g > 1 ? pr.buffer("L1", p.workspaceFactor * act) : -1;
                for (int i = 0; i < g; ++i) {
                    const int wt = pr.buffer("L1", p.weightBytes);
                    pr.op("COPY_IN", "MTE2", copyInCycles(p.weightBytes), {wt}, {});
                    const int w0 = pr.buffer("L0B", p.weightL0Bytes);
                    pr.op("MOVE", "MTE1", 27 + p.weightL0Bytes / 2, {w0}, {wt});
                    const Cycles cycles = 30 + 2 * curBytes + act;
                    if (i < g - 1) {
                        if (i == 0)
                            pr.op("CONV", "CUBE", cycles, {ws}, {cur[i], w0});
                        else
                            pr.op("CONV", "CUBE", cycles, {ws}, {ws, cur[i], w0});
                        continue;
                    }
                    out[o] = pr.buffer("L1", act);
                    std::vector<int> reads;
                    if (ws >= 0) reads.push_back(ws);
                    reads.push_back(cur[i]);
                    reads.push_back(w0);
                    if (residual) reads.push_back(skip[o]);
                    pr.op(residual ? "CONV_ADD" : "CONV", "CUBE", cycles + (residual ? act / 4 : 0), {out[o]}, reads);
                }
            }
            cur = out;
            curBytes = act;
            if (layer == 0) skip = out;
        }
    }
    for (int i = 0; i < g; ++i) pr.op("COPY_OUT", "MTE3", 100 + 2 * curBytes, {}, {cur[i]});
    return pr.emit(p.capacities, p.freesAtEnd);
}

namespace {

// Checks the parameters and returns each memory's largest buffer: a node holds at most
// maxReads + 1 buffers, so sizes up to cap / (maxReads + 1) always fit.
std::map<std::string, Bytes> randomGraphMaxSizes(const RandomGraphParams& p) {
    requireAtLeast("operations", p.operations, 1);
    // An operation adds at most four nodes (itself, the ALLOC and FREE of the buffer it loads or
    // writes, a barrier): a quarter of the node limit always fits, a million operations included.
    if (p.operations > kMaxNodes / 4) badParam("operations", "must be at most " + std::to_string(kMaxNodes / 4));
    if (p.memories.empty()) badParam("memories", "must name at least one memory");
    requireAtLeast("minBytes", p.minBytes, 1);
    if (p.maxBytes < p.minBytes) badParam("maxBytes", "must be at least minBytes");
    if (p.maxReads < 1 || p.maxReads > 4) badParam("maxReads", "must be between 1 and 4");
    requireAtLeast("maxUsesPerBuffer", p.maxUsesPerBuffer, 1);
    if (p.lateFreePercent < 0 || p.lateFreePercent > 100) badParam("lateFreePercent", "must be between 0 and 100");
    if (p.allocEdgePercent < 0 || p.allocEdgePercent > 100) badParam("allocEdgePercent", "must be between 0 and 100");
    if (p.bufferlessPercent < 0 || p.bufferlessPercent > 100)
        badParam("bufferlessPercent", "must be between 0 and 100");
    const Capacities limits = p.capacities.empty() ? defaultCapacities() : p.capacities;
    std::map<std::string, Bytes> maxSize;
    for (const std::string& m : p.memories) {
        auto cap = limits.find(m);
        if (cap == limits.end()) badParam("memories", "names \"" + m + "\", which has no capacity");
        const Bytes most = std::min(p.maxBytes, cap->second / (p.maxReads + 1));
        if (most < 1) badParam("capacities", "of \"" + m + "\" is too small for maxReads + 1 buffers");
        maxSize[m] = most;
    }
    return maxSize;
}

// A random graph, an operation at a time: a load, a store or a computation on live buffers.
// Every draw of the generator is in a fixed sequence, so that a seed gives the same graph.
class RandomGraphProgram {
public:
    RandomGraphProgram(std::uint64_t seed, const RandomGraphParams& p)
        : p_(p), maxSize_(randomGraphMaxSizes(p)), rng_(seed), b_(p.capacities, p.freesAtEnd) {}

    std::string emit() {
        for (int step = 0; step < p_.operations; ++step) {
            releaseDueFrees();
            const std::int64_t roll = rng_.below(100);
            if (live_.empty() || roll < 25)
                load();
            else if (roll < 35)
                store();
            else
                compute();
        }
        return b_.finish();  // frees the rest, ascending BufId
    }

private:
    struct LiveBuf {
        BufferId id;
        int usesLeft;
    };

    // FREEs that were held back come due.
    void releaseDueFrees() {
        for (size_t i = 0; i < late_.size();) {
            if (--late_[i].second <= 0) {
                b_.release(late_[i].first);
                late_.erase(late_.begin() + static_cast<std::ptrdiff_t>(i));
            } else {
                ++i;
            }
        }
    }

    void load() {
        const std::string m = drawMemory();
        const Bytes size = drawSize(m);
        const BufferId id = b_.alloc(m, size);
        shaped(b_.op("COPY_IN", "MTE2", copyInCycles(size), {id}, {}), {id});
        newLive(id);
    }

    void store() {
        const size_t idx = static_cast<size_t>(rng_.below(static_cast<std::int64_t>(live_.size())));
        const BufferId stored = live_[idx].id;
        shaped(b_.op("COPY_OUT", "MTE3", transferCycles(b_.sizeOf(stored), 100, 1), {}, {stored}), {stored});
        consume(idx);
    }

    // Reads some live buffers, writes a new one.
    void compute() {
        const int want = static_cast<int>(rng_.between(1, p_.maxReads));
        std::vector<size_t> picked;
        for (int t = 0; t < want && picked.size() < live_.size(); ++t) {
            size_t idx = static_cast<size_t>(rng_.below(static_cast<std::int64_t>(live_.size())));
            while (std::find(picked.begin(), picked.end(), idx) != picked.end()) idx = (idx + 1) % live_.size();
            picked.push_back(idx);
        }
        const std::string m = drawMemory();
        const BufferId out = b_.alloc(m, drawSize(m));
        std::vector<BufferId> reads;
        for (size_t idx : picked) reads.push_back(live_[idx].id);
        const auto [name, pipe] = operationWriting(m);
        std::vector<BufferId> uses = reads;
        uses.push_back(out);
        shaped(b_.op(name, pipe, rng_.between(10, 400), {out}, reads), uses);
        // Consume from the highest index down so that erasing keeps the others valid.
        std::sort(picked.rbegin(), picked.rend());
        for (size_t idx : picked) consume(idx);
        newLive(out);
    }

    // The operation and pipe that write a buffer of memory `m`.
    std::pair<std::string, std::string> operationWriting(const std::string& m) {
        static const char* const kVectorOps[] = {"ADD", "SUB", "MUL", "EXP", "MAX", "ROWSUM"};
        if (m == "L0A" || m == "L0B") return {"MOVE", "MTE1"};
        if (m == "L0C") return {"MATMUL", "CUBE"};
        if (m == "L1") return {"COPY", "MTE3"};
        return {kVectorOps[rng_.below(6)], "VECTOR"};
    }

    // The shapes behind allocEdgePercent and bufferlessPercent (drawn only when asked for, so that
    // the other graphs stay what they were): an ALLOC of a live buffer before an operation that
    // does not use it, and a barrier between the previous operation and the next.
    void shaped(NodeId op, const std::vector<BufferId>& uses) {
        if (barrier_ >= 0) b_.dependency(barrier_, op);
        barrier_ = -1;
        if (p_.allocEdgePercent > 0 && rng_.below(100) < p_.allocEdgePercent && !live_.empty()) {
            const BufferId other = rng_.pick(live_).id;
            if (std::find(uses.begin(), uses.end(), other) == uses.end()) b_.dependency(b_.allocNodeOf(other), op);
        }
        if (p_.bufferlessPercent > 0 && rng_.below(100) < p_.bufferlessPercent) {
            barrier_ = b_.op("BARRIER", "SCALAR", rng_.between(0, 50), {}, {});
            b_.dependency(op, barrier_);
        }
    }

    Bytes drawSize(const std::string& m) {
        const Bytes hi = maxSize_.at(m), lo = std::min(p_.minBytes, hi);
        return static_cast<Bytes>(rng_.between(lo, hi));
    }
    std::string drawMemory() { return rng_.pick(p_.memories); }
    void retire(BufferId id) {
        if (!p_.freesAtEnd && rng_.below(100) < p_.lateFreePercent)
            late_.emplace_back(id, static_cast<int>(rng_.between(1, 3)));
        else
            b_.release(id);
    }
    void consume(size_t idx) {
        if (--live_[idx].usesLeft > 0) return;
        const BufferId id = live_[idx].id;
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(idx));
        retire(id);
    }
    void newLive(BufferId id) { live_.push_back({id, static_cast<int>(rng_.between(1, p_.maxUsesPerBuffer))}); }

    const RandomGraphParams& p_;
    const std::map<std::string, Bytes> maxSize_;
    Rng rng_;
    Builder b_;
    std::vector<LiveBuf> live_;
    std::vector<std::pair<BufferId, int>> late_;  // retired buffers whose FREE waits a few ops
    NodeId barrier_ = -1;
};

}  // namespace

std::string generateRandomGraph(std::uint64_t seed, const RandomGraphParams& p) {
    return RandomGraphProgram(seed, p).emit();
}

std::string generateThrash(std::uint64_t seed, const ThrashParams& p) {
    requireAtLeast("buffers", p.buffers, 1);
    requireAtLeast("operations", p.operations, 1);
    requireAtLeast("usesPerOperation", p.usesPerOperation, 1);
    requireAtLeast("bufferBytes", p.bufferBytes, 1);
    if (p.usesPerOperation > std::min<std::int64_t>(p.buffers, limits::kMaxBufsPerNode))
        badParam("usesPerOperation", "must be at most min(buffers, " + std::to_string(limits::kMaxBufsPerNode) + ")");
    if (std::int64_t{2} * p.buffers + p.operations > kMaxNodes)
        badParam("operations", "make the graph exceed " + std::to_string(kMaxNodes) + " nodes");
    if (p.bufferBytes > limits::kMaxBytes / p.usesPerOperation || p.capacity < p.usesPerOperation * p.bufferBytes)
        badParam("capacity", "must hold usesPerOperation buffers");
    Rng rng(seed);
    OJson caps;
    caps[p.memory] = p.capacity;
    std::string out = "{\n \"Capacities\": " + caps.dump() + ",\n \"Nodes\": [\n";
    NodeId id = 0;
    auto bufferNode = [&](const char* op, int b) {
        out += "  {\"Id\":" + std::to_string(id++) + ",\"Op\":\"" + op + "\",\"BufId\":" + std::to_string(b) +
               ",\"Size\":" + std::to_string(p.bufferBytes) + ",\"Type\":" + OJson(p.memory).dump() + "},\n";
    };
    for (int b = 0; b < p.buffers; ++b) bufferNode(kAlloc, b);
    std::vector<int> pool(static_cast<size_t>(p.buffers));
    for (int op = 0; op < p.operations; ++op) {
        // A partial Fisher-Yates: the first usesPerOperation entries are a uniform draw.
        std::iota(pool.begin(), pool.end(), 0);
        for (int i = 0; i < p.usesPerOperation; ++i) std::swap(pool[i], pool[i + rng.below(p.buffers - i)]);
        std::vector<int> uses(pool.begin(), pool.begin() + p.usesPerOperation);
        std::sort(uses.begin(), uses.end());
        out += "  {\"Id\":" + std::to_string(id++) +
               ",\"Op\":\"ADD\",\"Pipe\":\"VECTOR\",\"Cycles\":" + std::to_string(rng.between(10, 400)) +
               ",\"Bufs\":" + OJson(uses).dump() + "},\n";
    }
    for (int b = 0; b < p.buffers; ++b) bufferNode(kFree, b);
    out.erase(out.size() - 2, 1);  // the last node's comma
    return out + " ],\n \"Edges\": []\n}\n";
}

}  // namespace spillway
