#include "cli/invocation.hpp"

#include "cli/layered_config.hpp"
#include "io/store_location.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <string_view>

namespace roofline::cli {
namespace {

std::vector<std::string> g_argv;
const LayeredConfig* g_config = nullptr;

// A PostgreSQL URL's password (--db postgresql://user:secret@host/db) is not recorded:
// provenance is stored where everyone who reads the store sees it.
std::string without_password(const std::string& arg) {
    constexpr std::string_view db_equals = "--db=";
    if (arg.rfind(db_equals, 0) == 0) return std::string(db_equals) + store_display_name(arg.substr(db_equals.size()));
    return store_display_name(arg);
}

} // namespace

void set_invocation(int argc, char** argv, const LayeredConfig* config) {
    g_argv.clear();
    for (int i = 0; i < argc; ++i) g_argv.push_back(without_password(argv[i]));
    if (!g_argv.empty()) g_argv.front() = "roofline";  // the path it was started by says nothing of the run
    g_config = config;
}

const std::vector<std::string>& invocation_argv() { return g_argv; }

std::vector<std::string> configured_settings(const std::string& command) {
    std::vector<std::string> out;
    if (!g_config) return out;
    const auto& values = g_config->values();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto& v = values[i];
        // One the command line overrode was not in force: recording it contradicted the run
        // ("samples=4 (ROOFLINE_KERNELS_SAMPLES)" beside "min of 2 samples").
        if (v.command == command && v.from != "built-in" && !g_config->given_on_command_line(i))
            out.push_back(fmt::format("{}={} ({})", v.option.substr(2), without_password(v.value), v.from));
    }
    return out;
}

Provenance run_provenance(const std::vector<std::string>& command, const std::string& subcommand) {
    Provenance p;
    p.command = command;
    std::error_code ec;
    p.cwd = std::filesystem::current_path(ec).string();
    p.date = iso8601_utc_now();
    p.host = node_name();  // an MPI rank's node: its points are summed per node
    p.cpu = detect_cpu_features().brand;
    p.tool_version = ROOFLINE_VERSION;
    if (const auto settings = configured_settings(subcommand); !settings.empty())
        p.options["settings"] = fmt::format("{}", fmt::join(settings, "; "));
    return p;
}

} // namespace roofline::cli
