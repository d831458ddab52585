// The counter monitor's use case (app/counter_monitor.hpp) on a job that has no process here:
// it waits and says so once, with no sample. Skipped where this CPU's event set has no event
// that opens per thread (no PMU: the monitor refuses to start there, which is checked too).
#include "app/counter_monitor.hpp"
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::app {
namespace {

TEST(CounterMonitor, AJobWithNoProcessHereIsWaitedForAndSaidOnce) {
    const test::ScopedEnv events("ROOFLINE_EVENTS_DIR", std::string(ROOFLINE_TEST_EVENTS_DIR));
    const std::string job = "no-such-job-" + std::to_string(::getpid());
    std::vector<CounterMonitorNote> notes;
    std::unique_ptr<CounterMonitor> monitor;
    try {
        monitor = std::make_unique<CounterMonitor>(CounterMonitorRequest{job, false},
                                                   [&](const CounterMonitorNote& n) { notes.push_back(n); });
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("event"), std::string::npos) << e.what();
        GTEST_SKIP() << "no per-thread event here: " << e.what();
    }
    EXPECT_FALSE(monitor->event_set_name().empty());
    Provenance provenance;
    monitor->describe(provenance);
    EXPECT_EQ(provenance.engine, "monitor");
    EXPECT_NE(provenance.options.at("counters").find(monitor->event_set_name()), std::string::npos);
    std::erase_if(notes, [](const auto& n) { return n.kind == CounterMonitorNote::Kind::event_set_warning; });
    monitor->start();
    EXPECT_TRUE(monitor->sample().empty());
    EXPECT_TRUE(monitor->sample().empty());
    ASSERT_EQ(notes.size(), 1u) << "waiting is said once";
    EXPECT_EQ(notes[0].kind, CounterMonitorNote::Kind::no_process_yet);
    EXPECT_EQ(notes[0].job, job);
}

} // namespace
} // namespace roofline::app
