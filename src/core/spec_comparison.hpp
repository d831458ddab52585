// A measured model beside a spec sheet (`roofline compare measured.json sheet.yaml`): the
// sheet's peaks and bandwidths have no key in common with measured roofs (its roofs are 'spec
// best' and '<level> bandwidth' at its own thread counts), so each figure of the sheet is
// matched to the measured roof that answers it: the best compute roof of its precision and the
// best bandwidth of its level (any pattern), at all threads for the sheet's own count. Pure.
#pragma once

#include "core/comparison.hpp"
#include "core/machine_file.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// Where a measured roof lies against the sheet's figure it was matched to.
enum class SpecVerdict {
    below,      // under the sheet's figure
    at,         // above it by no more than the measured figure's spread: at the figure
    above,      // above it beyond that spread: the sheet or the measurement is wrong
    unmatched,  // the model has no roof that answers the figure
};
const char* spec_verdict_name(SpecVerdict verdict);  // "below", "at", "above", "unmatched"

struct SpecMatch {
    bool compute = true;    // a peak; false: a bandwidth
    std::string what;       // "dp" (a precision) or "DRAM" (a level)
    std::string unit;       // "GFLOP/s", "GIOP/s", "GB/s"
    int spec_threads = 0;   // the figure's thread count on the sheet
    bool sheet_all = false;  // spec_threads is the sheet's own count (its cores): matched at all threads
    double spec = 0;
    // The measured roof matched, with its key as compare names it ("dp avx2 fma+add 2t").
    std::string measured_key;
    int measured_threads = 0;
    // The most threads the model measured a roof of this kind (compute or memory) at: "all
    // threads" as the model knows them. A roof matched at fewer is said to be so.
    int model_threads = 0;
    std::optional<SpreadFigure> measured;
    double ratio = 0;       // measured / spec
    double threshold = 0;   // the measured figure's spread (at least kMinimumChange): how far above is 'at'
    SpecVerdict verdict = SpecVerdict::unmatched;
    std::string why_unmatched;  // "the model has no sp roof: a precision it did not measure"
};

// A precision or level the model measured that the sheet gives no figure for.
struct NotInSheet {
    bool compute = true;
    std::string what;  // "sp", "L2"
    std::string measured_key;  // its best roof at the model's most threads
    double measured = 0;
    std::string unit;
};

struct SpecComparison {
    bool spec_is_a = false;  // which side the sheet is
    int sheet_cores = 0;     // the thread count its plain figures are for
    int machine_threads = 0; // the measured machine's hardware threads (its CPU's), 0 unknown
    std::vector<SpecMatch> matches;        // each peak and bandwidth of the sheet, in its order
    std::vector<NotInSheet> not_in_sheet;  // measured precisions and levels the sheet lacks
    int ceilings_not_compared = 0;  // the sheet's own ceilings: below its peaks by its words, not peaks
    std::size_t matched() const;
    std::size_t above() const;
};

// Each peak (mix 'best') and bandwidth (pattern 'bandwidth', not a ceiling's) of `sheet` against
// `measured`: a figure at the sheet's own thread count is matched at the model's most threads
// (the highest count the model measured that precision or level at, when lower), one at another
// count at exactly that count; a measured roof above the figure beyond its own spread (an
// unknown spread: kUnknownSpread; at least kMinimumChange) is `above`. Roofs with a working set
// of no known level, and measured roofs at 0 or non-finite, take no part.
SpecComparison compare_with_spec(const MachineModel& measured, const MachineFile& sheet, bool spec_is_a);

} // namespace roofline
