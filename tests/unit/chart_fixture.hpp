// A small fixed chart input shared by the layout and renderer tests (and the
// golden files): one machine with roofs and ceilings, a series and two loose points.
#pragma once

#include "render/chart.hpp"

#include <string>

namespace roofline::test {

inline Roofline fixture_machine(const std::string& label = "Test CPU 2x", double scale = 1.0) {
    Roofline r;
    r.label = label;
    r.precision = "dp";
    r.threads = 2;
    r.compute = {"DP peak", "", 64.0 * scale};
    r.bandwidth = {{"L1 load", "L1", 400 * scale}, {"L2 load", "L2", 200 * scale}, {"DRAM copy", "DRAM", 24 * scale}};
    r.ceilings = {{"no FMA", CeilingKind::compute, "fma", "", 32 * scale, "fuse multiplies and adds"},
                  {"scalar (no SIMD)", CeilingKind::compute, "simd", "", 8 * scale, "vectorize"},
                  {"DRAM 1 thread", CeilingKind::bandwidth, "threads", "DRAM", 12 * scale, "use all cores"}};
    return r;
}

inline Point fixture_point(const std::string& name, const std::string& series, double flops, double seconds,
                           std::map<std::string, double> bytes) {
    Point p;
    p.name = name;
    p.series = series;
    p.work = flops;
    p.seconds = seconds;
    p.bytes = std::move(bytes);
    p.threads = 2;
    p.source = PointOrigin::analytic;
    return p;
}

inline ChartInput fixture_input() {
    ChartInput input;
    input.machines = {fixture_machine()};
    input.points = {
        fixture_point("triad 16KiB", "triad", 2e9, 0.1, {{"L1", 3.2e10}, {"L2", 3.2e10}, {"DRAM", 3.2e10}}),
        fixture_point("triad 1GiB", "triad", 2e9, 1.6, {{"L1", 3.2e10}, {"DRAM", 3.2e10}}),
        fixture_point("dgemm", "", 4e10, 1.0, {{"L1", 1e10}, {"L2", 2e9}, {"DRAM", 2e8}}),
        fixture_point("stencil", "", 1e9, 0.5, {{"L1", 4e9}, {"DRAM", 1e9}}),
    };
    input.points[3].label = "Jacobi 7-pt";
    input.intensity_lines = {0.5};
    input.title = "Fixture chart";
    return input;
}

// A crowded chart: `machines` nearly identical machines (1% apart: their roofs run side by
// side, as two bench runs on one host do) and `points` points in one small cluster.
inline ChartInput crowded_input(int machines, int points) {
    ChartInput input;
    for (int m = 0; m < machines; ++m) input.machines.push_back(fixture_machine("host run " + std::to_string(m + 1), 1 + 0.01 * m));
    for (int i = 0; i < points; ++i) {
        const double flops = 3e9 * (1 + 0.02 * i), l1 = 2.4e10 * (1 + 0.03 * (i % 5));
        input.points.push_back(fixture_point("dot product variant " + std::to_string(i + 1), "", flops, 1.0,
                                             {{"L1", l1}, {"L2", l1 * 0.9}, {"DRAM", l1 * 0.01}}));
    }
    return input;
}

} // namespace roofline::test
