// Shares of a timed run's time past which its figures are said to hold waits no roof describes:
// measure and bench warn at them (topo/cpu_activity.hpp, the time engine), and report notes the
// points they recorded past them (core/roofline.hpp time_outside_code).
#pragma once

namespace roofline {

// The CPUs' time the hypervisor ran something else (steal): 5% (and at least 50 ms, a few
// 10 ms ticks, so rounding over a short run does not count).
inline constexpr double kStealShareWarning = 0.05;
inline constexpr double kStealFloorSeconds = 0.05;
// Other processes on the run's CPUs: a quarter of a CPU on average (and at least 100 ms: /proc/stat
// counts in ticks, so over a run of a few ms one tick of another process reads as several CPUs).
inline constexpr double kOthersCpusWarning = 0.25;
inline constexpr double kOthersFloorSeconds = 0.1;
// The program's CPU time in the kernel (page faults, system calls, I/O): a quarter (and at least
// 20 ms): the loader and a program's I/O stay well under it.
inline constexpr double kKernelTimeShare = 0.25;
inline constexpr double kKernelTimeFloorSeconds = 0.02;

} // namespace roofline
