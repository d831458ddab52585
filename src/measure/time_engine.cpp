// The time engine, and the native run every engine's timing comes from.
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/child_regions.hpp"
#include "measure/engines_internal.hpp"
#include "measure/marker_presence.hpp"
#include "core/timing_disturbance.hpp"
#include "measure/protocol_json.hpp"
#include "topo/cgroup_limits.hpp"
#include "topo/cpus_allowed.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>


namespace roofline::measure::detail {

std::string read_file_or_empty(const std::string& path) { return read_file_if_exists(path).value_or(""); }

void require_temp_room(const TempDir& tmp) {
    const auto free = tmp.free_bytes();
    if (!free || *free >= kTempRoomBytes) return;
    throw MeasureError(fmt::format(
        "the temporary directory {} (TMPDIR, else /tmp) is on a file system with {} bytes free: the marker "
        "library's regions and the Valgrind tool's counts are written there, and would be lost. Free some space "
        "there, or set TMPDIR to a directory with room (at least 1 MiB; --functions and --loops need more)",
        std::filesystem::path(tmp.path()).parent_path().string(), *free));
}

std::string temp_full_hint(const TempDir& tmp) {
    const auto free = tmp.free_bytes();
    if (!free || *free >= kTempRoomBytes) return {};
    return fmt::format(" (the file system of the temporary directory {} (TMPDIR, else /tmp) has {} bytes free "
                       "after the run: what was written there was most likely cut off by the full disk; free some "
                       "space, or set TMPDIR to a directory with room, and run again)",
                       std::filesystem::path(tmp.path()).parent_path().string(), *free);
}

std::vector<std::string> read_marker_texts(const std::string& marker_out) {
    // The program's file, then one per image it exec'd that loaded the library too
    // ("<file>.exec1", ...: the library writes what it has before an exec and hands the next
    // name on), in the order they ran.
    std::vector<std::string> texts;
    for (std::string path = marker_out;; path = fmt::format("{}.exec{}", marker_out, texts.size())) {
        auto text = read_file_or_empty(path);
        if (text.empty()) break;
        texts.push_back(std::move(text));
    }
    return texts;
}

// What a native run that did not finish (killed, interrupted) lost, by whether the program loads the
// marker library: a program that marks no regions lost none, only the rest of its run (Ctrl-C during
// a program without regions was told 'region timings were not written'). A file the library wrote
// at the signal is said by unfinished_run_regions instead. The library's writer at a signal is a
// thread of its own (marker.cpp, write_before_dying), given 2 s: a lock it needs that stays held
// (the memory allocator's, held by the thread the signal stopped) leaves nothing written.
static std::string unfinished_run_loss(double seconds, std::optional<bool> loads_marker) {
    const std::string ran = fmt::format("the command did not finish: its time, {:.3f} s, is that of the part that ran "
                                        "before it stopped, not of a whole run",
                                        seconds);
    if (!loads_marker) return ran + "; if it marks regions, their timings were not written (the marker library "
                                    "writes them when the program exits)";
    if (*loads_marker) return ran + "; the timings of its marker regions were not written (the marker library "
                                    "writes them when the program exits, and at a crash, SIGINT, SIGTERM or SIGHUP "
                                    "once a region was opened: none was; the program ended another way, such as "
                                    "SIGKILL or its own signal handler; or the library's writer did not finish within "
                                    "its 2 s, held by a lock it needs that stayed held, such as the memory "
                                    "allocator's when the signal stopped a thread inside it)";
    return ran;
}

// The same run when the marker library wrote its regions as the signal came (it does at a crash
// and at SIGINT, SIGTERM, SIGHUP: marker.cpp, write_before_dying): those that had finished keep
// their time; those still open were cut off by the signal, their time the part that ran.
static std::string unfinished_run_regions(double seconds, const std::string& how,
                                          const std::vector<RegionTiming>& timings) {
    std::vector<std::string> finished, open;
    for (const auto& t : timings) (t.unclosed > 0 ? open : finished).push_back(fmt::format("'{}'", t.name));
    std::string text = fmt::format("the command did not finish ({}): its time, {:.3f} s, is that of the part that "
                                   "ran before it stopped, not of a whole run; the marker library wrote its regions "
                                   "then",
                                   how, seconds);
    if (!finished.empty())
        text += fmt::format(": {} finished before and keep{} {} time ({})", finished.size(),
                            finished.size() == 1 ? "s" : "", finished.size() == 1 ? "its" : "their",
                            fmt::join(finished, ", "));
    if (!open.empty())
        text += fmt::format("{} {} still open, cut off by it: {} time is only the part that ran ({})",
                            finished.empty() ? ":" : ";", open.size() == 1 ? "1 was" : fmt::format("{} were", open.size()),
                            open.size() == 1 ? "its" : "their", fmt::join(open, ", "));
    return text;
}

void first_native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp, ColdCaches& cold,
                      std::vector<std::pair<std::string, std::string>> extra_env,
                      const std::function<void(pid_t)>& before_exec) {
    const auto marker_out = tmp.file("marker.json");
    auto env = request.env;
    env.emplace_back("ROOFLINE_MARKER_OUT", marker_out);
    for (auto& kv : extra_env) env.push_back(std::move(kv));
    if (cold.active())
        result.notes.push_back(fmt::format("cold caches (--cold): a {} MiB buffer is written and read before each "
                                           "native run, by roofline on its own core: it empties the shared "
                                           "last-level cache and that core's caches of what the run before left",
                                           cold.bytes() >> 20));
    cold.flush();
    // The CPUs the program may use at once, as it starts with this process's mask and cgroup: its
    // threads beyond them take turns (taskset -c 0 with 8 threads, docker --cpus=1), which the
    // per-thread caps of the advice must know (core/roofline, threads_running).
    const auto allowed = cpus_allowed_now();
    result.cpus_allowed = allowed.cpus;
    if (const long online = ::sysconf(_SC_NPROCESSORS_ONLN); allowed.cpus > 0 && online > 0 && allowed.cpus < online) {
        std::string how;
        if (allowed.affinity_cpus > 0 && allowed.affinity_cpus < online)
            how = fmt::format("its affinity mask holds {} of the {} CPUs", allowed.affinity_cpus, online);
        if (allowed.quota_cpus && (allowed.affinity_cpus <= 0 || *allowed.quota_cpus < allowed.affinity_cpus))
            how += fmt::format("{}its cgroup's CPU quota is {:.2f} CPUs ({})", how.empty() ? "" : "; ",
                               *allowed.quota_cpus, allowed.quota_where);
        result.notes.push_back(fmt::format("the program may run on {} CPU{} at once ({}): its threads beyond that "
                                           "take turns, so rates per thread add up over at most {} (details "
                                           "cpus_allowed)",
                                           allowed.cpus, allowed.cpus == 1 ? "" : "s", how, allowed.cpus));
    }
    const auto run = run_child(request.argv, env, before_exec);
    result.status = run.status;
    result.wall_seconds = run.wall_seconds;
    result.cpu_user_seconds = run.user_seconds;
    result.cpu_system_seconds = run.system_seconds;
    result.cpu_wall_seconds = run.wall_seconds;
    result.timed_run_activity = run.activity;
    // Time in the kernel is work no roof describes: a program faulting in fresh memory spent most of
    // its 0.53 s there (0.10 s user) and was judged as slow code at 10% of the DRAM roof.
    const double cpu = run.user_seconds + run.system_seconds;
    if (run.system_seconds >= kKernelTimeFloorSeconds && run.system_seconds >= kKernelTimeShare * cpu)
        result.warnings.push_back(fmt::format(
            "the program spent {:.0f}% of its CPU time in the kernel ({:.3f} s system, {:.3f} s user, in {:.3f} s "
            "wall): page faults (fresh memory touched for the first time), system calls, I/O. No FLOP or byte roof "
            "describes that time, so its points sit below where their code alone would put them; reuse buffers "
            "rather than allocate them anew, or time the work inside marker regions",
            100 * run.system_seconds / cpu, run.system_seconds, run.user_seconds, run.wall_seconds));
    // A cgroup CPU quota the program used up: its threads were throttled, and its time holds the waits.
    if (const auto quota = cgroup_cpu_quota(); quota && run.wall_seconds >= 0.05 && cpu >= 0.9 * quota->cpus * run.wall_seconds)
        result.warnings.push_back(fmt::format(
            "the program used {:.2f} CPUs on average, its cgroup's quota of {:.2f} ({}): its threads were likely "
            "throttled, so its time holds waits no roof describes; the all-core roofs are the cores' speed, not "
            "the quota's",
            cpu / run.wall_seconds, quota->cpus, quota->where));
    result.notes.push_back(fmt::format("native run (timing): {:.3f} s, {}", run.wall_seconds, run.status.describe()));
    warn_child_regions(read_file_or_empty(marker_out + ".forked"), result.warnings);
    const std::vector<std::string> texts = read_marker_texts(marker_out);
    if (texts.empty()) {
        if (!run.status.exited)
            result.warnings.push_back(unfinished_run_loss(run.wall_seconds, loads_marker_library(request.argv[0], env)));
        else if (const auto full = temp_full_hint(tmp); !full.empty())
            // A full disk, not a program without markers: its regions are lost, which is said.
            result.warnings.push_back("no marker regions could be read, so only the whole program is measured" +
                                      full);
        else
            result.notes.push_back("no marker regions: the roofline marker library wrote nothing (the program "
                                   "does not load libroofline_marker, or left through _exit() or a signal, "
                                   "which skip its exit handler): whole program only");
        return;
    }
    std::vector<MarkerReport> reports;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const std::string source = i == 0 ? std::string("marker library output")
                                          : fmt::format("marker library output of exec'd image {}", i);
        try {
            reports.push_back(parse_marker_json(texts[i], source));
        } catch (const MeasureError& e) {
            // A damaged file costs the regions, not the run: the whole program's time is still known.
            result.warnings.push_back(fmt::format("the marker library's regions cannot be read, so only the whole "
                                                  "program is measured: {}{}",
                                                  e.what(), temp_full_hint(tmp)));
            return;
        }
    }
    // Each process image's calls cost what its own calibration says: taken off its regions before
    // they are added up; the calibrations' own time is no part of the program's.
    CostMessages said, later_images;
    double calibration_seconds = 0;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        auto& r = reports[i];
        subtract_marker_time(r.timings, r.counters, r.calibration ? &*r.calibration : nullptr,
                             i == 0 ? &said : &later_images);
        if (r.calibration) {
            calibration_seconds += r.calibration->seconds;
            for (const auto& [event, series] : r.calibration->counters) result.calibration_events[event] += series.total;
        }
    }
    if (calibration_seconds > 0 && result.wall_seconds > calibration_seconds) result.wall_seconds -= calibration_seconds;
    MarkerReport report = merge_marker_reports(std::move(reports));
    if (report.timings.empty())
        result.notes.push_back(texts.size() == 1
                                   ? "no marker regions: the roofline marker library was loaded but no region was "
                                     "opened: whole program only"
                                   : fmt::format("no marker regions: the roofline marker library was loaded (in {} "
                                                 "program images: the program exec'd) but no region was opened: "
                                                 "whole program only",
                                                 texts.size()));
    else if (texts.size() > 1)
        result.notes.push_back(fmt::format("marker regions from {} program images (the program exec'd another "
                                           "that loads the marker library): a region in several is their sum",
                                           texts.size()));
    if (!run.status.exited && !report.timings.empty()) {
        // Its open regions are said with the signal that cut them off, not as left open at the end.
        std::erase_if(report.problems,
                      [](const std::string& p) { return p.find("was still open when the program ended") != std::string::npos; });
        result.warnings.push_back(unfinished_run_regions(run.wall_seconds, run.status.describe(), report.timings));
    }
    for (auto& p : report.problems) result.warnings.push_back(std::move(p));
    if (!report.timings.empty()) {
        for (auto& n : said.notes) result.notes.push_back(std::move(n));
        for (auto& w : said.warnings) result.warnings.push_back(std::move(w));
        for (auto& w : later_images.warnings) result.warnings.push_back(std::move(w));
    }
    // Threads that ran a region but never called begin: an OpenMP team forked inside it.
    std::vector<std::string> teams;
    for (const auto& t : report.timings)
        if (t.team_threads > 1) teams.push_back(fmt::format("'{}' {}", t.name, t.team_threads));
    if (!teams.empty())
        result.notes.push_back(fmt::format(
            "regions around OpenMP parallel regions ran on their teams' threads (counted as each team starts: "
            "libgomp's entry points wrapped, or the OpenMP tool interface of LLVM's runtime): {}",
            fmt::join(teams, ", ")));
    // Threads started inside a region (pthread_create) that never opened it: a hand-made pool, std::thread.
    std::vector<std::string> spawned;
    for (const auto& t : report.timings)
        if (t.spawned_threads > t.team_threads)
            spawned.push_back(fmt::format("'{}' {}", t.name, t.spawned_threads));
    if (!spawned.empty())
        result.notes.push_back(fmt::format(
            "regions that started threads ran on them (pthread_create wrapped: the most threads started inside "
            "each, alive at once, from their creation to their exit; threads started before a region opened are "
            "not seen): {}",
            fmt::join(spawned, ", ")));
    result.timings = std::move(report.timings);
    // Counters the marker library read at region boundaries (perf engine).
    for (auto& c : report.counters) result.counts.push_back(std::move(c));
}

void native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp,
                std::vector<std::pair<std::string, std::string>> extra_env,
                const std::function<void(pid_t)>& before_exec) {
    ColdCaches cold(request.repeat.cold_flush_bytes);
    first_native_run(request, result, tmp, cold, std::move(extra_env), before_exec);
    repeat_native_run(request, result, tmp, cold);
}

void run_time_engine(const MeasureRequest& request, MeasureResult& result) {
    TempDir tmp("roofline-measure");
    require_temp_room(tmp);
    native_run(request, result, tmp);
}

} // namespace roofline::measure::detail
