#include "measure/child_process.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/engine.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

using namespace roofline::measure;

TEST(MeasureChildProcess, ExitCodePassesThrough) {
    const auto run = run_child({"sh", "-c", "exit 3"}, {});
    EXPECT_TRUE(run.status.started);
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(run.status.exit_code, 3);
    EXPECT_EQ(run.status.pass_through_code(), 3);
    EXPECT_GT(run.wall_seconds, 0);
}

TEST(MeasureChildProcess, SignalIsReported) {
    const auto run = run_child({"sh", "-c", "kill -SEGV $$"}, {});
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGSEGV);
    EXPECT_EQ(run.status.describe(), "killed by signal 11 (SIGSEGV)");
    EXPECT_EQ(run.status.pass_through_code(), 128 + SIGSEGV);
}

TEST(MeasureChildProcess, ExtraEnvironment) {
    const auto run = run_child({"sh", "-c", "test \"$ROOFLINE_TEST_VAR\" = hello"}, {{"ROOFLINE_TEST_VAR", "hello"}});
    EXPECT_EQ(run.status.exit_code, 0);
}

TEST(MeasureChildProcess, HookRunsBeforeExec) {
    pid_t seen = 0;
    const auto run = run_child({"true"}, {}, [&](pid_t pid) { seen = pid; });
    EXPECT_GT(seen, 0);
    EXPECT_EQ(run.status.exit_code, 0);
}

TEST(MeasureChildProcess, MissingCommand) {
    try {
        run_child({"roofline-no-such-command-xyz"}, {});
        FAIL();
    } catch (const CommandNotFound& e) {
        EXPECT_STREQ(e.what(), "command not found: roofline-no-such-command-xyz");
    }
    EXPECT_THROW(run_child({"/nonexistent/dir/prog"}, {}), CommandNotFound);
    EXPECT_THROW(run_child({}, {}), CommandNotFound);
}

// A directory given as the command: exec says EACCES ("Permission denied"), which sent users
// looking at permissions; it is named as a directory, with exit status 126 as a shell gives.
TEST(MeasureChildProcess, ADirectoryIsNotACommand) {
    EXPECT_EQ(find_executable("/tmp"), "");
    EXPECT_EQ(find_executable("/tmp/"), "");
    try {
        run_child({"/tmp"}, {});
        FAIL();
    } catch (const CommandNotFound& e) {
        EXPECT_STREQ(e.what(), "cannot execute /tmp: is a directory");
        EXPECT_EQ(e.exit_code, 126);
    }
    EXPECT_EQ(not_executable_reason("/etc/hostname"), "permission denied");
}


TEST(MeasureChildProcess, TermIsForwardedToTheChild) {
    std::thread sender;
    const auto run = run_child({"sleep", "5"}, {}, [&](pid_t) {
        sender = std::thread([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ::kill(::getpid(), SIGTERM);  // reaches roofline, which passes it on
        });
    });
    sender.join();
    EXPECT_EQ(interrupt_signal(), SIGTERM);  // remembered: no further run would start
    clear_interrupt();
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGTERM);
    EXPECT_LT(run.wall_seconds, 4);
}

// Issue 33: SIGHUP (an ssh connection dropped) is taken like Ctrl-C: passed on to the child and
// remembered, so that measure keeps what was measured, instead of ending roofline with nothing written.
TEST(MeasureChildProcess, HupIsForwardedAndRemembered) {
    std::thread sender;
    const auto run = run_child({"sleep", "5"}, {}, [&](pid_t) {
        sender = std::thread([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ::kill(::getpid(), SIGHUP);
        });
    });
    sender.join();
    EXPECT_EQ(interrupt_signal(), SIGHUP);
    clear_interrupt();
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGHUP);
    EXPECT_LT(run.wall_seconds, 4);
    {
        InterruptScope scope;
        ::kill(::getpid(), SIGHUP);  // between runs: remembered, roofline goes on
        EXPECT_EQ(interrupt_signal(), SIGHUP);
        EXPECT_THROW(run_child({"true"}, {}), Interrupted);
    }
    clear_interrupt();
}

// Under nohup SIGHUP is ignored on purpose: it stays ignored, in roofline and in the child.
TEST(MeasureChildProcess, HupIgnoredUnderNohupStaysIgnored) {
    struct sigaction ignore {}, old {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGHUP, &ignore, &old);
    std::thread sender;
    const auto run = run_child({"sh", "-c", "sleep 0.6; exit 3"}, {}, [&](pid_t child) {
        sender = std::thread([child] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ::kill(::getpid(), SIGHUP);
            ::kill(child, SIGHUP);
        });
    });
    sender.join();
    ::sigaction(SIGHUP, &old, nullptr);
    EXPECT_EQ(interrupt_signal(), 0);
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(run.status.exit_code, 3);
}

// Issue 10: a child that ignores the forwarded signal is killed after the grace period.
TEST(MeasureChildProcess, ChildIgnoringTermIsKilledAfterGrace) {
    std::thread sender;
    const auto t0 = std::chrono::steady_clock::now();
    const auto run = run_child(
        {"sh", "-c", "trap '' INT TERM; sleep 30"}, {},
        [&](pid_t) {
            sender = std::thread([] {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                ::kill(::getpid(), SIGTERM);
            });
        },
        {}, 0.5);
    sender.join();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(interrupt_signal(), SIGTERM);
    clear_interrupt();
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGKILL);
    EXPECT_LT(took, 10);  // not the 30 s of the sleep
}

TEST(MeasureChildProcess, NoRunStartsAfterAnInterrupt) {
    {
        InterruptScope scope;
        ::kill(::getpid(), SIGINT);  // between runs: remembered, roofline goes on
        EXPECT_EQ(interrupt_signal(), SIGINT);
        EXPECT_THROW(run_child({"true"}, {}), Interrupted);
    }
    clear_interrupt();
    EXPECT_EQ(run_child({"true"}, {}).status.exit_code, 0);
}

TEST(MeasureChildProcess, ElfClassFromTheHeader) {
    EXPECT_EQ(elf_class_of(std::string_view("\x7f" "ELF\x01\x01\x01", 7)), ElfClass::elf32);
    EXPECT_EQ(elf_class_of(std::string_view("\x7f" "ELF\x02\x01\x01", 7)), ElfClass::elf64);
    EXPECT_EQ(elf_class_of("#!/bin/sh\n"), ElfClass::not_elf);
    EXPECT_EQ(elf_class_of(std::string_view("\x7f" "ELF", 4)), ElfClass::not_elf);
    EXPECT_EQ(executable_elf_class("/proc/self/exe"), ElfClass::elf64);
    EXPECT_EQ(executable_elf_class("/nonexistent"), ElfClass::not_elf);
}

namespace {

// Puts `fd` on standard input for the test's lifetime.
struct StdinSwap {
    int saved;
    explicit StdinSwap(int fd) : saved(::dup(0)) {
        ::dup2(fd, 0);
        ::close(fd);
    }
    ~StdinSwap() {
        stop_stdin_replay();
        ::dup2(saved, 0);
        ::close(saved);
    }
};

// The read end of a pipe already holding `input`, its write end closed.
int pipe_holding(const std::string& input) {
    int p[2];
    if (::pipe(p) != 0) throw std::runtime_error("pipe failed");
    if (::write(p[1], input.data(), input.size()) != static_cast<ssize_t>(input.size()))
        throw std::runtime_error("write to pipe failed");
    ::close(p[1]);
    return p[0];
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::pair<std::string, std::string> what_two_runs_read() {
    char dir[] = "/tmp/roofline-stdin-test-XXXXXX";
    if (!::mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    const std::string a = std::string(dir) + "/a", b = std::string(dir) + "/b";
    run_child({"sh", "-c", "cat > " + a}, {});
    run_child({"sh", "-c", "cat > " + b}, {});
    auto read = std::make_pair(slurp(a), slurp(b));
    std::filesystem::remove_all(dir);
    return read;
}

} // namespace

TEST(MeasureChildProcess, EveryRunReadsTheSamePipedInput) {
    const std::string input = "line one\nline two\n";
    StdinSwap swap(pipe_holding(input));
    const auto replay = replay_stdin_for_every_run();
    EXPECT_TRUE(replay.warning.empty()) << replay.warning;
    EXPECT_NE(replay.note.find("18 bytes"), std::string::npos) << replay.note;
    const auto [first, second] = what_two_runs_read();
    EXPECT_EQ(first, input);
    EXPECT_EQ(second, input);
}

TEST(MeasureChildProcess, PipedInputPastTheLimitGoesWholeToTheFirstRun) {
    const std::string input = "0123456789abcdef";
    StdinSwap swap(pipe_holding(input));
    const auto replay = replay_stdin_for_every_run(8);
    EXPECT_NE(replay.warning.find("reads all of it, every later run (the timed runs, the counting run) only its first 8 "
                                  "bytes (8 B), so the points describe the first 8 bytes (8 B) of the input"),
              std::string::npos)
        << replay.warning;
    const auto [first, second] = what_two_runs_read();
    EXPECT_EQ(first, input);
    EXPECT_EQ(second, input.substr(0, 9));  // the captured part: the limit and the byte that told it was longer
}

// The audit's 100 MB pipe: the later runs read 64 MiB of it (the old cap). By default the whole
// input is kept, past 64 MiB, and every run reads all of it.
TEST(MeasureChildProcess, PipedInputPast64MiBGoesWholeToEveryRun) {
    const std::size_t size = (std::size_t{64} << 20) + 4097;
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    std::thread writer([fd = p[1], size] {
        std::vector<char> block(1 << 16, 'x');
        for (std::size_t left = size; left > 0;) {
            const ssize_t n = ::write(fd, block.data(), std::min(left, block.size()));
            if (n <= 0) break;
            left -= static_cast<std::size_t>(n);
        }
        ::close(fd);
    });
    StdinSwap swap(p[0]);
    const auto replay = replay_stdin_for_every_run();
    writer.join();
    EXPECT_TRUE(replay.warning.empty()) << replay.warning;
    EXPECT_NE(replay.note.find(std::to_string(size) + " bytes"), std::string::npos) << replay.note;
    char dir[] = "/tmp/roofline-stdin-big-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    const std::string counts = std::string(dir) + "/counts";
    for (int run = 0; run < 2; ++run) run_child({"sh", "-c", "wc -c >> " + counts}, {});
    EXPECT_EQ(slurp(counts), std::to_string(size) + "\n" + std::to_string(size) + "\n");
    std::filesystem::remove_all(dir);
}

// A temporary file that cannot hold the input (a full disk; here a file size limit, EFBIG) is an
// error saying what to do, not runs reading different input.
TEST(MeasureChildProcess, PipedInputThatCannotBeKeptIsAnError) {
    const std::string input(4096, 'y');
    StdinSwap swap(pipe_holding(input));
    const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 1000;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string error;
    try {
        (void)replay_stdin_for_every_run();
    } catch (const MeasureError& e) {
        error = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    ::signal(SIGXFSZ, old_handler);
    EXPECT_NE(error.find("failed after 1000 bytes"), std::string::npos) << error;
    EXPECT_NE(error.find("TMPDIR"), std::string::npos) << error;
}

TEST(MeasureChildProcess, EveryRunReadsAFileFromTheSamePlace) {
    char path[] = "/tmp/roofline-stdin-file-XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, "skip\nrest\n", 10), 10);
    ::lseek(fd, 5, SEEK_SET);  // as after `read line` in the caller: the runs start here
    StdinSwap swap(fd);
    const auto replay = replay_stdin_for_every_run();
    EXPECT_FALSE(replay.note.empty());
    const std::string out = std::string(path) + ".out";
    run_child({"sh", "-c", "cat > " + out}, {});
    EXPECT_EQ(slurp(out), "rest\n");
    run_child({"sh", "-c", "cat >> " + out}, {});
    EXPECT_EQ(slurp(out), "rest\nrest\n");
    ::unlink(path);
    ::unlink(out.c_str());
}

// Issue 33: a child that never ends (a GPU benchmark in a wedged driver) is stopped at its time
// limit with its process group: SIGTERM first, SIGKILL for one that ignores it.
TEST(MeasureChildProcess, ATimeLimitStopsAChildThatNeverEnds) {
    const auto t0 = std::chrono::steady_clock::now();
    TimeLimit limit;
    limit.seconds = 0.3;
    const auto run = run_child({"sleep", "30"}, {}, {}, wait_within(limit));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(limit.expired);
    EXPECT_FALSE(limit.left_behind);
    EXPECT_FALSE(limit.sent_sigkill);
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGTERM);
    EXPECT_LT(took, 5.0);

    TimeLimit stubborn;
    stubborn.seconds = 0.2;
    stubborn.kill_after = 0.3;
    const auto killed = run_child({"/bin/sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"}, {}, {},
                                  wait_within(stubborn));
    EXPECT_TRUE(stubborn.expired);
    EXPECT_EQ(killed.status.signal, SIGKILL);
    EXPECT_TRUE(stubborn.sent_sigkill);

    TimeLimit enough;
    enough.seconds = 30;
    const auto quick = run_child({"true"}, {}, {}, wait_within(enough));
    EXPECT_FALSE(enough.expired);
    EXPECT_TRUE(quick.status.exited);
    EXPECT_EQ(quick.status.exit_code, 0);
}
