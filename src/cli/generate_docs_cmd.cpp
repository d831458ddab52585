// roofline generate-docs: the man pages and shell completions, written from the
// command line itself (describe_command) so they cannot drift from --help. Hidden
// from --help: the build runs it (cmake/docs.cmake), people read its output.
#include "cli/app_definition.hpp"
#include "cli/command_docs.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/layered_config.hpp"
#include "cli/usage_error.hpp"
#include "io/text_file.hpp"
#include "render/man_page.hpp"
#include "render/shell_completion.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>

namespace roofline::cli {

namespace {

struct GenerateDocsArgs {
    std::string man_dir;
    std::string bash;
    std::string zsh;
};

// The pages' date: SOURCE_DATE_EPOCH's day when the build sets it (reproducible
// builds), else none: the version alone dates them, never the day of the build.
std::string manual_date() {
    const char* epoch = std::getenv("SOURCE_DATE_EPOCH");
    if (!epoch || !*epoch) return {};
    char* end = nullptr;
    const long long seconds = std::strtoll(epoch, &end, 10);
    if (*end != '\0' || seconds < 0) throw UsageError(fmt::format("SOURCE_DATE_EPOCH={} is not a time in seconds", epoch));
    const std::time_t time = static_cast<std::time_t>(seconds);
    std::tm day{};
    if (!gmtime_r(&time, &day)) throw UsageError(fmt::format("SOURCE_DATE_EPOCH={} is out of range", epoch));
    return fmt::format("{:04}-{:02}-{:02}", day.tm_year + 1900, day.tm_mon + 1, day.tm_mday);
}

// The settings' variables (each command's page lists its own) and the other
// ROOFLINE_* variables, from the configuration layers' own tables.
void add_environment(CommandDoc& root, ManualDoc& manual, CLI::App& app) {
    LayeredConfig settings;
    settings.load(app, ConfigPaths{}, {});  // no files, no environment: only what can be set
    for (const auto& shared : shared_settings()) {
        std::string help;
        for (const auto& value : settings.values())
            if (value.option == "--" + shared) help = value.help;
        manual.environment.push_back({setting_variable(shared),
                                      fmt::format("The default of --{} for every command that has it (a command's "
                                                  "own variable wins). --{}: {}",
                                                  shared, shared, help)});
    }
    manual.environment.push_back(
        {"ROOFLINE_<COMMAND>_<OPTION>",
         "The default of an option of a command, as a setting in a configuration file sets it: "
         "ROOFLINE_KERNELS_CACHE=cold is kernels --cache cold unless the command line says otherwise. Each "
         "command's page lists its variables; 'roofline config show' lists them all with their values."});
    for (const auto& other : other_variables()) manual.environment.push_back({other.name, other.meaning});

    for (auto& command : root.subcommands) {
        for (const auto& value : settings.values()) {
            if (value.command != command.path.back()) continue;
            std::string meaning = fmt::format("The default of {}.", value.option);
            for (const auto& shared : shared_settings())
                if (value.option == "--" + shared)
                    meaning = fmt::format("The default of {} (over {}, which sets it for every command).", value.option,
                                          setting_variable(shared));
            command.environment.push_back({value.env, meaning});
        }
    }
}

std::vector<std::string> config_files() {
    // The lookup itself, with a home directory of "~": the places as a person writes them.
    const ConfigPaths paths = default_config_paths([](const char* name) -> const char* {
        return std::string_view(name) == "HOME" ? "~" : nullptr;
    });
    std::vector<std::string> files;
    for (const std::string& path : {paths.system, paths.user, paths.project})
        if (!path.empty()) files.push_back(path.front() == '/' || path.front() == '~' ? path : "./" + path);
    return files;
}

int run_generate_docs(const GenerateDocsArgs& args, CLI::App& app) {
    if (args.man_dir.empty() && args.bash.empty() && args.zsh.empty())
        throw UsageError("generate-docs: nothing to write (--man-dir, --bash or --zsh)");
    CommandDoc root = describe_command(app);
    ManualDoc manual;
    manual.version = ROOFLINE_VERSION;
    manual.date = manual_date();
    manual.exit_status = exit_statuses();
    manual.files = config_files();
    add_environment(root, manual, app);
    if (!args.man_dir.empty())
        for (const auto& page : man_pages(root, manual)) write_text_file_atomic(args.man_dir + "/" + page.file_name, page.text);
    if (!args.bash.empty()) write_text_file_atomic(args.bash, bash_completion(root));
    if (!args.zsh.empty()) write_text_file_atomic(args.zsh, zsh_completion(root));
    return kExitOk;
}

} // namespace

void add_generate_docs_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<GenerateDocsArgs>();
    auto* cmd = app.add_subcommand(kGenerateDocsCommand, "Write the man pages and shell completions");
    cmd->group("");  // hidden: for the build, not for people
    cmd->add_option("--man-dir", args->man_dir, "Write roofline.1 and roofline-COMMAND.1 into DIR (it must exist)")
        ->type_name("DIR")
        ->check(name_not_empty("give the directory"));
    cmd->add_option("--bash", args->bash, "Write the bash completion to FILE")
        ->type_name("FILE")
        ->check(name_not_empty("give the file's name"));
    cmd->add_option("--zsh", args->zsh, "Write the zsh completion (_roofline) to FILE")
        ->type_name("FILE")
        ->check(name_not_empty("give the file's name"));
    cmd->callback([args, &app, &exit_code] { exit_code = run_generate_docs(*args, app); });
}

} // namespace roofline::cli
