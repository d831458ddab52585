#include "cli/result_output.hpp"

#include "core/message_name.hpp"
#include "io/text_file.hpp"

#include <cstdio>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace roofline::cli {

namespace {
bool asked = false;
}

CLI::Option* result_may_go_to_standard_output(CLI::Option* option) {
    return option->each([](const std::string& value) {
        if (is_standard_output_path(value)) asked = true;
    });
}

void keep_standard_output_if_asked() {
    static bool kept = false;
    if (!asked || kept) return;
    std::fflush(stdout);
    // Close-on-exec: a measured program must not inherit the result's descriptor and write into it.
    const int result = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (result < 0) return;  // standard output is closed: writing the result says so
    if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        ::close(result);
        return;
    }
    set_standard_output_descriptor(result);
    kept = true;
}

std::string output_name(const std::string& output) {
    return is_standard_output_path(output) ? std::string("standard output") : message_name(output);
}

} // namespace roofline::cli
