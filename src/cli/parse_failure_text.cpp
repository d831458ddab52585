#include "cli/parse_failure_text.hpp"

#include "core/closest_words.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <vector>

namespace roofline::cli {
namespace {

std::vector<std::string> long_option_names(const CLI::App* app) {
    std::vector<std::string> names;
    for (const CLI::Option* opt : app->get_options([](const CLI::Option*) { return true; }))
        for (const auto& name : opt->get_lnames()) names.push_back("--" + name);
    return names;
}

std::vector<std::string> command_names(const CLI::App* app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : const_cast<CLI::App*>(app)->get_subcommands([](CLI::App* s) {
             return !s->get_group().empty();  // hidden commands are not suggested
         }))
        names.push_back(sub->get_name());
    return names;
}

// "did you mean ...?" lines for the arguments CLI11 left over: an unknown option of the
// command that failed, or, before any command, an unknown command.
std::string suggestions(const CLI::App* failed, const std::vector<std::string>& leftover) {
    std::string out;
    const bool at_root = failed->get_parent() == nullptr;
    for (const auto& arg : leftover) {
        if (arg == "--") break;  // what follows is the measured program's
        // 'report points.json' said only "argument not expected": a file is given with an option.
        std::error_code error;
        if (!arg.empty() && arg[0] != '-' && !at_root && std::filesystem::is_regular_file(arg, error)) {
            std::vector<std::string> takers;
            for (const char* name : {"--points", "--machine"})
                if (failed->get_option_no_throw(name)) takers.push_back(fmt::format("{} {}", name, arg));
            if (!takers.empty()) {
                out += fmt::format("'{}' is a file: this command takes files with an option: {}\n", arg,
                                   takers.size() == 1 ? takers.front() : takers[0] + " (points to judge) or " + takers[1] +
                                                                             " (a machine model)");
                continue;
            }
        }
        std::vector<std::string> close;
        std::string what;
        if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
            const std::string name = arg.substr(0, arg.find('='));
            close = closest_words(name, long_option_names(failed), 2);
            what = fmt::format("option '{}'", name);
        } else if (!arg.empty() && arg[0] != '-' && (at_root || !command_names(failed).empty())) {
            close = closest_words(arg, command_names(failed), 2);
            what = fmt::format("command '{}'", arg);
        }
        if (close.empty()) continue;
        out += fmt::format("unknown {}: did you mean '{}'{}?\n", what, close.front(),
                           close.size() > 1 ? fmt::format(" or '{}'", close[1]) : std::string());
        if (at_root) break;  // the first word is the command; the rest were its arguments
    }
    return out;
}

// CLI11's words for an option of one value given more than once ("--samples: At Most 1 required
// but received 2"), said as what happened; "" for any other message.
std::string given_more_than_once(const std::string& what) {
    static const std::regex at_most("^(-[^ ]*): At Most 1 required but received ([0-9]+)$");
    std::smatch m;
    if (!std::regex_match(what, m, at_most)) return {};
    return fmt::format("{} is given {} times: it takes one value, give it once", m[1].str(), m[2].str());
}

} // namespace

std::string parse_failure_text(const CLI::App* failed, const CLI::Error& error) {
    if (error.get_exit_code() != static_cast<int>(CLI::ExitCodes::ExtrasError)) {
        std::string text = CLI::FailureMessage::simple(failed, error);
        if (const std::string said = given_more_than_once(error.what()); !said.empty())
            text.replace(0, std::string(error.what()).size(), said);
        return terminal_block(text);
    }
    // The command that was being parsed: options are looked up there, and only before
    // any command is an unknown word a mistyped command.
    const CLI::App* command = failed;
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const CLI::App* sub : command->get_subcommands()) {
            command = sub;
            deeper = true;
            break;
        }
    }
    // CLI11 lists the leftovers last first ("./x -- mesure"); said in the order typed.
    const std::vector<std::string> leftover = failed->remaining(true);
    std::string typed;
    for (const auto& a : leftover) typed += (typed.empty() ? "" : " ") + a;
    const std::string where = command == failed ? std::string() : " by '" + command->get_name() + "'";
    return terminal_block(fmt::format("{}{} not expected{}: {}\nRun with --help for more information.\n",
                                      suggestions(command, leftover), leftover.size() == 1 ? "argument" : "arguments",
                                      where, typed));
}

} // namespace roofline::cli
