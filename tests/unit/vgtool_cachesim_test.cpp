// The Valgrind tool's cache simulator (tools/vgtool/rl_cachesim.c, plain C, compiled
// into these tests as it is into the tool), against traffic known on paper: streams,
// write-allocate, reuse within a level, strides, victim caches, shared levels.
#include "cachesim_fixture.hpp"
#include "rl_cachesim.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Counters = std::array<unsigned long long, RL_CS_NCOUNTERS>;

using roofline::testing::zeroed;

constexpr unsigned long long KiB = 1024;

// A small hierarchy with the shape of a Zen core (private L1 and L2, L3 shared by
// `cores`), scaled down so the tests stream many times each level quickly.
rl_cs_config small_hierarchy(bool exclusive_l3, int cores = 1, unsigned l3_shared_by = 8) {
    rl_cs_config c{};
    c.levels = 3;
    c.cores = cores;
    c.level[0] = {4 * KiB, 64, 8, 1, 0};
    c.level[1] = {16 * KiB, 64, 8, 1, 0};
    c.level[2] = {64 * KiB, 64, 16, l3_shared_by, exclusive_l3 ? 1 : 0};
    return c;
}

struct SweptSim : roofline::testing::CacheSim {
    using CacheSim::CacheSim;
    void access(std::uint64_t addr, unsigned size, int kind, Counters& c, int core = 0) {
        rl_cs_access(&cs, core, addr, size, kind, c.data());
    }
};

unsigned long long read_at(const Counters& c, int b) { return c[RL_CS_READ + b]; }
unsigned long long written_at(const Counters& c, int b) { return c[RL_CS_WRITE + b]; }

// 8-byte elements, as a compiled loop over doubles touches them.
void sweep(SweptSim& sim, std::uint64_t base, std::uint64_t bytes, int kind, Counters& c, int core = 0) {
    for (std::uint64_t a = base; a < base + bytes; a += 8) sim.access(a, 8, kind, c, core);
}

std::string init_error(rl_cs_config c) {
    rl_cs cs{};
    char err[200] = "";
    const int r = rl_cs_init(&cs, &c, zeroed, err, sizeof err);
    for (int l = 0; l < RL_CS_MAX_LEVELS; ++l) {
        std::free(cs.lv[l].inst);
        std::free(cs.lv[l].of_core);
    }
    return r == 0 ? "" : err;
}

TEST(CacheSim, ColdStreamReadCrossesEveryBoundaryOnce) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    const std::uint64_t n = 1024 * KiB;  // 16x the last level
    sweep(sim, 1 << 20, n, RL_CS_LOAD, c);
    for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(read_at(c, b), n) << "boundary " << b;
        EXPECT_EQ(written_at(c, b), 0u) << "boundary " << b;
    }
    EXPECT_EQ(c[RL_CS_ACCESSES], n / 8);
    EXPECT_EQ(c[RL_CS_L1_HITS], n / 8 - n / 64);  // 7 of 8 elements of each line hit
}

// STREAM triad a[i] = b[i] + s*c[i] with write-allocate: 24 B read and 8 B written per
// iteration at DRAM, 32 B in all (the figure the issue names), once the dirty lines
// still held are written back.
TEST(CacheSim, TriadMovesThirtyTwoBytesPerIterationWithWriteAllocate) {
    for (bool exclusive : {false, true}) {
        SweptSim sim(small_hierarchy(exclusive));
        Counters c{};
        const std::uint64_t n = 64 * 1024;  // elements: 512 KiB per array, 8x the last level
        const std::uint64_t a = 1 << 24, b = 2 << 24, s = 3 << 24;
        for (std::uint64_t i = 0; i < n; ++i) {
            sim.access(b + 8 * i, 8, RL_CS_LOAD, c);
            sim.access(s + 8 * i, 8, RL_CS_LOAD, c);
            sim.access(a + 8 * i, 8, RL_CS_STORE, c);
        }
        EXPECT_EQ(read_at(c, 2), 24 * n) << "exclusive " << exclusive;
        const auto dirty_before = rl_cs_dirty_lines(&sim.cs, 0) + rl_cs_dirty_lines(&sim.cs, 1) +
                                  rl_cs_dirty_lines(&sim.cs, 2);
        EXPECT_GT(dirty_before, 0u);
        EXPECT_LT(written_at(c, 2), 8 * n);  // lines still dirty are not written yet
        rl_cs_flush(&sim.cs, c.data());
        EXPECT_EQ(written_at(c, 2), 8 * n) << "exclusive " << exclusive;
        EXPECT_EQ(rl_cs_dirty_lines(&sim.cs, 0) + rl_cs_dirty_lines(&sim.cs, 1) + rl_cs_dirty_lines(&sim.cs, 2), 0u);
    }
}

// Write-allocate fills no load reads (issue 35: what non-temporal stores would save):
// a stream only written counts every line it brought from DRAM, once, when it goes back.
TEST(CacheSim, WriteOnlyStreamCountsEveryWriteAllocateFillAsUnread) {
    for (bool exclusive : {false, true}) {
        SweptSim sim(small_hierarchy(exclusive));
        Counters c{};
        const std::uint64_t n = 512 * KiB;  // 8x the last level
        sweep(sim, 1 << 24, n, RL_CS_STORE, c);
        rl_cs_flush(&sim.cs, c.data());
        EXPECT_EQ(read_at(c, 2), n) << "exclusive " << exclusive;
        EXPECT_EQ(written_at(c, 2), n) << "exclusive " << exclusive;
        EXPECT_EQ(c[RL_CS_WRITE_ALLOCATE_UNREAD], n) << "exclusive " << exclusive;
    }
}

// A REP STOS/MOVS element's store (RL_CS_REP_STORE) is simulated as any store, write-allocate and
// all, and its fills are counted apart (RL_CS_REP_FILL): the reads fast strings may skip. A plain
// store's fills are not; a line the string store finds in L1 already costs no fill.
TEST(CacheSim, RepStringStoresAreStoresWithTheirFillsCountedApart) {
    for (bool exclusive : {false, true}) {
        SweptSim plain(small_hierarchy(exclusive)), rep(small_hierarchy(exclusive));
        Counters p{}, r{};
        const std::uint64_t n = 512 * KiB;  // 8x the last level
        sweep(plain, 1 << 24, n, RL_CS_STORE, p);
        sweep(rep, 1 << 24, n, RL_CS_REP_STORE, r);
        rl_cs_flush(&plain.cs, p.data());
        rl_cs_flush(&rep.cs, r.data());
        for (int b = 0; b < 3; ++b) {
            EXPECT_EQ(read_at(r, b), read_at(p, b)) << "boundary " << b << ", exclusive " << exclusive;
            EXPECT_EQ(written_at(r, b), written_at(p, b)) << "boundary " << b << ", exclusive " << exclusive;
            EXPECT_EQ(r[RL_CS_REP_FILL + b], read_at(r, b)) << "boundary " << b << ", exclusive " << exclusive;
            EXPECT_EQ(p[RL_CS_REP_FILL + b], 0u) << "boundary " << b << ", exclusive " << exclusive;
        }
        EXPECT_EQ(r[RL_CS_WRITE_ALLOCATE_UNREAD], p[RL_CS_WRITE_ALLOCATE_UNREAD]);
    }
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    sim.access(1 << 24, 8, RL_CS_LOAD, c);  // the line is in L1 already
    const auto read = read_at(c, 0);
    sim.access((1 << 24) + 8, 8, RL_CS_REP_STORE, c);
    EXPECT_EQ(read_at(c, 0), read);
    EXPECT_EQ(c[RL_CS_REP_FILL + 0], 0u);
}

// y = a x + y: each stored line was just loaded, so no fill is wasted; a triad's output
// stream (a = b + s c) is, beside its two read streams.
TEST(CacheSim, ReadModifyWriteStreamWastesNoWriteAllocateFill) {
    for (bool exclusive : {false, true}) {
        SweptSim sim(small_hierarchy(exclusive));
        Counters daxpy{}, triad{};
        const std::uint64_t n = 64 * 1024;  // elements: 512 KiB per array
        const std::uint64_t x = 1 << 24, y = 2 << 24, z = 3 << 24;
        for (std::uint64_t i = 0; i < n; ++i) {
            sim.access(x + 8 * i, 8, RL_CS_LOAD, daxpy);
            sim.access(y + 8 * i, 8, RL_CS_LOAD, daxpy);
            sim.access(y + 8 * i, 8, RL_CS_STORE, daxpy);
        }
        rl_cs_flush(&sim.cs, daxpy.data());
        EXPECT_EQ(written_at(daxpy, 2), 8 * n) << "exclusive " << exclusive;
        EXPECT_EQ(daxpy[RL_CS_WRITE_ALLOCATE_UNREAD], 0u) << "exclusive " << exclusive;
        for (std::uint64_t i = 0; i < n; ++i) {
            sim.access(x + 8 * i, 8, RL_CS_LOAD, triad);
            sim.access(y + 8 * i, 8, RL_CS_LOAD, triad);
            sim.access(z + 8 * i, 8, RL_CS_STORE, triad);
        }
        rl_cs_flush(&sim.cs, triad.data());
        EXPECT_EQ(triad[RL_CS_WRITE_ALLOCATE_UNREAD], 8 * n) << "exclusive " << exclusive;
    }
}

// A line a store brought in is unread until a load reads it, in L1 or in a level below
// after L1 gave it up; evicted to DRAM unread it counts, read it does not.
TEST(CacheSim, ALoadAfterTheStoreMissClearsTheUnreadMark) {
    for (bool exclusive : {false, true}) {
        for (bool load_in_l1 : {false, true}) {
            for (bool load_it : {false, true}) {
                SweptSim sim(small_hierarchy(exclusive));
                Counters c{};
                const std::uint64_t line = 1 << 24;
                sim.access(line, 8, RL_CS_STORE, c);
                if (!load_in_l1) sweep(sim, 2 << 24, 8 * KiB, RL_CS_LOAD, c);  // 2x L1: the line moves to L2
                if (load_it) sim.access(line + 8, 8, RL_CS_LOAD, c);
                sweep(sim, 3 << 24, 1024 * KiB, RL_CS_LOAD, c);  // 16x the last level: out to DRAM
                const std::string what = std::string(exclusive ? "victim L3, " : "NINE L3, ") +
                                         (load_in_l1 ? "in L1, " : "in L2, ") + (load_it ? "loaded" : "not loaded");
                EXPECT_EQ(written_at(c, 2), 64u) << what;
                EXPECT_EQ(c[RL_CS_WRITE_ALLOCATE_UNREAD], load_it ? 0u : 64u) << what;
            }
        }
    }
}

// The tool's inline L1 hit check compares a way's whole entry with the line's tag: a load
// must not pass it on a line still marked unread (the call clears the mark), a store may.
TEST(CacheSim, TheUnreadMarkIsOnTheL1EntryUntilALoadGoesThroughTheCall) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    const std::uint64_t addr = 1 << 24;
    const long long at = rl_cs_access(&sim.cs, 0, addr, 8, RL_CS_STORE, c.data());
    ASSERT_GE(at, 0);
    const auto* way = reinterpret_cast<const rl_cs_way*>(reinterpret_cast<const char*>(rl_cs_l1_ways(&sim.cs, 0)) + at);
    const std::uint64_t tag = RL_CS_TAG(addr >> 6);
    EXPECT_EQ(way->entry, tag | RL_CS_DIRTY | RL_CS_WRITTEN_ALL | RL_CS_UNREAD);
    rl_cs_access(&sim.cs, 0, addr + 8, 8, RL_CS_STORE, c.data());  // a store keeps it
    EXPECT_EQ(way->entry, tag | RL_CS_DIRTY | RL_CS_WRITTEN_ALL | RL_CS_UNREAD);
    rl_cs_access(&sim.cs, 0, addr + 16, 8, RL_CS_LOAD, c.data());
    EXPECT_EQ(way->entry, tag | RL_CS_DIRTY | RL_CS_WRITTEN_ALL);
    // A load's miss from DRAM leaves no mark.
    const long long loaded = rl_cs_access(&sim.cs, 0, 2 << 24, 8, RL_CS_LOAD, c.data());
    const auto* clean = reinterpret_cast<const rl_cs_way*>(reinterpret_cast<const char*>(rl_cs_l1_ways(&sim.cs, 0)) + loaded);
    EXPECT_EQ(clean->entry, RL_CS_TAG((2u << 24) >> 6));
}

// A working set that fits L2 (not L1), read 20 times: L1<->L2 moves it every time,
// DRAM only the first.
TEST(CacheSim, WorkingSetInL2IsReadFromDramOnce) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    const std::uint64_t ws = 12 * KiB;
    for (int pass = 0; pass < 20; ++pass) sweep(sim, 1 << 20, ws, RL_CS_LOAD, c);
    EXPECT_EQ(read_at(c, 0), 20 * ws);
    EXPECT_EQ(read_at(c, 1), ws);
    EXPECT_EQ(read_at(c, 2), ws);
}

// One double per line: every load brings a whole line, 8x the bytes loaded.
TEST(CacheSim, StrideOfOneLineMovesEightTimesTheBytesLoaded) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    const std::uint64_t loads = 16 * 1024;
    for (std::uint64_t i = 0; i < loads; ++i) sim.access((1 << 20) + 64 * i, 8, RL_CS_LOAD, c);
    EXPECT_EQ(read_at(c, 2), 8 * (8 * loads));
    EXPECT_EQ(c[RL_CS_L1_HITS], 0u);
}

// A cyclic sweep over 72 KiB: more than the 64 KiB L3 alone (LRU then misses every
// line), less than L2 + L3 when L3 is a victim cache of L2, as on AMD.
TEST(CacheSim, VictimLastLevelAddsTheCapacityOfTheLevelAbove) {
    const std::uint64_t ws = 72 * KiB;
    Counters nine{}, victim{};
    {
        SweptSim sim(small_hierarchy(false));
        for (int pass = 0; pass < 10; ++pass) sweep(sim, 1 << 20, ws, RL_CS_LOAD, nine);
    }
    {
        SweptSim sim(small_hierarchy(true));
        for (int pass = 0; pass < 10; ++pass) sweep(sim, 1 << 20, ws, RL_CS_LOAD, victim);
    }
    EXPECT_EQ(read_at(nine, 2), 10 * ws);
    EXPECT_EQ(read_at(victim, 2), ws);
    // Each later pass: L2 misses everything; the victim L3 serves it and takes L2's victims.
    EXPECT_EQ(read_at(victim, 1), 9 * ws);
    // Every line evicted from L2 moved to L3, all clean: counted apart from the bytes written
    // (the roofs count what loads and stores move).
    EXPECT_EQ(victim[RL_CS_CLEAN_VICTIM + 1], 10 * ws - 16 * KiB);
    EXPECT_EQ(written_at(victim, 1), 0u);
}

// An L3-resident triad whose three arrays the program wrote first (every line dirty
// toward DRAM): per iteration 24 B come up from L3 and 8 B, a's, go back written, as
// the bench's L3 roof counts it (nominal + write-allocate), NINE or victim L3. In a
// victim L3, b's and c's lines also move down on every pass, dirty but unchanged since
// they came up: counted apart (clean victims), not as written; their DRAM write-back
// still happens, once, at the end.
TEST(CacheSim, LinesWrittenBeforeMoveAsCleanVictimsThroughAVictimL3) {
    for (bool exclusive : {false, true}) {
        SweptSim sim(small_hierarchy(exclusive));
        Counters setup{}, c{};
        const std::uint64_t n = 1024;  // elements: 8 KiB per array, 24 KiB in all (L2 16 KiB, L3 64 KiB)
        const std::uint64_t a = 1 << 24, b = 2 << 24, s = 3 << 24;
        for (std::uint64_t base : {a, b, s}) sweep(sim, base, 8 * n, RL_CS_STORE, setup);
        auto triad = [&](Counters& into) {
            for (std::uint64_t i = 0; i < n; ++i) {
                sim.access(b + 8 * i, 8, RL_CS_LOAD, into);
                sim.access(s + 8 * i, 8, RL_CS_LOAD, into);
                sim.access(a + 8 * i, 8, RL_CS_STORE, into);
            }
        };
        // Two passes first: the second writes back the lines the setup left dirty in L2 (it
        // read them there); the next ones start where each leaves the caches.
        triad(setup);
        triad(setup);
        const int passes = 10;
        for (int pass = 0; pass < passes; ++pass) triad(c);
        const std::string what = exclusive ? "victim L3" : "NINE L3";
        EXPECT_EQ(read_at(c, 1), 24 * n * passes) << what;
        EXPECT_EQ(written_at(c, 1), 8 * n * passes) << what;
        EXPECT_EQ(read_at(c, 2), 0u) << what;  // resident: nothing from DRAM
        EXPECT_EQ(written_at(c, 2), 0u) << what;
        EXPECT_EQ(c[RL_CS_CLEAN_VICTIM + 1], exclusive ? 16 * n * passes : 0) << what << ": b and c, dirty from before";
        Counters end{};
        rl_cs_flush(&sim.cs, end.data());
        EXPECT_EQ(written_at(setup, 2) + written_at(c, 2) + written_at(end, 2), 24 * n) << what << ": each line once";
    }
}

// Each line carries the context (the tool's open regions) of the store that made its
// write-backs due; a write-back in another context is reported with the writer's, so the
// tool can charge the region that wrote the line rather than the one whose accesses
// evicted it. The counters of the access still count it, as before.
struct Charged {
    unsigned long long bytes[4][RL_CS_NCOUNTERS] = {};  // [writer][counter]
    unsigned now = ~0u;
    int calls = 0;
};
void note_charge(void* arg, unsigned writer, unsigned now, int counter, unsigned long long bytes, unsigned long long*) {
    auto* c = static_cast<Charged*>(arg);
    if (writer < 4) c->bytes[writer][counter] += bytes;
    c->now = now;
    ++c->calls;
}

TEST(CacheSim, WriteBacksNameTheContextOfTheStoreThatDirtiedTheLine) {
    for (bool exclusive : {false, true}) {
        SweptSim sim(small_hierarchy(exclusive));
        Charged charged;
        sim.cs.charge = note_charge;
        sim.cs.charge_arg = &charged;
        Counters c{};
        const std::uint64_t a = 32 * KiB;  // fits L3 (64 KiB), not L2 (16 KiB)
        sim.cs.ctx_bits = 1ull << RL_CS_CTX_SHIFT;
        sweep(sim, 1 << 24, a, RL_CS_STORE, c);
        const Counters after_writing = c;
        sim.cs.ctx_bits = 2ull << RL_CS_CTX_SHIFT;
        sweep(sim, 2 << 24, 1024 * KiB, RL_CS_LOAD, c);  // 16x L3: evicts everything
        const std::string what = exclusive ? "victim L3" : "NINE L3";
        EXPECT_EQ(charged.now, 2u) << what;
        // the lines context 1 wrote and that were still above each boundary when it ended
        for (int b = 0; b < 3; ++b)
            EXPECT_EQ(charged.bytes[1][RL_CS_WRITE + b], written_at(c, b) - written_at(after_writing, b)) << what << " " << b;
        EXPECT_EQ(charged.bytes[1][RL_CS_WRITE + 2], a) << what << ": all of it reaches DRAM during the reads";
        EXPECT_EQ(charged.bytes[1][RL_CS_WRITE_ALLOCATE_UNREAD], a) << what << ": never read";
        EXPECT_EQ(charged.bytes[1][RL_CS_READ + 2], 0u) << what << ": reads are the current context's";
        // Context 2 stores again to lines context 1 made dirty, still in L1: no write-back
        // more, and they stay context 1's; context 3's stream evicts them.
        sim.cs.ctx_bits = 1ull << RL_CS_CTX_SHIFT;
        sweep(sim, 3 << 24, 2 * KiB, RL_CS_STORE, c);
        sim.cs.ctx_bits = 2ull << RL_CS_CTX_SHIFT;
        sweep(sim, 3 << 24, 2 * KiB, RL_CS_STORE, c);
        sim.cs.ctx_bits = 3ull << RL_CS_CTX_SHIFT;
        sweep(sim, 4 << 24, 1024 * KiB, RL_CS_LOAD, c);
        EXPECT_EQ(charged.bytes[1][RL_CS_WRITE + 2], a + 2 * KiB) << what;
        EXPECT_EQ(charged.bytes[2][RL_CS_WRITE + 2], 0u) << what;
    }
}

TEST(CacheSim, NonTemporalStoresGoToDramWithoutReadingTheLine) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    const std::uint64_t n = 256 * KiB;
    sweep(sim, 1 << 20, n, RL_CS_NT_STORE, c);
    EXPECT_EQ(c[RL_CS_NT], n);
    EXPECT_EQ(read_at(c, 2), 0u);
    EXPECT_EQ(written_at(c, 2), 0u);
    // A dirty cached copy is written back before the line is dropped.
    Counters d{};
    sim.access(1 << 24, 8, RL_CS_STORE, d);
    sim.access(1 << 24, 8, RL_CS_NT_STORE, d);
    EXPECT_EQ(written_at(d, 2), 64u);
    EXPECT_EQ(rl_cs_dirty_lines(&sim.cs, 0), 0u);
}

TEST(CacheSim, SharedLastLevelServesTheSecondCoreWithoutDram) {
    const std::uint64_t ws = 12 * KiB;
    Counters shared{}, separate{};
    {
        SweptSim sim(small_hierarchy(false, 2, 2));
        sweep(sim, 1 << 20, ws, RL_CS_LOAD, shared, 0);
        sweep(sim, 1 << 20, ws, RL_CS_LOAD, shared, 1);
    }
    {
        SweptSim sim(small_hierarchy(false, 2, 1));
        sweep(sim, 1 << 20, ws, RL_CS_LOAD, separate, 0);
        sweep(sim, 1 << 20, ws, RL_CS_LOAD, separate, 1);
    }
    EXPECT_EQ(read_at(shared, 1), 2 * ws);  // each core's private L2 filled from L3
    EXPECT_EQ(read_at(shared, 2), ws);      // DRAM once
    EXPECT_EQ(read_at(separate, 2), 2 * ws);
}

TEST(CacheSim, DirtyLinesAreWrittenBackLevelByLevelOnFlush) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    sweep(sim, 1 << 20, 2 * KiB, RL_CS_STORE, c);
    EXPECT_EQ(rl_cs_dirty_lines(&sim.cs, 0), 32u);
    EXPECT_EQ(written_at(c, 0), 0u);
    rl_cs_flush(&sim.cs, c.data());
    for (int b = 0; b < 3; ++b) EXPECT_EQ(written_at(c, b), 2 * KiB) << "boundary " << b;
}

// Least recently used, exactly: a 2-way set sees A B A C, so B is the one evicted.
TEST(CacheSim, ReplacementIsLeastRecentlyUsed) {
    rl_cs_config c{};
    c.levels = 1;
    c.cores = 1;
    c.level[0] = {128, 64, 2, 1, 0};  // one set of two ways
    SweptSim sim(c);
    Counters k{};
    const std::uint64_t A = 0x1000, B = 0x2000, C = 0x3000;
    for (auto line : {A, B, A, C}) sim.access(line, 8, RL_CS_LOAD, k);
    EXPECT_EQ(read_at(k, 0), 3 * 64u);
    sim.access(A, 8, RL_CS_LOAD, k);
    EXPECT_EQ(read_at(k, 0), 3 * 64u) << "A was used after B: it must still be there";
    sim.access(B, 8, RL_CS_LOAD, k);
    EXPECT_EQ(read_at(k, 0), 4 * 64u) << "B was the least recently used: evicted by C";
}

TEST(CacheSim, AccessSpanningTwoLinesTouchesBoth) {
    SweptSim sim(small_hierarchy(false));
    Counters c{};
    sim.access((1 << 20) + 60, 8, RL_CS_LOAD, c);
    EXPECT_EQ(c[RL_CS_ACCESSES], 2u);
    EXPECT_EQ(read_at(c, 0), 128u);
}

TEST(CacheSim, SetCountThatIsNotAPowerOfTwo) {
    rl_cs_config c = small_hierarchy(false);
    c.level[1] = {24 * KiB, 64, 4, 1, 0};  // 96 sets
    SweptSim sim(c);
    Counters k{};
    for (int pass = 0; pass < 5; ++pass) sweep(sim, 1 << 20, 20 * KiB, RL_CS_LOAD, k);
    EXPECT_EQ(read_at(k, 1), 20 * KiB);  // fits the 24 KiB L2 once its sets are spread evenly
}

TEST(CacheSim, ImpossibleHierarchiesAreRefusedWithAReason) {
    rl_cs_config c = small_hierarchy(false);
    EXPECT_EQ(init_error(c), "");
    c.level[0].line = 48;
    EXPECT_NE(init_error(c).find("L1: the line size must be a power of two"), std::string::npos);
    c = small_hierarchy(false);
    c.level[1].assoc = 0;
    EXPECT_NE(init_error(c).find("L2: the associativity"), std::string::npos);
    c = small_hierarchy(false);
    c.level[2].size = 1000;
    EXPECT_NE(init_error(c).find("L3: the size must be a whole number of sets"), std::string::npos);
    c = small_hierarchy(false);
    c.level[2].size = 8ull << 30;
    EXPECT_NE(init_error(c).find("at most 4 GiB"), std::string::npos);
    c = small_hierarchy(false);
    c.level[0].exclusive = 1;
    EXPECT_NE(init_error(c).find("L1 cannot be exclusive"), std::string::npos);
    c = small_hierarchy(false);
    c.level[1].line = 128;
    EXPECT_NE(init_error(c).find("line size of L1"), std::string::npos);
    c = small_hierarchy(false);
    c.levels = 5;
    EXPECT_NE(init_error(c).find("1 to 4 cache levels"), std::string::npos);
    c = small_hierarchy(false);
    c.cores = 0;
    EXPECT_NE(init_error(c).find("cores"), std::string::npos);
}

} // namespace
