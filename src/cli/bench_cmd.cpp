// roofline bench: measure the roofs, write the machine model, store it, draw the chart.
#include "app/gpu_bench.hpp"
#include "bench/bench_runner.hpp"
#include "bench/kernel_selection.hpp"
#include "bench/memory_bench.hpp"
#include "cli/cluster_bench.hpp"
#include "cli/commands.hpp"
#include "cli/result_output.hpp"
#include "cli/gpu_bench.hpp"
#include "cli/stop_signal.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "core/message_name.hpp"
#include "cli/progress_line.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/byte_sizes.hpp"
#include "core/closest_words.hpp"
#include "core/input_limits.hpp"
#include "io/machine_json.hpp"
#include "measure/child_process.hpp"
#include "io/results_store.hpp"
#include "io/store_location.hpp"
#include "io/text_file.hpp"
#include "render/bench_summary.hpp"
#include "render/kernel_table.hpp"
#include "render/svg_roofline.hpp"
#include "topo/topology.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <atomic>
#include <limits>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <vector>
#include <unistd.h>

namespace roofline::cli {
namespace {

struct BenchArgs {
    bool quick = false, full = false;
    bool whole_node = false;  // a node run of --mpi: the whole machine, not the rank's binding
    std::string only;
    std::string precision = "both";
    std::string threads;
    double time_budget = 0;
    std::string output = "roofline-machine.json";
    std::string svg;            // empty: next to the model (-o), or none without one
    bool svg_given = false;
    std::string db;
    bool no_store = false;
    bool quiet = false;
    bool verbose = false;
    bool validate = false;
    std::vector<std::string> working_sets;
    std::vector<std::string> patterns;
    std::string dram;
    bool list = false;
    std::string format = "text";  // of --list
    std::string isa;
    std::vector<std::string> kernels;
    std::optional<int> gpu;  // --gpu [N]: also CUDA device N
    bool mpi = false;        // --mpi: one rank per node of an MPI launch, gathered into a cluster model
    double sick_threshold = 10;  // percent under a roof's median that makes a node sick
    double rank_wait = 120;      // seconds the ranks wait for each other beyond the measuring
};

std::vector<int> parse_threads(const std::string& text, int cores) {
    if (text.empty()) return {};
    if (text == "sweep") {
        std::vector<int> all;
        for (int t = 1; t <= cores; ++t) all.push_back(t);
        return all;
    }
    if (text == "all") return {cores};
    std::vector<int> counts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find(',', start);
        const auto item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        // A count, in the range every thread count read has (the cores are the run's to meet): a
        // whole number past it, even one no integer holds, is out of range, not "no count".
        const std::size_t digits_from = !item.empty() && item[0] == '-' ? 1 : 0;
        if (item.size() <= digits_from || item.find_first_not_of("0123456789", digits_from) != std::string::npos)
            throw UsageError(fmt::format("--threads expects a count from 1 to {}, a list like 1,2, 'all' or 'sweep' "
                                         "(got '{}')", max_threads, message_name(text)));
        long long n = 0;
        // Digits only: the whole item is read, or it is too large (result_out_of_range).
        if (std::from_chars(item.data(), item.data() + item.size(), n).ec != std::errc() || n < 1 || n > max_threads)
            throw UsageError(fmt::format("--threads: a thread count must be 1 to {} (got {})", max_threads, item));
        counts.push_back(static_cast<int>(n));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return counts;
}

// The flag that sets each BenchOptions setting.
const char* flag_of(BenchSetting setting) {
    switch (setting) {
    case BenchSetting::threads: return "--threads";
    case BenchSetting::precision: return "--precision";
    case BenchSetting::mode: return "--quick/--full";
    case BenchSetting::time_budget: return "--time-budget";
    case BenchSetting::pattern: return "--pattern";
    case BenchSetting::parts: return "--only";
    case BenchSetting::validate: return "--validate";
    case BenchSetting::isa: return "--isa";
    case BenchSetting::kernel: return "--kernel";
    }
    return "bench";
}

const char* hint_for(BenchSetting setting) {
    switch (setting) {
    case BenchSetting::kernel: return "; 'roofline bench --list' shows them";
    case BenchSetting::validate: return "; drop --only";
    default: return "";
    }
}

BenchOptions to_options(const BenchArgs& a, const Topology& topology) {
    if (a.quick && a.full) throw UsageError("--quick and --full exclude each other");
    BenchOptions o;
    o.mode = a.full ? BenchMode::full : BenchMode::quick;
    if (a.only == "compute") o.memory = false;
    else if (a.only == "memory") o.compute = false;
    if (a.precision == "dp" || a.precision == "sp") o.precisions = {a.precision};
    o.thread_counts = parse_threads(a.threads, static_cast<int>(topology.cores().size()));
    o.time_budget_seconds = a.time_budget;  // checked with the rest by validate_bench_options
    o.validate = a.validate;
    try {
        for (const auto& w : a.working_sets) o.working_sets.push_back(parse_bytes(w));
        if (!a.dram.empty()) o.dram_bytes = parse_bytes(a.dram);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    o.patterns = a.patterns;
    o.isa = a.isa;
    o.kernels = a.kernels;
    try {
        resolve_kernel_selection(o);
        validate_bench_options(topology, o);
    } catch (const BenchOptionError& e) {
        throw UsageError(fmt::format("{}: {}{}", flag_of(e.setting), e.what(), hint_for(e.setting)));
    }
    return o;
}

// The chart goes where --svg says, or next to the model: m.json -> m.svg.
std::string chart_path(const BenchArgs& args) {
    if (args.svg_given) return args.svg;
    if (args.output.empty() || args.output == "-") return {};
    const auto slash = args.output.find_last_of('/');
    const auto dot = args.output.find_last_of('.');
    const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
    return (has_extension ? args.output.substr(0, dot) : args.output) + ".svg";
}

// A partial run never silently replaces an existing file (a complete model or
// chart from an earlier run): it goes beside it as NAME.partial.EXT.
std::string partial_path(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + ".partial";
    return path.substr(0, dot) + ".partial" + path.substr(dot);
}

// Standard output ('-') is no file an earlier run left.
bool file_exists(const std::string& path) {
    return !path.empty() && !is_standard_output_path(path) && access(path.c_str(), F_OK) == 0;
}

// What the output stage did. Every destination is tried whatever failed
// before it: one full disk must not cost the chart or the store.
struct Saved {
    bool model = false, chart = false;
    std::optional<std::int64_t> id;
    std::string fallback;  // where the model went instead of -o, if it did
    std::vector<std::string> failures;
};

Saved save_everything(const BenchArgs& args, const MachineModel& model, ResultsStore* store) {
    Saved saved;
    const auto attempt = [&](auto&& work) {
        try {
            work();
            return true;
        } catch (const std::exception& e) {
            saved.failures.push_back(e.what());
            return false;
        }
    };
    if (!args.output.empty()) saved.model = attempt([&] { write_machine_file(args.output, model); });
    if (!args.svg.empty())
        saved.chart = attempt([&] { write_text_file_atomic(args.svg, render_roofline_svg(model)); });
    if (store) attempt([&] { saved.id = store->save_machine(model); });
    // The measured model must survive somewhere: -o failed and the store has not got it.
    if (!args.output.empty() && !saved.model && !saved.id) {
        attempt([&] {
            saved.fallback = write_somewhere_safe(fmt::format("roofline-machine-{}.json", ::getpid()),
                                                  [&](const std::string& path) { write_machine_file(path, model); });
        });
    }
    return saved;
}

int run(BenchArgs args) {
    if (args.list) {
        // --isa and --kernel narrow the list as they narrow a run (their names are checked as parsed).
        auto kernels = kernel_catalog();
        std::erase_if(kernels, [&](const KernelInfo& k) {
            return (!args.isa.empty() && k.isa != args.isa) ||
                   (!args.kernels.empty() &&
                    std::find(args.kernels.begin(), args.kernels.end(), k.name) == args.kernels.end());
        });
        fmt::print("{}", args.format == "json" ? kernel_table_json(kernels) : kernel_table_text(kernels));
        return 0;
    }
    // A node of bench --mpi is measured whole, however the launcher bound its rank.
    const Topology topology = Topology::discover(args.whole_node ? CpuScope::whole_machine : CpuScope::affinity_mask);
    topology.require_this_machine("bench");
    const BenchOptions options = to_options(args, topology);
    args.svg = chart_path(args);

    // Everything that can fail on output is checked before minutes of measuring.
    // The chart is written after the model: the same file would lose the model.
    if (args.svg_given) {
        check_outputs_differ("-o", args.output, "--svg", args.svg, "the chart would overwrite the machine model");
    } else if (!args.svg.empty() && same_output_file(args.output, args.svg)) {
        throw UsageError(fmt::format("-o {}: the chart goes next to the model as NAME.svg, which is this same file, "
                                     "and would overwrite the model; name the model .json, or give --svg another "
                                     "file (--svg '' for no chart)",
                                     message_name(args.output)));
    }
    if (!args.output.empty()) check_writable(args.output);
    if (!args.svg.empty()) check_writable(args.svg);
    std::unique_ptr<ResultsStore> store;
    // Opening the store before measuring checks it, and creates a store file that was not there:
    // a run stopped before any roof must not call that one "left as it was".
    bool store_is_new = false;
    if (!args.no_store) {
        const std::string location = args.db.empty() ? ResultsStore::default_path() : args.db;
        std::error_code ec;
        store_is_new = !is_postgres_url(location) && !std::filesystem::exists(location, ec) && !ec;
        store = ResultsStore::open_db_option(args.db);
    }
    app::GpuBenchRequest gpu_request;  // the GPU is there, or we say so before the CPU's minutes
    if (args.gpu) {
        if (*args.gpu < 0) throw UsageError("--gpu expects a CUDA device number (0, 1, ...)");
        gpu_request.device = *args.gpu;
        gpu_request.quick = options.mode == BenchMode::quick;
        try {
            app::probe_gpu(gpu_request);
        } catch (const app::GpuRunTimedOut& e) {
            throw std::runtime_error(gpu_run_timed_out_text(e));
        }
    }

    // Ctrl-C, SIGTERM, SIGHUP: said at once; the run stops between measurements (within a burst)
    // and keeps what was measured. Further signals while it stops are said too, not obeyed, so the
    // measured roofs are still saved; a fifth leaves at once.
    // Said before anything is known of what will be kept: the last line says what was saved.
    const StopSignal stop("stopping after the figure being measured, then saving the figures measured so far",
                          StopSignal::Repeat::count,
                          "already stopping: saving what was measured (a fifth signal leaves at once, unsaved)");
    bool gpu_failed = false;

    ProgressLine progress(args.quiet);
    if (!args.quiet)
        print_stderr("roofline bench --{}: measuring {}{} (Ctrl-C stops and keeps what was measured)\n",
                   bench_mode_name(options.mode), options.compute ? "compute" : "", options.memory ? (options.compute ? " and memory" : "memory") : "");
    MachineModel model = run_bench(topology, options, [&progress](const ProgressEvent& e) { progress(e); }, stop.flag());
    progress.finish();
    if (args.gpu && !model.partial) {
        if (!args.quiet) print_stderr("roofline bench: GPU {} (roofline-gpubench)\n", *args.gpu);
        try {
            auto measured = app::bench_gpu(gpu_request);
            model.gpus.push_back(std::move(measured.gpu));
            // A roof the hardware cannot reach is an error, not a figure: left out, and the exit says so.
            for (const auto& why : measured.refused)
                model.environment.refused.push_back(fmt::format("GPU {}: {}", *args.gpu, why));
            // As reading the model words them (core/hardware_limits), so a later read adds none twice.
            for (const auto& note : measured.notes)
                model.environment.warnings.push_back(
                    fmt::format("GPU {} ({}): {}", model.gpus.back().index, model.gpus.back().name, note));
        } catch (const measure::Interrupted&) {
            model.partial = true;
        } catch (const app::GpuRunTimedOut& e) {
            print_stderr("roofline: error: {}\n", gpu_run_timed_out_text(e));
            gpu_failed = true;
        } catch (const std::exception& e) {
            // The CPU's roofs are kept; the GPU's failure is said and makes the exit status non-zero.
            print_stderr("roofline: error: {}\n", e.what());
            gpu_failed = true;
        }
    }

    // Stopped before any roof: a model without roofs judges nothing, and stored it would be the
    // latest model; nothing is written, and the files and the store keep what they had (a store
    // this run created holds nothing: it is said to be new, and left, as another run may have
    // opened it meanwhile).
    if (model.partial && model.compute.empty() && model.memory.empty() && model.gpus.empty()) {
        std::vector<std::string> unchanged;
        for (const auto* path : {&args.output, &args.svg})
            if (!path->empty() && !is_standard_output_path(*path)) unchanged.push_back(message_name(*path));
        if (store && !store_is_new) unchanged.push_back("the results store " + message_name(store->path()));
        std::vector<std::string> said;
        if (!unchanged.empty())
            said.push_back(fmt::format("{} left as {}", fmt::join(unchanged, ", "),
                                       unchanged.size() == 1 ? "it was" : "they were"));
        if (store && store_is_new)
            said.push_back(fmt::format("the results store {} is new and holds nothing: this run created it before "
                                       "measuring",
                                       message_name(store->path())));
        print_stderr("interrupted before any roof was measured (kernels are chosen first, then every figure is "
                     "sampled): nothing saved{}\n",
                     said.empty() ? "" : fmt::format(" ({})", fmt::join(said, "; ")));
        return stop.stopped() ? stop.exit_code() : kExitInterrupted;
    }

    std::string kept;  // files a partial run did not replace
    if (model.partial) {
        for (auto* path : {&args.output, &args.svg}) {
            if (!file_exists(*path)) continue;
            kept += (kept.empty() ? "" : ", ") + message_name(*path);
            *path = partial_path(*path);
        }
    }
    const Saved saved = save_everything(args, model, store.get());

    try {
        if (!args.quiet) fmt::print("{}", format_bench_summary(model, args.verbose));
    } catch (const std::system_error&) {
        // Standard output is gone (its reader left: SIGPIPE stopped the run; a full disk): what was
        // saved is still said, and main's check of standard output makes the exit say so.
    }
    std::fflush(stdout);  // the summary before the stderr line that says where it went
    for (const auto& failure : saved.failures) print_stderr("roofline: error: {}\n", failure);
    const bool lost = !args.output.empty() && !saved.model && !saved.id && saved.fallback.empty();
    if (!args.output.empty() && !saved.model) {
        if (saved.id)
            print_stderr("roofline: the model is not in {}, but the results store has it: "
                               "'roofline show stored:{} --format json > FILE' writes it out\n",
                       output_name(args.output), *saved.id);
        else if (!saved.fallback.empty())
            print_stderr("roofline: the model is not in {}; it was written to {} instead\n", output_name(args.output),
                         message_name(saved.fallback));
    }
    if (lost) {
        // Nowhere on disk took it: standard output is the last place left.
        print_stderr("roofline: the model could not be saved anywhere; it follows on standard output\n");
        fmt::print("{}\n", machine_to_json(model).dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    if (!args.quiet || model.partial || !saved.failures.empty()) {
        // One clause per place, joined, so the line ends well whichever of them there are.
        std::vector<std::string> where;
        if (saved.model) where.push_back("model " + output_name(args.output));
        if (!saved.fallback.empty()) where.push_back("model " + message_name(saved.fallback));
        if (saved.chart) where.push_back("chart " + output_name(args.svg));
        if (saved.id) where.push_back(fmt::format("stored as #{} in {}", *saved.id, message_name(store->path())));
        const char* what = !saved.failures.empty()
                               ? (!where.empty() ? "partly saved" : lost ? "no file saved" : "nothing saved")
                           : where.empty()   ? "nothing saved (no -o, no chart, no results store)"
                           : model.partial   ? "interrupted: partial results saved"
                                             : "saved";
        if (!where.empty() && !store) where.push_back("not in the results store");
        print_stderr("{}{}\n", what, where.empty() ? "." : fmt::format(": {}.", fmt::join(where, "; ")));
        if (!kept.empty())
            print_stderr("kept the earlier results in {}: a partial run does not replace them\n", kept);
    }
    // 130 for Ctrl-C, 143 for SIGTERM, as a shell reports a command those signals ended.
    if (model.partial) return stop.stopped() ? stop.exit_code() : kExitInterrupted;
    // Figures above what the hardware allows were left out: an error, not a result.
    for (const auto& why : model.environment.refused) print_stderr("roofline: error: {}\n", why);
    return saved.failures.empty() && !gpu_failed && model.environment.refused.empty() ? kExitOk : kExitFailure;
}

// The seconds a bench run may take: its budget, or the mode's default (twice with --validate).
double budget_seconds(const BenchArgs& args) {
    const double mode = args.full ? 160 : 24;
    return (args.time_budget > 0 ? args.time_budget : mode) * (args.validate ? 2 : 1);
}

// --mpi: every rank joins; the lowest rank of each node measures it (as a plain bench run, its
// model into the ranks' meeting place); rank 0 then gathers the cluster.
int run_cluster(BenchArgs args) {
    if (args.gpu) throw UsageError("--mpi measures the nodes' CPUs; measure a node's GPU with --gpu without --mpi");
    if (args.output.empty()) throw UsageError("--mpi writes the cluster model: give -o FILE");
    // The ranks meet through files next to -o, which standard output has not.
    if (is_standard_output_path(args.output))
        throw UsageError("--mpi writes the cluster model to a file the ranks meet next to: give -o FILE, not -o -");
    if (!(args.sick_threshold > 0 && args.sick_threshold < 100))
        throw UsageError("--sick-threshold is a percentage between 0 and 100");
    const Topology topology = Topology::discover(CpuScope::whole_machine);
    topology.require_this_machine("bench --mpi");
    (void)to_options(args, topology);  // every rank refuses bad options before anyone waits
    const auto plan = join_cluster_bench(args.output, args.rank_wait);
    if (plan.rank.rank == 0) {
        check_writable(args.output);
        if (!args.no_store) check_store_writable(args.db);
    }
    if (plan.leader) {
        int code = kExitOk;
        BenchArgs node = args;
        node.mpi = false;
        node.whole_node = true;
        node.output = app::node_model_path(plan, plan.rank.rank);
        node.svg.clear();
        node.svg_given = true;
        node.no_store = true;
        node.quiet = true;  // the nodes' own summaries are in the cluster model
        if (!args.quiet && plan.rank.rank == 0)
            print_stderr("roofline bench --mpi: {} ranks on {} nodes; each node measured by its lowest rank\n",
                         plan.rank.size, plan.leaders.size());
        try {
            code = run(node);
        } catch (const std::exception& e) {
            code = kExitFailure;
            print_stderr("roofline: error: rank {} ({}): {}\n", plan.rank.rank, plan.node, e.what());
            app::report_node_failure(plan, e.what());
        }
        if (code != kExitOk && access(node.output.c_str(), F_OK) != 0)
            app::report_node_failure(plan, fmt::format("its bench run ended with exit code {}", code));
    } else if (!args.quiet) {
        int leader = 0;
        for (const auto& [rank, node] : plan.leaders)
            if (node == plan.node) leader = rank;
        print_stderr("roofline: rank {}: node {} is measured by rank {}; this rank waits\n", plan.rank.rank,
                     plan.node, leader);
    }
    const double wait = budget_seconds(args) * 4 + args.rank_wait;
    // Every rank joins the network measurement (an MPI job of roofline-netbench children).
    const std::string network_problem = app::measure_network(plan, !args.full, wait);
    // A failed node is rank 0's to report (it exits 1): another rank exiting non-zero would make the
    // launcher kill rank 0 before it writes what the other nodes measured.
    if (plan.rank.rank != 0) return kExitOk;
    return gather_cluster(plan, {args.output, args.db, args.no_store, args.quiet, args.sick_threshold / 100, wait,
                                 network_problem});
}

} // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<BenchArgs>();
    auto* cmd = add_command(app, "bench", "Measure compute and bandwidth roofs; write the machine model and chart");
    cmd->description(
        "Measures this machine's roofs: peak GFLOP/s per precision, vector width and op mix, and the\n"
        "bandwidth of every memory level, with 1 thread and all cores (threads pinned one per core).\n"
        "Kernels are chosen by measurement: every ISA the CPU has for each memory level and pattern,\n"
        "and a search over FMA/ADD chain counts for the peak. Each figure is sampled in short bursts\n"
        "interleaved over the run; the roof is the 90th percentile of the bursts' best samples, and\n"
        "all-thread bursts count only when a canary shows the threads on separate cores. Theoretical\n"
        "figures come from a per-microarchitecture table ('?' for a CPU it does not know).\n"
        "Writes the machine model (JSON, schema roofline.machine/1), a chart (SVG, next to the model\n"
        "unless --svg says otherwise) and a row in the results store. ROOFLINE_MAX_ISA=sse2|avx2|avx512\n"
        "caps the kernels' ISA.");
    cmd->add_flag("--quick", args->quick, "What a chart needs: top compute roof per precision, L1/L2/L3/DRAM load, copy and triad (default, about 25 s)");
    cmd->add_flag("--full", args->full, "Every ceiling: all vector widths and op mixes, all memory patterns (about 1.5 min)");
    cmd->add_option("--only", args->only, "Measure only one part")->check(CLI::IsMember({"compute", "memory"}));
    cmd->add_option("--precision", args->precision, "dp, sp or both")->check(CLI::IsMember({"dp", "sp", "both"}));
    cmd->add_option("--threads", args->threads, "Thread counts: N, a list (1,2), 'all', or 'sweep' (every count 1..cores); default 1 and all cores")
        ->check(value_check([](const std::string& text) {  // the spelling and counts; the cores are bench's to meet
            try {
                (void)parse_threads(text, 1);
            } catch (const UsageError& e) {
                return std::string(e.what());
            }
            return std::string();
        }));
    cmd->add_option("--time-budget", args->time_budget, "Seconds for the whole run, at most a week (default 24 quick, 160 full; twice that with --validate)")
        ->check(number_check([](double seconds, const std::string& text) -> std::string {
            if (seconds < 0) return fmt::format("must not be negative (got {})", text);
            if (!(seconds <= max_time_budget_seconds))  // nan and inf too
                return fmt::format("must be a number of seconds from 0 (the mode's default) to a week, {:g} (got {})",
                                   max_time_budget_seconds, text);
            return "";
        }));
    add_output_option(cmd, args->output, "Machine model JSON file ('' for none)", EmptyOutput::no_file)
        ->capture_default_str();
    result_may_go_to_standard_output(cmd->add_option("--svg", args->svg, "Chart file ('' for none; '-': standard output; default: next to -o, e.g. roofline-machine.svg)"))
        ->each([args](const std::string&) { args->svg_given = true; });
    add_db_option(cmd, args->db);
    cmd->add_flag("--no-store", args->no_store, "Do not save in the results database");
    cmd->add_flag("--validate", args->validate, "Also run kernels of known intensity (1/16..64 FLOP/byte) in each level and compare with the roofline");
    // Sizes, patterns and kernel names are checked as they are parsed, so a configured one is too.
    const CLI::Validator byte_size_check = parsed_check([](const std::string& text) { return parse_bytes(text); });
    cmd->add_option("--working-set", args->working_sets, "Explicit per-thread working sets (e.g. 16kB,256kB,8MB,1GB) instead of the per-level choice")
        ->delimiter(',')
        ->check(byte_size_check);
    cmd->add_option("--pattern", args->patterns, "Memory patterns: load, store, copy, triad, 2ld1st, store_nt, copy_nt, triad_nt")
        ->delimiter(',')
        ->check(CLI::Validator(
            [](std::string& pattern) -> std::string {
                if (memory_kernel_for(pattern, BenchOptions{})) return "";
                return "unknown memory pattern '" + pattern +
                       "' (load, store, copy, triad, 2ld1st, store_nt, copy_nt, triad_nt)";
            },
            ""));
    cmd->add_option("--gpu", args->gpu,
                    "Also measure CUDA device N (default 0): FMA, tensor-core and bit-op roofs, DRAM/L2/shared "
                    "bandwidth, the host-device bus (needs roofline-gpubench, built when nvcc is found; each run of "
                    "it is killed after a time limit: the probe 60 s, measuring 5 min with --quick, else 20 min; "
                    "ROOFLINE_GPUBENCH_TIME_LIMIT=SECONDS sets it)")
        ->expected(0, 1)
        ->default_str("0")
        ->type_name("[N]")
        ->check(whole_number_range(0, std::numeric_limits<int>::max(), ", a CUDA device number"));
    auto* mpi = cmd->add_flag("--mpi", args->mpi,
                  "Characterize every node of an MPI launch (mpirun -np N roofline bench --mpi -o cluster.json): the "
                  "lowest rank of each node measures it, the node's other ranks wait; rank 0 writes the cluster "
                  "model (each node's model, each roof's median, slowest node and spread, the sick nodes) and "
                  "stores the nodes' models. Nodes are told apart by host name");
    cmd->add_option("--sick-threshold", args->sick_threshold,
                    "--mpi: report a node more than this percentage under a roof's median (from 3 nodes up)")
        ->type_name("PERCENT")
        ->check(number_between_check(0, 100, "--sick-threshold is a percentage between 0 and 100"))
        ->capture_default_str()
        ->needs(mpi);  // alone it would be accepted and do nothing
    cmd->add_option("--rank-wait", args->rank_wait,
                    "--mpi: seconds the ranks wait for each other, beyond the measuring itself")
        ->check(a_number_check())
        ->check(CLI::Range(1.0, 86400.0))
        ->type_name("SECONDS")
        ->capture_default_str()
        ->needs(mpi);
    cmd->add_option("--dram-size", args->dram, "Total DRAM working set (default: 1 GiB or 8x the caches)")
        ->check(byte_size_check);
    add_quiet_flag(cmd, args->quiet)->description("No progress and no summary: only warnings and errors");
    cmd->add_flag("-v,--verbose", args->verbose,
                  "Every note in full (by default, figures that rest on one burst or whose bursts disagree are "
                  "counted in one line each)");
    cmd->add_flag("--list", args->list, "List the kernels (ISA, FLOP and bytes per unit, whether this CPU runs them; those --isa and --kernel select) and exit");
    cmd->add_option("--format", args->format, "Format of --list: text or json")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    cmd->add_option("--isa", args->isa, "Only kernels of this ISA: sse2, avx2 or avx512 (default: each figure's fastest)")
        ->check(CLI::IsMember({"sse2", "avx2", "avx512"}));
    cmd->add_option("--kernel", args->kernels,
                    "Only these kernels (names from --list), whatever the mode; the compute and memory parts follow "
                    "what they name")
        ->delimiter(',')
        ->check(CLI::Validator(
            [](std::string& name) -> std::string {
                // A name the catalog lacks (on any CPU); one this CPU cannot run is bench's to say.
                std::vector<std::string> names;
                for (const auto& k : kernel_catalog()) {
                    if (k.kind == KernelKind::intensity) continue;  // validation's own, not selectable
                    if (k.name == name) return "";
                    names.push_back(k.name);
                }
                const auto close = closest_words(name, names);
                return fmt::format("no kernel '{}' in the catalog{}; 'roofline bench --list' shows them",
                                   message_name(name),
                                   close.empty() ? "" : fmt::format(" (did you mean '{}'?)", fmt::join(close, "', '")));
            },
            ""));
    cmd->footer("Examples:\n"
                "  roofline bench                     quick run, writes roofline-machine.json and roofline-machine.svg\n"
                "  roofline bench --full --threads sweep\n"
                "  roofline bench --only memory --pattern load --working-set 16kB,1GB --threads 1\n"
                "  mpirun --map-by ppr:1:node roofline bench --mpi -o cluster.json   every node, and the sick ones");
    cmd->callback([args, cmd, &exit_code] {
        if (!args->mpi) {
            exit_code = run(*args);
            return;
        }
        if (cmd->get_option("--output")->count() == 0) args->output = "roofline-cluster.json";
        exit_code = run_cluster(*args);
    });
}

} // namespace roofline::cli
