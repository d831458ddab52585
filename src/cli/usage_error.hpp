#pragma once

#include <stdexcept>

namespace roofline::cli {

// Thrown by a command for arguments that parse but make no sense
// (--threads 0, an unwritable output path, ...): exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace roofline::cli
