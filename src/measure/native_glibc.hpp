// What glibc decides natively for the program, read before the counting run so that run can be
// given the same (core/glibc_store_thresholds): its loader, found by ldd, prints its choices with
// --list-diagnostics (glibc 2.33 and later).
#pragma once

#include "core/glibc_store_thresholds.hpp"

#include <string>
#include <vector>

namespace roofline::measure {

struct NativeGlibc {
    std::string loader;                      // the program's dynamic loader; empty: none found
    std::vector<GlibcThreshold> thresholds;  // empty: not a glibc that says (or not dynamic)
};

// `program` as the command names it (found on PATH as execvp would). Runs ldd and the loader
// natively, in this process's environment (a GLIBC_TUNABLES the user set shows in the values).
NativeGlibc native_glibc(const std::string& program);

// The math libraries (libm, ...) the loader resolves for `program` (ldd), as canonical paths; empty
// where ldd is missing or the program loads none.
std::vector<std::string> math_libraries_loaded(const std::string& program);

} // namespace roofline::measure
