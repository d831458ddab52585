// FLOPs a program (or a region, a loop) ran inside the C math library: FLOPs are the floating-point instructions
// executed (METHODS), so an exp() is its ~20 FMAs and adds, a sqrt() one, not one "operation" a
// call as on paper. An audit's region of one exp and one add per element read 21 FLOPs an element
// with nothing said. When a program's point holds FLOPs in such a library, how many is said
// (measure's notes, report's point), with how to see them (measure --functions). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details key of a point: its FLOPs in functions of a math library (measure's attribution
// of the program's work by file; a region's or loop's from its FLOPs by file, flops_by_object).
inline constexpr const char* kMathLibraryFlops = "math_library_flops";

// Whether `object` (a path or a file name) is a math library: glibc's libm and libmvec, AMD's
// libalm/libamdlibm, Intel's libimf and libsvml, SLEEF.
bool is_math_library(const std::string& object);

// The math libraries a program loads, from ldd's output for it: the resolved paths of the lines
// ("\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)") whose library is one, in its order.
std::vector<std::string> math_libraries_in_ldd_output(std::string_view ldd_output);

// From this share of a point's FLOPs the note is said: under it they change little.
inline constexpr double kMathLibraryFlopShare = 0.05;

struct MathLibraryFlops {
    double flops = 0;  // in the math library
    double share = 0;  // of the point's FLOPs
};

// nullopt unless the point carries kMathLibraryFlops at kMathLibraryFlopShare of its counted FLOPs.
std::optional<MathLibraryFlops> math_library_flops(const Point& p);

// "1.2e+07 of its FLOPs (37.5%) ran inside the math library (libm's exp, sin, pow ...): they are the
// floating-point instructions those functions executed (an exp is about 20), not one per call as
// a FLOP count on paper has it; measure --functions lists them by function"
std::string math_library_flops_text(const MathLibraryFlops& m);

} // namespace roofline
