// A machine model and points to store in the results store's tests.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace store_test {

// Seconds from `start` to now (how long a store call waited).
inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline roofline::MachineModel sample_model(const std::string& cpu_model) {
    using namespace roofline;
    MachineModel m;
    m.cpu.model = cpu_model;
    m.cpu.isa = {"sse2", "avx2"};
    m.compute.push_back({"dp avx2 fma 1t", "dp", "avx2", 256, "fma", "8 fma chains", 1, 51.2, 51.2, 0,
                         {51.2, 50, 52, 0.01, 5, true}});
    m.memory.push_back({"L1", "load", "avx2", 1, 200.5, 200.5, 0, 16384, {}, {200.5, 190, 201, 0.02, 5, true}});
    m.curves.push_back({"load", "avx2", 1, {{4096, 210.0}, {1 << 20, 90.0}}});
    m.environment.hostname = "host-a";
    m.environment.mode = BenchMode::quick;
    m.environment.timestamp = "2026-11-03T10:20:30Z";
    m.environment.warnings = {"no PMU"};
    return m;
}

inline std::vector<roofline::Point> sample_points(const std::string& name) {
    roofline::Point p;
    p.name = name;
    p.series = "kernels";
    p.work = 2e9;
    p.bytes = {{"L1", 3.2e10}, {"DRAM", 1.6e10}};
    p.seconds = 0.25;
    p.threads = 2;
    p.source = roofline::PointOrigin::analytic;
    p.details = {{"flops_dp", 2e9}};
    roofline::Point ops = p;
    ops.name = name + " exchanges";
    ops.work_unit = "exchange";
    return {p, ops};
}

} // namespace store_test
