#include "core/offload_point.hpp"

#include "core/figure_stats.hpp"
#include "core/gpu_kernel_points.hpp"
#include "core/gpu_roofline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline {

double offload_bus_bytes(const OffloadSummary& s) {
    return s.host_to_device.bytes + s.device_to_host.bytes + s.migrated_to_device.bytes + s.migrated_to_host.bytes;
}

OffloadSummary merge_offload_summaries(const std::vector<OffloadSummary>& parts) {
    if (parts.empty()) throw std::invalid_argument("no offload summary to merge");
    if (parts.size() == 1) return parts.front();
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (std::size_t j = i + 1; j < parts.size(); ++j)
            if (parts[i].pid != 0 && parts[i].pid == parts[j].pid)
                throw std::invalid_argument(fmt::format("two summaries of process {} (the same summary twice?): its "
                                                        "copies, kernels and span would be counted twice",
                                                        parts[i].pid));
    OffloadSummary out;
    out.processes = 0;
    auto add = [](OffloadTraffic& to, const OffloadTraffic& t) {
        to.bytes += t.bytes;
        to.operations += t.operations;
        to.busy_seconds += t.busy_seconds;
    };
    for (const auto& s : parts) {
        add(out.host_to_device, s.host_to_device);
        add(out.device_to_host, s.device_to_host);
        add(out.device_to_device, s.device_to_device);
        add(out.host_to_host, s.host_to_host);
        add(out.peer_to_peer, s.peer_to_peer);
        add(out.unknown_copies, s.unknown_copies);
        add(out.migrated_to_device, s.migrated_to_device);
        add(out.migrated_to_host, s.migrated_to_host);
        add(out.kernels, s.kernels);
        if (s.last_ns > 0) {
            out.first_ns = out.first_ns > 0 ? std::min(out.first_ns, s.first_ns) : s.first_ns;
            out.last_ns = std::max(out.last_ns, s.last_ns);
        }
        out.dropped_records += s.dropped_records;
        out.processes += s.processes;
        if (!s.note.empty() && out.note.find(s.note) == std::string::npos)
            out.note += (out.note.empty() ? "" : "; ") + s.note;
    }
    out.span_seconds = out.last_ns > out.first_ns ? (out.last_ns - out.first_ns) * 1e-9 : 0;
    return out;
}

OffloadBusRoofs offload_bus_roofs(const GpuModel& gpu, const std::string& source) {
    OffloadBusRoofs out;
    out.source = source;
    for (const auto& b : gpu.bus) {
        if (!b.pinned || !(b.gbs > 0)) continue;
        if (b.direction == "h2d") out.h2d_gbs = std::max(out.h2d_gbs.value_or(0), b.gbs);
        if (b.direction == "d2h") out.d2h_gbs = std::max(out.d2h_gbs.value_or(0), b.gbs);
    }
    return out;
}

std::vector<std::string> offload_summary_problems(const OffloadSummary& s, const OffloadBusRoofs& roofs) {
    std::vector<std::string> out;
    const double copies = s.host_to_device.operations + s.device_to_host.operations + s.device_to_device.operations +
                          s.host_to_host.operations + s.peer_to_peer.operations + s.unknown_copies.operations +
                          s.migrated_to_device.operations + s.migrated_to_host.operations;
    const double bus = offload_bus_bytes(s);
    if (!(s.span_seconds > 0) && (s.kernels.operations > 0 || copies > 0 || bus > 0)) {
        out.push_back(fmt::format("its span is 0 s (first_ns {:.0f}, last_ns {:.0f}) though it records {:.0f} kernel "
                                  "launch(es) and {:.0f} copies or migrations: a damaged summary",
                                  s.first_ns, s.last_ns, s.kernels.operations, copies));
        return out;  // no rate can be judged without a span
    }
    const double kernel_limit = s.span_seconds * kMaxConcurrentKernels * std::max(1, s.processes) * kHostLinkMargin;
    if (s.kernels.busy_seconds > kernel_limit)
        out.push_back(fmt::format("its kernels ran {:g} s in all within a span of {:g} s: more than {:g} kernels at "
                                  "once on each of its {} CUDA process(es)' GPU, which no GPU runs",
                                  s.kernels.busy_seconds, s.span_seconds, kMaxConcurrentKernels, std::max(1, s.processes)));
    const double link = kFastestHostLinkGBsEachWay;
    auto judge = [&](const char* what, const OffloadTraffic& t, std::optional<double> roof) {
        if (!(t.bytes > 0) || !(t.busy_seconds > 0)) return;
        const double gbs = t.bytes / t.busy_seconds * 1e-9;
        if (gbs > link * kHostLinkMargin)
            out.push_back(fmt::format("{}: {:.0f} bytes in {:g} s of transfers is {:.3g} GB/s, faster than any "
                                      "host-device link (NVLink-C2C moves {:g} GB/s each way, PCIe 6.0 x16 about 121)",
                                      what, t.bytes, t.busy_seconds, gbs, link));
        else if (roof && gbs > *roof * kMeasuredBusMargin)
            out.push_back(fmt::format("{}: {:.0f} bytes in {:g} s of transfers is {:.3g} GB/s, more than {:g} times "
                                      "this machine's measured bus roof ({:.3g} GB/s, {})",
                                      what, t.bytes, t.busy_seconds, gbs, kMeasuredBusMargin, *roof, roofs.source));
    };
    judge("copies host to device", s.host_to_device, roofs.h2d_gbs);
    judge("copies device to host", s.device_to_host, roofs.d2h_gbs);
    judge("migrations to the device", s.migrated_to_device, roofs.h2d_gbs);
    judge("migrations to the host", s.migrated_to_host, roofs.d2h_gbs);
    const double over_span = bus / s.span_seconds * 1e-9;
    if (over_span > 2 * link * kHostLinkMargin)
        out.push_back(fmt::format("{:.0f} bytes over the bus in a span of {:g} s is {:.3g} GB/s, faster than any "
                                  "host-device link (NVLink-C2C moves {:g} GB/s both ways together)",
                                  bus, s.span_seconds, over_span, 2 * link));
    return out;
}

namespace {

double detail(const Point& p, const char* key) {
    const auto it = p.details.find(key);
    return it == p.details.end() ? 0.0 : it->second;
}

// The figure of one direction ("h2d", "d2h", "bidirectional"), pinned or pageable: the best measured.
const BusRoof* bus_figure(const GpuModel& gpu, const char* direction, bool pinned) {
    const BusRoof* best = nullptr;
    for (const auto& b : gpu.bus)
        if (b.direction == direction && b.pinned == pinned && b.gbs > 0 && (!best || b.gbs > best->gbs)) best = &b;
    return best;
}

} // namespace

std::optional<OffloadComputeRoof> offload_compute_roof(const Point& offload, const GpuModel& gpu) {
    const auto flops = gpu_flops_by_precision(offload);
    double total = 0;
    for (const auto& f : flops) total += f.fma + f.tensor;
    if (!(total > 0)) return std::nullopt;
    std::optional<OffloadComputeRoof> best;
    std::vector<std::string> without_roof;
    for (const auto& f : flops) {
        const double share = (f.fma + f.tensor) / total;
        if (share < kOffloadShareFloor) continue;
        const bool tensor = f.tensor > 0;
        try {
            const Roofline r = gpu_roofline(gpu, f.precision, true, tensor);
            if (!best || r.compute.value > best->gflops)
                best = OffloadComputeRoof{r.precision, tensor, r.compute.name, r.compute.value, share, {}};
        } catch (const std::invalid_argument&) {
            without_roof.push_back(tensor ? f.precision + " tensor" : f.precision);
        }
    }
    if (best) best->without_roof = std::move(without_roof);
    return best;
}

std::optional<OffloadBusRoof> offload_bus_roof(const Point& offload, const GpuModel& gpu, bool pinned) {
    OffloadBusRoof out;
    out.to_device = detail(offload, "host_to_device_bytes") + detail(offload, "migrated_to_device_bytes");
    out.to_host = detail(offload, "device_to_host_bytes") + detail(offload, "migrated_to_host_bytes");
    const double bytes = out.to_device + out.to_host;
    if (!(bytes > 0)) return std::nullopt;
    // A direction with under kOffloadShareFloor of the bytes does not name the roof; its bytes
    // still count in the time when the GPU has its figure.
    const bool to_device = out.to_device >= kOffloadShareFloor * bytes;
    const bool to_host = out.to_host >= kOffloadShareFloor * bytes;
    const BusRoof* h2d = bus_figure(gpu, "h2d", pinned);
    const BusRoof* d2h = bus_figure(gpu, "d2h", pinned);
    const BusRoof* both = bus_figure(gpu, "bidirectional", pinned);
    if ((to_device && !h2d) || (to_host && !d2h)) return std::nullopt;
    // The least time the bytes take, and the figure that sets it.
    double seconds = 0;
    const BusRoof* binding = nullptr;
    const auto consider = [&](double b, const BusRoof* figure) {
        if (!(b > 0) || !figure) return;
        const double t = b / (figure->gbs * 1e9);
        if (t > seconds) seconds = t, binding = figure;
    };
    consider(out.to_device, h2d);
    consider(out.to_host, d2h);
    if (out.to_device > 0 && out.to_host > 0) consider(bytes, both);
    if (!binding) return std::nullopt;
    if (binding == both)
        out.direction = "bidirectional";
    else if (to_device && to_host)
        out.direction = "h2d+d2h";
    else
        out.direction = to_device ? "h2d" : "d2h";
    out.name = fmt::format("PCIe {} {}", out.direction, pinned ? "pinned" : "pageable");
    out.gbs = bytes / seconds * 1e-9;
    out.spread = measured_spread(binding->gbs, binding->stats);
    return out;
}

void use_offload_bus_roof(Roofline& r, const GpuModel& gpu, const Point& offload) {
    const auto pinned = offload_bus_roof(offload, gpu, true);
    if (!pinned) return;
    r.bandwidth.erase(std::remove_if(r.bandwidth.begin(), r.bandwidth.end(), [](const Roof& b) { return b.level == "PCIe"; }),
                      r.bandwidth.end());
    r.bandwidth.push_back({pinned->name, "PCIe", pinned->gbs, pinned->spread});
    r.ceilings.erase(std::remove_if(r.ceilings.begin(), r.ceilings.end(), [](const Ceiling& c) { return c.level == "PCIe"; }),
                     r.ceilings.end());
    if (const auto pageable = offload_bus_roof(offload, gpu, false); pageable && pageable->gbs < pinned->gbs)
        r.ceilings.push_back({pageable->name, CeilingKind::bandwidth, "pattern", "PCIe", pageable->gbs,
                              "copy from page-locked (pinned) host memory: cudaMallocHost / cudaHostRegister"});
    // Compute ceilings then bandwidth ones, each descending (as gpu_roofline orders them).
    std::stable_sort(r.ceilings.begin(), r.ceilings.end(), [](const Ceiling& a, const Ceiling& b) {
        if (a.kind != b.kind) return a.kind == CeilingKind::compute;
        return a.value > b.value;
    });
}

Roofline whole_offload_roofline(const GpuModel& gpu, const Point& offload) {
    const auto compute = offload_compute_roof(offload, gpu);
    if (!compute) {
        std::string precisions;
        for (const auto& f : gpu_flops_by_precision(offload))
            precisions += fmt::format("{}{}{}", precisions.empty() ? "" : ", ", f.precision, f.tensor > 0 ? " tensor" : "");
        throw std::invalid_argument(fmt::format("{} has no roof for the whole offload's work ({})", gpu_label(gpu),
                                                precisions.empty() ? "no FLOPs by precision" : precisions));
    }
    Roofline r = gpu_roofline(gpu, compute->precision, true, compute->tensor);
    use_offload_bus_roof(r, gpu, offload);
    return r;
}

OffloadJudgement judge_whole_offload(const Point& offload, const GpuModel& gpu, const std::string& model) {
    const Roofline r = whole_offload_roofline(gpu, offload);
    OffloadJudgement out;
    out.gpu = gpu_label(gpu);
    out.model = model;
    out.compute = *offload_compute_roof(offload, gpu);
    out.bus = offload_bus_roof(offload, gpu, true);
    const Analysis a = analyze(r, offload, View::carm);
    out.attainable = a.attainable;
    out.efficiency = offload.work_counted && std::isfinite(a.efficiency) ? a.efficiency : 0;
    out.binding_roof = a.binding_roof;
    return out;
}

OffloadPoint offload_point(const std::vector<Point>& kernels, const OffloadSummary& s, double wall_seconds,
                           const OffloadBusRoofs& roofs) {
    if (const auto problems = offload_summary_problems(s, roofs); !problems.empty())
        throw std::runtime_error(fmt::format("the offload summary cannot be true: {}", fmt::join(problems, "; ")));
    if (s.span_seconds <= 0 || (s.kernels.operations == 0 && offload_bus_bytes(s) == 0))
        throw std::runtime_error("the program's run under CUPTI recorded no kernel and no copy: nothing was offloaded "
                                 "to the GPU" +
                                 (s.note.empty() ? std::string() : fmt::format(" ({})", s.note)));
    OffloadPoint out;
    Point& p = out.point;
    p.name = "whole offload";
    p.label = "all kernels, with the copies over the bus";
    p.source = PointOrigin::ncu;
    p.seconds = s.span_seconds;
    double launches = 0;
    for (const auto& k : kernels) {
        p.work += k.work;
        p.work_counted = p.work_counted && k.work_counted;
        for (const auto& [level, bytes] : k.bytes) p.bytes[level] += bytes;
        // Its FLOPs by precision, the tensor cores' per format too: the offload's own mix is then
        // known without its kernels (the roof it is judged on comes from it). A figure no kernel
        // recorded stays absent.
        for (const auto& [key, value] : k.details)
            if (key.rfind("flops_", 0) == 0 || key.rfind("ops_tensor_", 0) == 0) p.details[key] += value;
        for (const char* key : {"tensor_not_counted", "tensor_not_recorded"})
            if (k.details.count(key)) p.details[key] = 1;
        if (const auto it = k.details.find("launches"); it != k.details.end()) launches += it->second;
    }
    const double bus = offload_bus_bytes(s);
    if (bus > 0) p.bytes["PCIe"] = bus;
    p.details[kWholeOffload] = 1;
    p.details["device"] = 0;
    p.details["host_to_device_bytes"] = s.host_to_device.bytes;
    p.details["device_to_host_bytes"] = s.device_to_host.bytes;
    p.details["migrated_to_device_bytes"] = s.migrated_to_device.bytes;
    p.details["migrated_to_host_bytes"] = s.migrated_to_host.bytes;
    p.details["device_to_device_bytes"] = s.device_to_device.bytes + s.peer_to_peer.bytes;
    p.details["copies"] = s.host_to_device.operations + s.device_to_host.operations + s.device_to_device.operations +
                          s.host_to_host.operations + s.peer_to_peer.operations + s.unknown_copies.operations;
    p.details["copy_busy_seconds"] = s.host_to_device.busy_seconds + s.device_to_host.busy_seconds;
    p.details["kernel_busy_seconds"] = s.kernels.busy_seconds;
    p.details["kernel_launches"] = s.kernels.operations;
    p.details["ncu_kernel_launches"] = launches;
    if (wall_seconds > 0) p.details["wall_seconds"] = wall_seconds;  // 0: not known (an earlier run's summary)
    p.details["cuda_processes"] = s.processes;

    if (!s.note.empty()) out.warnings.push_back(fmt::format("CUPTI: {}", s.note));
    if (s.dropped_records > 0)
        out.warnings.push_back(fmt::format("CUPTI dropped {:.0f} activity records (its buffers were full): the copies "
                                           "and the span are undercounted",
                                           s.dropped_records));
    if (s.kernels.operations != launches)
        out.warnings.push_back(fmt::format(
            "the run under CUPTI launched {:.0f} kernels, the one under ncu {:.0f}: the point pairs the FLOPs of one "
            "run with the copies and time of another, which did different work",
            s.kernels.operations, launches));
    if (bus == 0)
        out.warnings.push_back("no bytes crossed the host-device bus (no copies to or from the host, no migrations): "
                               "the point has no bus intensity");
    if (s.unknown_copies.bytes > 0)
        out.warnings.push_back(fmt::format("{:.0f} bytes were copied in a direction CUPTI did not name; they are not "
                                           "counted as bus bytes",
                                           s.unknown_copies.bytes));
    return out;
}

} // namespace roofline
