#include "core/gpu_specs.hpp"

#include "core/gpu_model.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace roofline {
namespace {

// Rates per SM per clock, dense. Vector units: the CUDA C++ Programming Guide, "Arithmetic
// Instructions" (throughput in results per clock per multiprocessor; an FMA result is 2 FLOP).
// (A100's non-tensor BF16 runs at half its FP16 rate: 39 against 78 TFLOPS in the whitepaper.)
// Tensor cores: the architecture whitepapers' dense peaks divided by SMs x the boost clock they
// state (V100: 125 TFLOPS FP16 at 80 SMs x 1530 MHz; A100: 312 TFLOPS FP16/BF16, 156 TF32,
// 19.5 FP64, 624 TOPS INT8 at 108 SMs x 1410 MHz; H100 SXM5: 989 TFLOPS FP16/BF16, 495 TF32,
// 1979 FP8 and INT8 at 132 SMs x 1830 MHz, 67 FP64 at 1980 MHz). Integer and bit work: the
// Programming Guide's 32-bit integer add and bitwise rows, and its population-count row.
// A row per (vendor, architecture): another vendor's architecture is added here, as data.
const GpuArchitectureRates kRates[] = {
    {GpuVendor::nvidia, "sm_70", "Volta (V100)", 64, 128, 256, 0, 0, 0, 1024, 0, 0, 0, 64, 64, 16,
     "CUDA C++ Programming Guide (cc 7.0); NVIDIA Tesla V100 GPU Architecture whitepaper (2017)"},
    {GpuVendor::nvidia, "sm_80", "Ampere (A100)", 64, 128, 512, 256, 128, 1024, 2048, 2048, 0, 4096, 64, 64, 16,
     "CUDA C++ Programming Guide (cc 8.0); NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"},
    {GpuVendor::nvidia, "sm_90", "Hopper (H100)", 128, 256, 512, 512, 256, 2048, 4096, 4096, 8192, 8192, 64, 64, 16,
     "CUDA C++ Programming Guide (cc 9.0); NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)"},
};

} // namespace

std::optional<GpuArchitectureRates> gpu_architecture(GpuVendor vendor, std::string_view architecture) {
    for (const auto& r : kRates)
        if (r.vendor == vendor && architecture == r.architecture) return r;
    return std::nullopt;
}

namespace {

[[noreturn]] void refuse_unknown_vendor(const std::string& what) {
    throw std::invalid_argument(fmt::format(
        "{} is of an unknown vendor: no specification table judges it (the GPU's vendor must be {} in the machine "
        "model's gpus section); refused rather than judged against another vendor's figures",
        what, known_gpu_vendors_text()));
}

} // namespace

std::optional<GpuArchitectureRates> gpu_architecture_of(const GpuModel& gpu) {
    if (gpu.vendor == GpuVendor::unknown) refuse_unknown_vendor(fmt::format("GPU {} ({})", gpu.index, gpu.name));
    return gpu_architecture(gpu.vendor, gpu_architecture_id(gpu));
}

double gpu_rate_per_clock(const GpuArchitectureRates& a, const std::string& precision, bool tensor) {
    const auto p = parse_precision(precision);
    if (!p) return 0;
    if (tensor) {
        switch (*p) {
        case Precision::dp: return a.tensor_fp64;
        case Precision::tf32: return a.tensor_tf32;
        case Precision::fp16: return a.tensor_fp16;
        case Precision::bf16: return a.tensor_bf16;
        case Precision::fp8: return a.tensor_fp8;
        case Precision::int8: return a.tensor_int8;
        default: return 0;
        }
    }
    switch (*p) {
    case Precision::dp: return a.fp64;
    case Precision::sp: return a.fp32;
    case Precision::fp16: return a.fp16;
    case Precision::bf16: return a.bf16;
    case Precision::int32: return a.int32;
    case Precision::lop3: return a.lop3;
    case Precision::popc: return a.popc;
    default: return 0;
    }
}

namespace {

double theoretical_gflops(const std::optional<GpuArchitectureRates>& arch, const std::string& precision, bool tensor,
                          int sm_count, double clock_mhz) {
    if (!arch || sm_count <= 0 || !(clock_mhz > 0)) return 0;
    return gpu_rate_per_clock(*arch, precision, tensor) * sm_count * clock_mhz * 1e-3;
}

} // namespace

double gpu_theoretical_gflops(GpuVendor vendor, std::string_view architecture, const std::string& precision, bool tensor,
                              int sm_count, double clock_mhz) {
    if (vendor == GpuVendor::unknown) refuse_unknown_vendor(fmt::format("architecture '{}'", architecture));
    return theoretical_gflops(gpu_architecture(vendor, architecture), precision, tensor, sm_count, clock_mhz);
}

void fill_gpu_theoretical(GpuModel& gpu) {
    const auto arch = gpu_architecture_of(gpu);
    for (auto& r : gpu.compute) {
        const double clock = r.clock_mhz > 0 ? r.clock_mhz : gpu.sm_clock_mhz > 0 ? gpu.sm_clock_mhz : gpu.max_sm_clock_mhz;
        r.theoretical_gflops = theoretical_gflops(arch, r.precision, r.tensor, gpu.sm_count, clock);
    }
    for (auto& r : gpu.memory)
        if (r.level == "DRAM") r.theoretical_gbs = gpu_theoretical_dram_gbs(gpu.memory_clock_mhz, gpu.memory_bus_bits);
}

double gpu_theoretical_dram_gbs(double memory_clock_mhz, int bus_bits) {
    if (!(memory_clock_mhz > 0) || bus_bits <= 0) return 0;
    return memory_clock_mhz * 1e6 * 2 * bus_bits / 8 * 1e-9;
}

std::vector<std::string> refuse_gpu_roofs_above_limit(GpuModel& gpu) {
    std::vector<std::string> refused;
    const auto above = [](double measured, double limit) {
        return limit > 0 && measured > (1 + kGpuLimitTolerance) * limit;
    };
    std::erase_if(gpu.compute, [&](const GpuComputeRoof& r) {
        if (!above(r.gflops, r.theoretical_gflops)) return false;
        refused.push_back(fmt::format(
            "{}: {:.0f} G{}/s is {:.2f}x what the specification allows ({:.0f} at {:.0f} MHz on {} SMs): the kernel's "
            "work was not all done or not counted as the hardware runs it; refused",
            r.name, r.gflops, r.work_unit, r.gflops / r.theoretical_gflops, r.theoretical_gflops,
            r.clock_mhz > 0 ? r.clock_mhz : gpu.sm_clock_mhz, gpu.sm_count));
        return true;
    });
    std::erase_if(gpu.memory, [&](const GpuMemoryRoof& r) {
        if (!above(r.gbs, r.theoretical_gbs)) return false;
        refused.push_back(fmt::format("{} {}: {:.0f} GB/s is {:.2f}x what the memory interface allows ({:.0f} GB/s); "
                                      "refused",
                                      r.level, r.pattern, r.gbs, r.gbs / r.theoretical_gbs, r.theoretical_gbs));
        return true;
    });
    return refused;
}

} // namespace roofline
