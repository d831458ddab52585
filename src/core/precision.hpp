// Precisions by name: the one vocabulary of models, points, flags and GPU roofs, with one
// name table (core/precision.cpp). Every spelling is read ("dp", "fp64", "double", "f64",
// any case); each precision is written one way: its canonical name ("dp", "sp", "fp16",
// "bf16", ...). The GPU section of the machine model has spelt the 64- and 32-bit floats
// "fp64" and "fp32" since it was written (roofline.machine/1): gpu_precision_name keeps
// that spelling for GPU roofs and their labels, from the same table. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roofline {

// Floating-point formats first, then integer and bit work (counted in OP, not FLOP).
enum class Precision { dp, sp, fp16, bf16, tf32, fp8, int8, int32, lop3, popc };

// Any spelling in the table (any case): "dp"/"fp64"/"double"/"f64", "sp"/"fp32"/"single"/"f32",
// "fp16"/"half", "bf16"/"bfloat16", "tf32", "fp8", "int8", "int32", "lop3", "popc"; nullopt otherwise.
std::optional<Precision> parse_precision(std::string_view text);
const char* precision_name(Precision p);      // the canonical name: "dp", "sp", "fp16", ...
const char* gpu_precision_name(Precision p);  // as GPU roofs are written: "fp64", "fp32", "fp16", ...
int element_bits(Precision p);                // 64, 32, 16, 16, 32 (tf32 is stored in 32), 8, 8, 32, 32, 32
bool counts_flops(Precision p);               // floating point (FLOP); false for integer and bit work (OP)

// The canonical name of `text` in any spelling ("FP64" -> "dp"); nullopt when it is none.
std::optional<std::string> canonical_precision(std::string_view text);
// The GPU roofs' spelling of `text` in any spelling ("dp" -> "fp64"); nullopt when it is none.
std::optional<std::string> gpu_precision(std::string_view text);
// Every precision a GPU roof may hold, as its error messages list them: "fp64, fp32, ... or popc".
std::string known_gpu_precisions_text();

// True for the strings models store for FLOPs, "dp" and "sp" (a spec sheet's
// peak may be in another unit: "exchange", "IOP").
bool is_flop_precision(std::string_view precision);

// A name a roof's precision field may hold: "dp", "sp", or another work unit
// spelt as a short identifier (letter first, then letters, digits, '_' or '-',
// at most 32). Anything else (spaces, control characters, "") is a typo or hostile.
bool is_valid_precision_name(std::string_view precision);

// A work unit's name ("FLOP", "IOP", "exchange", "bit op"): a letter, then letters,
// digits, '_', '-', '.' or single spaces, at most 32, no space at the end. It is printed
// in every result line, table and chart label ("G<unit>/s"), so anything else (a
// terminal control sequence, a line break) is refused where it is read.
bool is_valid_work_unit_name(std::string_view unit);

// A precision as charts and messages write it: "dp" -> "DP", "bf16" -> "BF16".
std::string precision_label(std::string_view precision);

// For the precision strings models store: the table's element size ("sp" 32 bits),
// 64 for a string not in it.
int element_bits_of(std::string_view precision);

} // namespace roofline
