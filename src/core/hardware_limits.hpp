// Figures no machine made so far reaches, whatever it is: the check a machine file
// gets beside the microarchitecture table's (roof_consistency.hpp), which judges
// only CPUs it knows. A spec sheet, a model of an unknown CPU or a file edited by
// hand is held to these. They are generous on purpose: they catch a unit slip
// (MB/s written as GB/s, a peak 1000x), a typo or an edit, not one chip's own
// limit. Pure.
#pragma once

#include "core/machine_model.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Work per cycle of one core (a GPU's SM, for a sheet that counts SMs as cores).
// dp: 2 x 512-bit FMA is 32 FLOP; an H100 SM's fp64 tensor cores about 280
// (67 TFLOP/s / 132 SMs / 1.83 GHz). sp: an H100 SM's tf32 tensor cores 2048.
// Other precisions (fp16, fp8, int8 on matrix units): an H100 SM's fp8 dense
// 8192 (1979 TFLOP/s / 132 / 1.83 GHz), twice that with sparsity.
double max_work_per_cycle_per_core(std::string_view precision);

// Bytes per cycle one core moves at any level: Zen 5 and Golden Cove L1 3 x 64 B
// loads + 2 x 64 B stores = 320; an H100 SM's L1 128.
inline constexpr double kMaxBytesPerCyclePerCore = 1024;

// The fastest clock a core runs at (2026: Intel's 14900KS boosts to 6.2 GHz), for a
// figure whose clock is not known.
inline constexpr double kFastestCoreClockGhz = 6.5;

// Why `rate` (G<unit>/s, or GB/s when `bytes`) by `threads` cores at `clock_ghz`
// is beyond any machine, or "" when it is not or the clock or the threads are unknown.
std::string work_rate_beyond_any_machine(double gflops, std::string_view precision, int threads, double clock_ghz);
std::string byte_rate_beyond_any_machine(double gbs, int threads, double clock_ghz);

// The largest instance of a cache level any machine has, CPUs and GPUs (a spec
// sheet may describe either): L1 1 MiB (GPU SMs: 256 KiB), L2 256 MiB (an H100's
// 50 MiB; IBM Telum's private 32 MiB), L3 4 GiB (two Genoa-X sockets hold 2.25 GiB
// together, for a sheet that sums them), L4 16 GiB.
std::uint64_t largest_cache_of_any_machine(int level);

// A measured model (JSON or the results store) as it is read: removes the compute and
// memory roofs above their theoretical figure (refuse_roofs_above_theory), a memory level's
// roofs far faster than the levels in front of it (refuse_outer_levels_faster_than_inner),
// those beyond any machine at the model's clock, the cache levels larger than any CPU's, and the GPU
// roofs above their specification or the bounds any GPU keeps (refuse_gpu_roofs_above_limit;
// "GPU N: " before each), and returns why, one line each. A GPU whose roofs kept no
// specification table judged (or whose clock read is above its max boost) gets a line in
// environment.warnings saying so ("GPU N (name): ..."), added once. A model that passes,
// every figure judged by a table, is unchanged.
std::vector<std::string> refuse_impossible_figures(MachineModel& model);

} // namespace roofline
