#include "core/point_device.hpp"

namespace roofline {

const char* device_name(Device device) { return device == Device::gpu ? "GPU" : "CPU"; }

std::optional<Device> point_device(const Point& point) {
    switch (point.source.origin()) {
    case PointOrigin::ncu: return Device::gpu;
    case PointOrigin::instrument:
    case PointOrigin::instrument_calltiming:
    case PointOrigin::instrument_sampling:
    case PointOrigin::instrument_callstacks:
    case PointOrigin::perf:
    case PointOrigin::time:
    case PointOrigin::monitor:
    case PointOrigin::kernel: return Device::cpu;
    case PointOrigin::none:
    case PointOrigin::analytic:
    case PointOrigin::model:
    case PointOrigin::other: return std::nullopt;
    }
    return std::nullopt;
}

bool judged_on(const Point& point, Device roofline) {
    const auto device = point_device(point);
    return !device || *device == roofline;
}

std::optional<WrongDevice> first_on_wrong_device(const std::vector<Point>& points, Device roofline) {
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!judged_on(points[i], roofline)) return WrongDevice{i, *point_device(points[i])};
    return std::nullopt;
}

} // namespace roofline
