#include "bench/thread_buffers.hpp"

#include "core/working_sets.hpp"

#include <fmt/core.h>

#include <cstdlib>
#include <stdexcept>

namespace roofline {

ThreadBuffer::~ThreadBuffer() { std::free(data); }

std::vector<ThreadBuffer> allocate_thread_buffers(ThreadTeam& team, std::size_t elements) {
    std::vector<ThreadBuffer> buffers(static_cast<std::size_t>(team.size()));
    team.run([&](int t) {
        auto& b = buffers[static_cast<std::size_t>(t)];
        const std::size_t bytes = (elements * sizeof(double) + 4095) / 4096 * 4096;
        b.data = static_cast<double*>(std::aligned_alloc(4096, bytes));
        if (!b.data)
            throw std::runtime_error(fmt::format("cannot allocate {} per thread for the benchmark", format_bytes(bytes)));
        b.elements = elements;
        for (std::size_t i = 0; i < elements; ++i) b.data[i] = 1.0 + static_cast<double>(i % 5);
    });
    return buffers;
}

} // namespace roofline
