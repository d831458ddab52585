// The results store's logical layout, the same in every back end (SQLite,
// PostgreSQL): its version, how a writer brings a store up to it, what a reader
// accepts, and the messages that say why not. The tables themselves, and every
// statement both back ends run, are written once in store_queries.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::store_schema {

// Version of the table layout (not of the JSON inside): bump on a breaking change.
// 1: meta, machines. 2: + point_sets (created on open, so a version-1 store is upgraded in place).
// Additions that older readers can ignore do not bump it: measurement_cache (created on open
// by a writer; a reader without it finds nothing cached), and ids that are never given twice
// (a writer rebuilds SQLite's id tables with AUTOINCREMENT, Migration::never_reuse_ids: a rule
// SQLite keeps for every program that inserts, so an older roofline writing the store keeps it
// too, and a bump would only lock older rooflines out of a store they read and write correctly).
constexpr int version = 2;

// What a database (or a PostgreSQL schema) holds, as far as telling a roofline
// store from another program's.
struct Layout {
    std::vector<std::string> tables;
    bool empty = true;  // nothing in it (no tables, indexes, views, sequences): a new store

    bool has(const char* name) const;
    bool is_store() const { return has("meta") && has("machines"); }
};

// The steps of a writer's open, which each back end's SQL carries out inside one
// write transaction (under its lock, so two first writers do not both create).
class Migration {
public:
    virtual ~Migration() = default;
    virtual Layout layout() = 0;
    // Every table of the current layout that is missing (store_queries' create_tables).
    virtual void create_missing_tables() = 0;
    // Makes sure that ids removed are never given again: tables written by an older roofline
    // without that rule get it, keeping their rows and ids.
    virtual void never_reuse_ids() = 0;
    // The version in meta (written first if absent: a new store is at `version`).
    virtual int version_or_insert_current() = 0;
    virtual void set_version(int to) = 0;
};

// The layout version as meta stores it (text): a positive integer, else the store is damaged
// or another program's; throws std::runtime_error naming `name` (read as 0, a writer would
// "upgrade" it and write over what is there).
int parse_version(const std::string& text, const std::string& name);

// A writer's open: refuses another program's database (nothing of ours is written
// into it) and a newer layout; creates a new store; upgrades an older one. `name`
// is the store as messages show it.
void migrate(Migration& steps, const std::string& name);

// A reader's open: refuses what is not a store or has a newer layout; changes nothing.
// `found_version` is meta's value (0 when absent).
void check_readable(const Layout& layout, int found_version, const std::string& name);

[[noreturn]] void newer_layout(const std::string& name, int found);
[[noreturn]] void not_a_store(const std::string& name, const Layout& layout);

// An error of one results database that names it once: what() is "results database NAME:
// REASON"; reason() what follows the name, for a message that names the database itself
// ("cannot write results database NAME: REASON"), so the name is not said twice.
class StoreFailure : public std::runtime_error {
public:
    StoreFailure(const std::string& name, std::string reason);
    const std::string& reason() const { return reason_; }

private:
    std::string reason_;
};

// A lock still held after `waited`: "it is locked by another process (still busy after N s):
// try again when it has finished (DETAIL)"; `detail`: the failure's reason (without the name).
std::string locked_reason(std::chrono::milliseconds waited, const std::string& detail);

// Now, as the `created` column stores it (ISO 8601 UTC, seconds).
std::string now_utc_iso8601();

} // namespace roofline::store_schema
