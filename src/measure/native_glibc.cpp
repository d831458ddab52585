#include "measure/native_glibc.hpp"

#include "measure/child_process.hpp"
#include "measure/command_output.hpp"

#include "core/math_library_flops.hpp"

#include <filesystem>

namespace roofline::measure {

namespace {

// ldd's listing for `program` as execvp would find it; nullopt where it or ldd is missing.
std::optional<std::string> ldd_listing(const std::string& program) {
    const std::string exe = find_executable(program);
    const std::string ldd = find_executable("ldd");
    if (exe.empty() || ldd.empty()) return std::nullopt;
    return command_output({ldd, exe});
}

} // namespace

NativeGlibc native_glibc(const std::string& program) {
    NativeGlibc out;
    const auto listed = ldd_listing(program);
    if (!listed) return out;
    out.loader = loader_in_ldd_output(*listed);
    if (out.loader.empty()) return out;
    if (const auto diagnostics = command_output({out.loader, "--list-diagnostics"}))
        out.thresholds = glibc_store_thresholds(*diagnostics);
    return out;
}

std::vector<std::string> math_libraries_loaded(const std::string& program) {
    const auto listed = ldd_listing(program);
    if (!listed) return {};
    std::vector<std::string> out;
    for (const auto& path : math_libraries_in_ldd_output(*listed)) {
        std::error_code ec;
        const auto resolved = std::filesystem::canonical(path, ec);
        if (!ec && std::filesystem::is_regular_file(resolved, ec)) out.push_back(resolved.string());
    }
    return out;
}

} // namespace roofline::measure
