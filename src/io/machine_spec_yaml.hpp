// Spec-sheet machines in YAML, written by hand to model hardware one does not
// have (format: examples/README.md), and one loader for every machine file.
//
// A spec sheet becomes a MachineModel (schema roofline.machine/1, environment.mode
// "spec") whose compute[] and memory[] entries make roofline_from_machine give
// the written roofs. All figures are for `cores` threads unless a figure is a
// map {threads: value}. Named ceilings map onto model entries:
//   compute  category fma      -> mix "mul+add" at simd_bits         ("no FMA")
//                     balance  -> mix "add" at simd_bits             ("ADD or MUL only")
//                     simd     -> vector_bits of the ceiling (default scalar) ("scalar (no SIMD)", "<N>-bit SIMD")
//                     ilp      -> mix "chain" at simd_bits           ("no ILP")
//                     threads  -> threads 1                          ("1 thread")
//   bandwidth category threads -> memory entry at 1 thread           ("<level> 1 thread")
//                     numa     -> memory entry at level "NUMA0->1"  ("remote NUMA ...")
//                     other    -> memory entry whose pattern is the ceiling's
//                                 `pattern` or name                  ("<level> <pattern>")
// Compute ceilings of any other category have no place in the model; they, and
// the names and advice written in the file, are kept in `named_ceilings` and put
// on the roofline by apply_named_ceilings (core/machine_file.hpp). A ceiling above
// its roof (the peak of its precision, its level's bandwidth, at its thread count),
// or with no roof to lie below, and a thread count above `cores` are refused.
#pragma once

#include "core/machine_file.hpp"

#include <string>
#include <vector>

namespace roofline {

// Throws SchemaError "FILE:LINE:COL: where: what was expected".
MachineFile machine_spec_from_yaml(const std::string& text, const std::string& source = "<yaml>");
MachineFile read_machine_spec_file(const std::string& path);

// A machine model in JSON (roofline bench -o) or a YAML spec sheet: by extension
// (.json / .yaml, .yml), else by content (a JSON file starts with '{').
MachineFile load_machine_file(const std::string& path);

} // namespace roofline
