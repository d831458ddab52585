// Floating-point precisions by name, the one vocabulary of models, points and
// flags: "dp" (64-bit) and "sp" (32-bit). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roofline {

enum class Precision { dp, sp };

// "dp"/"sp" (also "double"/"single", "fp64"/"fp32", any case); nullopt otherwise.
std::optional<Precision> parse_precision(std::string_view text);
const char* precision_name(Precision p);  // "dp", "sp"
int element_bits(Precision p);            // 64, 32

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

// For the precision strings models store: "sp" is 32 bits, anything else 64.
int element_bits_of(std::string_view precision);

} // namespace roofline
