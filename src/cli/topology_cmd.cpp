// `roofline topology`: what this machine is made of (packages, cores, NUMA
// nodes, caches, ISA) and how fast its cores actually clock, as text or JSON.
#include "bench/cache_probe.hpp"
#include "cli/commands.hpp"
#include "cli/messages.hpp"

#include "cli/common_options.hpp"
#include "core/node_memory_check.hpp"
#include "io/text_file.hpp"
#include "render/topology_text.hpp"
#include "topo/clock.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"
#include "topo/topology.hpp"

#include <fmt/core.h>

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace roofline::cli {

namespace {

constexpr const char* kClockMethod = "a chain of dependent integer adds (one retires per cycle)";
constexpr double kClockSeconds = 0.1;  // in many short samples, see measure_core_clock
constexpr int kClockCore = 0;

struct TopologyOptions {
    std::string format;
    std::string output;
    bool probe = false;
    bool quiet = false;  // taken as every command takes it: topology's warnings are part of its report
};

TopologyReport gather_report(bool probe) {
    const CpuFeatures features = detect_cpu_features();
    const Topology topology = Topology::discover();
    TopologyReport report;
    report.cpu = topology.cpu();
    report.family = features.family;
    report.model = features.model;
    report.stepping = features.stepping;
    report.caches = topology.caches();
    report.cores = topology.cores();
    report.numa_nodes = topology.numa_nodes();
    report.environment = collect_environment(features, topology.cpu().cores);
    if (!topology.restricted_to().empty()) report.environment.warnings.push_back(topology.restricted_to());
    // Only this machine's unrestricted nodes add up to its MemTotal.
    if (topology.restricted_to().empty() && topology.not_this_machine().empty()) {
        std::vector<std::uint64_t> node_bytes;
        for (const NumaDetail& node : report.numa_nodes) node_bytes.push_back(node.memory_bytes);
        if (auto shortfall = node_memory_shortfall(node_bytes, total_memory_bytes()); !shortfall.empty())
            report.environment.warnings.push_back(std::move(shortfall));
    }
    if (!topology.not_this_machine().empty())
        report.environment.warnings.push_back(fmt::format(
            "this topology is not this machine's: {}; the clock and any cache probe below were measured on this "
            "machine, not the one described",
            topology.not_this_machine()));
    report.checked_caches =
        checked_data_caches(topology, probe ? CacheProbe::always : CacheProbe::when_doubtful, &report.cache_probe);
    if (topology.bind_current_thread_to_core(kClockCore))
        report.clock_core = kClockCore;
    else
        report.environment.warnings.push_back(fmt::format(
            "could not bind to core {}: the clock was measured on whichever core the OS chose", kClockCore));
    report.clock = measure_core_clock(kClockSeconds);
    std::string implausible;
    report.clock.ghz = plausible_clock_ghz(report.clock.ghz, &implausible);
    if (!implausible.empty()) report.environment.warnings.push_back(implausible);
    report.clock_seconds = kClockSeconds;
    report.clock_method = kClockMethod;
    return report;
}

void run_topology(const TopologyOptions& options) {
    const ReportFormat format = parse_report_format(options.format);
    if (!options.output.empty()) check_file_writable(options.output);
    const std::string text = render_topology(gather_report(options.probe), format);
    write_result(options.output, text);
}

} // namespace

void add_topology_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<TopologyOptions>();
    auto* cmd = add_command(app, "topology", "Show packages, cores, caches, ISA and the measured clock");
    add_format_option(cmd, options->format, {"text", "json"}, true)
        ->description("Output format: text, or json (one object, schema roofline.topology/1)");
    add_output_option(cmd, options->output, "Write to FILE instead of standard output");
    add_quiet_flag(cmd, options->quiet);
    cmd->add_flag("--probe", options->probe,
                  "Measure where each cache level ends (one thread's load curve, a second or two) and check the "
                  "reported sizes against it; without it only a size the table doubts is measured");
    cmd->footer("Reports packages, cores, hardware threads, NUMA nodes, every cache (size, line,\n"
                "associativity, which cores share each instance), the ISA extensions this CPU and\n"
                "OS can run, and the core clock measured on core 0 with a chain of dependent\n"
                "integer adds (one retires per cycle; the 90th percentile of many short samples,\n"
                "since interference only slows the chain).\n"
                "\n"
                "Cache sizes are checked, not believed: each reported size is set beside what\n"
                "the microarchitecture table allows (a Zen 5 CCD has 32 or 96 MiB of L3; no core\n"
                "has a private 508 MiB L3) and, with --probe or when a size is doubted, beside\n"
                "where one thread's load bandwidth drops from one plateau to the next. The size\n"
                "used by bench, measure's cache simulation and kernels is printed with its source.\n"
                "\n"
                "Examples:\n"
                "  roofline topology\n"
                "  roofline topology --format json -o topology.json");
    cmd->callback([options, &exit_code] {
        try {
            run_topology(*options);
            exit_code = kExitOk;
        } catch (const std::exception& e) {
            print_stderr("roofline topology: error: {}\n", e.what());
            exit_code = kExitFailure;
        }
    });
}

} // namespace roofline::cli
