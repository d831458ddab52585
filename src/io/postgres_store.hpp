// The PostgreSQL back end of the results store (libpq): the same layout and
// migrations as the SQLite file (io/store_schema.hpp), for a store that many
// nodes and users write at once. The URL is libpq's
// (postgresql://[user[:password]@][host][:port][/dbname][?param=value&…]);
// the tables live in the connection's current schema, so one database can hold
// several stores (?options=-csearch_path%3DNAME). Messages show the URL without
// its password.
#pragma once

#include "io/store_backend.hpp"

#include <memory>
#include <string>

namespace roofline {

enum class PostgresAccess {
    write,      // creates the tables in an empty schema, upgrades an older layout
    read_only,  // reads; writes nothing, not even the schema (a read-only session)
};

// Connects (giving up after connect_timeout, 10 s unless the URL says otherwise) and
// checks the layout. Throws std::runtime_error naming the store: a bad URL, a server
// that does not answer, another program's tables, a newer layout; NoStoreError for a
// reader when the schema holds no roofline tables.
std::unique_ptr<StoreBackend> open_postgres_store(const std::string& url, PostgresAccess access);

// check_store_writable for a URL: connects, checks (creates) the schema, and that the
// server is not read-only and the role may insert, taking no lock for long.
void check_postgres_store_writable(const std::string& url);

} // namespace roofline
