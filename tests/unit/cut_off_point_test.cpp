// A point whose region a signal cut off (core/cut_off_point): made by measure's merge, read from
// a points file (a value that is no signal refused), kept by the results store, said by measure's
// table, by report in text, Markdown and JSON, and by compare.
#include "core/comparison.hpp"
#include "core/cut_off_point.hpp"
#include "core/roofline.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "measure/merge.hpp"
#include "render/comparison_text.hpp"
#include "render/measure_tables.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace roofline;

namespace {

Roofline cut_off_roofline() {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"DRAM load", "DRAM", 20}};
    return r;
}

Point cut_off_counted_point(const std::string& name) {
    Point p;
    p.name = name;
    p.work = 1e9;
    p.bytes = {{"DRAM", 1e9}};
    p.seconds = 0.5;
    return p;
}

std::string cut_off_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(CutOffPoint, MergeFlagsTheOpenRegionAndTheProgramOfARunASignalEnded) {
    measure::MeasureResult r;
    r.engine = measure::EngineKind::time;
    r.status.started = true;
    r.status.signal = SIGINT;  // killed by it, not exited
    r.wall_seconds = 0.2;
    r.cpu_wall_seconds = 0.2;  // the native run's (not --times)
    r.timings = {{"done", 1, 0.13, 1}, {"spin", 1, 0.05, 1}};
    r.timings[1].unclosed = 1;
    const auto points = measure::merge_points(r, nullptr);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(cut_off_signal(points[0]), std::nullopt);  // "done" finished before
    EXPECT_EQ(cut_off_signal(points[1]), SIGINT);
    EXPECT_EQ(points[2].name, "(program)");
    EXPECT_EQ(cut_off_signal(points[2]), SIGINT);
}

TEST(CutOffPoint, MergeLeavesARegionClosedAtANormalExitUnflagged) {
    // Still open at exit (closed by the library's finalize): no signal cut it off.
    measure::MeasureResult r;
    r.status.started = true;
    r.status.exited = true;
    r.wall_seconds = r.cpu_wall_seconds = 0.2;
    r.timings = {{"spin", 1, 0.05, 1}};
    r.timings[0].unclosed = 1;
    for (const auto& p : measure::merge_points(r, nullptr)) EXPECT_EQ(cut_off_signal(p), std::nullopt) << p.name;
}

TEST(CutOffPoint, SignalNamesAndText) {
    EXPECT_EQ(signal_text(SIGINT), "SIGINT");
    EXPECT_EQ(signal_text(SIGTERM), "SIGTERM");
    EXPECT_EQ(signal_text(SIGSEGV), "SIGSEGV");
    EXPECT_EQ(signal_text(40), "signal 40");
    EXPECT_EQ(cut_off_text(SIGHUP, false),
              "cut off by SIGHUP: its time is only the part that ran before the signal, not a whole run of it");
    EXPECT_NE(cut_off_text(SIGHUP, true).find("its time and counts are only the part"), std::string::npos);
}

TEST(CutOffPoint, PointsFileKeepsItAndRefusesAValueThatIsNoSignal) {
    auto p = cut_off_counted_point("spin");
    p.details[kCutOffBySignal] = SIGTERM;
    const auto back = points_from_json(points_to_json({p}));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(cut_off_signal(back[0]), SIGTERM);
    for (const double bad : {0.0, 2.5, 65.0, -2.0}) {
        auto j = points_to_json({p});
        j["points"][0]["details"][kCutOffBySignal] = bad;
        const auto error = cut_off_error_of([&] { points_from_json(j, "p.json"); });
        EXPECT_NE(error.find("cut_off_by_signal"), std::string::npos) << bad << ": " << error;
        EXPECT_NE(error.find("is not a signal number"), std::string::npos) << bad << ": " << error;
    }
}

TEST(CutOffPoint, ResultsStoreKeepsIt) {
    TempDir dir("roofline-cut-off");
    ResultsStore store(dir.file("results.db"));
    auto spin = cut_off_counted_point("spin");
    spin.details[kCutOffBySignal] = SIGINT;
    const auto id = store.save_points("interrupted run", {cut_off_counted_point("done"), spin});
    const auto back = store.points(id);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(back->size(), 2u);
    EXPECT_EQ(cut_off_signal((*back)[0]), std::nullopt);
    EXPECT_EQ(cut_off_signal((*back)[1]), SIGINT);
}

TEST(CutOffPoint, AnalysisCarriesIt) {
    auto p = cut_off_counted_point("spin");
    EXPECT_EQ(analyze(cut_off_roofline(), p, View::carm).cut_off, std::nullopt);
    p.details[kCutOffBySignal] = SIGINT;
    EXPECT_EQ(analyze(cut_off_roofline(), p, View::carm).cut_off, SIGINT);
}

TEST(CutOffPoint, ReportSaysItInTextMarkdownAndJson) {
    auto spin = cut_off_counted_point("spin");
    spin.details[kCutOffBySignal] = SIGINT;
    const std::vector<Analysis> analyses{analyze(cut_off_roofline(), cut_off_counted_point("done"), View::carm),
                                         analyze(cut_off_roofline(), spin, View::carm)};
    const auto text = render_report(analyses, cut_off_roofline(), ReportFormat::text);
    EXPECT_NE(text.find("\nspin\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  PARTIAL          cut off by SIGINT: its time and counts are only the part that ran before "
                        "the signal, not a whole run of it\n"),
              std::string::npos)
        << text;
    // Said once: of 'spin', not of 'done'.
    EXPECT_EQ(text.find("cut off by"), text.rfind("cut off by")) << text;
    const auto markdown = render_report(analyses, cut_off_roofline(), ReportFormat::markdown);
    EXPECT_NE(markdown.find("  - PARTIAL: cut off by SIGINT: its time and counts"), std::string::npos) << markdown;
    const auto json = nlohmann::json::parse(render_report(analyses, cut_off_roofline(), ReportFormat::json));
    EXPECT_TRUE(json["points"][0]["cut_off"].is_null());
    EXPECT_EQ(json["points"][1]["cut_off"]["signal"], SIGINT);
    EXPECT_EQ(json["points"][1]["cut_off"]["signal_name"], "SIGINT");
    EXPECT_EQ(json["points"][1]["cut_off"]["note"], cut_off_text(SIGINT, true));
}

TEST(CutOffPoint, ReportNamesItAmongThePointsNotJudged) {
    const std::vector<NotJudged> not_judged{{"done", "their FLOPs not counted"},
                                            {"spin", "their FLOPs not counted", SIGTERM}};
    const auto text = render_report({}, cut_off_roofline(), ReportFormat::text, std::nullopt, {}, not_judged);
    EXPECT_NE(text.find("their FLOPs not counted: done, spin (cut off by SIGTERM)"), std::string::npos) << text;
    const auto json =
        nlohmann::json::parse(render_report({}, cut_off_roofline(), ReportFormat::json, std::nullopt, {}, not_judged));
    EXPECT_TRUE(json["not_judged"][0]["cut_off"].is_null());
    EXPECT_EQ(json["not_judged"][1]["point"], "spin");  // the name unchanged, for scripts
    EXPECT_EQ(json["not_judged"][1]["cut_off"]["signal_name"], "SIGTERM");
    EXPECT_EQ(json["not_judged"][1]["cut_off"]["note"], cut_off_text(SIGTERM, false));
}

TEST(CutOffPoint, MeasureTableSaysItUnderTheTable) {
    Point spin;
    spin.name = "spin";
    spin.seconds = 0.05;
    spin.work_counted = false;  // the time engine's
    spin.details[kCutOffBySignal] = SIGINT;
    Point done = spin;
    done.name = "done";
    done.details.clear();
    const auto table = render_measured_points({{done, std::nullopt}, {spin, std::nullopt}}, false);
    EXPECT_NE(table.find("\nspin: cut off by SIGINT: its time is only the part that ran before the signal"),
              std::string::npos)
        << table;
    EXPECT_EQ(table.find("done: cut off"), std::string::npos) << table;
}

TEST(CutOffPoint, CompareSaysWhichSideWasCutOff) {
    auto spin_b = cut_off_counted_point("spin");
    spin_b.seconds = 0.25;  // the part that ran before SIGINT: twice A's rate
    spin_b.details[kCutOffBySignal] = SIGINT;
    const auto roofline = cut_off_roofline();
    ComparisonInput input;
    input.have_points = true;
    input.judged = true;
    input.points = compare_points({cut_off_counted_point("spin")}, &roofline, {spin_b}, &roofline, View::carm);
    ASSERT_EQ(input.points.size(), 1u);
    EXPECT_EQ(input.points[0].a->cut_off, std::nullopt);
    EXPECT_EQ(input.points[0].b->cut_off, SIGINT);
    const auto text = render_comparison(input, false);
    EXPECT_NE(text.find("B cut off by SIGINT (its time only the part that ran)"), std::string::npos) << text;
    EXPECT_EQ(text.find("A cut off"), std::string::npos) << text;
    const auto json = nlohmann::json::parse(render_comparison(input, true));
    EXPECT_TRUE(json["points"][0]["cut_off"]["a"].is_null());
    EXPECT_EQ(json["points"][0]["cut_off"]["b"], "SIGINT");
}

TEST(CutOffPoint, CompareDoesNotJudgeAPairWithACutOffSide) {
    // B's region cut off by SIGINT after half of A's time: twice A's rate on the part that ran.
    auto spin_b = cut_off_counted_point("spin");
    spin_b.seconds = 0.25;
    spin_b.details[kCutOffBySignal] = SIGINT;
    const auto roofline = cut_off_roofline();
    ComparisonInput input;
    input.have_points = true;
    input.judged = true;
    input.points = compare_points({cut_off_counted_point("spin")}, &roofline, {spin_b}, &roofline, View::carm);
    ASSERT_EQ(input.points.size(), 1u);
    const auto& p = input.points[0];
    EXPECT_TRUE(p.cut_off());
    EXPECT_FALSE(p.judged());
    EXPECT_FALSE(p.significant);
    EXPECT_FALSE(p.faster());
    EXPECT_FALSE(p.slower());
    EXPECT_NEAR(p.ratio, 2.0, 1e-12);  // still shown
    const auto text = render_comparison(input, false);
    EXPECT_NE(text.find("not judged: B cut off by SIGINT"), std::string::npos) << text;
    EXPECT_EQ(text.find("FASTER"), std::string::npos) << text;
    EXPECT_NE(text.find("0 faster, 0 slower, 0 within their spread, 1 not judged (cut off by a signal), 0 in one run"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Nothing judged: each of the 1 point in both runs was cut off by a signal in A or B"),
              std::string::npos)
        << text;
    const auto json = nlohmann::json::parse(render_comparison(input, true));
    EXPECT_EQ(json["points"][0]["judged"], false);
    EXPECT_EQ(json["points"][0]["changed"], false);
    EXPECT_EQ(json["points"][0]["slower"], false);
    EXPECT_EQ(json["points"][0]["not_judged"], "B cut off by SIGINT");
    EXPECT_FALSE(json["points"][0].contains("band"));
    EXPECT_EQ(json["compared"]["judged"], 0);
}

TEST(CutOffPoint, CompareOfOneCommandLineDoesNotJudgeACutOffSideOnItsTime) {
    // A cut off by SIGTERM after a tenth of its work: B's whole run takes 5x its time, which
    // judged on time (the work differs) would read SLOWER and fail --fail-on-slower.
    auto spin_a = cut_off_counted_point("spin");
    spin_a.work = 1e8;
    spin_a.seconds = 0.1;
    spin_a.details[kCutOffBySignal] = SIGTERM;
    auto spin_b = cut_off_counted_point("spin");
    spin_b.details[kCutOffBySignal] = SIGINT;
    auto other_a = cut_off_counted_point("other"), other_b = cut_off_counted_point("other");
    other_a.details[kCutOffBySignal] = SIGINT;
    const auto roofline = cut_off_roofline();
    ComparisonInput input;
    input.have_points = true;
    input.judged = true;
    input.points = compare_points({spin_a, other_a}, &roofline, {cut_off_counted_point("spin"), other_b}, &roofline,
                                  View::carm);
    judge_work_changes_on_time(input.points);
    ASSERT_EQ(input.points.size(), 2u);
    for (const auto& p : input.points) {
        EXPECT_FALSE(p.by_time) << p.name;
        EXPECT_FALSE(p.work) << p.name;  // a partial run's work is no change of the program
        EXPECT_FALSE(p.slower()) << p.name;
        EXPECT_FALSE(p.judged()) << p.name;
    }
    const auto text = render_comparison(input, false);
    EXPECT_NE(text.find("not judged: A cut off by SIGTERM"), std::string::npos) << text;
    EXPECT_NE(text.find("not judged: A cut off by SIGINT"), std::string::npos) << text;
    EXPECT_EQ(text.find("SLOWER"), std::string::npos) << text;
    // Both sides cut off.
    spin_b.details[kCutOffBySignal] = SIGTERM;
    const auto both = compare_points({spin_a}, &roofline, {spin_b}, &roofline, View::carm);
    ComparisonInput both_input = input;
    both_input.points = both;
    EXPECT_NE(render_comparison(both_input, false).find("not judged: A and B cut off by SIGTERM"), std::string::npos);
}

TEST(CutOffPoint, HistoryMarksACutOffRunAndDoesNotJudgeIt) {
    const auto figure = [](double gflops) {
        SpreadFigure f;
        f.value = gflops;
        f.floor = kMinimumChange;
        return f;
    };
    FigureHistory spin;
    spin.key = "spin";
    spin.unit = "GFLOP/s";
    spin.command = "./spin 100";
    spin.runs = {{"#1", figure(2.0)}, {"#2", figure(1.0), SIGINT}, {"#3", figure(1.0)}};
    find_changes(spin);
    EXPECT_EQ(spin.unjudged, (std::vector<std::size_t>{1}));
    ASSERT_EQ(spin.changes.size(), 1u);  // run 3 against run 1, not against the cut-off run 2
    EXPECT_EQ(spin.changes[0].run, 2u);
    EXPECT_NEAR(spin.changes[0].ratio, 0.5, 1e-12);
    const std::string text = render_history({"point 'spin'", {spin}}, false);
    EXPECT_NE(text.find("  2  #2  *\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  1  #1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("* cut off by a signal (run 2: 'spin' by SIGINT)"), std::string::npos) << text;
    EXPECT_NE(text.find("run 2: cut off by SIGINT, not judged"), std::string::npos) << text;
    const auto json = nlohmann::json::parse(render_history({"point 'spin'", {spin}}, true));
    const auto& runs = json["figures"][0]["runs"];
    EXPECT_TRUE(runs[0]["cut_off"].is_null());
    EXPECT_EQ(runs[1]["cut_off"], "SIGINT");
    EXPECT_EQ(json["figures"][0]["unjudged"], nlohmann::json::array({"#2"}));

    // The latest run cut off: nothing judged in it (history --fail-on-slower exits 4, not 3).
    spin.runs = {{"#1", figure(2.0)}, {"#2", figure(1.0), SIGINT}};
    find_changes(spin);
    EXPECT_TRUE(spin.changes.empty());
    EXPECT_EQ(spin.latest(), FigureHistory::Latest::cut_off);
    const std::string none = nothing_judged_in_latest_run_text({"point 'spin'", {spin}});
    EXPECT_NE(none.find("1 of 1 cut off by a signal in it"), std::string::npos) << none;
}
