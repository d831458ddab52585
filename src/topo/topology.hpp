// Machine topology from hwloc: packages, cores, PUs, NUMA nodes, caches.
// Also the only place that binds threads and memory (through hwloc).
#pragma once

#include "core/machine_model.hpp"
#include "core/topology_report.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace roofline {

// Which CPUs a command measures: those of the process's affinity mask (taskset, numactl, a
// batch job's binding: what the user asked for), or the whole machine (an MPI launcher's
// default binding of a rank is no request to measure one core: bench --mpi's node runs, and
// measure, which places the program's threads by their own affinity).
enum class CpuScope { affinity_mask, whole_machine };

class Topology {
public:
    // Loads the topology of this machine, kept to the CPUs `scope` says. Throws
    // std::runtime_error on failure.
    static Topology discover(CpuScope scope = CpuScope::affinity_mask);

    const CpuDescription& cpu() const { return cpu_; }  // clock_ghz left 0: measure it
    // Data and unified caches, one entry per level (L1d, L2, L3 ...).
    std::vector<CacheLevel> data_caches() const;
    const std::vector<CacheDetail>& caches() const { return caches_; }  // incl. L1i
    const std::vector<CoreDetail>& cores() const { return cores_; }
    const std::vector<NumaDetail>& numa_nodes() const { return numa_; }

    // Empty when the topology describes the machine this runs on; else why not: hwloc read it
    // from a file of another machine (HWLOC_XMLFILE), or it holds processing units this OS
    // does not have online. A command that measures refuses such a topology (its cores and
    // caches are not the ones measured); `topology` shows it with the reason.
    const std::string& not_this_machine() const { return not_this_machine_; }
    // Empty when every CPU of the machine is this process's to run on; else a note saying the
    // topology was kept to the CPUs of its affinity mask (taskset, numactl, a job's binding).
    const std::string& restricted_to() const { return restricted_to_; }
    // Throws std::runtime_error, saying that `what` measures this machine, when not_this_machine().
    void require_this_machine(const std::string& what) const;

    // Binds the calling thread to one logical core (all its PUs). Returns false
    // when binding is not possible (the caller warns, measurements go on).
    bool bind_current_thread_to_core(int core) const;
    // Allocates `bytes` on NUMA node `node` (hwloc_alloc_membind); nullptr on failure.
    void* alloc_on_node(std::size_t bytes, int node) const;
    void free_on_node(void* p, std::size_t bytes) const;

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
    CpuDescription cpu_;
    std::vector<CacheDetail> caches_;
    std::vector<CoreDetail> cores_;
    std::vector<NumaDetail> numa_;
    std::string not_this_machine_;
    std::string restricted_to_;
};

} // namespace roofline
