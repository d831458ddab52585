#include "io/install_layout.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include <sys/stat.h>

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif

namespace roofline {

std::string self_executable() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string{} : p.string();
}

std::string executable_identity() {
    struct stat info {};
    const bool known = ::stat("/proc/self/exe", &info) == 0;
    return fmt::format("{} {}:{}", ROOFLINE_VERSION, known ? static_cast<long long>(info.st_size) : -1,
                       known ? static_cast<long long>(info.st_mtime) : -1);
}

std::string events_dir(const std::string& self_exe) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("ROOFLINE_EVENTS_DIR"); env && *env) return env;
    if (self_exe.empty()) return {};
    const auto dir = fs::path(self_exe).parent_path();
    std::error_code ec;
    for (const auto& candidate : {dir / ".." / "share" / "roofline" / "events", dir / "share" / "roofline" / "events"})
        if (fs::is_directory(candidate, ec)) return candidate.lexically_normal().string();
    return {};
}

namespace {

constexpr const char* kToolFile = "roofline-amd64-linux";
// Valgrind's own files the launcher looks for in VALGRIND_LIB next to the tool; the build
// links them from the Valgrind it was built against.
constexpr const char* kCoreFiles[] = {"vgpreload_core-amd64-linux.so", "default.supp"};

// Empty when DIR holds the tool and resolvable core files; else what is missing.
std::string vgtool_dir_problem(const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(dir / kToolFile, ec)) return fmt::format("{} does not exist", (dir / kToolFile).string());
    for (const char* core : kCoreFiles) {
        const auto file = dir / core;
        if (!fs::exists(file, ec)) {  // follows the link: a dangling one is missing too
            std::error_code link_ec;
            const auto target = fs::read_symlink(file, link_ec);
            return link_ec ? fmt::format("{} does not exist", file.string())
                           : fmt::format("{} links to {}, which does not exist (is the Valgrind this roofline was "
                                         "built against installed?)",
                                         file.string(), target.string());
        }
    }
    return {};
}

} // namespace

std::string vgtool_dir(const std::string& self_exe, std::string& why) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("ROOFLINE_VGTOOL_DIR"); env && *env) {
        const auto problem = vgtool_dir_problem(env);
        if (problem.empty()) return env;
        why = fmt::format("ROOFLINE_VGTOOL_DIR={} is not usable: {}", env, problem);
        return {};
    }
    if (self_exe.empty()) {
        why = "the Valgrind tool was not found (this program's own path is unknown): set ROOFLINE_VGTOOL_DIR";
        return {};
    }
    const auto exe_dir = fs::path(self_exe).parent_path();
    const fs::path candidates[] = {exe_dir / "vgtool", (exe_dir / ".." / "libexec" / "roofline" / "vgtool").lexically_normal()};
    std::string problems;
    for (const auto& dir : candidates) {
        const auto problem = vgtool_dir_problem(dir);
        if (problem.empty()) return dir.string();
        std::error_code ec;
        if (fs::exists(dir / kToolFile, ec)) {  // the tool is there but cannot run: say that, not "not found"
            why = fmt::format("the Valgrind tool in {} cannot run: {}", dir.string(), problem);
            return {};
        }
        problems += fmt::format("{}{}", problems.empty() ? "" : ", ", (dir / kToolFile).string());
    }
    why = fmt::format("the Valgrind tool was not found (none of {} exists); build it (target roofline_vgtool, needs "
                      "Debian's valgrind) or set ROOFLINE_VGTOOL_DIR to the directory holding {}",
                      problems, kToolFile);
    return {};
}

namespace {

// A helper program: $VARIABLE, else <exe dir>/NAME, else <exe dir>/../libexec/roofline/NAME.
std::string helper_program_path(const std::string& self_exe, const char* variable, const char* name, std::string& why) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv(variable); env && *env) {
        if (fs::exists(env, ec)) return env;
        why = fmt::format("{}={} does not exist", variable, env);
        return {};
    }
    if (!self_exe.empty()) {
        const auto dir = fs::path(self_exe).parent_path();
        for (const auto& candidate : {dir / name, dir / ".." / "libexec" / "roofline" / name})
            if (fs::exists(candidate, ec)) return candidate.string();
    }
    why.clear();
    return {};
}

// A helper that was not built: `what` names it and `needed` what its build needed.
std::string helper_or_why(const std::string& self_exe, const char* variable, const char* name, const char* what,
                          const char* needed, std::string& why) {
    auto path = helper_program_path(self_exe, variable, name, why);
    if (path.empty() && why.empty())
        why = fmt::format("this roofline was built without its {}: {} not found when it was configured; install it "
                          "and reconfigure, or set {} to a {} built elsewhere",
                          what, needed, variable, name);
    return path;
}

} // namespace

std::string gpubench_path(const std::string& self_exe, std::string& why) {
    return helper_or_why(self_exe, "ROOFLINE_GPUBENCH", "roofline-gpubench", "GPU benchmark",
                         "nvcc (the CUDA toolkit) was", why);
}

std::string offload_library_path(const std::string& self_exe, std::string& why) {
    return helper_or_why(self_exe, "ROOFLINE_OFFLOAD_LIB", "roofline-offload.so", "offload injection library",
                         "CUPTI's headers (the CUDA toolkit) were", why);
}

std::string netbench_path(const std::string& self_exe, std::string& why) {
    return helper_or_why(self_exe, "ROOFLINE_NETBENCH", "roofline-netbench", "network benchmark",
                         "MPI (libopenmpi-dev) was", why);
}

} // namespace roofline
