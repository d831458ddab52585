#include "topo/clock.hpp"

#include "core/statistics.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <regex>
#include <vector>

namespace roofline {

namespace {

// Adds in one iteration of the chain. Large enough that the loop counter
// (which runs in parallel on another port) never limits the chain.
constexpr std::uint64_t kAddsPerIteration = 256;

// Runs `iterations` x kAddsPerIteration dependent adds: each add needs the
// previous result, so a core retires exactly one per cycle.
void run_dependent_add_chain(std::uint64_t iterations) {
    if (iterations == 0) return;
#if defined(__x86_64__)
    std::uint64_t accumulator = 0;
    const std::uint64_t step = 1;
    // The step is a register, not an immediate: some recent cores (Golden Cove)
    // fold small immediate adds at rename, which would make the chain run
    // faster than the clock.
    __asm__ volatile(
        "1:\n\t"
        ".rept 256\n\t"
        "add %[step], %[acc]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [acc] "+r"(accumulator), [n] "+r"(iterations)
        : [step] "r"(step)
        : "cc");
    static_assert(kAddsPerIteration == 256, "must match .rept above");
#else
    // Approximate: a C chain kept opaque to the optimizer. The empty asm makes
    // each add depend on the previous one through a register, but the compiler
    // may still schedule loop overhead into the chain.
    std::uint64_t accumulator = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        for (std::uint64_t k = 0; k < kAddsPerIteration; ++k) {
            accumulator += 1;
            __asm__ volatile("" : "+r"(accumulator));
        }
    }
#endif
}

double seconds_for(std::uint64_t iterations) {
    const auto start = std::chrono::steady_clock::now();
    run_dependent_add_chain(iterations);
    const auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(stop - start).count();
}

// Grows the iteration count until one run lasts at least `target_seconds`,
// so the timer's resolution is negligible. Also warms the core up.
std::uint64_t calibrate_iterations(double target_seconds) {
    std::uint64_t iterations = 1000;
    for (;;) {
        const double elapsed = seconds_for(iterations);
        if (elapsed >= target_seconds) return iterations;
        const double grow = elapsed > 0 ? std::clamp(1.2 * target_seconds / elapsed, 1.5, 100.0) : 100.0;
        iterations = static_cast<std::uint64_t>(static_cast<double>(iterations) * grow);
    }
}

} // namespace

ClockMeasurement measure_core_clock(double seconds) {
    // Short samples: on a shared or virtualized host a time slice is a few ms,
    // so most 0.5 ms samples run undisturbed and the median is the true clock
    // (10 ms samples were nearly all preempted while other jobs ran).
    constexpr double kSampleSeconds = 0.0005;
    const int samples = std::max(5, static_cast<int>(seconds / kSampleSeconds));
    const std::uint64_t iterations = calibrate_iterations(kSampleSeconds);
    const double adds = static_cast<double>(iterations * kAddsPerIteration);

    std::vector<double> ghz;
    ghz.reserve(static_cast<std::size_t>(samples));
    for (int i = 0; i < samples; ++i) ghz.push_back(adds / seconds_for(iterations) / 1e9);

    // A high quantile, not the median: preemption, steal and a busy SMT sibling
    // only slow the chain, and on a shared host they can hit most samples of a
    // tenth of a second (a median of 2.5 GHz was seen on a 3.24 GHz core); the
    // quantile still ignores a lone sample disturbed upwards.
    const Stats summary = summarize(ghz);
    ClockMeasurement result;
    result.ghz = quantile(ghz, 0.9);
    result.min_ghz = summary.min;
    result.max_ghz = summary.max;
    result.samples = summary.runs;
    return result;
}

double plausible_clock_ghz(double reading_ghz, std::string* why) {
    if (!(reading_ghz > kMaxPlausibleClockGhz)) return reading_ghz;
    if (why)
        *why = fmt::format("the core clock read {:.2f} GHz, above the {:.1f} GHz no x86 core runs at: the chain of "
                           "dependent adds it is timed with ran faster than one add a cycle on this CPU, so it is no "
                           "clock; theoretical figures, which need one, are unknown in this run",
                           reading_ghz, kMaxPlausibleClockGhz);
    return 0;
}

double nominal_clock_from_brand(const std::string& brand) {
    // "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"; also tolerates "MHz"/"THz".
    static const std::regex pattern(R"(@\s*([0-9]+(?:\.[0-9]+)?)\s*([MGT])Hz)", std::regex::icase);
    std::smatch match;
    if (!std::regex_search(brand, match, pattern)) return 0;
    const double value = std::stod(match[1].str());
    switch (std::toupper(static_cast<unsigned char>(match[2].str()[0]))) {
    case 'M': return value / 1000;
    case 'T': return value * 1000;
    default: return value;
    }
}

} // namespace roofline
