#include "cli/gpu_measure.hpp"

#include "cli/commands.hpp"
#include "cli/point_delivery.hpp"
#include "cli/usage_error.hpp"
#include "core/gpu_kernel_points.hpp"
#include "io/machine_json.hpp"
#include "io/ncu_csv.hpp"
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "render/number_format.hpp"
#include "cli/invocation.hpp"

#include <fmt/format.h>

#include <memory>
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

void print_points(const std::vector<Point>& points, const std::string& from) {
    fmt::print("CUDA kernels ({}; FLOPs from SASS instruction counts, an FMA as 2; bytes as ncu counts them)\n",
               from);
    fmt::print("{:<40} {:>8} {:>12} {:>10} {:>10} {:>10} {:>9} {:>10}\n", "kernel", "launches", "time s",
               "GFLOP/s", "FP64 %", "FP32 %", "DRAM GB/s", "FLOP/B DRAM");
    for (const auto& p : points) {
        const double flops = p.work, dram = p.bytes.count("DRAM") ? p.bytes.at("DRAM") : 0;
        const auto share = [&](const char* key) { return flops > 0 ? 100 * detail(p, key) / flops : 0.0; };
        std::string name = p.name.size() > 40 ? p.name.substr(0, 37) + "..." : p.name;
        fmt::print("{:<40} {:>8} {:>12.4g} {:>10.4g} {:>10.1f} {:>10.1f} {:>9.4g} {:>10}\n", name,
                   static_cast<long long>(detail(p, "launches")), p.seconds,
                   p.seconds > 0 ? flops / p.seconds * 1e-9 : 0.0, share("flops_fp64"), share("flops_fp32"),
                   p.seconds > 0 ? dram / p.seconds * 1e-9 : 0.0, dram > 0 ? format_number(flops / dram) : "-");
    }
    for (const auto& p : points)
        if (detail(p, "tensor_not_counted") > 0) {
            fmt::print("note: tensor-core FLOPs were not counted (no sm__ops_path_tensor_* metrics): a kernel "
                       "using tensor cores sits below its true performance\n");
            break;
        }
}

Provenance provenance_of(const GpuMeasureRequest& r, const std::string& ncu) {
    Provenance p = run_provenance(r.command, "measure");
    p.engine = "ncu";
    p.runs = {"ncu"};
    if (!r.ncu_csv.empty()) p.options["ncu_csv"] = r.ncu_csv;
    if (!ncu.empty()) p.options["ncu"] = ncu;
    return p;
}

} // namespace

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& csv_path,
                                     const std::vector<std::string>& command) {
    std::vector<std::string> argv{ncu,          "--csv",    "--print-units", "base", "--target-processes", "all",
                                  "--log-file", csv_path, "--metrics",
                                  fmt::format("{}", fmt::join(ncu_roofline_metrics(), ","))};
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
    if (!r.ncu_csv.empty()) {
        text = read_text_file(r.ncu_csv);
        from = r.ncu_csv;
    } else {
        ncu = find_ncu();
        if (ncu.empty())
            throw UsageError("--engine ncu: Nsight Compute's ncu is not on PATH (nor in /usr/local/cuda/bin); install "
                             "the CUDA toolkit, or run ncu elsewhere and read its CSV with --ncu-csv FILE");
        TempDir tmp("roofline-ncu");
        const std::string csv = tmp.file("ncu.csv");
        measure::clear_interrupt();
        measure::InterruptScope interrupt_scope;
        const auto run = measure::run_child(ncu_command(ncu, csv, r.command), {});
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
    const std::string set_name = r.command.empty() ? fmt::format("ncu CSV {}", r.ncu_csv)
                                                   : fmt::to_string(fmt::join(r.command, " "));
    PointDestinations to{r.output, nullptr, set_name, "the points", r.quiet};
    if (store) to.store = [&] { return store.get(); };
    const bool delivered = deliver_points(points, provenance_of(r, ncu), to);
    return delivered || program_code != 0 ? program_code : kExitFailure;
}

} // namespace roofline::cli
