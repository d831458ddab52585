#include "io/temp_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <sys/statvfs.h>
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

std::vector<std::string> TempDir::files_with_prefix(const std::string& prefix) const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(path_, ec))
        if (entry.is_regular_file(ec) && entry.path().filename().string().rfind(prefix, 0) == 0)
            out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<std::uint64_t> TempDir::free_bytes() const {
    struct statvfs vfs {};
    if (::statvfs(path_.c_str(), &vfs) != 0) return std::nullopt;
    const auto blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
    return static_cast<std::uint64_t>(blocks) * static_cast<std::uint64_t>(vfs.f_frsize);
}

} // namespace roofline
