// The bound analysis of points as a report: for each point its achieved
// performance and intensity, the roof that binds it, the ceilings just above
// and below it with the limiting metric (the paper's Table 4), efficiency,
// headroom, and the optimizations to try next, in the order the ceilings suggest.
#pragma once

#include "core/data_movement.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

enum class ReportFormat { text, markdown, csv, json };

// Text: an aligned table plus detail lines per point. Markdown: a table and a
// bullet list. CSV: one row per point, RFC 4180 quoting, units in the header.
// JSON: schema "roofline.report/1". `view`, when given, is named in the output.
// `interrupted`: the point sets that come from a run a signal stopped ("p.json (interrupted by
// SIGINT)"), so points it had not measured yet are missing. Text and Markdown say so under the
// title (PARTIAL: ...), JSON has "partial" and "interrupted_runs" (false and [] otherwise); CSV,
// one row per point, has no place for it: the command says it on stderr.
// A point the roofline cannot place (its work not counted, no work, no bytes at a level with a
// roof), and why: text and Markdown list them by reason after the judged ones, JSON in
// "not_judged"; CSV, one row per judged point, leaves them out (the command says it on stderr).
// `cut_off`: the signal its region was cut off by (core/cut_off_point), said beside its name (JSON
// "cut_off", null otherwise).
struct NotJudged {
    std::string point;
    std::string reason;
    std::optional<int> cut_off = std::nullopt;
};
// A point with no work that moved data (core/data_movement): text and Markdown give its bandwidth
// at each level against the level's roof in a section of its own ("Data movement only"), JSON
// in "data_movement"; CSV leaves it out, as the points not judged.
struct MovedData {
    std::string point;
    DataMovement movement;
};
// `elsewhere`: the point sets measured on another host or CPU than the model's (core/measured_elsewhere):
// text and Markdown say so under the title, JSON lists them in "measured_elsewhere" ([] otherwise);
// CSV has no place for it: the command says it on stderr.
std::string render_report(const std::vector<Analysis>& analyses, const Roofline& roofline, ReportFormat format,
                          std::optional<View> view = std::nullopt, const std::vector<std::string>& interrupted = {},
                          const std::vector<NotJudged>& not_judged = {}, const std::vector<MovedData>& moved = {},
                          const std::vector<MeasuredElsewhere>& elsewhere = {});

// Points judged against several rooflines (a cluster's nodes, and the whole cluster): one
// report per section, each under its name. Text and Markdown: the reports one after the other
// under a heading; CSV: one table, the section's name in a first column "roofline"; JSON:
// schema "roofline.sectioned-report/1", {"sections": [{"name", "report": roofline.report/1}]}.
struct ReportSection {
    std::string name;
    Roofline roofline;
    std::vector<Analysis> analyses;
    std::vector<NotJudged> not_judged = {};
    std::vector<MovedData> moved = {};
};
std::string render_sectioned_report(const std::vector<ReportSection>& sections, ReportFormat format,
                                    std::optional<View> view = std::nullopt,
                                    const std::vector<std::string>& interrupted = {});

// "PARTIAL: the points come from a run that stopped before its end, so the points it had not
// measured yet are missing: p.json (interrupted by SIGINT)" (or "(the program was killed by SIGSEGV)"); "" for none. The line report and the commands print.
std::string partial_points_text(const std::vector<std::string>& interrupted);

// "text", "markdown", "csv", "json"; parse throws std::invalid_argument.
const char* report_format_name(ReportFormat format);
ReportFormat parse_report_format(const std::string& name);

} // namespace roofline
