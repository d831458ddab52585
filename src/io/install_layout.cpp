#include "io/install_layout.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

namespace roofline {

std::string self_executable() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string{} : p.string();
}

std::string events_dir(const std::string& self_exe) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("ROOFLINE_EVENTS_DIR"); env && *env) return env;
#ifdef ROOFLINE_SOURCE_DATA_DIR
    if (fs::is_directory(ROOFLINE_SOURCE_DATA_DIR "/events")) return ROOFLINE_SOURCE_DATA_DIR "/events";
#endif
    if (!self_exe.empty()) {
        const auto installed = fs::path(self_exe).parent_path() / ".." / "share" / "roofline" / "events";
        if (fs::is_directory(installed)) return installed.string();
    }
    return "data/events";
}

std::string vgtool_dir(const std::string& self_exe, std::string& why) {
    namespace fs = std::filesystem;
    const char* tool_file = "roofline-amd64-linux";
    std::error_code ec;
    if (const char* env = std::getenv("ROOFLINE_VGTOOL_DIR"); env && *env) {
        if (fs::exists(fs::path(env) / tool_file, ec)) return env;
        why = fmt::format("ROOFLINE_VGTOOL_DIR={} has no {}", env, tool_file);
        return {};
    }
    if (!self_exe.empty()) {
        const auto dir = fs::path(self_exe).parent_path() / "vgtool";
        if (fs::exists(dir / tool_file, ec)) return dir.string();
        why = fmt::format("the Valgrind tool was not found ({} does not exist); build it (target roofline_vgtool) or set "
                          "ROOFLINE_VGTOOL_DIR to the directory holding {}",
                          (dir / tool_file).string(), tool_file);
        return {};
    }
    why = "the Valgrind tool was not found: set ROOFLINE_VGTOOL_DIR";
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

} // namespace

std::string gpubench_path(const std::string& self_exe, std::string& why) {
    auto path = helper_program_path(self_exe, "ROOFLINE_GPUBENCH", "roofline-gpubench", why);
    if (path.empty() && why.empty())
        why = "this roofline was built without its GPU benchmark: nvcc (the CUDA toolkit) was not found when it was "
              "configured; install the toolkit and reconfigure (cmake -DROOFLINE_WITH_CUDA=ON), or set "
              "ROOFLINE_GPUBENCH to a roofline-gpubench built elsewhere";
    return path;
}

std::string netbench_path(const std::string& self_exe, std::string& why) {
    auto path = helper_program_path(self_exe, "ROOFLINE_NETBENCH", "roofline-netbench", why);
    if (path.empty() && why.empty())
        why = "this roofline was built without its network benchmark: MPI was not found when it was configured; "
              "install libopenmpi-dev and reconfigure (cmake -DROOFLINE_WITH_MPI=ON), or set ROOFLINE_NETBENCH to a "
              "roofline-netbench built elsewhere";
    return path;
}

} // namespace roofline
