// The instrument engine: a native run for time, then the command under our
// Valgrind tool for FLOPs and bytes.
#include "core/evex_code.hpp"
#include "core/message_name.hpp"
#include "io/install_layout.hpp"
#include "measure/child_process.hpp"
#include "measure/engines_internal.hpp"
#include "measure/marker_cost.hpp"
#include "measure/native_glibc.hpp"
#include "measure/output_tee.hpp"
#include "measure/protocol_json.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

namespace roofline::measure::detail {

namespace {

// Where Valgrind's log says it met an instruction it cannot decode: "0x485C150: dot512 (in
// /lib/libav.so)", the first frame after "Unrecognised instruction"; empty when not said.
std::string undecodable_code_location(const std::string& log) {
    const auto at = log.find("Unrecognised instruction");
    if (at == std::string::npos) return {};
    const auto frame = log.find(" at 0x", at);
    if (frame == std::string::npos) return {};
    const auto end = log.find('\n', frame);
    return log.substr(frame + 4, end == std::string::npos ? std::string::npos : end - frame - 4);
}

// Why the counting run stopped at an instruction, from the bytes Valgrind logged: EVEX code the
// scan before the runs did not see, or a VEX or legacy extension beyond AVX2 (AVX-VNNI, GFNI,
// VAES, ...) that Valgrind does not decode either and that -march=native -mno-avx512f keeps.
std::string undecodable_cause(const std::string& log, const std::string& where) {
    const auto insn = undecoded_instruction(log);
    std::string bytes;
    if (insn)
        for (std::size_t i = 0; i < insn->bytes.size() && i < 6; ++i) bytes += fmt::format(" {:02X}", insn->bytes[i]);
    const std::string at = fmt::format("{}{}", where.empty() ? "" : " at " + where,
                                       bytes.empty() ? "" : " (bytes" + bytes + ")");
    constexpr const char* kRemedies =
        "Build it for x86-64-v3 (-march=x86-64-v3 -mtune=native: up to AVX2 and FMA, which Valgrind decodes; "
        "-march=native -mno-avx512f still allows AVX-VNNI, GFNI, VAES and VPCLMULQDQ on newer CPUs), count such a "
        "build with --counts-from, or use --engine perf where hardware counters are available";
    if (!insn || insn->evex)
        return fmt::format("Valgrind cannot decode the instruction{}: AVX-512 code loaded at run time (dlopen) or "
                           "generated, which the AVX-512 scan before the runs (the program and the libraries ldd "
                           "lists) does not see. {}",
                           at, kRemedies);
    return fmt::format("Valgrind cannot decode the instruction{}: {}, an extension beyond AVX2 that Valgrind does "
                       "not decode (the scan before the runs looks for AVX-512 only). {}",
                       at, insn->extension.empty() ? "an instruction of an extension it lacks" : insn->extension,
                       kRemedies);
}

// When Valgrind's debug-information reader gave up on a file (Valgrind exits 1 before the tool
// writes anything): the file it names and the reader's own words; empty when it did not.
// Valgrind 3.19 reads only part of DWARF 5, which clang 14 and later write by default: a
// form it does not know ('unhandled dwarf2 abbrev form code 0x1b') ends in this.
struct DebugInfoFailure {
    std::string file, why;
};
std::optional<DebugInfoFailure> debuginfo_failure(const std::string& log) {
    const auto at = log.find("Valgrind: debuginfo reader:");
    if (at == std::string::npos || log.find("Giving up", at) == std::string::npos) return std::nullopt;
    DebugInfoFailure f;
    // the image is named on a line of its own, quoted: ==PID== Valgrind:   "/path/prog"
    const auto open = log.find('"', at);
    if (open != std::string::npos) {
        const auto close = log.find('"', open + 1);
        const auto eol = log.find('\n', open);
        if (close != std::string::npos && (eol == std::string::npos || close < eol))
            f.file = log.substr(open + 1, close - open - 1);
    }
    for (const char* said : {"unhandled dwarf2 abbrev form code", "Possibly corrupted debuginfo file"}) {
        const auto w = log.find(said);
        if (w == std::string::npos) continue;
        const auto eol = log.find('\n', w);
        f.why = log.substr(w, eol == std::string::npos ? std::string::npos : eol - w);
        while (!f.why.empty() && (f.why.back() == '.' || f.why.back() == ' ')) f.why.pop_back();
        break;
    }
    return f;
}

// "3.19.0" from the log's "Using Valgrind-3.19.0 and LibVEX"; "as installed" when not said.
std::string valgrind_version_said(const std::string& log) {
    constexpr std::string_view kUsing = "Using Valgrind-";
    const auto at = log.find(kUsing);
    if (at == std::string::npos) return "as installed";
    const auto from = at + kUsing.size();
    const auto end = log.find_first_of(" \n", from);
    return log.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

// What the counts leave out or count in another precision, from the tool's functions: x87 long
// double (counted as f64: VEX computes it in double) and binary128 in software (libgcc's soft-fp,
// libquadmath: integer instructions, no FLOPs at all).
void say_precisions_not_counted(const VgtoolReport& report, MeasureResult& result) {
    auto listed = [](std::vector<std::string> names) {
        if (names.size() > 4) names.resize(4), names.push_back("...");
        return fmt::format("{}", fmt::join(names, ", "));
    };
    if (report.x87_flops > 0) {
        std::vector<std::string> names;
        for (const auto& [name, flops] : report.x87_functions) names.push_back(name);
        result.notes.push_back(fmt::format(
            "{:.0f} of the FLOPs are x87 instructions (long double arithmetic, in {}): counted as f64 scalar "
            "(Valgrind computes them in double), though the hardware computes them in 80-bit extended precision on "
            "the x87 unit, which no double-precision roof (SSE, AVX) describes",
            report.x87_flops, listed(names)));
    }
    static constexpr std::string_view kSoftFloat[] = {"__addtf3", "__subtf3", "__multf3", "__divtf3"};
    // Code the loader runs in every shared library it loads: libquadmath's ran in every gfortran
    // program (libgfortran needs it), 182 instructions of PLT, frame_dummy and constructor code,
    // and was warned of as binary128 arithmetic. Stripped, those have no symbol (a function of its
    // API always has one); with debug symbols, their names.
    static constexpr std::string_view kLoaderCode[] = {"_init", "_fini", "frame_dummy", "register_tm_clones",
                                                       "deregister_tm_clones", "__do_global_dtors_aux"};
    auto quadmath_api = [](const std::string& name) {
        return !name.empty() && name.rfind("(no symbol", 0) != 0 &&
               std::find(std::begin(kLoaderCode), std::end(kLoaderCode), name) == std::end(kLoaderCode);
    };
    std::vector<std::string> soft;
    std::string quadmath_file;
    int quadmath_functions = 0;
    bool quadmath_called = false;  // a function of its API ran, not only what the loader runs
    double instructions = 0, quadmath_instructions = 0;
    for (const auto& f : report.functions) {
        if (f.instructions <= 0) continue;
        const auto base = std::filesystem::path(f.object).filename().string();
        if (base.rfind("libquadmath", 0) == 0) {
            quadmath_file = base;
            ++quadmath_functions;
            quadmath_called = quadmath_called || quadmath_api(f.name);
            quadmath_instructions += f.instructions;
            continue;
        } else if (std::find(std::begin(kSoftFloat), std::end(kSoftFloat), f.name) != std::end(kSoftFloat)) {
            soft.push_back(f.name);
        } else {
            continue;
        }
        instructions += f.instructions;
    }
    if (quadmath_called) {
        instructions += quadmath_instructions;
        soft.push_back(fmt::format("{} function{} of {}", quadmath_functions, quadmath_functions == 1 ? "" : "s",
                                   quadmath_file));
    }
    // libgcc's soft-fp raises the inexact (or other) flag after an operation by running one real divss
    // in __sfp_handle_exceptions: the tool counts those apart, not as FLOPs (they made a __float128 dot
    // product an f32 point of 2 FLOPs an element, all in that function).
    const double flag_ops = report.regions.empty() ? 0 : report.regions[0].fp_flag_ops;
    const std::string flag_text =
        flag_ops > 0 ? fmt::format("; the {:.0f} floating-point operations libgcc's __sfp_handle_exceptions ran only "
                                   "to raise the exception flags (inexact, ...) of those operations are not counted "
                                   "either",
                                   flag_ops)
                     : std::string();
    if (!soft.empty())
        result.warnings.push_back(fmt::format(
            "the program does binary128 (__float128) arithmetic in software ({} ran, {:.3g} instructions): those "
            "are integer instructions, so its operations are not in the FLOPs (their loads and stores are in the "
            "bytes){}; the points' FLOPs are those of the hardware's floating-point instructions only",
            fmt::join(soft, ", "), instructions, flag_text));
    else if (flag_ops > 0)
        result.notes.push_back(fmt::format(
            "{:.0f} floating-point operations libgcc's __sfp_handle_exceptions ran only to raise the exception flags "
            "of software (soft-fp) arithmetic are not counted as FLOPs",
            flag_ops));
}

// glibc's memcpy and memmove store non-temporally above a size it computes from the CPU's
// caches, and under Valgrind that CPU is Valgrind's emulated one: the counting run would send
// to DRAM, past the simulated caches, copies that stay in the caches natively (or the reverse).
// It is given the thresholds the native run uses (core/glibc_store_thresholds).
void pin_glibc_store_thresholds(const std::string& program, std::vector<std::pair<std::string, std::string>>& env,
                                MeasureResult& result) {
    const NativeGlibc glibc = native_glibc(program);
    if (glibc.thresholds.empty()) return;
    std::string existing;
    if (const char* inherited = std::getenv("GLIBC_TUNABLES")) existing = inherited;
    auto given = std::find_if(env.begin(), env.end(), [](const auto& kv) { return kv.first == "GLIBC_TUNABLES"; });
    if (given != env.end()) existing = given->second;
    const std::string value = glibc_tunables_with(existing, glibc.thresholds);
    if (given != env.end())
        given->second = value;
    else
        env.emplace_back("GLIBC_TUNABLES", value);
    std::vector<std::string> said;
    for (const auto& t : glibc.thresholds)
        said.push_back(fmt::format("{} = {:.4g} MiB", t.tunable, static_cast<double>(t.bytes) / (1024.0 * 1024.0)));
    result.counting_glibc_thresholds = fmt::format("{}", fmt::join(said, ", "));
    result.notes.push_back(fmt::format(
        "glibc's memcpy and memmove store non-temporally (to DRAM, past the caches) above a size glibc "
        "computes from the CPU's caches, and under Valgrind the CPU is an emulated one with other caches: "
        "the counting run was given this machine's native thresholds ({}, as {} --list-diagnostics "
        "reports them; GLIBC_TUNABLES), so its copies reach the same cache levels as natively",
        fmt::join(said, ", "), glibc.loader));
}

} // namespace

void run_instrument_engine(const MeasureRequest& request, MeasureResult& result) {
    if (is_32_bit_program(request))
        throw MeasureError(fmt::format(
            "{} is a 32-bit program (ELF32): the instrument engine's Valgrind tool (and so --functions and "
            "--region-function) runs 64-bit programs only. Use --engine time for its time, --engine perf where "
            "hardware counters are available, or build it 64-bit",
            request.argv[0]));
    const std::string valgrind = find_executable("valgrind");
    if (valgrind.empty())
        throw MeasureError("the instrument engine needs valgrind, which is not installed (Debian/Ubuntu: "
                           "sudo apt-get install valgrind); or use --engine perf or --engine time");
    std::string why;
    const std::string tool_dir = vgtool_dir(request.self_exe, why);
    if (tool_dir.empty()) throw MeasureError(why);

    TempDir tmp("roofline-measure");
    require_temp_room(tmp);
    std::string timed_kept;  // --counts-from: the timed run's standard output
    std::uint64_t timed_total = 0;
    if (request.times) {
        result.timings = request.times->timings;
        result.wall_seconds = request.times->wall_seconds;
        result.region_timing = request.times->region_timing;  // the earlier run's repeats, if any
        result.wall_timing = request.times->wall_timing;
        result.notes.push_back(fmt::format("times from {} (an earlier run): no native run", request.times->source));
    } else if (!request.counts_from.empty()) {
        // --counts-from: the timed program's output is kept to compare with the counted one's.
        OutputTee timed_output;
        capture_next_run_stdout(timed_output.child_fd());
        native_run(request, result, tmp);
        capture_next_run_stdout(-1);
        timed_output.finish();
        timed_kept = timed_output.kept();
        timed_total = timed_output.total();
    } else {
        native_run(request, result, tmp);
    }
    if (const int sig = interrupt_signal()) {
        // Stopped by the user: no further run starts; the native run's time is what is kept.
        result.warnings.push_back(fmt::format("interrupted by {}: the run under the Valgrind tool was not started, "
                                              "so there are no counts (time only)",
                                              signal_name(sig)));
        return;
    }
    // A command that crashed natively runs under the tool anyway: the tool writes
    // what it counted up to the crash (Valgrind runs the tool's exit code then too).
    const bool native_failed = !request.times && !result.status.exited;

    const auto counts_out = tmp.file("vgtool.json");
    const auto log = tmp.file("valgrind.log");
    // --vgdb=no: no gdbserver, so no FIFOs and shared-memory file in TMPDIR, which Valgrind
    // leaves behind, and refuses to start without (exit 1, before the program) on a full disk.
    std::vector<std::string> argv = {valgrind, "--tool=roofline", "--vgdb=no", "--roofline-out=" + counts_out,
                                     "--log-file=" + log};
    argv.push_back(std::string("--roofline-region-scope=") + region_scope_name(request.region_scope));
    for (const auto& f : request.region_functions) argv.push_back("--roofline-function=" + f);
    if (!request.per_instruction_object.empty())
        argv.push_back("--roofline-per-instruction-object=" + request.per_instruction_object);
    for (const auto& library : request.per_instruction_libraries)
        argv.push_back("--roofline-per-instruction-object=" + library);
    if (!request.cache_hierarchy.empty()) {
        argv.push_back("--roofline-cache=" + request.cache_hierarchy);
        argv.push_back("--roofline-cache-cores=" + std::to_string(std::max(1, request.cache_cores)));
        if (!request.cache_cpu_cores.empty()) argv.push_back("--roofline-cpu-cores=" + request.cache_cpu_cores);
    }
    if (request.counts_from.empty()) {
        argv.insert(argv.end(), request.argv.begin(), request.argv.end());
    } else {
        argv.push_back(request.counts_from);
        argv.insert(argv.end(), request.argv.begin() + 1, request.argv.end());
    }
    auto env = request.env;
    env.emplace_back("VALGRIND_LIB", tool_dir);
    env.emplace_back("OMP_WAIT_POLICY", "passive");  // spinning threads would be counted and take forever
    // The marker library runs empty regions at its start for the tool to count: the calls' own
    // counts, taken off each region (marker_cost.hpp).
    env.emplace_back("ROOFLINE_MARKER_CALIBRATE", "1");
    pin_glibc_store_thresholds(request.counts_from.empty() ? request.argv[0] : request.counts_from, env, result);
    // After a native run, the program's output was shown there: this run shows none (its
    // standard output kept for --counts-from's comparison, its standard error's end for a
    // message should it fail). With --times it is the only run, and shows its output.
    std::optional<QuietOutput> quiet;
    if (!request.times) {
        quiet.emplace(!request.counts_from.empty());
        note_quiet_output(result.notes);
    }
    announce_next_long_run(
        "the run under the Valgrind tool (counts) goes on",
        fmt::format("{}Valgrind runs code 20-100x slower than natively, FMA-heavy code up to 1000x; Ctrl-C stops it "
                    "and keeps the native runs' time",
                    result.wall_seconds > 0 ? fmt::format("the native run took {:.3g} s; ", result.wall_seconds) : ""));
    const auto run = run_child(argv, env, {}, {}, kStopGraceSecondsValgrind, quiet ? quiet->stdout_fd() : -1,
                               quiet ? quiet->stderr_fd() : -1);
    if (request.times) result.status = run.status;  // the only run
    result.notes.push_back(fmt::format("run under the Valgrind tool (counts{}): {:.3f} s, {}",
                                       request.counts_from.empty() ? "" : " of " + request.counts_from,
                                       run.wall_seconds, run.status.describe()));
    std::string stderr_tail;  // appended to the messages of a run that failed
    if (quiet) {
        quiet->finish();
        stderr_tail = stderr_tail_text(quiet->stderr_tail());
        if (!request.counts_from.empty())
            result.output_comparison = compare_outputs(timed_kept, timed_total, quiet->stdout_kept(),
                                                       quiet->stdout_total());
    }
    const std::string log_text = read_file_or_empty(log);
    const bool undecodable = log_text.find("unhandled instruction") != std::string::npos ||
                             log_text.find("SIGILL") != std::string::npos;
    if (undecodable && !native_failed && !interrupt_signal()) {
        // The scan before the runs passed, yet Valgrind met code it cannot decode: code it did
        // not see (a library opened with dlopen, code generated at run time). The runs that
        // finished keep their time; the counts are lost, as for a run the OOM killer ends.
        const std::string where = undecodable_code_location(log_text);
        LostRun lost;
        lost.what = "the run under the Valgrind tool (counts)";
        lost.status = run.status;
        lost.wall_seconds = run.wall_seconds;
        lost.signal = run.status.signal ? run.status.signal : SIGILL;
        lost.cause = undecodable_cause(log_text, where);
        result.warnings.push_back(fmt::format("the run under the Valgrind tool (counts) was {} after {:.3f} s: {}. "
                                              "Its counts are left out, so the points are {} only",
                                              run.status.describe(), run.wall_seconds, lost.cause,
                                              request.times ? "the earlier run's times" : "the native run's time"));
        result.lost_run = std::move(lost);
        return;
    }
    if (undecodable) {
        throw MeasureError(
            "Valgrind stopped at an instruction it cannot decode (AVX-512, or an extension beyond AVX2 such as "
            "AVX-VNNI or GFNI; valgrind log below). Use --engine perf where hardware counters are available, or "
            "build the program for x86-64-v3 (-march=x86-64-v3 -mtune=native), measured as it is with "
            "--counts-from that build\n" + log_text);
    }
    const std::string text = read_file_or_empty(counts_out);
    if (interrupt_signal() && !(run.status.exited && (request.times || !result.status.exited ||
                                                      run.status.exit_code == result.status.exit_code))) {
        // Cut short: the tool's counts cover only part of the run and would not match the native run's time.
        result.warnings.push_back(fmt::format("interrupted by {} during the run under the Valgrind tool: its "
                                              "partial counts are left out (time only)",
                                              signal_name(interrupt_signal())));
        return;
    }
    if (interrupt_signal())  // the program took the signal in its stride and finished: its counts are whole
        result.warnings.push_back(fmt::format("{} arrived during the run under the Valgrind tool, but the program "
                                              "finished ({}): its counts are kept",
                                              signal_name(interrupt_signal()), run.status.describe()));
    if (text.empty() && !run.status.exited && run.status.signal != 0 && !native_failed) {
        // Killed from outside (the OOM killer's SIGKILL: Valgrind needs several times the program's
        // memory) after the native run finished: its counts are lost, the native run's time is kept.
        result.lost_run.emplace();
        result.lost_run->what = "the run under the Valgrind tool (counts)";
        result.lost_run->status = run.status;
        result.lost_run->wall_seconds = run.wall_seconds;
        result.lost_run->signal = run.status.signal;
        result.warnings.push_back(fmt::format(
            "the run under the Valgrind tool (counts) was {} after {:.3f} s{}: it wrote no counts, so the points "
            "are {} only{}",
            run.status.describe(), run.wall_seconds,
            run.status.signal == SIGKILL ? " (SIGKILL from outside: the OOM killer does this when memory runs out, "
                                           "and a program under Valgrind takes several times its own; 'dmesg' or "
                                           "'journalctl -k' says whether it was)"
                                         : "",
            request.times ? "the earlier run's times" : "the native run's time", stderr_tail));
        return;
    }
    if (text.empty() && native_failed) {
        result.warnings.push_back(
            fmt::format("the Valgrind tool wrote no counts ({}){}", run.status.describe(), stderr_tail));
        return;
    }
    // The tool does not say when its file could not be written: a full disk looks like a program
    // that exec'd (no counts) or like damaged output, and is named instead.
    const std::string full = text.empty() ? temp_full_hint(tmp) : std::string{};
    if (text.empty() && !full.empty())
        throw MeasureError(fmt::format("the Valgrind tool wrote no counts ({}){}", run.status.describe(), full));
    if (const auto dwarf = text.empty() ? debuginfo_failure(log_text) : std::nullopt)
        throw MeasureError(fmt::format(
            "Valgrind stopped the counting run: it could not read the debug information of {} ({}) and gave up, so "
            "there are no counts. Valgrind {} reads only part of DWARF 5, which clang 14 and later write by default: "
            "build that file with -gdwarf-4 (or without -g) for the instrument engine, or use --engine perf where "
            "hardware counters are available",
            dwarf->file.empty() ? std::string("a file it loaded") : message_name(dwarf->file),
            dwarf->why.empty() ? std::string("Valgrind's reader gave up") : "Valgrind: '" + dwarf->why + "'",
            valgrind_version_said(log_text)));
    if (text.empty() && run.status.exited)
        throw MeasureError(fmt::format(
            "the Valgrind tool wrote no counts, though the command {}: it replaced itself with another program "
            "(exec, as env, nice, exec in a shell script and most wrappers do), which runs outside the tool. "
            "Measure the program itself: roofline measure -- ./app args{}{}",
            run.status.describe(),
            // A refusal is no measurement: its status is roofline's (1), which a script must not
            // mistake for the command's own, passed through after a measurement.
            run.status.exit_code != 0 && run.status.exit_code != 1
                ? fmt::format(". roofline exits 1, not the command's status {}: the measurement was refused",
                              run.status.exit_code)
                : std::string{},
            stderr_tail));
    if (text.empty())
        throw MeasureError(fmt::format("the Valgrind tool wrote no counts ({}){}\nvalgrind log:\n{}",
                                       run.status.describe(), stderr_tail, log_text));
    auto report = [&] {
        try {
            return parse_vgtool_json(text, "Valgrind tool output");
        } catch (const MeasureError& e) {
            const std::string cut = temp_full_hint(tmp);
            if (cut.empty()) throw;
            throw MeasureError(fmt::format("the Valgrind tool's counts are cut short{}: {}", cut, e.what()));
        }
    }();
    for (auto& p : report.problems) result.warnings.push_back(std::move(p));
    say_precisions_not_counted(report, result);
    if (report.child_processes > 0)
        result.warnings.push_back(fmt::format(
            "the command started {} child process(es) (a shell, a wrapper, fork): the counts are the first "
            "process's only, not its children's, while the time covers them all. If the work runs in a child, "
            "measure that program itself (roofline measure -- ./app args)",
            report.child_processes));
    if (!report.thread_placement.empty()) result.notes.push_back(report.thread_placement);
    result.counts = std::move(report.regions);
    CostMessages cost;
    subtract_marker_counts(result.counts, result.timings, cost);
    for (auto& n : cost.notes) result.notes.push_back(std::move(n));
    for (auto& w : cost.warnings) result.warnings.push_back(std::move(w));
    result.functions = std::move(report.functions);
    result.instructions = std::move(report.instructions);
    result.region_breakdowns = std::move(report.region_breakdowns);
    // Killed with regions open on several threads: the counting run and the native run stop at the
    // same fault, but not at the same point of the other threads' work (Valgrind runs one thread
    // at a time), so counts and time of those regions cover different work. An audit's thread that
    // faulted half-way through its loop read 4.42 GFLOP/s in its region; whole runs, 2.27.
    if (!request.times && result.status.started && !result.status.exited && result.status.signal != 0) {
        std::vector<std::string> open;
        for (const auto& t : result.timings)
            if (t.unclosed > 0 && t.threads > 1) open.push_back(fmt::format("'{}' {}", t.name, t.threads));
        if (!open.empty())
            result.warnings.push_back(fmt::format(
                "the command was {} while regions ran on several threads (threads: {}): natively and under "
                "Valgrind, which runs one thread at a time, the other threads had done different shares of their "
                "work when it came, so the FLOPs and bytes of these regions and of the program (counted under "
                "Valgrind) and their time (native) cover different work, and their rates may be off either way",
                result.status.describe(), fmt::join(open, ", ")));
    }
    if (!request.times && run.status.exited && result.status.exited &&
        run.status.exit_code != result.status.exit_code)
        result.warnings.push_back(fmt::format("the command exited with {} natively but {} under Valgrind{}",
                                              result.status.exit_code, run.status.exit_code, stderr_tail));
    else if (!request.times && result.status.exited && !run.status.exited)
        result.warnings.push_back(fmt::format("the command exited with {} natively but was {} under Valgrind: the "
                                              "counts are those up to then{}",
                                              result.status.exit_code, run.status.describe(), stderr_tail));
}

} // namespace roofline::measure::detail
