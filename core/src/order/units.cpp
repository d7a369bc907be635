#include "units.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace spillway {
namespace {

int find(std::vector<int>& parent, int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

// Operation users of each buffer in hint order, and whether they form a chain (each user has an
// edge to the next).
struct Chains {
    std::vector<std::vector<int>> users;  // per buffer
    std::vector<char> chain;              // per buffer
};

Chains findChains(const Graph& g, const std::vector<int>& position, const Capacities& caps, Bytes linkDivisor) {
    Chains c;
    c.users.resize(g.buffers.size());
    c.chain.assign(g.buffers.size(), 0);
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        std::vector<int>& users = c.users[b];
        users = g.buffers[b].users;
        users.erase(std::unique(users.begin(), users.end()), users.end());
        std::sort(users.begin(), users.end(), [&](int x, int y) { return position[x] < position[y]; });
        if (users.size() < 2) continue;
        auto cap = caps.find(g.buffers[b].type);
        if (linkDivisor > 0 && cap != caps.end() && g.buffers[b].size * linkDivisor < cap->second) continue;
        bool linked = true;
        for (size_t i = 0; i + 1 < users.size() && linked; ++i) {
            const auto& next = g.successors[users[i]];
            linked = std::find(next.begin(), next.end(), users[i + 1]) != next.end();
        }
        c.chain[b] = linked;
    }
    return c;
}

// Lines of one memory: buffers read by two or more units, grouped by their set of units. Two
// lines overlap when they share a unit; a connected set of lines whose overlap graph is complete
// bipartite (rows each meet every column, rows never meet each other) is a grid.
void findGrids(const Graph& g, const Chains& chains, UnitModel& m, int memory) {
    std::map<std::vector<int>, int> lineIndex;
    std::vector<std::vector<int>> lines;
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        if (g.buffers[b].type != m.memories[memory] || chains.chain[b]) continue;
        std::vector<int> readers;
        for (int u : chains.users[b])
            if (m.unitOf[u] >= 0) readers.push_back(m.unitOf[u]);
        std::sort(readers.begin(), readers.end());
        readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
        if (readers.size() < 2) continue;
        if (lineIndex.emplace(readers, static_cast<int>(lines.size())).second) lines.push_back(readers);
    }
    const int n = static_cast<int>(lines.size());
    std::vector<std::vector<int>> linesOfUnit(m.units.size());
    for (int l = 0; l < n; ++l)
        for (int u : lines[l]) linesOfUnit[u].push_back(l);
    std::vector<int> side(n, -1);
    for (int start = 0; start < n; ++start) {
        if (side[start] >= 0) continue;
        std::vector<int> component = {start};
        side[start] = 0;
        bool bipartite = true;
        for (size_t i = 0; i < component.size(); ++i) {
            const int l = component[i];
            for (int u : lines[l])
                for (int other : linesOfUnit[u]) {
                    if (other == l) continue;
                    if (side[other] < 0) {
                        side[other] = 1 - side[l];
                        component.push_back(other);
                    } else if (side[other] == side[l]) {
                        bipartite = false;
                    }
                }
        }
        Grid grid;
        for (int l : component) (side[l] == 0 ? grid.rows : grid.columns).push_back(lines[l]);
        if (!bipartite || grid.rows.size() < 2 || grid.columns.size() < 2) continue;
        // Complete: every row meets every column, and each unit lies in one row and one column.
        std::vector<int> rowOf(m.units.size(), -1), columnOf(m.units.size(), -1);
        bool complete = true;
        for (size_t r = 0; r < grid.rows.size(); ++r)
            for (int u : grid.rows[r]) complete &= std::exchange(rowOf[u], static_cast<int>(r)) < 0;
        for (size_t c = 0; c < grid.columns.size(); ++c)
            for (int u : grid.columns[c]) complete &= std::exchange(columnOf[u], static_cast<int>(c)) < 0;
        std::vector<std::vector<char>> meet(grid.rows.size(), std::vector<char>(grid.columns.size(), 0));
        for (size_t u = 0; u < m.units.size(); ++u) {
            if ((rowOf[u] < 0) != (columnOf[u] < 0))
                complete = false;
            else if (rowOf[u] >= 0)
                meet[rowOf[u]][columnOf[u]] = 1;
        }
        for (const auto& row : meet) complete &= std::all_of(row.begin(), row.end(), [](char x) { return x; });
        if (complete) m.grids.push_back(std::move(grid));
    }
}

}  // namespace

UnitModel findUnits(const Graph& g, const Order& hint, const Capacities& caps, Bytes linkDivisor) {
    const int n = static_cast<int>(g.nodes.size());
    std::vector<int> position(n);
    for (int i = 0; i < static_cast<int>(hint.size()); ++i) position[g.nodeIndex.at(hint[i])] = i;
    const Chains chains = findChains(g, position, caps, linkDivisor);

    UnitModel m;
    std::map<std::string, int> memoryIndex;
    for (const auto& [type, cap] : caps) {
        memoryIndex.emplace(type, static_cast<int>(m.memories.size()));
        m.memories.push_back(type);
        m.capacity.push_back(cap);
    }
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (size_t b = 0; b < g.buffers.size(); ++b)
        if (chains.chain[b])
            for (size_t i = 0; i + 1 < chains.users[b].size(); ++i)
                parent[find(parent, chains.users[b][i])] = find(parent, chains.users[b][i + 1]);

    // Components in hint order of their first operation; single operations that feed others are
    // pulled by their consumers, single sinks run eagerly.
    std::vector<int> opsByPosition;
    for (int v = 0; v < n; ++v)
        if (!g.nodes[v].isBufferNode()) opsByPosition.push_back(v);
    std::sort(opsByPosition.begin(), opsByPosition.end(), [&](int a, int b) { return position[a] < position[b]; });
    std::vector<int> size(n, 0);
    for (int v : opsByPosition) ++size[find(parent, v)];
    m.unitOf.assign(n, -1);
    m.eager.assign(n, 0);
    std::vector<int> unitOfRoot(n, -1);
    for (int v : opsByPosition) {
        const int root = find(parent, v);
        if (size[root] == 1) {
            const bool feeds = std::any_of(g.successors[v].begin(), g.successors[v].end(),
                                           [&](int s) { return !g.nodes[s].isBufferNode(); });
            m.eager[v] = !feeds;
            continue;
        }
        if (unitOfRoot[root] < 0) {
            unitOfRoot[root] = static_cast<int>(m.units.size());
            m.units.emplace_back();
        }
        m.unitOf[v] = unitOfRoot[root];
        m.units[unitOfRoot[root]].ops.push_back(v);
    }

    // Spine and beats of each unit.
    std::vector<int> spine(m.units.size(), -1);
    for (size_t b = 0; b < g.buffers.size(); ++b) {
        if (!chains.chain[b]) continue;
        const int u = m.unitOf[chains.users[b].front()];
        if (u < 0) continue;
        const int best = spine[u];
        const auto length = chains.users[b].size();
        if (best < 0 || length > chains.users[best].size() ||
            (length == chains.users[best].size() && g.buffers[b].size > g.buffers[best].size))
            spine[u] = static_cast<int>(b);
    }
    for (size_t u = 0; u < m.units.size(); ++u) {
        Unit& unit = m.units[u];
        const int b = spine[u];
        if (b >= 0) {
            auto it = memoryIndex.find(g.buffers[b].type);
            unit.spineMemory = it == memoryIndex.end() ? -1 : it->second;
            unit.spineBytes = g.buffers[b].size;
        }
        for (size_t i = 0; i < unit.ops.size(); ++i) {
            const bool onSpine = b >= 0 && std::find(chains.users[b].begin(), chains.users[b].end(), unit.ops[i]) !=
                                               chains.users[b].end();
            if (onSpine) unit.beats.push_back(static_cast<int>(i + 1));
        }
        if (unit.beats.empty() || unit.beats.back() != static_cast<int>(unit.ops.size()))
            unit.beats.push_back(static_cast<int>(unit.ops.size()));
    }
    for (int memory = 0; memory < static_cast<int>(m.memories.size()); ++memory) findGrids(g, chains, m, memory);
    auto unitsOf = [](const Grid& grid) {
        size_t n = 0;
        for (const auto& row : grid.rows) n += row.size();
        return n;
    };
    std::stable_sort(m.grids.begin(), m.grids.end(),
                     [&](const Grid& a, const Grid& b) { return unitsOf(a) > unitsOf(b); });
    return m;
}

bool canShareSlot(const UnitModel& m, const std::vector<int>& slot, int unit) {
    const Unit& u = m.units[unit];
    if (u.spineMemory < 0) return false;
    Bytes bytes = u.spineBytes;
    for (int other : slot) {
        if (m.units[other].spineMemory != u.spineMemory) return false;
        bytes += m.units[other].spineBytes;
    }
    return bytes <= m.capacity[u.spineMemory];
}

}  // namespace spillway
