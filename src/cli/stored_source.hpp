// Where a command's machine or points come from: a file, or the results store
// ("stored" for the latest row, "stored:ID" for row ID). Shared by plot and
// report (and model for the store), so the option syntax, the lazy store
// access and the "nothing stored" errors are the same everywhere.
#pragma once

#include "core/roofline.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/results_store.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::cli {

inline constexpr const char* kStored = "stored";

struct StoredSource {
    bool stored = false;
    std::optional<std::int64_t> id;  // stored only: the row, else the latest
    std::string path;                // a file only
    std::string noun = "machine";    // what the store's row is: "machine" or "point set" (from --points)
    // "stored machine #3", "the latest stored point set", or the file.
    std::string display() const;
};

// Throws UsageError "--machine expects a file, 'stored' or 'stored:ID' (got '...')".
StoredSource parse_stored_source(const std::string& text, const char* option);

// Opens the results store read-only on first use. A missing database file is
// reported as "nothing stored" rather than created: these commands only read.
class StoreAccess {
public:
    explicit StoreAccess(std::string db) : explicit_path_(std::move(db)) {}

    // The given --db, else ResultsStore::default_path().
    const std::string& path();
    // path() as messages show it (a PostgreSQL URL without its password).
    std::string display();
    // Null when the database file does not exist (a PostgreSQL database: has no
    // roofline tables); throws when it cannot be read.
    ResultsStore* store();
    // display(), saying so when the store does not exist.
    std::string where();

private:
    std::string explicit_path_;
    std::string path_;
    bool missing_ = false;
    std::unique_ptr<ResultsStore> store_;
};

// A file is a measured model (JSON) or a spec sheet (YAML); the store holds models.
// Nothing stored throws "no machine #N in the results store P", or for the latest
// "no machine model in the results store P: <missing_hint>".
MachineFile load_machine(const StoredSource& source, StoreAccess& access, std::string_view missing_hint);

// The machine a command judges points against (measure, report, plot, model), and
// what to tell the user about it.
struct JudgingMachine {
    MachineFile file;
    std::string display;             // as StoredSource::display(), or "stored machine #N" when one was skipped
    std::vector<std::string> notes;  // which model was used and why, what it lacks; empty when nothing to say
};

// As load_machine, but "the latest stored machine" means the latest complete one
// (core/model_completeness.hpp): newer memory-only, compute-only or interrupted
// models are skipped, and a note names them. When the store holds no complete
// model, the latest is used and a note says what it lacks. A file or stored:ID is
// used as given, with such a note when it is incomplete.
// `this_machine` (host, CPU model: measure's own run, or where report's and plot's points were
// measured): in a store several machines share, "the latest" is the latest of that host and CPU
// when the store holds one, a note naming the newer ones of other hosts passed over; when it
// holds none, the latest of any (the caller says whose roofs judge the points).
struct ThisMachine {
    std::string host, cpu;
    std::string whose = "this host's";  // in the note: "using stored machine #3, this host's (vm) latest ..."
};
// The host and CPU every point set that says agrees on ("the points' host's"); nullopt when none
// says, they differ, or a set is an MPI job's (several hosts).
std::optional<ThisMachine> machine_of_sets(const std::vector<std::pair<std::string, Provenance>>& sets);
JudgingMachine load_judging_machine(const StoredSource& source, StoreAccess& access, std::string_view missing_hint,
                                    const std::optional<ThisMachine>& this_machine = std::nullopt);

// Points from a file or the store. Nothing stored: {} when not `required`, else
// throws "no point set #N in the results store P" or "no points in the results store P: <missing_hint>".
std::vector<Point> load_points(const StoredSource& source, StoreAccess& access, std::string_view missing_hint,
                               bool required = true);
// The same with the set's provenance (how it was measured), for show.
PointsDocument load_points_document(const StoredSource& source, StoreAccess& access, std::string_view missing_hint);

// Several point sets as one list (plot and report take --points more than once).
// Where sets share a point name ("(program)" of two programs), those points are
// told apart by their set: " (PROGRAM)" from its provenance's command, else its
// file name or stored ID, with both when that is still not enough.
// `interrupted`, when given, gets one entry per set from a run a signal stopped (its points are
// partial): "p.json (interrupted by SIGINT)", "stored:4 (interrupted by SIGTERM)".
// `provenances`, when given, gets each set that has one, named as above ("p.json", "stored:4"),
// to tell where its points were measured.
std::vector<Point> load_point_sets(const std::vector<StoredSource>& sources, StoreAccess& access,
                                   std::string_view missing_hint, bool required = true,
                                   std::vector<std::string>* interrupted = nullptr,
                                   std::vector<std::pair<std::string, Provenance>>* provenances = nullptr);

// The naming rule of load_point_sets, on sets already loaded (`sources`: each set's file name or
// "stored:ID"). Pure.
std::vector<Point> combine_point_sets(std::vector<PointsDocument> sets, const std::vector<std::string>& sources);

} // namespace roofline::cli
