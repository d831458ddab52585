#include "io/text_file.hpp"

#include "core/message_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
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

// Creates a fresh temporary file next to `path`; the default 0666 lets the
// umask decide permissions, as for any ordinary new file.
int create_temporary(const std::string& path, std::string& temp_path, mode_t mode = 0666) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp_path = temporary_name_for(path);
        const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
    throw std::runtime_error(fmt::format("{} {}: {}", what, message_name(path), std::strerror(error)));
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

const char* file_kind(mode_t mode) {
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISFIFO(mode)) return "a FIFO";
    return "not a file";
}

// The file a path names in the end: its symlinks followed to the last name,
// which need not exist yet. Writing there keeps the link (rename() over the
// link itself would replace it with a regular file).
std::string final_target(const std::string& path) {
    constexpr int max_hops = 40;  // as the kernel's limit (ELOOP)
    fs::path current(path);
    for (int hop = 0; hop < max_hops; ++hop) {
        std::error_code ec;
        const auto status = fs::symlink_status(current, ec);
        if (ec || !fs::is_symlink(status)) return current.string();
        const auto target = fs::read_symlink(current, ec);
        if (ec) return current.string();
        current = target.is_absolute() ? target : current.parent_path() / target;
    }
    fail("cannot write", path, ELOOP);
}

// A results store (SQLite) is never replaced by text: `-o` naming the `--db`
// file would lose every stored run. Unreadable files are left to the write.
void refuse_database(const std::string& path, const std::string& target) {
    static constexpr char sqlite_header[] = "SQLite format 3";  // 16 bytes with its NUL
    const int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    char header[sizeof sqlite_header] = {};
    std::size_t got = 0;
    while (got < sizeof header) {
        const ssize_t n = ::read(fd, header + got, sizeof header - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (got == sizeof header && std::memcmp(header, sqlite_header, sizeof header) == 0) {
        throw std::runtime_error(fmt::format(
            "cannot write {}: it is an SQLite database (a results store), which text output never replaces; "
            "write to another file",
            message_name(path)));
    }
}

// Gives the temporary file `fd` the permission bits (and, as root, the owner
// and group) of the file it replaces: a private 0600 file must not come back
// world-readable, nor a root-run command hand a user's file to root.
// Returns 0, or the errno of the step that failed.
int keep_attributes(int fd, const struct stat& replaced) {
    // Owner first: chown may clear set-id bits, which fchmod then sets as wanted.
    if (::geteuid() == 0 && ::fchown(fd, replaced.st_uid, replaced.st_gid) != 0) return errno;
    // Permission bits only: set-id and sticky bits have no business on a text output.
    if (::fchmod(fd, replaced.st_mode & 0777) != 0) return errno;
    return 0;
}

// Regular files: a temporary file next to the target, renamed over it.
void replace_atomically(const std::string& path, const std::string& target, const std::string& content) {
    struct stat replaced {};
    const bool replacing = ::stat(target.c_str(), &replaced) == 0 && S_ISREG(replaced.st_mode);
    std::string temp_path;
    // A file being replaced: the temporary starts private (no one can open it
    // while it is wider than the original) and takes the original's mode below,
    // before any content is written. A new file keeps the umask-based mode.
    const int fd = create_temporary(target, temp_path, replacing ? 0600 : 0666);
    if (fd < 0) fail("cannot write", path, errno);
    if (replacing) {
        if (const int error = keep_attributes(fd, replaced); error != 0) {
            ::close(fd);
            ::unlink(temp_path.c_str());
            fail("cannot keep the permissions of", path, error);
        }
    }

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
    if (::rename(temp_path.c_str(), target.c_str()) != 0) {
        const int rename_error = errno;
        ::unlink(temp_path.c_str());
        fail("cannot write", path, rename_error);
    }
}

// Character devices and FIFOs (/dev/stdout, a terminal, a pipe someone reads)
// are written where they are: a rename would replace the node with a file.
// Nothing to truncate; every write and the close are checked (/dev/full).
void write_in_place(const std::string& path, const std::string& content) {
    // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of
    // waiting forever, and a device does not wait for a carrier.
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO) {
            throw std::runtime_error(fmt::format(
                "cannot write {}: it is a FIFO and no process is reading it (start the reader first)", message_name(path)));
        }
        fail("cannot write", path, errno);
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        const int error = errno;
        ::close(fd);
        fail("cannot write", path, error);
    }
    if (!S_ISCHR(info.st_mode) && !S_ISFIFO(info.st_mode)) {
        // Replaced between stat and open: writing over its start would leave the old tail.
        ::close(fd);
        throw std::runtime_error(fmt::format("cannot write {}: it was replaced while being opened; try again", message_name(path)));
    }
    // The reader is there: from now on wait for it as any writer does.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(fd);
        fail("cannot write", path, error);
    }
    const bool written = write_all(fd, content);
    const int write_error = errno;
    if (::close(fd) != 0 && written) fail("cannot write", path, errno);
    if (!written) fail("cannot write", path, write_error);
}

std::atomic<int> result_descriptor{STDOUT_FILENO};

} // namespace

bool is_standard_output_path(const std::string& path) { return path == kStandardOutputPath; }
void set_standard_output_descriptor(int fd) { result_descriptor = fd; }
int standard_output_descriptor() { return result_descriptor; }

void write_text_file_atomic(const std::string& path, const std::string& content) {
    if (is_standard_output_path(path)) {
        // Text the C library holds for descriptor 1 goes first, so a result there follows it in order.
        std::fflush(stdout);
        if (!write_all(result_descriptor, content))
            throw std::runtime_error(fmt::format("cannot write to standard output: {}", std::strerror(errno)));
        return;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        // Missing: a new file (a dangling link's target is created, the link kept).
        if (errno != ENOENT) fail("cannot write", path, errno);
        replace_atomically(path, final_target(path), content);
        return;
    }
    if (S_ISREG(info.st_mode)) {
        const auto target = final_target(path);
        refuse_database(path, target);
        replace_atomically(path, target, content);
        return;
    }
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
        write_in_place(path, content);
        return;
    }
    if (S_ISDIR(info.st_mode)) throw std::runtime_error(fmt::format("cannot write {}: it is a directory", message_name(path)));
    // A block device would be overwritten from its first byte: never a text output.
    throw std::runtime_error(fmt::format("cannot write {}: not a regular file ({})", message_name(path), file_kind(info.st_mode)));
}

namespace {

// "300 MiB", "300.4 MiB".
std::string mib_text(std::uint64_t bytes) {
    constexpr std::uint64_t mib = std::uint64_t{1} << 20;
    if (bytes % mib == 0) return fmt::format("{} MiB", bytes / mib);
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / static_cast<double>(mib));
}

// A pipe can be read once, but one input may be read twice in a run (its schema sniffed, then
// parsed: `report --machine <(...)`, `compare <(...) <(...)`). What a pipe gave is kept for the
// process, by the pipe's identity, and given again. Inputs are at most kMaxInputFileBytes each.
class PipeTexts {
public:
    std::optional<std::string> find(const struct stat& pipe) {
        std::lock_guard lock(mutex_);
        const auto it = texts_.find({pipe.st_dev, pipe.st_ino});
        if (it == texts_.end()) return std::nullopt;
        return it->second;
    }
    void keep(const struct stat& pipe, const std::string& text) {
        std::lock_guard lock(mutex_);
        texts_[{pipe.st_dev, pipe.st_ino}] = text;
    }

private:
    std::mutex mutex_;
    std::map<std::pair<dev_t, ino_t>, std::string> texts_;
};

PipeTexts& pipe_texts() {
    static PipeTexts texts;
    return texts;
}

// The whole file, or the reason it cannot be read (in `error`). With
// `regular_only`, pipes are refused too (a configuration file).
std::optional<std::string> read_bounded(const std::string& path, std::uint64_t max_bytes, std::string& error,
                                        bool regular_only = false) {
    // stat before open: opening a device can block or have effects (a tape, a terminal).
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        error = fmt::format("cannot read {}: {}", message_name(path), std::strerror(errno));
        return std::nullopt;
    }
    auto refuse_kind = [&](mode_t mode) {
        if (S_ISREG(mode) || (S_ISFIFO(mode) && !regular_only)) return false;
        error = fmt::format("cannot read {}: not a regular file ({})", message_name(path), file_kind(mode));
        return true;
    };
    if (refuse_kind(info.st_mode)) return std::nullopt;
    if (S_ISFIFO(info.st_mode))
        if (auto kept = pipe_texts().find(info)) return kept;
    // O_NONBLOCK: a FIFO put in the place of a file after the stat (or a
    // device) must not block the open forever waiting for a writer; the kind
    // is checked on the descriptor below. A pipe we accept (`<(...)`) is
    // opened as any reader would, waiting for its writer.
    const bool wait_for_writer = S_ISFIFO(info.st_mode) && !regular_only;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | (wait_for_writer ? 0 : O_NONBLOCK));
    if (fd < 0) {
        error = fmt::format("cannot read {}: {}", message_name(path), std::strerror(errno));
        return std::nullopt;
    }
    // The file opened may not be the one stat saw (renamed in between).
    if (::fstat(fd, &info) != 0 || refuse_kind(info.st_mode)) {
        if (error.empty()) error = fmt::format("cannot read {}: {}", message_name(path), std::strerror(errno));
        ::close(fd);
        return std::nullopt;
    }
    // A regular file (or the pipe it was): read it with ordinary blocking reads.
    if (!wait_for_writer) {
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
            error = fmt::format("cannot read {}: {}", message_name(path), std::strerror(errno));
            ::close(fd);
            return std::nullopt;
        }
    }
    const auto size = static_cast<std::uint64_t>(std::max<off_t>(info.st_size, 0));
    if (S_ISREG(info.st_mode) && size > max_bytes) {
        error = fmt::format("cannot read {}: {} is over the {} limit for input files", message_name(path), mib_text(size),
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
            error = fmt::format("cannot read {}: {}", message_name(path), std::strerror(errno));
            ::close(fd);
            return std::nullopt;
        }
        if (got == 0) break;
        if (content.size() + static_cast<std::size_t>(got) > max_bytes) {
            error = fmt::format("cannot read {}: it goes on past the {} limit for input files", message_name(path),
                                mib_text(max_bytes));
            ::close(fd);
            return std::nullopt;
        }
        content.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    if (S_ISFIFO(info.st_mode)) pipe_texts().keep(info, content);
    return content;
}

} // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
    std::string error;
    auto content = read_bounded(path, max_bytes, error);
    if (!content) throw std::runtime_error(error);
    return std::move(*content);
}

std::string read_regular_text_file(const std::string& path, std::uint64_t max_bytes) {
    std::string error;
    auto content = read_bounded(path, max_bytes, error, true);
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

namespace {

// The pre-flight probes of check_file_writable. The rule: probe a destination
// the way it will be written, and never change what is there.
// - A character device is written in place: opened as the write will open it
//   and given a write of zero bytes. That transfers nothing on any device (a
//   terminal shows nothing), yet a device that refuses every write refuses it
//   too: /dev/full answers ENOSPC, /dev/null takes it. Nothing more is known
//   of a device without writing to it, so nothing more is tried. (FIFOs are
//   not opened: a reader that saw our close would take it for the end.)
// - A regular file is written as a temporary file next to it, renamed over it.
//   The temporary must take a block: one is written and synced in a probe file
//   (then removed), so a full file system (ENOSPC) or an exhausted quota (EDQUOT)
//   stops the command before its work, not after. A file that has room for one
//   block may still fill up during the run: that is left to the rescue of
//   write_somewhere_safe.
// - rename() over an existing file fails with EPERM when the file is immutable
//   or append-only (chattr +i, +a), or when its directory is sticky (/tmp) and
//   the file and the directory belong to other users: said before the work.
void probe_device(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) fail("cannot write", path, errno);
    ssize_t written;
    do written = ::write(fd, "", 0);
    while (written < 0 && errno == EINTR);
    const int error = errno;
    ::close(fd);
    if (written < 0 && error != EAGAIN && error != EWOULDBLOCK) {
        throw std::runtime_error(
            fmt::format("cannot write {}: the device refuses writes ({})", message_name(path), std::strerror(error)));
    }
}

void refuse_unreplaceable(const std::string& path, const std::string& target, const std::string& directory) {
    struct stat file {};
    if (::lstat(target.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return;
    const int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        int flags = 0;
        const bool known = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;  // not every file system keeps them
        ::close(fd);
        if (known && (flags & FS_IMMUTABLE_FL)) {
            throw std::runtime_error(fmt::format(
                "cannot write {}: the file is immutable (chattr +i), so it cannot be replaced", message_name(path)));
        }
        if (known && (flags & FS_APPEND_FL)) {
            throw std::runtime_error(fmt::format(
                "cannot write {}: the file is append-only (chattr +a), so it cannot be replaced", message_name(path)));
        }
    }
    struct stat dir {};
    const uid_t me = ::geteuid();
    if (me != 0 && ::stat(directory.c_str(), &dir) == 0 && (dir.st_mode & S_ISVTX) && file.st_uid != me &&
        dir.st_uid != me) {
        throw std::runtime_error(fmt::format(
            "cannot write {}: it belongs to another user in the sticky directory {}, so it cannot be replaced",
            message_name(path), message_name(directory)));
    }
}

// A block written and synced in a fresh file next to `target`, then removed.
void probe_space(const std::string& path, const std::string& target, const std::string& directory) {
    std::string probe_path;
    const int fd = create_temporary(target, probe_path);
    // access(W_OK) can lie (root, ACLs, read-only mounts); creating a file cannot.
    if (fd < 0) {
        throw std::runtime_error(fmt::format("cannot write {}: directory {} is not writable ({})",
                                             message_name(path), message_name(directory), std::strerror(errno)));
    }
    const std::string block(4096, '\n');
    bool ok = write_all(fd, block) && ::fsync(fd) == 0;
    int error = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    ::unlink(probe_path.c_str());
    if (!ok) {
        throw std::runtime_error(fmt::format("cannot write {}: a test write in {} failed ({})", message_name(path),
                                             message_name(directory), std::strerror(error)));
    }
}

} // namespace

void check_file_writable(const std::string& path) {
    if (path.empty()) throw std::runtime_error("cannot write output: the file name is empty");
    if (is_standard_output_path(path)) {
        // Whether its reader takes the text shows when it is written, as for a FIFO.
        if (::fcntl(result_descriptor, F_GETFL) < 0) throw std::runtime_error("cannot write to standard output: it is closed");
        return;
    }
    // A link's target is what gets written, next to which a new file must fit.
    const auto target = final_target(path);
    // What is there now decides how it will be written (write_text_file_atomic).
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) throw std::runtime_error(fmt::format("cannot write {}: it is a directory", message_name(path)));
        // Written in place: whether a FIFO's reader takes the text shows then.
        if (S_ISFIFO(info.st_mode)) return;
        if (S_ISCHR(info.st_mode)) {
            probe_device(path);
            return;
        }
        if (!S_ISREG(info.st_mode)) {
            throw std::runtime_error(
                fmt::format("cannot write {}: not a regular file ({})", message_name(path), file_kind(info.st_mode)));
        }
        refuse_database(path, target);
    }
    const auto directory = directory_of(target);
    std::error_code ec;
    if (!fs::exists(directory, ec)) {
        throw std::runtime_error(
            fmt::format("cannot write {}: directory {} does not exist", message_name(path), message_name(directory)));
    }
    if (!fs::is_directory(directory, ec)) {
        throw std::runtime_error(
            fmt::format("cannot write {}: {} is not a directory", message_name(path), message_name(directory)));
    }
    probe_space(path, target, directory);
    refuse_unreplaceable(path, target, directory);
}

bool same_output_file(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    // Two results on standard output would run into each other.
    if (is_standard_output_path(a) || is_standard_output_path(b)) return a == b;
    struct stat info_a {}, info_b {};
    const bool exists_a = ::stat(a.c_str(), &info_a) == 0, exists_b = ::stat(b.c_str(), &info_b) == 0;
    const auto in_place = [](const struct stat& info) { return S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode); };
    if ((exists_a && in_place(info_a)) || (exists_b && in_place(info_b))) return false;
    if (exists_a && exists_b) return info_a.st_dev == info_b.st_dev && info_a.st_ino == info_b.st_ino;
    // Not both there yet: where each would be created, as write_text_file_atomic
    // finds it (a dangling link's target), with `..`, `.` and linked directories resolved.
    std::error_code ec_a, ec_b;
    const auto where_a = fs::weakly_canonical(fs::absolute(final_target(a)), ec_a);
    const auto where_b = fs::weakly_canonical(fs::absolute(final_target(b)), ec_b);
    if (ec_a || ec_b) return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
    return where_a == where_b;
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
