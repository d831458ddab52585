#include "topo/topology.hpp"

#include "topo/clock.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"

#include <fmt/core.h>
#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <tuple>

namespace roofline {

// Owns the loaded hwloc topology; Topology copies share it.
struct Topology::Impl {
    hwloc_topology_t handle = nullptr;
    hwloc_obj_type_t core_type = HWLOC_OBJ_CORE;  // PU when hwloc found no cores

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl() {
        if (handle) hwloc_topology_destroy(handle);
    }

    int count(hwloc_obj_type_t type) const { return std::max(0, hwloc_get_nbobjs_by_type(handle, type)); }
    hwloc_obj_t core(int index) const {
        return hwloc_get_obj_by_type(handle, core_type, static_cast<unsigned>(index));
    }
};

namespace {

// CPUID's answer when there is one, else what hwloc read (e.g. /proc/cpuinfo on Arm).
std::string cpuid_or_hwloc_info(const std::string& from_cpuid, hwloc_obj_t package, const char* info_name) {
    if (!from_cpuid.empty() || !package) return from_cpuid;
    const char* value = hwloc_obj_get_info_by_name(package, info_name);
    return value ? value : "";
}

std::string cache_type_name(hwloc_obj_cache_type_t type) {
    switch (type) {
    case HWLOC_OBJ_CACHE_DATA: return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
    default: return "unified";
    }
}

// data < instruction < unified, so a level lists as L1d, L1i, L2 ...
int cache_type_order(const std::string& type) {
    return type == "data" ? 0 : type == "instruction" ? 1 : 2;
}

double parse_khz_as_ghz(const std::optional<std::string>& text) {
    if (!text) return 0;
    try {
        return std::stod(*text) / 1e6;
    } catch (const std::exception&) {
        return 0;
    }
}

// Brand string first (it is what the vendor sells); else what cpufreq says.
double nominal_clock_ghz(const std::string& brand) {
    if (double ghz = nominal_clock_from_brand(brand); ghz > 0) return ghz;
    if (double ghz = parse_khz_as_ghz(read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency"));
        ghz > 0)
        return ghz;
    return parse_khz_as_ghz(read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
}

// Why the loaded topology is not this machine's, or "". hwloc's word first (a topology read
// from XML is not this system unless HWLOC_THISSYSTEM=1 claims it), then the claim checked
// against the OS: every processing unit must be a CPU the kernel has online. A file of a
// 16-core machine used on a 2-vCPU guest would otherwise bind "successfully" and time 16
// threads on 2 CPUs as 16 cores.
std::string foreign_topology_reason(hwloc_topology_t t) {
    const char* xml = std::getenv("HWLOC_XMLFILE");
    const std::string source = xml && *xml ? fmt::format("hwloc read it from HWLOC_XMLFILE={}", xml) : "hwloc found it";
    if (!hwloc_topology_is_thissystem(t)) return source + ", which hwloc says is not this system";
    const auto online_text = read_first_line("/sys/devices/system/cpu/online");
    if (!online_text) return "";  // nothing to check against
    hwloc_bitmap_t online = hwloc_bitmap_alloc();
    std::string reason;
    if (hwloc_bitmap_list_sscanf(online, online_text->c_str()) == 0) {
        const hwloc_const_bitmap_t pus = hwloc_topology_get_topology_cpuset(t);
        if (!hwloc_bitmap_isincluded(pus, online)) {
            char* listed = nullptr;
            hwloc_bitmap_list_asprintf(&listed, pus);
            reason = fmt::format("{}, with processing units {} where this machine has CPUs {} online", source,
                                 listed ? listed : "?", *online_text);
            std::free(listed);
        }
    }
    hwloc_bitmap_free(online);
    return reason;
}

// The CPUs this process may run on (its affinity mask: taskset, numactl --physcpubind, a batch
// job's binding) are the machine it measures: without this, bench's threads bound themselves to
// every core and escaped a `taskset -c 1` (sched_setaffinity may widen a mask a cpuset cgroup
// does not forbid), timing "2 threads" on a run asked to use one CPU. hwloc already leaves out
// what a cgroup cpuset forbids. Returns what was left out, for a note; "" when nothing was.
std::string restrict_to_affinity(hwloc_topology_t t) {
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    std::string note;
    const hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(t);
    if (hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(bound) &&
        hwloc_bitmap_intersects(bound, all) && !hwloc_bitmap_isincluded(all, bound)) {
        hwloc_bitmap_and(bound, bound, all);
        const int total = hwloc_bitmap_weight(all);
        char* listed = nullptr;
        hwloc_bitmap_list_asprintf(&listed, bound);
        if (hwloc_topology_restrict(t, bound, 0) == 0)
            note = fmt::format("kept to the {} of {} CPUs this process may run on ({}: its affinity mask, from "
                               "taskset, numactl or a job's binding); the cores and threads are those",
                               hwloc_bitmap_weight(bound), total, listed ? listed : "?");
        std::free(listed);
    }
    hwloc_bitmap_free(bound);
    return note;
}

} // namespace

Topology Topology::discover(CpuScope scope) {
    auto impl = std::make_shared<Impl>();
    if (hwloc_topology_init(&impl->handle) != 0) throw std::runtime_error("hwloc: cannot initialize topology");
    // hwloc drops instruction caches by default; we report them too.
    hwloc_topology_set_icache_types_filter(impl->handle, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(impl->handle) != 0) throw std::runtime_error("hwloc: cannot load topology");
    if (impl->count(HWLOC_OBJ_CORE) == 0) impl->core_type = HWLOC_OBJ_PU;

    Topology topo;
    topo.impl_ = impl;
    hwloc_topology_t t = impl->handle;
    topo.not_this_machine_ = foreign_topology_reason(t);
    if (topo.not_this_machine_.empty() && scope == CpuScope::affinity_mask) topo.restricted_to_ = restrict_to_affinity(t);

    const int core_count = impl->count(impl->core_type);
    const int numa_count = impl->count(HWLOC_OBJ_NUMANODE);

    for (int i = 0; i < core_count; ++i) {
        hwloc_obj_t core = impl->core(i);
        CoreDetail detail;
        detail.index = i;
        if (hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, core))
            detail.package = static_cast<int>(package->logical_index);
        // NUMA nodes hang off the tree as memory children in hwloc 2: match by cpuset.
        for (int n = 0; n < numa_count; ++n) {
            hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(n));
            if (hwloc_bitmap_intersects(core->cpuset, node->cpuset)) {
                detail.numa_node = n;
                break;
            }
        }
        for (hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(t, core->cpuset, HWLOC_OBJ_PU, nullptr); pu;
             pu = hwloc_get_next_obj_inside_cpuset_by_type(t, core->cpuset, HWLOC_OBJ_PU, pu))
            detail.pu_os_indices.push_back(static_cast<int>(pu->os_index));
        if (detail.pu_os_indices.empty())
            throw std::runtime_error(fmt::format(
                "hwloc: core {} has no processing unit: the topology cannot be true{}", i,
                topo.not_this_machine_.empty() ? "" : " (" + topo.not_this_machine_ + ")"));
        topo.cores_.push_back(std::move(detail));
    }

    for (int n = 0; n < numa_count; ++n) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(n));
        NumaDetail detail;
        detail.index = n;
        detail.os_index = static_cast<int>(node->os_index);
        detail.memory_bytes = node->attr->numanode.local_memory;
        for (const CoreDetail& core : topo.cores_)
            if (core.numa_node == n) detail.cores.push_back(core.index);
        topo.numa_.push_back(std::move(detail));
    }

    // Group cache instances that look alike; hybrid CPUs (P and E cores) get
    // one entry per kind rather than a size that fits neither.
    using CacheKey = std::tuple<int, int, std::uint64_t, int, int>;  // level, type order, size, line, ways
    std::map<CacheKey, CacheDetail> groups;
    for (int type = HWLOC_OBJ_TYPE_MIN; type < HWLOC_OBJ_TYPE_MAX; ++type) {
        const auto obj_type = static_cast<hwloc_obj_type_t>(type);
        if (!hwloc_obj_type_is_cache(obj_type)) continue;
        for (hwloc_obj_t cache = hwloc_get_next_obj_by_type(t, obj_type, nullptr); cache;
             cache = hwloc_get_next_obj_by_type(t, obj_type, cache)) {
            const auto& attr = cache->attr->cache;
            const std::string type_name = cache_type_name(attr.type);
            const CacheKey key{static_cast<int>(attr.depth), cache_type_order(type_name), attr.size,
                               static_cast<int>(attr.linesize), attr.associativity};
            CacheDetail& detail = groups[key];
            detail.type = type_name;
            detail.cache.level = static_cast<int>(attr.depth);
            detail.cache.size_bytes = attr.size;
            detail.cache.line_bytes = static_cast<int>(attr.linesize);
            detail.cache.associativity = attr.associativity;
            std::vector<int> sharing;
            for (int i = 0; i < core_count; ++i)
                if (hwloc_bitmap_isincluded(impl->core(i)->cpuset, cache->cpuset)) sharing.push_back(i);
            detail.cache.shared_by_cores = std::max(detail.cache.shared_by_cores, static_cast<int>(sharing.size()));
            detail.core_groups.push_back(std::move(sharing));
            detail.cache.instances = static_cast<int>(detail.core_groups.size());
        }
    }
    for (auto& [key, detail] : groups) topo.caches_.push_back(std::move(detail));

    const CpuFeatures features = detect_cpu_features();
    hwloc_obj_t first_package = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    CpuDescription& cpu = topo.cpu_;
    cpu.model = cpuid_or_hwloc_info(features.brand, first_package, "CPUModel");
    cpu.vendor = cpuid_or_hwloc_info(features.vendor, first_package, "CPUVendor");
    cpu.isa = features.names();
    cpu.sockets = std::max(1, impl->count(HWLOC_OBJ_PACKAGE));
    cpu.cores = std::max(1, core_count);
    cpu.threads = std::max(1, impl->count(HWLOC_OBJ_PU));
    cpu.numa_nodes = std::max(1, numa_count);
    cpu.nominal_clock_ghz = nominal_clock_ghz(cpu.model);
    return topo;
}

std::vector<CacheLevel> Topology::data_caches() const {
    // One entry per level: on hybrid CPUs the kind that serves core 0, where
    // single-thread measurements run.
    std::map<int, CacheLevel> by_level;
    for (const CacheDetail& detail : caches_) {
        if (detail.type == "instruction") continue;
        const bool serves_core0 = std::any_of(detail.core_groups.begin(), detail.core_groups.end(),
                                              [](const std::vector<int>& group) {
                                                  return std::find(group.begin(), group.end(), 0) != group.end();
                                              });
        if (!by_level.count(detail.cache.level) || serves_core0) by_level[detail.cache.level] = detail.cache;
    }
    std::vector<CacheLevel> levels;
    for (const auto& [level, cache] : by_level) levels.push_back(cache);
    return levels;
}

void Topology::require_this_machine(const std::string& what) const {
    if (not_this_machine_.empty()) return;
    throw std::runtime_error(fmt::format(
        "{} measures this machine, but the topology is not this machine's: {}. Unset HWLOC_XMLFILE (or give the "
        "file of this machine) and run again",
        what, not_this_machine_));
}

bool Topology::bind_current_thread_to_core(int core) const {
    if (!impl_ || core < 0 || core >= static_cast<int>(cores_.size())) return false;
    hwloc_obj_t obj = impl_->core(core);
    return obj && hwloc_set_cpubind(impl_->handle, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

void* Topology::alloc_on_node(std::size_t bytes, int node) const {
    if (!impl_ || bytes == 0) return nullptr;
    hwloc_obj_t obj = hwloc_get_obj_by_type(impl_->handle, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(std::max(node, 0)));
    if (!obj || node < 0) return nullptr;
    void* memory = hwloc_alloc_membind(impl_->handle, bytes, obj->nodeset, HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET);
    // With a single node all memory is local anyway; containers often forbid
    // mbind, so fall back to a plain allocation rather than fail.
    if (!memory && impl_->count(HWLOC_OBJ_NUMANODE) == 1) memory = hwloc_alloc(impl_->handle, bytes);
    return memory;
}

void Topology::free_on_node(void* p, std::size_t bytes) const {
    if (impl_ && p) hwloc_free(impl_->handle, p, bytes);
}

} // namespace roofline
