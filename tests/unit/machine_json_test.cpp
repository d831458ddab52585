#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <cmath>
#include <limits>

#include <stdlib.h>
#include <unistd.h>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

// Every field set to a value different from its default.
MachineModel populated_model() {
    MachineModel m;
    m.partial = true;
    m.cpu = {"AMD EPYC 7B13 \"Milan\"", "AuthenticAMD", {"sse2", "avx2", "fma"}, 2, 64, 128, 4, 3.21, 2.45};
    m.caches = {{1, 32768, 64, 8, 1, 64}, {3, 33554432, 64, 16, 8, 16}, {2, 524288, 64, -1, 1, 64}};
    ComputeRoof dp{"dp avx2 fma+add 2t", "dp", "avx2", 256, "fma+add", "8 fma + 4 add chains", 2,
                   127.25, 153.6, 23, {127.25, 120.5, 128.0, 0.0125, 11, false, 4, 2, 0.9, true}};
    // The clock the theoretical figure assumes, re-measured next to the roof (bench/roof_limit_guard).
    dp.theoretical_clock_ghz = 3.66;
    dp.theoretical_clock = "re-measured: 160.1 GFLOP/s came out 1.04x its limit at the 3.21 GHz measured before the run";
    ComputeRoof sp = dp;
    sp.name = "sp avx2 fma 1t";
    sp.precision = "sp";
    sp.threads = 1;
    sp.gflops = 0.1 + 0.2; // a value that needs all 17 digits
    sp.theoretical_gflops = 0;
    m.compute = {dp, sp};
    m.memory = {{"L1", "load", "avx2", 2, 410.5, 410.5, 420.25, 32768, {{"avx512", 410.5}, {"avx2", 405.5}, {"sse2", 210.25}},
                 {410.5, 400, 415, 0.01, 7, true, 3, 1, 0.9, false}},
                {"DRAM", "copy_nt", "avx2", 2, 21.75, 21.75, 0, 1ull << 33, {}, {21.75, 20, 22, 0.03, 5, false}}};
    m.memory[0].theoretical_clock_ghz = 3.21;
    m.memory[0].theoretical_clock = "measured before the run";
    m.curves = {{"load", "avx2", 1, {{4096, 200.5}, {1ull << 30, 18.25}}}, {"triad", "sse2", 2, {}}};
    m.validation = {{"L2", 0.5, 2, 262144, 50.5, 55.0, 0.918}};
    m.environment = {"node-7", "KVM", "performance", "on", 0.42, 3.2, 3.19, "GCC 12.2.0", "0.1.0",
                     "2026-11-03T10:20:30Z", BenchMode::full, 93.5, "AMD Zen 3", "q0.9 of burst medians",
                     {"no PMU", "load average above 1"}, {}};
    m.environment.restricted_to = "--isa avx2";
    m.environment.steal_share = 0.0625;
    m.environment.others_busy_cpus = 0.25;
    return m;
}

void expect_equal(const Stats& a, const Stats& b) {
    EXPECT_EQ(a.median, b.median);
    EXPECT_EQ(a.min, b.min);
    EXPECT_EQ(a.max, b.max);
    EXPECT_EQ(a.cv, b.cv);
    EXPECT_EQ(a.runs, b.runs);
    EXPECT_EQ(a.stable, b.stable);
    EXPECT_EQ(a.bursts, b.bursts);
    EXPECT_EQ(a.rejected_bursts, b.rejected_bursts);
    EXPECT_EQ(a.quantile, b.quantile);
    EXPECT_EQ(a.cores_shared, b.cores_shared);
}

void expect_equal(const MachineModel& a, const MachineModel& b) {
    EXPECT_EQ(a.schema, b.schema);
    EXPECT_EQ(a.partial, b.partial);
    EXPECT_EQ(a.cpu.model, b.cpu.model);
    EXPECT_EQ(a.cpu.vendor, b.cpu.vendor);
    EXPECT_EQ(a.cpu.isa, b.cpu.isa);
    EXPECT_EQ(a.cpu.sockets, b.cpu.sockets);
    EXPECT_EQ(a.cpu.cores, b.cpu.cores);
    EXPECT_EQ(a.cpu.threads, b.cpu.threads);
    EXPECT_EQ(a.cpu.numa_nodes, b.cpu.numa_nodes);
    EXPECT_EQ(a.cpu.clock_ghz, b.cpu.clock_ghz);
    EXPECT_EQ(a.cpu.nominal_clock_ghz, b.cpu.nominal_clock_ghz);

    ASSERT_EQ(a.caches.size(), b.caches.size());
    for (std::size_t i = 0; i < a.caches.size(); ++i) {
        EXPECT_EQ(a.caches[i].level, b.caches[i].level);
        EXPECT_EQ(a.caches[i].size_bytes, b.caches[i].size_bytes);
        EXPECT_EQ(a.caches[i].line_bytes, b.caches[i].line_bytes);
        EXPECT_EQ(a.caches[i].associativity, b.caches[i].associativity);
        EXPECT_EQ(a.caches[i].shared_by_cores, b.caches[i].shared_by_cores);
        EXPECT_EQ(a.caches[i].instances, b.caches[i].instances);
    }
    ASSERT_EQ(a.compute.size(), b.compute.size());
    for (std::size_t i = 0; i < a.compute.size(); ++i) {
        const auto &x = a.compute[i], &y = b.compute[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.precision, y.precision);
        EXPECT_EQ(x.isa, y.isa);
        EXPECT_EQ(x.vector_bits, y.vector_bits);
        EXPECT_EQ(x.mix, y.mix);
        EXPECT_EQ(x.mix_detail, y.mix_detail);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.gflops, y.gflops);
        EXPECT_EQ(x.theoretical_gflops, y.theoretical_gflops);
        EXPECT_EQ(x.theoretical_clock_ghz, y.theoretical_clock_ghz);
        EXPECT_EQ(x.theoretical_clock, y.theoretical_clock);
        EXPECT_EQ(x.mixes_tried, y.mixes_tried);
        expect_equal(x.stats, y.stats);
    }
    ASSERT_EQ(a.memory.size(), b.memory.size());
    for (std::size_t i = 0; i < a.memory.size(); ++i) {
        const auto &x = a.memory[i], &y = b.memory[i];
        EXPECT_EQ(x.level, y.level);
        EXPECT_EQ(x.pattern, y.pattern);
        EXPECT_EQ(x.isa, y.isa);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.gbs, y.gbs);
        EXPECT_EQ(x.gbs_write_allocate, y.gbs_write_allocate);
        EXPECT_EQ(x.working_set_bytes, y.working_set_bytes);
        EXPECT_EQ(x.theoretical_gbs, y.theoretical_gbs);
        EXPECT_EQ(x.theoretical_clock_ghz, y.theoretical_clock_ghz);
        EXPECT_EQ(x.theoretical_clock, y.theoretical_clock);
        EXPECT_EQ(x.isa_trials, y.isa_trials);
        expect_equal(x.stats, y.stats);
    }
    ASSERT_EQ(a.curves.size(), b.curves.size());
    for (std::size_t i = 0; i < a.curves.size(); ++i) {
        EXPECT_EQ(a.curves[i].pattern, b.curves[i].pattern);
        EXPECT_EQ(a.curves[i].isa, b.curves[i].isa);
        EXPECT_EQ(a.curves[i].threads, b.curves[i].threads);
        EXPECT_EQ(a.curves[i].points, b.curves[i].points);
    }
    ASSERT_EQ(a.validation.size(), b.validation.size());
    for (std::size_t i = 0; i < a.validation.size(); ++i) {
        const auto &x = a.validation[i], &y = b.validation[i];
        EXPECT_EQ(x.level, y.level);
        EXPECT_EQ(x.intensity, y.intensity);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.working_set_bytes, y.working_set_bytes);
        EXPECT_EQ(x.gflops, y.gflops);
        EXPECT_EQ(x.predicted_gflops, y.predicted_gflops);
        EXPECT_EQ(x.ratio, y.ratio);
    }
    const auto &e = a.environment, &f = b.environment;
    EXPECT_EQ(e.hostname, f.hostname);
    EXPECT_EQ(e.microarchitecture, f.microarchitecture);
    EXPECT_EQ(e.restricted_to, f.restricted_to);
    EXPECT_EQ(e.statistic, f.statistic);
    EXPECT_EQ(e.hypervisor, f.hypervisor);
    EXPECT_EQ(e.governor, f.governor);
    EXPECT_EQ(e.turbo, f.turbo);
    EXPECT_EQ(e.load_average, f.load_average);
    EXPECT_EQ(e.steal_share, f.steal_share);
    EXPECT_EQ(e.others_busy_cpus, f.others_busy_cpus);
    EXPECT_EQ(e.clock_before_ghz, f.clock_before_ghz);
    EXPECT_EQ(e.clock_after_ghz, f.clock_after_ghz);
    EXPECT_EQ(e.compiler, f.compiler);
    EXPECT_EQ(e.tool_version, f.tool_version);
    EXPECT_EQ(e.timestamp, f.timestamp);
    EXPECT_EQ(e.mode, f.mode);
    EXPECT_EQ(e.duration_seconds, f.duration_seconds);
    EXPECT_EQ(e.warnings, f.warnings);
}

class TempDir {
public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "roofline-json-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path_, ec);
    }
    fs::path path() const { return path_; }
    std::size_t entries() const {
        return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), fs::directory_iterator{}));
    }

private:
    fs::path path_;
};

// Runs `action`, expecting a SchemaError; returns its message.
template <typename Action>
std::string schema_error_of(Action action) {
    try {
        action();
    } catch (const SchemaError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no SchemaError thrown";
    return {};
}

} // namespace

TEST(MachineJson, RoundTripKeepsEveryField) {
    const auto original = populated_model();
    const auto restored = machine_from_json(machine_to_json(original));
    expect_equal(original, restored);
    EXPECT_EQ(machine_to_json(restored), machine_to_json(original));
}

TEST(MachineJson, CpuActivityUnknownIsNullAndOutOfRangeIsRefused) {
    auto model = populated_model();
    model.environment.steal_share = -1;  // /proc/stat not read
    auto j = machine_to_json(model);
    EXPECT_TRUE(j["environment"]["steal_share"].is_null());
    EXPECT_EQ(machine_from_json(j).environment.steal_share, -1);
    j["environment"]["steal_share"] = 1.5;  // more than all of the CPUs' time
    EXPECT_THROW(machine_from_json(j), std::exception);
}

TEST(MachineJson, RoundTripThroughText) {
    const auto original = populated_model();
    const auto text = machine_to_json(original).dump(2);
    expect_equal(original, machine_from_json(nlohmann::json::parse(text)));
}

TEST(MachineJson, WritesSchemaUnitsAndDerivedEfficiency) {
    const auto j = machine_to_json(populated_model());
    EXPECT_EQ(j.at("schema"), "roofline.machine/1");
    EXPECT_EQ(j.at("units").at("gflops"), "1e9 FLOP/s");
    EXPECT_NE(j.at("units").at("gbs").get<std::string>().find("nominal"), std::string::npos);
    EXPECT_NE(j.at("units").at("gbs_write_allocate").get<std::string>().find("write-allocate"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(j.at("compute").at(0).at("efficiency").get<double>(), 127.25 / 153.6);
    // No theoretical peak known: no efficiency rather than a division by zero.
    EXPECT_FALSE(j.at("compute").at(1).contains("efficiency"));
    EXPECT_EQ(j.at("curves").at(0).at("points").at(1).at(0).get<std::uint64_t>(), 1ull << 30);
}

// A file whose units block says its figures are in other units is refused, naming the unit;
// the block as written, a block without that figure or no block at all is read.
TEST(MachineJson, FiguresInOtherUnitsAreRefused) {
    auto j = machine_to_json(populated_model());
    EXPECT_NO_THROW(machine_from_json(j));
    j["units"]["not_a_figure_read"] = "furlongs";
    EXPECT_NO_THROW(machine_from_json(j));
    j["units"]["gbs"] = "GiB/s";
    try {
        machine_from_json(j, "m.json");
        ADD_FAILURE() << "GiB/s was read as GB/s";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/units/gbs: the figures are said to be in \"GiB/s\""), std::string::npos)
            << e.what();
    }
    j["units"].erase("gbs");
    EXPECT_NO_THROW(machine_from_json(j));
    j["units"] = "GB/s";
    EXPECT_THROW(machine_from_json(j), std::exception);
    j.erase("units");
    EXPECT_NO_THROW(machine_from_json(j));
}

TEST(MachineJson, UnknownKeysAreIgnored) {
    auto j = machine_to_json(populated_model());
    j["future_section"] = {{"anything", 1}};
    j["compute"][0]["new_field"] = "x";
    EXPECT_NO_THROW(machine_from_json(j));
}

TEST(MachineJson, MinimalHandWrittenModelIsAccepted) {
    const auto j = nlohmann::json::parse(R"({
        "schema": "roofline.machine/1",
        "cpu": {"model": "spec sheet CPU"},
        "compute": [{"precision": "dp", "gflops": 100}],
        "memory": [{"level": "DRAM", "pattern": "load", "gbs": 20.5}]
    })");
    const auto m = machine_from_json(j);
    EXPECT_EQ(m.cpu.model, "spec sheet CPU");
    ASSERT_EQ(m.compute.size(), 1u);
    EXPECT_EQ(m.compute[0].gflops, 100);
    EXPECT_EQ(m.compute[0].threads, 1);
    EXPECT_EQ(m.memory[0].gbs, 20.5);
    EXPECT_FALSE(m.partial);
}

TEST(MachineJson, WrongSchemaIsRejected) {
    auto j = machine_to_json(populated_model());
    j["schema"] = "roofline.points/1";
    const auto message = schema_error_of([&] { machine_from_json(j, "model.json"); });
    EXPECT_NE(message.find("model.json"), std::string::npos) << message;
    EXPECT_NE(message.find("/schema"), std::string::npos) << message;
    EXPECT_NE(message.find("roofline.machine/1"), std::string::npos) << message;
    EXPECT_NE(message.find("roofline.points/1"), std::string::npos) << message;
}

TEST(MachineJson, UnknownModeIsRejected) {
    auto j = machine_to_json(populated_model());
    EXPECT_EQ(j["environment"]["mode"], "full");
    j["environment"]["mode"] = "turbo";
    const auto message = schema_error_of([&] { machine_from_json(j, "model.json"); });
    EXPECT_NE(message.find("/environment/mode"), std::string::npos) << message;
    EXPECT_NE(message.find("\"quick\", \"full\" or \"spec\""), std::string::npos) << message;
}

TEST(MachineJson, MissingSchemaIsRejected) {
    auto j = machine_to_json(populated_model());
    j.erase("schema");
    const auto message = schema_error_of([&] { machine_from_json(j, "model.json"); });
    EXPECT_NE(message.find("/schema"), std::string::npos) << message;
    EXPECT_NE(message.find("missing"), std::string::npos) << message;
}

TEST(MachineJson, MissingFieldNamesPathAndType) {
    auto j = machine_to_json(populated_model());
    j["compute"][1].erase("gflops");
    const auto message = schema_error_of([&] { machine_from_json(j, "m.json"); });
    EXPECT_NE(message.find("m.json"), std::string::npos) << message;
    EXPECT_NE(message.find("/compute/1/gflops"), std::string::npos) << message;
    EXPECT_NE(message.find("expected a number"), std::string::npos) << message;
}

TEST(MachineJson, WrongTypeNamesPathExpectedAndFound) {
    auto j = machine_to_json(populated_model());
    j["compute"][1]["gflops"] = "fast";
    const auto message = schema_error_of([&] { machine_from_json(j, "m.json"); });
    EXPECT_NE(message.find("/compute/1/gflops"), std::string::npos) << message;
    EXPECT_NE(message.find("expected a number, found string"), std::string::npos) << message;

    j = machine_to_json(populated_model());
    j["memory"][0]["threads"] = 1.5;
    const auto threads_message = schema_error_of([&] { machine_from_json(j, "m.json"); });
    EXPECT_NE(threads_message.find("/memory/0/threads"), std::string::npos) << threads_message;
    EXPECT_NE(threads_message.find("expected an integer"), std::string::npos) << threads_message;

    j = machine_to_json(populated_model());
    j["caches"][0]["size_bytes"] = -1;
    const auto size_message = schema_error_of([&] { machine_from_json(j, "m.json"); });
    EXPECT_NE(size_message.find("/caches/0/size_bytes"), std::string::npos) << size_message;

    j = machine_to_json(populated_model());
    j["curves"][0]["points"][1] = {1, 2, 3};
    const auto curve_message = schema_error_of([&] { machine_from_json(j, "m.json"); });
    EXPECT_NE(curve_message.find("/curves/0/points/1"), std::string::npos) << curve_message;

    const auto root_message = schema_error_of([&] { machine_from_json(nlohmann::json::array(), "m.json"); });
    EXPECT_NE(root_message.find("expected an object, found array"), std::string::npos) << root_message;
}

TEST(MachineJson, NonFiniteValuesBecomeNullAndReadBackAsNaN) {
    auto m = populated_model();
    m.compute[0].theoretical_gflops = std::numeric_limits<double>::quiet_NaN();
    auto j = machine_to_json(m);
    EXPECT_TRUE(j["compute"][0]["theoretical_gflops"].is_null());
    EXPECT_TRUE(std::isnan(machine_from_json(j).compute[0].theoretical_gflops));
    // A roof itself must be a figure: null would draw nothing and judge nothing.
    m.compute[0].gflops = std::numeric_limits<double>::quiet_NaN();
    j = machine_to_json(m);
    EXPECT_TRUE(j["compute"][0]["gflops"].is_null());
    EXPECT_THROW(machine_from_json(j), SchemaError);
}

// The error a reader gives for the populated model after `edit`, or "accepted".
template <typename Edit>
std::string machine_error_for(Edit edit) {
    auto j = machine_to_json(populated_model());
    edit(j);
    try {
        machine_from_json(j, "m.json");
    } catch (const SchemaError& e) {
        return std::string(e.what());
    }
    return std::string("accepted");
}

// Figures the model cannot believe are refused with the file and the place.
TEST(MachineJson, FiguresOutsideTheirRangeAreRefusedWithThePlace) {
    const auto error_for = [](auto edit) { return machine_error_for(edit); };
    EXPECT_EQ(error_for([](auto& j) { j["compute"][0]["gflops"] = -5; }),
              "m.json: /compute/0/gflops: expected a rate from 1e-6 to 1e9 G/s (1 k/s to 1 E/s), found -5");
    EXPECT_NE(error_for([](auto& j) { j["compute"][0]["gflops"] = 0; }).find("/compute/0/gflops: expected a rate"), std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["compute"][0]["gflops"] = 1e308; }).find("found 1e+308"), std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["memory"][0]["gbs"] = 4.9e-324; }).find("/memory/0/gbs: expected a rate"),
              std::string::npos);
    EXPECT_EQ(error_for([](auto& j) { j["compute"][0]["threads"] = 0; }),
              "m.json: /compute/0/threads: expected an integer from 1 to 1048576, found 0");
    EXPECT_NE(error_for([](auto& j) { j["memory"][0]["threads"] = -2; }).find("/memory/0/threads"), std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["memory"][0]["level"] = "L9"; }).find("unknown level 'L9'"), std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["caches"][0]["level"] = 0; }).find("/caches/0/level"), std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["cpu"]["clock_ghz"] = -3; }).find("/cpu/clock_ghz: expected a clock"),
              std::string::npos);
    EXPECT_NE(error_for([](auto& j) { j["compute"][0]["precision"] = "d p\x1b"; }).find("/compute/0/precision"),
              std::string::npos);
    EXPECT_EQ(error_for([](auto&) {}), "accepted");
}

// Models written by earlier versions name --working-set roofs "custom": they are read and
// kept as they are (every file the tool wrote, every command reads). Only memory roofs:
// elsewhere, and in another spelling, "custom" is still an unknown level.
TEST(MachineJson, CustomWorkingSetRoofsOfEarlierVersionsAreRead) {
    auto j = machine_to_json(populated_model());
    j["memory"][0]["level"] = "custom";
    const auto m = machine_from_json(j, "m.json");
    EXPECT_EQ(m.memory[0].level, "custom");
    EXPECT_EQ(machine_to_json(m)["memory"][0]["level"], "custom");
    EXPECT_NE(machine_error_for([](auto& j) { j["memory"][0]["level"] = "Custom"; }).find("unknown level 'Custom'"),
              std::string::npos);
    EXPECT_NE(machine_error_for([](auto& j) { j["memory"][0]["level"] = 7; }).find("/memory/0/level"),
              std::string::npos);
    ASSERT_FALSE(j["validation"].empty());
    EXPECT_NE(machine_error_for([](auto& j) { j["validation"][0]["level"] = "custom"; }).find("unknown level 'custom'"),
              std::string::npos);
}

// A roof's statistics as the writer stores them: the CV a fraction (0.05 is 5%,
// outputs print the percent), min <= median <= max of one set of samples.
TEST(MachineJson, StatisticsOnTheWritersScaleAndInOrder) {
    const auto error_for = [](auto edit) { return machine_error_for(edit); };
    EXPECT_EQ(machine_from_json(machine_to_json(populated_model())).compute[0].stats.cv, 0.0125);
    EXPECT_EQ(error_for([](auto& j) { j["compute"][0]["stats"]["cv"] = 0.5; }), "accepted");
    EXPECT_EQ(error_for([](auto& j) { j["compute"][0]["stats"]["cv"] = 100; }),
              "m.json: /compute/0/stats/cv: expected a coefficient of variation from 0 to 10 (a fraction: 0.05 is "
              "5%), found 100");
    EXPECT_EQ(error_for([](auto& j) {
                  j["compute"][0]["stats"] = {{"cv", 0.01}, {"min", 900}, {"max", 1}};
              }),
              "m.json: /compute/0/stats/min: expected at most max (1), found 900");
    EXPECT_EQ(error_for([](auto& j) { j["memory"][1]["stats"]["median"] = 30; }),
              "m.json: /memory/1/stats/median: expected a median from min to max (20 to 22), found 30");
    // Figures left out (or null) are unknown, not out of order.
    EXPECT_EQ(error_for([](auto& j) {
                  j["compute"][0]["stats"]["min"] = nullptr;
                  j["compute"][0]["stats"].erase("max");
              }),
              "accepted");
}

TEST(MachineJsonFile, AtomicWriteThenRead) {
    TempDir dir;
    const auto path = (dir.path() / "machine.json").string();
    const auto original = populated_model();
    write_machine_file(path, original);
    expect_equal(original, read_machine_file(path));
    EXPECT_EQ(dir.entries(), 1u) << "temporary file left behind";

    // Overwriting replaces the whole file.
    auto changed = original;
    changed.compute.resize(1);
    write_machine_file(path, changed);
    EXPECT_EQ(read_machine_file(path).compute.size(), 1u);
    EXPECT_EQ(dir.entries(), 1u);

    // Pretty-printed with two-space indentation.
    const auto text = read_text_file(path);
    EXPECT_NE(text.find("\n  \"cpu\": {\n    \""), std::string::npos);
}

TEST(MachineJsonFile, WriteIntoMissingDirectoryNamesPathAndReason) {
    TempDir dir;
    const auto path = (dir.path() / "missing" / "machine.json").string();
    try {
        write_machine_file(path, populated_model());
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
    }
}

TEST(MachineJsonFile, ReadErrorsNameTheFile) {
    TempDir dir;
    const auto missing = (dir.path() / "absent.json").string();
    try {
        read_machine_file(missing);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    }

    const auto broken = (dir.path() / "broken.json").string();
    std::ofstream(broken) << "{\n  \"schema\": \"roofline.machine/1\",\n  \"cpu\": }\n";
    const auto message = schema_error_of([&] { read_machine_file(broken); });
    EXPECT_NE(message.find(broken), std::string::npos) << message;
    EXPECT_NE(message.find("line 3"), std::string::npos) << message;

    const auto wrong = (dir.path() / "wrong.json").string();
    std::ofstream(wrong) << R"({"schema": "roofline.machine/1", "cpu": {"model": 7}})";
    const auto type_message = schema_error_of([&] { read_machine_file(wrong); });
    EXPECT_NE(type_message.find(wrong), std::string::npos) << type_message;
    EXPECT_NE(type_message.find("/cpu/model: expected a string, found integer"), std::string::npos)
        << type_message;
}

TEST(CheckWritable, MissingDirectoryFails) {
    TempDir dir;
    const auto path = (dir.path() / "no-such-dir" / "out.json").string();
    try {
        check_writable(path);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
    }
}

TEST(CheckWritable, ExistingDirectorySucceedsAndLeavesNothing) {
    TempDir dir;
    EXPECT_NO_THROW(check_writable((dir.path() / "out.json").string()));
    EXPECT_EQ(dir.entries(), 0u);
    EXPECT_FALSE(fs::exists(dir.path() / "out.json"));
}

TEST(CheckWritable, ExistingFileIsNotTruncated) {
    TempDir dir;
    const auto path = (dir.path() / "keep.json").string();
    std::ofstream(path) << "precious";
    EXPECT_NO_THROW(check_writable(path));
    EXPECT_EQ(read_text_file(path), "precious");
    EXPECT_EQ(dir.entries(), 1u);
}

TEST(CheckWritable, DirectoryAsPathFails) {
    TempDir dir;
    try {
        check_writable(dir.path().string());
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
}

TEST(CheckWritable, ReadOnlyDirectoryFails) {
    if (::geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
    TempDir dir;
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(check_writable((dir.path() / "out.json").string()), std::runtime_error);
}
