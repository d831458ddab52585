// render/job_report: the one label a monitored sample's time has (the monitor's lines,
// report --job, plot --job), fine enough for the interval.
#include "render/job_report.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace roofline;

TEST(SampleTimeLabel, WholeSecondsForIntervalsOfTwoSecondsAndMore) {
    EXPECT_EQ(sample_time_label(10, 10), "+10 s");
    EXPECT_EQ(sample_time_label(3.4, 10), "+3 s");  // a last, partial sample
    EXPECT_EQ(sample_time_label(4, 2), "+4 s");
    EXPECT_EQ(sample_time_label(3.4, 0), "+3 s");  // interval not known
}

TEST(SampleTimeLabel, SubSecondIntervalsGiveEverySampleItsOwnLabel) {
    // Every 0.25 s (was "+0 s +0 s +1 s +1 s"), and every 0.1 s, a timer's jitter included.
    for (const double interval : {0.1, 0.25, 0.5, 1.0}) {
        std::set<std::string> labels;
        for (int i = 1; i <= 40; ++i) labels.insert(sample_time_label(i * interval + (i % 2 ? 0.004 : -0.004), interval));
        EXPECT_EQ(labels.size(), 40u) << "interval " << interval;
    }
    EXPECT_EQ(sample_time_label(0.5, 0.25), "+0.5 s");
    EXPECT_EQ(sample_time_label(0.3, 0.1), "+0.30 s");
    EXPECT_EQ(sample_time_label(2, 1), "+2.0 s");
}

TEST(SampleTimeLabel, TheReportUsesIt) {
    JobSummary s;
    s.samples = 2;
    s.interval_seconds = 0.25;
    s.rows = {{"n1", 0.25, 0.25, 0, std::nullopt}, {"n1", 0.5, 0.25, 0, std::nullopt}};
    const auto text = render_job_report_text("j", s, "FLOP");
    EXPECT_NE(text.find(sample_time_label(0.25, 0.25)), std::string::npos) << text;
    EXPECT_NE(text.find("+0.5 s"), std::string::npos) << text;
}

// plot --job's time bands: their ends written as the samples' labels are, with the decimals the
// interval needs (they were whole seconds: a 0.25 s job's bands read "+0-0 s", "+0-1 s").
TEST(SampleTimeLabel, BandsSpanTwoLabels) {
    EXPECT_EQ(sample_time_span_label(0, 60, 10), "+0-60 s");
    EXPECT_EQ(sample_time_span_label(0, 1.003, 1), "+0.0-1.0 s");
    EXPECT_EQ(sample_time_span_label(0.5, 1.0, 0.25), "+0.5-1.0 s");
    EXPECT_EQ(sample_time_span_label(0.3, 0.6, 0.1), "+0.30-0.60 s");
    for (const double interval : {0.1, 0.25, 1.0, 10.0}) {
        const std::string from = sample_time_label(3 * interval, interval), to = sample_time_label(5 * interval, interval);
        EXPECT_EQ(sample_time_span_label(3 * interval, 5 * interval, interval),
                  from.substr(0, from.size() - 2) + "-" + to.substr(1))
            << interval;
    }
}
