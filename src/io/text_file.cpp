#include "io/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline {
namespace {

namespace fs = std::filesystem;

std::string directory_of(const std::string& path) {
    const auto parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

// A name in the same directory as `path`, so rename() stays on one file system.
std::string temporary_name_for(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    const fs::path target(path);
    const auto name = fmt::format(".{}.tmp.{}.{}", target.filename().string(), ::getpid(),
                                  counter.fetch_add(1));
    return (fs::path(directory_of(path)) / name).string();
}

// Creates a fresh temporary file next to `path`; mode 0666 lets the umask
// decide permissions, as for any ordinary new file.
int create_temporary(const std::string& path, std::string& temp_path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp_path = temporary_name_for(path);
        const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
    throw std::runtime_error(fmt::format("{} {}: {}", what, path, std::strerror(error)));
}

bool write_all(int fd, const std::string& content) {
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, left);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += written;
        left -= static_cast<std::size_t>(written);
    }
    return true;
}

} // namespace

void write_text_file_atomic(const std::string& path, const std::string& content) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw std::runtime_error(fmt::format("cannot write {}: it is a directory", path));
    }
    std::string temp_path;
    const int fd = create_temporary(path, temp_path);
    if (fd < 0) fail("cannot write", path, errno);

    const bool written = write_all(fd, content) && ::fsync(fd) == 0;
    const int write_error = errno;
    if (::close(fd) != 0 && written) {
        const int close_error = errno;
        ::unlink(temp_path.c_str());
        fail("cannot write", path, close_error);
    }
    if (!written) {
        ::unlink(temp_path.c_str());
        fail("cannot write", path, write_error);
    }
    if (::rename(temp_path.c_str(), path.c_str()) != 0) {
        const int rename_error = errno;
        ::unlink(temp_path.c_str());
        fail("cannot write", path, rename_error);
    }
}

namespace {

const char* file_kind(mode_t mode) {
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file";
}

// "300 MiB", "300.4 MiB".
std::string mib_text(std::uint64_t bytes) {
    constexpr std::uint64_t mib = std::uint64_t{1} << 20;
    if (bytes % mib == 0) return fmt::format("{} MiB", bytes / mib);
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / static_cast<double>(mib));
}

// The whole file, or the reason it cannot be read (in `error`).
std::optional<std::string> read_bounded(const std::string& path, std::uint64_t max_bytes, std::string& error) {
    // stat before open: opening a device can block or have effects (a tape, a terminal).
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
        return std::nullopt;
    }
    auto refuse_kind = [&](mode_t mode) {
        if (S_ISREG(mode) || S_ISFIFO(mode)) return false;
        error = fmt::format("cannot read {}: not a regular file ({})", path, file_kind(mode));
        return true;
    };
    if (refuse_kind(info.st_mode)) return std::nullopt;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
        return std::nullopt;
    }
    // The file opened may not be the one stat saw (renamed in between).
    if (::fstat(fd, &info) != 0 || refuse_kind(info.st_mode)) {
        if (error.empty()) error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
        ::close(fd);
        return std::nullopt;
    }
    const auto size = static_cast<std::uint64_t>(std::max<off_t>(info.st_size, 0));
    if (S_ISREG(info.st_mode) && size > max_bytes) {
        error = fmt::format("cannot read {}: {} is over the {} limit for input files", path, mib_text(size),
                            mib_text(max_bytes));
        ::close(fd);
        return std::nullopt;
    }
    std::string content;
    if (S_ISREG(info.st_mode)) content.reserve(size);
    // Pipes, /proc files (size 0) and files that grow while read: stop at the limit.
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
            ::close(fd);
            return std::nullopt;
        }
        if (got == 0) break;
        if (content.size() + static_cast<std::size_t>(got) > max_bytes) {
            error = fmt::format("cannot read {}: it goes on past the {} limit for input files", path,
                                mib_text(max_bytes));
            ::close(fd);
            return std::nullopt;
        }
        content.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return content;
}

} // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
    std::string error;
    auto content = read_bounded(path, max_bytes, error);
    if (!content) throw std::runtime_error(error);
    return std::move(*content);
}

std::string write_somewhere_safe(const std::string& file_name, const std::function<void(const std::string&)>& write) {
    std::error_code ec;
    auto temp = fs::temp_directory_path(ec);  // $TMPDIR, else /tmp
    if (ec) temp = "/tmp";
    auto here = fs::current_path(ec);  // absolute, so the message names a path one can open from anywhere
    if (ec) here = ".";
    std::vector<std::string> failures;
    for (const auto& dir : {here, temp}) {
        const auto path = (dir / file_name).string();
        try {
            write(path);
            return path;
        } catch (const std::exception& e) {
            failures.push_back(e.what());
        }
    }
    std::string reasons;
    for (const auto& f : failures) reasons += (reasons.empty() ? "" : "; ") + f;
    throw std::runtime_error(reasons);
}

void check_file_writable(const std::string& path) {
    if (path.empty()) throw std::runtime_error("cannot write output: the file name is empty");
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw std::runtime_error(fmt::format("cannot write {}: it is a directory", path));
    }
    const auto directory = directory_of(path);
    if (!fs::exists(directory, ec)) {
        throw std::runtime_error(
            fmt::format("cannot write {}: directory {} does not exist", path, directory));
    }
    if (!fs::is_directory(directory, ec)) {
        throw std::runtime_error(
            fmt::format("cannot write {}: {} is not a directory", path, directory));
    }
    // access(W_OK) can lie (root, ACLs, read-only mounts); creating a file cannot.
    std::string probe_path;
    const int fd = create_temporary(path, probe_path);
    if (fd < 0) {
        throw std::runtime_error(fmt::format("cannot write {}: directory {} is not writable ({})",
                                             path, directory, std::strerror(errno)));
    }
    ::close(fd);
    ::unlink(probe_path.c_str());
}

std::optional<std::string> read_file_if_exists(const std::string& path, std::uint64_t max_bytes) {
    std::string error;
    return read_bounded(path, max_bytes, error);
}

std::vector<std::string> files_in(const std::string& dir, const std::string& extension) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file(ec) && entry.path().extension() == extension) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace roofline
