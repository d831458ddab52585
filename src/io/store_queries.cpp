#include "io/store_queries.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <string_view>
#include <vector>

namespace roofline::store_queries {
namespace {

// The statement with its parameters ?1, ?2 ... in the dialect's marks.
std::string marked(std::string_view sql, const Dialect& d) {
    std::string out(sql);
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
        if (out[i] == '?' && std::isdigit(static_cast<unsigned char>(out[i + 1]))) out[i] = d.parameter_mark;
    return out;
}

// "INSERT INTO table (columns) VALUES (...)" that gives the new row's id.
std::string insert_returning_id(std::string_view insert, const Dialect& d) {
    return marked(insert, d) + (d.insert_returns_id ? " RETURNING id" : "");
}

enum class OnKey { keep_old, replace };

// "INSERT INTO table (key, columns...) VALUES (...)" that meets a row already stored
// under `key`: keeps it, or replaces every other column with the new row's values.
std::string insert_on_key(std::string_view insert, std::string_view key, OnKey on_key, const Dialect& d) {
    std::string sql = marked(insert, d);
    constexpr std::string_view verb = "INSERT INTO ";
    if (d.insert_or_ignore_replace)
        return fmt::format("INSERT OR {} INTO {}", on_key == OnKey::keep_old ? "IGNORE" : "REPLACE",
                           sql.substr(verb.size()));
    if (on_key == OnKey::keep_old) return fmt::format("{} ON CONFLICT ({}) DO NOTHING", sql, key);
    // The insert's own column list names what to update.
    const auto open = sql.find('(');
    const auto close = sql.find(')', open);
    std::vector<std::string> updates;
    for (std::string_view columns = std::string_view(sql).substr(open + 1, close - open - 1); !columns.empty();) {
        const auto comma = columns.find(',');
        std::string_view column = columns.substr(0, comma);
        while (!column.empty() && column.front() == ' ') column.remove_prefix(1);
        if (column != key) updates.push_back(fmt::format("{0} = EXCLUDED.{0}", column));
        columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 1);
    }
    return fmt::format("{} ON CONFLICT ({}) DO UPDATE SET {}", sql, key, fmt::join(updates, ", "));
}

// The layout's tables, each written once: `name` is the table's name in the statement
// (another for SQLite's rebuild of a table, create_table_as).
std::string create_table(Table table, std::string_view name, const SqlTypes& t) {
    switch (table) {
    case Table::machines:
        return fmt::format("CREATE TABLE IF NOT EXISTS {} ("
                           " id {},"
                           " created TEXT NOT NULL,"
                           " hostname TEXT,"
                           " cpu_model TEXT,"
                           " mode TEXT,"
                           " partial INTEGER NOT NULL DEFAULT 0,"
                           " schema TEXT NOT NULL,"
                           " json TEXT NOT NULL);",
                           name, t.generated_id);
    case Table::point_sets:
        return fmt::format("CREATE TABLE IF NOT EXISTS {} ("
                           " id {},"
                           " created TEXT NOT NULL,"
                           " name TEXT NOT NULL,"
                           " machine_id {} REFERENCES machines(id),"
                           " point_count {} NOT NULL,"
                           " json TEXT NOT NULL);",
                           name, t.generated_id, t.integer, t.integer);
    }
    return {};
}

std::string create_tables(const SqlTypes& t) {
    return fmt::format("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                       "{}{}"
                       "CREATE TABLE IF NOT EXISTS measurement_cache ("
                       " key {} PRIMARY KEY,"
                       " point_set_id {} NOT NULL REFERENCES point_sets(id),"
                       " point_index {} NOT NULL);",
                       create_table(Table::machines, "machines", t), create_table(Table::point_sets, "point_sets", t),
                       t.key, t.integer, t.integer);
}

} // namespace

std::string create_table_as(Table table, std::string_view name, const Dialect& dialect) {
    return create_table(table, name, dialect.types);
}

Queries render(const Dialect& d) {
    const auto q = [&](std::string_view sql) { return marked(sql, d); };
    Queries out;
    out.create_tables = create_tables(d.types);
    out.read_version = q("SELECT value FROM meta WHERE key = 'store_schema_version'");
    out.insert_version = insert_on_key("INSERT INTO meta (key, value) VALUES ('store_schema_version', ?1)", "key",
                                       OnKey::keep_old, d);
    out.set_version = q("UPDATE meta SET value = ?1 WHERE key = 'store_schema_version'");

    out.insert_machine = insert_returning_id("INSERT INTO machines (created, hostname, cpu_model, mode, partial, "
                                             "schema, json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                             d);
    out.insert_point_set = insert_returning_id(
        "INSERT INTO point_sets (created, name, machine_id, point_count, json) VALUES (?1, ?2, ?3, ?4, ?5)", d);
    out.remember_measurement = insert_on_key(
        "INSERT INTO measurement_cache (key, point_set_id, point_index) VALUES (?1, ?2, ?3)", "key", OnKey::replace, d);

    out.machine_exists = q("SELECT id FROM machines WHERE id = ?1");
    out.machine_by_id = q("SELECT id, json FROM machines WHERE id = ?1");
    out.newest_machine = q("SELECT id, json FROM machines ORDER BY id DESC LIMIT 1");
    out.point_set_by_id = q("SELECT id, json FROM point_sets WHERE id = ?1");
    out.newest_point_set = q("SELECT id, json FROM point_sets ORDER BY id DESC LIMIT 1");
    out.list_machines = q("SELECT id, created, hostname, cpu_model, mode, partial FROM machines ORDER BY id");
    out.list_point_sets = q("SELECT id, created, name, machine_id, point_count FROM point_sets ORDER BY id");
    out.cached_measurement = q("SELECT point_set_id, point_index FROM measurement_cache WHERE key = ?1");

    out.count_set_measurements = q("SELECT count(*) FROM measurement_cache WHERE point_set_id = ?1");
    out.forget_set_measurements = q("DELETE FROM measurement_cache WHERE point_set_id = ?1");
    out.delete_point_set = q("DELETE FROM point_sets WHERE id = ?1");
    out.sets_of_machine = q("SELECT id FROM point_sets WHERE machine_id = ?1 ORDER BY id");
    out.unlink_machine = q("UPDATE point_sets SET machine_id = NULL WHERE machine_id = ?1");
    out.delete_machine = q("DELETE FROM machines WHERE id = ?1");

    out.begin_write = d.begin_write;
    out.commit = "COMMIT";
    out.rollback = "ROLLBACK";
    return out;
}

} // namespace roofline::store_queries
