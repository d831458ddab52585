#include "render/gpu_kernel_text.hpp"

#include "core/gpu_kernel_points.hpp"

#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace roofline {
namespace {

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

// Bytes as people read them: "24 B", "3.00 kB", "101 MB", "1.20 GB" (decimal units, as GB/s).
std::string bytes_text(double bytes) {
    if (bytes == 0) return "0 MB";
    if (bytes < 1e3) return fmt::format("{:.0f} B", bytes);
    if (bytes < 1e6) return format_number(bytes * 1e-3) + " kB";
    if (bytes < 1e9) return format_number(bytes * 1e-6) + " MB";
    return format_number(bytes * 1e-9) + " GB";
}

} // namespace

std::string gpu_kernel_table_text(const std::vector<Point>& points, const std::string& from) {
    std::string out = fmt::format(
        "CUDA kernels ({}; FLOPs: SASS instruction counts, an FMA as 2, and tensor-core operations; bytes as ncu "
        "counts them; -: not measured)\n",
        terminal_text(from));
    out += "judged on: the roof report --gpu judges a kernel on, of the precision most of its FLOPs ran in ('fp64 "
           "tensor': that tensor roof alone, its fp64 work ran on the tensor cores; 'fp32': the top fp32 roof); "
           "% FLOPs: its FLOPs in that precision\n";
    out += fmt::format("{:<40} {:>8} {:>12} {:>10} {:>12} {:>8} {:>10} {:>11}\n", "kernel", "launches", "time s",
                       "GFLOP/s", "judged on", "% FLOPs", "DRAM GB/s", "FLOP/B DRAM");
    for (const auto& p : points) {
        const double flops = p.work;
        const auto dram = p.bytes.find("DRAM");  // absent: ncu did not record it
        // A kernel whose FLOPs are unknown shows none: its counted part alone would read as a result.
        const bool work = p.work_counted && flops > 0;
        const GpuWork own = dominant_gpu_work({p});
        std::string judged = "-", share = "-";
        if (work && !own.precision.empty()) {
            judged = own.tensor ? own.precision + " tensor" : own.precision;
            double in_it = 0;
            for (const auto& f : gpu_flops_by_precision(p))
                if (f.precision == own.precision) in_it = f.fma + f.tensor;
            share = fmt::format("{:.1f}", 100 * in_it / flops);
        }
        out += fmt::format("{:<40} {:>8} {:>12.4g} {:>10} {:>12} {:>8} {:>10} {:>11}\n", short_name(p.name, 40),
                           static_cast<long long>(detail(p, "launches")), p.seconds,
                           p.work_counted ? fmt::format("{:.4g}", performance(p)) : "-", judged, share,
                           dram != p.bytes.end() && p.seconds > 0 ? fmt::format("{:.4g}", dram->second / p.seconds * 1e-9)
                                                                  : "-",
                           dram != p.bytes.end() && dram->second > 0 && p.work_counted
                               ? format_number(flops / dram->second)
                               : "-");
    }
    for (const auto& p : points)
        if (detail(p, "flops_tensor") > 0)
            out += fmt::format("{}: {} of its FLOPs on the tensor cores\n", short_name(p.name, 60),
                               format_percent(detail(p, "flops_tensor") / p.work));
    for (const auto& p : points) {
        if (p.work_counted) continue;
        if (detail(p, "tensor_instructions") > 0) {
            const double na = detail(p, "tensor_counters_unavailable");
            const std::string why =
                na > 0 ? fmt::format("ncu printed n/a for {} of its sm__ops_path_tensor_src_* counters",
                                     static_cast<long long>(na))
                : detail(p, "tensor_not_counted") > 0
                    ? "this ncu or device recorded no sm__ops_path_tensor_src_* metrics"
                    : "none of the sm__ops_path_tensor_src_* counters known here counted them: a format under "
                      "another name?";
            out += fmt::format("{}: no point: its tensor pipe ran {} warp instructions whose operations were not "
                               "counted ({}): its FLOPs are unknown\n",
                               terminal_text(p.name), format_number(detail(p, "tensor_instructions")), why);
        } else if (detail(p, "flop_counters_unavailable") > 0) {
            out += fmt::format("{}: no point: ncu could not collect its FLOP counters (n/a) and counted no other "
                               "work: its FLOPs are unknown\n", terminal_text(p.name));
        } else if (detail(p, "tensor_not_recorded") > 0) {
            out += fmt::format("{}: no point: no FLOPs counted, and its tensor-core work was not recorded: a kernel "
                               "that ran on the tensor cores shows 0 this way\n", terminal_text(p.name));
        }
    }
    for (const auto& p : points)
        if (detail(p, "tensor_counters_unavailable") > 0 && p.work_counted)
            out += fmt::format("note: {}: ncu printed n/a for {} of its tensor operation counters: its tensor work in "
                               "those formats, if any, is not in its FLOPs\n",
                               short_name(p.name, 60), static_cast<long long>(detail(p, "tensor_counters_unavailable")));
    const auto any = [&](const char* key) {
        return std::any_of(points.begin(), points.end(), [&](const Point& p) { return detail(p, key) > 0; });
    };
    if (any("tensor_not_recorded"))
        out += "note: tensor-core work was not recorded (no sm__ops_path_tensor_src_* and no "
               "sm__inst_executed_pipe_tensor metrics): every kernel's FLOPs leave out what ran on the tensor cores, "
               "so one that used them sits far below its true performance; record them (measure --help lists the "
               "metrics)\n";
    else if (any("tensor_not_counted"))
        out += "note: tensor-core operations were not counted (no sm__ops_path_tensor_src_* metrics): a kernel "
               "using the tensor cores would sit below its true performance\n";
    return out;
}

std::string offload_point_text(const OffloadPoint& o) {
    const Point& p = o.point;
    const double bus = p.bytes.count("PCIe") ? p.bytes.at("PCIe") : 0;
    const double dram = p.bytes.count("DRAM") ? p.bytes.at("DRAM") : 0;
    const auto mb = [](double bytes) { return bytes_text(bytes); };
    const auto plural = [](double n, const char* one, const char* many) {
        return fmt::format("{} {}", static_cast<long long>(n), n == 1 ? one : many);
    };
    // No wall time with --offload-summary: the summaries were recorded by an earlier run.
    const double wall = detail(p, "wall_seconds");
    std::string out = fmt::format(
        "whole offload: {} and {}{} in {} (first GPU activity to the last; the program's wall time {})\n",
        plural(detail(p, "kernel_launches"), "kernel launch", "kernel launches"),
        plural(detail(p, "copies"), "copy", "copies"),
        detail(p, "cuda_processes") > 1 ? fmt::format(" over {} CUDA processes", detail(p, "cuda_processes")) : "",
        format_seconds(p.seconds), wall > 0 ? format_seconds(wall) : std::string("unknown: the summary comes from an earlier run"));
    out += fmt::format("  bus: {} host to device, {} device to host, {} migrated (unified memory)\n",
                       mb(detail(p, "host_to_device_bytes")), mb(detail(p, "device_to_host_bytes")),
                       mb(detail(p, "migrated_to_device_bytes") + detail(p, "migrated_to_host_bytes")));
    if (bus > 0 && p.work_counted) {
        const double ti = p.work / bus;
        out += fmt::format("  {} GFLOP/s; TI {} FLOP per bus byte", format_number(performance(p)), format_number(ti));
        if (dram > 0) out += fmt::format(", a = TI / I(DRAM) = {}", format_number(ti / (p.work / dram)));
        out += "\n";
    }
    // Its FLOPs by precision, as the roof it is judged on is chosen from them.
    std::string mix;
    for (const auto& f : gpu_flops_by_precision(p)) {
        if (!(p.work > 0)) break;
        mix += fmt::format("{}{} {}{}", mix.empty() ? "" : ", ", f.precision, format_percent((f.fma + f.tensor) / p.work),
                           f.tensor > 0 ? fmt::format(" ({} on the tensor cores)", format_percent(f.tensor / (f.fma + f.tensor)))
                                        : "");
    }
    if (!mix.empty()) out += fmt::format("  its FLOPs: {}\n", mix);
    if (o.judgement) {
        const OffloadJudgement& j = *o.judgement;
        out += fmt::format("  judged on {} of {}: compute {} {} GFLOP/s, the highest roof its work could use ({}: {} of "
                           "its FLOPs{})",
                           terminal_text(j.gpu), terminal_text(j.model), j.compute.roof, format_number(j.compute.gflops),
                           j.compute.tensor ? j.compute.precision + " on the tensor cores" : j.compute.precision,
                           format_percent(j.compute.share),
                           j.compute.without_roof.empty()
                               ? std::string()
                               : fmt::format("; no roof of {} in the model, whose work could run faster",
                                             fmt::join(j.compute.without_roof, ", ")));
        if (j.bus) {
            const OffloadBusRoof& b = *j.bus;
            const std::string traffic =
                b.direction == "h2d"   ? fmt::format("its bus bytes went host to device{}", b.to_host > 0 ? fmt::format(", {} back", mb(b.to_host)) : "")
                : b.direction == "d2h" ? fmt::format("its bus bytes went device to host{}", b.to_device > 0 ? fmt::format(", {} in", mb(b.to_device)) : "")
                : b.direction == "bidirectional"
                    ? fmt::format("{} in, {} back, both ways at once at best", mb(b.to_device), mb(b.to_host))
                    : fmt::format("{} in, {} back, each way at its own roof at once at best", mb(b.to_device), mb(b.to_host));
            out += fmt::format("; bus {} {} GB/s ({})", b.name, format_number(b.gbs), traffic);
        } else if (bus > 0) {
            out += "; bus: the model has no figure for the direction its bytes went";
        }
        out += "\n";
        if (p.work_counted)
            out += fmt::format("  attainable {} GFLOP/s, bound by {}; efficiency {}\n", format_number(j.attainable),
                               j.binding_roof, format_percent(j.efficiency));
    } else if (!o.not_judged.empty()) {
        out += fmt::format("  not judged here: {}\n", terminal_text(o.not_judged));
    }
    return out;
}

} // namespace roofline
