// What a `--db` value names: a SQLite file (the embedded default), or a
// PostgreSQL server by URL (postgresql://… or postgres://…), for stores that
// many nodes and users write at once.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// True when `db` is a PostgreSQL URL; anything else is a SQLite path.
bool is_postgres_url(std::string_view db);

// Why `db` names no store we can open, or "" when it can be one: a URL of another
// scheme (mysql://, file://, http://…) is not a SQLite file of that odd name, and
// an empty name is no file at all.
std::string store_location_problem(std::string_view db);

// Throws std::invalid_argument with store_location_problem(db), when there is one.
void check_store_location(std::string_view db);

// `db` as messages show it: a URL without its password (neither the one in
// user:password@ nor a password= parameter); a path unchanged.
std::string store_display_name(std::string_view db);

// The passwords written in a URL (user:password@, password=…), raw as typed, so
// that a message echoing part of the URL (libpq quotes a bad parameter) can be
// scrubbed of them. Empty for a path.
std::vector<std::string> store_url_secrets(std::string_view db);

// A reader found no store at the location (no file; a PostgreSQL database or schema
// without roofline tables): "no results store at NAME". Commands that only read
// list such a store as empty; nothing is created.
class NoStoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace roofline
