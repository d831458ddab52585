// FLOPs a program ran inside a math library (core/math_library_flops): an audit's loop of one
// exp() and one add per element read 21 FLOPs an element with nothing said; measure's program
// point of such a loop (2^20 exps, gcc -O2) holds 20,971,501 of its 23,068,653 FLOPs in libm.
#include "core/math_library_flops.hpp"
#include "core/roofline.hpp"
#include "measure/loop_counts.hpp"
#include "measure/merge.hpp"
#include "measure/protocol_json.hpp"
#include "render/advice_text.hpp"

#include <gtest/gtest.h>

using namespace roofline;

TEST(MathLibraryFlops, KnowsTheMathLibrariesByTheirFiles) {
    for (const char* yes : {"/usr/lib/x86_64-linux-gnu/libm.so.6", "libm-2.31.so", "/lib64/libmvec.so.1",
                            "/opt/aocl/lib/libamdlibm.so", "libalm.so", "/opt/intel/lib/libimf.so", "libsvml.so",
                            "/usr/lib/libsleef.so.3"})
        EXPECT_TRUE(is_math_library(yes)) << yes;
    for (const char* no : {"/usr/lib/x86_64-linux-gnu/libmpi.so.40", "libmkl_core.so", "/home/me/libmine.so",
                           "/usr/lib/libc.so.6", "libm", "", "/tmp/libm/app"})
        EXPECT_FALSE(is_math_library(no)) << no;
}

TEST(MathLibraryFlops, TheProgramsPointSaysHowManyOfItsFlopsRanInLibm) {
    measure::RegionCounts exp_fn, main_fn;
    exp_fn.name = "__ieee754_exp_fma";
    exp_fn.object = "/usr/lib/x86_64-linux-gnu/libm.so.6";
    exp_fn.flops = {{"f64_fma", 2 * 6291450.0}, {"f64_add", 8388601}};  // 20,971,501
    main_fn.name = "main";
    main_fn.object = "/tmp/e";
    main_fn.flops = {{"f64_add", 2097152}};
    Point p;
    p.name = "(program)";
    p.work = 23068653;
    measure::attribute_program_work(p, {exp_fn, main_fn});
    ASSERT_TRUE(p.details.count(kMathLibraryFlops));
    EXPECT_DOUBLE_EQ(p.details[kMathLibraryFlops], 20971501);
    const auto m = math_library_flops(p);
    ASSERT_TRUE(m);
    EXPECT_NEAR(m->share, 0.909, 0.001);
    EXPECT_EQ(math_library_flops_text(*m).substr(0, 80),
              "2.1e+07 of its FLOPs (90.9%) ran inside the math library (libm's exp, sin, pow .");
    // It is the program's code's file too (90.9%): report's library step names libmvec's way.
    EXPECT_EQ(p.object, "/usr/lib/x86_64-linux-gnu/libm.so.6");

    // Under 5% of its FLOPs: not said; nothing counted: nothing said.
    p.details[kMathLibraryFlops] = 0.04 * p.work;
    EXPECT_FALSE(math_library_flops(p));
    p.details[kMathLibraryFlops] = 0.5 * p.work;
    p.work_counted = false;
    EXPECT_FALSE(math_library_flops(p));
    // No math library among its functions: no detail.
    Point q;
    q.name = "(program)";
    q.work = 2097152;
    measure::attribute_program_work(q, {main_fn});
    EXPECT_FALSE(q.details.count(kMathLibraryFlops));
}

// A marker region (or function region) whose loop calls exp(): the tool writes its FLOPs by the file
// that ran them ("flops_by_object"), and its point carries its own math-library FLOPs, as the
// program's does. Before, only the program's point had them (its functions' files); a region's
// note was never said.
TEST(MathLibraryFlops, ARegionsPointSaysItsOwnShareFromItsFlopsByFile) {
    const auto report = measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 1, "flops": {"f64": {"add": 2200000}}, "bytes_loaded": 0, "bytes_stored": 0,
         "instructions": 1},
        {"name": "with libm", "calls": 1, "threads": 1, "flops": {"f64": {"add": 2100000}}, "bytes_loaded": 0,
         "bytes_stored": 0, "instructions": 1,
         "flops_by_object": {"/usr/lib/x86_64-linux-gnu/libm.so.6": 2000000, "/tmp/app": 100000}},
        {"name": "arithmetic", "calls": 1, "threads": 1, "flops": {"f64": {"add": 200000}}, "bytes_loaded": 0,
         "bytes_stored": 0, "instructions": 1, "flops_by_object": {"/tmp/app": 200000}}]})J",
                                                   "v.json");
    ASSERT_EQ(report.regions.size(), 3u);
    EXPECT_DOUBLE_EQ(report.regions[1].flops_by_object.at("/usr/lib/x86_64-linux-gnu/libm.so.6"), 2000000);
    Point with, without;
    measure::apply_counts(with, report.regions[1]);
    measure::apply_counts(without, report.regions[2]);
    ASSERT_TRUE(with.details.count(kMathLibraryFlops));
    EXPECT_DOUBLE_EQ(with.details[kMathLibraryFlops], 2000000);
    const auto m = math_library_flops(with);
    ASSERT_TRUE(m);
    EXPECT_NEAR(m->share, 2000000.0 / 2100000.0, 1e-12);
    EXPECT_FALSE(without.details.count(kMathLibraryFlops));

    // A loop's counts summed from its instructions' and its callees' files (measure --loops).
    measure::RegionCounts loop, own, callee;
    own.object = "/tmp/app";
    own.flops = {{"f64_add", 100}};
    callee.flops_by_object = {{"/usr/lib/x86_64-linux-gnu/libm.so.6", 2000}, {"/tmp/app", 5}};
    callee.flops = {{"f64_fma", 2005}};
    measure::add_counts(loop, own);
    measure::add_counts(loop, callee, 0.5);
    EXPECT_DOUBLE_EQ(loop.flops_by_object.at("/tmp/app"), 102.5);
    EXPECT_DOUBLE_EQ(loop.flops_by_object.at("/usr/lib/x86_64-linux-gnu/libm.so.6"), 1000);

    // A damaged file: a negative count refused, naming where.
    EXPECT_THROW(measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "r", "calls": 1, "threads": 1, "bytes_loaded": 0, "bytes_stored": 0, "instructions": 1,
         "flops_by_object": {"/lib/libm.so.6": -1}}]})J", "v.json"),
                 measure::MeasureError);
}

TEST(MathLibraryFlops, ALibmProgramIsToldOfVectorMathNotAPlanner) {
    Roofline r;
    r.compute.name = "DP peak";
    r.compute.value = 100;
    NextStep step{NextStep::Kind::library_code, {}, "L1", "L1 triad", 76.6, 0, "libm.so.6"};
    const auto text = next_step_text(r, step);
    EXPECT_NE(text.find("libmvec"), std::string::npos) << text;
    EXPECT_NE(text.find("-O3 -ffast-math"), std::string::npos) << text;
    EXPECT_EQ(text.find("planner or algorithm options (FFTW"), std::string::npos) << text;
}

TEST(MathLibraryFlops, TheMathLibrariesAProgramLoadsAreReadFromLdd) {
    // measure --loops counts them too: a loop of exp calls read 0 FLOPs without libm counted.
    const std::string ldd = "\tlinux-vdso.so.1 (0x00007ffd5a1f2000)\n"
                            "\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007f0e2d0b1000)\n"
                            "\tlibmvec.so.1 => /lib/x86_64-linux-gnu/libmvec.so.1 (0x00007f0e2cf00000)\n"
                            "\tlibsleef.so.3 => not found\n"
                            "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0e2ced0000)\n"
                            "\t/lib64/ld-linux-x86-64.so.2 (0x00007f0e2d1a0000)\n";
    EXPECT_EQ(math_libraries_in_ldd_output(ldd),
              (std::vector<std::string>{"/lib/x86_64-linux-gnu/libm.so.6", "/lib/x86_64-linux-gnu/libmvec.so.1"}));
    EXPECT_TRUE(math_libraries_in_ldd_output("\tnot a dynamic executable\n").empty());
    EXPECT_TRUE(math_libraries_in_ldd_output("").empty());
}

TEST(MathLibraryFlops, ALoopOfExpCallsIsToldVectorizingTakesAVectorMathLibrary) {
    // A loop calling exp per element, its FLOPs in libm (20 a call), scalar: 'vectorize with
    // -O3 -march=native' does not vectorize it; glibc's libmvec at -O3 -ffast-math does.
    Roofline r;
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 59};
    r.bandwidth = {{"L1 triad", "L1", 310}, {"DRAM copy", "DRAM", 30}};
    Point p;
    p.name = "main: exp.c:11 with its calls";
    p.work = 2e7;
    p.seconds = 0.006;
    p.bytes = {{"L1", 1.6e8}, {"DRAM", 8e6}};
    p.details = {{"flops_by_width_scalar", 2e7}, {"bytes_loaded", 1.2e8}, {"bytes_stored", 4e7},
                 {kMathLibraryFlops, 2e7}};
    const Analysis a = analyze(r, p, View::carm);
    const auto step = std::find_if(a.next_steps.begin(), a.next_steps.end(),
                                   [](const NextStep& s) { return s.kind == NextStep::Kind::vectorize; });
    ASSERT_NE(step, a.next_steps.end());
    EXPECT_TRUE(step->in_math_library);
    const std::string text = next_step_text(r, *step);
    EXPECT_NE(text.find("glibc's libmvec, whose vector forms GCC calls at -O3 -ffast-math"), std::string::npos) << text;
    EXPECT_EQ(text.find("-O3 -march=native"), std::string::npos) << text;
    // Its own FLOPs: the usual way.
    p.details.erase(kMathLibraryFlops);
    const Analysis own = analyze(r, p, View::carm);
    for (const auto& s : own.next_steps) {
        if (s.kind == NextStep::Kind::vectorize) {
            EXPECT_FALSE(s.in_math_library);
        }
    }
}
