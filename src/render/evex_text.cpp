#include "render/evex_text.hpp"

#include "core/message_name.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace roofline {
namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

} // namespace

std::string render_evex_refusal(const EvexJudgement& judgement, const std::string& program,
                                const std::string& counts_from, const std::string& perf_unavailable) {
    const std::string checked = counts_from.empty() ? program : counts_from;
    std::vector<std::string> holders;
    bool program_itself = false;
    for (const auto* o : judgement.unconditional) {
        // The scan stops at the first functions it confirms: then the figures are a lower bound.
        const bool partial = o->confirmation_stopped_early;
        const std::string found = fmt::format(
            "{}{} found by objdump{}", partial ? "at least " : "", o->confirmed,
            o->evex_functions.empty() ? ""
            : partial ? fmt::format(" in {} and maybe others: the scan stops at the first functions it confirms",
                                    fmt::join(o->evex_functions, ", "))
                      : fmt::format(" in {}", fmt::join(o->evex_functions, ", ")));
        if (o->executable) {
            program_itself = true;
            holders.insert(holders.begin(), fmt::format("{}{} holds AVX-512 instructions (EVEX-encoded; {})",
                                                        counts_from.empty() ? "" : "the --counts-from program ",
                                                        message_name(checked), found));
        } else {
            holders.push_back(fmt::format("{} loads {}, which holds AVX-512 instructions (EVEX-encoded; {})",
                                          message_name(checked), message_name(o->path), found));
        }
    }
    std::string text = fmt::format(
        "{}.\nThe instrument engine counts FLOPs and bytes by running the program under Valgrind, which cannot "
        "decode EVEX instructions (Valgrind bug 383010, open in every release) and would stop at the first one. "
        "Nothing was run.\n",
        fmt::join(holders, "; "));
    text += "What to do:\n";
    if (program_itself) {
        text += "  - build it without AVX-512, e.g. -O3 -march=x86-64-v3 -mtune=native (up to AVX2 and FMA, which "
                "Valgrind decodes; -march=native -mno-avx512f is not enough on newer CPUs: it keeps AVX-VNNI, GFNI, "
                "VAES and VPCLMULQDQ, which Valgrind cannot decode either; -mprefer-vector-width=256 is not enough: "
                "AVX-512 instructions on 256-bit registers remain)";
        if (counts_from.empty())
            text += fmt::format(
                ", and either measure that build, or keep this one for the time and count the other:\n"
                "      roofline measure --counts-from ./prog-noavx512 -- {} ...\n"
                "    (counts from the build without AVX-512 under Valgrind, time from this program's native run)\n",
                message_name(program));
        else
            text += "; --counts-from needs a build that Valgrind can run\n";
    } else {
        text += "  - use a build of that library without AVX-512 (or one that chooses its kernels by the CPU at run "
                "time)\n";
    }
    text += "  - or use --engine perf where the CPU's hardware counters are available: it counts what the CPU "
            "executes, AVX-512 included";
    if (!perf_unavailable.empty()) text += fmt::format(" (not here: {})", perf_unavailable);
    return text;
}

std::string render_dispatch_warning(const EvexJudgement& judgement, const std::vector<std::string>& missing_isa) {
    if (judgement.dispatching.empty() || missing_isa.empty()) return {};
    std::vector<std::string> objects;
    for (const auto* o : judgement.dispatching)
        objects.push_back(fmt::format("{} ({}{})", file_name(o->path),
                                      o->dispatch.empty() ? "AVX-512 variants by name" : fmt::to_string(fmt::join(o->dispatch, ", ")),
                                      o->evex_functions.empty() ? "" : "; e.g. " + fmt::to_string(fmt::join(o->evex_functions, ", "))));
    return fmt::format(
        "the counted run and the timed run may have executed different code: {} choose{} code by the CPU at run "
        "time and hold{} AVX-512 variants; under Valgrind the CPU has no {} (Valgrind's emulated CPU), natively it "
        "has them, so the FLOPs and bytes are those of the code chosen for Valgrind's CPU while the time is the "
        "native choice's. The perf engine counts the native run itself where hardware counters exist",
        fmt::join(objects, ", "), judgement.dispatching.size() == 1 ? "s" : "",
        judgement.dispatching.size() == 1 ? "s" : "", fmt::join(missing_isa, ", "));
}

std::string render_timed_isa(const std::vector<std::string>& native) {
    const auto level = isa_level(native);
    return fmt::format("{}{}this CPU's CPUID: {}", level, level.empty() ? "" : ": ", fmt::join(native, " "));
}

std::string render_counted_isa(const std::vector<std::string>& counting, const std::optional<ValgrindCpu>& cpu) {
    const auto level = isa_level(counting);
    const bool avx512 = level == "avx512";
    const std::string whose =
        cpu ? fmt::format("Valgrind{}'s emulated CPU, chosen from the host's hwcaps {}",
                          cpu->version.empty() ? "" : " " + cpu->version, cpu->hwcaps)
            : std::string("Valgrind's emulated CPU as assumed for an AVX2 host (valgrind -v did not name the hwcaps)");
    return fmt::format("{}{}{}: {}{}", level, level.empty() ? "" : ": ", whose, fmt::join(counting, " "),
                       avx512 ? "" : " (no AVX-512)");
}

std::string render_glibc_dispatch_note(const EvexJudgement& judgement, const std::vector<std::string>& missing_isa) {
    if (!judgement.glibc_dispatches || missing_isa.empty()) return {};
    return "it chooses its string and memory functions by the CPU at run time (ifunc): natively AVX-512 "
           "variants, under Valgrind others, moving the same bytes in other instructions";
}

std::string render_unconfirmed_warning(const EvexJudgement& judgement) {
    if (judgement.unconfirmed.empty()) return {};
    std::vector<std::string> names;
    for (const auto* o : judgement.unconfirmed) names.push_back(message_name(o->path));
    return fmt::format("{} may hold AVX-512 (EVEX) instructions, which Valgrind cannot decode: bytes of their shape "
                       "were found, but objdump (binutils) is not installed to confirm them; if the run under "
                       "the Valgrind tool stops at one, build without AVX-512 (-march=x86-64-v3 -mtune=native) or use --counts-from",
                       fmt::join(names, ", "));
}

std::string render_counted_from_footer(const std::string& counted_program, const std::string& timed_program) {
    return fmt::format("(GFLOP and bytes counted in {} under Valgrind, --counts-from; seconds from {} run natively)\n",
                       message_name(counted_program), message_name(timed_program));
}

std::string render_output_difference(const OutputComparison& c, const std::string& timed_program,
                                     const std::string& counted_program) {
    if (c.same) return {};
    std::string text = fmt::format("the two programs' standard outputs differ ({}: {} bytes, natively; {}: {} "
                                   "bytes, under Valgrind)",
                                   message_name(timed_program), c.a_bytes, message_name(counted_program), c.b_bytes);
    if (c.line > 0)
        text += fmt::format("; first differing line {}: '{}' against '{}'", c.line, message_name(c.a_line),
                            message_name(c.b_line));
    text += ": check that --counts-from names a build of the same source doing the same work (floating-point "
            "results may differ in the last digits between vector widths)";
    return text;
}

} // namespace roofline
