// `roofline list`: the machine models and point sets in the results store,
// with the ids that --machine stored:ID and --points stored:ID take.
#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "cli/stored_source.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/store_listing.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

#include <memory>

namespace roofline::cli {
namespace {

struct ListArgs {
    std::string db;
    std::string format;
    std::string output;
    bool quiet = false;
};

int run_list(const ListArgs& args) {
    const ReportFormat format = parse_report_format(args.format);
    if (!args.output.empty()) check_file_writable(args.output);
    StoreAccess access(args.db);
    std::vector<StoredMachine> machines;
    std::vector<StoredPointSet> sets;
    if (ResultsStore* store = access.store()) {  // a missing database lists as empty, and is not created
        machines = store->list_machines(true);  // each model read: which are memory-only, compute-only, ...
        sets = store->list_point_sets(true);  // each set's provenance read: the host it was measured on
        // A row that cannot be read is listed as such; what is wrong with it and what to do, here.
        for (const auto& m : machines)
            if (!m.unreadable.empty()) print_stderr("roofline: warning: {}\n", m.unreadable);
        for (const auto& set : sets)
            if (!set.unreadable.empty()) print_stderr("roofline: warning: {}\n", set.unreadable);
    } else if (!args.quiet) {
        print_stderr("roofline: note: no results store at {} yet\n", terminal_text(access.display()));
    }
    const std::string text = render_store_listing(access.display(), machines, sets, format);
    write_result(args.output, text);
    return kExitOk;
}

} // namespace

void add_list_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ListArgs>();
    auto* cmd = add_command(app, "list", "List the machines and point sets in the results store");
    cmd->description("Lists every machine model (id, date, host, CPU, bench mode, and whether it is complete or\n"
                     "memory-only, compute-only or interrupted: plot, report and measure skip the incomplete ones\n"
                     "when they pick the latest stored machine themselves) and\n"
                     "every point set (id, date, number of points, the stored machine it was judged on, the host\n"
                     "it was measured on, the command that made it) in the results store. Their ids are what --machine stored:ID,\n"
                     "--points stored:ID and 'roofline show' take.");
    add_db_option(cmd, args->db);
    add_format_option(cmd, args->format, {"text", "json", "csv"});
    add_output_option(cmd, args->output, "Write the list to FILE instead of standard output");
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline list\n"
                "  roofline list --format json | jq '.machines[].id'\n"
                "  roofline show stored:3");
    cmd->callback([args, &exit_code] { exit_code = run_list(*args); });
}

} // namespace roofline::cli
