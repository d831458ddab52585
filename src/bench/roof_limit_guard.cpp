#include "bench/roof_limit_guard.hpp"

#include "core/roof_consistency.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace roofline {
namespace {

bool within(double figure, double limit) { return figure <= (1 + kRefuseAboveTheory) * limit; }

} // namespace

RoofLimitVerdict guard_roof_limit(const RoofLimitCase& roof, const RoofLimitProbe& probe) {
    RoofLimitVerdict v;
    v.limit = roof.limit;
    v.clock_ghz = roof.clock_ghz;
    if (!(roof.limit > 0) || !(roof.clock_ghz > 0) || within(roof.figure, roof.limit)) return v;
    // The limit scales with the clock: the table's figure per cycle, times the cycles a second.
    const double per_ghz = roof.limit / roof.clock_ghz;
    const auto read = [&] {
        const double ghz = probe.read_clock_ghz ? probe.read_clock_ghz() : 0;
        if (ghz > 0) v.clocks_read.push_back(ghz);
        return ghz;
    };
    v.remeasured = true;
    const std::string above = fmt::format("{}: {:.1f} {} is {:.2f}x what the core allows ({:.1f} at the {:.2f} GHz {})",
                                          roof.name, roof.figure, roof.unit, roof.figure / roof.limit, roof.limit,
                                          roof.clock_ghz, roof.clock_source);
    const double right_then = read();
    if (!(right_then > 0) || !within(roof.figure, per_ghz * right_then)) {
        v.accepted = false;
        v.refusal = above + (right_then > 0 ? fmt::format("; the clock read again right then{}, {:.2f} GHz, allows "
                                                          "{:.1f}, so a moved clock does not explain it",
                                                          probe.reading_how, right_then, per_ghz * right_then)
                                            : std::string("; the clock could not be read again")) +
                    ": the kernel's work was not all done, or the table or the clock is wrong for this CPU; refused";
        return v;
    }
    // The new reading explains the roof: the kernel once more, and the clock read after it, so its
    // limit rests on readings taken on either side of a run of that kernel.
    v.retimed = probe.retime ? probe.retime() : 0;
    const double after = read();
    const double near = std::max(right_then, after);
    const double limit = per_ghz * near;
    if (!(v.retimed > 0)) {
        v.accepted = false;
        v.refusal = above + fmt::format("; the clock read again right then{} was {:.2f} GHz, but the kernel could not be "
                                        "timed again next to it (the run was stopped); refused",
                                        probe.reading_how, right_then);
        return v;
    }
    const std::string readings =
        fmt::format("the clock read again right then{} was {:.2f} GHz, and {:.2f} GHz after one more burst of the "
                    "kernel ({:.1f} {})",
                    probe.reading_how, right_then, after, v.retimed, roof.unit);
    if (!within(roof.figure, limit) || !within(v.retimed, limit)) {
        v.accepted = false;
        v.refusal = above + "; " + readings +
                    fmt::format(", whose limit at {:.2f} GHz is {:.1f}: {} still above it; refused", near, limit,
                                within(v.retimed, limit) ? "the roof is" : "the kernel timed again is");
        return v;
    }
    v.limit = limit;
    v.clock_ghz = near;
    v.clock_note = fmt::format("{}: {:.1f} {} came out {:.2f}x its limit ({:.1f}) at the "
                               "{:.2f} GHz {}; the clock read{} {:.2f} GHz right then and {:.2f} GHz after one more "
                               "burst of its kernel ({:.1f} {}): the limit is {:.1f} at {:.2f} GHz, the higher of the two",
                               kClockRemeasuredNextToRoof, roof.figure, roof.unit, roof.figure / roof.limit,
                               roof.limit, roof.clock_ghz, roof.clock_source, probe.reading_how, right_then, after, v.retimed,
                               roof.unit, limit, near);
    return v;
}

std::string clock_spread_warning(const std::vector<ClockReading>& readings) {
    const ClockReading* low = nullptr;
    const ClockReading* high = nullptr;
    for (const auto& r : readings) {
        if (!(r.ghz > 0)) continue;
        if (!low || r.ghz < low->ghz) low = &r;
        if (!high || r.ghz > high->ghz) high = &r;
    }
    if (!low || !(high->ghz > (1 + kClockSpreadShare) * low->ghz)) return "";
    return fmt::format("the core clock moved during the run: {} readings from {:.2f} GHz ({}) to {:.2f} GHz ({}), "
                       "{:.1f}% apart: the roofs were measured at different clocks; a roof above its limit at the clock "
                       "before the run was judged at the clock read next to it (theoretical_clock in the model)",
                       readings.size(), low->ghz, low->when, high->ghz, high->when, 100 * (high->ghz / low->ghz - 1));
}

} // namespace roofline
