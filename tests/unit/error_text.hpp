// The message of the std::runtime_error `work` throws, or "(no error)".
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

inline std::string error_of(const std::function<void()>& work) {
    try {
        work();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "(no error)";
}
