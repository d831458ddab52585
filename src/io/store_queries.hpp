// Every SQL statement that both results-store back ends run, written once
// (store_queries.cpp), and the dialect each back end renders them in: only what
// truly differs between SQLite and PostgreSQL is in a Dialect.
//
// To add a query: add a member to Queries, write its SQL once in render() with
// ?1, ?2 ... for its parameters, and run it from both back ends
// (sqlite_store.cpp, postgres_store.cpp). A statement only one back end has (its
// catalog, SQLite's PRAGMAs, PostgreSQL's locks and privileges) stays in that
// back end's file.
#pragma once

#include <string>
#include <string_view>

namespace roofline::store_queries {

// Each back end's words for the column types the layout uses.
struct SqlTypes {
    const char* generated_id;  // an integer primary key the database assigns, never one it gave before
    const char* integer;       // 64-bit
    const char* key;           // the measurement cache's key: any bytes, found again exactly
};

// What differs between the back ends' SQL.
struct Dialect {
    // Parameters are written ?1, ?2 ... once; a back end's are SQLite's ?1 or PostgreSQL's $1.
    char parameter_mark;
    SqlTypes types;
    // An INSERT gives the new row's id with RETURNING id (PostgreSQL); without it the
    // back end asks its driver in the same transaction (SQLite's last_insert_rowid:
    // SQLite has RETURNING only since 3.35).
    bool insert_returns_id;
    // An INSERT that meets a row with the same key keeps or replaces it: SQLite's
    // INSERT OR IGNORE / INSERT OR REPLACE, or the standard ON CONFLICT clause (PostgreSQL).
    bool insert_or_ignore_replace;
    // How a write transaction begins. SQLite takes the write lock up front (IMMEDIATE),
    // so two writers queue on it instead of deadlocking on an upgrade; PostgreSQL locks
    // rows as it writes (and its migration takes an advisory lock, postgres_store.cpp).
    const char* begin_write;
};

// INTEGER PRIMARY KEY is SQLite's rowid; its INTEGER is 64-bit, its TEXT keeps any bytes.
// AUTOINCREMENT: without it a new row takes the highest id + 1, so removing the newest
// machine gave its id to the next one ('stored:2' then named another machine); with it
// SQLite keeps the highest id ever given (sqlite_sequence) and never gives one twice.
inline constexpr Dialect sqlite{
    '?', {"INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "TEXT"}, false, true, "BEGIN IMMEDIATE"};
// BIGSERIAL: the server assigns ids from a sequence, which never gives a value twice (nor
// takes one back when an insert rolls back); bytea keys hold any bytes (text refuses NUL).
inline constexpr Dialect postgresql{'$', {"BIGSERIAL PRIMARY KEY", "BIGINT", "BYTEA"}, true, false, "BEGIN"};

// The statements, rendered in one dialect. Parameters and result columns in order.
struct Queries {
    // The layout (store_schema.hpp) as one script of CREATE TABLE IF NOT EXISTS
    // statements: the one place the tables and their columns are written.
    std::string create_tables;
    // The layout version in meta: read (-> value); written if absent (?1 version); upgraded (?1 version).
    std::string read_version;
    std::string insert_version;
    std::string set_version;

    // ?1 created, ?2 hostname, ?3 cpu_model, ?4 mode, ?5 partial, ?6 schema, ?7 json (-> id where
    // the dialect's insert returns it).
    std::string insert_machine;
    // ?1 created, ?2 name, ?3 machine_id (NULL for none), ?4 point_count, ?5 json (-> id, as above).
    std::string insert_point_set;
    // ?1 key, ?2 point_set_id, ?3 point_index: the newest set wins a key.
    std::string remember_measurement;
    // ?1 machine id -> id, when stored: checked in a point set's insert transaction, so
    // that a set never names a machine removed meanwhile (PostgreSQL locks it: FOR KEY SHARE).
    std::string machine_exists;

    // A stored document -> id, json: by id (?1), or the newest (highest id).
    std::string machine_by_id;
    std::string newest_machine;
    std::string point_set_by_id;
    std::string newest_point_set;
    // Oldest first -> id, created, hostname, cpu_model, mode, partial.
    std::string list_machines;
    // Oldest first -> id, created, name, machine_id, point_count.
    std::string list_point_sets;
    // ?1 key -> point_set_id, point_index.
    std::string cached_measurement;

    // Removing rows (roofline remove): a set's cache entries go with it; a machine's sets stay,
    // no longer naming it. ?1 point set id: count (-> n), forget its entries, delete it.
    std::string count_set_measurements;
    std::string forget_set_measurements;
    std::string delete_point_set;
    // ?1 machine id: its sets (-> id, oldest first), unlink them, delete it.
    std::string sets_of_machine;
    std::string unlink_machine;
    std::string delete_machine;

    // A write transaction.
    std::string begin_write;
    std::string commit;
    std::string rollback;
};

Queries render(const Dialect& dialect);

// The tables with ids the database assigns.
enum class Table { machines, point_sets };
// One of them, created under `name` (CREATE TABLE IF NOT EXISTS): SQLite's rebuild of a table
// written without AUTOINCREMENT (sqlite_store.cpp) creates the new table from the same text.
std::string create_table_as(Table table, std::string_view name, const Dialect& dialect);

} // namespace roofline::store_queries
