// app/measure_plan: measure's options to its runs' request, and what is refused before anything runs.
#include "app/measure_plan.hpp"
#include "app/request_error.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace roofline;

namespace {

app::MeasureOptions command(std::vector<std::string> argv) {
    app::MeasureOptions o;
    o.command = std::move(argv);
    o.no_store = true;
    return o;
}

measure::EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

std::string refusal(const app::MeasureOptions& options, const char* engine = "auto") {
    try {
        app::MeasurePlanner planner(options, app::requested_engine(engine));
        planner.plan_runs(env_of({}));
    } catch (const app::RequestError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(AppMeasurePlan, TheGpuEngineAndARecordedCsvGoToGpuMeasure) {
    EXPECT_TRUE(app::measures_gpu_kernels(app::requested_engine("ncu"), false, "ncu"));
    EXPECT_TRUE(app::measures_gpu_kernels(app::requested_engine("auto"), true, "auto"));
    EXPECT_FALSE(app::measures_gpu_kernels(app::requested_engine("time"), false, "time"));
    EXPECT_THROW(app::measures_gpu_kernels(app::requested_engine("time"), true, "time"), app::RequestError);
    EXPECT_THROW(app::requested_engine("nonesuch"), app::RequestError);
}

TEST(AppMeasurePlan, AutoPicksTheEngineTheOptionsNeed) {
    auto o = command({"true"});
    o.functions = true;
    app::MeasurePlanner planner(o, app::requested_engine("auto"));
    EXPECT_EQ(planner.request().engine, measure::engine_for(measure::EngineCapability::functions).kind);
    const auto plan = planner.plan_runs(env_of({}));
    EXPECT_TRUE(plan.program.functions);
    EXPECT_FALSE(plan.mpi);
    EXPECT_EQ(plan.program.measure.argv, std::vector<std::string>{"true"});
}

TEST(AppMeasurePlan, WhatCannotBeDoneIsRefusedNamingTheOption) {
    EXPECT_NE(refusal(command({})).find("no command to measure"), std::string::npos);
    EXPECT_NE(refusal(command({"/usr/bin/mpirun", "-n", "2", "./app"})).find("'mpirun' is a launcher"),
              std::string::npos);
    auto loops = command({"true"});
    loops.loops = true;
    EXPECT_NE(refusal(loops, "time").find("--loops needs the instrument engine"), std::string::npos);
    loops.counts_from = "true";  // no debug information: its loops cannot be matched by source lines
    EXPECT_NE(refusal(loops).find("build both with -g"), std::string::npos);
    // Two builds' loops inside --region-function's calls: refused, saying why and what to run instead.
    loops.region_functions = {"daxpy"};
    const auto within = refusal(loops);
    EXPECT_NE(within.find("not those inside --region-function's calls"), std::string::npos) << within;
    EXPECT_NE(within.find("measure the counted build alone: roofline measure --loops --region-function NAME"),
              std::string::npos)
        << within;
    auto scope = command({"true"});
    scope.region_scope = "galaxy";
    EXPECT_FALSE(refusal(scope, "time").empty());
    auto times = command({"true"});
    times.times = "times.json";
    EXPECT_NE(refusal(times, "perf").find("--times replaces the native run"), std::string::npos);
}

TEST(AppMeasurePlan, RefusalsNameTheEnginesFromTheRegistry) {
    auto times = command({"true"});
    times.times = "times.json";
    EXPECT_NE(refusal(times, "time").find("--times replaces the native run of the instrument engine; the perf and "
                                          "time engines take their own times"),
              std::string::npos)
        << refusal(times, "time");
    auto model = command({"true"});
    model.cache_model = "model.yaml";
    EXPECT_NE(refusal(model, "perf").find("--cache-model is simulated by the instrument engine: drop --cache-sim off, "
                                          "--engine perf or --engine time"),
              std::string::npos)
        << refusal(model, "perf");
}

TEST(AppMeasurePlan, ARankThatMayStartItsProgramOnceIsToldToMeasureInTwoLaunches) {
    app::MeasurePlanner planner(command({"./app"}), app::requested_engine("instrument"));
    try {
        planner.plan_runs(env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"PMI_FD", "6"}}));
        FAIL() << "a Hydra rank cannot run the instrument engine's two runs";
    } catch (const app::RequestError& e) {
        EXPECT_NE(std::string(e.what()).find("Measure in two launches"), std::string::npos) << e.what();
    }
    // The time engine needs one run: planned, not repeated, standard input not replayed.
    app::MeasurePlanner timed(command({"./app"}), app::requested_engine("time"));
    const auto plan = timed.plan_runs(env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"PMI_FD", "6"}}));
    ASSERT_TRUE(plan.mpi);
    EXPECT_FALSE(plan.quiet_rank());  // rank 0 speaks for the job
    EXPECT_FALSE(plan.rank_rerun);
    EXPECT_FALSE(plan.program.replay_stdin);
    EXPECT_EQ(plan.program.measure.repeat.timed_runs, 1);
}
