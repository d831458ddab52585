#include "core/gpu_kernel_points.hpp"

#include <fmt/core.h>

#include <map>
#include <stdexcept>
#include <utility>

namespace roofline {
namespace {

constexpr const char* kDuration = "gpu__time_duration.sum";  // nanoseconds
constexpr const char* kTensorPrefix = "sm__ops_path_tensor_";

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
    bool tensor_counters = false;  // any sm__ops_path_tensor_* metric present (available)
};

} // namespace

const std::vector<std::string>& ncu_roofline_metrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m{kDuration};
        for (const auto& c : kFlopCounters) m.push_back(sass(c.op));
        for (const auto& [level, metric] : kLevelBytes) m.push_back(metric);
        m.push_back("dram__bytes_read.sum");
        m.push_back("dram__bytes_write.sum");
        // Not the tensor paths: ncu stops at a metric name the device lacks, and their names
        // (per source and destination format) have not been checked on a device here. A CSV
        // that has them (ncu run by hand) gets them counted.
        return m;
    }();
    return metrics;
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
        if (!m.available) continue;
        it->second.values[m.metric] += m.value;
        if (m.metric.rfind(kTensorPrefix, 0) == 0) it->second.tensor_counters = true;
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
            p.source = "ncu";
            p.details["device"] = 0;
            points.push_back(std::move(p));
        }
        Point& p = points[at->second];
        p.seconds += value(kDuration) * 1e-9;
        double flops = 0;
        for (const auto& c : kFlopCounters) {
            const double f = c.flops * value(sass(c.op));
            p.details[fmt::format("flops_{}", c.precision)] += f;
            flops += f;
        }
        double tensor = 0;
        for (const auto& [metric, v] : l.values)
            if (metric.rfind(kTensorPrefix, 0) == 0) tensor += v;
        p.details["flops_tensor"] += tensor;
        if (!l.tensor_counters) p.details["tensor_not_counted"] = 1;
        p.work += flops + tensor;
        for (const auto& [level, metric] : kLevelBytes)
            if (l.values.count(metric)) p.bytes[level] += value(metric);
        p.details["dram_read_bytes"] += value("dram__bytes_read.sum");
        p.details["dram_written_bytes"] += value("dram__bytes_write.sum");
        p.details["launches"] += 1;
        try {
            p.details["device"] = std::stod(l.device);
        } catch (const std::exception&) {
            // a device column that is not a number: leave 0
        }
    }
    return points;
}

} // namespace roofline
