#include "io/temp_dir.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace roofline {

TempDir::TempDir(const std::string& prefix) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/{}-XXXXXX", base && *base ? base : "/tmp", prefix);
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error(fmt::format("cannot create a temporary directory {}: {}", pattern, std::strerror(errno)));
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

} // namespace roofline
