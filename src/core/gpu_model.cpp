#include "core/gpu_model.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>

namespace roofline {
namespace {

struct VendorName {
    GpuVendor vendor;
    const char* name;     // the one spelling written
    const char* aliases;  // also read (lower case, '|' between them): what drivers and tools report
};

const VendorName kVendors[] = {
    {GpuVendor::nvidia, "nvidia", "nvidia corporation"},
    {GpuVendor::amd, "amd", "advanced micro devices|advanced micro devices, inc.|amd radeon|ati"},
    {GpuVendor::intel, "intel", "intel corporation"},
    {GpuVendor::unknown, "unknown", ""},
};

} // namespace

const char* gpu_vendor_name(GpuVendor vendor) {
    for (const auto& v : kVendors)
        if (v.vendor == vendor) return v.name;
    return "unknown";
}

std::optional<GpuVendor> parse_gpu_vendor(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const auto& v : kVendors) {
        if (lower == v.name) return v.vendor;
        std::string_view aliases = v.aliases;
        while (!aliases.empty()) {
            const auto bar = aliases.find('|');
            if (aliases.substr(0, bar) == lower) return v.vendor;
            aliases = bar == std::string_view::npos ? std::string_view{} : aliases.substr(bar + 1);
        }
    }
    return std::nullopt;
}

const char* known_gpu_vendors_text() { return "\"nvidia\", \"amd\", \"intel\" or \"unknown\""; }

std::string gpu_architecture_id(const GpuModel& gpu) {
    if (!gpu.architecture.empty()) return gpu.architecture;
    if (gpu.vendor == GpuVendor::nvidia && gpu.compute_capability_major > 0)
        return fmt::format("sm_{}{}", gpu.compute_capability_major, gpu.compute_capability_minor);
    return "";
}

} // namespace roofline
