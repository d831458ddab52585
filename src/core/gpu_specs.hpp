// What an NVIDIA GPU's specification allows: per-SM, per-clock rates of each kind
// of work by architecture (compute capability), and the theoretical roofs they give
// at a clock: SMs x clock x rate, memory clock x transfers x bus width. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// Work per clock per SM, dense (no structured sparsity); 0 where the architecture
// has no such unit. FLOP counts an FMA as 2; bit and integer work counts operations.
struct GpuArchitectureRates {
    int major = 0, minor = 0;
    const char* name = "";      // "Hopper (H100)"
    double fp64 = 0, fp32 = 0, fp16 = 0, bf16 = 0;  // vector units (half2 / bfloat162 for 16-bit)
    double tensor_fp64 = 0, tensor_tf32 = 0, tensor_fp16 = 0, tensor_bf16 = 0, tensor_fp8 = 0, tensor_int8 = 0;
    double int32 = 0;           // 32-bit integer add (IADD3)
    double lop3 = 0;            // 32-bit bitwise operations (LOP3)
    double popc = 0;            // population count
    const char* source = "";    // where the figures come from
};

// The rates of compute capability major.minor; nullopt for an architecture not in the table.
std::optional<GpuArchitectureRates> gpu_architecture(int major, int minor);

// The per-clock rate of `precision` ("fp64" .. "fp8", "int8", "int32", "lop3", "popc") on the
// vector units or, with `tensor`, the tensor cores; 0 when the architecture has none.
double gpu_rate_per_clock(const GpuArchitectureRates& arch, const std::string& precision, bool tensor);

// SMs x clock (MHz) x the per-clock rate, in 1e9 work units per second; 0 when unknown.
double gpu_theoretical_gflops(int major, int minor, const std::string& precision, bool tensor, int sm_count,
                              double clock_mhz);

// DRAM bandwidth the memory interface allows: memory clock (MHz, as NVML reports it) x
// 2 transfers per clock (double data rate, as NVML's figure is for HBM and GDDR6) x bus
// bits / 8, in GB/s; 0 when a figure is missing.
double gpu_theoretical_dram_gbs(double memory_clock_mhz, int bus_bits);

struct GpuModel;
// Sets every roof's theoretical figure the table allows: compute roofs at the SM clock read
// while they ran (else the GPU's), DRAM roofs from the memory clock and bus width. A roof the
// table cannot judge keeps 0 (unknown).
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
