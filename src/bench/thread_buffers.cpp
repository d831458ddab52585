#include "bench/thread_buffers.hpp"

#include "core/byte_sizes.hpp"
#include "topo/environment.hpp"

#include <fmt/core.h>

#include <cstdlib>
#include <sys/mman.h>
#include <stdexcept>

namespace roofline {

// Buffers start on a 2 MiB boundary, so a small working set never straddles a
// large address boundary. On AMD Zen the L1D predicts ways from a hash of the
// linear address; straddling such a boundary can make two pages of a 16 KiB set
// collide in that hash and halve L1 bandwidth (measured on Zen 4: 100 vs 227 GB/s).
constexpr std::size_t kBufferAlignment = 2u << 20;

ThreadBuffer::~ThreadBuffer() { std::free(data); }

std::vector<ThreadBuffer> allocate_thread_buffers(ThreadTeam& team, std::size_t elements) {
    // Every page is touched below: more than the memory available (a container's limit included,
    // which /proc/meminfo does not show) would bring the OOM killer, not a failed allocation.
    const double total = static_cast<double>(elements) * sizeof(double) * team.size();
    if (const double available = available_memory_bytes(); available > 0 && total > 0.9 * available)
        throw std::runtime_error(fmt::format(
            "the working sets need {} ({} thread{}), more than 90% of the {} this process may still take (the "
            "kernel's MemAvailable, or its cgroup's memory limit less its usage, whichever is less): give a "
            "smaller --dram-size",
            format_bytes(static_cast<std::uint64_t>(total)), team.size(), team.size() == 1 ? "" : "s",
            format_bytes(static_cast<std::uint64_t>(available))));
    std::vector<ThreadBuffer> buffers(static_cast<std::size_t>(team.size()));
    team.run([&](int t) {
        auto& b = buffers[static_cast<std::size_t>(t)];
        const std::size_t bytes = (elements * sizeof(double) + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
        b.data = static_cast<double*>(std::aligned_alloc(kBufferAlignment, bytes));
        if (!b.data)
            throw std::runtime_error(fmt::format("cannot allocate {} per thread for the benchmark", format_bytes(bytes)));
        // Huge pages where the kernel allows them (transparent huge pages in
        // "madvise" mode, the common default): 512x fewer page faults while the
        // buffer is filled (a guest with a paravirtualized MMU took most of a
        // minute to fault in 8 GiB of 4 KiB pages) and fewer TLB misses while
        // DRAM is streamed. Advice only: without it the buffer works the same.
        (void)madvise(b.data, bytes, MADV_HUGEPAGE);
        b.elements = elements;
        // Every page is faulted in here, by the thread that uses it, before any timing.
        for (std::size_t i = 0; i < elements; ++i) b.data[i] = 1.0 + static_cast<double>(i % 5);
    });
    return buffers;
}

std::vector<double*> carve_arrays(double* base, std::size_t n, int count) {
    std::vector<double*> arrays;
    for (int a = 0; a < count; ++a) arrays.push_back(base + static_cast<std::size_t>(a) * (n + kArrayShiftElements));
    return arrays;
}

} // namespace roofline
