#include "measure/child_process.hpp"
#include "measure/engine.hpp"

#include <gtest/gtest.h>

#include <csignal>

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

#include <chrono>
#include <thread>
#include <unistd.h>

TEST(MeasureChildProcess, TermIsForwardedToTheChild) {
    std::thread sender;
    const auto run = run_child({"sleep", "5"}, {}, [&](pid_t) {
        sender = std::thread([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ::kill(::getpid(), SIGTERM);  // reaches roofline, which passes it on
        });
    });
    sender.join();
    EXPECT_FALSE(run.status.exited);
    EXPECT_EQ(run.status.signal, SIGTERM);
    EXPECT_LT(run.wall_seconds, 4);
}
