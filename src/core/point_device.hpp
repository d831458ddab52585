// Which device's roofline judges a point: a CPU's (the machine model's roofs) or a GPU's
// (its gpus section), and the guard that a point is never judged against the other's. Pure.
#pragma once

#include "core/roofline.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace roofline {

enum class Device { cpu, gpu };

const char* device_name(Device device);  // "CPU", "GPU"

// The device a point was measured on, from its origin: gpu for Nsight Compute's kernels and a
// CUDA program's offload (ncu); cpu for the CPU's engines, monitored jobs and reference kernels
// (instrument..., perf, time, monitor, kernel); nullopt for a point of no device (analytic,
// model, a file that names no origin or one this version does not know): either roofline may
// judge it.
std::optional<Device> point_device(const Point& point);

// True when a roofline of `roofline` may judge `point` (its device, or none).
bool judged_on(const Point& point, Device roofline);

// The first of `points` a roofline of `roofline` must not judge (measured on the other device):
// its index and its device; nullopt when every point may be judged there.
struct WrongDevice {
    std::size_t index = 0;
    Device measured_on = Device::cpu;
};
std::optional<WrongDevice> first_on_wrong_device(const std::vector<Point>& points, Device roofline);

} // namespace roofline
