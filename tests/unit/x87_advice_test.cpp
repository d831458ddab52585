// x87 (long double) code and the advice that reads its counts: a point whose FLOPs are mostly
// x87 instructions (details flops_x87, from the instrument engine) is told leave_x87, not
// vectorize nor split_chain: the x87 unit has no vector form (a long double dot product, gcc -O2,
// 1e6 x 20: 58.1 ms; -O3 -march=native 57.9; 4 accumulators 58.3; in double 18.9).
#include "advice_fixture.hpp"
#include "core/code_traits.hpp"
#include "measure/engine.hpp"
#include "measure/merge.hpp"
#include "render/advice_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofline;

namespace {

using advice_fixture::all_advice;
using advice_fixture::has;
Roofline machine() { return advice_fixture::scalar_ceilings_machine(); }

// The tester's long double dot product: 2e7 elements (1e6 x 20), an fmul and an faddp each,
// 4e7 FLOPs all x87 (scalar f64 as the tool counts them), 10-byte loads, nothing stored,
// in 58.1 ms (0.69 GFLOP/s). `x87`: the FLOPs x87 instructions made.
Point long_double_dot(double x87 = 4e7) {
    Point p;
    p.name = "lddot";
    p.work = 4e7;
    p.bytes = {{"L1", 4e8}};
    p.seconds = 0.0581;
    p.details = {{"flops_by_width_scalar", 4e7}, {"flops_by_width_128", 0}, {"flops_by_width_256", 0},
                 {"flops_f64_add", 2e7},         {"flops_f64_mul", 2e7},   {"flops_f64_fma", 0},
                 {"bytes_loaded", 4e8},          {"bytes_stored", 0},      {"flops_x87", x87}};
    return p;
}

bool lifts(const Analysis& a, const std::string& category) {
    return std::any_of(a.next_steps.begin(), a.next_steps.end(), [&](const NextStep& s) {
        return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == category;
    });
}


} // namespace

TEST(CodeTraits, X87ShareFromTheCounts) {
    const auto t = code_traits(long_double_dot());
    ASSERT_TRUE(t.x87_share);
    EXPECT_DOUBLE_EQ(*t.x87_share, 1.0);
    EXPECT_DOUBLE_EQ(*code_traits(long_double_dot(1e7)).x87_share, 0.25);
    Point none = long_double_dot();
    none.details.erase("flops_x87");
    EXPECT_FALSE(code_traits(none).x87_share);  // no x87 counted: nothing claimed
}

TEST(AdviceX87, LongDoubleCodeIsToldToLeaveX87NotToVectorize) {
    const auto r = machine();
    const auto a = analyze(r, long_double_dot(), View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::leave_x87);
    EXPECT_DOUBLE_EQ(a.next_steps[0].share, 1.0);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain));  // 4 accumulators: 58.3 ms against 58.1
    EXPECT_FALSE(has(a, NextStep::Kind::widen_vectors));
    EXPECT_FALSE(lifts(a, "simd")) << all_advice(r, a);  // the scalar ceiling's "vectorize" neither
    EXPECT_FALSE(lifts(a, "ilp")) << all_advice(r, a);
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("100.0% of its FLOPs are x87 instructions (long double"), std::string::npos) << text;
    EXPECT_NE(text.find("no SIMD form"), std::string::npos) << text;
    EXPECT_NE(text.find("neither vectorizing nor -march=native changes them"), std::string::npos) << text;
    EXPECT_NE(text.find("double arithmetic (SSE/AVX)"), std::string::npos) << text;
    EXPECT_NE(text.find("roofs describe the SSE/AVX units, not x87"), std::string::npos) << text;
    EXPECT_EQ(text.find("-O3"), std::string::npos) << text;
    EXPECT_EQ(text.find("split the accumulator"), std::string::npos) << text;
}

TEST(AdviceX87, MostlySseCodeWithSomeX87IsStillToldToVectorize) {
    // A quarter of its FLOPs x87: the rest can vectorize, and that is the step.
    const auto r = machine();
    const auto a = analyze(r, long_double_dot(1e7), View::carm);
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize)) << all_advice(r, a);
    EXPECT_FALSE(has(a, NextStep::Kind::leave_x87));
    // Half of them x87: leave_x87.
    EXPECT_TRUE(has(analyze(r, long_double_dot(2e7), View::carm), NextStep::Kind::leave_x87));
}

TEST(AdviceX87, TheStepHasAStableName) {
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::leave_x87), "leave_x87");
}

TEST(AdviceX87, MeasureWritesTheX87FlopsIntoThePointsDetails) {
    measure::RegionCounts c;
    c.name = "lddot";
    c.flops = {{"f64_add", 2e7}, {"f64_mul", 2e7}};
    c.flops_x87 = 4e7;
    Point p;
    measure::apply_counts(p, c);
    ASSERT_EQ(p.details.count("flops_x87"), 1u);
    EXPECT_DOUBLE_EQ(p.details.at("flops_x87"), 4e7);
    c.flops_x87 = 0;  // none: no detail, as before
    Point q;
    measure::apply_counts(q, c);
    EXPECT_EQ(q.details.count("flops_x87"), 0u);
}
