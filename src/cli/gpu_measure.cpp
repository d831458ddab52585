#include "cli/gpu_measure.hpp"

#include "app/gpu_measure.hpp"
#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "cli/point_delivery.hpp"
#include "io/machine_json.hpp"
#include "io/results_store.hpp"
#include "render/gpu_kernel_text.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace roofline::cli {
namespace {

void say(const app::GpuMeasureNote& note, bool quiet) {
    using Kind = app::GpuMeasureNote::Kind;
    if (quiet) return;
    if (note.kind == Kind::cupti_run)
        fmt::print(stderr, "roofline: run 1 of 2: the program under CUPTI ({}), for the copies and the span\n", note.text);
    else if (note.kind == Kind::ncu_run)
        fmt::print(stderr, "roofline: run 2 of 2: the program under ncu, for each kernel's FLOPs and bytes\n");
    else
        fmt::print(stderr, "roofline: note: 'ncu --query-metrics' listed no metrics: tensor-core work is not asked "
                           "for, and kernels that use the tensor cores get no point\n");
}

} // namespace

int measure_gpu_kernels(const GpuMeasureRequest& r) {
    // Every destination checked before the program runs: a run is never lost to a typo.
    if (!r.output.empty()) check_writable(r.output);
    std::unique_ptr<ResultsStore> store;
    if (!r.no_store) {
        check_store_writable(r.db);
        store = ResultsStore::open_db_option(r.db);
    }
    app::GpuMeasureRequest request{r.command, r.ncu_csv, r.offload, r.offload_summaries};
    request.vendor = r.vendor;
    // app::RequestError (no ncu, no offload library): a usage error (main).
    auto result = app::measure_gpu_kernels(request, store.get(), [&](const auto& note) { say(note, r.quiet); });
    if (result.ended_early) {
        if (result.failed_under_cupti)
            fmt::print(stderr, "roofline: the program failed under CUPTI (exit {}): not run under ncu, nothing "
                               "measured\n", *result.ended_early);
        return *result.ended_early;
    }
    if (!r.quiet) fmt::print("{}", gpu_kernel_table_text(result.kernels, result.from));
    for (const auto& w : result.csv_warnings)
        fmt::print(stderr, "roofline: warning: {}: {}\n", terminal_text(r.ncu_csv.empty() ? "ncu's CSV" : r.ncu_csv),
                   terminal_text(w));
    // A warning even with -q: the tensor work these metrics count is in no kernel's FLOPs.
    for (const auto& m : result.unknown_tensor_metrics)
        fmt::print(stderr, "roofline: warning: {} is a tensor-core metric not known here: the operations it counts "
                           "are not in any kernel's FLOPs (a kernel whose tensor pipe ran with none counted gets no "
                           "point)\n", terminal_text(m));
    std::vector<Point> points = std::move(result.kernels);
    if (result.offload) {
        if (!r.quiet) fmt::print("{}", offload_point_text(*result.offload));
        for (const auto& w : result.offload->warnings)
            fmt::print(stderr, "roofline: warning: whole offload: {}\n", terminal_text(w));
        points.push_back(std::move(result.offload->point));
    } else if (!result.offload_error.empty()) {  // the kernels' points are delivered all the same
        // The summary's note (what the injection library could not do) is outside text.
        fmt::print(stderr, "roofline: error: no whole-offload point: {}\n", terminal_text(result.offload_error));
    }
    const std::string set_name = r.command.empty() ? fmt::format("ncu CSV {}", r.ncu_csv)
                                                   : fmt::to_string(fmt::join(r.command, " "));
    Provenance provenance = run_provenance(r.command, "measure");
    app::describe_gpu_measure(request, result, provenance);
    PointDestinations to{r.output, nullptr, set_name, "the points", r.quiet};
    if (store) to.store = [&] { return store.get(); };
    const bool delivered = deliver_points(points, provenance, to);
    if (result.program_code != 0) return result.program_code;
    return delivered && result.offload_error.empty() ? kExitOk : kExitFailure;
}

} // namespace roofline::cli
