// Draws bench progress: a live, overwritten line on a terminal; plain lines
// (one per figure) when stderr is a file, a pipe or a terminal without escapes
// (TERM=dumb).
#pragma once

#include "bench/progress.hpp"

namespace roofline::cli {

class ProgressLine {
public:
    explicit ProgressLine(bool quiet);
    void operator()(const ProgressEvent& e);
    void finish();  // ends the live line

private:
    bool quiet_;
    bool live_;
    bool drawn_ = false;
};

} // namespace roofline::cli
