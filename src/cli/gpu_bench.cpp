#include "cli/gpu_bench.hpp"

#include "render/number_format.hpp"

#include <fmt/core.h>

namespace roofline::cli {

std::string gpu_run_timed_out_text(const app::GpuRunTimedOut& t) {
    using Ending = app::GpuRunTimedOut::Ending;
    const bool probe = t.run == app::GpuRunTimedOut::Run::probe;
    const std::string what = probe ? fmt::format("the GPU benchmark's probe ({} --probe)", t.program)
                                   : fmt::format("the GPU benchmark ({})", t.program);
    const char* ending =
        t.ending == Ending::left_behind
            ? "it was sent SIGTERM and SIGKILL and still did not end (stuck in the driver): it is left behind, and "
              "ends when roofline does"
        : t.ending == Ending::killed ? "its process group was killed (SIGKILL: it did not end on SIGTERM)"
                                     : "its process group was stopped (SIGTERM)";
    return fmt::format("--gpu: {} did not end within {}: {}; a wedged GPU driver does this (check the GPU with {}); "
                       "{}=SECONDS gives every run of it longer; {}",
                       what, format_seconds(t.limit_seconds), ending, t.device_check, t.limit_variable,
                       probe ? "nothing was measured" : "no GPU figures");
}

} // namespace roofline::cli
