// The whole-offload point of the multi-roofline model (issue 13): all of a CUDA program's
// kernels together, with the bytes its copies moved over the host-device bus and the time from
// the first GPU activity to the last. Its throughput intensity TI = FLOPs / bus bytes puts it
// under the bus roof (P <= B_bus x TI) as well as the device's own roofs. The FLOPs and device
// bytes are the ncu kernel points' sums; the copies, migrations and span come from a second run
// of the program under the CUPTI injection library (tools/offload), which cannot share a run
// with ncu: the point pairs two runs, so the program must do the same work each time.
#pragma once

#include "core/gpu_model.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <cstdint>
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
    std::uint64_t pid = 0;                                // the process's ID as written; 0: not given
    std::string note;                                     // what the library could not record
};

// The processes of one run added up (a launcher's ranks, a script's workers): traffic summed,
// the span from the earliest first activity to the latest last one, notes joined. Throws
// std::invalid_argument for an empty list, and for two summaries of one process (the same pid):
// one run's figures would be counted twice.
OffloadSummary merge_offload_summaries(const std::vector<OffloadSummary>& parts);

// Bytes that crossed the host-device bus: copies each way and unified-memory migrations.
double offload_bus_bytes(const OffloadSummary& s);

// What a host-device link can move. The fastest there is, NVLink-C2C (Grace Hopper), moves
// 450 GB/s each way (900 GB/s both ways together); PCIe 6.0 x16 about 121 GB/s each way.
inline constexpr double kFastestHostLinkGBsEachWay = 450;
// A rate this much above a link's figure cannot be a measurement: timestamps and byte counts
// are exact, so the margin is for the figures' own rounding only.
inline constexpr double kHostLinkMargin = 1.1;
// A rate this much above this machine's measured pinned bus roof (bench --gpu) is refused:
// room for the roof's spread and a faster run, not for a summary that is wrong.
inline constexpr double kMeasuredBusMargin = 1.5;

// A GPU runs at most 128 kernels at once (compute capability 3.5 to 9.0): the kernels' summed
// busy time cannot pass 128 times the span on each CUDA process's GPU.
inline constexpr double kMaxConcurrentKernels = 128;

// This machine's measured bus roofs (bench --gpu, pinned memory), each way, and where they
// come from ("machine model 3, GPU 0"); unset: not measured, only the physical limit holds.
struct OffloadBusRoofs {
    std::optional<double> h2d_gbs, d2h_gbs;
    std::string source;
};

// The pinned host-to-device and device-to-host roofs of `gpu`, where it has them.
OffloadBusRoofs offload_bus_roofs(const GpuModel& gpu, const std::string& source);

// Why a summary cannot be true, each a sentence; empty when it can: a span of 0 s though it
// records kernels or copies (a damaged summary); kernels busy longer than kMaxConcurrentKernels
// times the span per process; a direction's bytes over its copies' busy
// time, or all bus bytes over the span, faster than any host-device link (kFastestHostLinkGBsEachWay)
// or, with `roofs`, more than kMeasuredBusMargin times this machine's measured bus roof.
std::vector<std::string> offload_summary_problems(const OffloadSummary& s, const OffloadBusRoofs& roofs = {});

// --- the roofs that judge a whole offload --------------------------------------------------

// Work under this share of the whole offload's FLOPs (or a bus direction under this share of its
// bus bytes) does not choose its roof: the mix can pass the chosen roof by about this share at most.
inline constexpr double kOffloadShareFloor = 0.01;

// The compute roof a whole offload is judged on: the highest roof of the GPU that its work could
// use. Its kernels ran in several precisions, some on the tensor cores; no one precision's roof
// bounds the mix, but the highest of theirs does. Per precision holding at least
// kOffloadShareFloor of its FLOPs: that precision's tensor roof alone where its work in it ran on
// the tensor cores, else that precision's top roof (as report --gpu judges a kernel of it).
struct OffloadComputeRoof {
    std::string precision;  // the GPU's spelling: "bf16"
    bool tensor = false;    // the tensor roof of `precision` alone
    std::string roof;       // the roof as the roofline names it: "BF16 tensor peak"
    double gflops = 0;
    double share = 0;       // the share of the offload's FLOPs in `precision`
    // Precisions holding at least kOffloadShareFloor of its FLOPs that the GPU has no roof for:
    // their work could run faster than the chosen roof (the model cannot say).
    std::vector<std::string> without_roof;
};
// nullopt when the offload has no FLOPs by precision, or the GPU no roof of any of them.
std::optional<OffloadComputeRoof> offload_compute_roof(const Point& offload, const GpuModel& gpu);

// The bus roof that matches a whole offload's traffic (copies and migrations each way). Copies
// each way may overlap (PCIe and NVLink-C2C are full duplex): its bus bytes take at least the
// longest of to_device / h2d, to_host / d2h and, where both go and the GPU has a bidirectional
// figure, (to_device + to_host) / bidirectional; `gbs` is its bus bytes over that time.
struct OffloadBusRoof {
    std::string direction;  // "h2d", "d2h" (one way), "h2d+d2h" (both, each at its own roof), "bidirectional"
    std::string name;       // "PCIe h2d pinned", "PCIe bidirectional pinned"
    double gbs = 0;         // what the bus allows over all the offload's bus bytes
    double spread = 0;      // the binding figure's measured spread, as a share
    double to_device = 0, to_host = 0;  // its bus bytes each way
};
// `pinned` false: the pageable figures. nullopt when no bytes crossed the bus, or the GPU has no
// figure for a direction its bytes went.
std::optional<OffloadBusRoof> offload_bus_roof(const Point& offload, const GpuModel& gpu, bool pinned = true);

// Replaces the bus roof ("PCIe") of `r` and its ceilings with offload_bus_roof's (the pageable
// one a ceiling below it); `r` is left as it is when there is none.
void use_offload_bus_roof(Roofline& r, const GpuModel& gpu, const Point& offload);

// The whole offload's roofline on `gpu`: of offload_compute_roof's precision (its tensor roof
// alone where `tensor`), the bus roof matching its traffic. Throws std::invalid_argument when
// the GPU has no roof its work could use.
Roofline whole_offload_roofline(const GpuModel& gpu, const Point& offload);

// A whole offload judged on a GPU of a machine model: which roofs, and what they allow it (CARM).
struct OffloadJudgement {
    std::string gpu;    // "NVIDIA H200 (GPU 0)"
    std::string model;  // where the GPU's figures come from: "the latest stored machine model"
    OffloadComputeRoof compute;
    std::optional<OffloadBusRoof> bus;  // none: no bus bytes, or no figure of their direction
    double attainable = 0;              // GFLOP/s
    double efficiency = 0;              // achieved / attainable; 0 when the work is not counted
    std::string binding_roof;           // the roof that bounds it
};
// Throws std::invalid_argument when the GPU has no roof its work could use.
OffloadJudgement judge_whole_offload(const Point& offload, const GpuModel& gpu, const std::string& model);

struct OffloadPoint {
    Point point;
    std::vector<std::string> warnings;  // each a sentence: what makes the point less exact
    // On the GPU of a stored machine model (measure fills it where the store has one).
    std::optional<OffloadJudgement> judgement;
    std::string not_judged;  // why there is no judgement; empty when there is one
};

// `kernels`: the ncu run's kernel points; `wall_seconds`: the CUPTI run's wall time (a detail:
// it includes start-up and host work; 0: unknown, a summary recorded earlier, and left out).
// Throws std::runtime_error when the summary cannot be true (offload_summary_problems, with
// `roofs`), or saw no GPU activity (no kernel and no copy: nothing was offloaded).
OffloadPoint offload_point(const std::vector<Point>& kernels, const OffloadSummary& s, double wall_seconds,
                           const OffloadBusRoofs& roofs = {});

// Point::details key marking the whole-offload point.
inline constexpr const char* kWholeOffload = "whole_offload";

} // namespace roofline
