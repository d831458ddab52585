// Kernel specs and spec-sheet machines: byte counting per level, the worked
// numbers of the Roofline literature, the example files, and parse errors.
#include "core/code_traits.hpp"
#include "core/kernel_footprint.hpp"
#include "core/kernel_spec.hpp"
#include "core/kernel_spec_roofs.hpp"
#include "core/machine_roofline.hpp"
#include "core/roofline.hpp"
#include "io/kernel_spec_yaml.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/yaml_node.hpp"
#include "render/advice_text.hpp"
#include "render/model_report.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>

namespace fs = std::filesystem;
using namespace roofline;

namespace {

const fs::path examples_dir = fs::path(__FILE__).parent_path().parent_path().parent_path() / "examples";

KernelSpec spec_of(const std::string& file, const std::string& name) {
    for (const auto& k : read_kernel_spec_file((examples_dir / "kernels" / file).string()))
        if (k.name == name) return k;
    ADD_FAILURE() << "no kernel " << name << " in " << file;
    return {};
}

Roofline machine_roofline(const std::string& file, const std::string& precision = "dp") {
    return roofline_from_machine_file(load_machine_file((examples_dir / "machines" / file).string()), {precision, 0});
}

Roofline two_number_roofline(double peak, double bandwidth) {
    Roofline r;
    r.label = "test";
    r.compute = {"peak", "", peak};
    r.bandwidth = {{"DRAM bandwidth", "DRAM", bandwidth}};
    return r;
}

ArraySpec array(std::string name, double reads, double writes, std::string resident = "", bool write_allocate = true) {
    ArraySpec a;
    a.name = std::move(name);
    a.reads_per_iteration = reads;
    a.writes_per_iteration = writes;
    a.resident_in = std::move(resident);
    a.write_allocate = write_allocate;
    return a;
}

std::string schema_error(const std::string& text, const std::string& source = "k.yaml") {
    try {
        kernel_specs_from_yaml(text, source);
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "no error";
}

std::string machine_error(const std::string& text) {
    try {
        machine_spec_from_yaml(text, "m.yaml");
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "no error";
}

const Ceiling* find_ceiling(const Roofline& r, const std::string& name) {
    for (const auto& c : r.ceilings)
        if (c.name == name) return &c;
    return nullptr;
}

} // namespace

// ------------------------------------------------------------- literature numbers

TEST(KernelSpecLiterature, MinOfPeakAndBandwidthTimesIntensity) {
    EXPECT_DOUBLE_EQ(attainable(3.0, 10.0, 0.05), 0.5);  // min(3 GF/s, 0.05 F/B x 10 GB/s)
}

TEST(KernelSpecLiterature, VectorTriadWithWriteAllocateIs2FlopPer40Bytes) {
    const KernelSpec triad = spec_of("vector_triad.yaml", "vector-triad");
    EXPECT_DOUBLE_EQ(triad.work_per_iteration, 2);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(triad).at("DRAM"), 40);
    EXPECT_DOUBLE_EQ(nominal_bytes_per_iteration(triad).at("DRAM"), 32);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(triad).at("L1"), 32);  // instructions move no write-allocate bytes
    EXPECT_DOUBLE_EQ(intensity_per_level(triad).at("DRAM"), 0.05);

    const auto on_example = predict(triad, machine_roofline("example_85_8.yaml"), View::carm);
    EXPECT_NEAR(on_example.performance, 1.45, 1e-12);
    EXPECT_EQ(on_example.binding_level, "DRAM");
    // 1e7 iterations x 40 B at 29 GB/s.
    ASSERT_TRUE(on_example.seconds);
    EXPECT_NEAR(*on_example.seconds, 1e7 * 40 / 29e9, 1e-15);
    // Non-temporal stores would lift it to 29 x 2/32.
    ASSERT_FALSE(on_example.lifts.empty());
    EXPECT_NEAR(on_example.lifts.front().performance, 29.0 * 2 / 32, 1e-12);

    const KernelSpec streaming = spec_of("vector_triad.yaml", "vector-triad-nt");
    EXPECT_DOUBLE_EQ(bytes_per_iteration(streaming).at("DRAM"), 32);
}

TEST(KernelSpecPrediction, NeedsABandwidthRoofWhereTheKernelMovesBytes) {
    const KernelSpec triad = spec_of("stream_triad.yaml", "stream-triad");
    // A compute-only model: the triad's bytes meet no roof, so the peak alone would be no prediction.
    Roofline compute_only = two_number_roofline(100, 10);
    compute_only.bandwidth.clear();
    const std::string why = unpredictable_reason(triad, compute_only, View::carm);
    EXPECT_NE(why.find("moves bytes at L1, L2, L3, DRAM"), std::string::npos) << why;
    EXPECT_NE(why.find("no bandwidth roof"), std::string::npos) << why;
    // One roof at a level it moves bytes at is enough (spec sheets give DRAM only).
    EXPECT_EQ(unpredictable_reason(triad, two_number_roofline(100, 10), View::carm), "");
    // A roof of zero is no roof.
    EXPECT_NE(unpredictable_reason(triad, two_number_roofline(100, 0), View::carm), "");
    // ORM: only DRAM counts; an L1 roof does not make a DRAM-streaming kernel predictable.
    Roofline l1_only = two_number_roofline(100, 10);
    l1_only.bandwidth = {{"L1 bandwidth", "L1", 500}};
    EXPECT_EQ(unpredictable_reason(triad, l1_only, View::carm), "");
    EXPECT_NE(unpredictable_reason(triad, l1_only, View::orm), "");
    // A kernel that moves no bytes needs only the compute roof.
    KernelSpec in_registers;
    in_registers.name = "fma-chain";
    in_registers.work_per_iteration = 2;
    EXPECT_EQ(unpredictable_reason(in_registers, compute_only, View::carm), "");
}

TEST(KernelSpecLiterature, DenseMatrixVectorAtQuarterFlopPerByteOn32GBs) {
    KernelSpec mvm;
    mvm.name = "dmvm";
    mvm.work_per_iteration = 2;
    mvm.arrays = {array("A", 1, 0), array("x", 1, 0, "L1"), array("y", 1, 1, "registers")};
    EXPECT_DOUBLE_EQ(intensity_per_level(mvm).at("DRAM"), 0.25);
    EXPECT_DOUBLE_EQ(predict(mvm, two_number_roofline(100, 32), View::orm).performance, 8.0);

    // The example files keep y's traffic of 1/N per iteration: just below 0.25.
    for (const char* name : {"dmvm-row-major", "dmvm-column-major"}) {
        const KernelSpec k = spec_of("dmvm.yaml", name);
        EXPECT_NEAR(intensity_per_level(k).at("DRAM"), 0.25, 0.001) << name;
        EXPECT_NEAR(predict(k, two_number_roofline(100, 32), View::carm).performance, 8.0, 0.02) << name;
    }
    // Column major moves y through L1 and L2 every iteration: more cache traffic, same memory traffic.
    EXPECT_GT(bytes_per_iteration(spec_of("dmvm.yaml", "dmvm-column-major")).at("L2"),
              bytes_per_iteration(spec_of("dmvm.yaml", "dmvm-row-major")).at("L2"));
}

TEST(KernelSpecLiterature, StreamWriteAllocateCorrections) {
    auto correction = [](const KernelSpec& k) {
        return bytes_per_iteration(k).at("DRAM") / nominal_bytes_per_iteration(k).at("DRAM");
    };
    EXPECT_DOUBLE_EQ(correction(spec_of("stream_copy.yaml", "stream-copy")), 3.0 / 2.0);
    EXPECT_DOUBLE_EQ(correction(spec_of("stream_scale.yaml", "stream-scale")), 3.0 / 2.0);
    EXPECT_DOUBLE_EQ(correction(spec_of("stream_add.yaml", "stream-add")), 4.0 / 3.0);
    EXPECT_DOUBLE_EQ(correction(spec_of("stream_triad.yaml", "stream-triad")), 4.0 / 3.0);
    EXPECT_DOUBLE_EQ(correction(spec_of("stream_triad.yaml", "stream-triad-nt")), 1.0);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(spec_of("stream_triad.yaml", "stream-triad")).at("DRAM"), 32);
}

TEST(KernelSpecLiterature, TallSkinnyAtBHasIntensityMOver8) {
    const KernelSpec tsmm = spec_of("tsmm_atb.yaml", "tsmm-atb");
    EXPECT_DOUBLE_EQ(intensity_per_level(tsmm).at("DRAM"), 16.0 / 8.0);
    const auto p = predict(tsmm, machine_roofline("tall_skinny_52.yaml"), View::orm);
    EXPECT_NEAR(p.performance, 104.0, 1e-9);

    for (double m : {4.0, 8.0, 32.0}) {
        const std::string text = "name: t\nflops: 2*M*M\nsizes: {M: " + std::to_string(m) +
                                 "}\narrays:\n  - {name: A, type: double, reads: M}\n"
                                 "  - {name: B, type: double, reads: M}\n"
                                 "  - {name: C, type: double, reads: M*M, writes: M*M, resident_in: L1}\n";
        EXPECT_DOUBLE_EQ(intensity_per_level(kernel_specs_from_yaml(text).front()).at("DRAM"), m / 8) << m;
    }
}

TEST(KernelSpecLiterature, OpteronRidgePoints) {
    const Roofline x2 = machine_roofline("opteron_x2.yaml");
    ASSERT_EQ(x2.bandwidth.size(), 1u);
    EXPECT_DOUBLE_EQ(x2.compute.value, 17.6);
    EXPECT_DOUBLE_EQ(x2.bandwidth.front().value, 15);
    EXPECT_NEAR(ridge_point(x2.compute.value, x2.bandwidth.front().value), 17.6 / 15, 1e-12);

    const Roofline x4 = machine_roofline("opteron_x4.yaml");
    EXPECT_DOUBLE_EQ(x4.compute.value, 73.6);
    EXPECT_NEAR(ridge_point(x4.compute.value, x4.bandwidth.front().value), 4.4, 0.05);
}

// ------------------------------------------------------------- byte counting rules

TEST(KernelSpecBytes, ResidenceDecidesWhichLevelsAnOperandCrosses) {
    KernelSpec k;
    k.work_per_iteration = 1;
    k.arrays = {array("r", 1, 0, "registers")};
    EXPECT_TRUE(bytes_per_iteration(k).empty());

    k.arrays = {array("l1", 1, 0, "L1")};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}}));
    k.arrays = {array("l2", 1, 0, "L2")};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 8}}));
    k.arrays = {array("l3", 1, 0, "L3")};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 8}, {"L3", 8}}));
    k.arrays = {array("mem", 1, 0)};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 8}, {"L3", 8}, {"DRAM", 8}}));
}

TEST(KernelSpecBytes, WriteAllocateBelowL1AndOnlyForStoresNotAlsoRead) {
    KernelSpec k;
    k.work_per_iteration = 1;
    k.arrays = {array("out", 0, 1, "L2")};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 16}}));
    k.arrays = {array("out", 0, 1, "L1")};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}}));
    k.arrays = {array("out", 0, 1, "", false)};
    EXPECT_DOUBLE_EQ(bytes_per_iteration(k).at("DRAM"), 8);
    // daxpy: y is loaded before it is stored: 24 B at every level.
    const KernelSpec daxpy = spec_of("daxpy.yaml", "daxpy");
    for (const auto& level : spec_levels()) EXPECT_DOUBLE_EQ(bytes_per_iteration(daxpy).at(level), 24) << level;
}

// Non-temporal stores bypass the caches (L1 counts the instructions, DRAM the bytes);
// write_allocate: false alone only drops the read for ownership, the stores still pass
// through L2 and L3. The two used to be one: a non-temporal triad had 24 B at L2 and L3.
TEST(KernelSpecBytes, NonTemporalStoresSkipTheCachesNoReadForOwnershipDoesNot) {
    KernelSpec k;
    k.work_per_iteration = 2;
    ArraySpec nt = array("a", 0, 1);
    nt.non_temporal = true;
    nt.write_allocate = false;
    k.arrays = {nt, array("b", 1, 0), array("c", 1, 0)};
    const std::map<std::string, double> streaming{{"L1", 24}, {"L2", 16}, {"L3", 16}, {"DRAM", 24}};
    EXPECT_EQ(bytes_per_iteration(k), streaming);
    EXPECT_EQ(nominal_bytes_per_iteration(k), streaming);
    k.arrays[0] = array("a", 0, 1, "", false);
    const std::map<std::string, double> no_rfo{{"L1", 24}, {"L2", 24}, {"L3", 24}, {"DRAM", 24}};
    EXPECT_EQ(bytes_per_iteration(k), no_rfo);
    // A non-temporal store of an array the loop also reads: the loads still come in.
    ArraySpec y = array("y", 1, 1);
    y.non_temporal = true;
    y.write_allocate = false;
    k.arrays = {y};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 16}, {"L2", 8}, {"L3", 8}, {"DRAM", 16}}));

    const auto triads = read_kernel_spec_file((examples_dir / "kernels" / "stream_triad.yaml").string());
    ASSERT_EQ(triads.size(), 2u);
    EXPECT_TRUE(triads[1].arrays[0].non_temporal);
    EXPECT_EQ(bytes_per_iteration(triads[1]), streaming);
}

// The lift a DRAM-bound kernel with write-allocating stores is shown: non-temporal stores,
// which now also drop the stores from L2 and L3; never for an output kept in a cache.
TEST(KernelSpecPrediction, NonTemporalLiftIsForStreamedOutputsOnly) {
    Roofline r = two_number_roofline(1000, 10);
    const KernelSpec triad = spec_of("stream_triad.yaml", "stream-triad");
    const auto p = predict(triad, r, View::carm);
    ASSERT_FALSE(p.lifts.empty());
    EXPECT_EQ(p.lifts.front().kind, KernelPrediction::Lift::Kind::non_temporal_stores);
    EXPECT_NEAR(p.lifts.front().performance, 10.0 * 2 / 24, 1e-9);
    KernelSpec cached = triad;
    cached.arrays[0].resident_in = "L2";
    for (const auto& lift : predict(cached, r, View::carm).lifts)
        EXPECT_NE(lift.kind, KernelPrediction::Lift::Kind::non_temporal_stores);
}

// The precision of a kernel's FLOPs, which decides its compute roof: an all-float
// SGEMM was judged against the DP peak (half the SP one) and its point carried none.
TEST(KernelSpecPrecision, FollowsTheElementTypesOrTheDeclaration) {
    const auto one = [](const std::string& yaml) { return kernel_specs_from_yaml(yaml, "k.yaml").at(0); };
    const std::string head = "name: k\nflops: 2\nsizes: {N: 1000}\niterations: N\n";
    const KernelSpec floats = one(head + "arrays:\n  - {name: x, type: float, reads: 1}\n"
                                         "  - {name: y, type: float32, reads: 1, writes: 1}\n"
                                         "  - {name: i, type: int32, reads: 1}\n");
    EXPECT_EQ(spec_precision(floats).precision, "sp");
    EXPECT_EQ(spec_precision(floats).basis, SpecPrecision::Basis::element_types);
    const Point p = point_from_spec(floats);
    EXPECT_DOUBLE_EQ(p.details.at("flops_f32"), 2000);
    EXPECT_EQ(p.details.count("flops_f64"), 0u);
    EXPECT_EQ(point_precision(p), std::optional<std::string>("sp"));  // report and plot read it so

    const KernelSpec doubles = spec_of("daxpy.yaml", "daxpy");
    EXPECT_EQ(spec_precision(doubles).precision, "dp");
    EXPECT_EQ(point_precision(point_from_spec(doubles)), std::optional<std::string>("dp"));

    const std::string mixed_arrays = "arrays:\n  - {name: x, type: float, reads: 1}\n"
                                     "  - {name: y, type: double, reads: 1, writes: 1}\n";
    const KernelSpec mixed = one(head + mixed_arrays);
    EXPECT_EQ(spec_precision(mixed).basis, SpecPrecision::Basis::mixed_types);
    EXPECT_EQ(spec_precision(mixed).precision, "");
    EXPECT_EQ(spec_precision(mixed).types, (std::vector<std::string>{"sp", "dp"}));
    EXPECT_FALSE(point_precision(point_from_spec(mixed)));

    const KernelSpec declared = one(head + "precision: single\n" + mixed_arrays);
    EXPECT_EQ(declared.precision, "sp");
    EXPECT_EQ(spec_precision(declared).basis, SpecPrecision::Basis::declared);
    EXPECT_EQ(point_precision(point_from_spec(declared)), std::optional<std::string>("sp"));

    // element_bytes says nothing of the type; integers are not FLOP data; other work no FLOP roof.
    EXPECT_EQ(spec_precision(one(head + "arrays:\n  - {name: x, element_bytes: 4, reads: 1}\n")).basis,
              SpecPrecision::Basis::unknown);
    EXPECT_EQ(spec_precision(one(head + "arrays:\n  - {name: x, type: int64, reads: 1}\n")).basis,
              SpecPrecision::Basis::unknown);
    const KernelSpec iops = one("name: k\nwork_per_iteration: 1\nwork_unit: IOP\n"
                                "arrays:\n  - {name: x, type: float, reads: 1}\n");
    EXPECT_EQ(spec_precision(iops).basis, SpecPrecision::Basis::unknown);
    EXPECT_TRUE(point_from_spec(iops).details.count("flops_f32") == 0);
}

TEST(KernelSpecErrors, DeclaredPrecisionMustBeAFlopPrecisionOfFlopWork) {
    const std::string arrays = "arrays:\n  - {name: x, type: double, reads: 1}\n";
    EXPECT_NE(schema_error("name: k\nflops: 1\nprecision: quad\n" + arrays).find("precision: expected dp or sp"),
              std::string::npos);
    EXPECT_NE(schema_error("name: k\nflops: 1\nprecision: int8\n" + arrays).find("precision: expected dp or sp"),
              std::string::npos);
    EXPECT_NE(schema_error("name: k\nwork_per_iteration: 1\nwork_unit: IOP\nprecision: dp\n" + arrays)
                  .find("'precision' is for FLOP work, not IOP"),
              std::string::npos);
    EXPECT_EQ(schema_error("name: k\nflops: 1\nprecision: FP64\n" + arrays), "no error");
}

TEST(KernelSpecBytes, PointFromSpecIsAnalyticAndScalesWithIterations) {
    const KernelSpec triad = spec_of("stream_triad.yaml", "stream-triad");
    const Point p = point_from_spec(triad);
    EXPECT_EQ(p.source, PointOrigin::analytic);
    EXPECT_EQ(p.seconds, 0);
    EXPECT_DOUBLE_EQ(p.work, 2 * 2e7);
    EXPECT_DOUBLE_EQ(p.bytes.at("DRAM"), 32 * 2e7);
    EXPECT_DOUBLE_EQ(p.details.at("iterations"), 2e7);
    // The instructions' loads and stores (L1) travel with it.
    EXPECT_DOUBLE_EQ(p.details.at("bytes_loaded"), 16 * 2e7);
    EXPECT_DOUBLE_EQ(p.details.at("bytes_stored"), 8 * 2e7);
}

static ArraySpec operand(const std::string& name, double element_bytes, double reads, double writes) {
    ArraySpec a;
    a.name = name;
    a.element_bytes = element_bytes;
    a.reads_per_iteration = reads;
    a.writes_per_iteration = writes;
    return a;
}

// A point from a spec carries its mix, so report judges it by it: a read-only sum in DRAM is
// not told "fewer store streams" (it stores nothing), nor zaxpy (one store per two loads, a
// triad's mix already); before, both were, beside the read-only ceiling's own step.
TEST(KernelSpecBytes, PointFromSpecCarriesItsLoadStoreMixForReport) {
    KernelSpec sum;
    sum.name = "norm2-sp";
    sum.work_per_iteration = 2;
    sum.iterations = 1e8;
    sum.arrays = {operand("a", 4, 1, 0), operand("s", 4, 1, 1)};
    sum.arrays[1].resident_in = "registers";
    const Point p = point_from_spec(sum);
    EXPECT_DOUBLE_EQ(p.details.at("bytes_loaded"), 4e8);
    EXPECT_DOUBLE_EQ(p.details.at("bytes_stored"), 0);

    KernelSpec zaxpy;
    zaxpy.name = "zaxpy";
    zaxpy.work_per_iteration = 8;
    zaxpy.iterations = 1e7;
    zaxpy.arrays = {operand("x", 16, 1, 0), operand("y", 16, 1, 1)};
    const Point z = point_from_spec(zaxpy);
    EXPECT_DOUBLE_EQ(z.details.at("bytes_loaded"), 32e7);
    EXPECT_DOUBLE_EQ(z.details.at("bytes_stored"), 16e7);

    // As report judges them on a Zen 5 core's --quick roofline at DRAM (copy+WA 74.6 GB/s on top,
    // triad+WA 71.7 and load 54.4 under it): no step asks either to store less.
    Roofline r;
    r.label = "zen5";
    r.threads = 2;
    r.compute = {"SP peak", "", 757};
    r.bandwidth = {{"DRAM copy+WA", "DRAM", 74.6, 0, 0.5}};
    r.ceilings = {{"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 54.4, "", true},
                  {"DRAM triad+WA", CeilingKind::bandwidth, "pattern", "DRAM", 71.7, "", false}};
    for (auto [point, precision, gbs] : {std::tuple{p, "sp", 54.4}, std::tuple{z, "dp", 71.7}}) {
        r.precision = precision;
        point.seconds = point.bytes.at("DRAM") / (gbs * 1e9);
        const auto a = analyze(r, point, View::carm);
        ASSERT_FALSE(a.next_steps.empty()) << point.name;
        for (const auto& step : a.next_steps)
            EXPECT_FALSE(step.kind == NextStep::Kind::lift_ceiling && step.ceiling.category == "pattern" &&
                         !step.ceiling.read_only)
                << point.name << ": " << next_step_text(r, step);
    }
}

TEST(KernelSpecBytes, PointFromSpecCountsTheArraysItWrites) {
    // Its store streams: the operands written that registers do not keep (report names streams
    // only for a loop known to write several).
    KernelSpec fill;
    fill.name = "fill";
    fill.work_per_iteration = 1;
    fill.iterations = 1e6;
    fill.arrays = {operand("y", 8, 0, 1)};
    EXPECT_DOUBLE_EQ(point_from_spec(fill).details.at(kStoreStreamsDetail), 1);
    fill.arrays.push_back(operand("z", 8, 0, 1));
    fill.arrays.push_back(operand("s", 8, 1, 1));
    fill.arrays.back().resident_in = "registers";
    EXPECT_DOUBLE_EQ(point_from_spec(fill).details.at(kStoreStreamsDetail), 2);
}

TEST(KernelSpecBytes, StencilLayerConditionGives24BytesFromMemory) {
    const KernelSpec stencil = spec_of("stencil_3d_7pt.yaml", "stencil-3d-7pt");
    EXPECT_DOUBLE_EQ(bytes_per_iteration(stencil).at("DRAM"), 24);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(stencil).at("L1"), 64);  // 7 loads + 1 store
    EXPECT_NEAR(intensity_per_level(stencil).at("DRAM"), 1.0 / 3.0, 1e-12);
}

TEST(KernelSpecBytes, CopyWithoutWorkStillHasATime) {
    const KernelSpec copy = spec_of("stream_copy.yaml", "stream-copy");
    const auto p = predict(copy, two_number_roofline(10, 20), View::carm);
    ASSERT_TRUE(p.seconds);
    EXPECT_NEAR(*p.seconds, 2e7 * 24 / 20e9, 1e-15);
    EXPECT_EQ(p.binding_level, "DRAM");
    EXPECT_DOUBLE_EQ(p.performance, 0);
}

TEST(KernelSpecBytes, CarmBindsAtTheTightestLevel) {
    Roofline r = two_number_roofline(100, 10);
    r.bandwidth.insert(r.bandwidth.begin(), Roof{"L1 load", "L1", 20});
    KernelSpec k;
    k.work_per_iteration = 1;
    k.arrays = {array("hot", 4, 0, "L1"), array("cold", 0.125, 0)};
    // L1: 33 B at 20 GB/s, DRAM: 1 B at 10 GB/s: L1 binds in CARM, DRAM alone in ORM.
    EXPECT_EQ(predict(k, r, View::carm).binding_level, "L1");
    EXPECT_NEAR(predict(k, r, View::carm).performance, 20.0 / 33, 1e-12);
    EXPECT_EQ(predict(k, r, View::orm).binding_level, "DRAM");
}

// ------------------------------------------------------------- example files

TEST(KernelSpecExamples, EveryKernelFileParsesAndPredicts) {
    int files = 0;
    const Roofline r = machine_roofline("opteron_x4.yaml");
    for (const auto& entry : fs::directory_iterator(examples_dir / "kernels")) {
        if (entry.path().extension() != ".yaml") continue;
        ++files;
        const auto specs = read_kernel_spec_file(entry.path().string());
        ASSERT_FALSE(specs.empty()) << entry.path();
        for (const auto& k : specs) {
            EXPECT_FALSE(k.name.empty()) << entry.path();
            EXPECT_TRUE(k.iterations) << k.name;
            const auto p = predict(k, r, View::carm);
            EXPECT_GT(p.seconds_per_iteration, 0) << k.name;
        }
    }
    EXPECT_GE(files, 13);
}

// The counts each example's comment states, per iteration: FLOPs, DRAM bytes
// nominal and with write-allocate (the comment is the reference a reader checks).
TEST(KernelSpecExamples, CountsMatchTheirComments) {
    struct Expected {
        const char* file;
        double flops, dram_nominal, dram_with_write_allocate;
    };
    const Expected expected[] = {
        {"daxpy.yaml", 2, 24, 24},          // the store hits the line the load brought in
        {"dot.yaml", 2, 16, 16},
        {"stream_copy.yaml", 0, 16, 24},
        {"stream_scale.yaml", 1, 16, 24},
        {"stream_add.yaml", 1, 24, 32},
        {"vector_sum.yaml", 1, 8, 8},
        {"vector_norm.yaml", 2, 8, 8},
        {"vector_triad.yaml", 2, 32, 40},
    };
    for (const auto& e : expected) {
        const auto specs = read_kernel_spec_file((examples_dir / "kernels" / e.file).string());
        ASSERT_FALSE(specs.empty()) << e.file;
        const KernelSpec& k = specs.front();
        EXPECT_DOUBLE_EQ(k.work_per_iteration, e.flops) << e.file;
        EXPECT_DOUBLE_EQ(nominal_bytes_per_iteration(k).at("DRAM"), e.dram_nominal) << e.file;
        EXPECT_DOUBLE_EQ(bytes_per_iteration(k).at("DRAM"), e.dram_with_write_allocate) << e.file;
    }
    // STREAM triad: 2 FLOP, 24 B nominal, 32 with write-allocate; its non-temporal twin 24.
    const auto triad = read_kernel_spec_file((examples_dir / "kernels" / "stream_triad.yaml").string());
    ASSERT_EQ(triad.size(), 2u);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(triad[0]).at("DRAM"), 32);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(triad[1]).at("DRAM"), 24);
}

TEST(KernelSpecExamples, EveryMachineFileGivesARoofline) {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(examples_dir / "machines")) {
        if (entry.path().extension() != ".yaml") continue;
        ++files;
        const MachineFile m = load_machine_file(entry.path().string());
        EXPECT_TRUE(m.spec_sheet);
        EXPECT_EQ(m.model.schema, "roofline.machine/1");
        const Roofline r = roofline_from_machine_file(m, {"dp", 0});
        EXPECT_GT(r.compute.value, 0) << entry.path();
        EXPECT_FALSE(r.bandwidth.empty()) << entry.path();
    }
    EXPECT_GE(files, 3);
}

TEST(KernelSpecExamples, SpecSheetCeilingsKeepTheirNamesAndValues) {
    const Roofline x4 = machine_roofline("opteron_x4.yaml");
    EXPECT_EQ(x4.compute.name, "DP peak");
    ASSERT_EQ(x4.bandwidth.size(), 1u);
    EXPECT_EQ(x4.bandwidth.front().name, "DRAM bandwidth");
    struct Expected {
        const char* name;
        const char* kind;
        const char* category;
        double value;
    };
    for (const Expected& e : {Expected{"mul/add imbalance", "compute", "balance", 36.8},
                              Expected{"w/out SIMD", "compute", "simd", 18.4},
                              Expected{"w/out ILP", "compute", "ilp", 9.2},
                              Expected{"w/out SW prefetch", "bandwidth", "prefetch", 11},
                              Expected{"w/out memory affinity", "bandwidth", "numa", 8}}) {
        const Ceiling* c = find_ceiling(x4, e.name);
        ASSERT_NE(c, nullptr) << e.name;
        EXPECT_STREQ(ceiling_kind_name(c->kind), e.kind) << e.name;
        EXPECT_EQ(c->category, e.category) << e.name;
        EXPECT_DOUBLE_EQ(c->value, e.value) << e.name;
    }
    EXPECT_EQ(x4.ceilings.size(), 5u);  // nothing generated twice
    // Compute ceilings first, then bandwidth, each descending.
    EXPECT_EQ(x4.ceilings.front().name, "mul/add imbalance");
    EXPECT_EQ(x4.ceilings.back().name, "w/out memory affinity");

    // The SP roofline has the SP peak and no DP ceilings.
    const Roofline sp = machine_roofline("opteron_x4.yaml", "sp");
    EXPECT_DOUBLE_EQ(sp.compute.value, 147.2);
    EXPECT_EQ(find_ceiling(sp, "w/out SIMD"), nullptr);
}

TEST(KernelSpecExamples, PerThreadFiguresGiveOneRooflinePerThreadCount) {
    const MachineFile m = load_machine_file((examples_dir / "machines" / "tall_skinny_52.yaml").string());
    const Roofline one = roofline_from_machine_file(m, {"dp", 1});
    EXPECT_DOUBLE_EQ(one.compute.value, 41.6);
    ASSERT_EQ(one.bandwidth.size(), 3u);
    EXPECT_EQ(one.bandwidth.back().level, "DRAM");
    EXPECT_DOUBLE_EQ(one.bandwidth.back().value, 14);
    const Roofline all = roofline_from_machine_file(m, {"dp", 0});
    EXPECT_EQ(all.threads, 24);
    EXPECT_TRUE(find_ceiling(all, "DRAM 1 thread"));
}

// A sheet's cache size is one instance's: L1 and L2 one per core, L3 and L4 one per socket,
// unless 'shared_by_cores' says otherwise. Opteron X4 (Barcelona, 2 sockets x 4 cores):
// 64 KiB L1 and 512 KiB L2 per core, a 2 MiB L3 per socket. Before, each level was one
// instance for the machine: 8 threads had 64 KiB of L1 among them.
TEST(KernelSpecExamples, SpecSheetCachesArePerCoreOrAsShared) {
    const MachineFile m = load_machine_file((examples_dir / "machines" / "opteron_x4.yaml").string());
    ASSERT_EQ(m.model.caches.size(), 3u);
    const auto& l1 = m.model.caches[0];
    const auto& l2 = m.model.caches[1];
    const auto& l3 = m.model.caches[2];
    EXPECT_EQ(l1.level, 1);
    EXPECT_EQ(l1.size_bytes, 64u << 10);
    EXPECT_EQ(l1.shared_by_cores, 1);
    EXPECT_EQ(l1.instances, 8);
    EXPECT_EQ(l2.shared_by_cores, 1);
    EXPECT_EQ(l2.instances, 8);
    EXPECT_EQ(l3.size_bytes, 2u << 20);
    EXPECT_EQ(l3.shared_by_cores, 4);
    EXPECT_EQ(l3.instances, 2);
    // What a team holds: one L1 each, the L3s of the sockets it reaches (threads on consecutive cores).
    const auto at = [&](int threads, const std::string& level) {
        for (const auto& c : cache_capacities(m.model.caches, threads))
            if (c.level == level) return c.bytes;
        return -1.0;
    };
    EXPECT_DOUBLE_EQ(at(1, "L1"), 64 << 10);
    EXPECT_DOUBLE_EQ(at(8, "L1"), 8 * (64 << 10));
    EXPECT_DOUBLE_EQ(at(8, "L2"), 8 * (512 << 10));
    EXPECT_DOUBLE_EQ(at(4, "L3"), 2 << 20);
    EXPECT_DOUBLE_EQ(at(8, "L3"), 2 * (2 << 20));

    // The sharing written: an L2 for each pair of cores, one L3 slice per core; an L4 of one socket.
    const MachineFile shared = machine_spec_from_yaml(
        "name: m\nsockets: 2\ncores: 6\ncaches: {L1: 48KiB, L2: {size: 2MiB, shared_by_cores: 2}, "
        "L3: {size: 4MiB, shared_by_cores: 1}, L4: 64MiB}\npeak: {dp: 100}\nbandwidth: {DRAM: 50}\n",
        "m.yaml");
    ASSERT_EQ(shared.model.caches.size(), 4u);
    EXPECT_EQ(shared.model.caches[0].instances, 6);
    EXPECT_EQ(shared.model.caches[1].size_bytes, 2u << 20);
    EXPECT_EQ(shared.model.caches[1].shared_by_cores, 2);
    EXPECT_EQ(shared.model.caches[1].instances, 3);
    EXPECT_EQ(shared.model.caches[2].shared_by_cores, 1);
    EXPECT_EQ(shared.model.caches[2].instances, 6);
    EXPECT_EQ(shared.model.caches[3].shared_by_cores, 3);
    EXPECT_EQ(shared.model.caches[3].instances, 2);
    // No cores written (a GPU's sheet): one of each, as before.
    const MachineFile bare = machine_spec_from_yaml("name: g\ncaches: {L1: 128KiB, L2: 50MiB}\npeak: {dp: 60}\n"
                                                    "bandwidth: {DRAM: 3000}\n", "g.yaml");
    for (const auto& c : bare.model.caches) EXPECT_EQ(c.instances, 1) << c.level;
}

TEST(KernelSpecExamples, OtherWorkUnitsAndJsonMachinesLoadToo) {
    const MachineFile sheet = machine_spec_from_yaml("name: switch\ncores: 1\npeak: {exchange: 5}\nbandwidth: {DRAM: 10}\n");
    const Roofline r = roofline_from_machine_file(sheet, {"exchange", 0});
    EXPECT_EQ(r.work_unit, "exchange");
    const KernelSpec k = kernel_specs_from_yaml("name: sort\nwork_unit: exchange\nwork_per_iteration: 1\n"
                                                "arrays: [{name: keys, type: int32, reads: 1, writes: 1}]\n")
                             .front();
    EXPECT_EQ(k.work_unit, "exchange");
    EXPECT_DOUBLE_EQ(predict(k, r, View::carm).performance, 10.0 / 8);

    const fs::path json_path = fs::temp_directory_path() / "roofline_kernel_spec_test_machine.json";
    write_machine_file(json_path.string(), sheet.model);
    const MachineFile back = load_machine_file(json_path.string());
    fs::remove(json_path);
    EXPECT_FALSE(back.spec_sheet);
    EXPECT_EQ(back.model.cpu.model, "switch");
}

// ------------------------------------------------------------- errors

TEST(KernelSpecErrors, MalformedYamlNamesFileLineAndColumn) {
    const std::string e = schema_error("name: x\nflops: 2\narrays: [\n  {name: a\n", "bad.yaml");
    EXPECT_NE(e.find("bad.yaml:"), std::string::npos) << e;
    EXPECT_NE(e.find("invalid YAML"), std::string::npos) << e;
}

// One array in two entries counted its traffic apart (a read in one, a write in the other paid a
// write-allocate read): 24 B where one entry with reads and writes moves 16 B, without a word.
// Two kernels of one name gave two points of one name. Both are refused, naming both places.
TEST(KernelSpecErrors, NamesGivenTwiceAreRefused) {
    std::string e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: double, reads: 1}\n"
                                 "  - {name: b, type: double, reads: 1}\n  - {name: a, type: double, writes: 1}\n");
    EXPECT_NE(e.find("k.yaml:6:5: arrays[2]: array 'a' is declared twice in kernel 'x' (first at k.yaml:4:5): give it "
                     "one entry with its reads and writes"),
              std::string::npos)
        << e;
    e = schema_error("kernels:\n  - {name: x, flops: 1, arrays: [{name: a, type: double, reads: 1}]}\n"
                     "  - {name: y, flops: 1, arrays: [{name: a, type: double, reads: 1}]}\n"
                     "  - {name: x, flops: 2, arrays: [{name: a, type: double, reads: 1}]}\n");
    EXPECT_NE(e.find("k.yaml:4:5: kernels[2]: kernel 'x' is named twice (first at k.yaml:2:5)"), std::string::npos)
        << e;
    // The same array name in two kernels is two arrays.
    EXPECT_EQ(schema_error("kernels:\n  - {name: x, flops: 1, arrays: [{name: a, type: double, reads: 1}]}\n"
                           "  - {name: y, flops: 1, arrays: [{name: a, type: double, reads: 1}]}\n"),
              "no error");
}

TEST(KernelSpecErrors, WrongSchemaNamesThePlaceAndWhatWasExpected) {
    std::string e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: double, reads: lots}\n");
    EXPECT_NE(e.find("k.yaml:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("arrays[0].reads"), std::string::npos) << e;
    EXPECT_NE(e.find("expected a number or arithmetic of sizes, found 'lots'"), std::string::npos) << e;

    e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: double, reads: 1, writes_allocate: no}\n");
    EXPECT_NE(e.find("k.yaml:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("unknown key 'writes_allocate'"), std::string::npos) << e;

    e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: quad, reads: 1}\n");
    EXPECT_NE(e.find("expected a type"), std::string::npos) << e;

    e = schema_error("flops: 2\narrays: []\n");
    EXPECT_NE(e.find("k.yaml:1:1: missing 'name'"), std::string::npos) << e;

    e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: double, resident_in: L7, reads: 1}\n");
    EXPECT_NE(e.find("expected registers, L1, L2, L3 or memory"), std::string::npos) << e;

    e = schema_error("name: x\nflops: 2\narrays:\n  - {name: a, type: double}\n");
    EXPECT_NE(e.find("neither 'reads' nor 'writes'"), std::string::npos) << e;

    e = schema_error("- 1\n- 2\n");
    EXPECT_NE(e.find("expected a mapping"), std::string::npos) << e;
}

TEST(KernelSpecErrors, NonTemporalStoresThatCannotBe) {
    const std::string head = "name: k\nflops: 1\narrays:\n";
    EXPECT_NE(schema_error(head + "  - {name: a, type: double, reads: 1, non_temporal: true}\n")
                  .find("array 'a' is stored non-temporally but has no 'writes'"),
              std::string::npos);
    EXPECT_NE(schema_error(head + "  - {name: a, type: double, writes: 1, non_temporal: true, resident_in: L2}\n")
                  .find("non-temporal stores, which bypass the caches: it cannot stay in L2"),
              std::string::npos);
    EXPECT_NE(schema_error(head + "  - {name: a, type: double, writes: 1, non_temporal: true, write_allocate: true}\n")
                  .find("drop 'write_allocate: true'"),
              std::string::npos);
    EXPECT_EQ(schema_error(head + "  - {name: a, type: double, writes: 1, non_temporal: true, resident_in: memory}\n"),
              "no error");
    EXPECT_EQ(schema_error(head + "  - {name: a, type: double, writes: 1, non_temporal: false}\n"), "no error");
}

TEST(KernelSpecErrors, StridesAndKeptLinesThatCannotBe) {
    const std::string head = "name: k\nflops: 1\nsizes: {N: 8}\narrays:\n";
    EXPECT_EQ(schema_error(head + "  - {name: a, type: double, reads: 1, stride: N}\n"), "no error");
    EXPECT_EQ(schema_error(head + "  - {name: a, type: double, reads: 1, stride: random, lines_kept_in: L3}\n"),
              "no error");
    std::string e = schema_error(head + "  - {name: a, type: double, reads: 1, stride: 0}\n");
    EXPECT_NE(e.find("'random' or a stride in elements of at least 1"), std::string::npos) << e;
    e = schema_error(head + "  - {name: a, type: double, reads: 1, stride: sideways}\n");
    EXPECT_NE(e.find("k.yaml"), std::string::npos) << e;
    e = schema_error(head + "  - {name: a, type: double, reads: 1, lines_kept_in: L2}\n");
    EXPECT_NE(e.find("'lines_kept_in' is for a 'stride' above 1 or 'random'"), std::string::npos) << e;
    e = schema_error(head + "  - {name: a, type: double, reads: 1, stride: 8, lines_kept_in: memory}\n");
    EXPECT_NE(e.find("L1, L2 or L3"), std::string::npos) << e;
    e = schema_error(head + "  - {name: a, type: double, reads: 1, stride: 8, resident_in: L2, lines_kept_in: L2}\n");
    EXPECT_NE(e.find("array 'a' stays in L2: its lines cannot be kept in L2"), std::string::npos) << e;
    e = schema_error(head + "  - {name: a, type: double, writes: 1, stride: 8, non_temporal: true}\n");
    EXPECT_NE(e.find("non-temporal stores are modelled for contiguous operands only"), std::string::npos) << e;
}

TEST(KernelSpecBytes, StridedOperandsMoveLinesDownToWhereTheyAreKept) {
    KernelSpec k;
    k.work_per_iteration = 1;
    ArraySpec a = array("a", 1, 0);
    a.stride = 8;
    k.arrays = {a};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 64}, {"L3", 64}, {"DRAM", 64}}));
    k.line_bytes = 128;  // the machine's line, not a constant
    EXPECT_DOUBLE_EQ(bytes_per_iteration(k).at("DRAM"), 64);  // 8 doubles apart: 64 B of each 128 B line
    k.arrays[0].stride = 32;
    EXPECT_DOUBLE_EQ(bytes_per_iteration(k).at("DRAM"), 128);
    // A store: the line is read for ownership and written back at each level it moves whole.
    ArraySpec b = array("b", 0, 1);
    b.stride = 1000;
    b.lines_kept_in = "L2";
    k.line_bytes = 64;
    k.arrays = {b};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 8}, {"L2", 128}, {"L3", 16}, {"DRAM", 16}}));
    EXPECT_EQ(nominal_bytes_per_iteration(k),
              (std::map<std::string, double>{{"L1", 8}, {"L2", 64}, {"L3", 8}, {"DRAM", 8}}));
    // Random: a line per access, down to where the operand stays.
    ArraySpec h = array("h", 1, 1, "L2");
    h.random = true;
    k.arrays = {h};
    EXPECT_EQ(bytes_per_iteration(k), (std::map<std::string, double>{{"L1", 16}, {"L2", 128}}));
}

// A sum compiled without -ffast-math runs at one add per add latency (2.1 GFLOP/s on a
// 4.3 GHz Zen 5 core, bench/model-vs-measured.sh) where the model predicted 6.9 from DRAM:
// a scalar accumulator says so, with the rate one chain reaches at the roofline's clock.
TEST(KernelSpecPrediction, ScalarAccumulatorGivesTheOneChainRate) {
    Roofline r = two_number_roofline(200, 50);
    r.clock_ghz = 4;
    KernelSpec sum;
    sum.work_per_iteration = 2;  // a dot product: a multiply and an add per accumulation
    ArraySpec s = array("s", 1, 1, "registers");
    s.elements = 1;
    sum.arrays = {array("a", 1, 0), array("b", 1, 0), s};
    const auto p = predict(sum, r, View::carm);
    EXPECT_NEAR(p.performance, 6.25, 1e-9);  // 50 GB/s x 2/16: the prediction is unchanged
    ASSERT_TRUE(p.one_chain_performance);
    EXPECT_DOUBLE_EQ(*p.one_chain_performance, 4.0);  // 4 GHz / 2 cycles x 2 FLOP
    EXPECT_EQ(p.accumulators, std::vector<std::string>{"s"});
    r.threads = 2;
    EXPECT_FALSE(predict(sum, r, View::carm).one_chain_performance);  // 2 threads' chains: 8, above 6.25
    r.threads = 1;
    // An accumulator of unknown size (a GEMM's register block), no clock, or a chain faster
    // than the prediction: nothing said.
    KernelSpec block = sum;
    block.arrays[2].elements.reset();
    EXPECT_FALSE(predict(block, r, View::carm).one_chain_performance);
    Roofline no_clock = r;
    no_clock.clock_ghz = 0;
    EXPECT_FALSE(predict(sum, no_clock, View::carm).one_chain_performance);
    Roofline slow_memory = two_number_roofline(200, 5);
    slow_memory.clock_ghz = 4;
    EXPECT_FALSE(predict(sum, slow_memory, View::carm).one_chain_performance);
}

TEST(KernelSpecErrors, ExpressionsOfSizes) {
    const auto k = kernel_specs_from_yaml("name: x\nflops: 2*(M+N)/4\nsizes: {M: 6, N: 10, b: 4}\niterations: M*N\n"
                                          "arrays:\n  - {name: a, type: double, reads: 2/b - 1/N}\n")
                       .front();
    EXPECT_DOUBLE_EQ(k.work_per_iteration, 8);
    EXPECT_DOUBLE_EQ(*k.iterations, 60);
    EXPECT_EQ(k.iterations_text, "M*N");
    EXPECT_DOUBLE_EQ(k.arrays.front().reads_per_iteration, 0.5 - 0.1);
    const std::string e = schema_error("name: x\nflops: 1/0\narrays: []\n");
    EXPECT_NE(e.find("division by zero"), std::string::npos) << e;
}

// Hostile expressions: no stack overflow from nesting, no "inf FLOP" from overflow.
TEST(KernelSpecErrors, ExpressionsNestedTooDeepOrOverflowingAreRefused) {
    for (const std::string& deep : {std::string(50000, '(') + "1" + std::string(50000, ')'), std::string(50000, '-') + "1"}) {
        const std::string e = schema_error("name: x\nflops: \"" + deep + "\"\narrays: []\n");
        EXPECT_NE(e.find("nested more than 200 deep"), std::string::npos) << e.substr(0, 300);
        EXPECT_LT(e.size(), 400u);  // the expression is shortened in the message
    }
    // 200 levels are still fine.
    const auto k = kernel_specs_from_yaml("name: x\nflops: \"" + std::string(199, '(') + "3" + std::string(199, ')') +
                                          "\"\narrays: []\n");
    EXPECT_DOUBLE_EQ(k.front().work_per_iteration, 3);
    for (const std::string& huge : {std::string("1e309"), std::string("N*N"), std::string("N*N - N*N")}) {
        const std::string e = schema_error("name: x\nflops: " + huge + "\nsizes: {N: 1e308}\narrays: []\n");
        EXPECT_NE(e.find("overflows a double"), std::string::npos) << huge << ": " << e;
    }
    // Finite figures whose product is not: the totals are checked too.
    std::string e = schema_error("name: x\nsizes: {N: 1e200}\nflops: N\niterations: N\n"
                                 "arrays:\n  - {name: a, type: double, reads: 1}\n");
    EXPECT_NE(e.find("the kernel's total work is inf FLOP; expected a count of 0, or from 1e-6 to 1e24"), std::string::npos) << e;
    e = schema_error("name: x\nsizes: {N: 1e20}\nflops: 1\niterations: N\narrays:\n  - {name: a, type: double, reads: N}\n");
    EXPECT_NE(e.find("total bytes at DRAM are 8e+40"), std::string::npos) << e;
}

// Documents that read differently than they look, or expand without bound.
TEST(KernelSpecErrors, DuplicateKeysAliasBombsAndDeepNestingAreRefused) {
    std::string e = schema_error("name: x\nflops: 2\nflops: 3\narrays: []\n");
    EXPECT_NE(e.find("k.yaml:3:1: key 'flops' appears twice in one mapping"), std::string::npos) << e;
    // Nine levels of ten aliases each: a billion nodes if expanded.
    std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        bomb += fmt::format("a{}: &a{} [", i, i);
        for (int j = 0; j < 10; ++j) bomb += fmt::format("{}*a{}", j ? ", " : "", i - 1);
        bomb += "]\n";
    }
    e = schema_error(bomb);
    EXPECT_NE(e.find("more than 1000000 YAML nodes"), std::string::npos) << e;
    e = schema_error("name: x\nflops: " + std::string(300, '[') + std::string(300, ']') + "\narrays: []\n");
    EXPECT_NE(e.find("nested more than 200 levels deep"), std::string::npos) << e.substr(0, 300);
}

// 'DP: 20', 'double: 20' or 'fp64: 20' in a sheet's peak was a work unit of that name
// ("DP peak 20 GDP/s", a FLOP kernel judged against it with a warning), not the dp peak the
// precision table reads every such spelling as; and a precision or level given under two
// spellings kept one of them without a word ('dp: 10, DP: 20' the first, 'DRAM: 29, dram: 30'
// the second).
TEST(KernelSpecErrors, SpecSheetPrecisionAndLevelSpellings) {
    for (const std::string key : {"DP", "double", "fp64", "Float64"}) {
        const MachineFile m = machine_spec_from_yaml("name: m\npeak: {" + key + ": 20, FP32: 40}\nbandwidth: {DRAM: 29}\n",
                                                     "m.yaml");
        ASSERT_EQ(m.model.compute.size(), 2u) << key;
        EXPECT_EQ(m.model.compute[0].precision, "dp") << key;
        EXPECT_EQ(m.model.compute[1].precision, "sp") << key;
    }
    // Other work units stay as written.
    EXPECT_EQ(machine_spec_from_yaml("name: s\npeak: {exchange: 5}\nbandwidth: {DRAM: 10}\n", "m.yaml")
                  .model.compute[0].precision,
              "exchange");
    EXPECT_EQ(machine_error("name: m\npeak: {dp: 10, DP: 20}\nbandwidth: {DRAM: 29}\n"),
              "m.yaml:2:20: peak.DP: the dp peak is given twice, as 'dp' and as 'DP': give it once");
    EXPECT_EQ(machine_error("name: m\npeak: {dp: 10}\nbandwidth: {DRAM: 29, dram: 30}\n"),
              "m.yaml:3:29: bandwidth.dram: the DRAM bandwidth is given twice, as 'DRAM' and as 'dram': give it once");
}

TEST(KernelSpecErrors, SpecSheetFiguresNoMachineReaches) {
    // 10,000 FLOP a cycle on one core at 1 GHz: a unit slip, refused at its line.
    std::string e = machine_error("name: m\ncores: 1\nclock_ghz: 1\npeak: {dp: 10000}\nbandwidth: {DRAM: 29}\n");
    EXPECT_NE(e.find("m.yaml:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("10000 operations per cycle per core at 1.00 GHz"), std::string::npos) << e;
    // 10 PB/s DRAM on one core, no clock written: judged at the fastest clock any core runs.
    e = machine_error("name: m\ncores: 1\npeak: {dp: 85.8}\nbandwidth: {DRAM: 1e7}\n");
    EXPECT_NE(e.find("bandwidth.DRAM: DRAM bandwidth 10000000 GB/s"), std::string::npos) << e;
    EXPECT_NE(e.find("no clock_ghz written"), std::string::npos) << e;
    // An outer level faster than an inner one at the same threads.
    e = machine_error("name: m\npeak: {dp: 85.8}\nbandwidth: {L1: 10, DRAM: 500}\n");
    EXPECT_NE(e.find("DRAM at 500 GB/s (1 thread) is faster than L1 at 10 GB/s"), std::string::npos) << e;
    // A cache no machine has; the message says the limit it broke.
    e = machine_error("name: m\ncaches: {L1: 5GiB}\npeak: {dp: 85.8}\nbandwidth: {DRAM: 29}\n");
    EXPECT_NE(e.find("caches.L1: expected a cache size from 1 byte to 1 MiB (no machine's L1 is larger), found 5 GiB"),
              std::string::npos) << e;
    // What the limits leave alone: a GPU's sheet without cores (its 8192 fp8 operations a cycle per
    // SM), HBM beside DRAM in either order, figures within 10% of each other, and every example.
    EXPECT_EQ(machine_error("name: g\nclock_ghz: 1.83\npeak: {dp: 67000, fp8: 1979000}\n"
                            "bandwidth: {L1: 33000, L2: 10000, HBM: 4800}\n"), "no error");
    EXPECT_EQ(machine_error("name: k\ncores: 64\nclock_ghz: 1.4\npeak: {dp: 2600}\n"
                            "bandwidth: {L2: 1500, HBM: 450, DRAM: 90}\n"), "no error");
    EXPECT_EQ(machine_error("name: n\npeak: {dp: 10}\nbandwidth: {L2: 100, L3: 109}\n"), "no error");
    for (const auto& file : fs::directory_iterator(examples_dir / "machines"))
        EXPECT_NO_THROW(load_machine_file(file.path().string())) << file.path();
}

TEST(KernelSpecErrors, SpecSheetErrors) {
    std::string e = machine_error("name: m\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("m.yaml:1:1: missing 'peak'"), std::string::npos) << e;
    e = machine_error("schema: roofline.machine-spec/9\nname: m\npeak: {dp: 1}\nbandwidth: {DRAM: 1}\n");
    EXPECT_NE(e.find("m.yaml:1:9: schema: expected schema 'roofline.machine-spec/1'"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: -3}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("m.yaml:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("expected a rate from 1e-6 to 1e9 G/s"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: 1e308}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("peak.dp: expected a rate"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: 10}\nbandwidth: {DRAM: 4.9e-324}\n");
    EXPECT_NE(e.find("bandwidth.DRAM: expected a rate"), std::string::npos) << e;
    e = machine_error("name: m\nsimd_bits: -256\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("m.yaml:2:12: simd_bits: expected a vector width in bits from 8 to 4096"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: 10}\nbandwidth: {L9: 10}\n");
    EXPECT_NE(e.find("unknown level 'L9'"), std::string::npos) << e;
    e = machine_error("name: m\ncaches: {L7: 1MiB}\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("L1, L2, L3 or L4"), std::string::npos) << e;
    e = machine_error("name: m\ncores: 4\ncaches: {L3: {size: 8MiB, shared_by_cores: 5}}\npeak: {dp: 10}\n"
                      "bandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("m.yaml:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("caches.L3.shared_by_cores: expected the number of cores sharing one instance, from 1 to the "
                     "sheet's 4 cores"),
              std::string::npos) << e;
    e = machine_error("name: m\ncaches: {L2: {size: 1MiB, shared_by_cores: 0}}\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("found 0"), std::string::npos) << e;
    e = machine_error("name: m\ncaches: {L2: {shared_by_cores: 1}}\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("caches.L2: missing 'size'"), std::string::npos) << e;
    e = machine_error("name: m\ncaches: {L2: {size: 1MiB, shared: 2}}\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("unknown key 'shared'"), std::string::npos) << e;
    e = machine_error("name: m\ncaches: {L1: {size: 5GiB}}\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("caches.L1.size: expected a cache size from 1 byte to 1 MiB"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {\"d p\": 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("work unit's short name"), std::string::npos) << e;
    e = machine_error("name: m\ncores: 0\npeak: {dp: 10}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("cores: expected a core count from 1"), std::string::npos) << e;
    e = machine_error("name: m\npeak:\n  dp: 10\n  dp: 20\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("m.yaml:4:3: key 'dp' appears twice in one mapping"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: {one: 3}}\nbandwidth: {DRAM: 10}\n");
    EXPECT_NE(e.find("thread count"), std::string::npos) << e;
    e = machine_error("name: m\npeak: {dp: 3}\nbandwidth: {DRAM: 10}\nceilings: {compute: [{name: c}]}\n");
    EXPECT_NE(e.find("missing 'value'"), std::string::npos) << e;
}

// A written ceiling above its roof would become the roof (the model's roof is its
// fastest entry): refused with the place, against the peak of its precision and thread count.
TEST(KernelSpecErrors, SpecSheetCeilingsMustNotExceedTheirRoof) {
    const std::string sheet =
        "name: t\ncores: 4\npeak: {dp: {1: 10, 4: 40}, sp: 80}\nbandwidth: {DRAM: {1: 12, 4: 29}}\n";
    std::string e = machine_error(sheet + "ceilings:\n  compute: [{name: a, category: simd, value: 50}]\n");
    EXPECT_NE(e.find("m.yaml:6:46: ceilings.compute[0].value: expected at most the dp peak at 4 threads (40 GFLOP/s), "
                     "found 50: a ceiling cannot be above its roof"),
              std::string::npos)
        << e;
    // A one-thread ceiling against the one-thread peak; another precision against its own peak.
    e = machine_error(sheet + "ceilings:\n  compute: [{name: a, category: threads, value: 20}]\n");
    EXPECT_NE(e.find("expected at most the dp peak at 1 thread (10 GFLOP/s), found 20"), std::string::npos) << e;
    EXPECT_EQ(machine_error(sheet + "ceilings:\n  compute: [{name: a, precision: sp, category: fma, value: 60}]\n"),
              "no error");
    e = machine_error(sheet + "ceilings:\n  compute: [{name: a, precision: sp, category: threads, value: 90}]\n");
    EXPECT_NE(e.find("expected at most the sp peak at 4 threads (80 GFLOP/s), found 90"), std::string::npos) << e;
    // Ceilings with no place in the model are checked too: above the roof they would vanish.
    e = machine_error(sheet + "ceilings:\n  compute: [{name: a, category: prefetch, value: 41}]\n");
    EXPECT_NE(e.find("ceilings.compute[0].value: expected at most the dp peak at 4 threads"), std::string::npos) << e;
    e = machine_error(sheet + "ceilings:\n  compute: [{name: a, precision: exchange, value: 1}]\n");
    EXPECT_NE(e.find("the sheet gives no exchange peak at 4 threads or more for this ceiling to lie below"),
              std::string::npos)
        << e;

    e = machine_error(sheet + "ceilings:\n  bandwidth:\n    - {name: b, level: DRAM, value: 100}\n");
    EXPECT_NE(e.find("m.yaml:7:37: ceilings.bandwidth[0].value: expected at most the DRAM bandwidth at 4 threads "
                     "(29 GB/s), found 100"),
              std::string::npos)
        << e;
    e = machine_error(sheet + "ceilings:\n  bandwidth: [{name: b, level: DRAM, category: threads, value: 13}]\n");
    EXPECT_NE(e.find("expected at most the DRAM bandwidth at 1 thread (12 GB/s), found 13"), std::string::npos) << e;
    e = machine_error(sheet + "ceilings:\n  bandwidth: [{name: b, level: DRAM, category: numa, value: 30}]\n");
    EXPECT_NE(e.find("expected at most the DRAM bandwidth at 4 threads (29 GB/s), found 30"), std::string::npos) << e;
    e = machine_error(sheet + "ceilings:\n  bandwidth: [{name: b, level: L2, value: 20}]\n");
    EXPECT_NE(e.find("the sheet gives no L2 bandwidth at 4 threads or more for this ceiling to lie below"),
              std::string::npos)
        << e;

    // At the roof, or below it, is a ceiling; with no figure at its thread count, the next higher one bounds it.
    EXPECT_EQ(machine_error(sheet + "ceilings:\n  compute: [{name: a, category: ilp, value: 40}]\n  bandwidth: "
                                    "[{name: b, level: DRAM, value: 29}]\n"),
              "no error");
    e = machine_error("name: t\ncores: 4\npeak: {dp: 40}\nbandwidth: {DRAM: 29}\nceilings:\n  compute: [{name: a, "
                      "category: threads, value: 41}]\n");
    EXPECT_NE(e.find("expected at most the dp peak at 4 threads (40 GFLOP/s), found 41"), std::string::npos) << e;
}

TEST(KernelSpecErrors, SpecSheetThreadCountsAboveItsCoresAreRefused) {
    std::string e = machine_error("name: t\ncores: 1\npeak: {dp: {1: 10, 64: 640}}\nbandwidth: {DRAM: 29}\n");
    EXPECT_NE(e.find("m.yaml:3:24: peak.dp.64: expected a thread count from 1 to the sheet's 1 core ('cores:', 1 "
                     "when not given) as the key, found 64"),
              std::string::npos)
        << e;
    e = machine_error("name: t\npeak: {dp: 10}\nbandwidth: {DRAM: {1: 10, 2: 20}}\n");
    EXPECT_NE(e.find("bandwidth.DRAM.2: expected a thread count from 1 to the sheet's 1 core"), std::string::npos) << e;
    EXPECT_EQ(machine_error("name: t\ncores: 64\npeak: {dp: {1: 10, 64: 640}}\nbandwidth: {DRAM: 29}\n"), "no error");
}

// Sizes may use each other in any order; a cycle, a size defined by itself and a
// name no size has are each said as what they are.
TEST(KernelSpecErrors, SizesThatUseEachOther) {
    auto k = kernel_specs_from_yaml("name: x\nflops: 1\nsizes: {N: 2*M, M: b*4, b: 8}\niterations: N\n"
                                    "arrays:\n  - {name: a, type: double, reads: 1}\n")
                 .front();
    EXPECT_DOUBLE_EQ(*k.iterations, 64);
    // A kernel's size of the same name as a shared one uses the shared one.
    k = kernel_specs_from_yaml("sizes: {N: 10}\nkernels:\n  - name: x\n    flops: 1\n    sizes: {M: N, N: 2*N}\n"
                               "    iterations: M\n    arrays: [{name: a, type: double, reads: 1}]\n")
            .front();
    EXPECT_DOUBLE_EQ(*k.iterations, 20);

    std::string e = schema_error("name: x\nflops: 1\nsizes: {N: M, M: N}\narrays: []\n");
    EXPECT_NE(e.find("k.yaml:3:18: sizes.M: sizes refer to each other in a cycle (N -> M -> N), so none of them has a "
                     "value"),
              std::string::npos)
        << e;
    EXPECT_EQ(e.find("no 'sizes:' map"), std::string::npos) << e;
    e = schema_error("name: x\nflops: 1\nsizes: {A: 1, B: C+1, C: 2*D, D: B}\narrays: []\n");
    EXPECT_NE(e.find("cycle (B -> C -> D -> B)"), std::string::npos) << e;
    e = schema_error("name: x\nflops: 1\nsizes: {N: N+1}\narrays: []\n");
    EXPECT_NE(e.find("sizes.N: size 'N' refers to itself and no shared size 'N' is defined"), std::string::npos) << e;
    e = schema_error("name: x\nflops: 1\nsizes: {N: 2*K, M: 3}\narrays: []\n");
    EXPECT_NE(e.find("'K' is not a size (sizes: N, M)"), std::string::npos) << e;
    // A long chain of sizes is resolved without recursion.
    std::string chain = "name: x\nflops: 1\niterations: S0\narrays: []\nsizes:\n";
    for (int i = 0; i < 20000; ++i) chain += fmt::format("  S{}: S{}\n", i, i + 1);
    chain += "  S20000: 3\n";
    EXPECT_DOUBLE_EQ(*kernel_specs_from_yaml(chain, "k.yaml").front().iterations, 3);
}

// yaml-cpp 0.7 reads a NUL in a plain scalar as an escape: NUL + "arrays" became
// BEL + "rrays" (shown as '\x07rrays'). YAML holds no NUL: refused where it is.
TEST(KernelSpecErrors, NulBytesAreRefusedWhereTheyAre) {
    std::string e =
        schema_error(std::string("name: x\nflops: 2\n\0arrays:\n  - {name: a, type: double, reads: 1}\n", 64));
    EXPECT_EQ(e, "k.yaml:3:1: invalid YAML: a NUL byte (byte offset 17); YAML text cannot hold one");
    e = schema_error(std::string("name: x\0yz\n", 11));
    EXPECT_EQ(e, "k.yaml:1:8: invalid YAML: a NUL byte (byte offset 7); YAML text cannot hold one");
    e = machine_error(std::string("\0", 1));
    EXPECT_EQ(e, "m.yaml:1:1: invalid YAML: a NUL byte (byte offset 0); YAML text cannot hold one");
}

TEST(KernelSpecErrors, MissingFileNamesThePath) {
    try {
        read_kernel_spec_file("/nonexistent/spec.yaml");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/spec.yaml"), std::string::npos) << e.what();
    }
}

// Found by fuzzing: yaml-cpp 0.7's LoadAll loops forever (allocating) on these; they are refused
// with the place of the token no value can start with.
TEST(KernelSpecErrors, InputThatHangsTheYamlParserIsRefused) {
    std::string e = schema_error("{a: 1}\n, b\n");
    EXPECT_NE(e.find("k.yaml:2:1: invalid YAML: unexpected ',' where a value should start"), std::string::npos) << e;
    e = schema_error(",");
    EXPECT_NE(e.find("k.yaml:1:1: invalid YAML: unexpected ','"), std::string::npos) << e;
    e = schema_error("name: k\n---\n[1]\n, x\n");
    EXPECT_NE(e.find("k.yaml:4:1: invalid YAML: unexpected ','"), std::string::npos) << e;
}

// Several documents in one file still parse: the progress check only refuses a document that
// starts where the one before it started.
TEST(KernelSpecErrors, EmptyDocumentsBetweenSeparatorsAreNotMistakenForTheHang) {
    const auto docs = parse_yaml_documents("---\n---\na: 1\n...\n---\nb: 2\n", "k.yaml");
    ASSERT_EQ(docs.size(), 2u);
}

// --- the roofs a loop is judged on: its load/store mix per level, its ISA -----------------

namespace {

MemoryRoof memory_roof(std::string level, std::string pattern, double gbs, double wa_factor,
                       std::vector<std::pair<std::string, double>> trials = {}) {
    MemoryRoof m;
    m.level = std::move(level);
    m.pattern = std::move(pattern);
    m.isa = "avx512";
    m.gbs = gbs;
    m.gbs_write_allocate = gbs * wa_factor;
    m.isa_trials = std::move(trials);
    return m;
}

ComputeRoof compute_roof(int bits, std::string mix, double gflops) {
    ComputeRoof c;
    c.name = fmt::format("dp {}-bit {}", bits, mix);
    c.precision = "dp";
    c.isa = bits == 512 ? "avx512" : "avx2";
    c.vector_bits = bits;
    c.mix = std::move(mix);
    c.gflops = gflops;
    return c;
}

// A one-thread model shaped like a Zen 5 core's `bench --quick` (load, copy, triad per level; the
// L1 and L2 roofs with ISA trials) and `--full`'s compute roofs of each width. Figures are round.
MachineFile patterned_machine(bool every_width = true) {
    MachineFile f;
    MachineModel& m = f.model;
    m.cpu.model = "test core";
    m.cpu.isa = {"sse2", "avx", "avx2", "fma", "avx512f"};
    m.cpu.clock_ghz = 4;
    m.caches = {{1, 48 << 10, 64}, {2, 1 << 20, 64}, {3, 32 << 20, 64}};
    m.compute = {compute_roof(512, "fma+add", 200), compute_roof(512, "best", 200)};
    if (every_width)
        for (auto c : {compute_roof(256, "fma+add", 100), compute_roof(256, "mul+add", 66), compute_roof(256, "add", 33),
                       compute_roof(128, "fma+add", 50), compute_roof(64, "fma+add", 25)})
            m.compute.push_back(c);
    m.memory = {memory_roof("L1", "load", 500, 1, {{"avx512", 480}, {"avx2", 240}, {"sse2", 120}}),
                memory_roof("L1", "copy", 520, 1, {{"avx512", 520}, {"avx2", 390}, {"sse2", 195}}),
                memory_roof("L1", "triad", 600, 1, {{"avx512", 600}, {"avx2", 300}, {"sse2", 150}}),
                memory_roof("L2", "load", 250, 1, {{"avx512", 200}, {"avx2", 200}, {"sse2", 100}}),
                memory_roof("L2", "copy", 200, 1.5, {{"avx512", 200}, {"avx2", 180}}),
                memory_roof("L2", "triad", 210, 4.0 / 3),
                memory_roof("DRAM", "load", 40, 1),
                memory_roof("DRAM", "copy", 42, 1.5),
                memory_roof("DRAM", "triad", 43, 4.0 / 3)};
    return f;
}

KernelSpec spec_with(std::vector<ArraySpec> arrays, double flops = 1, std::string isa = "") {
    KernelSpec k;
    k.name = "k";
    k.work_per_iteration = flops;
    k.iterations = 1e6;
    for (auto& a : arrays) a.type = "double";
    k.arrays = std::move(arrays);
    k.isa = std::move(isa);
    return k;
}

const LevelRoofChoice& level_choice(const SpecRoofline& roofs, const std::string& level) {
    for (const auto& c : roofs.levels)
        if (c.level == level) return c;
    throw std::runtime_error("no choice at " + level);
}

SpecRoofline roofs_for(const KernelSpec& spec, const MachineFile& file) {
    return spec_roofline(spec, &file, roofline_from_machine_file(file, {"dp", 1}));
}

} // namespace

TEST(KernelSpecTraffic, SplitsLoadsStoresAndAllocations) {
    KernelSpec triad = spec_with({array("a", 0, 1), array("b", 1, 0), array("c", 1, 0)}, 2);
    const auto t = traffic_per_iteration(triad);
    EXPECT_DOUBLE_EQ(t.at("L1").loaded, 16);
    EXPECT_DOUBLE_EQ(t.at("L1").stored, 8);
    EXPECT_DOUBLE_EQ(t.at("L1").allocated, 0);  // L1 counts the instructions
    EXPECT_DOUBLE_EQ(t.at("DRAM").allocated, 8);
    EXPECT_DOUBLE_EQ(t.at("DRAM").non_temporal_stored, 0);
    triad.arrays[0].non_temporal = true;
    triad.arrays[0].write_allocate = false;
    const auto nt = traffic_per_iteration(triad);
    EXPECT_DOUBLE_EQ(nt.at("DRAM").non_temporal_stored, 8);
    EXPECT_DOUBLE_EQ(nt.at("L2").stored, 0);
}

// A sum reads only: it is bound by the load roof at every level, not by the faster copy+WA
// DRAM roof the machine's roofline holds (42 x 1.5 = 63 GB/s: 7.9 GFLOP/s promised, 5 allowed).
TEST(KernelSpecRoofs, ReadOnlyLoopTakesTheLoadRoof) {
    const MachineFile file = patterned_machine();
    const KernelSpec sum = spec_with({array("a", 1, 0)});
    const Roofline fastest = roofline_from_machine_file(file, {"dp", 1});
    EXPECT_NEAR(predict(sum, fastest, View::carm).performance, 63.0 / 8, 1e-9);

    const SpecRoofline roofs = roofs_for(sum, file);
    for (const char* level : {"L1", "L2", "DRAM"}) {
        const auto& c = level_choice(roofs, level);
        EXPECT_EQ(c.basis, LevelRoofChoice::Basis::pattern) << level;
        EXPECT_EQ(c.patterns, std::vector<std::string>{"load"}) << level;
        EXPECT_EQ(c.roof.name, fmt::format("{} load", level));
        EXPECT_DOUBLE_EQ(c.store_share, 0);
    }
    const KernelPrediction p = predict(sum, roofs.roofline, View::carm);
    EXPECT_EQ(p.binding_roof, "DRAM load");
    EXPECT_NEAR(p.performance, 40.0 / 8, 1e-9);
    // No other pattern's ceiling stays at a level where the roof is the loop's own pattern.
    for (const auto& c : roofs.roofline.ceilings) EXPECT_NE(c.category, "pattern") << c.name;
    EXPECT_TRUE(std::any_of(fastest.ceilings.begin(), fastest.ceilings.end(),
                            [](const Ceiling& c) { return c.name == "DRAM load"; }));
}

TEST(KernelSpecRoofs, CopyAndTriadMixesTakeTheirPatterns) {
    const MachineFile file = patterned_machine();
    const auto copy = roofs_for(spec_with({array("a", 0, 1), array("b", 1, 0)}, 0), file);
    EXPECT_EQ(level_choice(copy, "DRAM").roof.name, "DRAM copy+WA");
    EXPECT_DOUBLE_EQ(level_choice(copy, "DRAM").roof.value, 63);
    EXPECT_DOUBLE_EQ(level_choice(copy, "DRAM").store_share, 0.5);
    const auto triad = roofs_for(spec_with({array("a", 0, 1), array("b", 1, 0), array("c", 1, 0)}, 2), file);
    EXPECT_EQ(level_choice(triad, "DRAM").roof.name, "DRAM triad+WA");
    EXPECT_NEAR(level_choice(triad, "DRAM").roof.value, 43 * 4.0 / 3, 1e-9);
    // y = y + x: one load and one store of y, and x loaded: a third of its bytes are stores.
    const auto update = roofs_for(spec_with({array("y", 1, 1), array("x", 1, 0)}, 2), file);
    EXPECT_EQ(level_choice(update, "DRAM").patterns, std::vector<std::string>{"triad+WA"});
}

// A stencil's L1 mix (four loads, one store: a fifth of its bytes stored) lies between load
// (none) and triad (a third): its bytes taken as 40% load's and 60% triad's, times added.
TEST(KernelSpecRoofs, AMixBetweenTwoPatternsAddsTheirTimes) {
    const MachineFile file = patterned_machine();
    const KernelSpec stencil = spec_with({array("a", 4, 0, "L1"), array("b", 0, 1, "L1")}, 4);
    const auto roofs = roofs_for(stencil, file);
    const auto& c = level_choice(roofs, "L1");
    EXPECT_EQ(c.basis, LevelRoofChoice::Basis::between);
    EXPECT_EQ(c.patterns, (std::vector<std::string>{"load", "triad"}));
    EXPECT_DOUBLE_EQ(c.store_share, 0.2);
    EXPECT_NEAR(c.weight, 0.4, 1e-12);
    EXPECT_NEAR(c.roof.value, 1 / (0.4 / 500 + 0.6 / 600), 1e-9);
    EXPECT_EQ(c.roof.name, "L1 load/triad");
    EXPECT_EQ(predict(stencil, roofs.roofline, View::carm).binding_roof, "L1 load/triad");
}

TEST(KernelSpecRoofs, FallsBackToTheFastestRoofWhereNoPatternMatches) {
    const MachineFile file = patterned_machine();
    // Stores only: the model measured no pattern storing more than half its bytes.
    const auto fill = roofs_for(spec_with({array("a", 0, 1)}, 0), file);
    const auto& c = level_choice(fill, "DRAM");
    EXPECT_EQ(c.basis, LevelRoofChoice::Basis::fastest_beyond);
    EXPECT_DOUBLE_EQ(c.max_share, 0.5);
    EXPECT_EQ(c.roof.name, "DRAM copy+WA");  // the level's fastest
    EXPECT_DOUBLE_EQ(c.roof.value, 63);
    // Non-temporal stores, and no `_nt` pattern measured.
    KernelSpec nt = spec_with({array("a", 0, 1), array("b", 1, 0)}, 0);
    nt.arrays[0].non_temporal = true;
    nt.arrays[0].write_allocate = false;
    EXPECT_EQ(level_choice(roofs_for(nt, file), "DRAM").basis, LevelRoofChoice::Basis::fastest_no_nt);
    // ... and with one: the `_nt` pattern of the same share.
    MachineFile with_nt = patterned_machine();
    with_nt.model.memory.push_back(memory_roof("DRAM", "copy_nt", 50, 1));
    const SpecRoofline nt_roofs = roofs_for(nt, with_nt);  // kept: level_choice returns into it
    const auto& nt_choice = level_choice(nt_roofs, "DRAM");
    EXPECT_EQ(nt_choice.basis, LevelRoofChoice::Basis::pattern);
    EXPECT_EQ(nt_choice.roof.name, "DRAM copy_nt");
    // A spec sheet's figure has no pattern: the fastest, said.
    const Roofline sheet = machine_roofline("example_85_8.yaml");
    const MachineFile sheet_file = load_machine_file((examples_dir / "machines" / "example_85_8.yaml").string());
    const auto sheet_roofs = spec_roofline(spec_with({array("a", 1, 0)}), &sheet_file, sheet);
    EXPECT_EQ(level_choice(sheet_roofs, "DRAM").basis, LevelRoofChoice::Basis::fastest_unknown);
    EXPECT_DOUBLE_EQ(level_choice(sheet_roofs, "DRAM").roof.value, 29);
    // --peak/--bw: the figures as given.
    const auto figures = spec_roofline(spec_with({array("a", 1, 0)}), nullptr, two_number_roofline(10, 5));
    EXPECT_EQ(level_choice(figures, "DRAM").basis, LevelRoofChoice::Basis::no_model);
    EXPECT_EQ(figures.compute.basis, ComputeRoofChoice::Basis::no_model);
}

TEST(KernelSpecIsa, ReadFromTheSpecAndRefusedWhenUnknown) {
    const auto specs = kernel_specs_from_yaml(
        "name: k\nisa: avx2\nflops: 1\narrays:\n  - {name: a, type: double, reads: 1}\n", "k.yaml");
    ASSERT_EQ(specs.size(), 1u);
    EXPECT_EQ(specs[0].isa, "avx2");
    EXPECT_EQ(kernel_specs_from_yaml("name: k\nflops: 1\narrays:\n  - {name: a, type: double, reads: 1}\n", "k.yaml")[0].isa,
              "");
    const std::string e = schema_error("name: k\nisa: neon\nflops: 1\narrays:\n  - {name: a, type: double, reads: 1}\n");
    EXPECT_NE(e.find("k.yaml:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("scalar, sse2, avx, avx2, avx512"), std::string::npos) << e;
}

TEST(KernelSpecIsa, AnIsaTheCpuLacksIsRefused) {
    MachineModel zen3 = patterned_machine().model;
    zen3.cpu.isa = {"sse2", "avx", "avx2", "fma"};
    const std::string why = spec_isa_problem(spec_with({array("a", 1, 0)}, 1, "avx512"), zen3);
    EXPECT_NE(why.find("avx512"), std::string::npos) << why;
    EXPECT_NE(why.find("avx512f"), std::string::npos) << why;
    EXPECT_EQ(spec_isa_problem(spec_with({array("a", 1, 0)}, 1, "avx2"), zen3), "");
    EXPECT_EQ(spec_isa_problem(spec_with({array("a", 1, 0)}, 1, ""), zen3), "");
    MachineModel unknown = zen3;
    unknown.cpu.isa.clear();  // a spec sheet: nothing to tell
    EXPECT_EQ(spec_isa_problem(spec_with({array("a", 1, 0)}, 1, "avx512"), unknown), "");
}

// Code built for AVX2 is judged on the 256-bit compute roof and on L1/L2 roofs scaled by the
// ISA trials (L1 load: avx2's trial 240 of avx512's 480, so 500 x 0.5); DRAM stays as measured.
TEST(KernelSpecIsa, NarrowerCodeTakesThatWidthsRoofs) {
    const MachineFile file = patterned_machine();
    const KernelSpec loop = spec_with({array("a", 1, 0)}, 100, "avx2");
    const auto roofs = roofs_for(loop, file);
    EXPECT_EQ(roofs.compute.basis, ComputeRoofChoice::Basis::spec_isa);
    EXPECT_EQ(roofs.compute.vector_bits, 256);
    EXPECT_DOUBLE_EQ(roofs.roofline.compute.value, 100);
    EXPECT_EQ(roofs.roofline.compute.name, "DP 256-bit peak");
    for (const auto& c : roofs.roofline.ceilings)
        if (c.kind == CeilingKind::compute) {
            EXPECT_LT(c.value, 100) << c.name;
        }
    const auto& l1 = level_choice(roofs, "L1");
    EXPECT_EQ(l1.isa_basis, LevelRoofChoice::Isa::spec_trial);
    EXPECT_DOUBLE_EQ(l1.roof.value, 250);
    EXPECT_EQ(l1.roof.name, "L1 load (avx2)");
    EXPECT_DOUBLE_EQ(level_choice(roofs, "L2").roof.value, 250);  // avx2 won the L2 trial: as measured
    EXPECT_EQ(level_choice(roofs, "DRAM").isa_basis, LevelRoofChoice::Isa::as_measured);
    EXPECT_DOUBLE_EQ(level_choice(roofs, "DRAM").roof.value, 40);
    EXPECT_EQ(predict(loop, roofs.roofline, View::carm).binding_roof, "DP 256-bit peak");
    // AVX has no FMA: the 256-bit mul+add roof.
    const auto avx = roofs_for(spec_with({array("a", 1, 0)}, 100, "avx"), file);
    EXPECT_DOUBLE_EQ(avx.roofline.compute.value, 66);
    EXPECT_FALSE(avx.compute.fma);
    // Scalar: 64-bit for double precision; its memory stands in with sse2's trial.
    const auto scalar = roofs_for(spec_with({array("a", 1, 0)}, 100, "scalar"), file);
    EXPECT_EQ(scalar.compute.vector_bits, 64);
    EXPECT_DOUBLE_EQ(scalar.roofline.compute.value, 25);
    EXPECT_DOUBLE_EQ(level_choice(scalar, "L1").roof.value, 500 * 120.0 / 480);
    // Without `isa:`: the widest, as before, and said to be 512-bit.
    const auto widest = roofs_for(spec_with({array("a", 1, 0)}, 100), file);
    EXPECT_EQ(widest.compute.basis, ComputeRoofChoice::Basis::widest);
    EXPECT_EQ(widest.compute.vector_bits, 512);
    EXPECT_DOUBLE_EQ(widest.roofline.compute.value, 200);
}

TEST(KernelSpecIsa, AModelWithoutTheWidthOrTrialSaysSo) {
    MachineFile quick = patterned_machine(false);  // `bench --quick`: 512-bit compute roofs only
    quick.model.memory[3].isa_trials.clear();       // L2 load: no trial
    const auto roofs = roofs_for(spec_with({array("a", 1, 0)}, 100, "avx2"), quick);
    EXPECT_EQ(roofs.compute.basis, ComputeRoofChoice::Basis::no_such_width);
    EXPECT_EQ(roofs.compute.vector_bits, 512);
    EXPECT_DOUBLE_EQ(roofs.roofline.compute.value, 200);
    EXPECT_EQ(level_choice(roofs, "L1").isa_basis, LevelRoofChoice::Isa::spec_trial);
    EXPECT_EQ(level_choice(roofs, "L2").isa_basis, LevelRoofChoice::Isa::no_trial);
    EXPECT_DOUBLE_EQ(level_choice(roofs, "L2").roof.value, 250);
}

// What `model` prints names the roof of each level and why, in text and JSON.
TEST(KernelSpecRoofs, TextAndJsonNameTheRoofsUsed) {
    const MachineFile file = patterned_machine();
    const Roofline machine = roofline_from_machine_file(file, {"dp", 1});
    const KernelSpec sum = spec_with({array("a", 1, 0)}, 1, "avx2");
    const auto roofs = spec_roofline(sum, &file, machine);
    SpecPrecision own;
    own.precision = "dp";
    own.basis = SpecPrecision::Basis::element_types;
    const KernelModelResult result{sum, "k.yaml", predict(sum, roofs.roofline, View::carm), roofs.roofline, own,
                                   PrecisionChoice::own, std::nullopt, std::nullopt, {}, roofs.compute, roofs.levels,
                                   machine.bandwidth};
    const std::string text = render_kernel_models(View::carm, {result}, ReportFormat::text);
    EXPECT_NE(text.find("bound by DRAM load (40 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("roofs used      DP 256-bit peak 100 GFLOP/s: the fastest the model has at 256 bits or "
                        "narrower ('isa: avx2')"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("L1 load (avx2) 250 GB/s: it only loads there, as in load; scaled to avx2"), std::string::npos)
        << text;
    EXPECT_NE(text.find("DRAM load 40 GB/s: it only loads there"), std::string::npos) << text;
    // The header keeps the machine's own fastest roofs.
    EXPECT_NE(text.find("DRAM 63 GB/s"), std::string::npos) << text;

    const auto json = nlohmann::json::parse(render_kernel_models(View::carm, {result}, ReportFormat::json));
    const auto& used = json["kernels"][0]["roofs_used"];
    EXPECT_EQ(json["kernels"][0]["isa"], "avx2");
    EXPECT_EQ(used["compute"]["name"], "DP 256-bit peak");
    EXPECT_EQ(used["compute"]["vector_bits"], 256);
    EXPECT_EQ(used["compute"]["basis"], "spec_isa");
    const auto& dram = used["bandwidth"].back();
    EXPECT_EQ(dram["level"], "DRAM");
    EXPECT_EQ(dram["name"], "DRAM load");
    EXPECT_EQ(dram["basis"], "pattern");
    EXPECT_EQ(dram["patterns"][0]["pattern"], "load");
    EXPECT_EQ(dram["fastest"]["name"], "DRAM copy+WA");
    EXPECT_EQ(used["bandwidth"][0]["isa"]["basis"], "spec_trial");
    EXPECT_EQ(used["bandwidth"][0]["isa"]["trial"], "avx2");
    // The ORM view judges at DRAM only, and names only that level's roof.
    const std::string orm = render_kernel_models(View::orm, {result}, ReportFormat::text);
    EXPECT_EQ(orm.find("L1 load (avx2) 250"), std::string::npos) << orm;
    EXPECT_NE(orm.find("DRAM load 40 GB/s: it only loads there"), std::string::npos) << orm;
}

namespace {

TEST(KernelSpecUnmodelled, PageStridesAndRandomAccessBelowL1AreSaid) {
    KernelSpec k;
    k.name = "k";
    k.arrays = {array("a", 1, 0), array("b", 0, 1), array("h", 1, 1, "L2"), array("r", 1, 0, "L1")};
    EXPECT_TRUE(unmodelled_effects(k).empty());  // contiguous, nothing left out
    k.arrays[1].stride = 4000;                   // a transpose's stores: 32000 B apart
    k.arrays[2].random = true;                   // a histogram's bins in L2
    k.arrays[3].random = true;                   // random in L1: hits, no line to wait for
    const auto said = unmodelled_effects(k);
    ASSERT_EQ(said.size(), 2u);
    EXPECT_EQ(said[0].rfind("b's accesses fall 32000 B apart, a page or more", 0), 0u) << said[0];
    EXPECT_EQ(said[1].rfind("h's accesses land at random", 0), 0u) << said[1];
    // Under a page apart (a sum of every 8th double), or kept in a cache: nothing said.
    k.arrays[1].stride = 8;
    k.arrays[2].random = false;
    EXPECT_TRUE(unmodelled_effects(k).empty());
    k.arrays[1].stride = 4000;
    k.arrays[1].resident_in = "L2";
    EXPECT_TRUE(unmodelled_effects(k).empty());
}

} // namespace
