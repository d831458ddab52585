#include "app/gpu/cuda/gpubench_run.hpp"

#include "core/gpu_l2_check.hpp"
#include "core/gpu_specs.hpp"
#include "io/install_layout.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <unistd.h>

namespace roofline::app::cuda {
namespace {

constexpr int kGpubenchNoDevice = 77;  // roofline-gpubench: no CUDA device or driver

// A run of the benchmark and how its time limit (gpubench_time_limit) went.
struct GpubenchChildRun {
    measure::ChildStatus status;
    measure::TimeLimit limit;
};

GpubenchChildRun run_gpubench(const std::string& program, const std::vector<std::string>& args, double limit_seconds) {
    std::vector<std::string> argv{program};
    argv.insert(argv.end(), args.begin(), args.end());
    GpubenchChildRun r;
    r.limit.seconds = limit_seconds;
    r.status = measure::run_child(argv, {}, {}, measure::wait_within(r.limit)).status;
    return r;
}

GpuRunTimedOut gpubench_timed_out(GpuRunTimedOut::Run which, const std::string& program, const measure::TimeLimit& limit) {
    using Ending = GpuRunTimedOut::Ending;
    const Ending ending = limit.left_behind ? Ending::left_behind : limit.sent_sigkill ? Ending::killed : Ending::stopped;
    return GpuRunTimedOut(which, program, limit.seconds, ending, "nvidia-smi", kGpubenchLimitVariable);
}

} // namespace

std::string find_gpubench(std::string& why) { return gpubench_path(self_executable(), why); }

double gpubench_time_limit(GpubenchRun which) {
    if (const char* env = std::getenv(kGpubenchLimitVariable); env && *env) {
        char* end = nullptr;
        const double s = std::strtod(env, &end);
        if (end == env || *end != '\0' || !(s > 0 && s <= 7 * 86400))
            throw RequestError(fmt::format("{} must be a number of seconds from 0 to a week (got '{}')",
                                           kGpubenchLimitVariable, env));
        return s;
    }
    switch (which) {
    case GpubenchRun::probe: return kGpuProbeLimitSeconds;
    case GpubenchRun::quick: return kGpuQuickLimitSeconds;
    case GpubenchRun::full: return kGpuFullLimitSeconds;
    }
    return kGpuFullLimitSeconds;
}

void probe_with_gpubench(const std::string& program, int device) {
    const auto r = run_gpubench(program, {"--probe", "--device", std::to_string(device)},
                                gpubench_time_limit(GpubenchRun::probe));
    if (r.limit.expired) throw gpubench_timed_out(GpuRunTimedOut::Run::probe, program, r.limit);
    const auto& status = r.status;
    if (status.exited && status.exit_code == 0) return;
    if (status.exited && status.exit_code == kGpubenchNoDevice)
        throw std::runtime_error("--gpu: no CUDA device to measure (no GPU, or no driver); nothing was measured");
    throw std::runtime_error(fmt::format("--gpu: {} --probe {}", program, status.describe()));
}

GpuBenchResult measure_with_gpubench(const std::string& program, int device, bool quick) {
    GpuBenchResult result;
    TempDir tmp("roofline-gpu");
    const std::string out = tmp.file("gpu.json");
    std::vector<std::string> args{"--device", std::to_string(device), "-o", out};
    if (quick) args.push_back("--quick");
    const auto r = run_gpubench(program, args, gpubench_time_limit(quick ? GpubenchRun::quick : GpubenchRun::full));
    if (r.limit.expired) throw gpubench_timed_out(GpuRunTimedOut::Run::measure, program, r.limit);
    const auto& status = r.status;
    // Exit 1 with its JSON written: kernels whose self-check failed were left out (listed in
    // self_check_failed); the other figures stand. Any other failure: nothing to read.
    const bool checks_failed = status.exited && status.exit_code == 1 && ::access(out.c_str(), R_OK) == 0;
    if (!status.exited || (status.exit_code != 0 && !checks_failed))
        throw std::runtime_error(fmt::format("--gpu: the GPU benchmark {}", status.describe()));
    GpuModel& gpu = result.gpu;
    try {
        const auto json = parse_json_bounded(read_text_file(out), out);
        gpu = gpu_from_gpubench_json(json, program);
        if (const auto failed = json.at("gpu").find("self_check_failed"); failed != json.at("gpu").end() && failed->is_array())
            for (const auto& what : *failed)
                if (what.is_string())
                    result.refused.push_back(fmt::format("kernel self-check failed: {}", what.get<std::string>()));
        if (checks_failed && result.refused.empty())
            throw std::runtime_error(fmt::format("--gpu: the GPU benchmark {}", status.describe()));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("--gpu: the GPU benchmark wrote what is not JSON: {}", e.what()));
    }
    // The clock the compute roofs ran at is the GPU's measured clock (the highest read).
    for (const auto& roof : gpu.compute) gpu.sm_clock_mhz = std::max(gpu.sm_clock_mhz, roof.clock_mhz);
    fill_gpu_theoretical(gpu);
    for (auto& why : refuse_gpu_roofs_above_limit(gpu, &result.notes)) result.refused.push_back(std::move(why));
    for (auto& why : refuse_gpu_l2_reuse(gpu)) result.refused.push_back(std::move(why));
    return result;
}

} // namespace roofline::app::cuda
