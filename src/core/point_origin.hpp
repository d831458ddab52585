// Where a point came from (Point::source), the one vocabulary of its names: the
// points JSON's "source", the store (which keeps points as that JSON), charts and
// messages all take them from the table here. Pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace roofline {

enum class PointOrigin : unsigned char {
    none,                   // ""   : the file said nothing
    instrument,             // "instrument": the Valgrind tool counted it (a marker region)
    instrument_calltiming,  // "instrument+calltiming": a function, its time from timed calls
    instrument_sampling,    // "instrument+sampling": a function, its time its own samples (self time)
    instrument_callstacks,  // "instrument+callstacks": a function, its time from sampled call stacks
    perf,                   // "perf": hardware counters
    time,                   // "time": timed only
    ncu,                    // "ncu": a CUDA kernel or offload from Nsight Compute; judged on a GPU's roofline
    monitor,                // "monitor": a monitored job's sample
    kernel,                 // "kernel": a reference kernel run by `roofline kernels`
    analytic,               // "analytic": a kernel spec counted on paper
    model,                  // "model": predicted by `roofline model`
    other,                  // a name this version does not know (a hand-written or newer file): kept as text
};

// The one name table. point_origin_name(other) is "other" (PointSource keeps the text).
const char* point_origin_name(PointOrigin origin);
// Exact names of the table ("" is none); nullopt for anything else, never `other`.
std::optional<PointOrigin> parse_point_origin(std::string_view name);
// Every origin with a name of its own, in table order (none first; not `other`).
std::span<const PointOrigin> known_point_origins();

// Point::source: an origin, and for an unknown name the text a file gave, so a file
// of another version or a hand-written one loads and is written back unchanged.
class PointSource {
public:
    PointSource() = default;
    PointSource(PointOrigin origin) : origin_(origin) {}  // NOLINT: implicit, `p.source = PointOrigin::perf`
    // The table's origin for a known name; otherwise `other` keeping `name`.
    static PointSource from_name(std::string_view name);

    PointOrigin origin() const { return origin_; }
    // The table's name, or the text kept for `other`.
    std::string name() const;
    bool empty() const { return origin_ == PointOrigin::none; }

    friend bool operator==(const PointSource& a, const PointSource& b) = default;
    friend bool operator==(const PointSource& a, PointOrigin b) { return a.origin_ == b; }

private:
    PointOrigin origin_ = PointOrigin::none;
    std::string other_;  // `other` only
};

} // namespace roofline
