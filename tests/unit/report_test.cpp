// The report renderer on hand-built analyses (independent of analyze()'s wording).
#include "render/report.hpp"
#include "core/provenance.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace roofline;

namespace {

Roofline sample_roofline() {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 2;
    r.compute = {"DP peak", "", 128};
    r.bandwidth = {{"L1 load", "L1", 400}, {"DRAM load", "DRAM", 20}};
    r.ceilings = {{"no FMA", CeilingKind::compute, "fma", "", 64, "use FMA"},
                  {"DRAM copy", CeilingKind::bandwidth, "pattern", "DRAM", 15, "fewer store streams"}};
    return r;
}

// A next step in a spec sheet's own words (rendered as written).
NextStep step(const std::string& advice) {
    NextStep s;
    s.ceiling = Ceiling{"custom", CeilingKind::compute, "other", "", 1, advice};
    return s;
}

Analysis memory_bound_point() {
    Analysis a;
    a.point = "triad";
    a.performance = 1;
    a.attainable = 1.25;
    a.efficiency = 0.8;
    a.intensity = 0.0625;
    a.binding_roof = "DRAM load";
    a.binding_level = "DRAM";
    a.intensity_level = "DRAM";
    a.memory_bound = true;
    a.lower = Ceiling{"DRAM copy", CeilingKind::bandwidth, "pattern", "DRAM", 15, "fewer store streams"};
    a.region = Region::memory_only;
    a.headroom = {{"DP peak", 128, 128}, {"DRAM load", 1.25, 1.25}};
    a.next_steps = {step("block loops")};
    return a;
}

// A name with a comma and quotes, and an upper ceiling: exercises CSV quoting.
Analysis compute_bound_point() {
    Analysis a;
    a.point = "dgemm \"256\", blocked";
    a.performance = 40;
    a.attainable = 128;
    a.efficiency = 0.3125;
    a.intensity = 340;
    a.intensity_level = "L2";  // a compute-bound point's: its last level's
    a.binding_roof = "DP peak";
    a.memory_bound = false;
    a.upper = Ceiling{"no FMA", CeilingKind::compute, "fma", "", 64, "use FMA"};
    a.region = Region::compute_only;
    a.headroom = {{"DP peak", 128, 3.2}};
    a.next_steps = {step("use FMA"), step("unroll, then vectorize")};
    return a;
}

std::vector<Analysis> sample_analyses() { return {memory_bound_point(), compute_bound_point()}; }

} // namespace

TEST(Report, CsvIsExact) {
    const auto csv = render_report(sample_analyses(), sample_roofline(), ReportFormat::csv);
    const std::string expected =
        "point,performance (GFLOP/s),intensity (FLOP/B),intensity level,attainable (GFLOP/s),efficiency,binding roof,"
        "binding level,memory bound,region,upper ceiling type,upper ceiling category,upper ceiling name,"
        "upper ceiling value,upper ceiling unit,lower ceiling type,lower ceiling category,lower ceiling name,"
        "lower ceiling value,lower ceiling unit,limiting metric,headroom,next steps,above roof\n"
        "triad,1,0.0625,DRAM,1.25,0.8,DRAM load,DRAM,yes,memory-only,,,,,,bandwidth,pattern,DRAM copy,15,GB/s,"
        "GB/s at DRAM,DP peak: 128; DRAM load: 1.25,block loops,\n"
        "\"dgemm \"\"256\"\", blocked\",40,340,L2,128,0.3125,DP peak,,no,compute-only,compute,fma,no FMA,64,GFLOP/s,"
        ",,,,,GFLOP/s (no FMA),DP peak: 3.2,\"use FMA; unroll, then vectorize\",\n";
    EXPECT_EQ(csv, expected);
}

TEST(Report, CsvQuotesOnlyWhatNeedsIt) {
    auto a = memory_bound_point();
    a.point = "line\nbreak";
    a.next_steps = {step("plain")};
    const auto csv = render_report({a}, sample_roofline(), ReportFormat::csv);
    EXPECT_NE(csv.find("\n\"line\nbreak\",1,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",plain,\n"), std::string::npos) << csv;
}

TEST(Report, UnitsFollowTheWorkUnit) {
    auto r = sample_roofline();
    r.work_unit = "exchange";
    r.precision = "";
    const auto csv = render_report(sample_analyses(), r, ReportFormat::csv);
    EXPECT_EQ(csv.rfind("point,performance (Gexchange/s),intensity (exchange/B),intensity level,attainable (Gexchange/s),", 0), 0u)
        << csv;
    EXPECT_NE(csv.find(",64,Gexchange/s,"), std::string::npos) << csv;
    const auto text = render_report(sample_analyses(), r, ReportFormat::text);
    EXPECT_NE(text.find("Gexchange/s"), std::string::npos);
    EXPECT_NE(text.find("exchange/B"), std::string::npos);
}

TEST(Report, MarkdownIsExact) {
    const auto markdown = render_report(sample_analyses(), sample_roofline(), ReportFormat::markdown, View::carm);
    const std::string expected =
        "## Roofline report: Test CPU (dp, 2 threads, CARM view)\n"
        "\n"
        "Roofs: DP peak 128 GFLOP/s, L1 load 400 GB/s, DRAM load 20.0 GB/s\n"
        "\n"
        "| Point | GFLOP/s | FLOP/B | Attainable GFLOP/s | Efficiency | Bound by | Upper ceiling | Lower ceiling | "
        "Limiting metric |\n"
        "|---|---:|---:|---:|---:|---|---|---|---|\n"
        "| triad | 1.00 | 0.0625 (DRAM) | 1.25 | 80.0% | DRAM load (memory) | none | DRAM copy (bandwidth, 15.0 GB/s) | "
        "GB/s at DRAM |\n"
        "| dgemm \"256\", blocked | 40.0 | 340 (L2) | 128 | 31.2% | DP peak (compute) | no FMA (compute, 64.0 GFLOP/s) | "
        "none | GFLOP/s (no FMA) |\n"
        "\n"
        "- **triad**: memory-only, efficiency 80.0%\n"
        "  - headroom: DP peak 128x, DRAM load 1.25x\n"
        "  - next 1: block loops\n"
        "- **dgemm \"256\", blocked**: compute-only, efficiency 31.2%\n"
        "  - headroom: DP peak 3.20x\n"
        "  - next 1: use FMA\n"
        "  - next 2: unroll, then vectorize\n";
    EXPECT_EQ(markdown, expected);
}

TEST(Report, MarkdownEscapesTableBreakers) {
    auto a = memory_bound_point();
    a.point = "a|b *c*";
    const auto markdown = render_report({a}, sample_roofline(), ReportFormat::markdown);
    EXPECT_NE(markdown.find("| a\\|b \\*c\\* |"), std::string::npos) << markdown;
}

TEST(Report, TextHasAlignedTableAndDetails) {
    const auto text = render_report(sample_analyses(), sample_roofline(), ReportFormat::text, View::orm);
    EXPECT_EQ(text.rfind("Roofline report: Test CPU (dp, 2 threads, ORM view)\n", 0), 0u) << text;
    // Table: header and rows share column positions (numbers right-aligned).
    // The intensity says its level: a compute-bound point's is its last level's, beside a
    // memory-bound one's at its binding level.
    const std::string header = "Point                 GFLOP/s         FLOP/B  Attainable GFLOP/s  Efficiency  Bound by"
                               "            Zone\n";
    const std::string row1 = "triad                    1.00  0.0625 (DRAM)                1.25       80.0%  DRAM load "
                             "(memory)  memory-only\n";
    const std::string row2 = "dgemm \"256\", blocked     40.0       340 (L2)                 128       31.2%  DP peak "
                             "(compute)   compute-only\n";
    EXPECT_NE(text.find(header + row1 + row2), std::string::npos) << text;
    // Details per point: the ceiling sandwich, limiting metric and ordered next steps.
    EXPECT_NE(text.find("  upper ceiling    none below the roof\n"
                        "  lower ceiling    DRAM copy (bandwidth, 15.0 GB/s)\n"
                        "  limiting metric  GB/s at DRAM\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  next steps       1. use FMA\n"
                        "                   2. unroll, then vectorize\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  achieved         1.00 GFLOP/s at 0.0625 FLOP/B (DRAM)\n"), std::string::npos) << text;
}

TEST(Report, EmptyReportSaysSo) {
    EXPECT_NE(render_report({}, sample_roofline(), ReportFormat::text).find("No points."), std::string::npos);
    const auto csv = render_report({}, sample_roofline(), ReportFormat::csv);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1);  // the header only
    const auto j = nlohmann::json::parse(render_report({}, sample_roofline(), ReportFormat::json));
    EXPECT_TRUE(j["points"].empty());
}

TEST(Report, JsonCarriesEveryField) {
    const auto analyses = sample_analyses();
    const auto j =
        nlohmann::json::parse(render_report(analyses, sample_roofline(), ReportFormat::json, View::carm));
    EXPECT_EQ(j["schema"], "roofline.report/1");
    EXPECT_EQ(j["roofline"]["label"], "Test CPU");
    EXPECT_EQ(j["roofline"]["view"], "carm");
    EXPECT_EQ(j["roofline"]["threads"], 2);
    EXPECT_EQ(j["roofline"]["compute"]["value"], 128.0);
    EXPECT_EQ(j["roofline"]["bandwidth"][1]["level"], "DRAM");
    EXPECT_EQ(j["units"]["performance"], "GFLOP/s");
    ASSERT_EQ(j["points"].size(), 2u);
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        const auto& a = analyses[i];
        const auto& p = j["points"][i];
        EXPECT_EQ(p["point"], a.point);
        EXPECT_EQ(p["performance"].get<double>(), a.performance);
        EXPECT_EQ(p["intensity"].get<double>(), a.intensity);
        EXPECT_EQ(p["attainable"].get<double>(), a.attainable);
        EXPECT_EQ(p["efficiency"].get<double>(), a.efficiency);
        EXPECT_EQ(p["binding_roof"], a.binding_roof);
        EXPECT_EQ(p["binding_level"], a.binding_level);
        EXPECT_EQ(p["memory_bound"], a.memory_bound);
        EXPECT_EQ(p["region"], region_name(a.region));
        EXPECT_EQ(p["limiting_metric"], i == 0 ? "GB/s at DRAM" : "GFLOP/s (no FMA)");
        const std::vector<std::string> steps =
            i == 0 ? std::vector<std::string>{"block loops"} : std::vector<std::string>{"use FMA", "unroll, then vectorize"};
        EXPECT_EQ(p["next_steps"].get<std::vector<std::string>>(), steps);
        ASSERT_EQ(p["headroom"].size(), a.headroom.size());
        for (std::size_t h = 0; h < a.headroom.size(); ++h) {
            EXPECT_EQ(p["headroom"][h]["roof"], a.headroom[h].roof);
            EXPECT_EQ(p["headroom"][h]["attainable"].get<double>(), a.headroom[h].attainable);
            EXPECT_EQ(p["headroom"][h]["factor"].get<double>(), a.headroom[h].factor);
        }
        for (const auto& [key, ceiling] : {std::pair{"upper_ceiling", a.upper}, std::pair{"lower_ceiling", a.lower}}) {
            if (!ceiling) {
                EXPECT_TRUE(p[key].is_null());
                continue;
            }
            EXPECT_EQ(p[key]["name"], ceiling->name);
            EXPECT_EQ(p[key]["kind"], ceiling_kind_name(ceiling->kind));
            EXPECT_EQ(p[key]["category"], ceiling->category);
            EXPECT_EQ(p[key]["level"], ceiling->level);
            EXPECT_EQ(p[key]["value"].get<double>(), ceiling->value);
            EXPECT_EQ(p[key]["advice"], ceiling->advice);
        }
    }
    EXPECT_EQ(j["points"][0]["lower_ceiling"]["unit"], "GB/s");
    EXPECT_EQ(j["points"][1]["upper_ceiling"]["unit"], "GFLOP/s");
}

TEST(Report, FormatNamesRoundTrip) {
    for (auto format : {ReportFormat::text, ReportFormat::markdown, ReportFormat::csv, ReportFormat::json})
        EXPECT_EQ(parse_report_format(report_format_name(format)), format);
    EXPECT_THROW(parse_report_format("pdf"), std::invalid_argument);
}

TEST(Report, APointAboveItsRoofIsFlaggedInEveryFormat) {
    auto a = memory_bound_point();
    a.performance = 2;
    a.efficiency = 1.6;
    a.above_roof = AboveRoof{0.6, 0.03, false, {AboveRoof::Cause::work_outside_timing}};
    const auto r = sample_roofline();
    const auto text = render_report({a}, r, ReportFormat::text);
    EXPECT_NE(text.find("160.0% (above roof!)"), std::string::npos) << text;
    EXPECT_NE(text.find("WARNING          ABOVE ITS ROOF by 60.0% (the roof's measured spread allows 3.0%)"),
              std::string::npos) << text;
    EXPECT_NE(render_report({a}, r, ReportFormat::markdown).find("160.0% (above roof!)"), std::string::npos);
    EXPECT_NE(render_report({a}, r, ReportFormat::csv).find(",\"ABOVE ITS ROOF by 60.0%"), std::string::npos);
    const auto j = nlohmann::json::parse(render_report({a}, r, ReportFormat::json));
    EXPECT_DOUBLE_EQ(j["points"][0]["above_roof"]["excess"].get<double>(), 0.6);
    EXPECT_FALSE(j["points"][0]["above_roof"]["within_spread"].get<bool>());
    // Within the roof's own spread: still said, not called an error.
    a.above_roof = AboveRoof{0.01, 0.03, true, {}};
    a.efficiency = 1.01;
    EXPECT_NE(render_report({a}, r, ReportFormat::text).find("101.0% (within spread)"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(render_report({memory_bound_point()}, r, ReportFormat::json))["points"][0]["above_roof"].is_null());
}

TEST(Report, TimeNotSpentInTheCodeIsSaidInEveryFormatButCsv) {
    // What measure recorded of the run: 0.4 s of 0.5 s CPU in the kernel, 0.49 CPUs of others,
    // 1% steal (under its threshold: not said).
    Point p;
    p.name = "(program)";
    p.details = {{"cpu_user_seconds", 0.1}, {"cpu_system_seconds", 0.4}, {"cpu_others_busy", 0.49},
                 {"cpu_steal_share", 0.01}};
    const auto t = time_outside_code(p);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->kernel_share, 0.8);
    EXPECT_DOUBLE_EQ(t->others_cpus, 0.49);
    EXPECT_EQ(t->steal_share, 0);

    auto a = memory_bound_point();
    a.outside_code = t;
    const auto r = sample_roofline();
    const auto text = render_report({a}, r, ReportFormat::text);
    EXPECT_NE(text.find("not its code     its time holds waits no roof describes: 80% of its CPU time in the "
                        "kernel"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("other processes kept 0.49 CPUs busy"), std::string::npos) << text;
    EXPECT_EQ(text.find("hypervisor"), std::string::npos) << text;
    EXPECT_NE(render_report({a}, r, ReportFormat::markdown).find("  - not its code: its time holds waits"),
              std::string::npos);
    const auto j = nlohmann::json::parse(render_report({a}, r, ReportFormat::json));
    EXPECT_DOUBLE_EQ(j["points"][0]["outside_code"]["others_cpus"].get<double>(), 0.49);
    EXPECT_TRUE(nlohmann::json::parse(render_report({memory_bound_point()}, r, ReportFormat::json))["points"][0]
                    ["outside_code"]
                        .is_null());

    // Under every threshold (a tenth in the kernel, a tenth of a CPU of others, 2% steal), or
    // nothing recorded (a kernel point, an older file): nothing to say.
    p.details = {{"cpu_user_seconds", 0.9}, {"cpu_system_seconds", 0.1}, {"cpu_others_busy", 0.1},
                 {"cpu_steal_share", 0.02}};
    EXPECT_FALSE(time_outside_code(p));
    p.details.clear();
    EXPECT_FALSE(time_outside_code(p));
    // 6% stolen alone is said.
    p.details = {{"cpu_steal_share", 0.06}};
    ASSERT_TRUE(time_outside_code(p));
    a.outside_code = time_outside_code(p);
    EXPECT_NE(render_report({a}, r, ReportFormat::text).find("the hypervisor took 6.0% of its CPUs' time"),
              std::string::npos);
}

TEST(Report, PointsNotJudgedAreListedWithTheirReason) {
    const auto r = sample_roofline();
    std::vector<NotJudged> skipped = {{"(program)", "their FLOPs not counted"}, {"io_phase", "no FLOPs"},
                                      {"setup", "their FLOPs not counted"}};
    const auto text = render_report({memory_bound_point()}, r, ReportFormat::text, std::nullopt, {}, skipped);
    EXPECT_NE(text.find("Not judged (3 points):\n  their FLOPs not counted: (program), setup\n  no FLOPs: io_phase\n"),
              std::string::npos)
        << text;
    const auto md = render_report({}, r, ReportFormat::markdown, std::nullopt, {}, skipped);
    EXPECT_NE(md.find("- their FLOPs not counted: (program), setup"), std::string::npos) << md;
    // JSON: every one with its reason, even when nothing could be judged (points: []).
    const auto j = nlohmann::json::parse(render_report({}, r, ReportFormat::json, std::nullopt, {}, skipped));
    ASSERT_EQ(j["not_judged"].size(), 3u);
    EXPECT_EQ(j["not_judged"][1]["point"], "io_phase");
    EXPECT_EQ(j["not_judged"][1]["reason"], "no FLOPs");
    EXPECT_TRUE(j["points"].empty());
    // None: no section in text, an empty list in JSON; CSV has judged rows only.
    EXPECT_EQ(render_report({memory_bound_point()}, r, ReportFormat::text).find("Not judged"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(render_report({}, r, ReportFormat::json))["not_judged"].empty());
    EXPECT_EQ(render_report({memory_bound_point()}, r, ReportFormat::csv, std::nullopt, {}, skipped).find("io_phase"),
              std::string::npos);
    // Many of one reason: the first 20 named, the rest counted.
    std::vector<NotJudged> many;
    for (int i = 0; i < 25; ++i) many.push_back({"p" + std::to_string(i), "no FLOPs"});
    EXPECT_NE(render_report({}, r, ReportFormat::text, std::nullopt, {}, many).find("p19, and 5 more"),
              std::string::npos);
}

// ---------------------------------------------------------------- hostile names (issue 10)

namespace {

const std::string kHostile = "evil\x1b]0;pwned\x07\x1b[2J\rname\xE2\x80\xAE|`x`\nrow\xff";

bool has_raw_control_except_newline(const std::string& s) {
    for (unsigned char ch : s)
        if ((ch < 0x20 && ch != '\n') || ch == 0x7f) return true;
    return false;
}

std::vector<Analysis> hostile_analyses() {
    auto a = memory_bound_point();
    a.point = kHostile;
    auto b = compute_bound_point();
    b.point = "=cmd|' /C calc'!A0";
    return {a, b};
}

} // namespace

TEST(ReportHostileNames, TextAndMarkdownPrintNoControlsOrBidiOverrides) {
    for (auto format : {ReportFormat::text, ReportFormat::markdown}) {
        const auto out = render_report(hostile_analyses(), sample_roofline(), format);
        EXPECT_FALSE(has_raw_control_except_newline(out)) << out;
        EXPECT_EQ(out.find("\xE2\x80\xAE"), std::string::npos) << out;
        EXPECT_NE(out.find("x1b"), std::string::npos) << out;  // visible, not gone
    }
}

TEST(ReportHostileNames, MarkdownTableRowStaysOneRow) {
    const auto out = render_report(hostile_analyses(), sample_roofline(), ReportFormat::markdown);
    std::size_t rows = 0;
    std::size_t start = 0;
    while (start < out.size()) {
        const auto end = out.find('\n', start);
        const auto line = out.substr(start, end - start);
        if (line.rfind("| ", 0) == 0) {
            ++rows;
            // Nine cells: ten unescaped bars.
            std::size_t bars = 0;
            for (std::size_t i = 0; i < line.size(); ++i)
                if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++bars;
            EXPECT_EQ(bars, 10u) << line;
        }
        if (end == std::string::npos) break;
        start = end + 1;
    }
    EXPECT_EQ(rows, 3u) << out;  // the header and two points
}

TEST(ReportHostileNames, TextTableRowStaysOneRow) {
    const auto out = render_report(hostile_analyses(), sample_roofline(), ReportFormat::text);
    EXPECT_NE(out.find("evil\\x1b]0;pwned\\x07\\x1b[2J\\rname\\u202e|`x`\\nrow\\xff"), std::string::npos) << out;
}

TEST(ReportHostileNames, CsvNeutralizesFormulasAndControls) {
    const auto out = render_report(hostile_analyses(), sample_roofline(), ReportFormat::csv);
    EXPECT_FALSE(has_raw_control_except_newline(out)) << out;
    EXPECT_NE(out.find("\n'=cmd|' /C calc'!A0,40,"), std::string::npos) << out;
    EXPECT_NE(out.find(",0.0625,"), std::string::npos) << out;  // numbers stay numbers
}

TEST(ReportHostileNames, JsonKeepsNamesAndSurvivesInvalidUtf8) {
    std::string out;
    ASSERT_NO_THROW(out = render_report(hostile_analyses(), sample_roofline(), ReportFormat::json));
    EXPECT_FALSE(has_raw_control_except_newline(out)) << out;
    const auto parsed = nlohmann::json::parse(out);
    const auto name = parsed["points"][0]["point"].get<std::string>();
    EXPECT_EQ(name.rfind("evil\x1b]0;pwned", 0), 0u);  // escaped by JSON, exact after parsing
    EXPECT_NE(name.find("\xEF\xBF\xBD"), std::string::npos);  // the invalid byte, replaced
}

// Issue 33: points from an interrupted run are partial, and every format of report says so
// (only `show --points` did); CSV has no place for it (the command warns on stderr).
TEST(Report, PointsFromAnInterruptedRunAreSaidPartial) {
    const std::vector<std::string> interrupted{"k.json (interrupted by SIGINT)"};
    const auto text = render_report(sample_analyses(), sample_roofline(), ReportFormat::text, View::carm, interrupted);
    EXPECT_NE(text.find("PARTIAL: the points come from a run that stopped before its end, so the points it had not measured "
                        "yet are missing: k.json (interrupted by SIGINT)\n"),
              std::string::npos)
        << text;
    const auto markdown = render_report(sample_analyses(), sample_roofline(), ReportFormat::markdown, View::carm,
                                        interrupted);
    EXPECT_NE(markdown.find("> **PARTIAL**: the points come from a run"), std::string::npos) << markdown;
    auto j = nlohmann::json::parse(
        render_report(sample_analyses(), sample_roofline(), ReportFormat::json, View::carm, interrupted));
    EXPECT_EQ(j["partial"], true);
    EXPECT_EQ(j["interrupted_runs"], nlohmann::json(interrupted));
    // A complete run says nothing of the kind.
    EXPECT_EQ(render_report(sample_analyses(), sample_roofline(), ReportFormat::text).find("PARTIAL"), std::string::npos);
    j = nlohmann::json::parse(render_report(sample_analyses(), sample_roofline(), ReportFormat::json));
    EXPECT_EQ(j["partial"], false);
    EXPECT_TRUE(j["interrupted_runs"].empty());
    // Sections (a cluster): once on top, and in the JSON.
    const std::vector<ReportSection> sections{{"node a", sample_roofline(), sample_analyses()}};
    EXPECT_EQ(render_sectioned_report(sections, ReportFormat::text, View::carm, interrupted).rfind("PARTIAL: ", 0), 0u);
    EXPECT_EQ(nlohmann::json::parse(render_sectioned_report(sections, ReportFormat::json, View::carm, interrupted))
                  ["partial"],
              true);
}

TEST(Report, TheSignalThatInterruptedARunIsReadFromItsProvenance) {
    Provenance p;
    EXPECT_FALSE(interrupted_by(p));
    p.options["interrupted"] = "SIGTERM";  // measure, and kernels since issue 33
    EXPECT_EQ(interrupted_by(p), "SIGTERM");
    p.options["interrupted"] = "yes: the points measured before the signal";  // kernels before
    EXPECT_EQ(interrupted_by(p), "");
    p.options["interrupted"] = "yes (SIGHUP): the points measured before the signal";
    EXPECT_EQ(interrupted_by(p), "SIGHUP");
}

// A C++ function's name of hundreds of characters made every row of the text table that long
// (545 template instantiations: rows of 600 characters); the table shortens it, each still told
// apart, and the point's own section gives it whole.
TEST(Report, TextTableShortensLongNamesTheSectionKeepsThem) {
    auto a = memory_bound_point();
    auto b = compute_bound_point();
    const std::string tail = ", float, physics::detail::Slow>::apply(std::vector<float, std::allocator<float> > const&, "
                             "std::map<std::__cxx11::basic_string<char>, std::vector<float, std::allocator<float> > >&)";
    a.point = "physics::detail::Kernel<7" + tail;
    b.point = "physics::detail::Kernel<243" + tail;
    const auto text = render_report({a, b}, sample_roofline(), ReportFormat::text);
    const auto table = text.substr(text.find("Point"));
    const auto first_row = table.substr(table.find('\n') + 1, table.find('\n', table.find('\n') + 1) - table.find('\n') - 1);
    EXPECT_LT(first_row.size(), 160u) << first_row;
    EXPECT_NE(table.find("Kernel<7,"), std::string::npos) << table;
    EXPECT_NE(table.find("Kernel<243,"), std::string::npos) << table;
    EXPECT_NE(text.find("\n" + a.point + "\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n" + b.point + "\n"), std::string::npos) << text;
}

// A 2.4 ms program: /proc/stat's 10 ms ticks read one tick of another process as 5.45 CPUs busy
// on a 2-CPU guest (seen on a recursive fib). Under the floors of CPU time measure's warnings
// use (0.1 s of others, 50 ms stolen), the shares say nothing; read over a long run, they do.
TEST(Report, AFewTicksOverAShortRunAreNotOtherProcesses) {
    Point p;
    p.name = "(program)";
    p.seconds = 0.0016;
    p.details = {{"cpu_others_busy", 2.0}, {"cpu_steal_share", 0.5}, {"cpu_activity_seconds", 0.0024},
                 {"cpu_activity_cpus", 2}};
    EXPECT_FALSE(time_outside_code(p));
    // Without the interval recorded (an older file), the point's own seconds stand for it.
    p.details = {{"cpu_others_busy", 2.0}, {"cpu_steal_share", 0.5}};
    EXPECT_FALSE(time_outside_code(p));
    // The same shares over 2 s: 4 CPU-seconds of others, 2 s stolen.
    p.details = {{"cpu_others_busy", 2.0}, {"cpu_steal_share", 0.5}, {"cpu_activity_seconds", 2.0},
                 {"cpu_activity_cpus", 2}};
    const auto t = time_outside_code(p);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->others_cpus, 2.0);
    EXPECT_DOUBLE_EQ(t->steal_share, 0.5);
}
