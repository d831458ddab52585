#include "cli/gpu_bench.hpp"

#include "cli/usage_error.hpp"
#include "core/gpu_specs.hpp"
#include "io/install_layout.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "render/number_format.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <unistd.h>

namespace roofline::cli {
namespace {

constexpr int kNoDevice = 77;  // roofline-gpubench: no CUDA device or driver

// A GPU benchmark run that does not end: a wedged driver blocks the program in the kernel.
// Every run has a time limit (gpubench_time_limit), after which its process group is killed.
struct GpuRun {
    measure::ChildStatus status;
    measure::TimeLimit limit;
};

GpuRun run(const std::string& program, const std::vector<std::string>& args, double limit_seconds) {
    std::vector<std::string> argv{program};
    argv.insert(argv.end(), args.begin(), args.end());
    GpuRun r;
    r.limit.seconds = limit_seconds;
    r.status = measure::run_child(argv, {}, {}, measure::wait_within(r.limit)).status;
    return r;
}

// "did not end within 60 s (...): ..." for a run that ran out of time.
std::string expired_text(const GpuRun& r, const std::string& what) {
    return fmt::format(
        "{} did not end within {}: {}; a wedged GPU driver does this (check the GPU with nvidia-smi); "
        "ROOFLINE_GPUBENCH_TIME_LIMIT=SECONDS gives every run of it longer",
        what, format_seconds(r.limit.seconds),
        r.limit.left_behind
            ? "it was sent SIGTERM and SIGKILL and still did not end (stuck in the driver): it is left behind, and "
              "ends when roofline does"
            : r.limit.sent_sigkill ? "its process group was killed (SIGKILL: it did not end on SIGTERM)"
                                   : "its process group was stopped (SIGTERM)");
}

} // namespace

std::string gpubench_program() {
    std::string why;
    const std::string path = gpubench_path(self_executable(), why);
    if (path.empty()) throw UsageError(fmt::format("--gpu: {}", why));
    return path;
}

double gpubench_time_limit(GpuBenchRun which) {
    if (const char* env = std::getenv("ROOFLINE_GPUBENCH_TIME_LIMIT"); env && *env) {
        char* end = nullptr;
        const double s = std::strtod(env, &end);
        if (end == env || *end != '\0' || !(s > 0 && s <= 7 * 86400))
            throw UsageError(fmt::format("ROOFLINE_GPUBENCH_TIME_LIMIT must be a number of seconds from 0 to a week "
                                         "(got '{}')", env));
        return s;
    }
    switch (which) {
    case GpuBenchRun::probe: return kGpuProbeLimitSeconds;
    case GpuBenchRun::quick: return kGpuQuickLimitSeconds;
    case GpuBenchRun::full: return kGpuFullLimitSeconds;
    }
    return kGpuFullLimitSeconds;
}

void probe_gpu(const std::string& program, int device) {
    const auto r = run(program, {"--probe", "--device", std::to_string(device)}, gpubench_time_limit(GpuBenchRun::probe));
    if (r.limit.expired)
        throw std::runtime_error(fmt::format(
            "--gpu: {}; nothing was measured",
            expired_text(r, fmt::format("the GPU benchmark's probe ({} --probe)", program))));
    const auto& status = r.status;
    if (status.exited && status.exit_code == 0) return;
    if (status.exited && status.exit_code == kNoDevice)
        throw std::runtime_error("--gpu: no CUDA device to measure (no GPU, or no driver); nothing was measured");
    throw std::runtime_error(fmt::format("--gpu: {} --probe {}", program, status.describe()));
}

GpuModel measure_gpu(const std::string& program, int device, bool quick, std::vector<std::string>& refused) {
    refused.clear();
    TempDir tmp("roofline-gpu");
    const std::string out = tmp.file("gpu.json");
    std::vector<std::string> args{"--device", std::to_string(device), "-o", out};
    if (quick) args.push_back("--quick");
    const auto r = run(program, args, gpubench_time_limit(quick ? GpuBenchRun::quick : GpuBenchRun::full));
    if (r.limit.expired)
        throw std::runtime_error(
            fmt::format("--gpu: {}; no GPU figures", expired_text(r, fmt::format("the GPU benchmark ({})", program))));
    const auto& status = r.status;
    // Exit 1 with its JSON written: kernels whose self-check failed were left out (listed in
    // self_check_failed); the other figures stand. Any other failure: nothing to read.
    const bool checks_failed = status.exited && status.exit_code == 1 && ::access(out.c_str(), R_OK) == 0;
    if (!status.exited || (status.exit_code != 0 && !checks_failed))
        throw std::runtime_error(fmt::format("--gpu: the GPU benchmark {}", status.describe()));
    GpuModel gpu;
    try {
        const auto json = parse_json_bounded(read_text_file(out), out);
        gpu = gpu_from_gpubench_json(json, program);
        if (const auto failed = json.at("gpu").find("self_check_failed"); failed != json.at("gpu").end() && failed->is_array())
            for (const auto& what : *failed)
                if (what.is_string())
                    refused.push_back(fmt::format("kernel self-check failed: {}", what.get<std::string>()));
        if (checks_failed && refused.empty())
            throw std::runtime_error(fmt::format("--gpu: the GPU benchmark {}", status.describe()));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("--gpu: the GPU benchmark wrote what is not JSON: {}", e.what()));
    }
    // The clock the compute roofs ran at is the GPU's measured clock (the highest read).
    for (const auto& r : gpu.compute) gpu.sm_clock_mhz = std::max(gpu.sm_clock_mhz, r.clock_mhz);
    fill_gpu_theoretical(gpu);
    for (auto& why : refuse_gpu_roofs_above_limit(gpu)) refused.push_back(std::move(why));
    return gpu;
}

} // namespace roofline::cli
