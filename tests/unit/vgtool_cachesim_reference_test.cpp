// The Valgrind tool's cache simulator (tools/vgtool/rl_cachesim.c) against a
// reference written the obvious way (each set a std::list in LRU order), on random
// traces over several cores, NINE and victim last levels, set counts that are and are
// not powers of two: every counter must agree, access by access. The simulator keeps
// L1 by time stamps and the tool skips the call for most L1 hits (it stamps the way
// inline, remembering per instruction where its line was); the traces do the same
// here, so that shortcut is checked to leave the state exactly as the call would.
#include "cachesim_fixture.hpp"
#include "rl_cachesim.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <tuple>
#include <random>
#include <vector>

namespace {

using Counters = std::array<unsigned long long, RL_CS_NCOUNTERS>;

struct Entry {
    std::uint64_t line;
    bool dirty;
    // bit v: a store wrote the line since it last came up from victim level v; only such a
    // line counts as written when it goes back into v (a clean victim otherwise, dirty or not)
    unsigned written = 0;
};
constexpr unsigned kWrittenAll = 0xe;  // levels 1..3

class Reference {
public:
    explicit Reference(const rl_cs_config& c) : levels_(c.level, c.level + c.levels), cores_(c.cores) {
        for (const auto& lv : levels_) {
            const std::uint64_t sets = lv.size / lv.line / lv.assoc;
            const int instances = (cores_ + static_cast<int>(lv.shared_by) - 1) / static_cast<int>(lv.shared_by);
            sets_.push_back(std::vector<std::vector<std::list<Entry>>>(instances, std::vector<std::list<Entry>>(sets)));
        }
    }

    void access(int core, std::uint64_t addr, unsigned size, int kind, Counters& c) {
        const unsigned line_bytes = levels_[0].line;
        const std::uint64_t first = addr / line_bytes, last = (addr + (size ? size : 1) - 1) / line_bytes;
        for (std::uint64_t line = first; line <= last; ++line) {
            if (kind == RL_CS_NT_STORE) {
                bool dirty = false;
                for (int l = 0; l < static_cast<int>(levels_.size()); ++l) {
                    auto& s = set(l, core, line);
                    for (auto it = s.begin(); it != s.end(); ++it)
                        if (it->line == line) {
                            dirty |= it->dirty;
                            s.erase(it);
                            break;
                        }
                }
                if (dirty) c[RL_CS_WRITE + static_cast<int>(levels_.size()) - 1] += line_bytes;
                continue;
            }
            fetch(0, core, line, c);
            if (kind == RL_CS_STORE) {
                set(0, core, line).front().dirty = true;
                set(0, core, line).front().written = kWrittenAll;
            }
        }
        if (kind == RL_CS_NT_STORE) c[RL_CS_NT] += size;
    }

    std::uint64_t dirty_lines(int l) const {
        std::uint64_t n = 0;
        for (const auto& inst : sets_[l])
            for (const auto& s : inst)
                for (const auto& e : s) n += e.dirty;
        return n;
    }

private:
    std::list<Entry>& set(int l, int core, std::uint64_t line) {
        auto& inst = sets_[l][core / static_cast<int>(levels_[l].shared_by)];
        return inst[line % inst.size()];
    }
    // A full set gives up its LRU entry (to be evicted by the caller once the new line is in).
    std::optional<Entry> make_room(int l, std::list<Entry>& s) const {
        if (s.size() < levels_[l].assoc) return std::nullopt;
        Entry out = s.back();
        s.pop_back();
        return out;
    }
    bool exclusive(int l) const { return l < static_cast<int>(levels_.size()) && levels_[l].exclusive; }

    // Makes the line the most recently used of level l. On a miss the LRU entry
    // leaves the list first, the line comes from below, then that entry is evicted.
    void fetch(int l, int core, std::uint64_t line, Counters& c) {
        auto& s = set(l, core, line);
        for (auto it = s.begin(); it != s.end(); ++it)
            if (it->line == line) {
                s.splice(s.begin(), s, it);
                return;
            }
        const auto out = make_room(l, s);
        s.push_front(supply(l, core, line, c));
        if (out) evict(l, core, *out, c);
    }

    // The line as it comes up into level l: dirty (and written since when) only out of a
    // victim level, which held the only copy; a NINE level below keeps its dirty copy.
    Entry supply(int l, int core, std::uint64_t line, Counters& c) {
        const unsigned bytes = levels_[l].line;
        const int below = l + 1;
        if (below == static_cast<int>(levels_.size())) {
            c[RL_CS_READ + l] += bytes;
            return {line, false};
        }
        if (exclusive(below)) {
            auto& s = set(below, core, line);
            for (auto it = s.begin(); it != s.end(); ++it)
                if (it->line == line) {
                    Entry up = *it;
                    up.written &= ~(1u << below);  // it has just come up from there
                    s.erase(it);
                    c[RL_CS_READ + l] += bytes;
                    return up;
                }
            return supply(below, core, line, c);
        }
        fetch(below, core, line, c);
        c[RL_CS_READ + l] += bytes;
        return {line, false};
    }

    void insert(int l, int core, Entry e, Counters& c) {
        auto& s = set(l, core, e.line);
        for (auto it = s.begin(); it != s.end(); ++it)
            if (it->line == e.line) {
                it->dirty |= e.dirty;
                it->written |= e.written;
                s.splice(s.begin(), s, it);
                return;
            }
        const auto out = make_room(l, s);
        s.push_front(e);
        if (out) evict(l, core, *out, c);
    }

    void evict(int l, int core, Entry e, Counters& c) {
        const unsigned bytes = levels_[l].line;
        const int below = l + 1;
        if (below == static_cast<int>(levels_.size())) {
            if (e.dirty) c[RL_CS_WRITE + l] += bytes;
        } else if (exclusive(below)) {
            const bool written = e.dirty && (e.written & (1u << below));
            c[(written ? RL_CS_WRITE : RL_CS_CLEAN_VICTIM) + l] += bytes;  // counted apart: no store since it came up
            insert(below, core, e, c);
        } else if (e.dirty) {
            c[RL_CS_WRITE + l] += bytes;
            insert(below, core, e, c);
        }
    }

    std::vector<rl_cs_level> levels_;
    int cores_;
    std::vector<std::vector<std::vector<std::list<Entry>>>> sets_;  // [level][instance][set]
};

using Sim = roofline::testing::CacheSim;

// What the tool's generated code does before calling: the way this instruction's
// last access ended in, if it holds the line (dirty, for a store), gets ++clock.
bool inline_hit(Sim& sim, int core, long long memo, std::uint64_t addr, unsigned size, int kind) {
    if (memo < 0 || kind == RL_CS_NT_STORE) return false;
    const unsigned shift = sim.cs.lv[0].line_shift;
    const std::uint64_t line = addr >> shift;
    if (((addr + size - 1) >> shift) != line) return false;
    auto* way = reinterpret_cast<rl_cs_way*>(reinterpret_cast<char*>(rl_cs_l1_ways(&sim.cs, core)) + memo);
    // A load hits a clean or dirty line no store left unread; a store a dirty one written
    // since it came up, read or not; either, whoever wrote it.
    const std::uint64_t ignored = RL_CS_CTX_MASK | (kind == RL_CS_LOAD ? RL_CS_DIRTY | RL_CS_WRITTEN_ALL : RL_CS_UNREAD);
    const std::uint64_t required = kind == RL_CS_LOAD ? 0 : RL_CS_DIRTY | RL_CS_WRITTEN_ALL;
    if ((way->entry | ignored) != (RL_CS_TAG(line) | ignored | required)) return false;
    way->stamp = ++sim.cs.clock;
    return true;
}

// Write-backs charged to another context than the current one (rl_cs_charge_fn), by
// (writer, now, counter): bytes.
using Charges = std::map<std::tuple<unsigned, unsigned, int>, unsigned long long>;
void record_charge(void* arg, unsigned writer, unsigned now, int counter, unsigned long long bytes, unsigned long long*) {
    (*static_cast<Charges*>(arg))[{writer, now, counter}] += bytes;
}

void compare_on_random_trace(const rl_cs_config& cfg, unsigned seed) {
    Sim sim(cfg);
    Sim calls_only(cfg);  // every access through rl_cs_access: what the inline hits must not change
    Reference ref(cfg);
    // Writer contexts switch now and then (the tool's regions opening and closing): the
    // stores the inline check lets by (to lines dirty already) must not change whose
    // write-backs are whose.
    Charges charged, charged_by_calls;
    sim.cs.charge = record_charge;
    sim.cs.charge_arg = &charged;
    calls_only.cs.charge = record_charge;
    calls_only.cs.charge_arg = &charged_by_calls;
    Counters got{}, want{}, called{};
    std::mt19937_64 rng(seed);
    const std::uint64_t footprint = 4 * cfg.level[cfg.levels - 1].size;  // every level misses sometimes
    constexpr int sites = 12;                                            // "instructions"
    std::vector<std::uint64_t> cursor(sites);
    std::vector<long long> memo(sites, -1);
    for (auto& p : cursor) p = rng() % footprint;
    long long inlined = 0;
    for (int i = 0; i < 200000; ++i) {
        const int site = static_cast<int>(rng() % sites);
        const int core = static_cast<int>(rng() % static_cast<unsigned>(cfg.cores));
        // Streams with their own strides (some a multiple of the set span, so they
        // share sets), a jump now and then, sizes that sometimes cross a line.
        const std::uint64_t stride = site < 4 ? 8 : site < 8 ? 4096 + 8 * site : 1 + rng() % 200;
        if (rng() % 97 == 0) cursor[site] = rng() % footprint;
        const std::uint64_t addr = (1 << 20) + cursor[site];
        cursor[site] = (cursor[site] + stride) % footprint;
        const unsigned size = rng() % 11 == 0 ? 32 : 8;
        const unsigned roll = static_cast<unsigned>(rng() % 100);
        const int kind = roll < 60 ? RL_CS_LOAD : roll < 98 ? RL_CS_STORE : RL_CS_NT_STORE;
        if (rng() % 2000 == 0) sim.cs.ctx_bits = calls_only.cs.ctx_bits = (rng() % 3) << RL_CS_CTX_SHIFT;
        ref.access(core, addr, size, kind, want);
        rl_cs_access(&calls_only.cs, core, addr, size, kind, called.data());
        if (inline_hit(sim, core, memo[site], addr, size, kind)) {
            ++inlined;
            continue;
        }
        const long long at = rl_cs_access(&sim.cs, core, addr, size, kind, got.data());
        if (at >= 0) memo[site] = at;
        for (int k = 0; k < RL_CS_ACCESSES; ++k)
            ASSERT_EQ(got[k], want[k]) << "counter " << k << " after access " << i << " (seed " << seed << ")";
        for (int k = RL_CS_CLEAN_VICTIM; k < RL_CS_NCOUNTERS; ++k)
            ASSERT_EQ(got[k], want[k]) << "clean victims " << k - RL_CS_CLEAN_VICTIM << " after access " << i;
    }
    for (int l = 0; l < cfg.levels; ++l) EXPECT_EQ(rl_cs_dirty_lines(&sim.cs, l), ref.dirty_lines(l)) << "L" << l + 1;
    EXPECT_GT(inlined, 10000) << "the trace should exercise the inline hits";
    EXPECT_GT(want[RL_CS_READ + cfg.levels - 1], 0u) << "the trace should reach DRAM";
    // The unread write-allocate fills (the reference does not model them): the inline check
    // must leave a load of a line a store brought in to the call, which clears its mark.
    EXPECT_EQ(got[RL_CS_WRITE_ALLOCATE_UNREAD], called[RL_CS_WRITE_ALLOCATE_UNREAD]);
    EXPECT_GT(called[RL_CS_WRITE_ALLOCATE_UNREAD], 0u) << "the trace should write lines it never reads";
    EXPECT_EQ(charged, charged_by_calls) << "write-backs charged to their writers' contexts";
    EXPECT_GT(charged.size(), 3u) << "the trace should write back lines written in other contexts";
}

rl_cs_config hierarchy(bool victim_l3, int cores, unsigned l2_bytes) {
    rl_cs_config c{};
    c.levels = 3;
    c.cores = cores;
    c.level[0] = {1024, 64, 4, 1, 0};
    c.level[1] = {l2_bytes, 64, 8, 1, 0};
    c.level[2] = {16384, 64, 16, 2, victim_l3 ? 1 : 0};
    return c;
}

TEST(CacheSimReference, NineHierarchyOneCore) { compare_on_random_trace(hierarchy(false, 1, 4096), 1); }
TEST(CacheSimReference, VictimLastLevelOneCore) { compare_on_random_trace(hierarchy(true, 1, 4096), 2); }
TEST(CacheSimReference, VictimLastLevelSharedByTwoOfFourCores) { compare_on_random_trace(hierarchy(true, 4, 4096), 3); }
TEST(CacheSimReference, NineSharedAndSetCountsNotPowersOfTwo) {
    auto c = hierarchy(false, 3, 3072);  // 6 L2 sets
    c.level[0] = {768, 64, 4, 1, 0};     // 3 L1 sets
    compare_on_random_trace(c, 4);
}
TEST(CacheSimReference, TwoLevelsDirectMappedL1) {
    rl_cs_config c{};
    c.levels = 2;
    c.cores = 2;
    c.level[0] = {512, 64, 1, 1, 0};
    c.level[1] = {8192, 64, 8, 2, 1};
    compare_on_random_trace(c, 5);
}

} // namespace
