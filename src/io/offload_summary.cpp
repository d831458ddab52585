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
    if (root.has("pid")) root.child("pid").as_uint64();  // which process: read to check, not kept
    OffloadSummary s;
    const auto copies = root.required("copies", "an object of copies by direction");
    copies.require_object();
    s.host_to_device = traffic(copies, "host_to_device");
    s.device_to_host = traffic(copies, "device_to_host");
    s.device_to_device = traffic(copies, "device_to_device");
    s.host_to_host = traffic(copies, "host_to_host");
    s.peer_to_peer = traffic(copies, "peer_to_peer");
    s.unknown_copies = traffic(copies, "unknown");
    const auto migrations = root.required("migrations", "an object of unified-memory migrations");
    migrations.require_object();
    s.migrated_to_device = traffic(migrations, "host_to_device");
    s.migrated_to_host = traffic(migrations, "device_to_host");
    s.kernels = traffic(root, "kernels");
    s.first_ns = count(root, "first_ns");
    s.last_ns = count(root, "last_ns");
    if (s.last_ns < s.first_ns) root.child("last_ns").fail("is before first_ns");
    s.span_seconds = (s.last_ns - s.first_ns) * 1e-9;
    s.dropped_records = count(root, "dropped_records");
    if (root.has("note")) s.note = root.child("note").as_string();
    return s;
}

OffloadSummary read_offload_summary(const std::string& path) {
    return offload_summary_from_text(read_text_file(path), path);
}

} // namespace roofline
