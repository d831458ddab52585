// The engine registry: every engine once, auto resolved as before the registry, and the capability
// queries answering as the CLI's checks did when they tested engine kinds.
#include "measure/engine_registry.hpp"

#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

using namespace roofline::measure;
using Cap = EngineCapability;

namespace {

// The names of the engines that can do `capability`, auto included.
std::set<std::string> engines_that(Cap capability) {
    std::set<std::string> names;
    for (const auto& e : engines())
        if (e.can(capability)) names.insert(e.name);
    return names;
}

using Names = std::set<std::string>;

} // namespace

TEST(EngineRegistry, EveryEngineListedOnceUnderAUniqueName) {
    for (auto kind : {EngineKind::automatic, EngineKind::instrument, EngineKind::perf, EngineKind::time, EngineKind::ncu}) {
        int rows = 0;
        for (const auto& e : engines()) rows += e.kind == kind;
        EXPECT_EQ(rows, 1) << engine_name(kind);
        EXPECT_EQ(engine_named(engine_name(kind)).kind, kind);
    }
    const auto names = engine_names();
    EXPECT_EQ(Names(names.begin(), names.end()).size(), names.size());
    // auto first, then auto's order of preference; --engine's help is read in this order.
    EXPECT_EQ(names, (std::vector<std::string>{"auto", "perf", "instrument", "time", "ncu"}));
    EXPECT_THROW(engine_named("magic"), std::invalid_argument);
    try {
        engine_named("magic");
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "unknown engine 'magic' (auto, perf, instrument, time, ncu)");
    }
}

TEST(EngineRegistry, HelpIsEachEnginesLine) {
    EXPECT_EQ(engines_help(),
              "auto: perf when hardware counters are available, else instrument (Valgrind tool), else time; "
              "perf: hardware counters; instrument: Valgrind tool; time: timing only; ncu: a CUDA program, a "
              "point per kernel from Nsight Compute (FLOPs per precision, bytes at L1, L2 and DRAM)");
}

TEST(EngineRegistry, OnlyTheCpuEnginesRunHereAndAutoPicksOne) {
    for (const auto& e : engines()) {
        EXPECT_EQ(e.run != nullptr, !e.automatic && !e.runs_through_gpu_backend) << e.name;
        EXPECT_FALSE(e.automatic && e.runs_through_gpu_backend) << e.name;
        // An engine run through a GPU backend says whose; a CPU engine names no GPU vendor.
        EXPECT_EQ(e.gpu_vendor != roofline::GpuVendor::unknown, e.runs_through_gpu_backend) << e.name;
    }
    EXPECT_EQ(engine_descriptor(EngineKind::ncu).gpu_vendor, roofline::GpuVendor::nvidia);
    // What auto offers, some engine it may pick can do.
    for (const auto capability : engine_descriptor(EngineKind::automatic).capabilities) {
        const auto& able = engine_for(capability);
        EXPECT_FALSE(able.runs_through_gpu_backend) << capability_name(capability);
    }
}

TEST(EngineRegistry, CapabilitiesAnswerAsTheEngineKindTestsDid) {
    // --functions, --region-function, --loops: the instrument engine, or auto made to pick it.
    EXPECT_EQ(engines_that(Cap::functions), (Names{"auto", "instrument"}));
    EXPECT_EQ(engines_that(Cap::loops), (Names{"auto", "instrument"}));
    EXPECT_EQ(engine_for(Cap::functions).kind, EngineKind::instrument);
    EXPECT_EQ(engine_for(Cap::loops).kind, EngineKind::instrument);
    // --cache-model and --cache-sim: refused with --engine time and --engine perf.
    EXPECT_EQ(engines_that(Cap::cache_simulation), (Names{"auto", "instrument"}));
    // --times, --counts-from, MPI's two runs, stdin replayed: a counting run besides the native one.
    EXPECT_EQ(engines_that(Cap::counting_run), (Names{"auto", "instrument"}));
    EXPECT_EQ(engine_for(Cap::counting_run).kind, EngineKind::instrument);
    // The provenance's runs name every engine but time (which counts nothing).
    EXPECT_FALSE(engine_descriptor(EngineKind::time).can(Cap::counts));
    EXPECT_TRUE(engine_descriptor(EngineKind::perf).can(Cap::counts));
    EXPECT_TRUE(engine_descriptor(EngineKind::instrument).can(Cap::counts));
    // The perf engine counts the timed run itself (isa_counted); Valgrind decodes no AVX-512 (the EVEX check).
    EXPECT_EQ(engines_that(Cap::counts_avx512), (Names{"perf"}));
    // The perf engine's regions count only the threads that opened them (its note under --region-scope process).
    EXPECT_FALSE(engine_descriptor(EngineKind::perf).can(Cap::threads));
    EXPECT_TRUE(engine_descriptor(EngineKind::instrument).can(Cap::threads));
    EXPECT_EQ(engines_that(Cap::hardware_counters), (Names{"perf", "ncu"}));
    // ncu: GPU kernels through the GPU backend, no CPU engine's option, no MPI rank of its own.
    EXPECT_EQ(engines_that(Cap::gpu_kernels), (Names{"ncu"}));
    EXPECT_TRUE(engine_descriptor(EngineKind::ncu).runs_through_gpu_backend);
    EXPECT_EQ(engines_that(Cap::mpi), (Names{"auto", "perf", "instrument", "time"}));
    EXPECT_EQ(engines_that(Cap::regions), (Names{"auto", "perf", "instrument", "time"}));
}

TEST(EngineRegistry, RefusalsNameTheCpuEnginesThatCannot) {
    using List = std::vector<std::string>;
    EXPECT_EQ(cpu_engines_without(Cap::cache_simulation), (List{"perf", "time"}));
    EXPECT_EQ(cpu_engines_without(Cap::counting_run), (List{"perf", "time"}));
    EXPECT_EQ(cpu_engines_without(Cap::gpu_kernels), (List{"perf", "instrument", "time"}));  // ncu: no CPU engine
    EXPECT_TRUE(cpu_engines_without(Cap::regions).empty());
}

TEST(EngineRegistry, ARequestedEngineIsTakenAsRequested) {
    MeasureRequest request;
    request.argv = {"true"};
    for (auto kind : {EngineKind::instrument, EngineKind::perf, EngineKind::time, EngineKind::ncu}) {
        request.engine = kind;
        EngineProbes probes;
        const auto choice = choose_engine(request, probes);
        EXPECT_EQ(choice.kind, kind);
        EXPECT_EQ(choice.reason, "requested");
    }
}

TEST(EngineRegistry, AutoWithoutCountersNorValgrindIsTimeAndSaysWhy) {
    EngineProbes probes;
    if (probes.perf().hardware) GTEST_SKIP() << "hardware counters available: auto picks perf";
    roofline::test::ScopedEnv path("PATH", "/nonexistent");  // no valgrind
    MeasureRequest request;
    request.argv = {"/bin/true"};
    const auto choice = choose_engine(request, probes);
    EXPECT_EQ(choice.kind, EngineKind::time);
    EXPECT_EQ(choice.reason, "time only, no FLOPs or bytes: perf is unavailable: " + probes.perf().reason +
                                 "; the instrument engine is unavailable: valgrind is not installed");
}

TEST(EngineRegistry, AutoWithoutCountersTakesTheInstrumentEngineWhenItIsThere) {
    EngineProbes probes;
    if (probes.perf().hardware) GTEST_SKIP() << "hardware counters available: auto picks perf";
    MeasureRequest request;
    request.argv = {"/bin/true"};
    // The build tree's roofline, next to tests/: its vgtool/ holds the Valgrind tool.
    request.self_exe = (std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "roofline").string();
    const auto instrument = engine_descriptor(EngineKind::instrument).availability(request, probes);
    if (!instrument.available) GTEST_SKIP() << instrument.reason;
    const auto choice = choose_engine(request, probes);
    EXPECT_EQ(choice.kind, EngineKind::instrument);
    EXPECT_EQ(choice.reason, "perf is unavailable: " + probes.perf().reason);
}

TEST(EngineRegistry, TheGpuEngineIsNotRunHere) {
    MeasureRequest request;
    request.argv = {"true"};
    request.engine = EngineKind::ncu;
    try {
        run_measurement(request);
        FAIL() << "ncu ran through run_measurement";
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("GPU backend"), std::string::npos) << e.what();
    }
}
