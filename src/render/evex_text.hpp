// What `measure` says about AVX-512 (EVEX) code: the refusal before anything
// runs, the run-time-dispatch warning, and --counts-from's comparison of the two
// runs' outputs. core/evex_code judges; this phrases.
#pragma once

#include "core/evex_code.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// The one message when the code that would run under Valgrind holds EVEX
// instructions (judgement.kind == refuse): what, why Valgrind cannot count it, what
// to do. `program`: the command's program; `counts_from`: --counts-from's program
// when that is what was checked (empty otherwise); `perf_unavailable`: why the perf
// engine is not available here (empty: unknown or available).
std::string render_evex_refusal(const EvexJudgement& judgement, const std::string& program,
                                const std::string& counts_from, const std::string& perf_unavailable);

// The run-time-dispatch warning: objects that choose code by the CPU and hold
// AVX-512 variants, and the features the counting CPU lacks. Empty when nothing to say.
std::string render_dispatch_warning(const EvexJudgement& judgement, const std::vector<std::string>& missing_isa);
// The same for glibc alone, a clause of a note (its variants are string and memory functions).
std::string render_glibc_dispatch_note(const EvexJudgement& judgement, const std::vector<std::string>& missing_isa);
// EVEX-shaped bytes no disassembler confirmed (objdump missing). Empty when none.
std::string render_unconfirmed_warning(const EvexJudgement& judgement);

// The ISA each run could execute, for a point's provenance (options isa_timed, isa_counted), its
// level first: "avx512: this CPU's CPUID: sse sse2 ... avx512f ...".
std::string render_timed_isa(const std::vector<std::string>& native);
// "avx2: Valgrind 3.19.0's emulated CPU, chosen from the host's hwcaps amd64-...: sse ... avx2 (no
// AVX-512)"; `cpu` nullopt: Valgrind did not say, and the list is the one assumed.
std::string render_counted_isa(const std::vector<std::string>& counting, const std::optional<ValgrindCpu>& cpu);

// The line under measure's table of points with --counts-from: where its two kinds of figure come from.
std::string render_counted_from_footer(const std::string& counted_program, const std::string& timed_program);

// "the output differs: 120 bytes against 118; first differing line 3: 'sum = 1.5' against 'sum = 1.25'"
std::string render_output_difference(const OutputComparison& c, const std::string& timed_program,
                                     const std::string& counted_program);

} // namespace roofline
