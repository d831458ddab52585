// The times of one region (or of the whole program) over repeated runs (measure --repeat):
// the point takes the fastest; the rest says how much the runs varied. Made by
// core/repeated_timing.hpp, which also records it in a point's details and reads it back.
#pragma once

namespace roofline {

struct TimingSummary {
    int runs = 1;  // timed runs behind the figure
    double fastest = 0;
    double median = 0;
    double slowest = 0;
    int warmup_runs = 0;        // runs before them, not in the figure
    double warmup_seconds = 0;  // the first warm-up run's time (the cold one)
    // slowest / fastest - 1: what compare and history read (point_figure)
    double spread() const { return fastest > 0 ? slowest / fastest - 1 : 0; }
};

} // namespace roofline
