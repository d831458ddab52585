#include "cli/common_options.hpp"

#include "core/message_name.hpp"
#include "cli/layered_config.hpp"
#include "cli/result_output.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/input_limits.hpp"
#include "io/store_location.hpp"
#include "io/text_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace roofline::cli {

CLI::Validator name_not_empty(const std::string& to_do) {
    return CLI::Validator(
        [to_do](std::string& text) -> std::string {
            if (text.empty()) return fmt::format("the name given is empty (''): {}", to_do);
            // 'measure --times --db x.db' took '--db' as the file and said only that it did not exist.
            std::error_code error;
            if (text.size() > 1 && text[0] == '-' && !std::filesystem::exists(text, error))
                return fmt::format("'{}' is taken as the name here, and reads as an option: the name is missing; {} "
                                   "(a file whose name starts with '-' is given as ./{})",
                                   text, to_do, text);
            return {};
        },
        "");
}

CLI::Option* add_db_option(CLI::App* cmd, std::string& db) {
    return cmd->add_option("--db", db,
                           "Results database: a SQLite file (default $ROOFLINE_DB or ~/.local/share/roofline/results.db) "
                           "or a PostgreSQL URL, postgresql://[user@]host[:port]/dbname, for a store many nodes share")
        // '' took the default store unsaid: 'kernels --db "$DB"' with DB unset wrote the user's own.
        ->check(name_not_empty("give a SQLite file or a postgresql:// URL, or leave --db out for the default store "
                               "($ROOFLINE_DB, else ~/.local/share/roofline/results.db)"))
        // '-', standard output to every -o, made a SQLite file named '-' here, unsaid.
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                if (text == "-")
                    return "'-' is no store: a results store is a SQLite file or a postgresql:// URL, not standard "
                           "input or output (./- is a file of that name)";
                return store_location_problem(text);
            },
            "FILE|URL"));
}

namespace {
constexpr const char* kMachineHelp =
    "Machine model: a JSON file from 'roofline bench -o', a YAML spec sheet, 'stored' (the latest complete one in "
    "the results store: newer memory-only, compute-only or interrupted models are skipped, with a note) or "
    "'stored:ID' (see 'roofline list')";
}

namespace {
// 'stored:ID' is checked as it is parsed, so a configured 'stored:x' is too; a file is checked when it
// is read. '' is refused here too: measure took it for its default, the latest stored machine.
CLI::Validator stored_id_check(const char* option) {
    return value_check([option](const std::string& text) -> std::string {
        if (!text.empty() && text.rfind(std::string(kStored) + ":", 0) != 0) return {};
        try {
            (void)parse_stored_source(text, option);
        } catch (const UsageError& e) {
            return e.what();
        }
        return {};
    });
}
} // namespace

CLI::Option* add_machine_option(CLI::App* cmd, std::string& machine) {
    return cmd->add_option("--machine", machine, fmt::format("{}; default: stored", kMachineHelp))
        ->check(stored_id_check("--machine"));
}

CLI::Option* add_machines_option(CLI::App* cmd, std::vector<std::string>& machines) {
    return cmd->add_option("--machine", machines,
                           fmt::format("{}; repeat to compare machines; default: stored", kMachineHelp))
        ->check(stored_id_check("--machine"));
}

CLI::Option* add_points_option(CLI::App* cmd, std::vector<std::string>& points) {
    return cmd->add_option("--points", points,
                           "Points: a JSON file (schema roofline.points/1), 'stored' (the latest set) or 'stored:ID'; "
                           "repeat to combine")
        ->check(stored_id_check("--points"));
}

CLI::Option* add_output_option(CLI::App* cmd, std::string& output, const std::string& what, EmptyOutput empty) {
    // "-": the result on standard output, whatever else the command prints moved to stderr. The help
    // says so, in the parentheses `what` may end with, unless it says standard output already.
    std::string help = what;
    if (!help.empty() && help.back() == ')')
        help.insert(help.size() - 1, "; '-': standard output");
    else if (help.find("standard output") == std::string::npos)
        help += " ('-': standard output)";
    // A configuration file in force is every command's input: 'config show -o roofline.yaml' put
    // the report where the settings were, and every command after stopped on it as invalid YAML.
    const CLI::Validator not_a_config_file(
        [](std::string& text) -> std::string {
            if (text.empty() || text == "-") return {};
            const auto paths = default_config_paths([](const char* name) { return std::getenv(name); });
            for (const auto& [which, path] : {std::pair{"system", paths.system}, std::pair{"user", paths.user},
                                              std::pair{"project", paths.project}})
                if (!path.empty() && same_output_file(text, path))
                    return fmt::format("{} is the {} configuration file every roofline command reads: writing "
                                       "there would replace its settings; give another file",
                                       message_name(text), which);
            return {};
        },
        "");
    auto* option = cmd->add_option("-o,--output", output, help);
    // -o '' was standard output for some commands, no file for others, the default chart for plot.
    if (empty == EmptyOutput::refused)
        option->check(name_not_empty("give a file name, or '-' for standard output"));
    return result_may_go_to_standard_output(option->check(not_a_config_file));
}

CLI::Option* add_format_option(CLI::App* cmd, std::string& format, const std::vector<std::string>& formats,
                               bool json_alias) {
    if (format.empty()) format = formats.front();
    auto* option = cmd->add_option("--format", format, fmt::format("Output format: {}", fmt::join(formats, ", ")))
                       ->check(CLI::IsMember(formats))
                       ->capture_default_str();
    if (json_alias)
        cmd->add_flag_callback(
            "--json",
            [&format, option] {
                // --format's callback runs first (options are processed in the order defined):
                // "--json --format text" asks for two formats, and neither may win silently.
                if (option->count() > 0 && format != "json")
                    throw CLI::ValidationError("--json", fmt::format("asks for JSON, but --format asks for {}: give "
                                                                     "one of them", format));
                format = "json";
            },
            "Same as --format json");
    return option;
}

CLI::Option* add_quiet_flag(CLI::App* cmd, bool& quiet) {
    return cmd->add_flag("-q,--quiet", quiet, "Print only the result, warnings and errors (no notes or progress)");
}

CLI::Option* add_roofline_threads_option(CLI::App* cmd, std::optional<int>& threads) {
    return cmd->add_option("--threads", threads,
                           "Judge against the roofline of N threads (N >= 1; default: the points' own thread count, "
                           "at most the CPUs their run was allowed (cpus_allowed), where the machine has it, else "
                           "the most measured)")
        ->check(whole_number_range(1, max_threads));
}

CLI::Option* add_roofline_precision_option(CLI::App* cmd, std::optional<std::string>& precision,
                                           const std::string& extra_help) {
    auto* option = cmd->add_option("--precision", precision,
                                   "Compute roof: dp or sp" + extra_help +
                                       " (default: sp when every point's FLOPs are single precision, else dp)");
    if (extra_help.empty()) option->check(CLI::IsMember({"dp", "sp"}));
    return option;
}

CLI::Validator figure_check(const FigureRange& range) {
    return CLI::Validator(
        [range](std::string& text) -> std::string {
            const char* begin = text.c_str();
            char* end = nullptr;
            errno = 0;
            const double v = std::strtod(begin, &end);
            // CLI11 puts the option's name before these ("--peak: must be positive").
            if (text.empty() || end != begin + text.size()) return fmt::format("expects a number (got '{}')", text);
            if (in_range(range, v)) return {};
            // strtod saturates 1e400 to inf and 1e-400 to 0 (ERANGE): still say what was typed.
            if (v <= 0 && errno != ERANGE) return fmt::format("must be positive (got {})", text);
            return fmt::format("must be {} (got {})", range.what, text);
        },
        fmt::format("{}..{}", range.min, range.max));
}

void check_outputs_differ(const std::string& flag_a, const std::string& a, const std::string& flag_b,
                          const std::string& b, const std::string& overwrite) {
    if (!same_output_file(a, b)) return;
    throw UsageError(fmt::format("{} {} and {} {} are the same file: {}; give {} another file", flag_a,
                                 message_name(a), flag_b, message_name(b), overwrite, flag_b));
}

void check_output_not_input(const std::string& output_flag, const std::string& output,
                            const std::vector<std::pair<std::string, std::string>>& inputs) {
    if (output.empty() || output == "-") return;
    for (const auto& [given_as, input] : inputs) {
        if (input.empty() || input == "-" || input == "stored" || input.rfind("stored:", 0) == 0) continue;
        if (!same_output_file(output, input)) continue;
        // An option or a command reads the file; anything else is a phrase naming the input.
        const bool one_word = given_as.find(' ') == std::string::npos;
        throw UsageError(fmt::format("{} {} is {}: writing it would replace that input; give {} another file",
                                     output_flag, message_name(output),
                                     one_word ? fmt::format("the file {} reads", given_as) : given_as, output_flag));
    }
}

void write_result(const std::string& output, const std::string& text) {
    if (output.empty())
        fmt::print("{}", text);
    else
        write_text_file_atomic(output, text);
}

} // namespace roofline::cli
