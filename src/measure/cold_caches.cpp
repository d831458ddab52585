#include "measure/cold_caches.hpp"

#include <cstddef>

namespace roofline::measure {

void ColdCaches::flush() {
    if (!active()) return;
    constexpr std::size_t words_per_line = 64 / sizeof(std::uint64_t);  // 64-byte lines (x86)
    if (buffer_.empty()) buffer_.resize(bytes_ / sizeof(std::uint64_t));
    ++pass_;
    for (std::size_t i = 0; i < buffer_.size(); i += words_per_line) buffer_[i] = pass_ + i;
    // Read through volatile, so the loads are made although the stores' values are known.
    const volatile std::uint64_t* lines = buffer_.data();
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < buffer_.size(); i += words_per_line) sum += lines[i];
    sink_ = sum;
}

} // namespace roofline::measure
