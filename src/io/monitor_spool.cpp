#include "io/monitor_spool.hpp"

#include "core/message_name.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

} // namespace

std::vector<std::string> monitor_spool_dirs() {
    std::vector<std::string> dirs;
    // systemd may list several directories, separated by ':'; the first is the unit's own.
    if (auto state = env("STATE_DIRECTORY"); !state.empty() && state[0] == '/')
        dirs.push_back(state.substr(0, state.find(':')));
    if (auto xdg = env("XDG_STATE_HOME"); !xdg.empty() && xdg[0] == '/')
        dirs.push_back(xdg + "/roofline");
    else if (auto home = env("HOME"); !home.empty() && home[0] == '/')
        dirs.push_back(home + "/.local/state/roofline");
    const auto tmp = env("TMPDIR");
    dirs.push_back(!tmp.empty() && tmp[0] == '/' ? tmp : "/tmp");
    return dirs;
}

MonitorSpool::MonitorSpool(std::vector<std::string> dirs, std::string file_name)
    : dirs_(std::move(dirs)), file_name_(std::move(file_name)) {}

bool MonitorSpool::append_to(const std::string& path, const std::string& text, bool create, std::string& error) {
    const int flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
    const int fd = ::open(path.c_str(), flags, 0600);
    if (fd < 0) {
        error = fmt::format("{}: {}", message_name(path), std::strerror(errno));
        return false;
    }
    struct stat st{};
    const off_t before = ::fstat(fd, &st) == 0 ? st.st_size : -1;
    std::size_t done = 0;
    int write_errno = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            write_errno = n < 0 ? errno : EIO;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    if (write_errno == 0 && ::fsync(fd) != 0 && errno != EINVAL) write_errno = errno;
    if (write_errno != 0 && before >= 0 && ::ftruncate(fd, before) != 0) {
        // the half line stays; the next line starts on a line of its own all the same
    }
    ::close(fd);
    if (write_errno != 0) {
        error = fmt::format("{}: {}", message_name(path), std::strerror(write_errno));
        if (create && before == 0) ::unlink(path.c_str());  // ours, and empty: leave nothing behind
        return false;
    }
    return true;
}

void MonitorSpool::append(const nlohmann::json& line) {
    const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::string error;
    if (!path_.empty()) {
        if (append_to(path_, text, false, error)) return;
        throw std::runtime_error(error);
    }
    std::vector<std::string> tried;
    for (const auto& dir : dirs_) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) {
            std::filesystem::create_directories(dir, ec);
            if (!ec) ::chmod(dir.c_str(), 0700);
            if (ec) {
                tried.push_back(fmt::format("{}: {}", message_name(dir), ec.message()));
                continue;
            }
        }
        const std::string path = dir + "/" + file_name_;
        if (append_to(path, text, true, error)) {
            path_ = path;
            return;
        }
        tried.push_back(error);
    }
    throw std::runtime_error(fmt::format("no spool file could be written ({})", fmt::join(tried, "; ")));
}

} // namespace roofline
