// What a GPU's specification allows: per-SM (per-CU), per-clock rates of each kind of
// work by vendor and architecture, the highest clock each runs at, and the theoretical
// roofs they give at a clock: SMs x clock x rate, memory clock x transfers x bus width.
// Beside the table, the bounds any GPU keeps whatever its architecture, so that a GPU no
// row describes is still held to something. The table is data: a second vendor's
// architecture is one more row. Pure.
#pragma once

#include "core/gpu_model.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Work per clock per SM (an AMD compute unit, an Intel Xe core), dense (no structured
// sparsity); 0 where the architecture has no such unit. FLOP counts an FMA as 2; bit and
// integer work counts operations.
struct GpuArchitectureRates {
    GpuVendor vendor = GpuVendor::nvidia;
    const char* architecture = "";  // as gpu_architecture_id writes it: "sm_90" (NVIDIA), "gfx942" (AMD)
    const char* name = "";      // "Hopper (H100)"
    double fp64 = 0, fp32 = 0, fp16 = 0, bf16 = 0;  // vector units (half2 / bfloat162 for 16-bit)
    double tensor_fp64 = 0, tensor_tf32 = 0, tensor_fp16 = 0, tensor_bf16 = 0, tensor_fp8 = 0, tensor_int8 = 0;
    double int32 = 0;           // 32-bit integer add (IADD3)
    double lop3 = 0;            // 32-bit bitwise operations (LOP3)
    double popc = 0;            // population count
    // The highest SM clock (MHz) any part of the architecture boosts to: a clock read above it
    // is a wrong reading, and roofs are judged at this clock at most.
    double max_boost_mhz = 0;
    // Bytes the L1 / shared memory moves per clock per SM, loads and stores together.
    double l1_bytes_per_clock = 0;
    const char* source = "";    // where the figures come from
};

// Bounds any GPU keeps, whatever its architecture: what judges a GPU no row of the table
// describes (another architecture, an unknown vendor), a unit the table has no rate for,
// and what the table does not cover (DRAM without the memory interface's figures, the host
// link). Generous on purpose, as core/hardware_limits' bounds of any CPU core: they catch a
// unit slip, an edit or a gutted kernel, not one chip's own limit.
//
// No GPU sold boosts past about 3 GHz (the fastest, AMD's Radeon RX 9070 XT, 2970 MHz).
inline constexpr double kFastestGpuClockMhz = 3500;
// Bytes per clock per SM at any level: NVIDIA's L1 / shared memory moves 128 (Volta to
// Blackwell), AMD CDNA 3's LDS 128; hardware_limits holds any core to the same 1024.
inline constexpr double kMaxGpuBytesPerClockPerSm = 1024;
// DRAM of any GPU: HBM3e parts reach 4.8 TB/s (H200) and 8 TB/s (B200, MI355X); HBM4 parts
// announced for 2026 about 22 TB/s.
inline constexpr double kMaxGpuDramGbs = 32000;
// The host link, one direction: NVLink-C2C (Grace Hopper) carries 450 GB/s each way (900 both),
// the fastest; PCIe 5.0 x16 63 GB/s, PCIe 6.0 x16 121 GB/s. Both directions at once: twice.
inline constexpr double kMaxGpuLinkGbsPerDirection = 450;

// Work per clock per SM any GPU does at `precision` (any spelling), vector or matrix units:
// twice the densest part (B200's dense tensor cores: fp16 about 8192 per SM per clock, fp8
// and int8 16384, tf32 4096; fp64: H100's DMMA and MI300X's matrix cores 256; fp32 vector
// 256), and 1024 integer or bit operations (NVIDIA's SMs do 64). The largest for a name
// that is no precision.
double gpu_max_work_per_clock_per_sm(const std::string& precision);

// The clock (MHz) a roof is judged at: the clock read (0: none read), at most the
// architecture's max boost, or kFastestGpuClockMhz for a GPU no row describes; where none was
// read, that highest clock.
double gpu_judged_clock_mhz(const std::optional<GpuArchitectureRates>& arch, double clock_read_mhz);

// The rates of `architecture` of `vendor`; nullopt for one not in the table (and for
// GpuVendor::unknown, which no row is: see gpu_architecture_of).
std::optional<GpuArchitectureRates> gpu_architecture(GpuVendor vendor, std::string_view architecture);

// The rates that judge `gpu`: nullopt where its architecture is not in the table (its
// theoretical figures stay unknown). A GPU of an unknown vendor is refused: throws
// std::invalid_argument saying so, never judged against another vendor's figures.
std::optional<GpuArchitectureRates> gpu_architecture_of(const GpuModel& gpu);

// The per-clock rate of `precision` (any spelling core/precision reads: "fp64" or "dp", .. "fp8",
// "int8", "int32", "lop3", "popc") on the vector units or, with `tensor`, the tensor cores; 0 when
// the architecture has none.
double gpu_rate_per_clock(const GpuArchitectureRates& arch, const std::string& precision, bool tensor);

// SMs x clock (MHz, at most the architecture's max boost) x the per-clock rate, in 1e9 work
// units per second; 0 when unknown. Throws std::invalid_argument for GpuVendor::unknown.
double gpu_theoretical_gflops(GpuVendor vendor, std::string_view architecture, const std::string& precision, bool tensor,
                              int sm_count, double clock_mhz);

// DRAM bandwidth the memory interface allows: memory clock (MHz, as NVML reports it) x
// 2 transfers per clock (double data rate, as NVML's figure is for HBM and GDDR6) x bus
// bits / 8, in GB/s; 0 when a figure is missing.
double gpu_theoretical_dram_gbs(double memory_clock_mhz, int bus_bits);

// Sets every roof's theoretical figure the table allows: compute roofs at the SM clock read
// while they ran (else the GPU's; at most the architecture's max boost), DRAM roofs from the
// memory clock and bus width. A roof the table cannot judge keeps 0 (unknown). Throws
// std::invalid_argument for a GPU of an unknown vendor (gpu_architecture_of), before changing
// anything.
void fill_gpu_theoretical(GpuModel& gpu);

// A measured roof this far above what the specification allows at the clock read
// while it ran cannot be true (a kernel the compiler gutted, a wrong count, a table
// entry for another chip): refused, never stored or drawn. A clock read this far above the
// architecture's max boost is named as a wrong reading.
inline constexpr double kGpuLimitTolerance = 0.03;

// Removes from `gpu` every roof above what the hardware allows by more than
// kGpuLimitTolerance and returns, per roof removed, why (its name, figure, limit, clock).
// The limits are computed here, from the table and the clocks, never read from the roofs'
// theoretical figures (a model edited by hand may hold any); `gpu` is otherwise unchanged.
// - Compute: SMs x clock x the architecture's rate, at the clock read while it ran (at most
//   the max boost; where none was read, the max boost), and never above
//   gpu_max_work_per_clock_per_sm x SMs x clock, the bound that alone judges a GPU the table
//   does not describe (at a clock of at most kFastestGpuClockMhz).
// - L1 (shared memory): SMs x clock x the L1's bytes per clock (kMaxGpuBytesPerClockPerSm
//   where the table has none); L2 and any other cache: the same, as an L2 cannot deliver more
//   than the SMs' L1 takes in. The clock: the GPU's (memory roofs record none), at most the
//   max boost.
// - DRAM: what the memory interface allows (memory clock x 2 x bus width) where both are
//   known, the SMs' L1 aggregate, and kMaxGpuDramGbs.
// - Bus: kMaxGpuLinkGbsPerDirection a direction, twice that both at once.
// - A GPU of no SMs ran no kernel: its compute and memory roofs are refused (its bus roofs,
//   copy-engine transfers, are judged as any).
// Never throws: a GPU of an unknown vendor is held to the bounds any GPU keeps. Where
// `notes` is given, it gets one line per fact a person should know about the roofs kept:
// no specification table judged them (an architecture not in the table, an unknown vendor,
// a unit the table has no rate for, DRAM without the memory interface's figures), or a
// clock read above the max boost; none for a GPU the table judges in full.
std::vector<std::string> refuse_gpu_roofs_above_limit(GpuModel& gpu, std::vector<std::string>* notes = nullptr);

} // namespace roofline
