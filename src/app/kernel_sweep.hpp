// The kernel sweep (`roofline kernels`): reference kernels whose FLOPs and bytes are known on
// paper, timed on this machine over a sweep of working-set sizes, one point per kernel and size.
// A request in; a plan checked before anything runs (plan_kernel_sweep); the points out, with
// what became of each planned point told through a callback as it happens. Nothing is printed:
// cli/kernels_cmd.cpp renders the steps and delivers the points.
#pragma once

#include "app/request_error.hpp"
#include "bench/reference_kernel_registry.hpp"
#include "bench/reference_kernel_run.hpp"
#include "core/machine_model.hpp"
#include "core/provenance.hpp"
#include "core/roofline.hpp"
#include "topo/cpu_activity.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace roofline {
class ResultsStore;
class Topology;
class ThreadTeam;
}

namespace roofline::app {

// As asked on the command line (the texts are checked by plan_kernel_sweep).
struct KernelSweepRequest {
    std::vector<std::string> names;   // kernels; empty: every registered one
    std::string sizes;                // working sets, "32K,1M" or "1K..1G:x2"; empty: one per cache level
    std::vector<std::string> params;  // "NAME=V1,V2,...": every combination is run (a grid)
    int samples = 5;                  // timed samples per point
    bool median = false;              // the statistic over the samples: min, or median
    CacheMode cache = CacheMode::warm;
    int threads = 1;                  // pinned one per core, each on arrays of its own
    bool rerun = false;               // measure a point the store holds from the same setup again
};

// One kernel at one parameter set: a series of points, one per size.
struct PlannedKernel {
    const RegisteredReferenceKernel* entry = nullptr;
    KernelParams params;  // the values given (the kernel's defaults for the others)
    std::string label;    // "atb_ours m=8": the point's series
};

// A kernel the names given chose more than once, and the names that chose it, as given: it
// runs (and is listed) once.
struct RepeatedKernel {
    std::string kernel;
    std::vector<std::string> given;  // {"daxpy", "daxpy"}, {"sum_sp*", "sum_sp_simd"}
};

// A working-set size --sizes gives more than once (16K,16384; a fine sweep that rounds two steps
// to one size): it runs once.
struct RepeatedSize {
    std::uint64_t bytes = 0;
    int times = 0;
};

// The kernels `names` choose, each once, in the order first chosen; every kernel when `names` is
// empty. A name is a kernel's ("daxpy") or a shell pattern over their names ("sum_sp*",
// "stream_?", "[jd]*"). RequestError for a name that is no kernel's, or a pattern no kernel
// matches, listing the kernels ("no kernel 'daxpi' (did you mean 'daxpy'?); the kernels: ...").
struct KernelChoice {
    std::vector<const RegisteredReferenceKernel*> kernels;
    std::vector<RepeatedKernel> repeated;
};
KernelChoice choose_reference_kernels(const std::vector<std::string>& names);

struct KernelSweepPlan {
    KernelSweepRequest request;
    std::vector<const RegisteredReferenceKernel*> kernels;  // as named, each once (all when none)
    std::vector<PlannedKernel> runs;                        // kernels x parameter sets
    std::vector<std::uint64_t> sizes;                       // the whole team's working sets, each once
    std::vector<CacheLevel> caches;                         // checked (bench/cache_probe)
    std::vector<RepeatedKernel> repeated_kernels;           // chosen more than once: run once
    std::vector<RepeatedSize> repeated_sizes;               // given more than once: run once
    std::vector<KernelParamValues> repeated_params;         // --param values given more than once (`repeated`)
};

// Checks the request in the order a user fixes it (kernel names, samples, threads against
// `cores`, parameters, sizes) and plans the sweep; `caches` gives the checked data caches
// (called once, after the threads are checked), and `cache_finding` hears each level's finding
// (a size not believed) when the sizes are the default ones drawn from them. RequestError for
// a request that makes no sense.
KernelSweepPlan plan_kernel_sweep(const KernelSweepRequest& request, int cores,
                                  const std::function<std::vector<CacheLevel>()>& caches,
                                  const std::function<void(const std::string&)>& cache_finding = {});

// One size per level: half of each cache (it fits), and 8x the last level (at least 64 MiB)
// for DRAM.
std::vector<std::uint64_t> default_sweep_sizes(const std::vector<CacheLevel>& caches);

// The point of a run on T threads: T times one thread's counts, over the slowest thread's time.
Point kernel_point(const ReferenceKernel& kernel, const KernelParams& params, const ReferenceRun& run,
                   const std::vector<CacheLevel>& caches);

// How the sweep measured, into a run's provenance (engine, statistic, threads, caches, bytes).
void describe_kernel_sweep(const KernelSweepRequest& request, Provenance& provenance);

// What became of one planned point, as it happens.
struct KernelSweepStep {
    enum class Kind {
        measured,          // `point`, its result checked
        wrong_result,      // `point` measured, its result wrong (`check_error`): not kept
        cached,            // `point` taken from the store: measured before with the same setup
        left_out,          // default sizes: one call at `bytes` would take too long (`max_bytes`)
        long_calls_ahead,  // sizes given: one call at `bytes` may take minutes; it runs
        no_memory,         // skipped: its arrays need `needs_bytes`, `available_bytes` are there
        allocation_failed, // skipped: its arrays could not be allocated
        cache_unreadable,  // before its point: the store holds one from the same setup, but it
                           // cannot be read (`check_error` says why): it is measured again
        size_changed,      // before its point, once a kernel: it runs at `used_bytes`, not the
                           // `bytes` asked (`smallest`: that is its smallest size; else its size
                           // comes in whole steps, a grid's side or a matrix's order)
    };
    Kind kind = Kind::measured;
    std::string kernel;           // the planned kernel's label
    std::uint64_t bytes = 0;      // the working set asked for
    std::int64_t n = 0;           // the kernel's size per thread
    const Point* point = nullptr;
    double needs_bytes = 0, available_bytes = 0, max_bytes = 0;
    double used_bytes = 0;        // size_changed: the whole team's working set at n
    bool smallest = false;        // size_changed: n is the smallest the kernel runs at
    std::string check_error;      // wrong_result: what the check found; cache_unreadable: the store's error
};
using KernelSweepProgress = std::function<void(const KernelSweepStep&)>;

struct KernelSweepResult {
    std::vector<Point> points;       // measured (checked) and taken from the store, in sweep order
    std::vector<std::string> keys;   // per point: the store's cache key ("" for a point taken from it)
    int from_cache = 0;              // points taken from the store
    int failed_checks = 0;           // points whose result was wrong (left out)
    int skipped = 0;                 // points that did not fit in memory (left out)
    bool interrupted = false;        // stopped before the plan's end: the points before the stop
    // What else ran on the sweep's CPUs over the whole sweep (hypervisor steal, other processes),
    // known once it ended; its warnings (topo/cpu_activity.hpp) belong with the points.
    std::optional<CpuActivity> activity;
};

class KernelSweep {
public:
    // `store` (may be null): points measured before with the same kernel, size, options, build
    // and machine are taken from it unless the request says rerun. More than one thread: a pinned
    // team is made here.
    KernelSweep(KernelSweepPlan plan, const Topology& topology, ResultsStore* store);
    ~KernelSweep();
    KernelSweep(const KernelSweep&) = delete;
    KernelSweep& operator=(const KernelSweep&) = delete;

    const KernelSweepPlan& plan() const { return plan_; }
    // Whether every thread of the team is bound to its core (else the OS places them).
    bool all_threads_bound() const;

    // Runs the plan; stops before the next point once `stop` is set. May throw (the store).
    void run(const std::atomic<bool>& stop, const KernelSweepProgress& progress);

    // The result so far, under the lock the sweep appends under (and uses the store under): a
    // watcher may deliver the points while a point is still being measured.
    template <typename Use>
    decltype(auto) with_result(Use&& use) {
        std::lock_guard<std::mutex> lock(mutex_);
        return use(result_);
    }

private:
    KernelSweepPlan plan_;
    ResultsStore* store_;
    std::unique_ptr<ThreadTeam> team_;
    std::string setup_;        // this build and machine, in every cache key
    double available_bytes_;   // memory the arrays may take
    std::mutex mutex_;
    KernelSweepResult result_;
};

} // namespace roofline::app
