// GPU bench (`bench --gpu N`): the GPU's roofs measured by its vendor's benchmark, through the
// vendor's backend (app/gpu_backend.hpp). A request in; the GPU of the machine model out, with
// the roofs left out and why. Nothing printed: cli/bench_cmd.cpp says the steps and the errors.
#pragma once

#include "app/request_error.hpp"
#include "core/gpu_model.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::app {

struct GpuBenchRequest {
    // Empty: the first vendor, in the registry's order, whose benchmark this build has (bench --gpu N
    // names a device, not a vendor); a second vendor's backend is then found without a flag.
    std::optional<GpuVendor> vendor;
    int device = 0;      // the vendor's device number (CUDA's for nvidia)
    bool quick = false;  // bench --quick: fewer repetitions, shorter kernels
};

struct GpuBenchResult {
    GpuModel gpu;
    // Roofs left out of `gpu`: above the specification's limit (core/gpu_specs.hpp), or their
    // kernel's self-check failed; one line each naming the kernel. The exit status says so.
    std::vector<std::string> refused;
    // What a person should know of the roofs kept: no specification table judged them (an
    // architecture not in it), a clock above the max boost (core/gpu_specs.hpp).
    std::vector<std::string> notes;
};

// A run of the vendor's benchmark that did not end within its time limit (a wedged driver
// blocks it in the kernel). The facts, for cli to word: which run, the program, the limit, how
// the run was ended, and what the person can do (check the device, raise the limit).
struct GpuRunTimedOut : std::runtime_error {
    enum class Run { probe, measure };
    enum class Ending {
        stopped,      // its process group ended on SIGTERM
        killed,       // it needed SIGKILL
        left_behind,  // not even SIGKILL ended it (stuck in the driver): it ends when roofline does
    };
    GpuRunTimedOut(Run run, std::string program, double limit_seconds, Ending ending, std::string device_check,
                   std::string limit_variable);
    Run run;
    std::string program;         // the benchmark program that ran
    double limit_seconds;        // the limit it ran under
    Ending ending;
    std::string device_check;    // the vendor's tool that checks the device ("nvidia-smi")
    std::string limit_variable;  // the environment variable that gives every run longer
};

// The vendor whose backend serves `request`: its own, else the first registered backend whose
// benchmark this build has, else the first backend (whose probe then says what is missing).
GpuVendor bench_vendor(const GpuBenchRequest& request);

// Checks that the device exists before minutes of CPU measuring. Throws RequestError (no
// backend for the vendor, its benchmark not built, a bad time limit in the environment),
// GpuRunTimedOut, std::runtime_error (no such device, the probe failed).
void probe_gpu(const GpuBenchRequest& request);

// Measures the device. Throws as probe_gpu does, and std::runtime_error when the benchmark failed
// or wrote what cannot be read; measure::Interrupted when a signal stopped it.
GpuBenchResult bench_gpu(const GpuBenchRequest& request);

} // namespace roofline::app
