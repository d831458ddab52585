// The kernel sweep's use case (app/kernel_sweep.hpp): the plan a request makes, checked before
// anything runs, and a tiny sweep's steps and result.
#include "app/kernel_sweep.hpp"
#include "core/machine_roofline.hpp"
#include "core/reference_kernels.hpp"
#include "core/roofline.hpp"
#include "render/advice_text.hpp"
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "topo/topology.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roofline::app {
namespace {

std::vector<CacheLevel> two_caches() {
    CacheLevel l1, l2;
    l1.level = 1, l1.size_bytes = 32 << 10;
    l2.level = 2, l2.size_bytes = 1 << 20;
    l2.finding = "L2: reported 1 GiB, not believed";
    return {l1, l2};
}

KernelSweepPlan plan_of(const KernelSweepRequest& r, std::vector<std::string>* findings = nullptr, int cores = 4) {
    return plan_kernel_sweep(r, cores, two_caches, [&](const std::string& f) {
        if (findings) findings->push_back(f);
    });
}

TEST(KernelSweepPlan, NamedKernelsAtTheDefaultSizesOfTheCaches) {
    KernelSweepRequest r;
    r.names = {"stream_triad", "ddot"};
    std::vector<std::string> findings;
    const auto plan = plan_of(r, &findings);
    ASSERT_EQ(plan.runs.size(), 2u);
    EXPECT_EQ(plan.runs[0].label, "stream_triad");
    EXPECT_EQ(plan.runs[1].label, "ddot");
    // Half of each cache, and 8x the last but at least 64 MiB.
    EXPECT_EQ(plan.sizes, (std::vector<std::uint64_t>{16 << 10, 512 << 10, 64ull << 20}));
    EXPECT_EQ(findings, std::vector<std::string>{"L2: reported 1 GiB, not believed"});
}

TEST(KernelSweepPlan, SizesGivenAreParsedAndTheCacheFindingsNotSaid) {
    KernelSweepRequest r;
    r.names = {"stream_triad"};
    r.sizes = "1K..4K:x2";
    std::vector<std::string> findings;
    const auto plan = plan_of(r, &findings);
    EXPECT_EQ(plan.sizes, (std::vector<std::uint64_t>{1024, 2048, 4096}));
    EXPECT_TRUE(findings.empty());
}

TEST(KernelSweepPlan, NoNameIsEveryKernelOnce) {
    const auto plan = plan_of({});
    EXPECT_EQ(plan.kernels.size(), reference_kernel_registry().size());
    EXPECT_EQ(plan.runs.size(), reference_kernel_registry().size());
}

TEST(KernelSweepPlan, AParameterGridIsEveryCombinationForTheKernelsThatHaveIt) {
    KernelSweepRequest r;
    r.names = {"atb_ours", "stream_triad"};
    r.params = {"m=8,16,8,8"};  // a value twice runs once, and is kept to be said
    const auto plan = plan_of(r);
    ASSERT_EQ(plan.repeated_params.size(), 1u);
    EXPECT_EQ(plan.repeated_params[0].name, "m");
    EXPECT_EQ(plan.repeated_params[0].repeated, std::vector<std::int64_t>{8});
    ASSERT_EQ(plan.runs.size(), 3u);
    EXPECT_EQ(plan.runs[0].label, "atb_ours m=8");
    EXPECT_EQ(plan.runs[1].label, "atb_ours m=16");
    EXPECT_EQ(plan.runs[1].params.at("m"), 16);
    EXPECT_EQ(plan.runs[2].label, "stream_triad");  // it has no m: its defaults
}

TEST(KernelSweepPlan, WhatMakesNoSenseIsARequestErrorSayingWhat) {
    const auto error_of = [](const KernelSweepRequest& r) {
        try {
            (void)plan_of(r);
        } catch (const RequestError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    KernelSweepRequest r;
    r.names = {"stream_triads"};
    EXPECT_NE(error_of(r).find("no kernel 'stream_triads'"), std::string::npos) << error_of(r);
    r = {};
    r.threads = 5;
    EXPECT_EQ(error_of(r), "--threads must be 1 to 4 (the cores of this machine)");
    r = {};
    r.samples = 0;
    EXPECT_EQ(error_of(r), "--samples must be 1 to 1000");
    r = {};
    r.names = {"stream_triad"};
    r.params = {"m=8"};
    EXPECT_NE(error_of(r).find("--param m: none of the kernels chosen has it"), std::string::npos) << error_of(r);
    r.names = {"atb_ours"};
    r.params = {"m=8,x"};
    EXPECT_EQ(error_of(r), "--param m: 'x' is not a whole number");
    r.params = {"m=7"};  // not a multiple of 8
    EXPECT_NE(error_of(r).find("--param: "), std::string::npos) << error_of(r);
    r.params = {};
    r.sizes = "1K..";
    EXPECT_NE(error_of(r).find("--sizes: "), std::string::npos) << error_of(r);
}

// A kernel named twice was announced as two ("2 kernels at 2 sizes") and run once, unsaid.
TEST(KernelSweepPlan, AKernelOrSizeGivenTwiceIsPlannedOnceAndKeptToBeSaid) {
    KernelSweepRequest r;
    r.names = {"daxpy", "ddot", "daxpy", "daxpy"};
    r.sizes = "16K,32K,16384,16K";
    const auto plan = plan_of(r);
    ASSERT_EQ(plan.kernels.size(), 2u);
    EXPECT_EQ(plan.kernels[0]->name(), "daxpy");
    EXPECT_EQ(plan.kernels[1]->name(), "ddot");
    ASSERT_EQ(plan.runs.size(), 2u);
    EXPECT_EQ(plan.sizes, (std::vector<std::uint64_t>{16 << 10, 32 << 10}));
    ASSERT_EQ(plan.repeated_kernels.size(), 1u);
    EXPECT_EQ(plan.repeated_kernels[0].kernel, "daxpy");
    EXPECT_EQ(plan.repeated_kernels[0].given, (std::vector<std::string>{"daxpy", "daxpy", "daxpy"}));
    ASSERT_EQ(plan.repeated_sizes.size(), 1u);
    EXPECT_EQ(plan.repeated_sizes[0].bytes, 16u << 10);
    EXPECT_EQ(plan.repeated_sizes[0].times, 3);
    // Nothing repeated: nothing to say.
    r.names = {"daxpy"};
    r.sizes = "16K,32K";
    const auto once = plan_of(r);
    EXPECT_TRUE(once.repeated_kernels.empty());
    EXPECT_TRUE(once.repeated_sizes.empty());
}

TEST(KernelChoice, NamesAndPatternsChooseEachKernelOnceInTheOrderFirstChosen) {
    const auto names = [](const KernelChoice& c) {
        std::vector<std::string> out;
        for (const auto* k : c.kernels) out.push_back(k->name());
        return out;
    };
    auto choice = choose_reference_kernels({"sum_sp_simd", "sum_sp*"});
    EXPECT_EQ(names(choice), (std::vector<std::string>{"sum_sp_simd", "sum_sp_scalar", "sum_sp_unrolled"}));
    ASSERT_EQ(choice.repeated.size(), 1u);
    EXPECT_EQ(choice.repeated[0].kernel, "sum_sp_simd");
    EXPECT_EQ(choice.repeated[0].given, (std::vector<std::string>{"sum_sp_simd", "sum_sp*"}));
    EXPECT_EQ(names(choose_reference_kernels({"stream_?????"})), (std::vector<std::string>{"stream_scale", "stream_triad"}));
    EXPECT_EQ(names(choose_reference_kernels({})).size(), reference_kernel_registry().size());
    EXPECT_EQ(names(choose_reference_kernels({"*"})).size(), reference_kernel_registry().size());
    // "daxpy*" is a pattern: daxpy matches it; "daxp" is a name no kernel has.
    EXPECT_EQ(names(choose_reference_kernels({"daxpy*"})), std::vector<std::string>{"daxpy"});
    const auto error_of = [](const std::vector<std::string>& given) {
        try {
            (void)choose_reference_kernels(given);
        } catch (const RequestError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const auto unknown = error_of({"daxpy", "daxp"});
    EXPECT_EQ(unknown.rfind("no kernel 'daxp' (did you mean 'daxpy'?); the kernels: stream_copy, ", 0), 0u) << unknown;
    EXPECT_NE(unknown.find(", spmv_random ("), std::string::npos) << unknown;  // every one of them
    const auto no_match = error_of({"zz*"});
    EXPECT_EQ(no_match.rfind("no kernel matches 'zz*'; the kernels: stream_copy, ", 0), 0u) << no_match;
    EXPECT_EQ(error_of({"DAXPY"}).rfind("no kernel 'DAXPY'", 0), 0u);  // names are as --list prints them
}

TEST(KernelSweepPlan, TheCachesAreNotAskedForWhenTheThreadsAreWrong) {
    KernelSweepRequest r;
    r.threads = 3;
    bool asked = false;
    EXPECT_THROW(plan_kernel_sweep(r, 2, [&] { asked = true; return two_caches(); }), RequestError);
    EXPECT_FALSE(asked) << "the cache probe can take seconds: not for a request refused anyway";
}

TEST(KernelSweep, ATinySweepSaysEachPointAndKeepsTheCheckedOnes) {
    KernelSweepRequest r;
    r.names = {"stream_triad"};
    r.sizes = "4K,4K,8K";  // the same size twice runs once
    r.samples = 1;
    KernelSweep sweep(plan_of(r), Topology::discover(), nullptr);
    EXPECT_TRUE(sweep.all_threads_bound());
    std::vector<KernelSweepStep::Kind> kinds;
    std::vector<std::string> names;
    const std::atomic<bool> stop{false};
    sweep.run(stop, [&](const KernelSweepStep& s) {
        kinds.push_back(s.kind);
        names.push_back(s.point ? s.point->name : "");
        EXPECT_EQ(s.kernel, "stream_triad");
    });
    EXPECT_EQ(kinds, (std::vector<KernelSweepStep::Kind>{KernelSweepStep::Kind::measured,
                                                          KernelSweepStep::Kind::measured}));
    sweep.with_result([&](const KernelSweepResult& result) {
        ASSERT_EQ(result.points.size(), 2u);
        EXPECT_EQ(result.points[0].name, names[0]);
        EXPECT_EQ(result.points[0].series, "stream_triad");
        EXPECT_EQ(result.points[0].source.origin(), PointOrigin::kernel);
        EXPECT_GT(result.points[0].work, 0);
        EXPECT_GT(result.points[0].seconds, 0);
        EXPECT_EQ(result.keys.size(), 2u);
        EXPECT_NE(result.keys[0].find("kernels/1|stream_triad|n="), std::string::npos) << result.keys[0];
        EXPECT_FALSE(result.interrupted);
        EXPECT_EQ(result.failed_checks + result.skipped + result.from_cache, 0);
    });
}

// A point says its FLOPs' precision as the measuring engines do, so report and plot judge an
// sp kernel on the sp roofline (without it every kernel was judged as dp).
TEST(KernelSweep, APointSaysThePrecisionOfItsFlops) {
    KernelSweepRequest r;
    r.names = {"sum_sp_simd", "stream_triad"};
    r.sizes = "4K";
    r.samples = 1;
    KernelSweep sweep(plan_of(r), Topology::discover(), nullptr);
    sweep.run(std::atomic<bool>{false}, [](const KernelSweepStep&) {});
    sweep.with_result([&](const KernelSweepResult& result) {
        ASSERT_EQ(result.points.size(), 2u);
        for (const Point& p : result.points) {
            const bool sp = p.series == "sum_sp_simd";
            EXPECT_EQ(point_precision(p), sp ? "sp" : "dp") << p.name;
            EXPECT_DOUBLE_EQ(p.details.at(sp ? "flops_f32" : "flops_f64"), p.work) << p.name;
            EXPECT_FALSE(p.details.count(sp ? "flops_f64" : "flops_f32")) << p.name;
        }
    });
}

TEST(KernelSweep, AColdPointIsJudgedAtDramAndSaysItsCacheMode) {
    KernelSweepRequest r;
    r.names = {"stream_triad"};
    r.sizes = "16K";  // fits in L1 warm
    r.samples = 1;
    for (const auto mode : {CacheMode::cold, CacheMode::cold_data, CacheMode::warm}) {
        r.cache = mode;
        KernelSweep sweep(plan_of(r), Topology::discover(), nullptr);
        sweep.run(std::atomic<bool>{false}, [](const KernelSweepStep&) {});
        sweep.with_result([&](const KernelSweepResult& result) {
            ASSERT_EQ(result.points.size(), 1u);
            const Point& p = result.points[0];
            if (mode == CacheMode::warm) {
                EXPECT_FALSE(p.bytes.count("DRAM"));
                EXPECT_EQ(p.series, "stream_triad");
                return;
            }
            ASSERT_TRUE(p.bytes.count("DRAM")) << cache_mode_name(mode);
            EXPECT_DOUBLE_EQ(p.bytes.at("DRAM"), p.details.at("memory_read_bytes") + p.details.at("memory_written_bytes") +
                                                     p.details.at("write_allocate_bytes"));
            EXPECT_DOUBLE_EQ(p.bytes.at("L1"), p.details.at("bytes_loaded") + p.details.at("bytes_stored"));
            EXPECT_EQ(p.series, std::string("stream_triad ") + cache_mode_name(mode));
            EXPECT_NE(p.name.find(cache_mode_name(mode)), std::string::npos) << p.name;
        });
        Provenance provenance;
        describe_kernel_sweep(r, provenance);
        EXPECT_EQ(provenance.options.at("bytes").find("down to DRAM") != std::string::npos, mode != CacheMode::warm);
    }
}

TEST(KernelSweep, ASizeThatCannotBeHadIsSaidOnceAKernelWithWhatRan) {
    KernelSweepRequest r;
    r.names = {"stream_triad", "atb_ours"};
    r.params = {"m=32"};
    r.sizes = "1K,1100,24K";  // triad's smallest is 64 elements (1.5 KiB); atb m=32's is 64 rows (40 KiB)
    r.samples = 1;
    KernelSweep sweep(plan_of(r), Topology::discover(), nullptr);
    std::vector<KernelSweepStep> said;
    sweep.run(std::atomic<bool>{false}, [&](const KernelSweepStep& s) {
        if (s.kind == KernelSweepStep::Kind::size_changed) said.push_back(s);
    });
    ASSERT_EQ(said.size(), 2u) << "once a kernel";
    EXPECT_EQ(said[0].kernel, "stream_triad");
    EXPECT_EQ(said[0].bytes, 1024u);
    EXPECT_DOUBLE_EQ(said[0].used_bytes, 1536);
    EXPECT_TRUE(said[0].smallest);
    EXPECT_EQ(said[1].kernel, "atb_ours m=32");
    EXPECT_EQ(said[1].bytes, 1024u);
    EXPECT_DOUBLE_EQ(said[1].used_bytes, 16 * 64 * 32 + 8 * 32 * 32);
}

TEST(KernelSweep, AStopBeforeTheFirstPointMeasuresNothingAndSaysInterrupted) {
    KernelSweepRequest r;
    r.names = {"stream_triad"};
    r.sizes = "4K";
    KernelSweep sweep(plan_of(r), Topology::discover(), nullptr);
    const std::atomic<bool> stop{true};
    int steps = 0;
    sweep.run(stop, [&](const KernelSweepStep&) { ++steps; });
    EXPECT_EQ(steps, 0);
    sweep.with_result([](const KernelSweepResult& result) {
        EXPECT_TRUE(result.points.empty());
        EXPECT_TRUE(result.interrupted);
    });
}

TEST(KernelSweep, DefaultSizesLeaveOutWhatOneCallWouldTakeTooLongFor) {
    KernelSweepRequest r;
    r.names = {"dgemm_naive"};  // stops at 4 MiB by default
    KernelSweepPlan plan = plan_of(r);
    plan.sizes = {64ull << 20};
    KernelSweep sweep(std::move(plan), Topology::discover(), nullptr);
    std::vector<KernelSweepStep> steps;
    sweep.run(std::atomic<bool>{false}, [&](const KernelSweepStep& s) { steps.push_back(s); });
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].kind, KernelSweepStep::Kind::left_out);
    EXPECT_EQ(steps[0].max_bytes, 4 << 20);
}

TEST(KernelSweep, ALongCallIsAnnouncedOnlyWhenItRunsNotWhenTheStoreHasThePoint) {
    TempDir dir("roofline-sweep");
    ResultsStore store(dir.path() + "/r.db");
    KernelSweepRequest r;
    r.names = {"dgemm_naive"};  // past 4 MiB one call may take minutes
    r.sizes = "5M";
    r.samples = 1;
    const auto kinds_of = [&](KernelSweep& sweep) {
        std::vector<KernelSweepStep::Kind> kinds;
        sweep.run(std::atomic<bool>{false}, [&](const KernelSweepStep& s) { kinds.push_back(s.kind); });
        return kinds;
    };
    KernelSweep first(plan_of(r), Topology::discover(), &store);
    EXPECT_EQ(kinds_of(first), (std::vector<KernelSweepStep::Kind>{KernelSweepStep::Kind::long_calls_ahead,
                                                                      KernelSweepStep::Kind::measured}));
    first.with_result([&](const KernelSweepResult& result) {
        store.save_points("kernels", result.points, {}, nullptr, &result.keys);
    });
    KernelSweep again(plan_of(r), Topology::discover(), &store);
    EXPECT_EQ(kinds_of(again), std::vector<KernelSweepStep::Kind>{KernelSweepStep::Kind::cached})
        << "a point from the store takes no time: no warning of minutes";
}

// The scalar sums' FLOPs are scalar adds by their code, said as an engine counts them: a 4-thread
// add chain at one chain's rate per thread (3.7 GHz / 2 cycles: 1.85 GFLOP/s a thread), far under
// the L1 loads-alone ceiling, was told "fuse read-only passes" first; its chain is its step.
TEST(KernelSweep, TheScalarSumsSayTheirAddsSoTheirChainIsTheAdvice) {
    const ReferenceKernel& k = reference_kernel(ReferenceKernelId::sum_sp_scalar);
    ReferenceRun run;
    run.n = 1024;
    run.threads = 4;
    run.counts = k.counts(run.n);
    run.seconds = 4 * run.counts.flops / 6.5e9;  // 6.5 GFLOP/s on 4 threads: under 4 chains' 7.4
    run.samples = 1;
    const Point p = kernel_point(k, {}, run, two_caches());
    EXPECT_DOUBLE_EQ(p.details.at("flops_by_width_scalar"), p.work);
    EXPECT_DOUBLE_EQ(p.details.at("flops_f32_add"), p.work);
    // Other kernels' FLOPs are not said by width or kind: their compiled code decides.
    const ReferenceKernel& triad = reference_kernel(ReferenceKernelId::stream_triad);
    ReferenceRun t = run;
    t.counts = triad.counts(run.n);
    EXPECT_FALSE(kernel_point(triad, {}, t, two_caches()).details.count("flops_by_width_scalar"));

    Roofline r;
    r.label = "test";
    r.precision = "sp";
    r.threads = 4;
    r.clock_ghz = 3.7;
    r.compute = {"SP peak", "", 470};
    r.bandwidth = {{"L1 triad", "L1", 1200}, {"DRAM copy", "DRAM", 60}};
    r.ceilings = {{"L1 load", CeilingKind::bandwidth, "pattern", "L1", 900, "", true}};
    const Analysis a = analyze(r, p, View::carm);
    std::string advice;
    for (const auto& s : a.next_steps) advice += next_step_text(r, s) + "\n";
    EXPECT_EQ(advice.find("fuse read-only passes"), std::string::npos) << advice;
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.front().kind, NextStep::Kind::split_chain) << advice;
    // Its scalar share is its code's, not a count: the words say so.
    EXPECT_NE(advice.find("ran in scalar instructions (by its code)"), std::string::npos) << advice;
    EXPECT_EQ(advice.find("(counted)"), std::string::npos) << advice;
}

} // namespace
} // namespace roofline::app
