#include "core/gpu_specs.hpp"

#include "core/gpu_model.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>

#include <algorithm>
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
//
// Max boost: the highest boost clock of any part of the compute capability, so that no part
// of it is judged below its own clock (a row's clock is a cap, not one board's figure):
// sm_70: V100 SXM2 1530 MHz (Volta whitepaper), V100S PCIe 1601 MHz (8.2 TFLOPS FP64 = 80 SMs
// x 64 x 1601 MHz), Quadro GV100 1627 MHz (TechPowerUp GPU database): 1627. sm_80: A100
// 1410 MHz (Ampere whitepaper), A30 1440 MHz: 1440. sm_90: H100 SXM5 1980 MHz (Hopper
// whitepaper: 67 TFLOPS FP64 tensor at 132 SMs), H200 the same die and clock (1980 MHz),
// H100 PCIe 1755: 1980.
// L1 bytes per clock: the Programming Guide's shared memory for compute capabilities 5.x to
// 9.x, 32 banks of 32 bits each a clock, 128 B per clock per SM; L1 and shared memory are one
// array since Volta (the Volta, Ampere and Hopper tuning guides), held to the same 128 B.
// A row per (vendor, architecture): another vendor's architecture is added here, as data.
const GpuArchitectureRates kRates[] = {
    {GpuVendor::nvidia, "sm_70", "Volta (V100)", 64, 128, 256, 0, 0, 0, 1024, 0, 0, 0, 64, 64, 16, 1627, 128,
     "CUDA C++ Programming Guide (cc 7.0); NVIDIA Tesla V100 GPU Architecture whitepaper (2017)"},
    {GpuVendor::nvidia, "sm_80", "Ampere (A100)", 64, 128, 512, 256, 128, 1024, 2048, 2048, 0, 4096, 64, 64, 16, 1440,
     128, "CUDA C++ Programming Guide (cc 8.0); NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"},
    {GpuVendor::nvidia, "sm_90", "Hopper (H100)", 128, 256, 512, 512, 256, 2048, 4096, 4096, 8192, 8192, 64, 64, 16,
     1980, 128, "CUDA C++ Programming Guide (cc 9.0); NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)"},
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

double gpu_max_work_per_clock_per_sm(const std::string& precision) {
    constexpr double largest = 32768;
    const auto p = parse_precision(precision);
    if (!p) return largest;
    switch (*p) {
    case Precision::dp: return 512;
    case Precision::sp: return 1024;
    case Precision::tf32: return 8192;
    case Precision::fp16:
    case Precision::bf16: return 16384;
    case Precision::fp8:
    case Precision::int8: return largest;
    case Precision::int32:
    case Precision::lop3:
    case Precision::popc: return 1024;
    }
    return largest;
}

double gpu_judged_clock_mhz(const std::optional<GpuArchitectureRates>& arch, double clock_read_mhz) {
    const double cap = arch && arch->max_boost_mhz > 0 ? arch->max_boost_mhz : kFastestGpuClockMhz;
    return clock_read_mhz > 0 ? std::min(clock_read_mhz, cap) : cap;
}

namespace {

// The table's figure at `clock_mhz`, which a clock above the max boost cannot raise.
double theoretical_gflops(const std::optional<GpuArchitectureRates>& arch, const std::string& precision, bool tensor,
                          int sm_count, double clock_mhz) {
    if (!arch || sm_count <= 0 || !(clock_mhz > 0)) return 0;
    return gpu_rate_per_clock(*arch, precision, tensor) * sm_count * gpu_judged_clock_mhz(arch, clock_mhz) * 1e-3;
}

// The SM clock read while a compute roof ran, else the GPU's; 0 where none was read.
double compute_clock_read(const GpuModel& gpu, const GpuComputeRoof& r) {
    return r.clock_mhz > 0 ? r.clock_mhz : gpu.sm_clock_mhz > 0 ? gpu.sm_clock_mhz : gpu.max_sm_clock_mhz;
}

} // namespace

double gpu_theoretical_gflops(GpuVendor vendor, std::string_view architecture, const std::string& precision, bool tensor,
                              int sm_count, double clock_mhz) {
    if (vendor == GpuVendor::unknown) refuse_unknown_vendor(fmt::format("architecture '{}'", architecture));
    return theoretical_gflops(gpu_architecture(vendor, architecture), precision, tensor, sm_count, clock_mhz);
}

void fill_gpu_theoretical(GpuModel& gpu) {
    const auto arch = gpu_architecture_of(gpu);
    for (auto& r : gpu.compute)
        r.theoretical_gflops = theoretical_gflops(arch, r.precision, r.tensor, gpu.sm_count, compute_clock_read(gpu, r));
    for (auto& r : gpu.memory)
        if (r.level == "DRAM") r.theoretical_gbs = gpu_theoretical_dram_gbs(gpu.memory_clock_mhz, gpu.memory_bus_bits);
}

double gpu_theoretical_dram_gbs(double memory_clock_mhz, int bus_bits) {
    if (!(memory_clock_mhz > 0) || bus_bits <= 0) return 0;
    return memory_clock_mhz * 1e6 * 2 * bus_bits / 8 * 1e-9;
}

namespace {

bool above_limit(double measured, double limit) { return limit > 0 && measured > (1 + kGpuLimitTolerance) * limit; }

// What judges one GPU's roofs: its row of the table (none for an architecture the table does
// not hold or an unknown vendor), and the highest clock it is judged at.
struct GpuJudge {
    const GpuModel& gpu;
    std::optional<GpuArchitectureRates> arch;
    double cap_mhz = 0;

    explicit GpuJudge(const GpuModel& g)
        : gpu(g), arch(g.vendor == GpuVendor::unknown ? std::nullopt : gpu_architecture(g.vendor, gpu_architecture_id(g))),
          cap_mhz(gpu_judged_clock_mhz(arch, 0)) {}

    std::string cap_text() const {
        return arch ? fmt::format("the {:.0f} MHz max boost of {}", cap_mhz, arch->name)
                    : fmt::format("the {:.0f} MHz no GPU runs at", cap_mhz);
    }
    bool clock_wrong(double read) const { return read > (1 + kGpuLimitTolerance) * cap_mhz; }
    // Said beside a limit judged at the cap when the clock read was above it.
    std::string clock_clause(double read) const {
        return clock_wrong(read) ? fmt::format("; the clock read, {:.0f} MHz, is above {}: a wrong reading", read, cap_text())
                                 : "";
    }
    // Why no table judges the GPU (its row is missing).
    std::string no_table() const {
        if (gpu.vendor == GpuVendor::unknown) return "a GPU of an unknown vendor is in no specification table";
        const std::string id = gpu_architecture_id(gpu);
        if (id.empty()) return "a GPU of no known architecture is in no specification table";
        return fmt::format("{} architecture {} is in no specification table", gpu_vendor_name(gpu.vendor), id);
    }
    // The L1 aggregate: what the SMs' L1 moves a second at the GPU's clock, GB/s, and how.
    double l1_per_clock() const {
        return arch && arch->l1_bytes_per_clock > 0 ? arch->l1_bytes_per_clock : kMaxGpuBytesPerClockPerSm;
    }
    double memory_clock_read() const { return std::max(gpu.sm_clock_mhz, gpu.max_sm_clock_mhz); }
    double memory_clock() const { return gpu_judged_clock_mhz(arch, memory_clock_read()); }
    double l1_aggregate_gbs() const { return l1_per_clock() * gpu.sm_count * memory_clock() * 1e-3; }
    std::string l1_aggregate_text() const {
        return fmt::format("{:.0f} B per clock per SM{} x {} SMs at {:.0f} MHz: {:.0f} GB/s", l1_per_clock(),
                           arch ? "" : " (what any GPU's L1 stays under)", gpu.sm_count, memory_clock(),
                           l1_aggregate_gbs());
    }
};

const char* unit_kind(bool tensor) { return tensor ? "tensor cores" : "vector units"; }

std::string no_sms(double figure, const std::string& unit, int sm_count) {
    return fmt::format("{:.0f} {}/s on a GPU of {} SMs: no kernel ran on it (its sm_count is wrong or missing); refused",
                       figure, unit, sm_count);
}

} // namespace

std::vector<std::string> refuse_gpu_roofs_above_limit(GpuModel& gpu, std::vector<std::string>* notes) {
    std::vector<std::string> refused;
    std::vector<std::string> said;  // notes, kept whether or not the caller takes them
    const GpuJudge judge(gpu);
    const int sms = gpu.sm_count;
    int unjudged = 0;  // roofs kept that only the bounds any GPU keeps judged
    double highest_read = std::max(gpu.sm_clock_mhz, gpu.max_sm_clock_mhz);  // of every clock, refused roofs' too
    for (const auto& r : gpu.compute) highest_read = std::max(highest_read, r.clock_mhz);
    std::erase_if(gpu.compute, [&](const GpuComputeRoof& r) {
        if (sms <= 0) {
            refused.push_back(fmt::format("{}: {}", r.name, no_sms(r.gflops, "G" + r.work_unit, sms)));
            return true;
        }
        const double read = compute_clock_read(gpu, r);
        const double clock = gpu_judged_clock_mhz(judge.arch, read);
        const double rate = judge.arch ? gpu_rate_per_clock(*judge.arch, r.precision, r.tensor) : 0;
        const double any = gpu_max_work_per_clock_per_sm(r.precision);
        const bool by_table = rate > 0 && rate <= any;
        const double limit = (by_table ? rate : any) * sms * clock * 1e-3;
        // The table has no rate for this unit: said in the note and in a refusal.
        const std::string no_rate =
            judge.arch ? fmt::format("{} has no {} rate for its {} in the specification table", judge.arch->name,
                                     r.precision, unit_kind(r.tensor))
                       : judge.no_table();
        if (!above_limit(r.gflops, limit)) {
            if (judge.arch && !by_table)
                said.push_back(fmt::format("{}: {}: held only to the {:.0f} {} per SM per clock any GPU stays under",
                                           r.name, no_rate, any, r.work_unit));
            if (!judge.arch) ++unjudged;
            return false;
        }
        if (by_table)
            refused.push_back(fmt::format(
                "{}: {:.0f} G{}/s is {:.2f}x what the specification allows ({:.0f} at {:.0f} MHz on {} SMs{}): the "
                "kernel's work was not all done or not counted as the hardware runs it; refused",
                r.name, r.gflops, r.work_unit, r.gflops / limit, limit, clock, sms, judge.clock_clause(read)));
        else
            refused.push_back(fmt::format(
                "{}: {:.0f} G{}/s is {:.2f}x what any GPU does ({:.0f} {} per SM per clock: {:.0f} at {:.0f} MHz on {} "
                "SMs{}; {}): the kernel's work was not all done or not counted as the hardware runs it; refused",
                r.name, r.gflops, r.work_unit, r.gflops / limit, any, r.work_unit, limit, clock, sms,
                judge.clock_clause(read), no_rate));
        return true;
    });
    const double interface_gbs = gpu_theoretical_dram_gbs(gpu.memory_clock_mhz, gpu.memory_bus_bits);
    int dram_without_interface = 0;
    std::erase_if(gpu.memory, [&](const GpuMemoryRoof& r) {
        if (sms <= 0) {
            refused.push_back(fmt::format("{} {}: {}", r.level, r.pattern, no_sms(r.gbs, "GB", sms)));
            return true;
        }
        // The tightest of the limits that apply, and what it is.
        double limit = judge.l1_aggregate_gbs();
        std::string what =
            fmt::format("what the SMs' L1 moves ({}{})", judge.l1_aggregate_text(),
                        r.level == "L1" || r.level == "DRAM"
                            ? ""
                            : fmt::format(": an {} cannot deliver more than the SMs take in", r.level));
        if (r.level == "DRAM") {
            if (interface_gbs > 0 && interface_gbs < limit) {
                limit = interface_gbs;
                what = fmt::format("what the memory interface allows ({:.0f} GB/s)", interface_gbs);
            }
            if (kMaxGpuDramGbs < limit) {
                limit = kMaxGpuDramGbs;
                what = fmt::format("what any GPU's memory delivers ({:.0f} GB/s; HBM4, the fastest, about 22000)",
                                   kMaxGpuDramGbs);
            }
        }
        if (!above_limit(r.gbs, limit)) {
            if (r.level == "DRAM" && !(interface_gbs > 0)) ++dram_without_interface;
            if (!judge.arch) ++unjudged;
            return false;
        }
        refused.push_back(fmt::format("{} {}: {:.0f} GB/s is {:.2f}x {}{}; refused", r.level, r.pattern, r.gbs,
                                      r.gbs / limit, what, judge.clock_clause(judge.memory_clock_read())));
        return true;
    });
    std::erase_if(gpu.bus, [&](const BusRoof& r) {
        const bool both = r.direction == "bidirectional";
        const double limit = (both ? 2 : 1) * kMaxGpuLinkGbsPerDirection;
        if (!above_limit(r.gbs, limit)) return false;
        refused.push_back(fmt::format("bus {} {}: {:.0f} GB/s is {:.2f}x what any host link carries ({:.0f} GB/s{}: "
                                      "NVLink-C2C, the fastest, {:.0f} GB/s each way); refused",
                                      r.direction, r.pinned ? "pinned" : "pageable", r.gbs, r.gbs / limit, limit,
                                      both ? " both ways at once" : " one way", kMaxGpuLinkGbsPerDirection));
        return true;
    });
    if (unjudged > 0)
        said.push_back(fmt::format(
            "{}: its {} roof{} kept {} held only to the bounds any GPU keeps (work and bytes per SM per clock, at "
            "most {:.0f} MHz; DRAM at most {:.0f} GB/s), not to its own specification",
            judge.no_table(), unjudged, unjudged == 1 ? "" : "s", unjudged == 1 ? "was" : "were", judge.cap_mhz,
            kMaxGpuDramGbs));
    if (dram_without_interface > 0)
        said.push_back(fmt::format(
            "DRAM: no memory clock or bus width, so the memory interface judged none of its {} roof{}: held to what "
            "the SMs' L1 moves ({}) and to {:.0f} GB/s, more than any GPU's memory delivers",
            dram_without_interface, dram_without_interface == 1 ? "" : "s", judge.l1_aggregate_text(), kMaxGpuDramGbs));
    if (judge.clock_wrong(highest_read))
        said.push_back(fmt::format("the SM clock read, {:.0f} MHz, is above {} by more than {:.0f}%: a wrong reading; "
                                   "its roofs were judged at {:.0f} MHz at most",
                                   highest_read, judge.cap_text(), kGpuLimitTolerance * 100, judge.cap_mhz));
    if (notes) notes->insert(notes->end(), said.begin(), said.end());
    return refused;
}

} // namespace roofline
