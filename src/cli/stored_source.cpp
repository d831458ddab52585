#include "cli/stored_source.hpp"

#include "core/hardware_limits.hpp"
#include "core/message_name.hpp"
#include "core/model_completeness.hpp"

#include "cli/messages.hpp"
#include "cli/usage_error.hpp"
#include "io/points_json.hpp"
#include "io/store_location.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace roofline::cli {

std::string StoredSource::display() const {
    if (!stored) return message_name(path);
    return id ? fmt::format("stored {} #{}", noun, *id) : fmt::format("the latest stored {}", noun);
}

namespace {
StoredSource parse_stored_source_text(const std::string& text, const char* option) {
    if (text == kStored) return {true, std::nullopt, {}};
    const std::string prefix = std::string(kStored) + ":";
    if (text.rfind(prefix, 0) == 0) {
        const auto number = text.substr(prefix.size());
        // Digits only: stoll alone took "stored:+1" and "stored: 1".
        const bool digits = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
            return c >= '0' && c <= '9';
        });
        if (!digits)
            throw UsageError(fmt::format("{} expects a file, 'stored' or 'stored:ID' with ID a number from 1 (got "
                                         "'{}'); 'roofline list' shows the ids",
                                         option, text));
        const auto first = number.find_first_not_of('0');
        if (first == std::string::npos)
            throw UsageError(fmt::format("{}: ids in the store start at 1 (got '{}'); 'roofline list' shows them",
                                         option, text));
        if (number.size() - first > 18)
            throw UsageError(fmt::format("{}: '{}' is larger than any id the store gives; 'roofline list' shows them",
                                         option, text));
        return {true, std::stoll(number), {}};
    }
    if (text.empty()) throw UsageError(fmt::format("{} expects a file, 'stored' or 'stored:ID' (got '')", option));
    return {false, std::nullopt, text};
}
} // namespace

StoredSource parse_stored_source(const std::string& text, const char* option) {
    StoredSource source = parse_stored_source_text(text, option);
    if (std::string_view(option) == "--points") source.noun = "point set";  // the store numbers them apart
    return source;
}

const std::string& StoreAccess::path() {
    if (path_.empty()) {
        path_ = explicit_path_.empty() ? ResultsStore::default_path() : explicit_path_;
        // mysql://… is not a SQLite file of that name that happens not to exist yet.
        if (auto problem = store_location_problem(path_); !problem.empty()) throw UsageError(problem);
    }
    return path_;
}

std::string StoreAccess::display() { return store_display_name(path()); }

ResultsStore* StoreAccess::store() {
    // Read-only: these commands never create or migrate the store, so they work on
    // a read-only copy and do not queue behind a writer.
    if (!store_ && !missing_) {
        std::error_code ec;
        if (is_postgres_url(path())) {
            // A database without roofline tables is a store not written yet, as a missing file is.
            try {
                store_ = ResultsStore::open_read_only(path());
            } catch (const NoStoreError&) {
                missing_ = true;
            }
        } else if (std::filesystem::exists(std::filesystem::symlink_status(path(), ec)) ||
                   std::filesystem::exists(path(), ec)) {
            store_ = ResultsStore::open_read_only(path());
        } else {
            missing_ = true;
        }
    }
    return store_.get();
}

std::string StoreAccess::where() {
    store();
    return missing_ ? fmt::format("{} (there is no results store at {} yet)", display(), display()) : display();
}

namespace {

// A measured model is checked again as it is read: a file edited by hand, or written by a
// version that did not check, may hold a figure no machine reaches. Such figures are left
// out, each with a warning, and listed with the model's refused figures (show prints them).
// A spec sheet was checked as it was parsed, at the line of each figure.
void refuse_impossible_on_reading(MachineModel& model, const std::string& display) {
    for (auto& why : refuse_impossible_figures(model)) {
        print_stderr("roofline: warning: {}: {}\n", display, why);
        model.environment.refused.push_back("on reading: " + why);
    }
}

} // namespace

MachineFile load_machine(const StoredSource& source, StoreAccess& access, std::string_view missing_hint) {
    if (!source.stored) {
        MachineFile file = load_machine_file(source.path);
        if (!file.spec_sheet) refuse_impossible_on_reading(file.model, source.display());
        return file;
    }
    ResultsStore* store = access.store();
    std::optional<MachineModel> model;
    std::optional<std::int64_t> id = source.id;
    if (store && !id)
        if (const auto rows = store->list_machines(); !rows.empty()) id = rows.back().id;
    if (store && id) model = store->machine(*id);
    if (model) {
        MachineFile file;
        file.model = *std::move(model);
        file.stored_id = id;
        refuse_impossible_on_reading(file.model, source.display());
        return file;
    }
    if (source.id)
        throw std::runtime_error(fmt::format("no machine #{} in the results store {}", *source.id, access.where()));
    throw std::runtime_error(fmt::format("no machine model in the results store {}: {}", access.where(), missing_hint));
}

namespace {

std::string incomplete_note(const std::string& what, const ModelCompleteness& c) {
    return fmt::format("{} is incomplete ({}): {}; points that need what it lacks get no verdict", what,
                       completeness_label(c), completeness_lacks(c));
}

} // namespace

std::optional<ThisMachine> machine_of_sets(const std::vector<std::pair<std::string, Provenance>>& sets) {
    std::optional<ThisMachine> out;
    for (const auto& [name, p] : sets) {
        if (p.mpi && p.mpi->hosts.size() > 1) return std::nullopt;
        if (p.host.empty() || p.cpu.empty()) continue;
        if (out && (out->host != p.host || out->cpu != p.cpu)) return std::nullopt;
        out = ThisMachine{p.host, p.cpu, "the points' host's"};
    }
    return out;
}

JudgingMachine load_judging_machine(const StoredSource& source, StoreAccess& access, std::string_view missing_hint,
                                    const std::optional<ThisMachine>& this_machine) {
    JudgingMachine out;
    out.display = source.display();
    ResultsStore* store = source.stored && !source.id ? access.store() : nullptr;
    auto rows = store ? store->list_machines() : std::vector<StoredMachine>{};
    // A shared store (a cluster's): this host's models, when it has any, before newer ones of others.
    std::string others_passed_over;  // "#7 (node2), #8 (node3)": said with the model chosen
    if (this_machine && !this_machine->host.empty() && !this_machine->cpu.empty() && !rows.empty()) {
        std::vector<StoredMachine> mine;
        for (const auto& row : rows)
            if (row.hostname == this_machine->host && row.cpu_model == this_machine->cpu) mine.push_back(row);
        if (!mine.empty() && mine.back().id != rows.back().id) {
            std::vector<std::string> others;
            for (const auto& row : rows)
                if (row.id > mine.back().id && (row.hostname != this_machine->host || row.cpu_model != this_machine->cpu))
                    others.push_back(fmt::format("#{} ({})", row.id, row.hostname.empty() ? "no host" : row.hostname));
            others_passed_over = fmt::format("{}", fmt::join(others, ", "));
        }
        if (!mine.empty()) rows = std::move(mine);
    }
    if (rows.empty()) {  // a file, stored:ID, or nothing stored (load_machine says so)
        out.file = load_machine(source, access, missing_hint);
        if (const auto c = completeness_of(out.file.model); !c.complete())
            out.notes.push_back(incomplete_note(source.stored ? out.display : "the machine model " + out.display, c));
        return out;
    }
    // Newest first: the first complete model; an interrupted row is skipped unread.
    std::vector<std::string> skipped;
    std::optional<MachineModel> newest;
    std::optional<ModelCompleteness> newest_completeness;
    for (auto row = rows.rbegin(); row != rows.rend(); ++row) {
        const bool is_newest = row == rows.rbegin();
        std::optional<MachineModel> model;
        ModelCompleteness c;
        if (!row->partial || is_newest) {
            try {
                model = store->machine(row->id);
            } catch (const std::exception&) {
                if (is_newest) throw;  // as before: the latest model must be readable
                skipped.push_back(fmt::format("#{} (cannot be read)", row->id));
                continue;
            }
            if (!model) continue;  // removed meanwhile
            refuse_impossible_on_reading(*model, fmt::format("stored machine #{}", row->id));
            c = completeness_of(*model);
        } else {
            c.interrupted = true;
        }
        if (is_newest) {
            newest = model;
            newest_completeness = c;
        }
        if (c.complete()) {
            out.file.model = *std::move(model);
            out.file.stored_id = row->id;
            if (!others_passed_over.empty()) {
                out.display = fmt::format("stored machine #{}", row->id);
                out.notes.push_back(fmt::format("using {}, {} ({}) latest complete model; the store also "
                                                "holds newer models of other hosts ({}): --machine stored:ID uses one",
                                                out.display, this_machine->whose, this_machine->host,
                                                others_passed_over));
            }
            if (!skipped.empty()) {
                out.display = fmt::format("stored machine #{}", row->id);
                out.notes.push_back(fmt::format(
                    "using {}, the latest complete model; skipped the newer {}: --machine stored:{} uses it anyway",
                    out.display, fmt::join(skipped, ", "), rows.back().id));
            }
            return out;
        }
        skipped.push_back(fmt::format("#{} ({})", row->id, completeness_label(c)));
    }
    if (!newest) return {load_machine(source, access, missing_hint), out.display, {}};
    // No complete model stored: the latest, said to be incomplete.
    out.file.model = *std::move(newest);
    out.file.stored_id = rows.back().id;
    out.notes.push_back(incomplete_note(fmt::format("{} (#{})", out.display, rows.back().id), *newest_completeness) +
                        "; no complete model is stored: run 'roofline bench' without --only, --isa or --kernel for one");
    return out;
}

namespace {

std::optional<PointsDocument> load_point_set(const StoredSource& source, StoreAccess& access,
                                             std::string_view missing_hint, bool required) {
    if (!source.stored) return read_points_document(source.path);
    ResultsStore* store = access.store();
    std::optional<PointsDocument> set;
    if (store) set = store->point_set(source.id);
    if (set) return set;
    if (!required) return std::nullopt;
    if (source.id)
        throw std::runtime_error(fmt::format("no point set #{} in the results store {}", *source.id, access.where()));
    throw std::runtime_error(fmt::format("no points in the results store {}: {}", access.where(), missing_hint));
}

} // namespace

std::vector<Point> load_points(const StoredSource& source, StoreAccess& access, std::string_view missing_hint,
                               bool required) {
    auto set = load_point_set(source, access, missing_hint, required);
    return set ? std::move(set->points) : std::vector<Point>{};
}

PointsDocument load_points_document(const StoredSource& source, StoreAccess& access, std::string_view missing_hint) {
    return *load_point_set(source, access, missing_hint, true);
}

std::vector<Point> combine_point_sets(std::vector<PointsDocument> sets, const std::vector<std::string>& sources) {
    // How many sets have each name.
    std::map<std::string, int> sets_with;
    for (const auto& set : sets) {
        std::set<std::string> names;
        for (const auto& p : set.points) names.insert(p.name);
        for (const auto& n : names) ++sets_with[n];
    }
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const auto& prov = sets[i].provenance;
        labels.push_back(prov && !prov->command.empty()
                             ? std::filesystem::path(prov->command.front()).filename().string()
                             : sources[i]);
    }
    // A label two sets share is not enough: the source goes with it.
    std::map<std::string, int> label_count;
    for (const auto& l : labels) ++label_count[l];
    for (std::size_t i = 0; i < sets.size(); ++i)
        if (label_count[labels[i]] > 1 && labels[i] != sources[i]) labels[i] += ", " + sources[i];
    std::vector<Point> out;
    for (std::size_t i = 0; i < sets.size(); ++i)
        for (auto& p : sets[i].points) {
            if (sets_with[p.name] > 1) p.name += " (" + labels[i] + ")";
            out.push_back(std::move(p));
        }
    return out;
}

std::vector<Point> load_point_sets(const std::vector<StoredSource>& sources, StoreAccess& access,
                                   std::string_view missing_hint, bool required,
                                   std::vector<std::string>* interrupted,
                                   std::vector<std::pair<std::string, Provenance>>* provenances) {
    std::vector<PointsDocument> sets;
    std::vector<std::string> names;
    for (const auto& source : sources) {
        auto set = load_point_set(source, access, missing_hint, required);
        if (!set) continue;
        sets.push_back(std::move(*set));
        names.push_back(source.stored ? (source.id ? fmt::format("stored:{}", *source.id) : std::string(kStored))
                                      : std::filesystem::path(source.path).filename().string());
        if (provenances && sets.back().provenance) provenances->emplace_back(names.back(), *sets.back().provenance);
        if (!interrupted || !sets.back().provenance) continue;
        const std::string where = !source.stored ? source.path
                                  : source.id    ? fmt::format("stored point set #{}", *source.id)
                                                 : std::string("the latest stored point set");
        if (const auto by = interrupted_by(*sets.back().provenance))
            interrupted->push_back(by->empty() ? fmt::format("{} (interrupted)", where)
                                               : fmt::format("{} (interrupted by {})", where, *by));
        else if (const auto signal = killed_by(*sets.back().provenance))  // a crash: as partial as an interrupt
            interrupted->push_back(fmt::format("{} (the program was killed by {})", where, *signal));
    }
    return combine_point_sets(std::move(sets), names);
}

} // namespace roofline::cli
