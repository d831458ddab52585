// io/ncu_csv: Nsight Compute's CSV read trusting nothing. Each refusal has a case (the line,
// the metric and what is wrong named), the warnings of metrics likely misspelled, records
// across lines (a kernel name with a line break), and the H200's real CSV read as before.
// The points made from the metrics: ncu_kernel_points_test.cpp.
#include "core/gpu_kernel_points.hpp"
#include "io/ncu_csv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace roofline;

// A named namespace, tests and all: the unit tests are built as unity sources, where another
// file's anonymous helpers (row, kHeader) would clash with these.
namespace ncu_csv_test {

const std::string kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(const std::string& metric, const std::string& unit, const std::string& value,
                const std::string& id = "0", const std::string& kernel = "k(double *)") {
    return "\"" + id + "\",\"7\",\"app\",\"host\",\"" + kernel + "\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\","
           "\"9.0\",\"Command line profiler metrics\",\"" + metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

const std::string kDuration = "gpu__time_duration.sum";
const std::string kDfma = "sm__sass_thread_inst_executed_op_dfma_pred_on.sum";
const std::string kFp16Tensor = "sm__ops_path_tensor_src_fp16.sum";

// The message read_ncu_csv refuses `text` with ("accepted" if it does not).
std::string refusal(const std::string& text) {
    try {
        read_ncu_csv(text);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "accepted";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string gpu_fixture(const char* name) {
    std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

double value_of(const std::vector<GpuKernelMetric>& metrics, const std::string& launch, const std::string& metric) {
    for (const auto& m : metrics)
        if (m.launch == launch && m.metric == metric) return m.value;
    ADD_FAILURE() << "no " << metric << " for launch " << launch;
    return -1;
}

// --- The real CSV ----------------------------------------------------------------------------

TEST(NcuCsvReader, TheH200CsvReadsToItsMetricsWithoutWarnings) {
    const auto csv = read_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv"));
    EXPECT_EQ(csv.metrics.size(), 126u) << "3 launches x 42 metrics";
    EXPECT_TRUE(csv.warnings.empty()) << csv.warnings.front();
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "0", kDuration), 370688);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "1", kDuration), 447840);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "2", kDuration), 35968);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "0", "sm__ops_path_tensor_src_fp64.sum"), 17179869184.0);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "2", kFp16Tensor), 17179869184.0);
    EXPECT_EQ(parse_ncu_csv(gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv")).size(), 126u);
}

TEST(NcuCsvReader, CrlfLineEndsReadTheSame) {
    const std::string lf = gpu_fixture("h200-ncu-cublas-gemm-n2048-tensor.csv");
    std::string crlf;
    for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const auto a = parse_ncu_csv(lf), b = parse_ncu_csv(crlf);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].kernel, b[i].kernel);
        EXPECT_EQ(a[i].metric, b[i].metric);
        EXPECT_EQ(a[i].value, b[i].value);
    }
}

// --- Records across lines (RFC 4180) -----------------------------------------------------------

TEST(NcuCsvReader, AKernelNameWithLineBreaksIsOneFieldOfOneRecord) {
    const auto csv = read_ncu_csv(gpu_fixture("ncu-kernel-name-newline.csv"));
    ASSERT_EQ(csv.metrics.size(), 5u);
    const std::string& name = csv.metrics[0].kernel;
    EXPECT_EQ(name.rfind("run_gemm<half>::{lambda()#1}\n==PROF== \"not a line of ncu\"\nsm90_xmma_gemm_f16f16", 0), 0u)
        << "a line starting with == inside a quoted field is the field's text, not a line of ncu's: " << name;
    for (const auto& m : csv.metrics) EXPECT_EQ(m.kernel, name);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "2", kDuration), 35968);
    EXPECT_DOUBLE_EQ(value_of(csv.metrics, "2", kFp16Tensor), 17179869184.0);
    const auto points = gpu_kernel_points(csv.metrics);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].name, name);
}

TEST(NcuCsvReader, QuotingErrorsAreRefusedWithTheirLine) {
    // A quote left open: the line it opened on, however far the text runs.
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000") + "\"0\",\"unclosed\nmore\nlines\n"),
                    "line 3: a quoted field opened on this line is not closed"));
    EXPECT_TRUE(has(refusal(kHeader + "\"0\"x,\"k\"\n"), "line 2: text after a quoted field's closing quote"));
    EXPECT_TRUE(has(refusal(kHeader + "0,k\"name\n"), "line 2: a quote inside a field that is not quoted"));
    // The line of a record after one with a line break counts that break.
    const std::string two_lines = row(kDuration, "ns", "1000", "0", "a\nb");
    EXPECT_TRUE(has(refusal(kHeader + two_lines + row(kDfma, "inst", "0x10", "0", "a\nb")), "line 4:"))
        << refusal(kHeader + two_lines + row(kDfma, "inst", "0x10", "0", "a\nb"));
}

TEST(NcuCsvReader, ProgramOutputAndNcuLinesAroundTheRecordsAreSkipped) {
    const std::string text = "program output with an unclosed \" quote\n==PROF== Connected to process 7\n" + kHeader +
                             row(kDuration, "ns", "1,000") + "==WARNING== something ncu says\n\n" +
                             row(kDfma, "inst", "10") + "==PROF== Disconnected from process 7\n";
    const auto csv = read_ncu_csv(text);
    ASSERT_EQ(csv.metrics.size(), 2u);
    EXPECT_TRUE(csv.warnings.empty());
}

TEST(NcuCsvReader, RowsThatNoNcuWritesAreRefused) {
    // A second header (two files joined): its ID is no launch's.
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000") + kHeader), "line 3: launch ID 'ID' is not a number"));
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000", "0x1")), "launch ID '0x1' is not a number"));
    EXPECT_TRUE(has(refusal("\"ID\",\"Kernel Name\",\"Device\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                            "\"0\",\"k\",\"GPU 0\",\"gpu__time_duration.sum\",\"ns\",\"1000\"\n"),
                    "line 2: device 'GPU 0' is not a device's index"));
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000", "0", "daxpy") + row(kDfma, "inst", "1", "0", "dgemm")),
                    "line 3: launch 0 is kernel 'dgemm' here and 'daxpy' on line 2"));
    EXPECT_TRUE(has(refusal(kHeader + row("", "ns", "1000")), "line 2: a row without a metric name"));
    EXPECT_TRUE(has(refusal("\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"dram__bytes.sum\"\n\"\",\"\",\"byte\",\"byte\"\n"),
                    "line 1: the header has the column 'dram__bytes.sum' twice"));
    EXPECT_TRUE(has(refusal(kHeader + "\"0\",\"k\"\n"), "line 2: 2 fields where the header has 15"));
    EXPECT_TRUE(has(refusal("a,b,c\n1,2,3\n"), "no Nsight Compute CSV header"));
}

// --- Units by kind -----------------------------------------------------------------------------

TEST(NcuCsvReader, EveryMetricThePointsReadHasAUnitKind) {
    for (const auto& m : ncu_all_roofline_metrics())
        EXPECT_NE(ncu_metric_unit_kind(m), NcuUnitKind::none) << m << ": its unit would not be checked";
    EXPECT_EQ(ncu_metric_unit_kind(kDuration), NcuUnitKind::time);
    EXPECT_EQ(ncu_metric_unit_kind("dram__bytes_read.sum"), NcuUnitKind::bytes);
    EXPECT_EQ(ncu_metric_unit_kind("l1tex__t_bytes.sum"), NcuUnitKind::bytes);
    EXPECT_EQ(ncu_metric_unit_kind(kDfma), NcuUnitKind::count);
    EXPECT_EQ(ncu_metric_unit_kind("sm__ops_path_tensor_op_hgmma_src_fp16.sum"), NcuUnitKind::count);
    EXPECT_EQ(ncu_metric_unit_kind("sm__inst_executed_pipe_tensor_op_hmma.sum"), NcuUnitKind::count);
    EXPECT_EQ(ncu_metric_unit_kind("dram__bytes.sum.per_second"), NcuUnitKind::none) << "a rate: not read";
    EXPECT_EQ(ncu_metric_unit_kind("gpu__time_duration.avg"), NcuUnitKind::none);
}

TEST(NcuCsvReader, AUnitOfAnotherKindIsRefusedNamingMetricUnitAndLine) {
    const auto refused = [](const std::string& metric, const std::string& unit, const std::string& value) {
        return refusal(kHeader + row(kDuration, "ns", "100000") + row(metric, unit, value));
    };
    for (const char* unit : {"cycle", "", "inst", "byte", "%", "minute", "hz"}) {
        const std::string e = refused(kDuration, unit, "1000");
        EXPECT_TRUE(has(e, "line 3: gpu__time_duration.sum is in '" + std::string(unit) + "', which is not a time"))
            << unit << ": " << e;
    }
    for (const char* unit : {"%", "", "inst", "sector", "ns", "byte/second"}) {
        const std::string e = refused("dram__bytes.sum", unit, "64");
        EXPECT_TRUE(has(e, "line 3: dram__bytes.sum is in '" + std::string(unit) + "', which is not bytes")) << e;
    }
    for (const char* unit : {"byte", "ns", "cycle", "%", "warp"}) {
        EXPECT_TRUE(has(refused(kDfma, unit, "8"), "line 3: " + kDfma + " is in '" + unit + "', which is not a count"));
        EXPECT_TRUE(has(refused(kFp16Tensor, unit, "8"), "line 3: " + kFp16Tensor + " is in '" + unit + "'"));
    }
    // A prefixed byte unit: ncu's prefixes are 1000 or 1024.
    for (const char* unit : {"Mbyte", "KB", "GiB"})
        EXPECT_TRUE(has(refused("lts__t_bytes.sum", unit, "1.5"), "--print-units base")) << unit;
    // The raw page: refused at its units row.
    EXPECT_TRUE(has(refusal("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"cycle\"\n\"0\",\"k\",\"5000\"\n"),
                    "line 2: gpu__time_duration.sum is in 'cycle', which is not a time"));
}

TEST(NcuCsvReader, UnitsOfTheirKindAreConvertedToBaseUnits) {
    const std::string text = kHeader + row(kDuration, "usecond", "12.5", "0") + row(kDuration, "ms", "0.002", "1") +
                             row(kDuration, "s", "1e-3", "2") + row(kDuration, "nsecond", "150", "3") +
                             row("dram__bytes.sum", "B", "4,096") + row(kDfma, "inst", "7") + row(kFp16Tensor, "", "9") +
                             row("sm__inst_executed_pipe_tensor.sum", "", "3") +
                             row("sm__warps_active.avg.pct_of_peak_sustained_active", "%", "12.5") +
                             row("sm__cycles_elapsed.avg.per_second", "furlong/fortnight", "3");
    const auto m = parse_ncu_csv(text);
    ASSERT_EQ(m.size(), 10u);
    EXPECT_DOUBLE_EQ(m[0].value, 12500);
    EXPECT_DOUBLE_EQ(m[1].value, 2000);
    EXPECT_DOUBLE_EQ(m[2].value, 1e6);
    EXPECT_DOUBLE_EQ(m[3].value, 150);
    EXPECT_DOUBLE_EQ(m[4].value, 4096);
    EXPECT_DOUBLE_EQ(m[5].value, 7);
    EXPECT_DOUBLE_EQ(m[6].value, 9);
    EXPECT_DOUBLE_EQ(m[8].value, 12.5) << "a metric not read: kept as printed, its unit not checked";
    EXPECT_DOUBLE_EQ(m[9].value, 3);
}

// --- Numbers as ncu writes them ----------------------------------------------------------------

TEST(NcuCsvReader, OnlyNcusNumberSyntaxIsAccepted) {
    for (const char* v : {"0", "12", "12.5", "1,048,576", "1,234.5", "1.5e3", "2E+4", "9e-1", "100000"}) {
        const auto m = parse_ncu_csv(kHeader + row(kDuration, "ns", "1000") + row(kDfma, "inst", v));
        ASSERT_EQ(m.size(), 2u) << v;
        EXPECT_DOUBLE_EQ(m[1].value, std::stod([&] {
            std::string s = v;
            s.erase(std::remove(s.begin(), s.end(), ','), s.end());
            return s;
        }())) << v;
    }
    const std::pair<const char*, const char*> refused[] = {
        {"0x10", "hexadecimal"},
        {"0X1F", "hexadecimal"},
        {"inf", "not digits"},
        {"nan", "not digits"},
        {"infinity", "not digits"},
        {"+5", "a '+' sign"},
        {".5", "no digits before its decimal point"},
        {"5.", "no digits after its decimal point"},
        {"1e", "an exponent without digits"},
        {"1e+", "an exponent without digits"},
        {"1,00", "a ',' that does not separate thousands"},
        {",100", "a ',' that does not separate thousands"},
        {"1000,000", "a ',' that does not separate thousands"},
        {"1,000,00", "a ',' that does not separate thousands"},
        {"1,", "a ',' that does not separate thousands"},
        {" 5", "not digits"},
        {"5 ", "not digits"},
        {"1.2.3", "not digits"},
        {"12abc", "not digits"},
        {"lots", "not digits"},
        {"1e999", "out of the range of a double"},
        {"1e-999", "out of the range of a double"},
    };
    for (const auto& [v, why] : refused) {
        const std::string e = refusal(kHeader + row(kDuration, "ns", "1000") + row(kDfma, "inst", v));
        EXPECT_TRUE(has(e, "line 3: " + kDfma + ": '" + v + "' is not a number as ncu writes it (" + why))
            << v << ": " << e;
    }
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "nsecond", "-3")), "line 2: gpu__time_duration.sum: -3 is negative"));
}

TEST(NcuCsvReader, UnavailableAndUnreadValuesAreNotRefused) {
    const auto m = parse_ncu_csv(kHeader + row(kDuration, "ns", "1000") + row(kDfma, "inst", "n/a") +
                                 row("device__attribute_display_name", "", "NVIDIA H200") +
                                 row("sm__warps_active.avg", "warp", "-1"));
    ASSERT_EQ(m.size(), 3u) << "a metric not read whose value is no number is left out";
    EXPECT_FALSE(m[1].available);
    EXPECT_EQ(m[2].metric, "sm__warps_active.avg");
}

// --- Impossible values -------------------------------------------------------------------------

TEST(NcuCsvReader, AKernelDurationNoLaunchLastsIsRefused) {
    for (const char* v : {"0", "0.5", "99"}) {
        const std::string e = refusal(kHeader + row(kDfma, "inst", "0") + row(kDuration, "ns", v));
        EXPECT_TRUE(has(e, std::string("line 3: gpu__time_duration.sum = ") + v)) << e;
        EXPECT_TRUE(has(e, "shorter than any kernel launch")) << e;
    }
    // Labelled nanoseconds, given in seconds.
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "0.000012")), "shorter than any kernel launch"));
    EXPECT_EQ(refusal(kHeader + row(kDuration, "ns", "100")), "accepted") << "the floor itself";
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "s", "700000")), "longer than a week"));
    EXPECT_EQ(refusal(kHeader + row(kDuration, "s", "3600")), "accepted");
}

TEST(NcuCsvReader, CountsAndBytesNoGpuReachesAreRefusedAtTheirLine) {
    // Impossible even without a duration: more than any GPU does in a week of one kernel.
    const std::string e = refusal(kHeader + row(kDfma, "inst", "1e300"));
    EXPECT_TRUE(has(e, "line 2: " + kDfma + " = 1e+300: more than any GPU does")) << e;
    EXPECT_TRUE(has(refusal(kHeader + row("dram__bytes.sum", "byte", "1e25")), "line 2: dram__bytes.sum = 1e+25 bytes"));
    // Against the launch's duration, wherever its row is: 1 ms moves at most 1e12 bytes.
    const std::string bytes = kHeader + row("dram__bytes.sum", "byte", "2e12") + row(kDuration, "ms", "1");
    const std::string b = refusal(bytes);
    EXPECT_TRUE(has(b, "line 2: dram__bytes.sum = 2e+12 bytes in the 1e+06 ns of launch 0 (its duration on line 3)"))
        << b;
    EXPECT_EQ(refusal(kHeader + row("dram__bytes.sum", "byte", "9e11") + row(kDuration, "ms", "1")), "accepted");
    // Thread instructions 1e7 per ns, tensor-path operations 1e9.
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000") + row(kDfma, "inst", "2e10")), "line 3: " + kDfma));
    EXPECT_EQ(refusal(kHeader + row(kDuration, "ns", "1000") + row(kDfma, "inst", "1e10")), "accepted");
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000") + row(kFp16Tensor, "", "2e12")), kFp16Tensor));
    EXPECT_EQ(refusal(kHeader + row(kDuration, "ns", "1000") + row(kFp16Tensor, "", "1e12")), "accepted");
    // Each launch against its own duration; the raw page too.
    EXPECT_TRUE(has(refusal(kHeader + row(kDuration, "ns", "1000000", "0") + row(kDuration, "ns", "1000", "1") +
                            row("lts__t_bytes.sum", "byte", "1e10", "1")),
                    "line 4: lts__t_bytes.sum = 1e+10 bytes in the 1000 ns of launch 1 (its duration on line 3)"));
    EXPECT_TRUE(has(refusal("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"l1tex__t_bytes.sum\"\n"
                            "\"\",\"\",\"ns\",\"byte\"\n\"0\",\"k\",\"1000\",\"1e10\"\n"),
                    "line 3: l1tex__t_bytes.sum = 1e+10 bytes in the 1000 ns"));
    // An unavailable duration: only the absolute bound.
    EXPECT_EQ(refusal(kHeader + row(kDuration, "ns", "n/a") + row("dram__bytes.sum", "byte", "1e12")), "accepted");
}

// --- Warnings ----------------------------------------------------------------------------------

TEST(NcuCsvReader, MetricsLikelyMisspelledAreWarnedOfNotRefused) {
    const auto csv = read_ncu_csv(gpu_fixture("ncu-misspelled-metrics.csv"));
    EXPECT_EQ(csv.metrics.size(), 9u) << "read all the same";
    ASSERT_EQ(csv.warnings.size(), 3u) << ::testing::PrintToString(csv.warnings);
    EXPECT_TRUE(has(csv.warnings[0], "line 9: dram__bytez.sum is not a metric roofline reads")) << csv.warnings[0];
    EXPECT_TRUE(has(csv.warnings[0], "did you mean dram__bytes.sum?")) << csv.warnings[0];
    EXPECT_TRUE(has(csv.warnings[1], "line 11: smsp__sass_thread_inst_executed_op_hfma_pred_on.sum is not a metric"));
    EXPECT_TRUE(has(csv.warnings[1], "did you mean sm__sass_thread_inst_executed_op_hfma_pred_on.sum?"));
    // gpu__time_duration.avg is next to the .sum it has; sm__warps_active is far from any: no word.
    EXPECT_TRUE(has(csv.warnings[2], "line 2: ncu said: ==ERROR== Failed to profile \"sgemm\"")) << csv.warnings[2];
    EXPECT_EQ(gpu_kernel_points(csv.metrics).size(), 1u);
}

TEST(NcuCsvReader, WarningsOfOtherRollUpsCaseAndRawColumns) {
    // The same counter under another roll-up, when the file lacks the .sum roofline reads.
    auto w = read_ncu_csv(kHeader + row("gpu__time_duration.avg", "ns", "1000") + row("DRAM__BYTES.SUM", "byte", "64") +
                          row("dram__bytes.sum.per_second", "byte/second", "64"))
                 .warnings;
    ASSERT_EQ(w.size(), 3u) << ::testing::PrintToString(w);
    EXPECT_TRUE(has(w[0], "line 2: gpu__time_duration.avg is not a metric roofline reads")) << w[0];
    EXPECT_TRUE(has(w[0], "did you mean gpu__time_duration.sum?"));
    EXPECT_TRUE(has(w[1], "line 3: DRAM__BYTES.SUM")) << w[1];
    EXPECT_TRUE(has(w[1], "did you mean dram__bytes.sum?"));
    EXPECT_TRUE(has(w[2], "line 4: dram__bytes.sum.per_second")) << w[2];
    // Once per name, at its first line.
    w = read_ncu_csv(kHeader + row("dram__bytez.sum", "byte", "1", "0") + row("dram__bytez.sum", "byte", "1", "1")).warnings;
    EXPECT_EQ(w.size(), 1u);
    // The raw page: a column misspelled (even without its "__") is named with the header's line.
    w = read_ncu_csv("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram_bytes.sum\",\"ltz__t_bytes.sum\"\n"
                     "\"\",\"\",\"ns\",\"byte\",\"byte\"\n\"0\",\"k\",\"1000\",\"1\",\"1\"\n")
            .warnings;
    ASSERT_EQ(w.size(), 2u) << ::testing::PrintToString(w);
    EXPECT_TRUE(has(w[0], "line 1: dram_bytes.sum") && has(w[0], "did you mean dram__bytes.sum?")) << w[0];
    EXPECT_TRUE(has(w[1], "line 1: ltz__t_bytes.sum") && has(w[1], "did you mean lts__t_bytes.sum?")) << w[1];
    // Tensor metrics are measure's to name (unknown_tensor_metrics); far names and names the
    // points read are no mistake.
    EXPECT_TRUE(read_ncu_csv(kHeader + row(kDuration, "ns", "1000") + row("sm__ops_path_tensor_src_fp61.sum", "", "0") +
                             row("lts__t_sectors.sum", "sector", "4") + row("sm__cycles_elapsed.avg", "cycle", "3"))
                    .warnings.empty());
}

TEST(NcuCsvReader, NcusErrorLinesArePassedOnTheFirstFive) {
    std::string text = kHeader + row(kDuration, "ns", "1000");
    for (int i = 0; i < 7; ++i) text += "==ERROR== Failed to profile kernel " + std::to_string(i) + "\r\n";
    const auto w = read_ncu_csv(text).warnings;
    ASSERT_EQ(w.size(), 6u) << ::testing::PrintToString(w);
    EXPECT_EQ(w[0], "line 3: ncu said: ==ERROR== Failed to profile kernel 0");
    EXPECT_EQ(w[5], "and 2 more ==ERROR== lines from ncu");
}

} // namespace ncu_csv_test
