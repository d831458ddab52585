// Shared by the libFuzzer targets (tests/fuzz/README.md).
// A parser rejects bad input by throwing std::runtime_error (SchemaError,
// FormulaError, MeasureError, YAML exceptions) with a message: that is a normal
// rejection. Any other exception, an empty message, a crash, a sanitizer report,
// a hang or a memory blow-up is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace roofline_fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

[[noreturn]] inline void finding(const char* what, const char* type, const char* message) {
    std::fprintf(stderr, "FUZZ FINDING: %s (%s): %s\n", what, type, message);
    std::abort();
}

// Runs f(); a std::runtime_error with a message is a rejection, anything else aborts.
template <typename F>
void guarded(const char* what, F&& f) {
    try {
        f();
    } catch (const std::runtime_error& e) {
        if (e.what() == nullptr || e.what()[0] == '\0') finding(what, typeid(e).name(), "runtime_error with no message");
    } catch (const std::exception& e) {
        finding(what, typeid(e).name(), e.what());
    } catch (...) {
        finding(what, "unknown", "exception not derived from std::exception");
    }
}

// For calls into core after a successful parse: core documents std::invalid_argument
// (with a message) for a model it cannot draw, e.g. "no DP compute roof at 0 threads".
template <typename F>
void guarded_core(const char* what, F&& f) {
    guarded(what, [&] {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            if (e.what() == nullptr || e.what()[0] == '\0') finding(what, "std::invalid_argument", "no message");
        }
    });
}

} // namespace roofline_fuzz
