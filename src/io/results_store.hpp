// The results store: one row per machine model and one per set of points.
// Two back ends with the same layout and migrations (io/store_schema.hpp):
// SQLite, one file, the embedded default; and PostgreSQL (a `--db` value that
// starts with postgresql:// or postgres://), for a store many nodes and users
// write at once (SQLite on a network file system is not safe with concurrent
// writers). Both are safe for several processes writing at once. Readers open
// it read-only: no schema write, so they work on a read-only file, directory or
// database role and never queue behind a writer for long.
#pragma once

#include "core/provenance.hpp"
#include "core/machine_model.hpp"
#include "core/roofline.hpp"
#include "core/stored_entries.hpp"
#include "io/points_json.hpp"
#include "io/store_location.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

class StoreBackend;

class ResultsStore {
public:
    // Default location: $ROOFLINE_DB (a path or a PostgreSQL URL), else
    // $XDG_DATA_HOME/roofline/results.db, else ~/.local/share/roofline/results.db.
    static std::string default_path();
    // Opens the store a `--db` option names: empty means the default location
    // (its directories are created), a postgresql:// URL a PostgreSQL database,
    // anything else a file in an existing directory.
    static std::unique_ptr<ResultsStore> open_db_option(const std::string& db_option);

    // Opens (creating the file or tables and schema). `location` is a SQLite path or a
    // PostgreSQL URL. `create_parent_dirs` is true for the default location only: a
    // user-given path in a missing directory is an error. Throws std::runtime_error
    // with a clear message (a URL shown without its password).
    explicit ResultsStore(const std::string& location, bool create_parent_dirs = false);
    // Opens an existing store for reading only: nothing is created or migrated.
    // Throws NoStoreError "no results store at NAME" when there is none (no file; a
    // database without roofline tables), std::runtime_error with a clear message when
    // it is not a roofline store, has a newer layout, cannot be reached, or is locked
    // by a writer for more than a few seconds.
    static std::unique_ptr<ResultsStore> open_read_only(const std::string& location);
    ~ResultsStore();
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;

    std::int64_t save_machine(const MachineModel& model);
    std::optional<MachineModel> latest_machine() const;
    std::optional<MachineModel> machine(std::int64_t id) const;
    // Oldest first. With `read_models`, each model is read too, for what it holds
    // (StoredMachine::completeness; a row that cannot be read says why, and is listed).
    std::vector<StoredMachine> list_machines(bool read_models = false) const;

    // A set of points (one measurement run, one kernel sweep, one model) is one row.
    // `provenance` (what was run, where, when) is stored with the points.
    // `cache_keys` (one per point, "" for none): the points are also remembered under these
    // keys for cached_point, in the same transaction.
    std::int64_t save_points(const std::string& name, const std::vector<Point>& points,
                             std::optional<std::int64_t> machine_id = {}, const Provenance* provenance = nullptr,
                             const std::vector<std::string>* cache_keys = nullptr);
    // The measurement cache: the point last stored under `key` (what was measured, how, with
    // which build on which machine: the caller makes the key); nullopt when none.
    std::optional<Point> cached_point(const std::string& key) const;
    std::optional<std::vector<Point>> latest_points() const;
    std::optional<std::vector<Point>> points(std::int64_t id) const;
    // Set `id` (nullopt: the latest) with its provenance.
    std::optional<PointsDocument> point_set(std::optional<std::int64_t> id) const;
    // Oldest first. With `read_sets`, each set's provenance is read too, for the host it was
    // measured on (StoredPointSet::hostname; left empty where it cannot be read).
    std::vector<StoredPointSet> list_point_sets(bool read_sets = false) const;
    // Removes machines and point sets (distinct ids) in one transaction: a set's
    // measurement-cache entries go with it; a machine's sets stay, no longer naming it.
    // With `write` false (a dry run; works on a read-only open) only says what would go.
    // When any id is not stored, nothing is removed and the result names the unknown ones.
    RemovedRows remove_rows(const std::vector<std::int64_t>& machine_ids,
                            const std::vector<std::int64_t>& point_set_ids, bool write = true);
    // The store as messages show it: the path, or the URL without its password.
    const std::string& path() const { return name_; }

private:
    ResultsStore(std::unique_ptr<StoreBackend> backend, std::string name);

    std::unique_ptr<StoreBackend> backend_;
    std::string name_;
};

// Checks up front, cheaply, that a writer can use the store a `--db` option
// names (empty: the default location, whose directories are created). A file:
// the directory exists and is writable, the file (created with the schema if
// missing) is a roofline store of a layout we understand, and its write lock
// can be taken within a few seconds. A PostgreSQL URL: the server answers, the
// schema is there (created if missing) in a layout we understand, the server is
// not read-only and the role may write the tables (no lock held for long).
// Writes no rows. Throws std::runtime_error with a message naming the store and
// the problem.
void check_store_writable(const std::string& db_option);

} // namespace roofline
