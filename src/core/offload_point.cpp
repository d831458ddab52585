#include "core/offload_point.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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
        for (const char* key : {"flops_fp64", "flops_fp32", "flops_fp16", "flops_tensor"})
            if (const auto it = k.details.find(key); it != k.details.end()) p.details[key] += it->second;
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
