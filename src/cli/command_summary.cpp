#include "cli/command_summary.hpp"

#include <map>
#include <memory>

namespace roofline::cli {
namespace {

std::map<const CLI::App*, std::string>& one_lines() {
    static std::map<const CLI::App*, std::string> lines;  // commands live as long as the program's app
    return lines;
}

// CLI11's formatter with the commands' list made of their one lines.
class OneLineFormatter : public CLI::Formatter {
public:
    std::string make_subcommand(const CLI::App* sub) const override {
        const std::string line = command_one_line(*sub);
        if (line.empty()) return CLI::Formatter::make_subcommand(sub);
        std::stringstream out;
        CLI::detail::format_help(out, sub->get_display_name(true), line, column_width_);
        return out.str();
    }
};

} // namespace

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& summary) {
    CLI::App* command = parent.add_subcommand(name, summary);
    one_lines()[command] = summary;
    return command;
}

std::string command_one_line(const CLI::App& command) {
    const auto it = one_lines().find(&command);
    return it == one_lines().end() ? std::string{} : it->second;
}

void list_commands_by_one_line(CLI::App& app) { app.formatter(std::make_shared<OneLineFormatter>()); }

} // namespace roofline::cli
