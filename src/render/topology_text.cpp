#include "render/topology_text.hpp"

#include "core/byte_sizes.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace roofline {
namespace {

constexpr const char* kTopologySchema = "roofline.topology/1";

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

std::string topology_text(const TopologyReport& r) {
    const CpuDescription& cpu = r.cpu;
    std::string out;
    std::string identity = cpu.vendor;
    if (r.family > 0)
        identity += fmt::format(", family {} model {} stepping {}", r.family, r.model, r.stepping);
    out += fmt::format("CPU         {} ({})\n", cpu.model.empty() ? "unknown model" : cpu.model, identity);
    out += fmt::format("Packages    {}\n", cpu.sockets);
    out += fmt::format("Cores       {}\n", cpu.cores);
    if (cpu.threads % cpu.cores == 0)
        out += fmt::format("Threads     {} ({} per core)\n", cpu.threads, cpu.threads / cpu.cores);
    else
        out += fmt::format("Threads     {}\n", cpu.threads);
    out += fmt::format("NUMA nodes  {}\n", cpu.numa_nodes);
    for (const NumaDetail& node : r.numa_nodes)
        out += fmt::format("  node {}: {} memory, cores {}\n", node.os_index, format_bytes(node.memory_bytes),
                   index_ranges(node.cores));

    out += fmt::format("\nCaches\n");
    if (r.caches.empty()) out += fmt::format("  (hwloc reported no caches)\n");
    else
        out += fmt::format("  {:<5}  {:<11}  {:>8}  {:>5}  {:>4}  {:<9}  {:>9}  {}\n", "Level", "Type", "Size", "Line",
                   "Ways", "Shared by", "Instances", "Cores per instance");
    for (const CacheDetail& cache : r.caches)
        out += fmt::format("  {:<5}  {:<11}  {:>8}  {:>3} B  {:>4}  {:<9}  {:>9}  {}\n", cache_name(cache), cache.type,
                   format_bytes(cache.cache.size_bytes), cache.cache.line_bytes,
                   associativity_text(cache.cache.associativity), count_of(cache.cache.shared_by_cores, "core"),
                   cache.cache.instances, core_groups_text(cache.core_groups));

    if (!r.checked_caches.empty()) {
        out += fmt::format("\nCache sizes checked ({})\n",
                           !r.cache_probe.points.empty() ? "against the microarchitecture table and a 1-thread load curve"
                                           : "against the microarchitecture table only: --probe measures them");
        out += fmt::format("  {:<5}  {:>10}  {:>10}  {:>10}  {}\n", "Level", "Reported", "Measured", "Used", "From");
        for (const CacheLevel& c : r.checked_caches)
            out += fmt::format("  L{:<4}  {:>10}  {:>10}  {:>10}  {}{}\n", c.level,
                               c.reported_size_bytes ? format_bytes(c.reported_size_bytes) : "-",
                               c.measured_size_bytes ? format_bytes(c.measured_size_bytes) : "-",
                               format_bytes(c.size_bytes), c.size_source, c.doubtful ? " (doubtful)" : "");
        for (const CacheLevel& c : r.checked_caches)
            if (!c.finding.empty()) out += fmt::format("  ! {}\n", c.finding);
    }

    std::string isa;
    for (const std::string& feature : cpu.isa) isa += (isa.empty() ? "" : " ") + feature;
    out += fmt::format("\nISA         {}\n", isa.empty() ? "(none detected)" : isa);

    const std::string where = r.clock_core ? fmt::format("on core {}", *r.clock_core) : "unbound";
    // 0: the reading was no clock (topo/clock.hpp plausible_clock_ghz; a warning says why).
    out += fmt::format("Clock       {} measured {} (90th percentile of {} samples over {:.1f} s, range "
                       "{:.2f}-{:.2f} GHz)\n",
                       r.clock.ghz > 0 ? fmt::format("{:.2f} GHz", r.clock.ghz) : std::string("unknown"), where,
                       r.clock.samples, r.clock_seconds, r.clock.min_ghz, r.clock.max_ghz);
    out += fmt::format("            method: {}\n", r.clock_method);
    if (cpu.nominal_clock_ghz > 0)
        out += fmt::format("            nominal: {:.2f} GHz\n", cpu.nominal_clock_ghz);
    else
        out += fmt::format("            nominal: unknown (not in the brand string, no cpufreq in sysfs)\n");
    if (!r.environment.hypervisor.empty()) out += fmt::format("Hypervisor  {}\n", r.environment.hypervisor);

    if (!r.environment.warnings.empty()) {
        out += fmt::format("\nWarnings\n");
        for (const std::string& warning : r.environment.warnings) out += fmt::format("  - {}\n", warning);
    }
    return out;
}

nlohmann::ordered_json topology_json(const TopologyReport& r) {
    using json = nlohmann::ordered_json;
    const CpuDescription& cpu = r.cpu;
    json out;
    out["schema"] = kTopologySchema;
    out["cpu"] = {{"model", cpu.model},
                  {"vendor", cpu.vendor},
                  {"family", r.family},
                  {"model_number", r.model},
                  {"stepping", r.stepping},
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
                    {"method", r.clock_method},
                    {"seconds", r.clock_seconds},
                    {"statistic", "p90"},
                    {"core", r.clock_core ? json(*r.clock_core) : json(nullptr)}};

    json numa = json::array();
    for (const NumaDetail& node : r.numa_nodes)
        numa.push_back({{"index", node.index},
                        {"os_index", node.os_index},
                        {"memory_bytes", node.memory_bytes},
                        {"cores", node.cores}});
    out["numa"] = numa;

    json cores = json::array();
    for (const CoreDetail& core : r.cores)
        cores.push_back({{"index", core.index},
                         {"package", core.package},
                         {"numa_node", core.numa_node},
                         {"pu_os_indices", core.pu_os_indices}});
    out["cores"] = cores;

    json caches = json::array();
    for (const CacheDetail& cache : r.caches)
        caches.push_back({{"level", cache.cache.level},
                          {"type", cache.type},
                          {"size_bytes", cache.cache.size_bytes},
                          {"line_bytes", cache.cache.line_bytes},
                          {"associativity", cache.cache.associativity},
                          {"shared_by_cores", cache.cache.shared_by_cores},
                          {"instances", cache.cache.instances},
                          {"core_groups", cache.core_groups}});
    out["caches"] = caches;
    json checked = json::array();
    for (const CacheLevel& c : r.checked_caches) {
        json level = {{"level", c.level},
                      {"size_bytes", c.size_bytes},
                      {"size_source", c.size_source},
                      {"reported_size_bytes", c.reported_size_bytes},
                      {"measured_size_bytes", c.measured_size_bytes},
                      {"doubtful", c.doubtful}};
        if (!c.finding.empty()) level["finding"] = c.finding;
        checked.push_back(level);
    }
    out["checked_caches"] = checked;
    json probe = json::array();
    for (const auto& [bytes, gbs] : r.cache_probe.points) probe.push_back({bytes, gbs});
    out["cache_probe"] = {{"pattern", r.cache_probe.pattern}, {"isa", r.cache_probe.isa},
                          {"threads", r.cache_probe.threads}, {"points", probe}};

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

} // namespace

std::string render_topology(const TopologyReport& report, ReportFormat format) {
    switch (format) {
    // What the OS reports (model names, hostnames) reaches the terminal escaped; JSON never throws on bad UTF-8.
    case ReportFormat::text: return terminal_block(topology_text(report));
    case ReportFormat::json:
        return topology_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    default: break;
    }
    throw std::invalid_argument(fmt::format("topology is printed as text or json, not {}", report_format_name(format)));
}

} // namespace roofline
