#include "io/offload_summary.hpp"

#include "io/json_node.hpp"
#include "io/text_file.hpp"

namespace roofline {
namespace {

constexpr const char* kSchema = "roofline.offload/1";

double count(const JsonNode& n, const char* key) {
    return static_cast<double>(n.required(key, "a non-negative integer").as_uint64());
}

OffloadTraffic traffic(const JsonNode& parent, const char* key) {
    const auto n = parent.required(key, "an object {bytes, operations, busy_ns}");
    n.require_object();
    return {count(n, "bytes"), count(n, "operations"), count(n, "busy_ns") * 1e-9};
}

} // namespace

OffloadSummary offload_summary_from_text(const std::string& text, const std::string& source) {
    const auto json = parse_json_text(text, source);
    const JsonNode root(json, "", source);
    root.require_schema(kSchema, "roofline offload summary");
    OffloadSummary s;
    // Which process: kept so that one process's summary is never added twice.
    if (root.has("pid")) s.pid = root.child("pid").as_uint64();
    // Each direction's traffic, under its object.
    struct Field {
        const char* object;
        const char* key;
        OffloadTraffic OffloadSummary::*member;
    };
    static constexpr Field kFields[] = {
        {"copies", "host_to_device", &OffloadSummary::host_to_device},
        {"copies", "device_to_host", &OffloadSummary::device_to_host},
        {"copies", "device_to_device", &OffloadSummary::device_to_device},
        {"copies", "host_to_host", &OffloadSummary::host_to_host},
        {"copies", "peer_to_peer", &OffloadSummary::peer_to_peer},
        {"copies", "unknown", &OffloadSummary::unknown_copies},
        {"migrations", "host_to_device", &OffloadSummary::migrated_to_device},
        {"migrations", "device_to_host", &OffloadSummary::migrated_to_host},
    };
    for (const auto& f : kFields) {
        const auto parent = root.required(f.object, "an object of traffic by direction");
        parent.require_object();
        s.*f.member = traffic(parent, f.key);
    }
    s.kernels = traffic(root, "kernels");
    s.first_ns = count(root, "first_ns");
    s.last_ns = count(root, "last_ns");
    if (s.last_ns < s.first_ns) root.child("last_ns").fail("is before first_ns");
    s.span_seconds = (s.last_ns - s.first_ns) * 1e-9;
    if (s.span_seconds > 0 && !in_range(seconds_range, s.span_seconds))
        root.child("last_ns").fail(fmt::format("gives a span of {:g} s from first_ns: expected {}", s.span_seconds,
                                               seconds_range.what));
    s.dropped_records = count(root, "dropped_records");
    if (root.has("note")) s.note = root.child("note").as_string();
    return s;
}

OffloadSummary read_offload_summary(const std::string& path) {
    return offload_summary_from_text(read_text_file(path), path);
}

} // namespace roofline
