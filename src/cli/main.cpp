#include "app/request_error.hpp"
#include "bench/isa_support.hpp"
#include "cli/app_definition.hpp"
#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "cli/layered_config.hpp"
#include "cli/parse_failure_text.hpp"
#include "cli/result_output.hpp"
#include "cli/terminal.hpp"
#include "cli/usage_error.hpp"
#include "render/text_escape.hpp"
#include "render/text_wrap.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <system_error>
#include <vector>

namespace {
// An error said on stderr without throwing: fmt::print throws when stderr is a pipe whose reader
// left (SIGPIPE ignored after a stop: EPIPE), which inside a catch block would abort.
// On a terminal, broken at spaces to its width as print_stderr does.
void say(std::string text) {
    if (const auto width = roofline::cli::terminal_width(2)) text = roofline::wrap_lines(text, static_cast<std::size_t>(*width));
    std::fwrite(text.data(), 1, text.size(), stderr);
}

// Output lost on a full disk is a failure, not a success with nothing printed.
int stdout_written(int exit_code) {
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && !std::ferror(stdout)) return exit_code;
    // Stopped because the reader left (SIGPIPE): said when it came, and the exit code says it.
    if (exit_code == 128 + SIGPIPE) return exit_code;
    say(fmt::format("roofline: error: cannot write to standard output: {}\n",
                    !flushed && error != 0 ? std::strerror(error) : "an earlier write failed"));
    return exit_code == roofline::cli::kExitOk ? roofline::cli::kExitFailure : exit_code;
}
// "--machine=" as two arguments, "--machine" and "": CLI11 2.1 reads an empty value
// after '=' as no value at all and takes the next argument instead, so
// "report --machine= --points p.json" blamed p.json. Spelled out, the empty value
// meets the option's own check ("--machine expects a file ... (got '')") and
// "--svg=" means "--svg ''" (no chart), as documented. Only options of the command
// being parsed are touched, and nothing after "--" (the measured program's arguments).
// Also: a "--" right after the values of a repeatable option ("--region-function f -- python3
// -c ...") is doubled. CLI11 2.1 lets "--" end such an option's list and eats it, so the program's
// own options were taken for roofline's ("argument not expected by 'measure': -c").
std::vector<std::string> empty_values_spelled_out(CLI::App& app, int argc, char** argv) {
    std::vector<std::string> out;
    CLI::App* command = &app;
    bool passthrough = false;
    const CLI::Option* list_option = nullptr;  // the last option given, when it takes a list of values
    int list_values = 0;                       // the values given it since
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i == 0 || passthrough) {
            out.push_back(arg);
            continue;
        }
        if (arg == "--") {
            passthrough = true;
            if (list_option && list_values > 0) out.push_back(arg);  // the one CLI11 eats
        } else if (!arg.empty() && arg[0] == '-') {
            // "--region-function=f" gives the list its first value and goes on collecting, as CLI11 does.
            const auto equals = arg.find('=');
            const CLI::Option* option = command->get_option_no_throw(arg.substr(0, equals));
            list_option = option && option->get_items_expected_max() > 1 ? option : nullptr;
            list_values = equals == std::string::npos ? 0 : 1;
        } else {
            ++list_values;
        }
        if (arg.size() > 3 && arg.compare(0, 2, "--") == 0 && arg.find('=') == arg.size() - 1 &&
            command->get_option_no_throw(arg.substr(0, arg.size() - 1))) {
            out.push_back(arg.substr(0, arg.size() - 1));
            out.emplace_back();
            continue;
        }
        if (arg.empty() || arg[0] != '-')
            for (CLI::App* sub : command->get_subcommands([](CLI::App*) { return true; }))
                if (sub->check_name(arg)) {
                    command = sub;
                    break;
                }
        out.push_back(arg);
    }
    return out;
}
} // namespace

int main(int argc, char** argv) {
    CLI::App app{"", "roofline"};
    int exit_code = roofline::cli::kExitOk;
    roofline::cli::LayeredConfig config;
    roofline::cli::define_app(app, exit_code, config);
    // CLI11's own messages quote the arguments as typed ("The following argument was not
    // expected: ..."): escaped like every other message, so an argument cannot retitle or
    // clear the terminal.
    app.failure_message(roofline::cli::parse_failure_text);
    // -o -: standard output is the result's alone from here (after --help, before the command runs).
    app.parse_complete_callback(roofline::cli::keep_standard_output_if_asked);
    // generate-docs documents the built-in defaults: the builder's own settings must not
    // reach the installed pages (nor a broken one of theirs stop the build).
    const bool generating_docs = argc > 1 && std::strcmp(argv[1], roofline::cli::kGenerateDocsCommand) == 0;

    const auto usage_error = [&](const std::exception& e) {
        // A value from a configuration file or the environment is named with where it came from.
        say(fmt::format("roofline: error: {}\n", roofline::terminal_block(config.attributed(e.what(), app))));
        return roofline::cli::kExitUsage;
    };
    try {
        if (!generating_docs)
            config.load(app, roofline::cli::default_config_paths([](const char* name) { return std::getenv(name); }),
                        roofline::cli::roofline_environment());
        if (!generating_docs)
            if (auto problem = roofline::max_isa_environment_problem(); !problem.empty())
                throw roofline::cli::UsageError(problem);
        roofline::cli::set_invocation(argc, argv, &config);
        std::vector<std::string> args = empty_values_spelled_out(app, argc, argv);
        std::vector<char*> arg_pointers;
        for (auto& a : args) arg_pointers.push_back(a.data());
        app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
    } catch (const CLI::CallForHelp& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::CallForAllHelp& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::CallForVersion& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return roofline::cli::kExitUsage;
    } catch (const roofline::cli::UsageError& e) {
        return usage_error(e);
    } catch (const roofline::app::RequestError& e) {  // a use case's request made wrong: the same
        return usage_error(e);
    } catch (const std::system_error& e) {
        // fmt::print throws "cannot write to file" when standard output fails mid-way (a full disk).
        if (std::ferror(stdout))
            say(fmt::format("roofline: error: cannot write to standard output: {}\n", e.code().message()));
        else
            say(fmt::format("roofline: error: {}\n", roofline::terminal_block(e.what())));
        return roofline::cli::kExitFailure;
    } catch (const std::exception& e) {
        say(fmt::format("roofline: error: {}\n", roofline::terminal_block(e.what())));  // messages quote names
        return roofline::cli::kExitFailure;
    }
    if (app.get_subcommands().empty()) {
        fmt::print(stderr, "{}\nroofline: error: a command is required (topology, bench, measure, kernels, model, plot, report, list, remove, show, compare, history, monitor, config)\n", app.help());
        return roofline::cli::kExitUsage;
    }
    return stdout_written(exit_code);
}
