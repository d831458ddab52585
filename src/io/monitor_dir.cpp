#include "io/monitor_dir.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace roofline {

void prepare_monitor_dir(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        fs::create_directories(dir, ec);
        if (ec) throw std::runtime_error(fmt::format("cannot create the snapshot directory '{}': {}", dir, ec.message()));
    }
    if (!fs::is_directory(dir, ec)) throw std::runtime_error(fmt::format("'{}' is not a directory", dir));
    if (::access(dir.c_str(), R_OK | X_OK) != 0)
        throw std::runtime_error(fmt::format("cannot read the snapshot directory '{}': {}", dir, std::strerror(errno)));
}

} // namespace roofline
