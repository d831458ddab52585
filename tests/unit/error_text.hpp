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

// How often `message` names `name`: once, however many layers the error passed through.
inline int times_named(const std::string& message, const std::string& name) {
    int n = 0;
    for (auto at = message.find(name); at != std::string::npos; at = message.find(name, at + name.size())) ++n;
    return n;
}
