// What the offload injection library adds up while a CUDA program runs: bytes copied each way
// (explicit copies and unified-memory migrations), kernel launches and their time, and the span
// from the first GPU activity to the last. Pure and header-only (C++17, the standard library
// only) so the unit tests check it without a GPU; offload_inject.cpp feeds it CUPTI's records.
// The JSON it writes, one file per process, is read by roofline's io/offload_summary (schema
// roofline.offload/1) and merged over the processes of a run.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace roofline_offload {

// Where a copy's bytes went. Arrays (CUDA arrays live on the device) count as device memory.
enum class Direction { host_to_device, device_to_host, device_to_device, host_to_host, peer_to_peer, unknown };

// CUPTI's CUpti_ActivityMemcpyKind numbers (cupti_activity.h: HTOD 1, DTOH 2, HTOA 3, ATOH 4,
// ATOA 5, ATOD 6, DTOA 7, DTOD 8, HTOH 9, PTOP 10), kept here so the mapping is tested
// without the CUDA headers.
inline Direction direction_of_cupti_copy_kind(unsigned kind) {
    switch (kind) {
    case 1: case 3: return Direction::host_to_device;
    case 2: case 4: return Direction::device_to_host;
    case 5: case 6: case 7: case 8: return Direction::device_to_device;
    case 9: return Direction::host_to_host;
    case 10: return Direction::peer_to_peer;
    default: return Direction::unknown;
    }
}

struct Traffic {
    std::uint64_t bytes = 0;
    std::uint64_t operations = 0;
    std::uint64_t busy_ns = 0;  // summed durations (copies on several engines may overlap)
};

class Tally {
public:
    void copy(Direction d, std::uint64_t bytes, std::uint64_t start_ns, std::uint64_t end_ns, std::uint64_t count = 1) {
        add(copies_[static_cast<int>(d)], bytes, start_ns, end_ns, count);
    }
    // A unified-memory migration (CUPTI's BYTES_TRANSFER_HTOD / _DTOH counters).
    void migration(bool to_device, std::uint64_t bytes, std::uint64_t start_ns, std::uint64_t end_ns) {
        add(to_device ? migrated_to_device_ : migrated_to_host_, bytes, start_ns, end_ns, 1);
    }
    void kernel(std::uint64_t start_ns, std::uint64_t end_ns) { add(kernels_, 0, start_ns, end_ns, 1); }
    void dropped(std::uint64_t records) { dropped_ += records; }

    const Traffic& copies(Direction d) const { return copies_[static_cast<int>(d)]; }
    const Traffic& kernels() const { return kernels_; }
    std::uint64_t span_ns() const { return last_ns_ > first_ns_ ? last_ns_ - first_ns_ : 0; }
    // CUPTI's timestamps (ns, one clock for every process of a node): the first activity's start
    // and the last's end, 0 when none; roofline merges several processes' tallies by them.
    std::uint64_t first_ns() const { return span_ns() ? first_ns_ : 0; }
    std::uint64_t last_ns() const { return span_ns() ? last_ns_ : 0; }

    // `note`: what the injection could not do (empty when nothing), written as given (no quotes
    // or backslashes in it); `pid`: the process the tally is of.
    std::string json(const std::string& note = {}, long long pid = 0) const {
        char head[96];
        std::snprintf(head, sizeof head, "{\"schema\": \"roofline.offload/1\", \"pid\": %lld,\n \"copies\": {", pid);
        std::string out = head;
        const char* names[] = {"host_to_device", "device_to_host", "device_to_device", "host_to_host", "peer_to_peer",
                               "unknown"};
        for (int i = 0; i < kDirections; ++i)
            out += (i ? ",\n  " : "\n  ") + traffic_json(names[i], copies_[i]);
        out += "},\n \"migrations\": {\n  " + traffic_json("host_to_device", migrated_to_device_) + ",\n  " +
               traffic_json("device_to_host", migrated_to_host_) + "},\n ";
        out += traffic_json("kernels", kernels_) + ",\n";
        char tail[160];
        std::snprintf(tail, sizeof tail,
                      " \"first_ns\": %" PRIu64 ", \"last_ns\": %" PRIu64 ", \"dropped_records\": %" PRIu64 ",\n",
                      first_ns(), last_ns(), dropped_);
        out += tail;
        out += " \"note\": \"" + note + "\"}\n";
        return out;
    }

private:
    static constexpr int kDirections = 6;
    void add(Traffic& t, std::uint64_t bytes, std::uint64_t start_ns, std::uint64_t end_ns, std::uint64_t count) {
        t.bytes += bytes;
        t.operations += count;
        if (end_ns >= start_ns && start_ns > 0) {
            t.busy_ns += end_ns - start_ns;
            first_ns_ = std::min(first_ns_, start_ns);
            last_ns_ = std::max(last_ns_, end_ns);
        }
    }
    static std::string traffic_json(const char* name, const Traffic& t) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "\"%s\": {\"bytes\": %" PRIu64 ", \"operations\": %" PRIu64 ", \"busy_ns\": %" PRIu64 "}",
                      name, t.bytes, t.operations, t.busy_ns);
        return buf;
    }
    Traffic copies_[kDirections];
    Traffic migrated_to_device_, migrated_to_host_, kernels_;
    std::uint64_t first_ns_ = UINT64_MAX, last_ns_ = 0, dropped_ = 0;
};

} // namespace roofline_offload
