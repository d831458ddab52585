// FLOPs a program ran inside a math library (core/math_library_flops): an audit's loop of one
// exp() and one add per element read 21 FLOPs an element with nothing said; measure's program
// point of such a loop (2^20 exps, gcc -O2) holds 20,971,501 of its 23,068,653 FLOPs in libm.
#include "core/math_library_flops.hpp"
#include "core/roofline.hpp"
#include "measure/merge.hpp"
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
