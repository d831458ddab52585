#include "io/results_store.hpp"

#include "core/command_series.hpp"
#include "core/message_name.hpp"

#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/postgres_store.hpp"
#include "io/sqlite_store.hpp"
#include "io/store_backend.hpp"
#include "io/store_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string_view>
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

// A stored row: which, and what to do about one that cannot be read.
struct StoredRow {
    const char* noun;    // "machine", "point set"
    const char* table;   // "machines", "point_sets"
    const char* option;  // "--machine", "--points"
    std::int64_t id;
};

// The command that removes the row (its JSON is not read, so a damaged row goes too): a
// set's measurement-cache entries go with it; a machine's sets stay, no longer naming it.
// The store is opened to say this, so `roofline remove` can open it (the SQL it replaces
// needed the sqlite3 or psql program and the layout's details).
std::string remove_command(const std::string& store, const StoredRow& row) {
    return fmt::format("roofline remove {} {} --db {}", row.option, row.id, command_line_text({store}));
}

// Where the row is, for the start of a message: "results store r.db: point set 2 (table point_sets, id 2)".
std::string row_place(const std::string& store, const StoredRow& row) {
    return fmt::format("results store {}: {} {} (table {}, id {})", message_name(store), row.noun, row.id, row.table,
                       row.id);
}

std::string what_to_do(const std::string& store, const StoredRow& row) {
    return fmt::format("use another {} ({} stored:ID; 'roofline list' shows them), or remove this one: {}", row.noun,
                       row.option, remove_command(store, row));
}

// A few bytes of stored text around `at`, control bytes and quotes escaped, for a message.
std::string text_near(const std::string& text, std::size_t at) {
    const std::size_t from = at > 12 ? at - 12 : 0;
    std::string out;
    for (std::size_t i = from; i < text.size() && i < from + 28; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f || c >= 0x80 || c == '\'' || c == '\\') out += fmt::format("\\x{:02x}", c);
        else out += static_cast<char>(c);
    }
    return out;
}

// What is wrong with a stored JSON text nlohmann refused, in plain words: "is empty", "is not
// valid JSON at byte 1 of 7 (near 'garbage')", "ends at byte 4, before the document is complete
// (cut short)".
std::string json_text_problem(const std::string& text, const nlohmann::json::exception& e) {
    if (text.empty()) return "is empty";
    if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
        if (parse->byte > text.size())
            return fmt::format("ends at byte {}, before the document is complete (cut short)", text.size());
        const std::size_t at = parse->byte > 0 ? parse->byte - 1 : 0;  // nlohmann counts from 1
        return fmt::format("is not valid JSON at byte {} of {} (near '{}')", at + 1, text.size(), text_near(text, at));
    }
    // out_of_range.406 "number overflow parsing '1e400'", and the like: the words after the tag.
    std::string_view detail = e.what();
    if (const auto bracket = detail.find("] "); bracket != std::string_view::npos) detail.remove_prefix(bracket + 2);
    return fmt::format("cannot be read as JSON: {}", detail);
}

// The stored JSON text of a row parsed, or a SchemaError that says where the row is, what is
// wrong in plain words and what to do; nlohmann's own words ("[json.exception.parse_error.101]
// parse error at line 1, column 1: syntax error while parsing value - invalid literal; last
// read: 'g'") were all it said.
nlohmann::json parse_stored_json(const std::string& json_text, const std::string& store, const StoredRow& row) {
    std::string problem;
    if (json_nested_too_deep(json_text)) {
        problem = fmt::format("is {}", json_depth_problem());
    } else {
        try {
            return nlohmann::json::parse(json_text);
        } catch (const nlohmann::json::exception& e) {
            problem = json_text_problem(json_text, e);
        }
    }
    throw SchemaError(fmt::format("{} is damaged: its JSON text {}. The store's other rows can still be read: {}",
                                  row_place(store, row), problem, what_to_do(store, row)));
}

// A document read from a row: a shape the reader refuses (a key missing, a schema of another
// version) is said with the row's place and what to do.
template <class Read>
auto read_stored(const nlohmann::json& parsed, const std::string& store, const StoredRow& row, Read read) {
    try {
        return read(parsed, row_place(store, row));
    } catch (const SchemaError& e) {
        throw SchemaError(fmt::format("{}. The row cannot be read (damaged, or written by another version of "
                                      "roofline): {}",
                                      e.what(), what_to_do(store, row)));
    }
}

MachineModel parse_stored(const std::string& json_text, const std::string& name, std::int64_t id) {
    const StoredRow row{"machine", "machines", "--machine", id};
    return read_stored(parse_stored_json(json_text, name, row), name, row,
                       [](const nlohmann::json& j, const std::string& source) { return machine_from_json(j, source); });
}

PointsDocument parse_stored_points(const std::string& json_text, const std::string& name, std::int64_t id) {
    const StoredRow row{"point set", "point_sets", "--points", id};
    return read_stored(parse_stored_json(json_text, name, row), name, row, [](const nlohmann::json& j, const std::string& source) {
        return points_document_from_json(j, source);
    });
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
        std::optional<StoredJson> stored;
        try {
            stored = backend_->point_set_json(row.id);
        } catch (const std::exception&) {  // one row that cannot be fetched must not hide the others
            continue;
        }
        if (!stored) continue;  // removed meanwhile
        try {
            const auto document = parse_stored_json(stored->json, name_, {"point set", "point_sets", "--points", row.id});
            const auto provenance = document.find("provenance");
            if (provenance == document.end() || !provenance->is_object()) continue;
            const auto host = provenance->find("host");
            if (host != provenance->end() && host->is_string()) row.hostname = host->get<std::string>();
        } catch (const SchemaError& e) {  // its JSON is damaged: listed as such, the others as they are
            row.unreadable = e.what();
            if (row.damaged.empty()) row.damaged = "damaged row: its JSON cannot be read";
        }
    }
    return rows;
}

RemovedRows ResultsStore::remove_rows(const std::vector<std::int64_t>& machine_ids,
                                      const std::vector<std::int64_t>& point_set_ids, bool write) {
    // An id given twice is removed once.
    const auto distinct = [](const std::vector<std::int64_t>& ids) {
        std::vector<std::int64_t> out;
        for (const std::int64_t id : ids)
            if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
        return out;
    };
    return backend_->remove_rows(distinct(machine_ids), distinct(point_set_ids), write);
}

} // namespace roofline
