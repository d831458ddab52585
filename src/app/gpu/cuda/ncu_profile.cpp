#include "app/gpu/cuda/ncu_profile.hpp"

#include "app/request_error.hpp"

#include "core/gpu_kernel_points.hpp"
#include "io/install_layout.hpp"
#include "io/ncu_csv.hpp"
#include "io/offload_summary.hpp"
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include <unistd.h>

namespace roofline::app::cuda {
namespace {

// ncu on PATH, else where the CUDA toolkit puts it.
std::string find_ncu() {
    if (auto path = measure::find_executable("ncu"); !path.empty()) return path;
    if (::access("/usr/local/cuda/bin/ncu", X_OK) == 0) return "/usr/local/cuda/bin/ncu";
    return {};
}

// The program once under the CUPTI injection library (the driver loads it at the first CUDA
// call): its summary of copies, migrations, kernels and span, and the run's wall time. A failed
// program, or one that made no CUDA call, ends the measurement here: ncu is not run.
struct CuptiRun {
    OffloadSummary summary;
    double wall_seconds = 0;
    int exit_code = 0;   // the program's, when it failed
    bool interrupted = false;
};

CuptiRun run_under_cupti(const std::vector<std::string>& command, const GpuMeasureNotes& notes) {
    std::string why;
    const std::string library = offload_library_path(self_executable(), why);
    if (library.empty()) throw RequestError(fmt::format("--offload: {}", why));
    TempDir tmp("roofline-offload");
    const std::string out = tmp.file("offload");  // each CUDA process writes offload.<pid>
    notes({GpuMeasureNote::Kind::cupti_run, library});
    measure::clear_interrupt();
    measure::InterruptScope interrupt_scope;
    const auto run = measure::run_child(command, {{"CUDA_INJECTION64_PATH", library}, {"ROOFLINE_OFFLOAD_OUT", out}});
    CuptiRun result;
    if (measure::interrupt_signal()) {
        result.interrupted = true;
        result.exit_code = 128 + measure::interrupt_signal();
        return result;
    }
    result.wall_seconds = run.wall_seconds;
    result.exit_code = run.status.pass_through_code();
    if (result.exit_code != 0) return result;
    std::vector<OffloadSummary> parts;
    for (const auto& file : tmp.files_with_prefix("offload.")) parts.push_back(read_offload_summary(file));
    if (parts.empty())
        throw std::runtime_error(fmt::format(
            "--offload: the program ran ({}) but the CUPTI library wrote no summary: it made no CUDA call, or the "
            "CUDA driver did not load {} (CUDA_INJECTION64_PATH is read by the driver, libcuda)",
            run.status.describe(), library));
    result.summary = merge_offload_summaries(parts);
    return result;
}

// This machine's measured bus roofs, from the latest stored model with a GPU (bench --gpu):
// none when there is no store, no such model, or it cannot be read (the physical limit holds).
OffloadBusRoofs stored_bus_roofs(const ResultsStore* store) {
    if (!store) return {};
    try {
        const auto model = store->latest_machine();
        if (!model || model->gpus.empty()) return {};
        return offload_bus_roofs(model->gpus.front(), "the latest stored machine model's GPU 0");
    } catch (const std::exception&) {
        return {};
    }
}

// The metrics this machine's device has, as `ncu --query-metrics` lists them (empty when it
// cannot say: no device, an old ncu); the tensor-core counters are asked for only when listed,
// since ncu refuses a metric the chip lacks.
std::vector<std::string> device_metric_names(const std::string& ncu) {
    TempDir tmp("roofline-ncu-query");
    const std::string listing = tmp.file("metrics.txt");
    try {
        const auto run = measure::run_child({"/bin/sh", "-c", "exec \"$0\" --query-metrics >\"$1\" 2>/dev/null", ncu,
                                             listing},
                                            {});
        if (!run.status.exited || run.status.exit_code != 0 || ::access(listing.c_str(), R_OK) != 0) return {};
        return parse_ncu_metric_names(read_text_file(listing));
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& csv_path,
                                     const std::vector<std::string>& command,
                                     const std::vector<std::string>& device_metrics) {
    // --clock-control none: ncu locks the SM clock to its base by default, but the GPU's roofs are
    // measured at the clocks the GPU chooses itself; a kernel timed at base clock would sit lower
    // under its roof than it runs (the H200: 1980 MHz boost against a lower base).
    std::vector<std::string> argv{ncu,          "--csv",    "--print-units", "base", "--target-processes", "all",
                                  "--clock-control", "none", "--log-file", csv_path, "--metrics",
                                  fmt::format("{}", fmt::join(ncu_roofline_metrics(device_metrics), ","))};
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

void describe_ncu_profile(const GpuMeasureRequest& r, const std::string& ncu, Provenance& p) {
    p.engine = "ncu";
    p.runs = {"ncu"};
    if (r.offload) p.runs = {"cupti", "ncu"};
    if (!r.ncu_csv.empty()) p.options["ncu_csv"] = r.ncu_csv;
    if (!r.offload_summaries.empty()) p.options["offload_summary"] = fmt::format("{}", fmt::join(r.offload_summaries, " "));
    if (!ncu.empty()) p.options["ncu"] = ncu;
}

GpuMeasureResult profile_with_ncu(const GpuMeasureRequest& r, const ResultsStore* store, const GpuMeasureNotes& notes) {
    GpuMeasureResult result;
    std::string text;
    std::optional<CuptiRun> cupti;
    if (!r.offload_summaries.empty()) {
        cupti.emplace();
        std::vector<OffloadSummary> parts;
        for (std::size_t i = 0; i < r.offload_summaries.size(); ++i) {
            const std::string& file = r.offload_summaries[i];
            // Each summary is one process's: the same one twice would double its copies and kernels.
            for (std::size_t j = 0; j < i; ++j)
                if (std::filesystem::path(file).lexically_normal() ==
                    std::filesystem::path(r.offload_summaries[j]).lexically_normal())
                    throw RequestError(fmt::format("--offload-summary: {} is given twice: each process's summary "
                                                   "once", file));
            parts.push_back(read_offload_summary(file));
            for (std::size_t j = 0; j < i; ++j)
                if (parts[i].pid != 0 && parts[i].pid == parts[j].pid)
                    throw RequestError(fmt::format("--offload-summary: {} and {} are both of process {}: the same "
                                                   "summary twice (a copy?) would count its copies and kernels "
                                                   "twice; give each process's summary once",
                                                   r.offload_summaries[j], file, parts[i].pid));
        }
        cupti->summary = merge_offload_summaries(parts);
    }
    if (!r.ncu_csv.empty()) {
        text = read_text_file(r.ncu_csv);
        result.from = r.ncu_csv;
    } else {
        result.ncu = find_ncu();
        if (result.ncu.empty())
            throw RequestError("--engine ncu: Nsight Compute's ncu is not on PATH (nor in /usr/local/cuda/bin); install "
                               "the CUDA toolkit, or run ncu elsewhere and read its CSV with --ncu-csv FILE");
        if (r.offload) {
            cupti = run_under_cupti(r.command, notes);
            if (cupti->interrupted || cupti->exit_code != 0) {
                result.ended_early = cupti->exit_code;
                result.failed_under_cupti = !cupti->interrupted;
                return result;
            }
            notes({GpuMeasureNote::Kind::ncu_run, {}});
        }
        TempDir tmp("roofline-ncu");
        const std::string csv = tmp.file("ncu.csv");
        measure::clear_interrupt();
        measure::InterruptScope interrupt_scope;
        const auto device_metrics = device_metric_names(result.ncu);
        if (device_metrics.empty()) notes({GpuMeasureNote::Kind::no_device_metrics, {}});
        const auto run = measure::run_child(ncu_command(result.ncu, csv, r.command, device_metrics), {});
        if (measure::interrupt_signal()) {
            result.ended_early = 128 + measure::interrupt_signal();
            return result;
        }
        if (::access(csv.c_str(), R_OK) != 0)
            throw std::runtime_error(fmt::format("ncu wrote no results ({}); nothing was measured", run.status.describe()));
        text = read_text_file(csv);
        result.program_code = run.status.pass_through_code();
        result.from = "ncu";
    }
    try {
        auto csv = read_ncu_csv(text);
        result.csv_warnings = std::move(csv.warnings);
        const auto& metrics = csv.metrics;
        result.kernels = gpu_kernel_points(metrics);
        result.unknown_tensor_metrics = unknown_tensor_metrics(metrics);
    } catch (const std::runtime_error& e) {
        // The reader's warnings may say why (a misspelled metric, then no duration).
        throw std::runtime_error(fmt::format("{}: {}{}", r.ncu_csv.empty() ? "ncu's CSV" : r.ncu_csv, e.what(),
                                             result.csv_warnings.empty()
                                                 ? ""
                                                 : fmt::format(" ({})", fmt::join(result.csv_warnings, "; "))));
    }
    if (result.kernels.empty())
        throw std::runtime_error(fmt::format(
            "{}: no CUDA kernel was profiled (none ran, or ncu lacked the permission to read the GPU's counters: "
            "ERR_NVGPUCTRPERM, see NVIDIA's note on RmProfilingAdminOnly)",
            result.from));
    if (cupti) {
        try {
            result.offload = offload_point(result.kernels, cupti->summary, cupti->wall_seconds, stored_bus_roofs(store));
        } catch (const std::runtime_error& e) {
            result.offload_error = e.what();
        }
    }
    return result;
}

} // namespace roofline::app::cuda
