#include "cli/gpu_measure.hpp"

#include "cli/commands.hpp"
#include "cli/point_delivery.hpp"
#include "cli/usage_error.hpp"
#include "core/gpu_kernel_points.hpp"
#include "core/offload_point.hpp"
#include "io/machine_json.hpp"
#include "io/install_layout.hpp"
#include "io/ncu_csv.hpp"
#include "io/offload_summary.hpp"
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"
#include "cli/invocation.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace roofline::cli {
namespace {

// ncu on PATH, else where the CUDA toolkit puts it.
std::string find_ncu() {
    if (auto path = measure::find_executable("ncu"); !path.empty()) return path;
    if (::access("/usr/local/cuda/bin/ncu", X_OK) == 0) return "/usr/local/cuda/bin/ncu";
    return {};
}

double detail(const Point& p, const char* key) {
    const auto it = p.details.find(key);
    return it == p.details.end() ? 0.0 : it->second;
}

// A kernel's name for the terminal: escaped (it comes from ncu's CSV), at most `width` bytes.
std::string short_name(const std::string& name, std::size_t width) {
    std::string out = terminal_text(name);
    if (out.size() > width) out = out.substr(0, width - 3) + "...";
    return out;
}

void print_points(const std::vector<Point>& points, const std::string& from) {
    fmt::print("CUDA kernels ({}; FLOPs from SASS instruction counts, an FMA as 2; bytes as ncu counts them)\n",
               terminal_text(from));
    fmt::print("{:<40} {:>8} {:>12} {:>10} {:>10} {:>10} {:>9} {:>10}\n", "kernel", "launches", "time s",
               "GFLOP/s", "FP64 %", "FP32 %", "DRAM GB/s", "FLOP/B DRAM");
    for (const auto& p : points) {
        const double flops = p.work, dram = p.bytes.count("DRAM") ? p.bytes.at("DRAM") : 0;
        const auto share = [&](const char* key) { return flops > 0 ? 100 * detail(p, key) / flops : 0.0; };
        // Kernel names come from the CSV (a file anyone may hand us): escaped, then cut.
        std::string name = terminal_text(p.name);
        if (name.size() > 40) name = name.substr(0, 37) + "...";
        fmt::print("{:<40} {:>8} {:>12.4g} {:>10.4g} {:>10.1f} {:>10.1f} {:>9.4g} {:>10}\n", name,
                   static_cast<long long>(detail(p, "launches")), p.seconds,
                   p.seconds > 0 ? flops / p.seconds * 1e-9 : 0.0, share("flops_fp64"), share("flops_fp32"),
                   p.seconds > 0 ? dram / p.seconds * 1e-9 : 0.0, dram > 0 ? format_number(flops / dram) : "-");
    }
    for (const auto& p : points)
        if (detail(p, "flops_tensor") > 0)
            fmt::print("{}: {} of its FLOPs on the tensor cores\n", short_name(p.name, 60),
                       format_percent(detail(p, "flops_tensor") / p.work));
    for (const auto& p : points) {
        if (p.work_counted) continue;
        if (detail(p, "flop_counters_unavailable") > 0)
            fmt::print("{}: no point: ncu could not collect its FLOP counters (n/a) and counted no other work: its FLOPs "
                       "are unknown\n", terminal_text(p.name));
        else
            fmt::print("{}: no point: its tensor pipe ran {} warp instructions whose operations were not counted "
                       "(this ncu or device has no sm__ops_path_tensor_src_* metrics): its FLOPs are unknown\n",
                       terminal_text(p.name), format_number(detail(p, "tensor_instructions")));
    }
    for (const auto& p : points)
        if (detail(p, "tensor_not_counted") > 0 && p.work_counted) {
            fmt::print("note: tensor-core operations were not counted (no sm__ops_path_tensor_src_* metrics): a "
                       "kernel using the tensor cores would sit below its true performance\n");
            break;
        }
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
CuptiRun run_under_cupti(const std::vector<std::string>& command, bool quiet) {
    std::string why;
    const std::string library = offload_library_path(self_executable(), why);
    if (library.empty()) throw UsageError(fmt::format("--offload: {}", why));
    TempDir tmp("roofline-offload");
    const std::string out = tmp.file("offload");  // each CUDA process writes offload.<pid>
    if (!quiet) fmt::print(stderr, "roofline: run 1 of 2: the program under CUPTI ({}), for the copies and the span\n", library);
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

void print_offload(const OffloadPoint& o) {
    const Point& p = o.point;
    const double bus = p.bytes.count("PCIe") ? p.bytes.at("PCIe") : 0;
    const double dram = p.bytes.count("DRAM") ? p.bytes.at("DRAM") : 0;
    const auto mb = [](double bytes) { return format_number(bytes * 1e-6) + " MB"; };
    const auto plural = [](double n, const char* one, const char* many) {
        return fmt::format("{} {}", static_cast<long long>(n), n == 1 ? one : many);
    };
    // No wall time with --offload-summary: the summaries were recorded by an earlier run.
    const double wall = detail(p, "wall_seconds");
    fmt::print("whole offload: {} and {}{} in {} (first GPU activity to the last; the program's wall time {})\n",
               plural(detail(p, "kernel_launches"), "kernel launch", "kernel launches"),
               plural(detail(p, "copies"), "copy", "copies"),
               detail(p, "cuda_processes") > 1 ? fmt::format(" over {} CUDA processes", detail(p, "cuda_processes")) : "",
               format_seconds(p.seconds),
               wall > 0 ? format_seconds(wall) : std::string("unknown: the summary comes from an earlier run"));
    fmt::print("  bus: {} host to device, {} device to host, {} migrated (unified memory)\n",
               mb(detail(p, "host_to_device_bytes")), mb(detail(p, "device_to_host_bytes")),
               mb(detail(p, "migrated_to_device_bytes") + detail(p, "migrated_to_host_bytes")));
    if (bus > 0 && p.work_counted) {
        const double ti = p.work / bus;
        fmt::print("  {} GFLOP/s; TI {} FLOP per bus byte", format_number(p.work / p.seconds * 1e-9), format_number(ti));
        if (dram > 0) fmt::print(", a = TI / I(DRAM) = {}", format_number(ti / (p.work / dram)));
        fmt::print("\n");
    }
    for (const auto& w : o.warnings) fmt::print(stderr, "roofline: warning: whole offload: {}\n", terminal_text(w));
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

Provenance provenance_of(const GpuMeasureRequest& r, const std::string& ncu) {
    Provenance p = run_provenance(r.command, "measure");
    p.engine = "ncu";
    p.runs = {"ncu"};
    if (r.offload) p.runs = {"cupti", "ncu"};
    if (!r.ncu_csv.empty()) p.options["ncu_csv"] = r.ncu_csv;
    if (!r.offload_summaries.empty()) p.options["offload_summary"] = fmt::format("{}", fmt::join(r.offload_summaries, " "));
    if (!ncu.empty()) p.options["ncu"] = ncu;
    return p;
}

} // namespace

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

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& csv_path,
                                     const std::vector<std::string>& command,
                                     const std::vector<std::string>& device_metrics) {
    std::vector<std::string> argv{ncu,          "--csv",    "--print-units", "base", "--target-processes", "all",
                                  "--log-file", csv_path, "--metrics",
                                  fmt::format("{}", fmt::join(ncu_roofline_metrics(device_metrics), ","))};
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

int measure_gpu_kernels(const GpuMeasureRequest& r) {
    // Every destination checked before the program runs: a run is never lost to a typo.
    if (!r.output.empty()) check_writable(r.output);
    std::unique_ptr<ResultsStore> store;
    if (!r.no_store) {
        check_store_writable(r.db);
        store = ResultsStore::open_db_option(r.db);
    }
    std::string ncu, text, from;
    int program_code = 0;
    std::optional<CuptiRun> cupti;
    if (!r.offload_summaries.empty()) {
        cupti.emplace();
        std::vector<OffloadSummary> parts;
        for (const auto& file : r.offload_summaries) parts.push_back(read_offload_summary(file));
        cupti->summary = merge_offload_summaries(parts);
    }
    if (!r.ncu_csv.empty()) {
        text = read_text_file(r.ncu_csv);
        from = r.ncu_csv;
    } else {
        ncu = find_ncu();
        if (ncu.empty())
            throw UsageError("--engine ncu: Nsight Compute's ncu is not on PATH (nor in /usr/local/cuda/bin); install "
                             "the CUDA toolkit, or run ncu elsewhere and read its CSV with --ncu-csv FILE");
        if (r.offload) {
            cupti = run_under_cupti(r.command, r.quiet);
            if (cupti->interrupted) return cupti->exit_code;
            if (cupti->exit_code != 0) {
                fmt::print(stderr, "roofline: the program failed under CUPTI (exit {}): not run under ncu, nothing "
                                   "measured\n", cupti->exit_code);
                return cupti->exit_code;
            }
            if (!r.quiet) fmt::print(stderr, "roofline: run 2 of 2: the program under ncu, for each kernel's FLOPs and bytes\n");
        }
        TempDir tmp("roofline-ncu");
        const std::string csv = tmp.file("ncu.csv");
        measure::clear_interrupt();
        measure::InterruptScope interrupt_scope;
        const auto device_metrics = device_metric_names(ncu);
        if (device_metrics.empty() && !r.quiet)
            fmt::print(stderr, "roofline: note: 'ncu --query-metrics' listed no metrics: tensor-core work is not "
                               "asked for, and kernels that use the tensor cores get no point\n");
        const auto run = measure::run_child(ncu_command(ncu, csv, r.command, device_metrics), {});
        if (measure::interrupt_signal()) return 128 + measure::interrupt_signal();
        if (::access(csv.c_str(), R_OK) != 0)
            throw std::runtime_error(fmt::format("ncu wrote no results ({}); nothing was measured", run.status.describe()));
        text = read_text_file(csv);
        program_code = run.status.pass_through_code();
        from = "ncu";
    }
    std::vector<Point> points;
    try {
        points = gpu_kernel_points(parse_ncu_csv(text));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(fmt::format("{}: {}", r.ncu_csv.empty() ? "ncu's CSV" : r.ncu_csv, e.what()));
    }
    if (points.empty())
        throw std::runtime_error(fmt::format(
            "{}: no CUDA kernel was profiled (none ran, or ncu lacked the permission to read the GPU's counters: "
            "ERR_NVGPUCTRPERM, see NVIDIA's note on RmProfilingAdminOnly)",
            from));
    if (!r.quiet) print_points(points, from);
    bool offload_failed = false;  // the kernels' points are delivered all the same
    if (cupti) {
        try {
            auto offload = offload_point(points, cupti->summary, cupti->wall_seconds, stored_bus_roofs(store.get()));
            if (!r.quiet) print_offload(offload);
            else
                for (const auto& w : offload.warnings)
                    fmt::print(stderr, "roofline: warning: whole offload: {}\n", terminal_text(w));
            points.push_back(std::move(offload.point));
        } catch (const std::runtime_error& e) {
            // The summary's note (what the injection library could not do) is outside text.
            fmt::print(stderr, "roofline: error: no whole-offload point: {}\n", terminal_text(e.what()));
            offload_failed = true;
        }
    }
    const std::string set_name = r.command.empty() ? fmt::format("ncu CSV {}", r.ncu_csv)
                                                   : fmt::to_string(fmt::join(r.command, " "));
    PointDestinations to{r.output, nullptr, set_name, "the points", r.quiet};
    if (store) to.store = [&] { return store.get(); };
    const bool delivered = deliver_points(points, provenance_of(r, ncu), to);
    if (program_code != 0) return program_code;
    return delivered && !offload_failed ? kExitOk : kExitFailure;
}

} // namespace roofline::cli
