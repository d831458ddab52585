// measure --cold: the caches emptied before each native run. Every run is a new process
// whose data is freshly allocated, but the caches still hold what the run before left: its
// code, the libraries' code and the file pages it read, which the next run reads again.
// Before each run roofline writes and then reads a buffer larger than the largest cache
// (core's cold_flush_bytes), which evicts the shared last-level cache and the caches of the
// core roofline runs on.
#pragma once

#include <cstdint>
#include <vector>

namespace roofline::measure {

class ColdCaches {
public:
    explicit ColdCaches(std::uint64_t bytes) : bytes_(bytes) {}  // 0: nothing is flushed
    bool active() const { return bytes_ > 0; }
    std::uint64_t bytes() const { return bytes_; }
    // Before a native run: a store to every cache line of the buffer, then a load from each
    // (plain stores: not memset, whose large sizes take non-temporal stores that bypass the
    // caches). The buffer is allocated at the first flush and kept for the next runs.
    void flush();

private:
    std::uint64_t bytes_ = 0;
    std::vector<std::uint64_t> buffer_;
    std::uint64_t pass_ = 0;  // a different value each pass: no store can be skipped as a no-op
    volatile std::uint64_t sink_ = 0;
};

} // namespace roofline::measure
