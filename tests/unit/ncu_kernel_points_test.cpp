// Nsight Compute's CSV (details and raw pages) and the kernel points made from it.
#include "core/gpu_kernel_points.hpp"
#include "core/offload_point.hpp"
#include "io/machine_json.hpp"
#include "io/ncu_csv.hpp"
#include "io/points_json.hpp"
#include "render/gpu_kernel_text.hpp"
#include "render/number_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace roofline;

namespace {

const char* const kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(const std::string& id, const std::string& kernel, const std::string& metric, const std::string& unit,
                const std::string& value, const std::string& device = "0") {
    return "\"" + id + "\",\"7\",\"app\",\"host\",\"" + kernel + "\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"" +
           device + "\",\"9.0\",\"Command line profiler metrics\",\"" + metric + "\",\"" + unit + "\",\"" + value +
           "\"\n";
}

std::string sass(const std::string& op) { return "sm__sass_thread_inst_executed_op_" + op + "_pred_on.sum"; }

} // namespace

TEST(NcuCsv, DetailsPageInBaseUnitsWithSeparatorsAndPreamble) {
    const std::string text = "==PROF== Connected to process 7 (app)\nprogram output, with a \"quote\"\n" +
                             std::string(kHeader) + row("0", "k(int, double *)", "dram__bytes.sum", "byte", "1,048,576") +
                             "==WARNING== something ncu says\n" +
                             row("0", "k(int, double *)", "gpu__time_duration.sum", "usecond", "12.5") +
                             row("0", "k(int, double *)", sass("hfma"), "inst", "n/a");
    const auto m = parse_ncu_csv(text);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].launch, "0");
    EXPECT_EQ(m[0].kernel, "k(int, double *)") << "commas inside a quoted field stay in it";
    EXPECT_EQ(m[0].metric, "dram__bytes.sum");
    EXPECT_DOUBLE_EQ(m[0].value, 1048576);
    EXPECT_DOUBLE_EQ(m[1].value, 12500) << "microseconds become nanoseconds";
    EXPECT_FALSE(m[2].available) << "n/a: a counter this device lacks";
}

TEST(NcuCsv, RawPageHasAColumnPerMetricAndAUnitsRow) {
    const std::string text =
        "\"ID\",\"Kernel Name\",\"Device\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
        "\"\",\"\",\"\",\"msecond\",\"byte\"\n"
        "\"3\",\"copy\",\"1\",\"0.002\",\"4,096\"\n";
    const auto m = parse_ncu_csv(text);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].metric, "gpu__time_duration.sum");
    EXPECT_DOUBLE_EQ(m[0].value, 2000);
    EXPECT_EQ(m[0].device, "1");
    EXPECT_EQ(m[1].metric, "dram__bytes.sum");
    EXPECT_DOUBLE_EQ(m[1].value, 4096);
}

TEST(NcuCsv, WhatIsNotNcuCsvIsRefusedWithTheLine) {
    auto error = [](const std::string& text) {
        try {
            parse_ncu_csv(text);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(error("a,b,c\n1,2,3\n").find("no Nsight Compute CSV header"), std::string::npos);
    EXPECT_NE(error("").find("no Nsight Compute CSV header"), std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + "\"0\",\"k\"\n").find("line 2: 2 fields where the header has 15"),
              std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + row("0", "k", "dram__bytes.sum", "byte", "lots")).find("'lots' is not a number"),
              std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + row("0", "k", "dram__bytes.sum", "byte", "1e999")).find("not a number"),
              std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + row("0", "k", "gpu__time_duration.sum", "nsecond", "-3")).find("negative"),
              std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + row("0", "k", "dram__bytes.sum", "Mbyte", "1.5")).find("--print-units base"),
              std::string::npos);
    EXPECT_NE(error(std::string(kHeader) + "\"0\",\"unclosed\n").find("not closed"), std::string::npos);
}

TEST(GpuKernelPoints, FlopsPerPrecisionBytesPerLevelAndLaunchesSummed) {
    std::string text = kHeader;
    for (const char* id : {"0", "2"}) {  // two launches of daxpy
        text += row(id, "daxpy", "gpu__time_duration.sum", "nsecond", "100,000");
        text += row(id, "daxpy", sass("dfma"), "inst", "1,000,000");
        text += row(id, "daxpy", "dram__bytes.sum", "byte", "24,000,000");
        text += row(id, "daxpy", "dram__bytes_read.sum", "byte", "16,000,000");
        text += row(id, "daxpy", "lts__t_bytes.sum", "byte", "24,000,000");
        text += row(id, "daxpy", "l1tex__t_bytes.sum", "byte", "24,000,000");
    }
    text += row("1", "half", "gpu__time_duration.sum", "nsecond", "1000", "1");
    text += row("1", "half", sass("hfma"), "inst", "10");  // HFMA2: 4 FLOPs
    text += row("1", "half", sass("hadd"), "inst", "10");  // HADD2: 2
    text += row("1", "half", sass("ffma"), "inst", "10");  // FFMA: 2
    text += row("1", "half", sass("fmul"), "inst", "10");  // 1
    text += row("1", "half", "sm__ops_path_tensor_src_fp16.sum", "", "1000");
    const auto points = gpu_kernel_points(parse_ncu_csv(text));
    ASSERT_EQ(points.size(), 2u);
    const Point& d = points[0];
    EXPECT_EQ(d.name, "daxpy") << "points in the order the kernels first ran";
    EXPECT_EQ(d.source, PointOrigin::ncu);
    EXPECT_DOUBLE_EQ(d.details.at("launches"), 2);
    EXPECT_DOUBLE_EQ(d.seconds, 200e-6);
    EXPECT_DOUBLE_EQ(d.work, 4e6) << "an FMA is 2 FLOPs, the launches summed";
    EXPECT_DOUBLE_EQ(d.details.at("flops_fp64"), 4e6);
    EXPECT_FALSE(d.details.count("flops_fp32")) << "no fp32 counter recorded: its fp32 FLOPs unknown, not 0";
    EXPECT_DOUBLE_EQ(d.bytes.at("DRAM"), 48e6);
    EXPECT_DOUBLE_EQ(d.bytes.at("L2"), 48e6);
    EXPECT_DOUBLE_EQ(d.bytes.at("L1"), 48e6);
    EXPECT_DOUBLE_EQ(d.details.at("dram_read_bytes"), 32e6);
    EXPECT_DOUBLE_EQ(d.details.at("tensor_not_counted"), 1);
    const Point& h = points[1];
    EXPECT_DOUBLE_EQ(h.details.at("flops_fp16"), 60);
    EXPECT_DOUBLE_EQ(h.details.at("flops_fp32"), 30);
    EXPECT_DOUBLE_EQ(h.details.at("flops_tensor"), 1000);
    EXPECT_DOUBLE_EQ(h.work, 1090);
    EXPECT_DOUBLE_EQ(h.details.at("device"), 1);
    EXPECT_FALSE(h.details.count("tensor_not_counted"));
    EXPECT_FALSE(h.bytes.count("DRAM")) << "a level ncu did not report is not a level with 0 bytes";
}

TEST(GpuKernelPoints, ALaunchWithoutItsDurationIsNotARooflineRun) {
    const std::string text = std::string(kHeader) + row("0", "k", "dram__bytes.sum", "byte", "64");
    EXPECT_THROW(gpu_kernel_points(parse_ncu_csv(text)), std::runtime_error);
}

TEST(GpuKernelPoints, TheMetricsAskedForAreTheOnesCounted) {
    const auto& metrics = ncu_roofline_metrics();
    for (const char* needed : {"gpu__time_duration.sum", "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum"})
        EXPECT_NE(std::find(metrics.begin(), metrics.end(), needed), metrics.end()) << needed;
    for (const char* op : {"dadd", "dmul", "dfma", "fadd", "fmul", "ffma", "hadd", "hmul", "hfma"})
        EXPECT_NE(std::find(metrics.begin(), metrics.end(), sass(op)), metrics.end()) << op;
}

// Recorded on an H200 (tests/data/gpu/README.md).
std::string gpu_fixture(const char* name) {
    std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(GpuKernelPoints, CublasGemmsOnAnH200CountEachTensorOperationOnce) {
    const auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);
    const double two_n_cubed = 2.0 * 2048 * 2048 * 2048;
    for (const auto& p : points) {
        EXPECT_TRUE(p.work_counted) << p.name;
        EXPECT_NEAR(p.work / two_n_cubed, 1.0, 0.001) << p.name << ": " << p.work;
    }
    EXPECT_NEAR(points[0].details.at("flops_tensor_fp64") / two_n_cubed, 1.0, 0.001) << points[0].name;
    EXPECT_NEAR(points[1].details.at("flops_fp32") / two_n_cubed, 1.0, 0.001) << points[1].name;
    EXPECT_DOUBLE_EQ(points[1].details.at("flops_tensor"), 0) << points[1].name;
    EXPECT_NEAR(points[2].details.at("flops_tensor_fp16") / two_n_cubed, 1.0, 0.001) << points[2].name;
}

TEST(GpuKernelPoints, TensorWorkThatWasNotCountedGivesNoPoint) {
    std::string text = kHeader;
    text += row("0", "mma", "gpu__time_duration.sum", "nsecond", "1000");
    text += row("0", "mma", sass("ffma"), "inst", "10");
    text += row("0", "mma", "sm__inst_executed_pipe_tensor.sum", "inst", "4096");
    const auto points = gpu_kernel_points(parse_ncu_csv(text));
    ASSERT_EQ(points.size(), 1u);
    EXPECT_FALSE(points[0].work_counted);
    EXPECT_DOUBLE_EQ(points[0].details.at("tensor_instructions"), 4096);
}

TEST(GpuKernelPoints, TensorMetricsAreAskedForOnlyWhereTheDeviceHasThem) {
    const auto none = ncu_roofline_metrics();
    EXPECT_EQ(std::count_if(none.begin(), none.end(), [](const std::string& m) { return m.find("tensor") != std::string::npos; }), 0);
    const auto names = parse_ncu_metric_names(gpu_fixture("h200-ncu-tensor-metric-names.txt"));
    EXPECT_NE(std::find(names.begin(), names.end(), "sm__ops_path_tensor_src_fp64"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "sm__inst_executed_pipe_tensor"), names.end());
    const auto h200 = ncu_roofline_metrics(names);
    for (const char* m : {"sm__ops_path_tensor_src_fp64.sum", "sm__ops_path_tensor_src_fp16.sum",
                          "sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
                          "sm__inst_executed_pipe_tensor.sum"})
        EXPECT_NE(std::find(h200.begin(), h200.end(), m), h200.end()) << m;
    // Never the per-instruction or per-sparsity splits: they count the same operations again.
    for (const auto& m : h200) {
        if (m.find("tensor") == std::string::npos) continue;
        EXPECT_EQ(m.find("_op_"), std::string::npos) << m;
        EXPECT_EQ(m.find("sparsity"), std::string::npos) << m;
    }
}

TEST(GpuKernelPoints, KernelsAreJudgedInThePrecisionMostOfTheirFlopsRanIn) {
    auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(dominant_gpu_precision({points[2]}), "fp16") << points[2].name;  // HGEMM: the fp16 tensor roof
    EXPECT_EQ(dominant_gpu_precision({points[0]}), "fp64") << points[0].name;
    EXPECT_EQ(dominant_gpu_precision({points[1]}), "fp32") << points[1].name;
    points[1].source = PointOrigin::instrument;  // a CPU point says nothing of a GPU precision
    EXPECT_EQ(dominant_gpu_precision({points[1]}), "");
}

TEST(GpuKernelPoints, EachKernelIsGroupedWithTheRooflineOfItsOwnPrecision) {
    auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);  // DGEMM, SGEMM, HGEMM
    Point cpu = points[0];
    cpu.source = PointOrigin::instrument;
    points.push_back(cpu);
    const auto groups = group_by_gpu_precision(points);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0].precision, "fp64");
    EXPECT_EQ(groups[1].precision, "fp32");
    EXPECT_EQ(groups[2].precision, "fp16");
    const std::string overall = dominant_gpu_precision(points);
    for (const auto& g : groups) {  // the CPU's point, without FLOPs by GPU precision: with the set's
        const bool holds_cpu = std::any_of(g.points.begin(), g.points.end(), [](const Point& p) { return p.source != PointOrigin::ncu; });
        EXPECT_EQ(holds_cpu, g.precision == overall) << g.precision;
    }
    EXPECT_EQ(groups[0].points.size() + groups[1].points.size() + groups[2].points.size(), points.size());
    EXPECT_TRUE(group_by_gpu_precision({}).empty());
}

namespace {

// The whole offload of `kernels`: 100 MB up, 3 kernels, a span of 10 ms.
Point whole_offload_of(const std::vector<Point>& kernels) {
    OffloadSummary s;
    s.host_to_device = {100e6, 1, 2e-3};
    s.kernels = {0, static_cast<double>(kernels.size()), 1e-3};
    s.span_seconds = 10e-3;
    return offload_point(kernels, s, 0).point;
}

} // namespace

// Before: the whole offload repeated its kernels' FMA FLOPs but not their tensor ones per format,
// so beside them it counted the FMA precisions twice: a program of a DGEMM on DMMA and a smaller
// SGEMM was judged on the fp32 FMA roof, and the offload alone said nothing of its tensor work.
TEST(GpuKernelPoints, TheWholeOffloadIsJudgedByItsKernelsFlopsEachCountedOnce) {
    auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);  // DGEMM (DMMA), SGEMM (FFMA), HGEMM (HGMMA), 2n^3 each
    Point& sgemm = points[1];      // three quarters of the DGEMM's FLOPs
    sgemm.details["flops_fp32"] *= 0.75;
    sgemm.work *= 0.75;
    const std::vector<Point> kernels{points[0], points[1]};
    const Point offload = whole_offload_of(kernels);
    EXPECT_DOUBLE_EQ(offload.details.at("flops_tensor_fp64"), points[0].details.at("flops_tensor_fp64"));
    EXPECT_EQ(dominant_gpu_work({offload}).precision, "fp64") << "alone, its own FLOPs say fp64";
    EXPECT_TRUE(dominant_gpu_work({offload}).tensor);
    std::vector<Point> set = kernels;
    set.push_back(offload);
    EXPECT_EQ(dominant_gpu_work(set).precision, "fp64") << "beside its kernels, each FLOP once";
    const auto groups = group_by_gpu_precision(set);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].precision, "fp64");
    EXPECT_TRUE(groups[0].tensor);
    ASSERT_EQ(groups[0].points.size(), 2u);
    EXPECT_EQ(groups[0].points[1].name, "whole offload");
}

// With the GPU at hand, the whole offload goes with the highest roof its work could use there:
// a DGEMM (DMMA) beside an HGEMM of half its FLOPs is bounded by the fp16 tensor roof, which
// the fp64 one (its dominant precision) would not be: the HGEMM's part runs 15x faster.
TEST(GpuKernelPoints, WithTheGpuTheWholeOffloadGoesWithTheHighestRoofItsWorkCouldUse) {
    auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);
    Point& hgemm = points[2];
    hgemm.details["flops_tensor_fp16"] *= 0.5;
    hgemm.details["flops_tensor"] *= 0.5;
    hgemm.work *= 0.5;
    const std::vector<Point> kernels{points[0], points[2]};
    std::vector<Point> set = kernels;
    set.push_back(whole_offload_of(kernels));
    const GpuModel gpu = read_machine_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-machine.json").gpus.at(0);
    const auto by_flops = group_by_gpu_precision(set);
    ASSERT_EQ(by_flops.size(), 2u);
    EXPECT_EQ(by_flops[0].precision, "fp64");
    EXPECT_EQ(by_flops[0].points.back().name, "whole offload") << "without the GPU: its dominant precision";
    const auto on_gpu = group_by_gpu_precision(set, gpu);
    ASSERT_EQ(on_gpu.size(), 2u);
    EXPECT_EQ(on_gpu[1].precision, "fp16");
    EXPECT_TRUE(on_gpu[1].tensor);
    ASSERT_EQ(on_gpu[1].points.size(), 2u);
    EXPECT_EQ(on_gpu[1].points.back().name, "whole offload");
    EXPECT_EQ(on_gpu[0].points.size(), 1u) << "the DGEMM alone on the fp64 tensor roof";
}

// A whole offload written before it carried its kernels' tensor FLOPs per format (the H200's
// measure --offload of five cuBLAS GEMMs, tests/data/gpu): its mix is its kernels', so on that
// H200 it goes with the highest roof its work could use, the bf16 tensor one (967 TFLOP/s; it
// sat on the fp32 FMA roof, 59 TFLOP/s, while 80% of its FLOPs ran on the tensor cores).
TEST(GpuKernelPoints, AnOffloadOfAnOlderFileTakesItsMixFromItsKernels) {
    const auto points = read_points_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-points-cublas-gemm-n4096.json");
    ASSERT_EQ(points.size(), 6u);
    ASSERT_EQ(points.back().name, "whole offload");
    ASSERT_FALSE(points.back().details.count("flops_tensor_bf16")) << "the older layout";
    const GpuModel gpu = read_machine_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-machine.json").gpus.at(0);
    const auto groups = group_by_gpu_precision(points, gpu);
    const auto with_offload = std::find_if(groups.begin(), groups.end(), [](const PrecisionGroup& g) {
        return std::any_of(g.points.begin(), g.points.end(), [](const Point& p) { return p.name == "whole offload"; });
    });
    ASSERT_NE(with_offload, groups.end());
    EXPECT_EQ(with_offload->precision, "bf16");
    EXPECT_TRUE(with_offload->tensor);
    EXPECT_EQ(groups.size(), 5u) << "a group per GEMM, the offload in one of them";
}

// Figures ncu did not record are absent, not 0: the H200 CSV has no DRAM metric and no fp16
// FMA counter, so the DGEMM has no DRAM bytes, no DRAM read or written details, no fp16 FLOPs;
// what it recorded (its DFMA count, 0) stays.
TEST(GpuKernelPoints, FiguresNcuDidNotRecordAreAbsentNotZero) {
    const auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);
    for (const auto& p : points) {
        EXPECT_FALSE(p.bytes.count("DRAM")) << p.name;
        EXPECT_FALSE(p.details.count("dram_read_bytes")) << p.name;
        EXPECT_FALSE(p.details.count("dram_written_bytes")) << p.name;
        EXPECT_FALSE(p.details.count("flops_fp16")) << p.name;
        EXPECT_TRUE(p.details.count("flops_fp64")) << p.name;
        EXPECT_TRUE(p.details.count("flops_tensor")) << p.name;
    }
    EXPECT_DOUBLE_EQ(points[0].details.at("flops_fp64"), 0);
}

// The kernels' table: a DGEMM on DMMA is judged on the fp64 tensor roof with all its FLOPs in
// it (the FP64 column read 0.0: it counted DFMA alone), and a DRAM figure ncu did not record
// reads "-", not "DRAM GB/s 0".
TEST(GpuKernelTable, EachKernelShowsTheRoofItIsJudgedOnAndADashForWhatWasNotMeasured) {
    const auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    const std::string text = gpu_kernel_table_text(points, "h200.csv");
    std::istringstream lines(text);
    std::string line, dgemm, sgemm, hgemm, header;
    while (std::getline(lines, line)) {
        if (line.rfind("kernel ", 0) == 0) header = line;
        if (line.rfind("sm90_xmma_gemm_f64f64", 0) == 0 && dgemm.empty()) dgemm = line;
        if (line.rfind("void cutlass::Kernel2", 0) == 0) sgemm = line;
        if (line.rfind("sm90_xmma_gemm_f16f16", 0) == 0 && hgemm.empty()) hgemm = line;
    }
    const auto cells = [](const std::string& row) {
        std::vector<std::string> out;
        std::istringstream in(row.substr(41));  // past the 40 columns of the kernel's name
        for (std::string cell; in >> cell;) out.push_back(cell);
        return out;
    };
    EXPECT_NE(header.find("judged on"), std::string::npos) << text;
    EXPECT_EQ(header.find("FP64 %"), std::string::npos) << text;
    // launches, time, GFLOP/s, judged on (two words for a tensor roof), % FLOPs, DRAM GB/s, FLOP/B DRAM
    const std::vector<std::string> d = cells(dgemm), s = cells(sgemm), h = cells(hgemm);
    ASSERT_EQ(d.size(), 8u) << dgemm;
    EXPECT_EQ(d[3] + " " + d[4], "fp64 tensor");
    EXPECT_EQ(d[5], "100.0");
    EXPECT_EQ(d[6], "-") << "no DRAM metric recorded: not 0 GB/s";
    EXPECT_EQ(d[7], "-");
    ASSERT_EQ(s.size(), 7u) << sgemm;
    EXPECT_EQ(s[3], "fp32");
    EXPECT_EQ(s[4], "100.0");
    ASSERT_EQ(h.size(), 8u) << hgemm;
    EXPECT_EQ(h[3] + " " + h[4], "fp16 tensor");
    EXPECT_EQ(h[5], "100.0");
    // A DRAM figure that was recorded is a number.
    std::string daxpy = kHeader;
    daxpy += row("0", "daxpy", "gpu__time_duration.sum", "nsecond", "1,000");
    daxpy += row("0", "daxpy", sass("dfma"), "inst", "1,000");
    daxpy += row("0", "daxpy", "dram__bytes.sum", "byte", "24,000");
    const std::string one = gpu_kernel_table_text(gpu_kernel_points(parse_ncu_csv(daxpy)), "x.csv");
    const auto row_at = one.find("\ndaxpy");
    ASSERT_NE(row_at, std::string::npos) << one;
    const auto c = cells(one.substr(row_at + 1, one.find('\n', row_at + 1) - row_at - 1));
    ASSERT_EQ(c.size(), 7u) << one;
    EXPECT_EQ(c[3], "fp64");
    EXPECT_EQ(c[5], "24") << "24 kB in 1 us";
    EXPECT_EQ(c[6], format_number(2000.0 / 24000));
}

TEST(GpuKernelPoints, AnUncollectedFlopCounterLeavesTheWorkUnknownNotZero) {
    std::string text = kHeader;
    text += row("0", "k", "gpu__time_duration.sum", "nsecond", "1000");
    text += row("0", "k", sass("dfma"), "inst", "n/a");
    const auto points = gpu_kernel_points(parse_ncu_csv(text));
    ASSERT_EQ(points.size(), 1u);
    EXPECT_FALSE(points[0].work_counted);
}

TEST(GpuKernelPoints, TwoRunsInOneFileAreRefusedNotAdded) {
    std::string one = std::string(kHeader) + row("0", "k", "gpu__time_duration.sum", "nsecond", "1000") +
                      row("0", "k", sass("dfma"), "inst", "10");
    std::string two = one + one.substr(one.find('\n') + 1);  // the same launch's rows again
    EXPECT_THROW(gpu_kernel_points(parse_ncu_csv(two)), std::runtime_error);
}

TEST(GpuKernelPoints, AnUnknownTimeUnitIsRefused) {
    const std::string text = std::string(kHeader) + row("0", "k", "gpu__time_duration.sum", "minute", "2");
    EXPECT_THROW(parse_ncu_csv(text), std::runtime_error);
}

TEST(GpuKernelPoints, TheMetricsToRecordByHandIncludeTheTensorCounters) {
    // measure --help prints this list for a CSV recorded by hand: without them a GEMM on the
    // tensor cores is a point at its few vector FLOPs.
    const auto all = ncu_all_roofline_metrics();
    for (const char* m : {"sm__ops_path_tensor_src_fp64.sum", "sm__ops_path_tensor_src_fp16.sum",
                          "sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
                          "sm__ops_path_tensor_src_fp8.sum", "sm__inst_executed_pipe_tensor.sum",
                          "gpu__time_duration.sum", "dram__bytes.sum"})
        EXPECT_NE(std::find(all.begin(), all.end(), m), all.end()) << m;
}

TEST(GpuKernelPoints, TensorWorkNotRecordedIsSaidOnEveryPointAndZeroFlopsGetNoPoint) {
    // Neither sm__ops_path_tensor_src_* nor sm__inst_executed_pipe_tensor: a DGEMM on DMMA shows
    // its few DFMAs, an HGEMM on HGMMA shows nothing.
    std::string text = kHeader;
    text += row("0", "dgemm", "gpu__time_duration.sum", "nsecond", "370688");
    text += row("0", "dgemm", sass("dfma"), "inst", "8192");
    text += row("0", "dgemm", "dram__bytes.sum", "byte", "200000000");
    text += row("1", "hgemm", "gpu__time_duration.sum", "nsecond", "35968");
    text += row("1", "hgemm", sass("hfma"), "inst", "0");
    text += row("1", "hgemm", "dram__bytes.sum", "byte", "30000000");
    const auto points = gpu_kernel_points(parse_ncu_csv(text));
    ASSERT_EQ(points.size(), 2u);
    for (const auto& p : points) EXPECT_DOUBLE_EQ(p.details.at("tensor_not_recorded"), 1) << p.name;
    EXPECT_TRUE(points[0].work_counted) << "FLOPs were counted: a point, which says its tensor work is missing";
    EXPECT_FALSE(points[1].work_counted) << "0 FLOPs and the tensor cores not recorded: unknown, not 0";
    // With the pipe recorded idle, the kernel's work is known: no such note.
    text += row("0", "dgemm", "sm__inst_executed_pipe_tensor.sum", "inst", "0");
    const auto idle = gpu_kernel_points(parse_ncu_csv(text));
    EXPECT_FALSE(idle[0].details.count("tensor_not_recorded"));
    EXPECT_FALSE(idle[0].details.count("tensor_not_counted"));
}

TEST(GpuKernelPoints, ATensorCounterNotCollectedWhileThePipeRanGivesNoPoint) {
    std::string text = kHeader;
    text += row("0", "dgemm", "gpu__time_duration.sum", "nsecond", "370688");
    text += row("0", "dgemm", sass("dfma"), "inst", "8192");
    text += row("0", "dgemm", "sm__ops_path_tensor_src_fp64.sum", "", "n/a");
    text += row("0", "dgemm", "sm__ops_path_tensor_src_fp16.sum", "", "0");
    text += row("0", "dgemm", "sm__inst_executed_pipe_tensor.sum", "", "1048576");
    const auto points = gpu_kernel_points(parse_ncu_csv(text));
    ASSERT_EQ(points.size(), 1u);
    EXPECT_FALSE(points[0].work_counted) << "the tensor pipe ran, and no operation of it was counted";
    EXPECT_DOUBLE_EQ(points[0].details.at("tensor_counters_unavailable"), 1);
    // Only the split instruction counts (another ncu's choice): the pipe still ran.
    std::string split = kHeader;
    split += row("0", "k", "gpu__time_duration.sum", "nsecond", "1000");
    split += row("0", "k", sass("ffma"), "inst", "10");
    split += row("0", "k", "sm__ops_path_tensor_src_fp16.sum", "", "0");
    split += row("0", "k", "sm__inst_executed_pipe_tensor_op_hmma.sum", "", "64");
    EXPECT_FALSE(gpu_kernel_points(parse_ncu_csv(split))[0].work_counted);
}

TEST(GpuKernelPoints, TensorWorkUnderAnUnknownMetricNameIsNamedAndGivesNoPoint) {
    std::string text = kHeader;
    text += row("0", "hgemm", "gpu__time_duration.sum", "nsecond", "35968");
    text += row("0", "hgemm", "sm__ops_path_tensor_src_fp16.sum", "", "0");
    text += row("0", "hgemm", "sm__ops_path_tensor_src_fp16_dst_fp32.sum", "", "17179869184");
    text += row("0", "hgemm", "sm__ops_path_tensor_op_hgmma_src_fp16.sum", "", "0");  // a known split: not named
    text += row("0", "hgemm", "sm__ops_path_tensor_src_fp8_sparsity_off.sum", "", "0");
    text += row("0", "hgemm", "sm__inst_executed_pipe_tensor.sum", "", "65536");
    const auto metrics = parse_ncu_csv(text);
    EXPECT_EQ(unknown_tensor_metrics(metrics), std::vector<std::string>{"sm__ops_path_tensor_src_fp16_dst_fp32.sum"});
    const auto points = gpu_kernel_points(metrics);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_FALSE(points[0].work_counted);
}

TEST(GpuKernelPoints, WorkOnTheTensorCoresIsGroupedApartFromFmaWorkOfItsPrecision) {
    auto points = gpu_kernel_points(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")));
    ASSERT_EQ(points.size(), 3u);  // DGEMM (DMMA), SGEMM (FFMA), HGEMM (HGMMA)
    EXPECT_TRUE(dominant_gpu_work({points[0]}).tensor);
    EXPECT_FALSE(dominant_gpu_work({points[1]}).tensor);
    EXPECT_TRUE(dominant_gpu_work({points[2]}).tensor);
    Point hfma = points[2];  // the same precision on the FMA units
    hfma.name = "hfma kernel";
    for (auto& [key, value] : hfma.details)
        if (key.rfind("flops_tensor", 0) == 0) value = 0;
    hfma.details["flops_fp16"] = 1e9;
    points.push_back(hfma);
    const auto groups = group_by_gpu_precision(points);
    ASSERT_EQ(groups.size(), 4u);
    EXPECT_EQ(groups[2].precision, "fp16");
    EXPECT_TRUE(groups[2].tensor);
    EXPECT_EQ(groups[3].precision, "fp16");
    EXPECT_FALSE(groups[3].tensor) << "an HFMA kernel is not judged on the tensor roof's terms, nor the HGEMM on its";
}
