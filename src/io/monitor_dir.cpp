#include "io/monitor_dir.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <fcntl.h>
#include <sys/stat.h>
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

JobFile read_job_file(const std::string& dir, const std::string& name, std::uint64_t max_bytes) {
    JobFile out;
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
        out.refused = "not a file name in the directory";
        return out;
    }
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        out.refused = fmt::format("cannot open the directory: {}", std::strerror(errno));
        return out;
    }
    // O_NOFOLLOW: a link a job planted (to a root-only file) is not opened; O_NONBLOCK: a FIFO does not hang.
    const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    const int open_errno = errno;
    ::close(dir_fd);
    if (fd < 0) {
        if (open_errno == ENOENT) return out;  // removed meanwhile
        out.refused = open_errno == ELOOP ? "a symbolic link (not followed)"
                                          : fmt::format("cannot open it: {}", std::strerror(open_errno));
        return out;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        out.refused = "not a regular file";
        return out;
    }
    // A second name of a file (a hard link a job made to a file it may not read) is not a
    // snapshot: the marker library writes each under one name (temp file + rename).
    if (st.st_nlink != 1) {
        ::close(fd);
        out.refused = "a file with other names (hard links): not opened";
        return out;
    }
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
        ::close(fd);
        out.refused = fmt::format("larger than {} bytes", max_bytes);
        return out;
    }
    out.owner_uid = st.st_uid;
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > max_bytes) break;
    }
    ::close(fd);
    if (text.size() > max_bytes) {
        out.refused = fmt::format("larger than {} bytes", max_bytes);
        return out;
    }
    out.text = std::move(text);
    return out;
}

} // namespace roofline
