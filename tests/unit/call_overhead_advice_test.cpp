// Function points whose time is in their calls, and function points of library code, and the
// advice that reads them (core/code_traits, core/roofline). A naive recursive Fibonacci on
// doubles (fib(27) x 10: 6.36M calls, 0.5 FLOPs and 15 instructions each) and a loop calling a
// two-FLOP function through a pointer 3M times were told to vectorize, which changed nothing
// (6.55 ms, 6.47 after -O3 -march=native): call_overhead takes vectorize's place. An FFTW codelet
// (libfftw3) was told "-march=native" and "raise the intensity": library_code takes the place of
// every step. A function of the program's own with many FLOPs per call, or in the program's own
// file, keeps its advice.
#include "advice_fixture.hpp"
#include "core/code_traits.hpp"
#include "io/points_json.hpp"
#include "measure/merge.hpp"
#include "measure/protocol_json.hpp"
#include "render/advice_text.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofline;

namespace {

using advice_fixture::all_advice;
using advice_fixture::has;
Roofline machine() { return advice_fixture::scalar_ceilings_machine(512); }

// A function point of measure --functions: `calls` calls of `flops_per_call` scalar adds and
// `insns_per_call` instructions each, 24 bytes loaded and 24 stored per call (the return
// address, saved registers), in `seconds`, in the file `object`.
Point function_point(const std::string& name, double calls, double flops_per_call, double insns_per_call,
                     double seconds, const std::string& object = "/home/me/app/prog") {
    Point p;
    p.name = name;
    p.work = calls * flops_per_call;
    p.bytes = {{"L1", calls * 48}};
    p.seconds = seconds;
    p.source = PointOrigin::instrument_sampling;
    p.details = {{"flops_by_width_scalar", p.work},
                 {"flops_by_width_128", 0},
                 {"flops_by_width_256", 0},
                 {"flops_f64_add", p.work},
                 {"bytes_loaded", calls * 24},
                 {"bytes_stored", calls * 24},
                 {kInstructionsDetail, calls * insns_per_call},
                 {kFunctionCallsDetail, calls}};
    p.object = object;
    return p;
}

// The tester's fib(27) x 10 (gcc -O1): 6,356,210 calls, 3,178,100 adds, 15 instructions a call.
Point fib() { return function_point("fib", 6356210, 0.5, 15, 0.0084); }

// An FFTW codelet without a symbol: 147M FLOPs in 128- and 256-bit vectors, 1.01 GB at L1.
Point fftw_codelet(const std::string& object = "/usr/lib/x86_64-linux-gnu/libfftw3.so.3.6.10") {
    Point p;
    p.name = "(no symbol: libfftw3.so.3.6.10+0x2c500)";
    p.work = 1.468e8;
    p.bytes = {{"L1", 1.01e9}};
    p.seconds = 0.0206;
    p.source = PointOrigin::instrument_sampling;
    p.details = {{"flops_by_width_scalar", 0}, {"flops_by_width_128", 8.39e7}, {"flops_by_width_256", 6.29e7},
                 {"flops_f64_add", 1e8},       {"flops_f64_mul", 4.68e7},    {"bytes_loaded", 6e8},
                 {"bytes_stored", 4.1e8},      {kInstructionsDetail, 4.09e8}};
    p.object = object;
    return p;
}


} // namespace

TEST(CodeTraits, CallsAndWorkPerCallOfAFunctionPoint) {
    const auto t = code_traits(fib());
    ASSERT_TRUE(t.calls);
    EXPECT_DOUBLE_EQ(*t.calls, 6356210);
    ASSERT_TRUE(t.flops_per_call);
    EXPECT_NEAR(*t.flops_per_call, 0.5, 1e-9);
    ASSERT_TRUE(t.instructions_per_call);
    EXPECT_NEAR(*t.instructions_per_call, 15, 1e-9);
    EXPECT_FALSE(t.library);  // the program's own file
    // A region's "calls" (the marker's) are not a function's: nothing claimed.
    Point region = fib();
    region.details.erase(kFunctionCallsDetail);
    region.details["calls"] = 10;
    EXPECT_FALSE(code_traits(region).calls);
    EXPECT_FALSE(code_traits(region).flops_per_call);
}

TEST(AdviceCallOverhead, RecursiveFibIsToldAboutItsCallsNotToVectorize) {
    const auto r = machine();
    const auto a = analyze(r, fib(), View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::call_overhead);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain));
    EXPECT_FALSE(has(a, NextStep::Kind::widen_vectors));
    for (const auto& s : a.next_steps)  // nor the SIMD or ILP ceiling, which ask for the same
        EXPECT_FALSE(s.kind == NextStep::Kind::lift_ceiling && (s.ceiling.category == "simd" || s.ceiling.category == "ilp"));
    EXPECT_DOUBLE_EQ(a.next_steps[0].calls, 6356210);
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("0.500 FLOPs and 15.0 instructions per call over 6.36e+06 calls"), std::string::npos) << text;
    EXPECT_NE(text.find("inline"), std::string::npos) << text;
    EXPECT_NE(text.find("-flto"), std::string::npos) << text;
    EXPECT_NE(text.find("function pointer"), std::string::npos) << text;
    EXPECT_NE(text.find("pass arrays, not elements"), std::string::npos) << text;
    EXPECT_NE(text.find("iterative form"), std::string::npos) << text;
    EXPECT_EQ(text.find("-O3 -march=native"), std::string::npos) << text;
    const auto json = render_report({a}, r, ReportFormat::json);
    EXPECT_NE(json.find("\"kind\": \"call_overhead\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"flops_per_call\": 0.5"), std::string::npos) << json;
}

TEST(AdviceCallOverhead, FunctionPointerCalleeOfTwoFlopsIsToldToo) {
    // opa: 3M calls through a pointer, 2 FLOPs and 3 instructions each, 6.5 ms.
    const auto a = analyze(machine(), function_point("opa", 3e6, 2, 3, 0.0065), View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::call_overhead);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
}

TEST(AdviceCallOverhead, AFunctionWithManyFlopsPerCallStillGetsVectorize) {
    // A scalar kernel of 4,000 FLOPs and 6,000 instructions per call, called 10,000 times.
    const auto r = machine();
    const auto a = analyze(r, function_point("kernel", 1e4, 4000, 6000, 0.02), View::carm);
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(has(a, NextStep::Kind::call_overhead));
    // Few FLOPs but a long call (a scalar loop of 10 FLOPs over 400 instructions: control, not calls).
    EXPECT_FALSE(has(analyze(r, function_point("branchy", 1e6, 10, 400, 0.1), View::carm),
                     NextStep::Kind::call_overhead));
    // A tiny function called a few times: its calls cost nothing that shows.
    EXPECT_FALSE(has(analyze(r, function_point("once", 100, 2, 10, 1e-6), View::carm), NextStep::Kind::call_overhead));
}

TEST(AdviceCallOverhead, OnlyFunctionPointsAreJudgedByTheirCalls) {
    // A marker region with a small body per call: its calls are the marker's, not a function's.
    Point region = fib();
    region.details.erase(kFunctionCallsDetail);
    region.details.erase(kInstructionsDetail);
    region.details["calls"] = 6356210;
    const auto a = analyze(machine(), region, View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::call_overhead));
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize));
}

TEST(AdviceLibraryCode, FftwCodeletIsToldItIsLibraryCodeNotCompilerFlags) {
    const auto r = machine();
    const auto t = code_traits(fftw_codelet());
    ASSERT_TRUE(t.library);
    EXPECT_EQ(*t.library, "libfftw3.so.3.6.10");
    const auto a = analyze(r, fftw_codelet(), View::carm);
    ASSERT_EQ(a.next_steps.size(), 1u);
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::library_code);
    EXPECT_EQ(a.next_steps[0].operation, "libfftw3.so.3.6.10");
    // The roofline's facts stay: its bound and headroom.
    EXPECT_EQ(a.binding_roof, "L1 triad");
    EXPECT_EQ(a.next_steps[0].roof, "L1 triad");
    EXPECT_DOUBLE_EQ(a.next_steps[0].cap, a.attainable);
    EXPECT_FALSE(a.headroom.empty());
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("libfftw3.so.3.6.10, a library you do not build"), std::string::npos) << text;
    EXPECT_NE(text.find("FFTW_MEASURE"), std::string::npos) << text;
    EXPECT_NE(text.find("a build of the library for this CPU"), std::string::npos) << text;
    EXPECT_NE(text.find("another library"), std::string::npos) << text;
    EXPECT_EQ(text.find("raise the intensity"), std::string::npos) << text;
    EXPECT_EQ(text.find("build for this CPU (-march=native"), std::string::npos) << text;
    // The report's JSON names the kind and the library.
    const auto json = render_report({a}, r, ReportFormat::json);
    EXPECT_NE(json.find("\"kind\": \"library_code\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"library\": \"libfftw3.so.3.6.10\""), std::string::npos) << json;
}

TEST(AdviceLibraryCode, TheLibraryIsKnownByTheNameWhenNoObjectIsRecorded) {
    // An older points file: no object, but code without a symbol is named by its file.
    EXPECT_EQ(code_traits(fftw_codelet("")).library.value_or(""), "libfftw3.so.3.6.10");
    Point blas = fftw_codelet("/opt/OpenBLAS/lib/libopenblas.so.0");
    blas.name = "dgemm_kernel";
    const auto a = analyze(machine(), blas, View::carm);
    ASSERT_EQ(a.next_steps.size(), 1u);
    EXPECT_NE(next_step_text(machine(), a.next_steps[0]).find("BLAS/LAPACK"), std::string::npos);
}

TEST(AdviceLibraryCode, TheProgramsOwnCodeKeepsItsCompilerFlagAdvice) {
    const auto r = machine();
    // The same counts in the program's own file: told to build for this CPU, as before.
    Point own = fftw_codelet("/home/me/fft/build/myfft");
    own.name = "my_butterfly";
    const auto a = analyze(r, own, View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::library_code));
    EXPECT_TRUE(has(a, NextStep::Kind::widen_vectors));
    EXPECT_NE(all_advice(r, a).find("-march=native"), std::string::npos);
    // A shared library in the user's own build tree may be the user's code: its advice stays.
    Point own_so = fftw_codelet("/home/me/fft/build/libmyfft.so");
    own_so.name = "my_butterfly";
    EXPECT_FALSE(has(analyze(r, own_so, View::carm), NextStep::Kind::library_code));
    // A scalar user function with no calls counted keeps vectorize.
    Point user = function_point("kernel", 1e4, 4000, 6000, 0.02);
    EXPECT_TRUE(has(analyze(r, user, View::carm), NextStep::Kind::vectorize));
}

TEST(AdviceLibraryCode, InstalledLibraryPaths) {
    EXPECT_EQ(installed_library("/usr/lib/x86_64-linux-gnu/libm.so.6").value_or(""), "libm.so.6");
    EXPECT_EQ(installed_library("/lib64/ld-linux-x86-64.so.2").value_or(""), "ld-linux-x86-64.so.2");
    EXPECT_EQ(installed_library("/home/u/miniconda3/envs/x/lib/libmkl_core.so.2").value_or(""), "libmkl_core.so.2");
    EXPECT_FALSE(installed_library("/usr/bin/python3"));          // not a shared library
    EXPECT_FALSE(installed_library("/home/u/proj/libkern.so"));   // the user's own build
    EXPECT_FALSE(installed_library("/usr/lib/sonar/tool"));       // ".so" only as a name's part
    EXPECT_FALSE(installed_library(""));
}

TEST(AdviceCallOverhead, TheStepsHaveStableNames) {
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::call_overhead), "call_overhead");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::library_code), "library_code");
}

TEST(AdviceCallOverhead, MeasureCarriesCallsAndTheObject) {
    // The Valgrind tool writes each function's entries (its calls) and its object.
    const auto r = measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [],
        "functions": [{"name": "fib", "object": "/tmp/fib", "flops": {"f64": {"add": 3178100}},
                       "instructions": 95343120, "entries": 6356210},
                      {"name": "old", "flops": {"f64": {"add": 1}}, "instructions": 5}]})J",
                                              "v.json");
    ASSERT_EQ(r.functions.size(), 2u);
    EXPECT_DOUBLE_EQ(r.functions[0].entries, 6356210);
    EXPECT_EQ(r.functions[0].object, "/tmp/fib");
    EXPECT_DOUBLE_EQ(r.functions[1].entries, 0);  // an older tool's output: unknown
    // A point's object survives the points file.
    const auto back = points_from_json(points_to_json({fftw_codelet()}));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].object, "/usr/lib/x86_64-linux-gnu/libfftw3.so.3.6.10");
}

// measure without --functions: the program's point of a recursive fib (gcc -O1, fib(27): 635,621
// calls, 317,810 adds, 9,534,312 instructions in fib; 120 adds in main) was told to vectorize. Its
// main function, holding 80% or more of its FLOPs, now stands for its calls, and the file holding
// that share for its code (FFTW's program point: library code).
TEST(AdviceCallOverhead, TheProgramsPointIsJudgedByTheFunctionThatDoesItsWork) {
    measure::RegionCounts fib_fn, main_fn;
    fib_fn.name = "fib";
    fib_fn.object = "/home/me/fib";
    fib_fn.flops = {{"f64_add", 317810}};
    fib_fn.instructions = 9534312;
    fib_fn.entries = 635621;
    main_fn.name = "main";
    main_fn.object = "/home/me/fib";
    main_fn.flops = {{"f64_add", 120}};
    main_fn.instructions = 400;
    main_fn.entries = 1;
    Point program;
    program.name = "(program)";
    program.work = 317930;
    program.seconds = 0.0011;
    program.bytes = {{"L1", 635621 * 48.0}};
    program.details = {{"flops_by_width_scalar", 317930}, {"flops_f64_add", 317930},
                       {"bytes_loaded", 635621 * 24.0}, {"bytes_stored", 635621 * 24.0}};
    measure::attribute_program_work(program, {main_fn, fib_fn});
    EXPECT_EQ(program.main_function, "fib");
    EXPECT_EQ(program.object, "/home/me/fib");
    EXPECT_DOUBLE_EQ(program.details[kMainFunctionCalls], 635621);
    const auto t = code_traits(program);
    ASSERT_TRUE(t.calls && t.flops_per_call && t.instructions_per_call);
    EXPECT_NEAR(*t.flops_per_call, 0.5, 1e-5);  // 317,810 / 635,621
    EXPECT_NEAR(*t.instructions_per_call, 15, 1e-5);
    EXPECT_EQ(t.calls_of, "fib");
    const auto r = machine();
    const auto a = analyze(r, program, View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::call_overhead);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("100.0% of its FLOPs are in fib, whose own work per call is tiny: 0.500 FLOPs and 15.0 "
                        "instructions per call over 6.36e+05 calls"),
              std::string::npos)
        << text;
    // The main function's name survives the points file.
    const auto back = points_from_json(points_to_json({program}));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].main_function, "fib");

    // No function holds 80%: nothing stands for the program (fib 70%, a loop 30%), and it keeps
    // vectorize; nor does a file.
    Point mixed = program;
    mixed.main_function.clear();
    mixed.object.clear();
    mixed.details.erase(kMainFunctionCalls);
    main_fn.flops = {{"f64_add", 136000}};
    main_fn.object = "/usr/lib/x86_64-linux-gnu/libm.so.6";
    mixed.work = 317810 + 136000;
    measure::attribute_program_work(mixed, {main_fn, fib_fn});
    EXPECT_TRUE(mixed.main_function.empty());
    EXPECT_TRUE(mixed.object.empty());
    EXPECT_FALSE(code_traits(mixed).calls);

    // An FFTW program: its codelets (no one of them 80%) all in libfftw3: the program's code is
    // that library's.
    measure::RegionCounts c1, c2;
    c1.name = "(no symbol: libfftw3.so.3+0x2c500)";
    c2.name = "(no symbol: libfftw3.so.3+0x31a00)";
    c1.object = c2.object = "/usr/lib/x86_64-linux-gnu/libfftw3.so.3.6.10";
    c1.flops = {{"f64_add", 6e7}};
    c2.flops = {{"f64_mul", 5e7}};
    Point fft = fftw_codelet();
    fft.name = "(program)";
    fft.object.clear();
    fft.work = 1.1e8;
    measure::attribute_program_work(fft, {c1, c2});
    EXPECT_TRUE(fft.main_function.empty());
    EXPECT_EQ(fft.object, "/usr/lib/x86_64-linux-gnu/libfftw3.so.3.6.10");
    const auto fa = analyze(r, fft, View::carm);
    ASSERT_EQ(fa.next_steps.size(), 1u);
    EXPECT_EQ(fa.next_steps[0].kind, NextStep::Kind::library_code);
}
