// Where text output goes (issue 10, second sweep): a symlink's target is
// written and the link kept; devices and FIFOs are written in place, never
// replaced by a regular file; a results store is never overwritten; a NUL byte
// cannot hide the rest of a JSON file. Device nodes are private (mknod in a
// temporary directory, root only), never the system's /dev.
#include "io/json_node.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include "error_text.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace roofline;
namespace fs = std::filesystem;

namespace {


std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A private character device (1,3 is null, 1,7 is full), or false when not root.
bool make_device(const std::string& path, unsigned minor) {
    return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

constexpr char sqlite_header[] = "SQLite format 3";  // with its NUL: the 16 bytes SQLite starts a file with

TEST(TextFileDestinations, ASymlinkIsFollowedAndKept) {
    TempDir dir("roofline-test");
    { std::ofstream(dir.file("target.json")) << "old"; }
    fs::create_symlink("target.json", dir.file("link.json"));
    write_text_file_atomic(dir.file("link.json"), "new\n");
    EXPECT_TRUE(fs::is_symlink(dir.file("link.json")));
    EXPECT_EQ(contents(dir.file("target.json")), "new\n");
    EXPECT_NO_THROW(check_file_writable(dir.file("link.json")));
}

TEST(TextFileDestinations, ADanglingSymlinkCreatesItsTarget) {
    TempDir dir("roofline-test");
    fs::create_directory(dir.file("sub"));
    fs::create_symlink("sub/target.json", dir.file("link.json"));
    EXPECT_NO_THROW(check_file_writable(dir.file("link.json")));
    write_text_file_atomic(dir.file("link.json"), "new\n");
    EXPECT_TRUE(fs::is_symlink(dir.file("link.json")));
    EXPECT_EQ(contents(dir.file("sub/target.json")), "new\n");
    // A link into a missing directory says which directory.
    fs::create_symlink("nowhere/target.json", dir.file("lost.json"));
    EXPECT_NE(error_of([&] { check_file_writable(dir.file("lost.json")); }).find("nowhere does not exist"),
              std::string::npos);
}

TEST(TextFileDestinations, ASymlinkLoopIsAnError) {
    TempDir dir("roofline-test");
    fs::create_symlink("b", dir.file("a"));
    fs::create_symlink("a", dir.file("b"));
    const auto path = dir.file("a");
    EXPECT_EQ(error_of([&] { write_text_file_atomic(path, "x"); }),
              "cannot write " + path + ": Too many levels of symbolic links");
    EXPECT_EQ(error_of([&] { check_file_writable(path); }),
              "cannot write " + path + ": Too many levels of symbolic links");
}

TEST(TextFileDestinations, AFullDeviceFailsAndStaysADevice) {
    TempDir dir("roofline-test");
    const auto path = dir.file("mydevfull");
    if (!make_device(path, 7)) GTEST_SKIP() << "mknod needs root";
    // Refused before the work (issue 33): a write of zero bytes, which /dev/full refuses too.
    EXPECT_EQ(error_of([&] { check_file_writable(path); }),
              "cannot write " + path + ": the device refuses writes (No space left on device)");
    EXPECT_EQ(error_of([&] { write_text_file_atomic(path, "{}\n"); }),
              "cannot write " + path + ": No space left on device");
    EXPECT_TRUE(fs::is_character_file(path));
}

TEST(TextFileDestinations, ANullDeviceTakesTheTextAndStaysADevice) {
    TempDir dir("roofline-test");
    const auto path = dir.file("mydevnull");
    if (!make_device(path, 3)) GTEST_SKIP() << "mknod needs root";
    EXPECT_NO_THROW(check_file_writable(path));
    EXPECT_NO_THROW(write_text_file_atomic(path, "{}\n"));
    EXPECT_TRUE(fs::is_character_file(path));
    // Nothing left next to it either (no temporary file).
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(TextFileDestinations, AFifoWithNoReaderFailsAtOnce) {
    TempDir dir("roofline-test");
    const auto path = dir.file("out.fifo");
    ASSERT_EQ(::mkfifo(path.c_str(), 0666), 0);
    EXPECT_NO_THROW(check_file_writable(path));  // a reader may come before the write
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(error_of([&] { write_text_file_atomic(path, "{}\n"); }),
              "cannot write " + path + ": it is a FIFO and no process is reading it (start the reader first)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_TRUE(fs::is_fifo(path));
}

TEST(TextFileDestinations, AFifoWithAReaderGetsAllTheText) {
    TempDir dir("roofline-test");
    const auto path = dir.file("out.fifo");
    ASSERT_EQ(::mkfifo(path.c_str(), 0666), 0);
    // Nonblocking open: the reader is there before the writer opens.
    const int reader = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    // More than a pipe holds, so the writer must wait for the reader (blocking writes).
    const std::string text(1 << 20, 'x');
    std::string got;
    std::thread drain([&] {
        char buffer[65536];
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);  // a failed write
        while (std::chrono::steady_clock::now() < deadline) {
            const ssize_t n = ::read(reader, buffer, sizeof buffer);
            if (n > 0) got.append(buffer, static_cast<std::size_t>(n));
            else if (n == 0 && got.size() >= text.size()) break;
            else std::this_thread::sleep_for(std::chrono::milliseconds(1));  // EAGAIN, or before the writer came
        }
    });
    EXPECT_NO_THROW(write_text_file_atomic(path, text));
    drain.join();
    ::close(reader);
    EXPECT_EQ(got.size(), text.size());
    EXPECT_TRUE(fs::is_fifo(path));
}

TEST(TextFileDestinations, ADirectoryIsStillAnError) {
    TempDir dir("roofline-test");
    EXPECT_EQ(error_of([&] { write_text_file_atomic(dir.path(), "x"); }),
              "cannot write " + dir.path() + ": it is a directory");
}

TEST(TextFileDestinations, AnSQLiteDatabaseIsNeverReplaced) {
    TempDir dir("roofline-test");
    const auto path = dir.file("results.db");
    const std::string database = std::string(sqlite_header, sizeof sqlite_header) + std::string(4080, '\1');
    { std::ofstream(path, std::ios::binary) << database; }
    const std::string expected =
        "cannot write " + path +
        ": it is an SQLite database (a results store), which text output never replaces; write to another file";
    EXPECT_EQ(error_of([&] { check_file_writable(path); }), expected);
    EXPECT_EQ(error_of([&] { write_text_file_atomic(path, "{}\n"); }), expected);
    EXPECT_EQ(contents(path), database);
    // Through a symlink too; and the message names the path given.
    fs::create_symlink("results.db", dir.file("link.db"));
    EXPECT_NE(error_of([&] { write_text_file_atomic(dir.file("link.db"), "{}\n"); }).find(dir.file("link.db") + ": it is an SQLite database"),
              std::string::npos);
    EXPECT_EQ(contents(path), database);
}

TEST(TextFileDestinations, TextThatOnlyLooksLikeADatabaseIsReplaced) {
    TempDir dir("roofline-test");
    const auto path = dir.file("notes.txt");
    { std::ofstream(path) << "SQLite format 3 is a header"; }  // no NUL at byte 15
    EXPECT_NO_THROW(write_text_file_atomic(path, "new\n"));
    EXPECT_EQ(contents(path), "new\n");
    { std::ofstream(path) << "SQLite"; }  // shorter than the header
    EXPECT_NO_THROW(write_text_file_atomic(path, "new\n"));
}

mode_t mode_of(const std::string& path) {
    struct stat info {};
    EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
    return info.st_mode & 07777;
}

// Issue 33: a private file replaced by temp file + rename came back 0644.
TEST(TextFileDestinations, AReplacedFileKeepsItsMode) {
    TempDir dir("roofline-test");
    const auto path = dir.file("private.txt");
    const mode_t old_umask = ::umask(022);
    for (const mode_t mode : {mode_t{0600}, mode_t{0640}, mode_t{0400}, mode_t{0666}}) {
        { std::ofstream(path) << "secret"; }
        ASSERT_EQ(::chmod(path.c_str(), mode), 0);  // chmod: the umask does not narrow it
        write_text_file_atomic(path, "new\n");
        EXPECT_EQ(contents(path), "new\n");
        EXPECT_EQ(mode_of(path), mode) << std::oct << mode;
    }
    // Through a symlink the target's mode is kept, the link stays a link.
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    fs::create_symlink("private.txt", dir.file("link.txt"));
    write_text_file_atomic(dir.file("link.txt"), "again\n");
    EXPECT_TRUE(fs::is_symlink(dir.file("link.txt")));
    EXPECT_EQ(mode_of(path), 0600u);
    // A new file still gets the umask-based mode.
    write_text_file_atomic(dir.file("fresh.txt"), "x\n");
    EXPECT_EQ(mode_of(dir.file("fresh.txt")), 0644u);
    ::umask(077);
    write_text_file_atomic(dir.file("fresh2.txt"), "x\n");
    EXPECT_EQ(mode_of(dir.file("fresh2.txt")), 0600u);
    ::umask(old_umask);
}

// Run as root (a node service), a user's file replaced stays the user's.
TEST(TextFileDestinations, AReplacedFileKeepsItsOwnerWhenRunAsRoot) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file away";
    TempDir dir("roofline-test");
    const auto path = dir.file("users.txt");
    { std::ofstream(path) << "old"; }
    ASSERT_EQ(::chown(path.c_str(), 12345, 23456), 0);
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    write_text_file_atomic(path, "new\n");
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_uid, 12345u);
    EXPECT_EQ(info.st_gid, 23456u);
    EXPECT_EQ(info.st_mode & 07777, 0640u);
    EXPECT_EQ(contents(path), "new\n");
}

// nlohmann stops at a NUL byte as at the end of input: what follows went unread.
TEST(JsonNulByte, IsRefusedWithWhereItIs) {
    const std::string text = std::string(R"({"schema":"roofline.points/1","points":[]})") + '\0' + "junk";
    EXPECT_EQ(error_of([&] { parse_json_text(text, "p.json"); }),
              "p.json: not valid JSON: a NUL byte at line 1, column 43 (byte offset 42); a JSON file holds text only");
    EXPECT_EQ(error_of([&] { parse_json_text(std::string("{\n  \"a\": 1\n}\n") + '\0', "q.json"); }),
              "q.json: not valid JSON: a NUL byte at line 4, column 1 (byte offset 13); a JSON file holds text only");
    // An escaped NUL inside a string is JSON, and still read.
    EXPECT_EQ(parse_json_text(R"({"a":"x\u0000y"})", "r.json")["a"].get<std::string>(), std::string("x\0y", 3));
}

TEST(JsonNulByte, AFileWithANulByteIsRefused) {
    TempDir dir("roofline-test");
    const auto path = dir.file("points.json");
    {
        std::ofstream out(path, std::ios::binary);
        out << R"({"schema":"roofline.points/1","points":[]})" << '\0' << "junk";
    }
    EXPECT_NE(error_of([&] { read_json_file(path); }).find(path + ": not valid JSON: a NUL byte at line 1, column 43"),
              std::string::npos);
}

// "-" is standard output (-o -): the text goes to the descriptor cli keeps for the result, in
// place, and no file named "-" is made; a closed one is an error that says standard output.
TEST(TextFileDestinations, ADashIsStandardOutput) {
    TempDir dir("roofline-test");
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    set_standard_output_descriptor(ends[1]);
    EXPECT_NO_THROW(check_file_writable("-"));
    write_text_file_atomic("-", "{\"points\": []}\n");
    ::close(ends[1]);
    char buffer[64] = {};
    EXPECT_EQ(std::string(buffer, static_cast<std::size_t>(::read(ends[0], buffer, sizeof buffer))), "{\"points\": []}\n");
    ::close(ends[0]);
    // ends[1] is closed now: nothing to write to.
    EXPECT_NE(error_of([] { check_file_writable("-"); }).find("cannot write to standard output"), std::string::npos);
    EXPECT_NE(error_of([] { write_text_file_atomic("-", "x"); }).find("cannot write to standard output"),
              std::string::npos);
    set_standard_output_descriptor(STDOUT_FILENO);
    EXPECT_FALSE(fs::exists("-"));
    // Two results there would run into each other; "-" and a file are two outputs.
    EXPECT_TRUE(same_output_file("-", "-"));
    EXPECT_FALSE(same_output_file("-", dir.file("m.json")));
}

} // namespace
