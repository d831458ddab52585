// `roofline show`: one stored (or saved) machine model or point set, as the
// summary a person reads or the JSON a script reads.
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/level.hpp"
#include "core/message_name.hpp"
#include "core/model_completeness.hpp"
#include "io/cluster_json.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/text_file.hpp"
#include "render/bench_summary.hpp"
#include "render/cluster_text.hpp"
#include "render/measure_tables.hpp"
#include "render/report.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

namespace roofline::cli {
namespace {

struct ShowArgs {
    std::string source = kStored;
    bool points = false;
    std::string db;
    std::string format;
    std::string output;
    bool quiet = false;  // taken as every command takes it: show says nothing but its result and errors
};

std::string show_machine(const StoredSource& source, StoreAccess& access, ReportFormat format) {
    const MachineFile machine = load_machine(source, access, "run 'roofline bench' first");
    // Invalid UTF-8 (from any file or store) becomes U+FFFD rather than an exception.
    if (format == ReportFormat::json)
        return machine_to_json(machine.model).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const auto completeness = completeness_of(machine.model);
    std::string out = fmt::format("Machine: {}{}\n", terminal_text(source.display()),
                                  completeness.complete() ? "" : fmt::format(" ({}: {})", completeness_label(completeness),
                                                                             completeness_lacks(completeness)));
    out += format_bench_summary(machine.model);
    const auto& memory = machine.model.memory;
    if (std::any_of(memory.begin(), memory.end(), [](const MemoryRoof& r) { return is_custom_working_set(r.level); }))
        out += fmt::format("\nLevel '{}': a working set chosen with 'bench --working-set' (by an earlier version, which did "
                           "not name its level); shown, but no level's roof: nothing is judged against it.\n",
                           kCustomWorkingSetLevel);
    return out;
}

std::string show_points(const StoredSource& source, StoreAccess& access, ReportFormat format) {
    const auto doc = load_points_document(source, access, "run 'roofline measure -- ./your_app' first");
    const auto& points = doc.points;
    const Provenance* provenance = doc.provenance ? &*doc.provenance : nullptr;
    if (format == ReportFormat::json)  // as measure wrote it, provenance included
        return points_to_json(points, provenance).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::vector<MeasuredRow> rows;
    for (const auto& p : points) rows.push_back({p, std::nullopt});
    const std::string name = source.stored ? (source.id ? fmt::format("stored point set #{}", *source.id)
                                                        : std::string("the latest stored point set"))
                                           : source.path;
    std::string partial;
    if (provenance)
        if (const auto it = provenance->options.find("interrupted"); it != provenance->options.end())
            partial = fmt::format("; PARTIAL: the run was interrupted by {}", terminal_text(it->second));
    return fmt::format("Points: {} ({}{})\n", terminal_text(name), points.size(), partial) +
           render_measured_points(rows, false);
}

// A cluster model (bench --mpi): the summary with the sick nodes, then every node's roofs.
std::string show_cluster(const std::string& path, const std::string& text, ReportFormat format) {
    const auto file = cluster_from_json(parse_json_bounded(text, path), path);
    if (format == ReportFormat::json)
        return cluster_to_json(file.cluster, file.nodes).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
               "\n";
    std::string out = fmt::format("Cluster model: {}\n", terminal_text(path)) + format_cluster_summary(file.cluster);
    for (const auto& n : file.nodes)
        out += fmt::format("\nNode {} (rank {})\n", terminal_text(n.node), n.rank) + format_bench_summary(n.model);
    return out;
}

// The "schema" a JSON file names ("" for none, or for a file that is not JSON): the reader of
// what it claims to be says what else is wrong with it.
std::string file_schema(const std::string& text) {
    if (json_nested_too_deep(text)) return {};
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string()) return {};
    return j["schema"].get<std::string>();
}

int run_show(const ShowArgs& args) {
    const ReportFormat format = parse_report_format(args.format);
    const StoredSource source = parse_stored_source(args.source, "show");
    check_output_not_input("-o", args.output, {{"show", args.source}});
    if (!args.output.empty()) check_file_writable(args.output);
    // A file is shown as what it says it is: a points file needs no --points (it was refused as "not
    // a roofline machine model"), and --points on a machine or cluster model is named as the mix-up.
    bool points = args.points;
    if (!source.stored)
        if (const auto text = read_file_if_exists(source.path)) {
            const std::string schema = file_schema(*text);
            if (schema == "roofline.points/1") points = true;
            if (args.points && (schema == "roofline.machine/1" || schema == "roofline.cluster/1"))
                throw UsageError(fmt::format("show --points: {} is a {} model (schema {}), not a point set: 'roofline "
                                             "show {}' shows it", message_name(source.path),
                                             schema == "roofline.machine/1" ? "machine" : "cluster", schema,
                                             message_name(source.path)));
            if (!points && is_cluster_json(*text)) {
                write_result(args.output, show_cluster(source.path, *text, format));
                return kExitOk;
            }
        }
    StoreAccess access(args.db);
    const std::string text = points ? show_points(source, access, format) : show_machine(source, access, format);
    write_result(args.output, text);
    return kExitOk;
}

} // namespace

void add_show_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ShowArgs>();
    auto* cmd = add_command(app, "show", "Show one stored machine model or point set");
    cmd->description("Prints a machine model (its roofs, ceilings and how they were measured: the summary\n"
                     "'roofline bench' prints) or, with --points, a point set. SOURCE is 'stored' (the latest),\n"
                     "'stored:ID' (ids from 'roofline list') or a file. --format json prints the model or the\n"
                     "points as their files hold them (schemas roofline.machine/1, roofline.points/1).\n"
                     "A cluster model (bench --mpi, schema roofline.cluster/1) is shown with its sick nodes\n"
                     "and every node's roofs. A file is shown as what its schema says: a points file needs no\n"
                     "--points.");
    cmd->add_option("source", args->source, "'stored', 'stored:ID' or a file")->capture_default_str();
    cmd->add_flag("--points", args->points, "SOURCE is a point set, not a machine model");
    add_db_option(cmd, args->db);
    add_format_option(cmd, args->format, {"text", "json"});
    add_output_option(cmd, args->output, "Write to FILE instead of standard output");
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline show                      the latest stored machine\n"
                "  roofline show stored:2 --format json > machine.json\n"
                "  roofline show --points stored:5\n"
                "  roofline show cluster.json         a cluster's nodes, their spread and the sick ones");
    cmd->callback([args, &exit_code] { exit_code = run_show(*args); });
}

} // namespace roofline::cli
