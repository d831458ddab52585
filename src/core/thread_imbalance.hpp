// Unequal work across a point's threads: the roofline of N threads assumes each does an equal
// share, but a parallel stretch lasts as long as its busiest thread. The instrument engine counts
// each thread's FLOPs and bytes (the Valgrind tool's "busiest_thread_flops"/"_bytes" and
// "threads_working", the threads that did work); when the busiest did clearly more than an equal
// share, measure's notes and report say so beside the point (no figure changed). Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details keys (measure's apply_counts, from the tool's figures of the point).
inline constexpr const char* kThreadsWorking = "threads_working";  // threads that did its work
inline constexpr const char* kBusiestThreadFlops = "busiest_thread_flops";  // the busiest one's FLOPs
inline constexpr const char* kBusiestThreadBytes = "busiest_thread_bytes";  // its bytes loaded + stored

// Said from this ratio of the busiest thread's work to the mean share on. A static split of 4 whole
// chunks a thread can leave one with 5 (1.25x) from rounding alone; under it the busiest thread
// holds the others back by under 20% of the stretch, within a repeated run's spread of a
// point's time on a shared machine. Past it the loss is the imbalance's, not noise's.
inline constexpr double kThreadImbalanceRatio = 1.25;

struct ThreadImbalance {
    double busiest = 0;     // the busiest thread's FLOPs (or bytes)
    double total = 0;       // the point's
    int threads_working = 0;  // threads that did it, each once
    int threads = 0;        // the point's thread count (at once), whose roofs judge it
    double ratio = 0;       // busiest / (total / threads_working)
    bool bytes = false;     // of bytes (a point without FLOPs), not FLOPs
};

// nullopt unless the point carries the figures, 2 or more threads did its work and the busiest
// did more than kThreadImbalanceRatio times an equal share.
std::optional<ThreadImbalance> thread_imbalance(const Point& p);

// "its busiest thread did 1.50x an equal share of its FLOPs (6e+05 of 8e+05, over the 2 threads
// that did them): ..."
std::string thread_imbalance_text(const ThreadImbalance& t);

} // namespace roofline
