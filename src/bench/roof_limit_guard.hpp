// A roof above its hardware limit (the microarchitecture table's FLOPs or bytes per cycle x the
// core clock) is refused, but the clock is one reading, taken before the run: a host that moves
// its cores' clock meanwhile makes true roofs look impossible (a Zen 4 guest once refused five
// roofs at 1.03-1.04x a 3.51 GHz limit, and a rerun passed them). So, before refusing, the clock
// is read again right then; when that reading explains the roof, its kernel is timed once more
// between two readings, and the roof is kept only under the limit at the clock read next to it.
// The tolerance is never widened. Pure: the clock and the kernel come in as functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace roofline {

// A roof held against its limit.
struct RoofLimitCase {
    std::string name;          // for people: "dp 512-bit fma, 1 thread", "L1 load 2 threads"
    const char* unit = "";     // "GFLOP/s", "GB/s"
    double figure = 0;         // the measured roof
    double limit = 0;          // its theoretical figure at clock_ghz; 0: unknown (nothing judged)
    double clock_ghz = 0;      // the clock `limit` assumes
    std::string clock_source;  // which reading that is: "measured before the run"
};

// What the guard may do to find out: read the core clock now (GHz; 0: could not), and time the
// roof's kernel once more (its rate in the roof's unit; 0: not timed, e.g. the run was stopped).
// A team's limit is the sum of its cores' clocks x the per-core figure, and a host may run a
// guest's cores at different clocks, so a team's reading is every core of the team read at once,
// their mean; `reading_how` says so in the texts (" (on each of its 2 cores at once, their mean)").
struct RoofLimitProbe {
    std::function<double()> read_clock_ghz;
    std::function<double()> retime;
    std::string reading_how;
};

struct RoofLimitVerdict {
    bool accepted = true;
    bool remeasured = false;          // the clock was read again for this roof
    double limit = 0;                 // the limit the roof was judged by in the end
    double clock_ghz = 0;             // the clock that limit assumes
    double retimed = 0;               // the kernel's rate timed once more (0: not timed)
    std::vector<double> clocks_read;  // the readings taken, in order
    std::string clock_note;           // accepted after re-measuring: which clock the limit uses and why
    std::string refusal;              // refused: why, for people
};

// Within the limit (by kRefuseAboveTheory, the clock measurement's error), or the limit unknown:
// accepted as is, nothing read. Above it: the clock read again; a reading that still leaves the
// roof above is a refusal. A reading that explains it: the kernel timed once more and the clock
// read after it; the limit becomes per-cycle figure x the higher of those two readings (both
// taken next to the kernel), and the roof is accepted only when it and the re-timed rate are both
// within that limit.
RoofLimitVerdict guard_roof_limit(const RoofLimitCase& roof, const RoofLimitProbe& probe);

// One clock reading of the run, and when it was taken ("before the run", "next to L1 load 1 thread").
struct ClockReading {
    double ghz = 0;
    std::string when;
};

// Past this share between the lowest and the highest reading of a run, its roofs were measured at
// different clocks (the same 3% clock_drift_warning uses for before and after).
inline constexpr double kClockSpreadShare = 0.03;

// One line for people when the run's clock readings lie more than kClockSpreadShare apart,
// naming the lowest and highest and when they were taken; empty otherwise.
std::string clock_spread_warning(const std::vector<ClockReading>& readings);

} // namespace roofline
