#include "io/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <cerrno>
#include <cstring>
#include <filesystem>
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

std::string read_text_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot read", path, errno);
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            const int read_error = errno;
            ::close(fd);
            // EISDIR arrives here: open() succeeds on a directory.
            fail("cannot read", path, read_error);
        }
        if (got == 0) break;
        content.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return content;
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

std::optional<std::string> read_file_if_exists(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return data;
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
