#include "io/results_store.hpp"

#include "core/message_name.hpp"

#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/postgres_store.hpp"
#include "io/sqlite_store.hpp"
#include "io/store_backend.hpp"
#include "io/store_schema.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <pwd.h>
#include <unistd.h>

namespace roofline {
namespace {

namespace fs = std::filesystem;

std::string env_or_empty(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

MachineModel parse_stored(const std::string& json_text, const std::string& name, std::int64_t id) {
    const auto source = fmt::format("{} (machine {})", message_name(name), id);
    nlohmann::json parsed;
    try {
        parsed = parse_json_bounded(json_text, fmt::format("{} (machine {})", name, id));  // a tampered store
    } catch (const nlohmann::json::parse_error& e) {
        throw SchemaError(fmt::format("{}: stored JSON is corrupt: {}", source, e.what()));
    }
    return machine_from_json(parsed, source);
}

PointsDocument parse_stored_points(const std::string& json_text, const std::string& name, std::int64_t id) {
    const auto source = fmt::format("{} (point set {})", message_name(name), id);
    nlohmann::json parsed;
    try {
        parsed = parse_json_bounded(json_text, fmt::format("{} (point set {})", name, id));  // a tampered store
    } catch (const nlohmann::json::parse_error& e) {
        throw SchemaError(fmt::format("{}: stored JSON is corrupt: {}", source, e.what()));
    }
    return points_document_from_json(parsed, source);
}

std::unique_ptr<StoreBackend> open_writer(const std::string& location, bool create_parent_dirs) {
    check_store_location(location);
    if (is_postgres_url(location)) return open_postgres_store(location, PostgresAccess::write);
    return open_sqlite_store(location, create_parent_dirs);
}

std::unique_ptr<StoreBackend> open_reader(const std::string& location) {
    check_store_location(location);
    if (is_postgres_url(location)) return open_postgres_store(location, PostgresAccess::read_only);
    return open_sqlite_store_read_only(location);
}

} // namespace

std::unique_ptr<ResultsStore> ResultsStore::open_db_option(const std::string& db_option) {
    const bool is_default = db_option.empty();
    return std::make_unique<ResultsStore>(is_default ? default_path() : db_option, is_default);
}

std::string ResultsStore::default_path() {
    if (auto explicit_path = env_or_empty("ROOFLINE_DB"); !explicit_path.empty()) {
        return explicit_path;
    }
    // XDG base directory spec: relative values are invalid and must be ignored.
    if (auto data_home = env_or_empty("XDG_DATA_HOME"); !data_home.empty() && data_home[0] == '/') {
        return (fs::path(data_home) / "roofline" / "results.db").string();
    }
    std::string home = env_or_empty("HOME");
    if (home.empty()) {
        if (const passwd* entry = ::getpwuid(::getuid()); entry && entry->pw_dir) home = entry->pw_dir;
    }
    const fs::path base = home.empty() ? fs::current_path() : fs::path(home);
    // The store's directories are created under the home directory, never the home directory itself:
    // HOME=/nonexistent must not make /nonexistent/.local/... appear at the root.
    std::error_code ec;
    if (!home.empty() && !fs::is_directory(base, ec))
        throw std::runtime_error(fmt::format("the default results store lives in your home directory, but {} is not a "
                                             "directory: set HOME, or name the store with --db FILE or ROOFLINE_DB",
                                             home));
    return (base / ".local" / "share" / "roofline" / "results.db").string();
}

ResultsStore::ResultsStore(const std::string& location, bool create_parent_dirs)
    : ResultsStore(open_writer(location, create_parent_dirs), store_display_name(location)) {}

ResultsStore::ResultsStore(std::unique_ptr<StoreBackend> backend, std::string name)
    : backend_(std::move(backend)), name_(std::move(name)) {}

ResultsStore::~ResultsStore() = default;

std::unique_ptr<ResultsStore> ResultsStore::open_read_only(const std::string& location) {
    return std::unique_ptr<ResultsStore>(new ResultsStore(open_reader(location), store_display_name(location)));
}

void check_store_writable(const std::string& db_option) {
    const bool is_default = db_option.empty();
    const std::string location = is_default ? ResultsStore::default_path() : db_option;
    check_store_location(location);
    if (is_postgres_url(location)) check_postgres_store_writable(location);
    else check_sqlite_store_writable(location, is_default);
}

std::int64_t ResultsStore::save_machine(const MachineModel& model) {
    MachineRow row;
    row.json = machine_to_json(model).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    row.created = store_schema::now_utc_iso8601();
    row.hostname = model.environment.hostname;
    row.cpu_model = model.cpu.model;
    row.mode = std::string(model.environment.mode ? bench_mode_name(*model.environment.mode) : "");
    row.partial = model.partial;
    row.schema = model.schema;
    return backend_->insert_machine(row);
}

std::optional<MachineModel> ResultsStore::latest_machine() const {
    const auto row = backend_->machine_json(std::nullopt);
    if (!row) return std::nullopt;
    return parse_stored(row->json, name_, row->id);
}

std::optional<MachineModel> ResultsStore::machine(std::int64_t id) const {
    const auto row = backend_->machine_json(id);
    if (!row) return std::nullopt;
    return parse_stored(row->json, name_, row->id);
}

// Oldest first (ascending id), like a log.
std::vector<StoredMachine> ResultsStore::list_machines(bool read_models) const {
    auto rows = backend_->list_machines();
    if (!read_models) return rows;
    for (auto& row : rows) {
        try {
            if (const auto model = machine(row.id)) row.completeness = completeness_of(*model);
        } catch (const std::exception& e) {  // one damaged or newer row must not hide the others
            row.unreadable = e.what();
        }
    }
    return rows;
}

std::int64_t ResultsStore::save_points(const std::string& name, const std::vector<Point>& points,
                                       std::optional<std::int64_t> machine_id, const Provenance* provenance,
                                       const std::vector<std::string>* cache_keys) {
    const auto document = points_to_json(points, provenance);
    // Refuse now what latest_points() would refuse later (NaN, empty names ...).
    points_from_json(document, fmt::format("points '{}' being stored", name));
    PointSetRow row;
    // Invalid UTF-8 (a symbol, a command line) becomes U+FFFD rather than losing the results.
    row.json = document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    row.created = store_schema::now_utc_iso8601();
    row.name = name;
    row.machine_id = machine_id;
    row.point_count = static_cast<std::int64_t>(points.size());
    std::vector<std::pair<std::string, std::int64_t>> cache;
    for (std::size_t i = 0; cache_keys && i < cache_keys->size() && i < points.size(); ++i)
        if (!(*cache_keys)[i].empty()) cache.emplace_back((*cache_keys)[i], static_cast<std::int64_t>(i));
    return backend_->insert_point_set(row, cache);
}

std::optional<Point> ResultsStore::cached_point(const std::string& key) const {
    const auto where = backend_->cache_entry(key);
    if (!where) return std::nullopt;
    auto set = points(where->point_set_id);
    if (!set || where->point_index < 0 || static_cast<std::size_t>(where->point_index) >= set->size())
        return std::nullopt;
    return (*set)[static_cast<std::size_t>(where->point_index)];
}

std::optional<std::vector<Point>> ResultsStore::latest_points() const {
    auto doc = point_set(std::nullopt);
    if (!doc) return std::nullopt;
    return std::move(doc->points);
}

std::optional<std::vector<Point>> ResultsStore::points(std::int64_t id) const {
    auto doc = point_set(id);
    if (!doc) return std::nullopt;
    return std::move(doc->points);
}

std::optional<PointsDocument> ResultsStore::point_set(std::optional<std::int64_t> id) const {
    const auto row = backend_->point_set_json(id);
    if (!row) return std::nullopt;
    return parse_stored_points(row->json, name_, row->id);
}

std::vector<StoredPointSet> ResultsStore::list_point_sets(bool read_sets) const {
    auto rows = backend_->list_point_sets();
    if (!read_sets) return rows;
    for (auto& row : rows) {
        // The provenance alone: a listing need not check every point (show and report do).
        try {
            const auto stored = backend_->point_set_json(row.id);
            if (!stored) continue;  // removed meanwhile
            const auto document = parse_json_bounded(stored->json, fmt::format("{} (point set {})", name_, row.id));
            const auto provenance = document.find("provenance");
            if (provenance == document.end() || !provenance->is_object()) continue;
            const auto host = provenance->find("host");
            if (host != provenance->end() && host->is_string()) row.hostname = host->get<std::string>();
        } catch (const std::exception&) {  // one damaged row must not hide the others; its host stays unknown
        }
    }
    return rows;
}

} // namespace roofline
