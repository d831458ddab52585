// What a point's counts say about its code, read before advising it: how much of
// its floating-point work ran in vector instructions, how much was fused
// multiply-add, whether it stores at all (a reduction), and whether its rate is
// that of one dependent chain of operations. Instrumented and perf points carry
// these counts in their details (flops_by_width_*, flops_f64_fma, bytes_stored);
// analytic and modelled points mostly do not, and then nothing is claimed.
#pragma once

#include "core/roofline.hpp"

#include <map>
#include <optional>
#include <string>

namespace roofline {

// Point::details key: the arrays the point's code writes (its store streams), where something knows
// them: a kernel spec's written operands (point_from_spec). Counts of loads and stores do not say
// how many arrays they fall in: measured points have none.
inline constexpr const char* kStoreStreamsDetail = "store_streams";

struct CodeTraits {
    // FLOPs counted by vector width ("scalar", "128", "256", "512"): the share done by
    // scalar instructions, and the widest width that did any work (0 = scalar only).
    std::optional<double> scalar_share;
    int widest_bits = 0;
    std::map<int, double> vector_flops_by_bits;  // 128 -> FLOPs done by 128-bit instructions, ...
    double width_counted_flops = 0;              // all FLOPs counted by width, scalar ones too
    // FLOPs done by FMA instructions over all FLOPs (an FMA counts two).
    std::optional<double> fma_share;
    // FLOPs done by adds and subtracts, and by multiplies, over all FLOPs: with fma_share the
    // kind mix that the mix ceilings ("FMA only", "ADD or MUL only") are measured with.
    std::optional<double> add_share;
    std::optional<double> mul_share;
    // Double-precision FLOPs over the FLOPs counted by precision (flops_f64_*, flops_f32_*).
    std::optional<double> f64_share;
    // FLOPs made by x87 instructions (long double; details flops_x87, counted by the Valgrind tool)
    // over all FLOPs: the x87 unit has no vector form, so vectorizing cannot reach them.
    std::optional<double> x87_share;
    // Bytes stored over the bytes loaded and stored by the instructions.
    std::optional<double> store_share;
    // The arrays it writes (kStoreStreamsDetail); unset where nothing knows them.
    std::optional<double> store_streams;
    // FLOPs per add, subtract or FMA: what each step of an accumulation chain carries.
    std::optional<double> flops_per_accumulation;
    // A loop point's adds, subtracts and FMAs per entry of the loop (measure --loops'
    // loop_entries): a reduction that starts again at each entry forms a chain this long, and an
    // out-of-order core runs the next entries' chains beside it when it is short.
    std::optional<double> accumulations_per_entry;
    // Adds, subtracts and FMAs per value stored (bytes_stored over the element size of its FLOPs'
    // precision: 8 bytes for double, else 4): a reduction whose total is stored when its chain
    // ends (a CSR row's y[i] = s) chains at most this many; infinite when it stores nothing. Any
    // point with its loads and stores counted has it, a region as much as a loop.
    std::optional<double> accumulations_per_store;
    // Bytes moved between L1 and L2 (the cache simulation's L2 traffic) per byte its instructions
    // moved, a stored byte twice (its line's write-allocate fill and its write-back): about 1 for
    // unit-stride streams past L1 (a copy too), near 0 for data in L1, above 1 where its accesses
    // use a small part of each line they bring (a column walk). Unset without the counts.
    std::optional<double> l2_bytes_per_accessed_byte;
    // Of the point's DRAM bytes, those of write-allocate fills no load read before the line
    // went back (the cache simulation's cache_DRAM_write_allocate_unread_bytes): reads that
    // non-temporal stores would not make.
    std::optional<double> unread_write_allocate_share;
    // A function point's (measure --functions: details function_calls and instructions, counted
    // by the Valgrind tool): its calls, and its own FLOPs and instructions per call; the program's
    // point: its main function's (Point::main_function, named in calls_of, with its share of the
    // program's FLOPs in calls_share). Unset for every other point (regions, loops): a region's
    // "calls" are the marker's.
    std::optional<double> calls;
    std::optional<double> flops_per_call;
    std::optional<double> instructions_per_call;
    std::string calls_of;
    double calls_share = 0;
    // The shared library its code is in, by file name ("libfftw3.so.3.6.10"), when that is an
    // installed library (under /usr, /lib, /opt, a conda, Spack or Nix tree) or the point's name
    // names one ("(no symbol: libfftw3.so.3+0x2c500)"): code its user does not build. Unset for the
    // program's own code and for a shared library elsewhere (one the user may build).
    std::optional<std::string> library;
};

// The library file `object` (a path, as the Valgrind tool names a function's file) is, when it
// is an installed shared library (see CodeTraits::library); nullopt otherwise.
std::optional<std::string> installed_library(const std::string& object);

CodeTraits code_traits(const Point& p);

// Of a point's FLOPs counted by vector width, the share done in vectors narrower than `bits`
// (scalar instructions not included: they are vectorize's); nullopt when none were counted or
// `bits` is 0 (unknown).
std::optional<double> share_narrower_than(const CodeTraits& traits, int bits);
// The widest vector width narrower than `bits` that did any work (128 for a point of 128- and
// 512-bit FLOPs judged against 512-bit roofs); 0 when none did.
int widest_narrower_than(const CodeTraits& traits, int bits);

// The highest rate a loop whose accumulations form one dependent chain per thread can reach:
// one accumulation (an add or FMA into the running value) per `latency_cycles` at `clock_ghz`,
// each bringing `flops_per_accumulation` FLOPs with it (a dot product: one multiply and one add
// per accumulation, 2), in GFLOP/s for `threads` threads. 2 cycles is the shortest
// floating-point add latency of current x86 cores (Intel Golden Cove's fast adder; AMD Zen:
// 3, Intel Skylake: 4 — Agner Fog, "Instruction tables", 2022), so a point at or under it may
// be latency-bound, and one above it is not.
double one_chain_gflops(double clock_ghz, int threads, double flops_per_accumulation, double latency_cycles = 2);

} // namespace roofline
