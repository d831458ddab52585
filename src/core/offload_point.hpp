// The whole-offload point of the multi-roofline model (issue 13): all of a CUDA program's
// kernels together, with the bytes its copies moved over the host-device bus and the time from
// the first GPU activity to the last. Its throughput intensity TI = FLOPs / bus bytes puts it
// under the bus roof (P <= B_bus x TI) as well as the device's own roofs. The FLOPs and device
// bytes are the ncu kernel points' sums; the copies, migrations and span come from a second run
// of the program under the CUPTI injection library (tools/offload), which cannot share a run
// with ncu: the point pairs two runs, so the program must do the same work each time.
#pragma once

#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline {

struct OffloadTraffic {
    double bytes = 0;
    double operations = 0;
    double busy_seconds = 0;  // summed durations; concurrent copies may overlap
};

// What the injection library recorded (io/offload_summary reads its JSON).
struct OffloadSummary {
    OffloadTraffic host_to_device, device_to_host, device_to_device, host_to_host, peer_to_peer, unknown_copies;
    OffloadTraffic migrated_to_device, migrated_to_host;  // unified memory moved on demand
    OffloadTraffic kernels;                               // bytes unused
    double first_ns = 0, last_ns = 0;                     // CUPTI timestamps of the first and last activity
    double span_seconds = 0;                              // first GPU activity's start to the last's end
    double dropped_records = 0;                           // CUPTI's buffers overflowed: undercounted
    int processes = 1;                                    // CUDA processes added up
    std::string note;                                     // what the library could not record
};

// The processes of one run added up (a launcher's ranks, a script's workers): traffic summed,
// the span from the earliest first activity to the latest last one, notes joined. Throws
// std::invalid_argument for an empty list.
OffloadSummary merge_offload_summaries(const std::vector<OffloadSummary>& parts);

// Bytes that crossed the host-device bus: copies each way and unified-memory migrations.
double offload_bus_bytes(const OffloadSummary& s);

struct OffloadPoint {
    Point point;
    std::vector<std::string> warnings;  // each a sentence: what makes the point less exact
};

// `kernels`: the ncu run's kernel points; `wall_seconds`: the CUPTI run's wall time (a detail:
// it includes start-up and host work). Throws std::runtime_error when the summary saw no GPU
// activity (no kernel and no copy: nothing was offloaded).
OffloadPoint offload_point(const std::vector<Point>& kernels, const OffloadSummary& s, double wall_seconds);

// Point::details key marking the whole-offload point.
inline constexpr const char* kWholeOffload = "whole_offload";

} // namespace roofline
