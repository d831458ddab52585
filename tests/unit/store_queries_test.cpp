// The store's statements are written once and rendered per back end: each back end
// must still send exactly what it sent when it had its own copy (issue 34).
#include "io/store_queries.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {

const store_queries::Queries& sqlite() {
    static const auto q = store_queries::render(store_queries::sqlite);
    return q;
}
const store_queries::Queries& postgresql() {
    static const auto q = store_queries::render(store_queries::postgresql);
    return q;
}

} // namespace

TEST(StoreQueries, ParametersTakeEachDialectsMark) {
    EXPECT_EQ(sqlite().machine_by_id, "SELECT id, json FROM machines WHERE id = ?1");
    EXPECT_EQ(postgresql().machine_by_id, "SELECT id, json FROM machines WHERE id = $1");
    EXPECT_EQ(sqlite().cached_measurement, "SELECT point_set_id, point_index FROM measurement_cache WHERE key = ?1");
    EXPECT_EQ(postgresql().cached_measurement,
              "SELECT point_set_id, point_index FROM measurement_cache WHERE key = $1");
    EXPECT_EQ(sqlite().machine_exists, "SELECT id FROM machines WHERE id = ?1");
    EXPECT_EQ(postgresql().machine_exists, "SELECT id FROM machines WHERE id = $1");
    EXPECT_EQ(postgresql().set_version, "UPDATE meta SET value = $1 WHERE key = 'store_schema_version'");
    // A statement without parameters is the same text in both.
    EXPECT_EQ(sqlite().newest_point_set, postgresql().newest_point_set);
    EXPECT_EQ(sqlite().newest_point_set, "SELECT id, json FROM point_sets ORDER BY id DESC LIMIT 1");
}

// roofline remove: a set's cache entries before the set, a machine's sets unlinked before it
// (PostgreSQL enforces the REFERENCES; SQLite, without PRAGMA foreign_keys, would leave them dangling).
TEST(StoreQueries, RemovingRowsKeepsNoReferenceToThem) {
    EXPECT_EQ(sqlite().forget_set_measurements, "DELETE FROM measurement_cache WHERE point_set_id = ?1");
    EXPECT_EQ(postgresql().forget_set_measurements, "DELETE FROM measurement_cache WHERE point_set_id = $1");
    EXPECT_EQ(postgresql().delete_point_set, "DELETE FROM point_sets WHERE id = $1");
    EXPECT_EQ(sqlite().unlink_machine, "UPDATE point_sets SET machine_id = NULL WHERE machine_id = ?1");
    EXPECT_EQ(postgresql().delete_machine, "DELETE FROM machines WHERE id = $1");
    EXPECT_EQ(postgresql().count_set_measurements, "SELECT count(*) FROM measurement_cache WHERE point_set_id = $1");
    EXPECT_EQ(sqlite().sets_of_machine, "SELECT id FROM point_sets WHERE machine_id = ?1 ORDER BY id");
}

TEST(StoreQueries, OnlyPostgresqlInsertsReturnTheId) {
    EXPECT_EQ(sqlite().insert_machine, "INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, "
                                       "json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    EXPECT_EQ(postgresql().insert_machine, "INSERT INTO machines (created, hostname, cpu_model, mode, partial, "
                                           "schema, json) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id");
    EXPECT_EQ(sqlite().insert_point_set,
              "INSERT INTO point_sets (created, name, machine_id, point_count, json) VALUES (?1, ?2, ?3, ?4, ?5)");
    EXPECT_EQ(postgresql().insert_point_set, "INSERT INTO point_sets (created, name, machine_id, point_count, json) "
                                             "VALUES ($1, $2, $3, $4, $5) RETURNING id");
}

TEST(StoreQueries, UpsertsAreEachDialectsOwn) {
    EXPECT_EQ(sqlite().insert_version,
              "INSERT OR IGNORE INTO meta (key, value) VALUES ('store_schema_version', ?1)");
    EXPECT_EQ(postgresql().insert_version,
              "INSERT INTO meta (key, value) VALUES ('store_schema_version', $1) ON CONFLICT (key) DO NOTHING");
    EXPECT_EQ(sqlite().remember_measurement,
              "INSERT OR REPLACE INTO measurement_cache (key, point_set_id, point_index) VALUES (?1, ?2, ?3)");
    EXPECT_EQ(postgresql().remember_measurement,
              "INSERT INTO measurement_cache (key, point_set_id, point_index) VALUES ($1, $2, $3) "
              "ON CONFLICT (key) DO UPDATE SET point_set_id = EXCLUDED.point_set_id, "
              "point_index = EXCLUDED.point_index");
}

TEST(StoreQueries, TablesTakeEachDialectsTypes) {
    const auto& lite = sqlite().create_tables;
    const auto& pg = postgresql().create_tables;
    // Ids the database assigns and never gives twice (SQLite's AUTOINCREMENT; a sequence).
    EXPECT_NE(lite.find("CREATE TABLE IF NOT EXISTS machines ( id INTEGER PRIMARY KEY AUTOINCREMENT,"),
              std::string::npos)
        << lite;
    EXPECT_NE(lite.find("CREATE TABLE IF NOT EXISTS point_sets ( id INTEGER PRIMARY KEY AUTOINCREMENT,"),
              std::string::npos)
        << lite;
    EXPECT_NE(lite.find(" key TEXT PRIMARY KEY, point_set_id INTEGER NOT NULL REFERENCES point_sets(id),"),
              std::string::npos)
        << lite;
    EXPECT_NE(pg.find("CREATE TABLE IF NOT EXISTS machines ( id BIGSERIAL PRIMARY KEY,"), std::string::npos) << pg;
    EXPECT_NE(pg.find(" key BYTEA PRIMARY KEY, point_set_id BIGINT NOT NULL REFERENCES point_sets(id),"),
              std::string::npos)
        << pg;
    EXPECT_NE(pg.find("CREATE TABLE IF NOT EXISTS point_sets ( id BIGSERIAL PRIMARY KEY,"), std::string::npos) << pg;
    // One table alone, under another name (SQLite's rebuild), is the same text.
    const auto machines = store_queries::create_table_as(store_queries::Table::machines, "machines",
                                                         store_queries::sqlite);
    EXPECT_NE(lite.find(machines), std::string::npos) << machines;
    EXPECT_EQ(store_queries::create_table_as(store_queries::Table::point_sets, "t2", store_queries::sqlite)
                  .rfind("CREATE TABLE IF NOT EXISTS t2 ( id INTEGER PRIMARY KEY AUTOINCREMENT,", 0),
              0u);
    // meta's key is text in both (the measurement cache's key is not).
    EXPECT_EQ(lite.substr(0, 75), pg.substr(0, 75));
}

TEST(StoreQueries, SqliteTakesTheWriteLockWhenAWriteBegins) {
    EXPECT_EQ(sqlite().begin_write, "BEGIN IMMEDIATE");
    EXPECT_EQ(postgresql().begin_write, "BEGIN");
    EXPECT_EQ(sqlite().commit, postgresql().commit);
    EXPECT_EQ(sqlite().rollback, postgresql().rollback);
}
