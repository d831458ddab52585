// `roofline topology`: what this machine is made of (packages, cores, NUMA
// nodes, caches, ISA) and how fast its cores actually clock, as text or JSON.
#include "cli/commands.hpp"

#include "core/byte_sizes.hpp"
#include "topo/clock.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"
#include "topo/topology.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace roofline::cli {

namespace {

constexpr const char* kTopologySchema = "roofline.topology/1";
constexpr const char* kClockMethod = "dependent integer add chain";
constexpr double kClockSeconds = 0.1;  // in many short samples, see measure_core_clock
constexpr int kClockCore = 0;

struct TopologyOptions {
    bool json = false;
};

// Everything the command reports, gathered before any of it is printed.
struct TopologyReport {
    CpuFeatures features;
    Topology topology;
    ClockMeasurement clock;
    bool bound_to_core = false;
    Environment environment;
};

TopologyReport gather_report() {
    TopologyReport report{detect_cpu_features(), Topology::discover(), {}, false, {}};
    report.environment = collect_environment(report.features, report.topology.cpu().cores);
    report.bound_to_core = report.topology.bind_current_thread_to_core(kClockCore);
    if (!report.bound_to_core)
        report.environment.warnings.push_back(fmt::format(
            "could not bind to core {}: the clock was measured on whichever core the OS chose", kClockCore));
    report.clock = measure_core_clock(kClockSeconds);
    return report;
}

std::string cache_name(const CacheDetail& cache) {
    if (cache.type == "data") return fmt::format("L{}d", cache.cache.level);
    if (cache.type == "instruction") return fmt::format("L{}i", cache.cache.level);
    return fmt::format("L{}", cache.cache.level);
}

std::string associativity_text(int ways) {
    if (ways < 0) return "full";
    if (ways == 0) return "?";
    return std::to_string(ways);
}

// "0-3,8,10-11": consecutive indices collapsed into ranges.
std::string index_ranges(const std::vector<int>& indices) {
    std::string text;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
        if (!text.empty()) text += ',';
        text += j == i ? std::to_string(indices[i]) : fmt::format("{}-{}", indices[i], indices[j]);
        i = j + 1;
    }
    return text;
}

std::string core_groups_text(const std::vector<std::vector<int>>& groups) {
    constexpr std::size_t kShown = 4;
    std::string text;
    for (std::size_t g = 0; g < groups.size() && g < kShown; ++g)
        text += (g ? " | " : "") + index_ranges(groups[g]);
    if (groups.size() > kShown) text += fmt::format(" | ... ({} more)", groups.size() - kShown);
    return text;
}

std::string plural(int count, const char* noun) {
    return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

void print_text(const TopologyReport& r) {
    const CpuDescription& cpu = r.topology.cpu();
    std::string identity = cpu.vendor;
    if (r.features.family > 0)
        identity += fmt::format(", family {} model {} stepping {}", r.features.family, r.features.model,
                                r.features.stepping);
    fmt::print("CPU         {} ({})\n", cpu.model.empty() ? "unknown model" : cpu.model, identity);
    fmt::print("Packages    {}\n", cpu.sockets);
    fmt::print("Cores       {}\n", cpu.cores);
    if (cpu.threads % cpu.cores == 0)
        fmt::print("Threads     {} ({} per core)\n", cpu.threads, cpu.threads / cpu.cores);
    else
        fmt::print("Threads     {}\n", cpu.threads);
    fmt::print("NUMA nodes  {}\n", cpu.numa_nodes);
    for (const NumaDetail& node : r.topology.numa_nodes())
        fmt::print("  node {}: {} memory, cores {}\n", node.os_index, format_bytes(node.memory_bytes),
                   index_ranges(node.cores));

    fmt::print("\nCaches\n");
    if (r.topology.caches().empty()) fmt::print("  (hwloc reported no caches)\n");
    else
        fmt::print("  {:<5}  {:<11}  {:>8}  {:>5}  {:>4}  {:<9}  {:>9}  {}\n", "Level", "Type", "Size", "Line",
                   "Ways", "Shared by", "Instances", "Cores per instance");
    for (const CacheDetail& cache : r.topology.caches())
        fmt::print("  {:<5}  {:<11}  {:>8}  {:>3} B  {:>4}  {:<9}  {:>9}  {}\n", cache_name(cache), cache.type,
                   format_bytes(cache.cache.size_bytes), cache.cache.line_bytes,
                   associativity_text(cache.cache.associativity), plural(cache.cache.shared_by_cores, "core"),
                   cache.cache.instances, core_groups_text(cache.core_groups));

    std::string isa;
    for (const std::string& feature : cpu.isa) isa += (isa.empty() ? "" : " ") + feature;
    fmt::print("\nISA         {}\n", isa.empty() ? "(none detected)" : isa);

    const std::string where = r.bound_to_core ? fmt::format("on core {}", kClockCore) : "unbound";
    fmt::print("Clock       {:.2f} GHz measured {} (median of {} samples over {:.1f} s, range {:.2f}-{:.2f} GHz)\n",
               r.clock.ghz, where, r.clock.samples, kClockSeconds, r.clock.min_ghz, r.clock.max_ghz);
    fmt::print("            method: {}, one add retires per cycle\n", kClockMethod);
    if (cpu.nominal_clock_ghz > 0)
        fmt::print("            nominal: {:.2f} GHz\n", cpu.nominal_clock_ghz);
    else
        fmt::print("            nominal: unknown (not in the brand string, no cpufreq in sysfs)\n");
    if (!r.environment.hypervisor.empty()) fmt::print("Hypervisor  {}\n", r.environment.hypervisor);

    if (!r.environment.warnings.empty()) {
        fmt::print("\nWarnings\n");
        for (const std::string& warning : r.environment.warnings) fmt::print("  - {}\n", warning);
    }
}

nlohmann::json report_json(const TopologyReport& r) {
    using nlohmann::json;
    const CpuDescription& cpu = r.topology.cpu();
    json out;
    out["schema"] = kTopologySchema;
    out["cpu"] = {{"model", cpu.model},
                  {"vendor", cpu.vendor},
                  {"family", r.features.family},
                  {"model_number", r.features.model},
                  {"stepping", r.features.stepping},
                  {"isa", cpu.isa},
                  {"sockets", cpu.sockets},
                  {"cores", cpu.cores},
                  {"threads", cpu.threads},
                  {"numa_nodes", cpu.numa_nodes},
                  {"clock_ghz", r.clock.ghz},
                  {"nominal_clock_ghz", cpu.nominal_clock_ghz}};
    out["clock"] = {{"ghz", r.clock.ghz},
                    {"min_ghz", r.clock.min_ghz},
                    {"max_ghz", r.clock.max_ghz},
                    {"samples", r.clock.samples},
                    {"method", kClockMethod},
                    {"core", r.bound_to_core ? json(kClockCore) : json(nullptr)}};

    json numa = json::array();
    for (const NumaDetail& node : r.topology.numa_nodes())
        numa.push_back({{"index", node.index},
                        {"os_index", node.os_index},
                        {"memory_bytes", node.memory_bytes},
                        {"cores", node.cores}});
    out["numa"] = numa;

    json cores = json::array();
    for (const CoreDetail& core : r.topology.cores())
        cores.push_back({{"index", core.index},
                         {"package", core.package},
                         {"numa_node", core.numa_node},
                         {"pu_os_indices", core.pu_os_indices}});
    out["cores"] = cores;

    json caches = json::array();
    for (const CacheDetail& cache : r.topology.caches())
        caches.push_back({{"level", cache.cache.level},
                          {"type", cache.type},
                          {"size_bytes", cache.cache.size_bytes},
                          {"line_bytes", cache.cache.line_bytes},
                          {"associativity", cache.cache.associativity},
                          {"shared_by_cores", cache.cache.shared_by_cores},
                          {"instances", cache.cache.instances},
                          {"core_groups", cache.core_groups}});
    out["caches"] = caches;

    const Environment& env = r.environment;
    out["environment"] = {{"hostname", env.hostname},
                          {"hypervisor", env.hypervisor},
                          {"governor", env.governor},
                          {"turbo", env.turbo},
                          {"load_average", env.load_average},
                          {"compiler", env.compiler},
                          {"tool_version", env.tool_version},
                          {"timestamp", env.timestamp},
                          {"warnings", env.warnings}};
    return out;
}

void run_topology(const TopologyOptions& options) {
    const TopologyReport report = gather_report();
    if (options.json)
        fmt::print("{}\n", report_json(report).dump(2));
    else
        print_text(report);
}

} // namespace

void add_topology_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<TopologyOptions>();
    auto* cmd = app.add_subcommand("topology", "Show packages, cores, caches, ISA and the measured clock");
    cmd->add_flag("--json", options->json, "Print one JSON object (schema roofline.topology/1) instead of text");
    cmd->footer("Reports packages, cores, hardware threads, NUMA nodes, every cache (size, line,\n"
                "associativity, which cores share each instance), the ISA extensions this CPU and\n"
                "OS can run, and the core clock measured on core 0 with a chain of dependent\n"
                "integer adds (one retires per cycle; median of 200 samples of 0.5 ms).\n"
                "\n"
                "Examples:\n"
                "  roofline topology\n"
                "  roofline topology --json > topology.json");
    cmd->callback([options, &exit_code] {
        try {
            run_topology(*options);
            exit_code = kExitOk;
        } catch (const std::exception& e) {
            fmt::print(stderr, "roofline topology: error: {}\n", e.what());
            exit_code = kExitFailure;
        }
    });
}

} // namespace roofline::cli
