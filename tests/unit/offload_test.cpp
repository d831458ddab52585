// The whole-offload point (issue 13): what the CUPTI injection library adds up
// (tools/offload/offload_tally.hpp), the summary it writes as read back (io/offload_summary),
// and the point made of it with the ncu kernels (core/offload_point).
#include "offload_tally.hpp"

#include "core/gpu_kernel_points.hpp"
#include "core/offload_point.hpp"
#include "io/machine_json.hpp"  // SchemaError, the H200's model
#include "io/ncu_csv.hpp"
#include "io/offload_summary.hpp"
#include "render/gpu_kernel_text.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace roofline;
using roofline_offload::Direction;
using roofline_offload::Tally;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 2 x 64 MiB up, 32 MiB down, 1 MiB on the device, 3 kernels, 4 MiB migrated up; activity from
// t = 1000 ns to t = 9'001'000 ns.
Tally example_tally() {
    Tally t;
    t.copy(roofline_offload::direction_of_cupti_copy_kind(1), 64 << 20, 1000, 2'001'000);
    t.copy(Direction::host_to_device, 64 << 20, 2'001'000, 4'001'000);
    t.kernel(4'001'000, 5'001'000);
    t.kernel(5'001'000, 6'001'000);
    t.kernel(6'001'000, 7'001'000);
    t.copy(roofline_offload::direction_of_cupti_copy_kind(8), 1 << 20, 7'001'000, 7'101'000);
    t.migration(true, 4 << 20, 7'101'000, 8'001'000);
    t.copy(roofline_offload::direction_of_cupti_copy_kind(2), 32 << 20, 8'001'000, 9'001'000);
    return t;
}

Point kernel(const std::string& name, double flops, double dram, double launches) {
    Point p;
    p.name = name;
    p.source = PointOrigin::ncu;
    p.work = flops;
    p.seconds = 1e-3;
    p.bytes = {{"L1", 2 * dram}, {"L2", dram}, {"DRAM", dram}};
    p.details = {{"launches", launches}, {"flops_fp64", flops}};
    return p;
}

} // namespace

TEST(OffloadTally, CuptiCopyKindsMapToDirections) {
    using roofline_offload::direction_of_cupti_copy_kind;
    EXPECT_EQ(direction_of_cupti_copy_kind(1), Direction::host_to_device);
    EXPECT_EQ(direction_of_cupti_copy_kind(3), Direction::host_to_device);    // host to a CUDA array
    EXPECT_EQ(direction_of_cupti_copy_kind(2), Direction::device_to_host);
    EXPECT_EQ(direction_of_cupti_copy_kind(4), Direction::device_to_host);    // array to host
    for (unsigned k : {5u, 6u, 7u, 8u}) EXPECT_EQ(direction_of_cupti_copy_kind(k), Direction::device_to_device) << k;
    EXPECT_EQ(direction_of_cupti_copy_kind(9), Direction::host_to_host);
    EXPECT_EQ(direction_of_cupti_copy_kind(10), Direction::peer_to_peer);
    EXPECT_EQ(direction_of_cupti_copy_kind(0), Direction::unknown);
    EXPECT_EQ(direction_of_cupti_copy_kind(77), Direction::unknown);
}

TEST(OffloadTally, AddsBytesOperationsAndTheSpan) {
    const Tally t = example_tally();
    EXPECT_EQ(t.copies(Direction::host_to_device).bytes, 128u << 20);
    EXPECT_EQ(t.copies(Direction::host_to_device).operations, 2u);
    EXPECT_EQ(t.copies(Direction::host_to_device).busy_ns, 4'000'000u);
    EXPECT_EQ(t.copies(Direction::device_to_host).bytes, 32u << 20);
    EXPECT_EQ(t.kernels().operations, 3u);
    EXPECT_EQ(t.span_ns(), 9'000'000u);
    // A batched copy record counts its copies; a record without times adds bytes, not span.
    Tally b;
    b.copy(Direction::device_to_host, 100, 0, 0, 5);
    EXPECT_EQ(b.copies(Direction::device_to_host).operations, 5u);
    EXPECT_EQ(b.span_ns(), 0u);
}

TEST(OffloadSummary, ReadsWhatTheTallyWrites) {
    const auto s = offload_summary_from_text(example_tally().json("peer copies not counted: fake"), "t.json");
    EXPECT_DOUBLE_EQ(s.host_to_device.bytes, 128 << 20);
    EXPECT_DOUBLE_EQ(s.host_to_device.operations, 2);
    EXPECT_DOUBLE_EQ(s.host_to_device.busy_seconds, 4e-3);
    EXPECT_DOUBLE_EQ(s.device_to_host.bytes, 32 << 20);
    EXPECT_DOUBLE_EQ(s.device_to_device.bytes, 1 << 20);
    EXPECT_DOUBLE_EQ(s.migrated_to_device.bytes, 4 << 20);
    EXPECT_DOUBLE_EQ(s.kernels.operations, 3);
    EXPECT_DOUBLE_EQ(s.span_seconds, 9e-3);
    EXPECT_EQ(s.note, "peer copies not counted: fake");
    EXPECT_DOUBLE_EQ(offload_bus_bytes(s), (128 + 32 + 4) << 20);
}

TEST(OffloadSummary, RefusesWhatIsNotASummary) {
    auto error_of = [](const std::string& text) {
        try {
            offload_summary_from_text(text, "s.json");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_TRUE(contains(error_of("{\"schema\": \"roofline.points/1\"}"), "not a roofline offload summary"));
    EXPECT_TRUE(contains(error_of("not json"), "s.json"));
    std::string text = example_tally().json();
    const auto at = text.find("\"bytes\": ");
    std::string negative = text;
    negative.replace(at, 9, "\"bytes\": -");
    EXPECT_TRUE(contains(error_of(negative), "/copies/host_to_device/bytes: expected a non-negative integer"))
        << error_of(negative);
    std::string missing = text;
    missing.replace(missing.find("\"last_ns\""), 9, "\"last_xx\"");
    EXPECT_TRUE(contains(error_of(missing), "/last_ns: missing")) << error_of(missing);
    std::string backwards = text;
    backwards.replace(backwards.find("\"first_ns\": 1000"), 16, "\"first_ns\": 9999999999");
    EXPECT_TRUE(contains(error_of(backwards), "/last_ns: is before first_ns")) << error_of(backwards);
    std::string centuries = text;  // 18446744073 s: no run lasts that long
    centuries.replace(centuries.find("\"last_ns\": 9001000"), 18, "\"last_ns\": 18446744073709551615");
    EXPECT_TRUE(contains(error_of(centuries), "/last_ns: gives a span of")) << error_of(centuries);
}

TEST(OffloadSummary, ProcessesOfOneRunAddUp) {
    // A second process that started 5 ms later, copied 1 MiB up, ran a kernel, and ended last.
    Tally later;
    later.copy(Direction::host_to_device, 1 << 20, 5'000'000, 6'000'000);
    later.kernel(6'000'000, 12'001'000);
    const auto a = offload_summary_from_text(example_tally().json("", 100), "a.json");
    const auto b = offload_summary_from_text(later.json("unified-memory migrations not counted: x", 101), "b.json");
    const auto m = merge_offload_summaries({a, b});
    EXPECT_EQ(m.processes, 2);
    EXPECT_DOUBLE_EQ(m.host_to_device.bytes, (128 + 1) << 20);
    EXPECT_DOUBLE_EQ(m.host_to_device.operations, 3);
    EXPECT_DOUBLE_EQ(m.kernels.operations, 4);
    EXPECT_DOUBLE_EQ(m.span_seconds, 12e-3);  // from the first process's start to the second's end
    EXPECT_EQ(m.note, "unified-memory migrations not counted: x");
    // A process that made a CUDA call but no GPU activity moves neither end.
    const auto idle = offload_summary_from_text(Tally().json("", 102), "c.json");
    EXPECT_DOUBLE_EQ(merge_offload_summaries({a, idle}).span_seconds, 9e-3);
    EXPECT_THROW(merge_offload_summaries({}), std::invalid_argument);
}

TEST(OffloadSummary, OneProcessGivenTwiceIsRefusedNotAddedTwice) {
    const auto a = offload_summary_from_text(example_tally().json("", 100), "a.json");
    EXPECT_EQ(a.pid, 100u);
    // The same summary twice (or a copy of it) would double its copies and kernels: TI halved.
    EXPECT_THROW(merge_offload_summaries({a, a}), std::invalid_argument);
    // Summaries without a pid cannot be told apart here: added, as before.
    auto anonymous = a;
    anonymous.pid = 0;
    EXPECT_EQ(merge_offload_summaries({anonymous, anonymous}).processes, 2);
}

TEST(OffloadPoint, AllKernelsWithTheBusBytesAndTheSpan) {
    const auto s = offload_summary_from_text(example_tally().json(), "t.json");
    const std::vector<Point> kernels{kernel("a", 4e9, 1e9, 2), kernel("b", 2e9, 5e8, 1)};
    const auto o = offload_point(kernels, s, 0.5);
    const Point& p = o.point;
    EXPECT_EQ(p.name, "whole offload");
    EXPECT_EQ(p.source, PointOrigin::ncu);  // judged on a GPU's roofline, as the kernels are
    EXPECT_DOUBLE_EQ(p.work, 6e9);
    EXPECT_DOUBLE_EQ(p.seconds, 9e-3);
    EXPECT_DOUBLE_EQ(p.bytes.at("DRAM"), 1.5e9);
    EXPECT_DOUBLE_EQ(p.bytes.at("L1"), 3e9);
    EXPECT_DOUBLE_EQ(p.bytes.at("PCIe"), (128 + 32 + 4) << 20);  // device-to-device bytes stay off the bus
    EXPECT_DOUBLE_EQ(p.details.at("device_to_device_bytes"), 1 << 20);
    EXPECT_DOUBLE_EQ(p.details.at("flops_fp64"), 6e9);
    EXPECT_DOUBLE_EQ(p.details.at("wall_seconds"), 0.5);
    EXPECT_DOUBLE_EQ(p.details.at(kWholeOffload), 1);
    EXPECT_TRUE(o.warnings.empty()) << o.warnings.front();  // 3 launches in both runs
}

TEST(OffloadPoint, SaysWhatMakesItLessExact) {
    auto s = offload_summary_from_text(example_tally().json(), "t.json");
    s.dropped_records = 12;
    s.note = "unified-memory migrations not counted: fake";
    const auto o = offload_point({kernel("a", 4e9, 1e9, 5)}, s, 0.5);
    std::string all;
    for (const auto& w : o.warnings) all += w + "\n";
    EXPECT_TRUE(contains(all, "CUPTI: unified-memory migrations not counted")) << all;
    EXPECT_TRUE(contains(all, "dropped 12 activity records")) << all;
    EXPECT_TRUE(contains(all, "launched 3 kernels, the one under ncu 5")) << all;
    // No bus bytes: a point without a bus intensity, and a word about it.
    OffloadSummary on_device;
    on_device.kernels = {0, 1, 1e-3};
    on_device.span_seconds = 1e-3;
    const auto d = offload_point({kernel("a", 4e9, 1e9, 1)}, on_device, 0.1);
    EXPECT_EQ(d.point.bytes.count("PCIe"), 0u);
    ASSERT_EQ(d.warnings.size(), 1u);
    EXPECT_TRUE(contains(d.warnings[0], "no bytes crossed the host-device bus"));
    // Nothing on the GPU at all: not a point.
    EXPECT_THROW(offload_point({}, OffloadSummary{}, 0.1), std::runtime_error);
}

// Issue 33: a summary that cannot be true is refused with the reason, never made a point.
TEST(OffloadPoint, RefusesABusRateNoLinkCanMove) {
    auto s = offload_summary_from_text(example_tally().json(), "t.json");
    // 1.8 TB host to device in 1 ns of copies and a span of 1 us: 1.8e21 B/s.
    s.host_to_device = {1.8e12, 1, 1e-9};
    s.span_seconds = 1e-6;
    try {
        offload_point({kernel("a", 4e9, 1e9, 3)}, s, 0.5);
        FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_TRUE(contains(what, "the offload summary cannot be true")) << what;
        EXPECT_TRUE(contains(what, "copies host to device: 1800000000000 bytes in 1e-09 s of transfers")) << what;
        EXPECT_TRUE(contains(what, "faster than any host-device link (NVLink-C2C moves 450 GB/s each way")) << what;
    }
    // Each way under the link's figure, but all of it over the span above both ways together.
    auto spread = offload_summary_from_text(example_tally().json(), "t.json");
    spread.host_to_device = {4e11, 1, 1.0};  // 400 GB/s while copying
    spread.device_to_host = {4e11, 1, 1.0};
    spread.migrated_to_device = {4e11, 1, 1.0};
    spread.span_seconds = 0.4;  // 1.2e12 B in 0.4 s: 3000 GB/s
    const auto problems = offload_summary_problems(spread);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(contains(problems[0], "over the bus in a span of 0.4 s")) << problems[0];
    // The measured roof: 52 GB/s pinned host to device; 200 GB/s is more than 1.5 times it.
    GpuModel gpu;
    gpu.bus = {{"h2d", true, 52, 1 << 26, {}}, {"h2d", false, 20, 1 << 26, {}}, {"d2h", true, 50, 1 << 26, {}}};
    const auto roofs = offload_bus_roofs(gpu, "model 7");
    EXPECT_EQ(roofs.h2d_gbs, 52);
    EXPECT_EQ(roofs.d2h_gbs, 50);
    auto fast = offload_summary_from_text(example_tally().json(), "t.json");
    fast.host_to_device = {2e9, 1, 1e-2};
    const auto over_roof = offload_summary_problems(fast, roofs);
    ASSERT_EQ(over_roof.size(), 1u);
    EXPECT_TRUE(contains(over_roof[0], "more than 1.5 times this machine's measured bus roof (52 GB/s, model 7)"))
        << over_roof[0];
    EXPECT_TRUE(offload_summary_problems(fast).empty());  // without the roof, 200 GB/s is a link's
    // The example itself (64 MiB in 2 ms, 33.5 GB/s) is fine against both.
    EXPECT_TRUE(offload_summary_problems(offload_summary_from_text(example_tally().json(), "t.json"), roofs).empty());
}

TEST(OffloadPoint, ASpanOfZeroWithKernelsAndCopiesIsADamagedSummary) {
    auto s = offload_summary_from_text(example_tally().json(), "t.json");
    s.first_ns = s.last_ns = 5000;
    s.span_seconds = 0;
    try {
        offload_point({kernel("a", 4e9, 1e9, 3)}, s, 0.5);
        FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_TRUE(contains(what, "its span is 0 s (first_ns 5000, last_ns 5000) though it records 3 kernel "
                                   "launch(es) and 5 copies or migrations: a damaged summary"))
            << what;
        EXPECT_FALSE(contains(what, "nothing was offloaded")) << what;
    }
    // Nothing at all recorded: still "nothing was offloaded".
    try {
        offload_point({}, OffloadSummary{}, 0.1);
        FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(contains(e.what(), "nothing was offloaded")) << e.what();
    }
}

TEST(OffloadPoint, AnUnknownWallTimeIsLeftOut) {
    const auto s = offload_summary_from_text(example_tally().json(), "t.json");
    const auto earlier = offload_point({kernel("a", 4e9, 1e9, 3)}, s, 0);  // --offload-summary: no run here
    EXPECT_EQ(earlier.point.details.count("wall_seconds"), 0u);
    EXPECT_DOUBLE_EQ(offload_point({kernel("a", 4e9, 1e9, 3)}, s, 0.5).point.details.at("wall_seconds"), 0.5);
}

TEST(OffloadPoint, RefusesKernelsBusyLongerThanAGpuCanRunThem) {
    auto s = offload_summary_from_text(example_tally().json(), "t.json");  // a span of 9 ms
    s.kernels.busy_seconds = 2.0;  // 222 kernels at once all along
    const auto problems = offload_summary_problems(s);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(contains(problems[0], "its kernels ran 2 s in all within a span of 0.009 s: more than 128 kernels"))
        << problems[0];
    s.kernels.busy_seconds = 0.5;  // 56 at once: streams can do that
    EXPECT_TRUE(offload_summary_problems(s).empty());
}

// --- the roofs that judge a whole offload (the H200's measured model, tests/data/gpu) -------

namespace {

std::string h200_file(const char* name) { return std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/" + name; }

GpuModel h200() { return read_machine_file(h200_file("h200-machine.json")).gpus.at(0); }

// The cuBLAS DGEMM (DMMA), SGEMM (FFMA) and HGEMM (HGMMA) at n = 2048 that ncu measured there.
std::vector<Point> h200_gemms() {
    std::ifstream in(h200_file("h200-ncu-cublas-gemm-n2048-tensor.csv"));
    std::stringstream text;
    text << in.rdbuf();
    return gpu_kernel_points(parse_ncu_csv(text.str()));
}

// A whole offload of `kernels` that copied `up` bytes to the device and `down` back.
Point offload_of(const std::vector<Point>& kernels, double up, double down) {
    OffloadSummary s;
    s.host_to_device = {up, up > 0 ? 1.0 : 0.0, up / 50e9};
    s.device_to_host = {down, down > 0 ? 1.0 : 0.0, down / 50e9};
    s.kernels = {0, static_cast<double>(kernels.size()), 1e-3};
    s.span_seconds = 0.1;
    return offload_point(kernels, s, 0).point;
}

} // namespace

// The offload point carries its kernels' FLOPs per precision and tensor format: alone, its mix
// is known (before, only flops_tensor in all: an offload of a DGEMM on DMMA read as fp64 FMA).
TEST(OffloadPoint, CarriesItsKernelsFlopsPerPrecisionAndTensorFormat) {
    const auto gemms = h200_gemms();
    ASSERT_EQ(gemms.size(), 3u);
    const Point p = offload_of(gemms, 1e8, 0);
    for (const char* key : {"flops_fp64", "flops_fp32", "flops_tensor", "flops_tensor_fp64", "flops_tensor_fp16",
                            "flops_tensor_bf16", "ops_tensor_int8"}) {
        double sum = 0;
        for (const auto& k : gemms) sum += k.details.at(key);
        EXPECT_DOUBLE_EQ(p.details.at(key), sum) << key;
    }
    EXPECT_FALSE(p.details.count("flops_fp16")) << "no kernel recorded an fp16 FMA counter: absent, not 0";
}

// Judged on the highest roof its work could use: of DGEMM, SGEMM and HGEMM (a third of the
// FLOPs each), the fp16 tensor roof (966 TFLOP/s); the fp32 FMA roof it sat on before is 16x
// lower than the HGEMM's part runs. Without the HGEMM, the fp64 tensor roof (64.6 TFLOP/s,
// above fp32's 59.3). A model without tensor roofs: the fp32 one, the rest named.
TEST(OffloadRoofs, TheHighestRoofItsWorkCouldUse) {
    const auto gemms = h200_gemms();
    const GpuModel gpu = h200();
    const auto all = offload_compute_roof(offload_of(gemms, 1e8, 0), gpu);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->precision, "fp16");
    EXPECT_TRUE(all->tensor);
    EXPECT_EQ(all->roof, "FP16 tensor peak");
    EXPECT_DOUBLE_EQ(all->gflops, 966280);
    EXPECT_NEAR(all->share, 1.0 / 3, 1e-3);
    EXPECT_TRUE(all->without_roof.empty());
    const auto two = offload_compute_roof(offload_of({gemms[0], gemms[1]}, 1e8, 0), gpu);
    ASSERT_TRUE(two);
    EXPECT_EQ(two->roof, "FP64 tensor peak");
    EXPECT_TRUE(two->tensor);
    GpuModel no_tensor = gpu;
    std::erase_if(no_tensor.compute, [](const GpuComputeRoof& c) { return c.tensor; });
    const auto fma = offload_compute_roof(offload_of(gemms, 1e8, 0), no_tensor);
    ASSERT_TRUE(fma);
    EXPECT_EQ(fma->roof, "FP32 peak");
    EXPECT_EQ(fma->without_roof, (std::vector<std::string>{"fp64 tensor", "fp16 tensor"}));
    // Work under 1% of its FLOPs does not choose the roof (a few HFMAs beside a DGEMM).
    Point dgemm = gemms[0];
    dgemm.details["flops_fp16"] = 0.001 * dgemm.work;
    dgemm.work *= 1.001;
    EXPECT_EQ(offload_compute_roof(offload_of({dgemm}, 1e8, 0), gpu)->roof, "FP64 tensor peak");
    // No FLOPs by precision: nothing to choose from.
    EXPECT_FALSE(offload_compute_roof(offload_of({kernel("cpu", 1e9, 1e9, 1)}, 1e8, 0), GpuModel{}));
}

// The bus roof of its traffic: host to device only, the h2d figure (55.1 GB/s) — before, the
// fastest one-way figure, d2h (55.2), whatever the traffic; device to host only, d2h; both ways
// alike, the bidirectional figure (97.9); twice as much up as down, each way at its own roof at
// once (the up bytes take longest: 1.5 x 55.1 over all the bytes). 24 bytes back beside 100 MB
// up do not name the roof.
TEST(OffloadRoofs, TheBusRoofMatchesTheTraffic) {
    const auto gemms = h200_gemms();
    const GpuModel gpu = h200();
    const auto up = offload_bus_roof(offload_of(gemms, 1e8, 24), gpu);
    ASSERT_TRUE(up);
    EXPECT_EQ(up->direction, "h2d");
    EXPECT_EQ(up->name, "PCIe h2d pinned");
    EXPECT_NEAR(up->gbs, 55.0853, 1e-4);
    EXPECT_DOUBLE_EQ(up->to_device, 1e8);
    EXPECT_DOUBLE_EQ(up->to_host, 24);
    const auto down = offload_bus_roof(offload_of(gemms, 0, 1e8), gpu);
    ASSERT_TRUE(down);
    EXPECT_EQ(down->name, "PCIe d2h pinned");
    EXPECT_DOUBLE_EQ(down->gbs, 55.2231);
    const auto both = offload_bus_roof(offload_of(gemms, 1e8, 1e8), gpu);
    ASSERT_TRUE(both);
    EXPECT_EQ(both->name, "PCIe bidirectional pinned");
    EXPECT_NEAR(both->gbs, 97.8697, 1e-9);
    const auto mostly_up = offload_bus_roof(offload_of(gemms, 2e8, 1e8), gpu);
    ASSERT_TRUE(mostly_up);
    EXPECT_EQ(mostly_up->name, "PCIe h2d+d2h pinned");
    EXPECT_NEAR(mostly_up->gbs, 1.5 * 55.0853, 1e-9);
    const auto pageable = offload_bus_roof(offload_of(gemms, 1e8, 0), gpu, false);
    ASSERT_TRUE(pageable);
    EXPECT_EQ(pageable->name, "PCIe h2d pageable");
    EXPECT_DOUBLE_EQ(pageable->gbs, 14.1108);
    // No figure for the way its bytes went, or no bus bytes: none.
    GpuModel no_h2d = gpu;
    std::erase_if(no_h2d.bus, [](const BusRoof& b) { return b.direction == "h2d"; });
    EXPECT_FALSE(offload_bus_roof(offload_of(gemms, 1e8, 0), no_h2d));
    EXPECT_FALSE(offload_bus_roof(offload_of(gemms, 0, 0), gpu));
}

// Its roofline: the compute roof it is judged on, and a bus roof (and pageable ceiling) of its
// traffic's direction only; judged there, bound by the bus.
TEST(OffloadRoofs, ItsRooflineAndJudgement) {
    const auto gemms = h200_gemms();
    const GpuModel gpu = h200();
    const Point p = offload_of(gemms, 1e8, 0);
    const Roofline r = whole_offload_roofline(gpu, p);
    EXPECT_EQ(r.compute.name, "FP16 tensor peak");
    int bus_roofs = 0;
    for (const auto& b : r.bandwidth)
        if (b.level == "PCIe") {
            ++bus_roofs;
            EXPECT_EQ(b.name, "PCIe h2d pinned");
            EXPECT_DOUBLE_EQ(b.value, 55.0853);
        }
    EXPECT_EQ(bus_roofs, 1);
    for (const auto& c : r.ceilings) {
        if (c.level == "PCIe") { EXPECT_EQ(c.name, "PCIe h2d pageable"); }
    }
    const OffloadJudgement j = judge_whole_offload(p, gpu, "model 3");
    EXPECT_EQ(j.gpu, "NVIDIA H200 (GPU 0)");
    EXPECT_EQ(j.compute.roof, "FP16 tensor peak");
    ASSERT_TRUE(j.bus);
    EXPECT_EQ(j.binding_roof, "PCIe h2d pinned");
    // 5.15e10 FLOPs over 1e8 bus bytes: 515 FLOP/B x 55.1 GB/s.
    EXPECT_NEAR(j.attainable, p.work / 1e8 * 55.0853, 1e-6 * j.attainable);
    EXPECT_NEAR(j.efficiency, performance(p) / j.attainable, 1e-12);
    GpuModel none = gpu;
    none.compute.clear();
    EXPECT_THROW(whole_offload_roofline(none, p), std::invalid_argument);
}

// measure prints which roofs judge it (or why none do).
TEST(OffloadRoofs, TheTextSaysWhichRoofsJudgeIt) {
    const auto gemms = h200_gemms();
    OffloadPoint o;
    o.point = offload_of(gemms, 1e8, 24);
    o.judgement = judge_whole_offload(o.point, h200(), "the latest stored machine model");
    const std::string text = offload_point_text(o);
    EXPECT_TRUE(contains(text, "its FLOPs: fp32 33.3%, fp64 33.3% (100.0% on the tensor cores), fp16 33.3% (100.0% "
                               "on the tensor cores)")) << text;
    EXPECT_TRUE(contains(text, "judged on NVIDIA H200 (GPU 0) of the latest stored machine model: compute FP16 "
                               "tensor peak 9.66e+05 GFLOP/s, the highest roof its work could use")) << text;
    EXPECT_TRUE(contains(text, "bus PCIe h2d pinned 55.1 GB/s (its bus bytes went host to device, 24 B back)")) << text;
    EXPECT_TRUE(contains(text, "bound by PCIe h2d pinned")) << text;
    o.judgement.reset();
    o.not_judged = "the latest stored machine model has no GPU 0";
    EXPECT_TRUE(contains(offload_point_text(o), "not judged here: the latest stored machine model has no GPU 0"));
}
