// The options several commands share, defined once so their spelling, meaning
// and help read the same in every command (the table in docs/USAGE.md, "Options
// every command shares"; tests/cli/cases.tsv checks them).
#pragma once

#include "core/input_limits.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::cli {

// A file, directory, program or store given as '' (-o '', --db '', --chart ''): refused as it is
// parsed, wherever the value comes from (exit 2), where the option gives '' no meaning in its
// help. An empty name named nothing, and each command took it its own way: standard output,
// no file, the default store, a default chart name. CLI11 puts the option's name first:
// "--db: the name given is empty (''): <to_do>". A name that starts with '-' and names no file
// is another option taken as the value ('--times --db x.db'): refused, saying so.
CLI::Validator name_not_empty(const std::string& to_do);

// --db FILE|URL: the results database (a SQLite file, or a PostgreSQL URL); '' is refused.
CLI::Option* add_db_option(CLI::App* cmd, std::string& db);

// --machine FILE|stored|stored:ID. `repeatable` lets plot overlay machines.
CLI::Option* add_machine_option(CLI::App* cmd, std::string& machine);
CLI::Option* add_machines_option(CLI::App* cmd, std::vector<std::string>& machines);

// --points FILE|stored|stored:ID, repeatable.
CLI::Option* add_points_option(CLI::App* cmd, std::vector<std::string>& points);

// What -o '' means: nothing (refused), or no file (bench, whose help says "'' for none").
enum class EmptyOutput { refused, no_file };

// -o,--output FILE: what the command writes, described by `what`; "-" is standard
// output (cli/result_output.hpp), for every command alike; '' is refused unless `empty`
// is no_file, which `what` must then say.
CLI::Option* add_output_option(CLI::App* cmd, std::string& output, const std::string& what,
                               EmptyOutput empty = EmptyOutput::refused);

// Two outputs of one command (-o and --svg, -o and --chart) that are the same
// file: the second written would silently replace the first after the whole
// run. A UsageError (exit 2), checked before anything runs:
// "FLAG_A FILE and FLAG_B FILE are the same file: the chart would overwrite ...".
// `overwrite` says what would be lost ("the chart would overwrite the machine model").
void check_outputs_differ(const std::string& flag_a, const std::string& a, const std::string& flag_b,
                          const std::string& b, const std::string& overwrite);

// An output that is one of the command's input files (report --points p.json -o p.json):
// written after the input was read, it would replace the user's measured points or
// model with a report or a chart. A UsageError (exit 2) before anything runs:
// "-o p.json is the file --points reads: ...". Inputs are (given as, text) pairs: an option
// ("--points": "the file --points reads"), a command ("show": "the file show reads"), or
// a phrase that names the input whole ("A, the first file compared"; a positional has no
// flag to name). 'stored', 'stored:ID', '-' and empty texts are not files and are skipped.
void check_output_not_input(const std::string& output_flag, const std::string& output,
                            const std::vector<std::pair<std::string, std::string>>& inputs);

// Writes a command's result where -o says: standard output when `output` is
// empty or "-", else the file (atomically).
void write_result(const std::string& output, const std::string& text);

// --format NAME, one of `formats` (the first is the default). With `json_alias`,
// --json is kept as a shorthand for --format json.
CLI::Option* add_format_option(CLI::App* cmd, std::string& format, const std::vector<std::string>& formats,
                               bool json_alias = false);

// -q,--quiet: only the result, warnings and errors (no notes, no progress).
CLI::Option* add_quiet_flag(CLI::App* cmd, bool& quiet);

// --threads N (N >= 1) for commands that judge points against a roofline: the
// roofline of N threads; unset: the points' own thread count (judged_threads: at
// most the CPUs their run was allowed) where measured, else the most measured.
CLI::Option* add_roofline_threads_option(CLI::App* cmd, std::optional<int>& threads);

// --precision dp|sp for those commands; unset: sp when every point is single
// precision, else dp. `extra_help` adds what a command accepts beyond that.
CLI::Option* add_roofline_precision_option(CLI::App* cmd, std::optional<std::string>& precision,
                                           const std::string& extra_help = "");

// A number given on the command line that the model will believe: checked as
// the file readers check theirs (core/input_limits.hpp), so inf, nan, 1e400 and
// denormals are refused when parsed (exit 2), with the text as typed after the
// option's name, which CLI11 puts first: "--peak: must be positive (got -3)",
// "--peak: must be a rate from ... (got inf)".
CLI::Validator figure_check(const FigureRange& range);

} // namespace roofline::cli
