// Per-thread working memory, allocated and first-touched by the thread that
// uses it (so its pages land on that thread's NUMA node).
#pragma once

#include "bench/thread_team.hpp"

#include <cstddef>
#include <vector>

namespace roofline {

struct ThreadBuffer {
    double* data = nullptr;
    std::size_t elements = 0;
    ThreadBuffer() = default;
    ThreadBuffer(const ThreadBuffer&) = delete;
    ThreadBuffer& operator=(const ThreadBuffer&) = delete;
    ~ThreadBuffer();
};

// One page-aligned buffer of `elements` doubles per team thread, filled with
// small positive values. Throws std::runtime_error when memory runs out.
std::vector<ThreadBuffer> allocate_thread_buffers(ThreadTeam& team, std::size_t elements);

// `count` arrays of n doubles laid out one after another from `base`, each
// shifted by a few cache lines so that streams do not alias in the same cache sets.
// The buffer must hold count * (n + kArrayShiftElements) doubles.
inline constexpr std::size_t kArrayShiftElements = 72;
std::vector<double*> carve_arrays(double* base, std::size_t n, int count);

} // namespace roofline
