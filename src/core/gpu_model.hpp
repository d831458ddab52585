// A GPU as `roofline bench --gpu` measures it: the `gpus` section of the machine
// model (roofline.machine/1). Its identity, the clocks read while it ran, and its
// roofs, each next to the value its specification allows at that clock
// (core/gpu_specs.hpp). Plain structs, and the vendor's one name table.
#pragma once

#include "core/figure_stats.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline {

// Who made the GPU: which specification table judges it (core/gpu_specs.hpp). A model
// written before the field existed reads as nvidia (only NVIDIA GPUs were ever measured).
enum class GpuVendor { nvidia, amd, intel, unknown };

// "nvidia", "amd", "intel", "unknown"; parse_gpu_vendor takes them in any case (also
// "NVIDIA Corporation", "AMD", "Advanced Micro Devices", "Intel Corporation") and nullopt otherwise.
const char* gpu_vendor_name(GpuVendor vendor);
std::optional<GpuVendor> parse_gpu_vendor(std::string_view text);
const char* known_gpu_vendors_text();  // "\"nvidia\", \"amd\", \"intel\" or \"unknown\""

// Work per second of one kind: FMA throughput of the vector units, the tensor
// cores' dense matrix multiply-accumulate, or integer / bit operations (work that
// is not FLOPs, e.g. LOP3 and POPC of binary-field algorithms).
struct GpuComputeRoof {
    std::string name;          // "fp64 fma", "bf16 tensor", "lop3"
    std::string precision;     // fp64 fp32 fp16 bf16 tf32 fp8 int32 int8 lop3 popc
    std::string work_unit = "FLOP";  // "FLOP", or "OP" for integer and bit work
    bool tensor = false;       // tensor cores (dense, no sparsity)
    double gflops = 0;         // 1e9 work units per second
    double theoretical_gflops = 0;  // SMs x SM clock x per-clock rate of the architecture; 0: unknown
    double clock_mhz = 0;      // the SM clock read while it ran
    Stats stats;
};

// Bandwidth of a level of the GPU's memory, from a kernel whose working set fits it.
struct GpuMemoryRoof {
    std::string level;         // "L1" (and shared memory), "L2", "DRAM" (HBM or GDDR)
    std::string pattern;       // "read", "copy", "triad"
    double gbs = 0;            // nominal bytes the kernel loads and stores
    double theoretical_gbs = 0;  // DRAM: memory clock x transfers per clock x bus width; 0: unknown
    std::uint64_t working_set_bytes = 0;
    int blocks_per_sm = 0;     // the occupancy that reached the figure (occupancy is swept)
    Stats stats;
};

// The bus between host and device (PCIe, NVLink-C2C), by copy engine transfers.
struct BusRoof {
    std::string direction;     // "h2d", "d2h", "bidirectional" (both at once, the sum)
    bool pinned = true;        // page-locked host memory; false: pageable (staged by the driver)
    double gbs = 0;            // the plateau over sizes
    std::uint64_t bytes = 0;   // the transfer size of the plateau
    Stats stats;
};

// Bandwidth over working sets (the L2 read sweep from a few MB past the L2): where the
// L2 ends and HBM begins, as the CPU curves show their caches.
struct GpuBandwidthCurve {
    std::string level;         // the level the sweep's roof is ("L2")
    std::string pattern;       // "read"
    int blocks_per_sm = 0;
    std::vector<std::pair<std::uint64_t, double>> points;  // [working_set_bytes, GB/s]
};

struct GpuModel {
    int index = 0;             // the device ordinal (CUDA's for NVIDIA)
    GpuVendor vendor = GpuVendor::nvidia;
    std::string name;          // "NVIDIA H100 80GB HBM3"
    std::string uuid;
    std::string pci_bus_id;
    // The architecture as its vendor names it ("gfx942" for an AMD MI300X); empty for NVIDIA,
    // whose architecture is its compute capability (gpu_architecture_id: "sm_90").
    std::string architecture;
    int compute_capability_major = 0;  // NVIDIA only
    int compute_capability_minor = 0;
    int sm_count = 0;          // streaming multiprocessors (NVIDIA), compute units (AMD), Xe cores (Intel)
    double sm_clock_mhz = 0;          // read while the compute roofs ran (NVML)
    double max_sm_clock_mhz = 0;
    double memory_clock_mhz = 0;      // as NVML reports it (HBM: half the transfer rate)
    int memory_bus_bits = 0;
    std::uint64_t memory_bytes = 0;
    std::uint64_t l2_bytes = 0;
    std::string driver_version;
    std::string runtime_version;
    std::vector<GpuComputeRoof> compute;
    std::vector<GpuMemoryRoof> memory;
    std::vector<BusRoof> bus;
    std::vector<GpuBandwidthCurve> curves;
};

// The architecture the specification table is keyed by, with the vendor: `architecture` where
// set, else for NVIDIA "sm_" and the compute capability ("sm_90" for 9.0); "" when unknown.
std::string gpu_architecture_id(const GpuModel& gpu);

} // namespace roofline
