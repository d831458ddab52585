#include "render/advice_text.hpp"

#include "render/number_format.hpp"

#include "core/level.hpp"
#include "core/machine_roofline.hpp"
#include "core/math_library_flops.hpp"
#include "core/rep_string_stores.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

namespace roofline {
namespace {

// A roof's or ceiling's name less its level ("L2 triad+WA" -> "triad+WA").
std::string pattern_in_name(const std::string& name, const std::string& level) {
    return name.rfind(level + " ", 0) == 0 ? name.substr(level.size() + 1) : name;
}

// The access pattern a level's roof was measured with ("L2 load" -> "load").
std::string roof_pattern(const Roofline& r, const std::string& level) {
    for (const auto& b : r.bandwidth)
        if (b.level == level) return pattern_in_name(b.name, level);
    return {};
}

// How to vectorize, with the catch of measuring such a build.
std::string vectorize_how() {
    return "vectorize with the widest vectors the CPU has: check the compiler's vectorization report "
           "(-fopt-info-vec-missed), unit stride, no dependences, -O3 -march=native or intrinsics (Valgrind cannot run an AVX-512 "
           "build: count a build for x86-64-v3 (-march=x86-64-v3 -mtune=native) with measure --counts-from, or use "
           "the perf engine)";
}

// The counted kind of a point's FLOPs in words ("FMA" -> "FMAs").
const char* operation_plural(const std::string& operation) {
    return operation == "FMA" ? "FMAs" : operation == "add" ? "additions" : "multiplies";
}

// A known library's own options, for library_code ("" for others).
std::string library_options(const std::string& file) {
    std::string f = file;
    std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (f.find("fftw") != std::string::npos)
        return " (FFTW: FFTW_MEASURE or FFTW_PATIENT plans and wisdom, fftw_plan_many_dft for many transforms)";
    for (const char* blas : {"blas", "lapack", "mkl", "blis", "flame"})
        if (f.find(blas) != std::string::npos)
            return " (BLAS/LAPACK: a level-3 routine over many level-1/2 calls, its thread count and blocking)";
    if (is_math_library(file))
        return " (a math library: each call of libm's exp, sin, pow ... computes one element in scalar code; for a "
               "loop it vectorizes, GCC calls glibc's libmvec instead, several elements a call, at -O3 -ffast-math "
               "(glibc declares those forms only then); or SLEEF, AMD's libalm, Intel's SVML)";
    return "";
}

// A storing pattern ceiling's remedy: a smaller share of stores, toward the pattern of the level's
// roof. How many arrays a point writes its counts do not say (a measured point's loads and stores
// fall in arrays nothing counts): "fewer store streams" only for a point known to write several
// (`store_streams`, a kernel spec's); `store_share`: the point's, where known.
std::string storing_pattern_advice(const Roofline& r, const Ceiling& c, std::optional<double> store_share,
                                   double store_streams) {
    const auto best = roof_pattern(r, c.level);
    const Roof* roof = nullptr;
    for (const auto& b : r.bandwidth)
        if (b.level == c.level) roof = &b;
    std::string what = "store a smaller share of its bytes";
    // Without a point: a ceiling whose own pattern stores no larger share than the roof's (a triad,
    // a third, under a copy+WA roof, a half) streams slower for another reason than its stores:
    // "store a smaller share" would point the wrong way.
    std::string pattern = pattern_in_name(c.name, c.level);
    if (const auto wa = pattern.find("+WA"); wa != std::string::npos) pattern.erase(wa);
    const auto ceiling_share = pattern_store_share(pattern);
    if (!store_share && ceiling_share && roof && roof->store_share && *ceiling_share <= *roof->store_share + 1e-9 &&
        !best.empty())
        return fmt::format("change the access pattern toward {} ({}), which runs faster here than {}: {} stores {} "
                           "of its bytes, {} {}, so what slows {} is not its stores",
                           best, c.level, pattern, best, format_percent(*roof->store_share), pattern,
                           format_percent(*ceiling_share), pattern);
    if (store_share && roof && roof->store_share && !best.empty())
        what = fmt::format("it stores {} of its bytes, {} {}; store a smaller share", format_percent(*store_share),
                           best, format_percent(*roof->store_share));
    // Non-temporal stores skip the caches: a remedy for data streamed to memory, not for a
    // working set that lives in a cache (a blocked multiply in L1 would lose its reuse).
    return fmt::format("change the access pattern{}: {} (keep what it stores and loads back in registers across "
                       "iterations, fuse a pass that writes an array with the one that reads it){}{}",
                       best.empty() ? "" : fmt::format(" toward {} ({})", best, c.level), what,
                       store_streams >= 2 ? fmt::format(", fewer store streams (it writes {:.0f} arrays)", store_streams)
                                          : "",
                       c.level == "DRAM" ? ", non-temporal stores for data not reused" : "");
}

} // namespace

std::string ceiling_advice(const Roofline& r, const Ceiling& c) {
    if (!c.advice.empty()) return c.advice;
    const std::string& k = c.category;
    const bool compute = c.kind == CeilingKind::compute;
    if (k == "fma") return "fuse multiplies and adds into FMA instructions (-mfma or -march=native, -ffp-contract=fast)";
    if (k == "balance")
        return "balance the operation mix: interleave independent additions with the FMAs (or fuse multiplies and "
               "adds); one kind of operation alone leaves pipes idle";
    if (k == "simd") return vectorize_how();
    if (k == "ilp") return "break the dependency chain: several independent accumulators, unroll the reduction";
    if (k == "threads" && compute) return "parallelize across cores (OpenMP, threads) with balanced work";
    if (k == "threads") return "use all cores: one core cannot draw the level's full bandwidth";
    if (k == "pattern" && c.read_only) {
        const auto best = roof_pattern(r, c.level);
        return fmt::format("loads alone stream slower here than {}{}: fuse read-only passes with passes that write, "
                           "or read fewer bytes",
                           best.empty() ? "the top pattern" : best, c.level.empty() ? "" : fmt::format(" ({})", c.level));
    }
    if (k == "pattern") return storing_pattern_advice(r, c, std::nullopt, 0);
    if (k == "numa")
        return "keep data on the NUMA node of the threads that use it (first touch in parallel, numactl --localalloc)";
    if (k == "prefetch") return "prefetch data ahead of its use (software prefetch, or strides the hardware prefetcher follows)";
    return "lift the " + c.name + " ceiling";
}

std::string next_step_text(const Roofline& r, const NextStep& step) {
    switch (step.kind) {
    case NextStep::Kind::lift_ceiling:
        if (step.ceiling.category == "pattern" && !step.ceiling.read_only && step.ceiling.advice.empty() &&
            step.share > 0)
            return storing_pattern_advice(r, step.ceiling, step.share, step.store_streams);
        return ceiling_advice(r, step.ceiling);
    case NextStep::Kind::raise_intensity:
        if (step.level == "network")
            return fmt::format("communicate less or later: fewer, larger messages, overlapped with compute; the {} "
                               "roof caps this point at {} {}",
                               step.roof, format_number(step.cap), rate_unit(r.work_unit));
        if (is_bus_level(step.level))
            return fmt::format("ship less over {}: keep data on the device between kernels (fewer, larger copies), "
                               "overlap copies with compute (streams, pinned host memory); the {} roof caps this "
                               "point at {} {}",
                               step.level, step.roof, format_number(step.cap), rate_unit(r.work_unit));
        if (step.share > 0)
            return fmt::format("raise the intensity at {}: its loads and stores use {} of the bytes of the lines they "
                               "bring into L1 (counted by the cache simulation), so make accesses close in time "
                               "fall in the same lines before blocking or fusing: walk memory with unit stride in "
                               "the innermost loop (interchange loops, or copy a walked column into a row); for "
                               "indexed accesses (a gather x[col[j]]), order the data so that indices close in "
                               "time are close in memory (renumber a sparse matrix's rows and columns so that its "
                               "nonzeros lie near the diagonal, e.g. reverse Cuthill-McKee, or split its columns "
                               "into blocks whose part of x stays in a cache); the {} roof caps this point at {} {}",
                               step.level, format_percent(step.share), step.roof, format_number(step.cap),
                               rate_unit(r.work_unit));
        return fmt::format("raise the intensity at {} (reuse data in registers and caches, block loops, fuse passes): "
                           "the {} roof caps this point at {} {}",
                           step.level, step.roof, format_number(step.cap), rate_unit(r.work_unit));
    case NextStep::Kind::vectorize:
        // GCC and clang vectorize a floating-point reduction only when they may reassociate it
        // (GCC: -fassociative-math, which needs -fno-signed-zeros -fno-trapping-math; all three in
        // -ffast-math), or where OpenMP's simd reduction clause says the order does not matter.
        return fmt::format("{} of its FLOPs ran in scalar instructions ({}): {}{}", format_percent(step.share),
                           step.operation.empty() ? "counted" : step.operation,
                           step.reduction
                               ? "its FLOPs are a reduction (it stores almost nothing of what it computes), which "
                                 "GCC and clang keep scalar, whatever -O3 -march=native says, unless allowed to "
                                 "reorder the sum: '#pragma omp simd reduction(+:sum)' with -fopenmp-simd, or "
                                 "-ffast-math (-fassociative-math -fno-signed-zeros -fno-trapping-math), or "
                                 "several partial sums by hand; then "
                               : "",
                           // GCC vectorizes a loop calling exp, sin, pow ... only by calling libmvec's vector
                           // forms, which glibc declares only under -ffast-math (bits/math-vector.h): GCC 12
                           // with glibc 2.36 called _ZGVdN4v_exp at -O3 -ffast-math, none with -fopenmp or
                           // -fopenmp-simd and '#pragma omp simd' alone.
                           step.in_math_library
                               ? std::string("most of them ran inside math library calls (libm's exp, sin, pow ...), "
                                             "each computing one element in scalar code: a loop calling them "
                                             "vectorizes only with a vector math library: glibc's libmvec, whose "
                                             "vector forms GCC calls at -O3 -ffast-math (glibc declares them only "
                                             "then; '#pragma omp simd' alone does not), or SLEEF, AMD's libalm, "
                                             "Intel's SVML")
                               : vectorize_how());
    case NextStep::Kind::leave_x87:
        return fmt::format(
            "{} of its FLOPs are x87 instructions (long double, counted): the x87 unit has no SIMD form and "
            "executes them one at a time, so neither vectorizing nor -march=native changes them; double "
            "arithmetic (SSE/AVX), where its precision suffices, is what lets them vectorize. It is judged on "
            "the double roofline, whose roofs describe the SSE/AVX units, not x87",
            format_percent(step.share));
    case NextStep::Kind::call_overhead:
        return fmt::format(
            "{} own work per call is tiny: {} FLOPs and {} instructions per call over {} calls (counted), so calling "
            "it (the call and return, saving and restoring registers, the stack frame) costs about as much as its "
            "work, and no compiler vectorizes across calls: vectorizing it or -march=native does not help. Let the "
            "compiler see through the calls: inline it (static inline in a header, -flto across files, a direct "
            "call instead of a function pointer), batch the work of many calls into one (pass arrays, not "
            "elements), or, for a recursion, write it as a loop (an iterative form), which the compiler can then "
            "vectorize",
            step.operation.empty() ? std::string("its")
                                   : fmt::format("{} of its FLOPs are in {}, whose", format_percent(step.share), step.operation),
            format_number(step.flops_per_call), format_number(step.instructions_per_call), format_number(step.calls));
    case NextStep::Kind::library_code:
        return fmt::format(
            "its code is in {}, a library you do not build: compiler flags (-O3, -march=native) and changes to "
            "your own loops do not change its instructions. The levers are the library's: its planner or algorithm "
            "options{}, its threaded interface, a build of the library for this CPU (its SIMD options, or a vendor's "
            "tuned build), or another library; and how your code calls it (fewer, larger calls). {}",
            step.operation, library_options(step.operation),
            step.roof.empty() ? std::string("")
                              : fmt::format("The {} roof caps this point at {} {}", step.roof, format_number(step.cap),
                                            rate_unit(r.work_unit)));
    case NextStep::Kind::flops_not_the_time:
        return fmt::format(
            "its FLOPs are not what fills its time: it runs slower than one dependent chain of the slowest "
            "floating-point instructions would ({} {}: a divide or square root every 32 cycles on each of its "
            "threads, at most one a hardware thread, at the measured clock), so no change to its arithmetic (vectorizing, FMAs, more accumulators) "
            "makes it faster; its time goes to how it reaches memory (loads that wait on loads, random or strided "
            "accesses the prefetchers do not follow, page walks) or to other work (integer work, branches, calls, "
            "I/O, waiting)",
            format_number(step.cap), rate_unit(r.work_unit));
    case NextStep::Kind::widen_vectors: {
        const auto ceiling = std::find_if(r.ceilings.begin(), r.ceilings.end(), [&](const Ceiling& c) {
            return c.category == "simd" && c.name == step.operation + "-bit SIMD";
        });
        const auto table = r.peak_share_at_width.find(std::atoi(step.operation.c_str()));
        return fmt::format(
            "{} of its FLOPs ran in vectors of {} bits or fewer (counted), the roofs were measured with {}-bit "
            "vectors, which those FLOPs do not use: build for this CPU (-march=native; with AVX-512, GCC also "
            "-mprefer-vector-width=512; Valgrind cannot run an AVX-512 build: count a x86-64-v3 build with "
            "measure --counts-from) so that the compiler may use wider ones; {}",
            format_percent(step.share), step.operation, r.vector_bits,
            ceiling != r.ceilings.end()
                ? fmt::format("at {} bits the {} ceiling ({} {}) is its compute limit", step.operation, ceiling->name,
                              format_number(ceiling->value), rate_unit(r.work_unit))
            : table != r.peak_share_at_width.end()
                ? fmt::format("this model has no {}-bit ceiling ('roofline bench --full' measures one); by the "
                              "core's pipes (the microarchitecture table) {} bits allow at most {} of the {}, {} {}",
                              step.operation, step.operation, format_percent(table->second), r.compute.name,
                              format_number(table->second * r.compute.value), rate_unit(r.work_unit))
                : fmt::format("this model has no {}-bit ceiling ('roofline bench --full' measures one), so "
                              "read its efficiency against roofs it may not reach at its width",
                              step.operation));
    }
    case NextStep::Kind::split_chain:
        return fmt::format("split the accumulator: it stores {} and runs at about "
                           "one dependent chain{} rate ({} {} at the measured clock, {}), so each add waits for the "
                           "one before; {}",
                           // A larger share of a few bytes: the chain is in how rarely it stores.
                           step.share > 0.05 && step.accumulations_per_store > 0
                               ? fmt::format("one value per {} {} (one chain, longer than the core "
                                             "can overlap with the next)", format_number(step.accumulations_per_store),
                                             step.operation.empty() ? "accumulations" : "vector accumulations")
                               : fmt::format("{} of its bytes (a reduction)", format_percent(step.share)),
                           step.operation.empty() ? "'s" : fmt::format(" of {}-bit vectors'", step.operation),
                           format_number(step.cap), rate_unit(r.work_unit),
                           // The cap is at the fastest x86 add (2 cycles); where the bench measured this
                           // core's FMA chain, its rate is said too (a Zen 4 sum ran at 1.68 "about" 3.69).
                           r.chain_cycles > 2
                               ? fmt::format("one accumulation per 2 cycles, the fastest x86 add; {} {} at this "
                                             "core's FMA chain, {:.1f} cycles {}",
                                             format_number(step.cap * 2 / r.chain_cycles), rate_unit(r.work_unit),
                                             r.chain_cycles,
                                             r.chain_cycles_from.empty()
                                                 ? std::string("as the bench measured it")
                                                 : fmt::format("by the microarchitecture table ({}; the bench "
                                                               "measured no chain)",
                                                               r.chain_cycles_from))
                               : std::string("one accumulation per 2 cycles"),
                           // Vectorized already, so reassociation is allowed; GCC still keeps one vector
                           // accumulator (a 256-bit float sum on a Zen 4, -O3 -ffast-math: 0.84-1.18 s;
                           // with -funroll-loops -fvariable-expansion-in-unroller 0.54-0.56; four
                           // accumulators by hand 0.29-0.33; clang -O3 -ffast-math made four: 0.27-0.41).
                           step.operation.empty()
                               ? std::string("several independent partial sums (unroll by 4-8, or -ffast-math / "
                                             "#pragma omp simd reduction to let the compiler reassociate) let them "
                                             "overlap")
                               : std::string("several independent vector partial sums let them overlap: 4-8 "
                                             "accumulators, by hand or with GCC's -funroll-loops "
                                             "-fvariable-expansion-in-unroller (GCC keeps one vector accumulator "
                                             "otherwise)"));
    case NextStep::Kind::one_kind_mix: {
        const bool fma = step.operation == "FMA";
        const char* kind = operation_plural(step.operation);
        return fmt::format("{} of its FLOPs are {} (counted), and {} alone run at most {} {} here (the {} ceiling): "
                           "the mix is the algorithm's, with no other kind to interleave, so balancing it is no "
                           "remedy; past this rate only with fewer operations per result{}",
                           format_percent(step.share), kind, kind, format_number(step.cap), rate_unit(r.work_unit),
                           step.ceiling.name, fma ? "" : " (or FMAs, where a multiply feeds an addition)");
    }
    case NextStep::Kind::non_temporal_stores:
        return fmt::format("write the output it does not re-read with non-temporal (streaming) stores: {} of its "
                           "DRAM bytes are write-allocate reads of lines it then only overwrote (counted by the "
                           "cache simulation), which streaming stores do not make (_mm256_stream_pd, Clang's "
                           "__builtin_nontemporal_store, #pragma vector nontemporal in Intel's compilers); the {} "
                           "roof caps this point at {} {}",
                           format_percent(step.share), step.roof, format_number(step.cap), rate_unit(r.work_unit));
    case NextStep::Kind::reach_compute:
        if (!step.ceiling.name.empty())
            return fmt::format("the point is compute-bound, and {} of its FLOPs are {} (counted): they alone run at "
                               "most {} {} here (the {} ceiling), which is its room; the {} roof ({} {}) needs "
                               "other operations issued beside them",
                               format_percent(step.share), operation_plural(step.operation), format_number(step.cap),
                               rate_unit(r.work_unit), step.ceiling.name, step.roof, format_number(r.compute.value),
                               rate_unit(r.work_unit));
        return fmt::format("the point is compute-bound: the {} roof allows {} {}", step.roof, format_number(step.cap),
                           rate_unit(r.work_unit));
    }
    return {};
}

std::string lift_text(const KernelPrediction::Lift& lift, const std::string& work_unit) {
    switch (lift.kind) {
    case KernelPrediction::Lift::Kind::non_temporal_stores:
        return fmt::format("non-temporal stores for {} (no write-allocate reads)", fmt::join(lift.arrays, ", "));
    case KernelPrediction::Lift::Kind::intensity_at_level:
        return fmt::format("intensity at {} of {} {} (now {}) reaches the {} roof", lift.level,
                           format_number(lift.needed), intensity_unit(work_unit), format_number(lift.current),
                           lift.roof);
    }
    return {};
}

std::string limiting_metric_text(const Roofline& r, const Analysis& a) {
    if (a.upper)
        return a.upper->kind == CeilingKind::compute ? fmt::format("{} ({})", rate_unit(r.work_unit), a.upper->name)
                                                     : fmt::format("GB/s at {} ({})", a.upper->level, a.upper->name);
    return a.memory_bound ? fmt::format("GB/s at {}", a.binding_level) : rate_unit(r.work_unit);
}

const char* above_roof_cause_text(AboveRoof::Cause cause) {
    switch (cause) {
    case AboveRoof::Cause::more_threads_than_roofline:
        return "the point ran on more threads than the roofline it is judged against (--threads)";
    case AboveRoof::Cause::self_time_only:
        return "its time is sampled self time, so callees' work is counted but their time is not";
    case AboveRoof::Cause::work_outside_timing:
        return "the counts include work the timing did not cover (threads outside the region, or a region "
               "timed on one thread while others worked)";
    case AboveRoof::Cause::counted_in_other_build:
        return "its FLOPs and bytes were counted in another build (--counts-from), whose loads and stores are not the "
               "timed build's: without AVX-512 it has 16 vector registers, not 32, and may spill to the stack where "
               "the timed build does not, or unroll differently; its FLOPs hold, its bytes may not";
    case AboveRoof::Cause::stale_machine_model:
        return "the machine model is stale or from another machine (rerun 'roofline bench')";
    case AboveRoof::Cause::gpu_wrong_roof:
        return "it is judged on a roof its work did not run on (an FMA roof for tensor-core work, or another "
               "precision's roof)";
    case AboveRoof::Cause::gpu_roof_below_device:
        return "the GPU roof was measured below what the device reaches (at a lower SM clock than the kernel ran "
               "at, or by a benchmark kernel slower than the library's)";
    case AboveRoof::Cause::gpu_work_counted_twice:
        return "its FLOPs are counted twice (a tensor operation in more than one ncu metric, or launches of two "
               "runs added up)";
    case AboveRoof::Cause::rep_string_fill:
        return "its bytes at the binding level include write-allocate reads the cache simulation made for REP "
               "STOS/MOVS stores (memset, memcpy), enough that without them it is not above the roof, and CPUs with "
               "fast strings (ERMS/FSRM) may skip them by writing whole lines: its bytes there may be too many (the "
               "point's note says how many)";
    case AboveRoof::Cause::working_set_near_cache:
        return "its working set is under 4x the last cache it overflows, so part of it still hits there and "
               "fewer bytes crossed below than its analytic count (a larger size measures the level below)";
    }
    return "?";
}

std::string above_roof_level_causes(const DataMovement& m, const std::string& level) {
    const std::string usual = "time that missed part of the traffic, bytes counted in another build, or a roof measured low";
    if (m.rep_string_fill)
        for (const auto& l : m.rep_string_fill->levels)
            if (l.level == level) return rep_string_above_roof_text(l) + "; or " + usual;
    return usual;
}

std::string throughput_text(const BusThroughput& t, const std::string& work_unit) {
    std::string out = fmt::format("TI {} {} per {} byte", format_number(t.intensity), work_unit, t.bus);
    if (t.memory_level.empty()) return out + fmt::format(" (no {} bytes to compare with)", "DRAM/HBM");
    out += fmt::format("; a = TI / I({}) = {}", t.memory_level, format_number(t.coefficient));
    if (t.coefficient < 1)
        out += fmt::format(": the bus carries {}x the bytes the kernel moves from {} (no reuse on the device "
                           "between transfers)",
                           format_number(1 / t.coefficient), t.memory_level);
    else
        out += fmt::format(": each byte shipped is used {}x from {}", format_number(t.coefficient), t.memory_level);
    return out;
}

std::string unjudged_levels_text(const Analysis& a) {
    std::string levels;
    for (const auto& level : a.unjudged_levels) levels += (levels.empty() ? "" : ", ") + level;
    const bool one = a.unjudged_levels.size() == 1;
    return fmt::format("bytes at {} bound nothing: the machine model has no roof for {} (the point is judged by {})",
                       levels, one ? "that level" : "those levels",
                       a.intensity_level.empty() ? "its compute roof alone" : "its other levels and its compute roof");
}

std::string above_roof_text(const AboveRoof& above) {
    if (above.within_spread)
        return fmt::format("above its roof by {}, within the roof's measured spread ({}): the roof is a high "
                           "quantile of its samples and this run met the fastest of them",
                           format_percent(above.excess), format_percent(above.tolerance));
    std::string causes;
    for (auto c : above.causes) causes += (causes.empty() ? "" : "; or ") + std::string(above_roof_cause_text(c));
    return fmt::format("ABOVE ITS ROOF by {} (the roof's measured spread allows {}): a measurement error, not a "
                       "result; likely {}",
                       format_percent(above.excess), format_percent(above.tolerance), causes);
}

std::string efficiency_text(const Analysis& a) {
    if (!a.above_roof) return format_percent(a.efficiency);
    return format_percent(a.efficiency) + (a.above_roof->within_spread ? " (within spread)" : " (above roof!)");
}

} // namespace roofline
