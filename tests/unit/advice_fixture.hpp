// What the advice tests share: a small Zen-like double roofline with the two ceilings a scalar
// point meets (no SIMD, no ILP), and reading an analysis' next steps.
#pragma once

#include "core/roofline.hpp"
#include "render/advice_text.hpp"

#include <algorithm>
#include <string>

namespace roofline::advice_fixture {

// 1 thread at 3.7 GHz: peak 59 GFLOP/s, a scalar (no SIMD) ceiling at 7.4, one chain (no ILP) at
// 14.8, L1 triad 310 GB/s, DRAM 30; its compute roofs measured with `vector_bits` (0: unknown).
inline Roofline scalar_ceilings_machine(int vector_bits = 0) {
    Roofline r;
    r.label = "test";
    r.precision = "dp";
    r.threads = 1;
    r.clock_ghz = 3.7;
    r.vector_bits = vector_bits;
    r.compute = {"DP peak", "", 59};
    r.bandwidth = {{"L1 triad", "L1", 310}, {"DRAM copy", "DRAM", 30}};
    r.ceilings = {{"no ILP", CeilingKind::compute, "ilp", "", 14.8, "", false},
                  {"scalar (no SIMD)", CeilingKind::compute, "simd", "", 7.4, "", false}};
    return r;
}

inline bool has(const Analysis& a, NextStep::Kind kind) {
    return std::any_of(a.next_steps.begin(), a.next_steps.end(), [&](const NextStep& s) { return s.kind == kind; });
}

// Every step's words, one a line.
inline std::string all_advice(const Roofline& r, const Analysis& a) {
    std::string out;
    for (const auto& s : a.next_steps) out += next_step_text(r, s) + "\n";
    return out;
}

} // namespace roofline::advice_fixture
