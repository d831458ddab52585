// Input files are bounded (issue 10): devices and directories are refused,
// files over the limit are refused before reading, pipes stop at the limit.
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace roofline;

namespace {

std::string read_error(const std::string& path, std::uint64_t limit = kMaxInputFileBytes) {
    try {
        read_text_file(path, limit);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(TextFileLimits, RefusesCharacterDevices) {
    EXPECT_EQ(read_error("/dev/zero"), "cannot read /dev/zero: not a regular file (a character device)");
    EXPECT_EQ(read_error("/dev/null"), "cannot read /dev/null: not a regular file (a character device)");
    EXPECT_FALSE(read_file_if_exists("/dev/zero"));
    EXPECT_FALSE(read_file_if_exists("/dev/urandom"));
}

TEST(TextFileLimits, RefusesDirectories) {
    TempDir dir("roofline-test");
    EXPECT_EQ(read_error(dir.path()), "cannot read " + dir.path() + ": not a regular file (a directory)");
    EXPECT_FALSE(read_file_if_exists(dir.path()));
}

TEST(TextFileLimits, MissingFilesStillSaySo) {
    EXPECT_EQ(read_error("/nonexistent/nope.json"), "cannot read /nonexistent/nope.json: No such file or directory");
}

TEST(TextFileLimits, RefusesALargeFileWithoutReadingIt) {
    TempDir dir("roofline-test");
    const std::string big = dir.file("big.json");
    // Sparse: 300 MiB of size, no data written.
    { std::ofstream(big) << "{}"; }
    ASSERT_EQ(::truncate(big.c_str(), off_t{300} << 20), 0);
    EXPECT_EQ(read_error(big), "cannot read " + big + ": 300 MiB is over the 256 MiB limit for input files");
    EXPECT_FALSE(read_file_if_exists(big));
}

TEST(TextFileLimits, SmallLimitAppliesToRegularFiles) {
    TempDir dir("roofline-test");
    const std::string file = dir.file("f.txt");
    const std::string text((std::size_t{1} << 20) + 100, 'x');
    { std::ofstream(file) << text; }
    EXPECT_EQ(read_text_file(file, text.size()), text);
    EXPECT_EQ(read_error(file, 1 << 20), "cannot read " + file + ": 1.0 MiB is over the 1 MiB limit for input files");
}

TEST(TextFileLimits, ProcFilesReportSizeZeroAndStillRead) {
    const auto text = read_file_if_exists("/proc/self/status");
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("Name:"), std::string::npos);
    EXPECT_FALSE(read_text_file("/proc/self/status").empty());
}

TEST(TextFileLimits, PipesAreReadToTheirEnd) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::thread writer([&] {
        const std::string text = "hello from a pipe";
        EXPECT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
        ::close(fds[1]);
    });
    const auto path = "/proc/self/fd/" + std::to_string(fds[0]);
    EXPECT_EQ(read_text_file(path), "hello from a pipe");
    writer.join();
    ::close(fds[0]);
}

TEST(TextFileLimits, AnEndlessPipeStopsAtTheLimit) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::thread writer([&] {
        // Writes until the reader closes its end (EPIPE; SIGPIPE is ignored below).
        const std::string block(4096, 'x');
        while (::write(fds[1], block.data(), block.size()) > 0) {
        }
        ::close(fds[1]);
    });
    const auto previous = ::signal(SIGPIPE, SIG_IGN);
    const auto path = "/proc/self/fd/" + std::to_string(fds[0]);
    EXPECT_EQ(read_error(path, 1 << 20),
              "cannot read " + path + ": it goes on past the 1 MiB limit for input files");
    ::close(fds[0]);
    writer.join();
    ::signal(SIGPIPE, previous);
}

} // namespace
