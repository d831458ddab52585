// What a GPU's specification allows: per-SM (per-CU), per-clock rates of each kind of
// work by vendor and architecture, and the theoretical roofs they give at a clock:
// SMs x clock x rate, memory clock x transfers x bus width. The table is data: a second
// vendor's architecture is one more row. Pure.
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
    const char* source = "";    // where the figures come from
};

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

// SMs x clock (MHz) x the per-clock rate, in 1e9 work units per second; 0 when unknown.
// Throws std::invalid_argument for GpuVendor::unknown.
double gpu_theoretical_gflops(GpuVendor vendor, std::string_view architecture, const std::string& precision, bool tensor,
                              int sm_count, double clock_mhz);

// DRAM bandwidth the memory interface allows: memory clock (MHz, as NVML reports it) x
// 2 transfers per clock (double data rate, as NVML's figure is for HBM and GDDR6) x bus
// bits / 8, in GB/s; 0 when a figure is missing.
double gpu_theoretical_dram_gbs(double memory_clock_mhz, int bus_bits);

// Sets every roof's theoretical figure the table allows: compute roofs at the SM clock read
// while they ran (else the GPU's), DRAM roofs from the memory clock and bus width. A roof the
// table cannot judge keeps 0 (unknown). Throws std::invalid_argument for a GPU of an unknown
// vendor (gpu_architecture_of), before changing anything.
void fill_gpu_theoretical(GpuModel& gpu);

// A measured roof this far above what the specification allows at the clock read
// while it ran cannot be true (a kernel the compiler gutted, a wrong count, a table
// entry for another chip): refused, never stored or drawn.
inline constexpr double kGpuLimitTolerance = 0.03;

// Removes from `gpu` every compute and memory roof above its theoretical figure by more
// than kGpuLimitTolerance (fill_gpu_theoretical first; a roof the table cannot judge is
// kept) and returns, per roof removed, why: its name, figure, limit and the clock.
std::vector<std::string> refuse_gpu_roofs_above_limit(GpuModel& gpu);

} // namespace roofline
