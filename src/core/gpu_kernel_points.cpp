#include "core/gpu_kernel_points.hpp"

#include "core/offload_point.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

namespace roofline {
namespace {

constexpr const char* kDuration = "gpu__time_duration.sum";  // nanoseconds
// Tensor-core work: ncu's sm__ops_path_tensor_src_<format>[_dst_fp32].sum count the math
// operations per source format, an MMA's multiply-add as 2 (cuBLAS DGEMM and HGEMM at n = 2048
// on an H200: 1.718e10 = 2n^3 each, ../shared/gpu). The same operations appear again split by
// instruction (sm__ops_path_tensor_op_*) and by sparsity (*_sparsity_on/off): only these names
// count, each once. int8 and int1 are integer operations, not FLOPs: kept apart.
struct TensorCounter {
    const char* precision;
    const char* metric;
    bool flops;
};
constexpr TensorCounter kTensorCounters[] = {
    {"fp64", "sm__ops_path_tensor_src_fp64.sum", true},
    {"fp16", "sm__ops_path_tensor_src_fp16.sum", true},
    {"bf16", "sm__ops_path_tensor_src_bf16_dst_fp32.sum", true},
    {"tf32", "sm__ops_path_tensor_src_tf32_dst_fp32.sum", true},
    {"fp8", "sm__ops_path_tensor_src_fp8.sum", true},
    {"int8", "sm__ops_path_tensor_src_int8.sum", false},
    {"int1", "sm__ops_path_tensor_src_int1.sum", false},
};
// Warp instructions the tensor pipe executed: a kernel with some uses the tensor cores,
// whether or not its operations could be counted.
constexpr const char* kTensorInstructions = "sm__inst_executed_pipe_tensor.sum";
// The same instructions split by kind (hmma_type_hfma2 is a part of hmma): their sum stands in
// for the total when a CSV has only the split.
constexpr const char* kTensorInstructionSplit[] = {
    "sm__inst_executed_pipe_tensor_op_dmma.sum", "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "sm__inst_executed_pipe_tensor_op_hmma.sum", "sm__inst_executed_pipe_tensor_op_imma.sum"};

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool known_tensor_counter(const std::string& metric) {
    return std::any_of(std::begin(kTensorCounters), std::end(kTensorCounters),
                       [&](const TensorCounter& c) { return metric == c.metric; });
}

// A tensor-operation metric the points deliberately leave out: the per-instruction split
// (sm__ops_path_tensor_op_*) and the per-sparsity split repeat the counted operations.
bool repeated_tensor_split(const std::string& metric) {
    const std::string base = metric.substr(0, metric.find('.'));
    return base.rfind("sm__ops_path_tensor_op_", 0) == 0 || ends_with(base, "_sparsity_on") ||
           ends_with(base, "_sparsity_off");
}

std::string sass(const char* op) { return fmt::format("sm__sass_thread_inst_executed_op_{}_pred_on.sum", op); }

// FLOPs per counted instruction, per precision.
struct FlopCounter {
    const char* precision;
    const char* op;
    double flops;
};
constexpr FlopCounter kFlopCounters[] = {
    {"fp64", "dadd", 1}, {"fp64", "dmul", 1}, {"fp64", "dfma", 2},
    {"fp32", "fadd", 1}, {"fp32", "fmul", 1}, {"fp32", "ffma", 2},
    {"fp16", "hadd", 2}, {"fp16", "hmul", 2}, {"fp16", "hfma", 4},
};

// Bytes crossing each level's boundary: L1 is what the SMs' loads and stores move through
// L1/TEX (shared memory excluded), L2 what reaches the L2 slices, DRAM the device memory.
constexpr std::pair<const char*, const char*> kLevelBytes[] = {
    {"L1", "l1tex__t_bytes.sum"}, {"L2", "lts__t_bytes.sum"}, {"DRAM", "dram__bytes.sum"}};

struct Launch {
    std::string kernel, device;
    std::map<std::string, double> values;
    std::set<std::string> unavailable;  // metrics ncu printed as n/a for this launch
    bool tensor_counters = false;  // the tensor operation counters were measured (available)
};

// The tensor pipe's warp instructions of a launch: the total, else the sum of its split; none
// when neither was recorded (or ncu printed n/a).
std::optional<double> tensor_pipe_instructions(const Launch& l) {
    if (const auto it = l.values.find(kTensorInstructions); it != l.values.end()) return it->second;
    std::optional<double> sum;
    for (const char* m : kTensorInstructionSplit)
        if (const auto it = l.values.find(m); it != l.values.end()) sum = sum.value_or(0) + it->second;
    return sum;
}

} // namespace

std::vector<std::string> ncu_all_roofline_metrics() {
    std::vector<std::string> every;
    for (const auto& c : kTensorCounters) every.push_back(std::string(c.metric).substr(0, std::string(c.metric).rfind(".sum")));
    every.push_back("sm__inst_executed_pipe_tensor");
    return ncu_roofline_metrics(every);
}

std::vector<std::string> unknown_tensor_metrics(const std::vector<GpuKernelMetric>& metrics) {
    std::vector<std::string> unknown;
    for (const auto& m : metrics)
        if (m.metric.rfind("sm__ops_path_tensor", 0) == 0 && !known_tensor_counter(m.metric) &&
            !repeated_tensor_split(m.metric) && std::find(unknown.begin(), unknown.end(), m.metric) == unknown.end())
            unknown.push_back(m.metric);
    return unknown;
}

std::vector<std::string> ncu_roofline_metrics(const std::vector<std::string>& device_metrics) {
    std::vector<std::string> m{kDuration};
    for (const auto& c : kFlopCounters) m.push_back(sass(c.op));
    for (const auto& [level, metric] : kLevelBytes) m.push_back(metric);
    m.push_back("dram__bytes_read.sum");
    m.push_back("dram__bytes_write.sum");
    // ncu stops at a metric name the device lacks: the tensor counters only where it has them.
    const auto has = [&](const std::string& metric) {
        const std::string base = metric.substr(0, metric.rfind(".sum"));
        return std::find(device_metrics.begin(), device_metrics.end(), base) != device_metrics.end();
    };
    for (const auto& c : kTensorCounters)
        if (has(c.metric)) m.push_back(c.metric);
    if (has(kTensorInstructions)) m.push_back(kTensorInstructions);
    return m;
}

std::vector<Point> gpu_kernel_points(const std::vector<GpuKernelMetric>& metrics) {
    std::map<std::string, Launch> launches;
    std::vector<std::string> launch_order;
    for (const auto& m : metrics) {
        auto [it, added] = launches.try_emplace(m.launch);
        if (added) {
            launch_order.push_back(m.launch);
            it->second.kernel = m.kernel;
            it->second.device = m.device;
        }
        // One value per launch and metric: a second one is another run's (two CSVs joined), and
        // adding them would double the kernel's time and work.
        if (it->second.values.count(m.metric) || it->second.unavailable.count(m.metric))
            throw std::runtime_error(fmt::format("launch {} ({}) has {} twice: two ncu runs in one file? Profile "
                                                 "once, or give each run's CSV on its own",
                                                 m.launch, m.kernel, m.metric));
        if (!m.available) {
            it->second.unavailable.insert(m.metric);
            continue;
        }
        it->second.values[m.metric] = m.value;
        for (const auto& c : kTensorCounters)
            if (m.metric == c.metric) it->second.tensor_counters = true;
    }
    std::vector<Point> points;
    std::map<std::string, std::size_t> index;  // kernel name -> its point
    for (const auto& id : launch_order) {
        const Launch& l = launches.at(id);
        const auto value = [&](const std::string& metric) {
            const auto it = l.values.find(metric);
            return it == l.values.end() ? 0.0 : it->second;
        };
        if (!l.values.count(kDuration))
            throw std::runtime_error(fmt::format("kernel launch {} ({}) has no {}: not the metrics of a roofline run "
                                                 "(ncu --metrics {},...)",
                                                 id, l.kernel, kDuration, kDuration));
        auto [at, added] = index.try_emplace(l.kernel, points.size());
        if (added) {
            Point p;
            p.name = l.kernel;
            p.source = PointOrigin::ncu;
            p.details["device"] = 0;
            points.push_back(std::move(p));
        }
        Point& p = points[at->second];
        p.seconds += value(kDuration) * 1e-9;
        // A figure ncu did not record is left out of the details (absent, not 0): a precision whose
        // counters were not asked for says nothing of the kernel's work in it.
        const auto recorded = [&](const std::string& metric) { return l.values.count(metric) > 0; };
        double flops = 0;
        for (const auto& c : kFlopCounters) {
            if (!recorded(sass(c.op))) continue;
            const double f = c.flops * value(sass(c.op));
            p.details[fmt::format("flops_{}", c.precision)] += f;
            flops += f;
        }
        double tensor = 0;
        for (const auto& c : kTensorCounters) {
            if (!recorded(c.metric)) continue;
            const double ops = value(c.metric);
            p.details[fmt::format("{}_tensor_{}", c.flops ? "flops" : "ops", c.precision)] += ops;
            if (c.flops) tensor += ops;
        }
        if (l.tensor_counters) p.details["flops_tensor"] += tensor;
        const auto pipe = tensor_pipe_instructions(l);
        if (pipe) p.details["tensor_instructions"] += *pipe;
        // FLOP counters ncu could not collect (n/a, e.g. HFMA on a part without it) leave that
        // work unknown: with nothing else counted, the kernel's FLOPs are unknown, not 0.
        int unavailable = 0;
        for (const auto& c : kFlopCounters) unavailable += static_cast<int>(l.unavailable.count(sass(c.op)));
        if (unavailable > 0) p.details["flop_counters_unavailable"] += unavailable;
        // Tensor counters ncu asked for but could not collect (n/a).
        int tensor_unavailable = 0;
        double tensor_ops = 0;  // every counted tensor operation, FLOPs and integer ones
        for (const auto& c : kTensorCounters) {
            tensor_unavailable += static_cast<int>(l.unavailable.count(c.metric));
            tensor_ops += value(c.metric);
        }
        if (tensor_unavailable > 0) p.details["tensor_counters_unavailable"] += tensor_unavailable;
        // The tensor pipe ran but none of its operations were counted (no counters, counters n/a,
        // or a format under a name not known here): the FLOPs are unknown, and a point at the
        // vector units' count alone would sit far below the truth.
        if (pipe && *pipe > 0 && !(tensor_ops > 0)) p.work_counted = false;
        // Neither the operations nor the pipe's instructions were recorded: whether the kernel
        // used the tensor cores is unknown, and each point must say so.
        if (!l.tensor_counters && !pipe) p.details["tensor_not_recorded"] = 1;
        if (!l.tensor_counters && !(pipe && *pipe == 0)) p.details["tensor_not_counted"] = 1;
        p.work += flops + tensor;
        if (unavailable > 0 && !(p.work > 0)) p.work_counted = false;
        for (const auto& [level, metric] : kLevelBytes)
            if (l.values.count(metric)) p.bytes[level] += value(metric);
        if (recorded("dram__bytes_read.sum")) p.details["dram_read_bytes"] += value("dram__bytes_read.sum");
        if (recorded("dram__bytes_write.sum")) p.details["dram_written_bytes"] += value("dram__bytes_write.sum");
        p.details["launches"] += 1;
        try {
            p.details["device"] = std::stod(l.device);
        } catch (const std::exception&) {
            // a device column that is not a number: leave 0
        }
    }
    // No FLOPs counted and the tensor cores not recorded: a GEMM that ran on them would show 0.
    for (auto& p : points)
        if (p.details.count("tensor_not_recorded") && !(p.work > 0)) p.work_counted = false;
    return points;
}

std::vector<GpuPrecisionFlops> gpu_flops_by_precision(const Point& p) {
    std::vector<GpuPrecisionFlops> out;
    if (p.source != PointOrigin::ncu) return out;
    const auto entry = [&](const std::string& precision) -> GpuPrecisionFlops& {
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& f) { return f.precision == precision; });
        if (it == out.end()) it = out.insert(out.end(), GpuPrecisionFlops{precision, 0, 0});
        return *it;
    };
    for (const auto& [key, value] : p.details) {
        if (key.rfind("flops_tensor_", 0) == 0)
            entry(key.substr(13)).tensor += value;
        else if (key == "flops_fp64" || key == "flops_fp32" || key == "flops_fp16")
            entry(key.substr(6)).fma += value;
    }
    out.erase(std::remove_if(out.begin(), out.end(), [](const auto& f) { return !(f.fma + f.tensor > 0); }), out.end());
    // Most FLOPs first; a tie keeps the names' order (details are sorted by key).
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.fma + a.tensor > b.fma + b.tensor; });
    return out;
}

GpuWork dominant_gpu_work(const std::vector<Point>& points) {
    // A whole offload adds its kernels' FLOPs up: beside them it would count each FLOP twice
    // (and only alone says anything of its own).
    const bool kernels = std::any_of(points.begin(), points.end(), [](const Point& p) {
        return p.source == PointOrigin::ncu && !p.details.count("whole_offload");
    });
    std::map<std::string, double> work, on_tensor;  // FLOPs per precision; of them, on the tensor cores
    for (const auto& p : points) {
        if (kernels && p.details.count("whole_offload")) continue;
        for (const auto& f : gpu_flops_by_precision(p)) {
            work[f.precision] += f.fma + f.tensor;
            on_tensor[f.precision] += f.tensor;
        }
    }
    GpuWork best;
    double most = 0;
    for (const auto& [precision, flops] : work)
        if (flops > most) most = flops, best.precision = precision;
    // Any of it on the tensor cores: only the tensor roof bounds it (an FMA roof would not).
    best.tensor = !best.precision.empty() && on_tensor[best.precision] > 0;
    return best;
}

std::string dominant_gpu_precision(const std::vector<Point>& points) { return dominant_gpu_work(points).precision; }

namespace {

// A whole offload written before it carried its kernels' tensor FLOPs per format (flops_tensor
// alone): its mix from the set's kernels instead, each FLOP once.
Point with_its_kernels_mix(const Point& offload, const std::vector<Point>& points) {
    const bool per_format = std::any_of(offload.details.begin(), offload.details.end(),
                                        [](const auto& d) { return d.first.rfind("flops_tensor_", 0) == 0; });
    const auto tensor = offload.details.find("flops_tensor");
    if (per_format || tensor == offload.details.end() || !(tensor->second > 0)) return offload;
    Point mixed = offload;
    std::erase_if(mixed.details, [](const auto& d) { return d.first.rfind("flops_", 0) == 0; });
    for (const auto& k : points)
        if (k.source == PointOrigin::ncu && !k.details.count("whole_offload"))
            for (const auto& [key, value] : k.details)
                if (key.rfind("flops_", 0) == 0) mixed.details[key] += value;
    return mixed;
}

std::vector<PrecisionGroup> group_points(const std::vector<Point>& points,
                                         const std::function<GpuWork(const Point&)>& whole_offload_work) {
    const GpuWork overall = dominant_gpu_work(points);
    std::vector<PrecisionGroup> groups;
    for (const auto& p : points) {
        GpuWork own = p.details.count("whole_offload") ? whole_offload_work(with_its_kernels_mix(p, points))
                                                       : dominant_gpu_work({p});
        if (own.precision.empty()) own = overall;
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
            return g.precision == own.precision && g.tensor == own.tensor;
        });
        if (group == groups.end()) group = groups.insert(groups.end(), PrecisionGroup{own.precision, own.tensor, {}});
        group->points.push_back(p);
    }
    return groups;
}

} // namespace

std::vector<PrecisionGroup> group_by_gpu_precision(const std::vector<Point>& points) {
    // A whole offload: the dominant precision of its own FLOPs (its kernels', each FLOP once).
    return group_points(points, [](const Point& p) { return dominant_gpu_work({p}); });
}

std::vector<PrecisionGroup> group_by_gpu_precision(const std::vector<Point>& points, const GpuModel& gpu) {
    // A whole offload: the highest roof of the GPU that its work could use.
    return group_points(points, [&](const Point& p) {
        if (const auto roof = offload_compute_roof(p, gpu)) return GpuWork{roof->precision, roof->tensor};
        return dominant_gpu_work({p});
    });
}

} // namespace roofline
