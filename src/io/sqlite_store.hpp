// The SQLite back end of the results store: one file, the embedded default.
// Safe for several processes writing at once on a local file system (WAL + busy
// timeout + retries); not on a network file system, where the PostgreSQL back
// end is the store to share.
#pragma once

#include "io/store_backend.hpp"

#include <memory>
#include <string>

namespace roofline {

// Opens a writer (creating the file and schema, upgrading an older layout).
// `create_parent_dirs` is true for the default location only: a user-given path
// in a missing directory is an error. Throws std::runtime_error with a clear message.
std::unique_ptr<StoreBackend> open_sqlite_store(const std::string& path, bool create_parent_dirs);

// Opens an existing store for reading only: nothing is created or migrated; a
// WAL reader never waits for a writer. Throws NoStoreError when the file does not
// exist, std::runtime_error when it is not a store, has a newer layout, or is locked
// by a non-WAL writer for more than a few seconds.
std::unique_ptr<StoreBackend> open_sqlite_store_read_only(const std::string& path);

// check_store_writable for a file: directory and file writable, schema readable
// (created if missing), the write lock taken within seconds and let go.
void check_sqlite_store_writable(const std::string& path, bool is_default);

} // namespace roofline
