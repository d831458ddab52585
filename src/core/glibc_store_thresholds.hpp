// glibc's memory functions choose their stores by size: memcpy and memmove (and memset from
// glibc 2.40) store non-temporally, past the caches, above a threshold glibc computes at start
// from the CPU's caches as CPUID reports them. Under Valgrind the CPU is Valgrind's emulated one
// (a Haswell with an 8 MiB L3 on this host: a 2 MiB threshold), not this machine's (240 MiB on
// a 2-vCPU Zen 4 guest): a 6 MiB memcpy that stays in L3 natively went to DRAM non-temporally
// in the counting run, and a 64 MiB one lost its write-allocate reads. The counting run is
// therefore given the native thresholds as glibc tunables. Pure: parses what the native loader
// printed (ld.so --list-diagnostics, glibc 2.33 and later) and builds the tunables' text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct GlibcThreshold {
    std::string tunable;  // glibc.cpu.x86_non_temporal_threshold
    std::uint64_t bytes = 0;
};

// The store-choosing thresholds in `diagnostics` (ld.so --list-diagnostics's
// x86.cpu_features.non_temporal_threshold=0x... and memset_non_temporal_threshold), each with
// the tunable that sets it, in the order printed; none when the text has none (an older glibc,
// another C library, another architecture). A value that is not a number is left out.
std::vector<GlibcThreshold> glibc_store_thresholds(std::string_view diagnostics);

// GLIBC_TUNABLES for the counting run: `existing` (the value the program would get, may be
// empty) followed by each threshold as name=0xVALUE, ':'-separated. glibc applies the last
// setting of a name, and the diagnostics already show the effect of a tunable the user set, so
// appending keeps what the user asked for.
std::string glibc_tunables_with(std::string_view existing, const std::vector<GlibcThreshold>& thresholds);

// The program's dynamic loader in ldd's output: the line naming an absolute path with no '=>'
// ("\t/lib64/ld-linux-x86-64.so.2 (0x...)"); empty when there is none (a static program).
std::string loader_in_ldd_output(std::string_view ldd_output);

} // namespace roofline
