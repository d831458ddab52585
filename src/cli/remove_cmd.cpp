// `roofline remove`: deletes stored machines and point sets (a bench run on a
// loaded machine, a test run) from the results store, so that they are no longer
// listed or picked as "the latest". Every id is checked before anything goes; the
// removal is one transaction (ResultsStore::remove_rows).
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "io/results_store.hpp"
#include "io/store_location.hpp"
#include "render/store_removal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace roofline::cli {
namespace {

struct RemoveArgs {
    std::vector<std::string> machines;
    std::vector<std::string> points;
    std::string db;
    std::string format;
    bool dry_run = false;
    bool quiet = false;
};

// "4" or "stored:4", by the rules --machine stored:ID follows elsewhere (digits only, from 1).
std::int64_t parse_row_id(const std::string& text, const char* option) {
    const auto digits = [](const std::string& s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const std::string prefix = std::string(kStored) + ":";
    const std::string number = text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
    if (!digits(number))
        throw UsageError(fmt::format("{} expects ids of stored rows, such as 4 or stored:4 (got '{}'); 'roofline "
                                     "list' shows them",
                                     option, text));
    // The rules of stored:ID, said of what was given ('0', not 'stored:0').
    const auto first = number.find_first_not_of('0');
    if (first == std::string::npos)
        throw UsageError(fmt::format("{}: ids in the store start at 1 (got '{}'); 'roofline list' shows them", option,
                                     text));
    if (number.size() - first > 18)
        throw UsageError(fmt::format("{}: '{}' is larger than any id the store gives; 'roofline list' shows them",
                                     option, text));
    return std::stoll(number);
}

std::vector<std::int64_t> parse_row_ids(const std::vector<std::string>& texts, const char* option) {
    std::vector<std::int64_t> ids;
    for (const auto& text : texts) ids.push_back(parse_row_id(text, option));
    return ids;
}

std::string id_list(const std::vector<std::int64_t>& ids) {
    std::vector<std::string> words;
    for (const auto id : ids) words.push_back(fmt::format("#{}", id));
    return fmt::format("{}", fmt::join(words, ", "));
}

// "machine #9 and point set #12", of the ids the store does not hold.
std::string unknown_text(const RemovedRows& rows) {
    std::vector<std::string> parts;
    if (!rows.unknown_machines.empty())
        parts.push_back(fmt::format("machine{} {}", rows.unknown_machines.size() == 1 ? "" : "s",
                                    id_list(rows.unknown_machines)));
    if (!rows.unknown_point_sets.empty())
        parts.push_back(fmt::format("point set{} {}", rows.unknown_point_sets.size() == 1 ? "" : "s",
                                    id_list(rows.unknown_point_sets)));
    return fmt::format("{}", fmt::join(parts, " or "));
}

int run_remove(const RemoveArgs& args) {
    const ReportFormat format = parse_report_format(args.format);
    const auto machine_ids = parse_row_ids(args.machines, "--machine");
    const auto point_set_ids = parse_row_ids(args.points, "--points");
    if (machine_ids.empty() && point_set_ids.empty())
        throw UsageError("name what to remove: --machine ID or --points ID ('roofline list' shows the ids)");
    StoreAccess access(args.db);  // the default store, or --db; refuses what is no store location
    const std::string& location = access.path();
    const std::string name = access.display();
    const std::string list_hint = fmt::format("'roofline list{}' shows what it holds",
                                              args.db.empty() ? "" : " --db " + name);
    try {
        // First read only: every id checked, and a dry run done, without a writer's open
        // (which would create a missing store, and needs write access).
        std::unique_ptr<ResultsStore> reader;
        try {
            reader = ResultsStore::open_read_only(location);
        } catch (const NoStoreError&) {
            print_stderr("roofline: error: no results store at {}: nothing to remove (--db names another store)\n", name);
            return kExitFailure;
        }
        RemovedRows plan = reader->remove_rows(machine_ids, point_set_ids, /*write=*/false);
        reader.reset();
        if (!plan.complete()) {
            print_stderr("roofline: error: the results store {} holds no {} ({}); nothing was removed\n", name,
                         unknown_text(plan), list_hint);
            return kExitFailure;
        }
        if (args.dry_run) {
            fmt::print("{}", render_store_removal(name, plan, true, format));
            if (!args.quiet)
                print_stderr("roofline: note: a dry run: nothing was removed from the results store {}\n", name);
            return kExitOk;
        }
        check_store_writable(args.db);  // a read-only file, directory or server said as such
        ResultsStore writer(location);
        // Checked again in the removal's transaction: another process may have removed one since.
        const RemovedRows removed = writer.remove_rows(machine_ids, point_set_ids, /*write=*/true);
        if (!removed.complete()) {
            print_stderr("roofline: error: the results store {} no longer holds {} (removed meanwhile?; {}); nothing "
                         "was removed\n",
                         name, unknown_text(removed), list_hint);
            return kExitFailure;
        }
        fmt::print("{}", render_store_removal(name, removed, false, format));
        return kExitOk;
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& e) {
        // The store's own message names it (a URL without its password) and the problem.
        print_stderr("roofline: error: {}; nothing was removed\n", e.what());
        return kExitFailure;
    }
}

} // namespace

void add_remove_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<RemoveArgs>();
    auto* cmd = add_command(app, "remove", "Remove machines and point sets from the results store");
    cmd->description("Removes stored machine models and point sets by their ids ('roofline list' shows them), so that\n"
                     "a bench run on a loaded machine or a test run is no longer listed, nor picked as the latest\n"
                     "stored machine. A point set's measurement-cache entries go with it (those points are measured\n"
                     "again when next asked for); a machine's point sets stay, no longer naming a stored machine.\n"
                     "Every id is checked first: when one is not stored, nothing is removed (exit 1). The removal is\n"
                     "one transaction, and each row removed is printed (--format json: the rows as 'roofline list' gives\n"
                     "them); --dry-run prints what would be removed. Errors are said on standard error.");
    cmd->add_option("--machine", args->machines, "Machine models to remove: ids such as 4 or stored:4 (repeatable)")
        ->type_name("ID");
    cmd->add_option("--points", args->points, "Point sets to remove: ids such as 7 or stored:7 (repeatable)")
        ->type_name("ID");
    add_db_option(cmd, args->db);
    cmd->add_flag("--dry-run", args->dry_run, "Print what would be removed, and remove nothing");
    add_format_option(cmd, args->format, {"text", "json"});
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline list\n"
                "  roofline remove --machine 4 --dry-run\n"
                "  roofline remove --machine 4 5 --points stored:9\n"
                "  roofline remove --points 7 --format json | jq '.point_sets[].id'");
    cmd->callback([args, &exit_code] { exit_code = run_remove(*args); });
}

} // namespace roofline::cli
