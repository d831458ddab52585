// The results store: SQLite, one row per machine model and one per set of points.
// Safe for several processes writing at once (WAL + busy timeout + retries).
// Readers open it read-only: no schema write, so they work on a read-only file
// or directory and never queue behind a writer for long.
#pragma once

#include "core/provenance.hpp"
#include "core/machine_model.hpp"
#include "core/roofline.hpp"
#include "core/stored_entries.hpp"
#include "io/points_json.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace roofline {

class ResultsStore {
public:
    // Default location: $ROOFLINE_DB, else $XDG_DATA_HOME/roofline/results.db,
    // else ~/.local/share/roofline/results.db.
    static std::string default_path();
    // Opens the store a `--db` option names: empty means the default location
    // (its directories are created), anything else must be in an existing directory.
    static std::unique_ptr<ResultsStore> open_db_option(const std::string& db_option);

    // Opens (creating the file and schema). `create_parent_dirs` is true for the
    // default location only: a user-given path in a missing directory is an error.
    // Throws std::runtime_error with a clear message.
    explicit ResultsStore(const std::string& path, bool create_parent_dirs = false);
    // Opens an existing store for reading only: nothing is created or migrated.
    // Throws std::runtime_error: "no results store at PATH" when the file does not
    // exist, or a clear message when it is not a roofline store, has a newer layout,
    // or is locked by a non-WAL writer for more than a few seconds.
    static std::unique_ptr<ResultsStore> open_read_only(const std::string& path);
    ~ResultsStore();
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;

    std::int64_t save_machine(const MachineModel& model);
    std::optional<MachineModel> latest_machine() const;
    std::optional<MachineModel> machine(std::int64_t id) const;
    std::vector<StoredMachine> list_machines() const;

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
    std::vector<StoredPointSet> list_point_sets() const;  // oldest first
    const std::string& path() const { return path_; }

private:
    struct ReadOnly {};
    ResultsStore(ReadOnly, const std::string& path);
    ResultsStore(const std::string& path, bool create_parent_dirs, std::chrono::milliseconds busy_wait);
    void close() noexcept;

    std::string path_;
    sqlite3* db_ = nullptr;
    bool read_only_ = false;
    bool has_point_sets_ = true;  // false only for a version-1 file opened read-only
    std::chrono::milliseconds busy_wait_;

    friend void check_store_writable(const std::string& db_option);
};

// Checks up front, cheaply, that a writer can use the store a `--db` option
// names (empty: the default location, whose directories are created): the
// directory exists and is writable, the file (created with the schema if
// missing) is a roofline store of a layout we understand, and its write lock
// can be taken within a few seconds. Writes no rows. Throws std::runtime_error
// with a message naming the path and the problem.
void check_store_writable(const std::string& db_option);

} // namespace roofline
