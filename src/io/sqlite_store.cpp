#include "io/sqlite_store.hpp"

#include "core/message_name.hpp"

#include "io/store_location.hpp"
#include "io/store_queries.hpp"
#include "io/store_schema.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace roofline {
namespace {

namespace fs = std::filesystem;
using store_schema::Layout;

// busy_timeout covers ordinary lock waits; the retry loop covers the cases
// where SQLite returns BUSY without waiting (e.g. a read transaction that
// cannot be upgraded, WAL recovery, changing the journal mode).
constexpr int busy_timeout_ms = 30000;
constexpr auto retry_deadline = std::chrono::milliseconds(60000);
// A reader (WAL readers never wait for a writer) or an up-front check only
// waits this long for a lock held by a non-WAL writer, then says so.
constexpr auto sqlite_short_wait = std::chrono::milliseconds(3000);

// The statements both back ends run, in SQLite's dialect. An insert's id is asked of
// the connection (sqlite3_last_insert_rowid), inside the insert's transaction.
static_assert(!store_queries::sqlite.insert_returns_id);
const store_queries::Queries& sqlite_queries() {
    static const auto rendered = store_queries::render(store_queries::sqlite);
    return rendered;
}

bool is_busy(int rc) {
    const int primary = rc & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// A failure SQLite reported, with its result code (busy, read-only, ...).
class StoreError : public store_schema::StoreFailure {
public:
    StoreError(const std::string& path, std::string reason, int code)
        : StoreFailure(path, std::move(reason)), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// What to do about a file that is not a database, or a disk that is full, said once for every
// path. SQLite names a full disk only where it knew it was writing; creating the -wal and -shm
// files it needs even to read gives "disk I/O error", so the free space is looked at.
std::string damage_hint(int rc, const std::string& path) {
    const int primary = rc & 0xff;
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
        return " (the file is not a roofline results store or is damaged: move it aside or pass another --db)";
    if (primary != SQLITE_FULL && primary != SQLITE_IOERR) return {};
    std::error_code error;
    const auto parent = fs::absolute(fs::path(path), error).parent_path();
    const auto space = fs::space(parent, error);
    constexpr std::uintmax_t kNearlyFull = 1 << 20;  // less than SQLite's -wal and -shm files need
    if (!error && space.available < kNearlyFull)
        return fmt::format(" (the file system holding it has {} bytes free: SQLite cannot write its journal files, "
                           "which it needs even to read; free some space and run again)",
                           space.available);
    return primary == SQLITE_FULL ? " (the disk is full: free some space and run again)" : "";
}

[[noreturn]] void fail(sqlite3* db, const std::string& path, const std::string& doing, int rc) {
    const char* detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    throw StoreError(path, fmt::format("{} failed: {}{}", doing, detail, damage_hint(rc, path)), rc);
}

// Owns one prepared statement.
class Statement {
public:
    Statement(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
        const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
        if (rc != SQLITE_OK) fail(db, path, "preparing a query", rc);
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind(int index, const std::string& text) {
        check(sqlite3_bind_text(stmt_, index, text.c_str(), static_cast<int>(text.size()),
                                SQLITE_TRANSIENT));
    }
    void bind(int index, std::int64_t value) { check(sqlite3_bind_int64(stmt_, index, value)); }
    void bind(int index, std::optional<std::int64_t> value) {
        check(value ? sqlite3_bind_int64(stmt_, index, *value) : sqlite3_bind_null(stmt_, index));
    }

    // True while a row is available.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail(db_, path_, "a query", rc);
    }

    std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
    std::optional<std::int64_t> optional_integer(int column) const {
        if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
        return integer(column);
    }
    std::string text(int column) const {
        const auto* bytes = sqlite3_column_text(stmt_, column);
        if (!bytes) return {};
        return std::string(reinterpret_cast<const char*>(bytes),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
    }

private:
    void check(int rc) {
        if (rc != SQLITE_OK) fail(db_, path_, "binding a value", rc);
    }
    sqlite3* db_;
    const std::string& path_;
    sqlite3_stmt* stmt_ = nullptr;
};

void execute(sqlite3* db, const std::string& path, const char* sql, const char* doing) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        const std::string detail = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        throw StoreError(path, fmt::format("{} failed: {}{}", doing, detail, damage_hint(rc, path)), rc);
    }
}

// Runs `work` (one whole transaction, or one read) again while another
// process holds the lock; any other error goes straight to the caller.
template <typename Work>
auto with_retry(sqlite3* db, const std::string& path, std::chrono::milliseconds wait, Work work) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    auto pause = std::chrono::milliseconds(2);
    for (;;) {
        try {
            return work();
        } catch (const StoreError& e) {
            if (!is_busy(e.code())) throw;
            if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, sqlite_queries().rollback.c_str(), nullptr, nullptr, nullptr);
            if (std::chrono::steady_clock::now() > deadline)
                throw StoreError(path, store_schema::locked_reason(wait, e.reason()), e.code());
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::milliseconds(100));
        }
    }
}

// Begins a write transaction up front (IMMEDIATE), so two writers queue on the
// lock instead of deadlocking on an upgrade; rolls back unless committed.
class WriteTransaction {
public:
    WriteTransaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
        execute(db_, path_, sqlite_queries().begin_write.c_str(), "starting a write");
    }
    ~WriteTransaction() {
        if (!committed_) sqlite3_exec(db_, sqlite_queries().rollback.c_str(), nullptr, nullptr, nullptr);
    }
    void commit() {
        execute(db_, path_, sqlite_queries().commit.c_str(), "committing");
        committed_ = true;
    }

private:
    sqlite3* db_;
    const std::string& path_;
    bool committed_ = false;
};

Layout read_layout_of(sqlite3* db, const std::string& path) {
    Layout layout;
    Statement query(db, path, "SELECT type, name FROM sqlite_master");
    while (query.step()) {
        layout.empty = false;
        if (query.text(0) == "table") layout.tables.push_back(query.text(1));
    }
    return layout;
}

int read_version(sqlite3* db, const std::string& path) {
    Statement query(db, path, sqlite_queries().read_version.c_str());
    return query.step() ? store_schema::parse_version(query.text(0), path) : 0;
}

// Writers create the schema in a new (empty) database only: another program's
// database gets nothing of ours, as readers refuse it.
void refuse_foreign(sqlite3* db, const std::string& path) {
    const auto layout = read_layout_of(db, path);
    if (!layout.empty && !layout.is_store()) store_schema::not_a_store(path, layout);
}

const char* file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file";
}

// SQLite opens whatever the path names: its first read of a FIFO waits for a
// writer forever, and a device is no place for a database. Missing paths pass
// (writers create the file, readers say there is no store).
void refuse_non_regular(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return;
    if (S_ISDIR(info.st_mode))
        throw std::runtime_error(fmt::format("cannot open results database {}: it is a directory", message_name(path)));
    throw std::runtime_error(fmt::format("cannot open results database {}: not a regular file ({}); pass another --db",
                                         message_name(path), file_kind(info.st_mode)));
}

// Of a file the permissions (or a read-only mount) keep from us SQLite says only "unable to
// open database file", or for a writer "attempt to write a readonly database" at its first
// write: said as such, before opening. `mode`: R_OK, or R_OK | W_OK for a writer. A missing
// file passes (writers create it, readers say there is no store).
void refuse_inaccessible(const std::string& path, int mode) {
    if (::access(path.c_str(), F_OK) != 0 || ::access(path.c_str(), mode) == 0) return;
    const int error = errno;
    const bool readable = ::access(path.c_str(), R_OK) == 0;
    throw std::runtime_error(fmt::format("cannot open results database {}: the file is not {}: {}", message_name(path),
                                         readable ? "writable" : "readable", std::strerror(error)));
}

// store_schema's migration in SQLite's dialect.
class SqliteMigration final : public store_schema::Migration {
public:
    SqliteMigration(sqlite3* db, const std::string& path) : db_(db), path_(path) {}

    Layout layout() override { return read_layout_of(db_, path_); }
    void create_missing_tables() override {
        execute(db_, path_, sqlite_queries().create_tables.c_str(), "creating tables");
    }
    // A table an older roofline wrote without AUTOINCREMENT gave the highest id + 1, so the id
    // of a removed newest row went to the next one. It is rebuilt with AUTOINCREMENT as SQLite
    // documents for changing a table (https://www.sqlite.org/lang_altertable.html, "other kinds
    // of table schema changes": create the new table, copy, drop the old, rename the new; the
    // other tables' REFERENCES name it by name, and foreign keys are off on this connection), in
    // the migration's transaction: its rows and ids stay, and SQLite then gives ids above the
    // highest copied. Not a new layout version: the store reads as before, and an older roofline
    // writing it inserts under the same rule, which is the table's, kept by SQLite itself (a
    // high-water mark of our own in meta would be ignored by older writers). Ids removed before
    // this rebuild above the highest left are recorded nowhere and can be given once more.
    void never_reuse_ids() override {
        rebuild_with_autoincrement(store_queries::Table::machines, "machines");
        rebuild_with_autoincrement(store_queries::Table::point_sets, "point_sets");
    }
    int version_or_insert_current() override {
        Statement insert(db_, path_, sqlite_queries().insert_version.c_str());
        insert.bind(1, std::to_string(store_schema::version));
        insert.step();
        return read_version(db_, path_);
    }
    void set_version(int to) override {
        Statement upgrade(db_, path_, sqlite_queries().set_version.c_str());
        upgrade.bind(1, std::to_string(to));
        upgrade.step();
    }

private:
    void rebuild_with_autoincrement(store_queries::Table table, const std::string& name) {
        {
            Statement definition(db_, path_, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1");
            definition.bind(1, name);
            if (!definition.step()) return;  // create_missing_tables made every table
            std::string sql = definition.text(0);
            std::transform(sql.begin(), sql.end(), sql.begin(), [](unsigned char c) { return std::toupper(c); });
            if (sql.find("AUTOINCREMENT") != std::string::npos) return;
        }
        // The columns copied are the old table's own: one the layout does not have (added by
        // hand) would be lost, so such a table is left as it is; so is one when a table of the
        // new one's name is there already (not ours: nothing of it is touched).
        const std::string rebuilt = name + "_rebuilt";
        if (read_layout_of(db_, path_).has(rebuilt.c_str())) return;
        execute(db_, path_, store_queries::create_table_as(table, rebuilt, store_queries::sqlite).c_str(),
                "creating a table");
        const auto layout = columns_of(rebuilt);
        const auto old = columns_of(name);
        const bool known = std::all_of(old.begin(), old.end(), [&](const std::string& column) {
            return std::find(layout.begin(), layout.end(), column) != layout.end();
        });
        if (!known) {
            execute(db_, path_, fmt::format("DROP TABLE {}", rebuilt).c_str(), "dropping a table");
            return;
        }
        execute(db_, path_,
                fmt::format("INSERT INTO {0} ({1}) SELECT {1} FROM {2}; DROP TABLE {2}; ALTER TABLE {0} RENAME TO {2};",
                            rebuilt, fmt::join(old, ", "), name)
                    .c_str(),
                "making the ids of removed rows never given again");
    }

    std::vector<std::string> columns_of(const std::string& table) {
        std::vector<std::string> out;
        Statement info(db_, path_, fmt::format("PRAGMA table_info({})", table).c_str());
        while (info.step()) out.push_back(info.text(1));
        return out;
    }

    sqlite3* db_;
    const std::string& path_;
};

// "file:" URI of a path, for the immutable fallback (RFC 3986: escape all but unreserved and '/').
std::string file_uri(const std::string& path) {
    std::string uri = "file:";
    const std::string absolute = fs::absolute(path).string();
    for (unsigned char ch : absolute) {
        if (std::isalnum(ch) || std::string_view("-._~/").find(static_cast<char>(ch)) != std::string_view::npos)
            uri += static_cast<char>(ch);
        else
            uri += fmt::format("%{:02X}", ch);
    }
    return uri + "?immutable=1";
}

// The name SQLite opens for the store file `path`, as a file name: this SQLite takes a name that
// begins with "file:" as a URI ('--db file:r.db' wrote r.db, while every check on the path and
// every later read looked for a file named "file:r.db" and found no store). "./" keeps it a name.
std::string literal_file_name(const std::string& path) {
    return path.rfind("file:", 0) == 0 ? "./" + path : path;
}

bool cannot_open_shared_memory(int rc) {
    // A WAL file in a directory we cannot write: no -shm to create.
    return (rc & 0xff) == SQLITE_CANTOPEN || rc == SQLITE_READONLY_CANTINIT || rc == SQLITE_READONLY_DIRECTORY ||
           rc == SQLITE_READONLY_RECOVERY;
}

class SqliteStore final : public StoreBackend {
public:
    SqliteStore(const std::string& path, bool create_parent_dirs, std::chrono::milliseconds busy_wait);
    struct ReadOnly {};
    SqliteStore(ReadOnly, const std::string& path);
    ~SqliteStore() override { close(); }
    SqliteStore(const SqliteStore&) = delete;
    SqliteStore& operator=(const SqliteStore&) = delete;

    // Takes the write lock once and lets it go (rolled back: nothing written).
    void take_write_lock_once() {
        with_retry(db_, path_, busy_wait_, [&] {
            WriteTransaction transaction(db_, path_);
            return 0;
        });
    }

    std::int64_t insert_machine(const MachineRow& row) override;
    std::int64_t insert_point_set(const PointSetRow& row,
                                  const std::vector<std::pair<std::string, std::int64_t>>& cache) override;
    std::optional<StoredJson> machine_json(std::optional<std::int64_t> id) const override;
    std::vector<StoredMachine> list_machines() const override;
    std::optional<StoredJson> point_set_json(std::optional<std::int64_t> id) const override;
    std::vector<StoredPointSet> list_point_sets() const override;
    std::optional<CacheEntry> cache_entry(const std::string& key) const override;
    RemovedRows remove_rows(const std::vector<std::int64_t>& machine_ids, const std::vector<std::int64_t>& point_set_ids,
                            bool write) override;

private:
    // The listings' queries, for a caller holding mutex_ (inside its own retry).
    std::vector<StoredMachine> read_machines() const;
    std::vector<StoredPointSet> read_point_sets() const;
    void close() noexcept {
        sqlite3_close(db_);
        db_ = nullptr;
    }
    // One stored document: by id, or the newest.
    std::optional<StoredJson> document(const std::string& by_id, const std::string& newest,
                                       std::optional<std::int64_t> id) const;

    std::string path_;
    sqlite3* db_ = nullptr;
    bool has_point_sets_ = true;  // false only for a version-1 file opened read-only
    std::chrono::milliseconds busy_wait_;
    // One connection has one transaction at a time: calls from several threads take turns
    // (SQLite's own mutex serializes single calls, not a BEGIN ... COMMIT).
    mutable std::mutex mutex_;
};

SqliteStore::SqliteStore(const std::string& path, bool create_parent_dirs, std::chrono::milliseconds busy_wait)
    : path_(path), busy_wait_(busy_wait) {
    if (path_.empty()) throw std::runtime_error("results database path is empty");
    const auto parent = fs::path(path_).parent_path();
    const auto directory = parent.empty() ? fs::path(".") : parent;
    std::error_code ec;
    if (create_parent_dirs) {
        fs::create_directories(directory, ec);
        if (ec) {
            throw std::runtime_error(fmt::format("cannot open results database {}: cannot create {}: {}",
                                                 message_name(path_), message_name(directory.string()), ec.message()));
        }
    } else if (!fs::is_directory(directory, ec)) {
        throw std::runtime_error(fmt::format("cannot open results database {}: directory {} does not exist",
                                             message_name(path_), message_name(directory.string())));
    }
    refuse_non_regular(path_);
    refuse_inaccessible(path_, R_OK | W_OK);
    // A store this open creates and cannot set up (a full disk) is removed again, not left empty behind.
    std::error_code exists_ec;
    const bool existed = fs::exists(path_, exists_ec);
    auto remove_if_created = [&] {
        if (existed) return;
        std::error_code ignored;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path_ + suffix, ignored);
    };

    const int rc = sqlite3_open_v2(literal_file_name(path_).c_str(), &db_,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                                   nullptr);
    if (rc != SQLITE_OK) {
        const std::string detail = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error(fmt::format("cannot open results database {}: {}", message_name(path_), detail));
    }
    try {
        sqlite3_busy_timeout(db_, static_cast<int>(std::min<std::int64_t>(busy_timeout_ms, busy_wait_.count())));
        // Before WAL: switching the journal mode already writes the file's header.
        with_retry(db_, path_, busy_wait_, [&] {
            refuse_foreign(db_, path_);
            return 0;
        });
        // WAL lets readers and one writer proceed together; the mode is stored
        // in the file, so only the first opener actually switches it.
        with_retry(db_, path_, busy_wait_, [&] {
            execute(db_, path_, "PRAGMA journal_mode=WAL", "enabling WAL");
            return 0;
        });
        execute(db_, path_, "PRAGMA synchronous=NORMAL", "setting synchronous mode");
        // Off, as SQLite's default: the layout's REFERENCES are not enforced (a removed machine's
        // sets are unlinked by remove itself), and the rebuild of an id table drops the old one
        // while others still name it (SqliteMigration::never_reuse_ids). Said, in case a build
        // of SQLite turns them on by default.
        execute(db_, path_, "PRAGMA foreign_keys=OFF", "setting foreign keys");
        with_retry(db_, path_, busy_wait_, [&] {
            WriteTransaction transaction(db_, path_);
            SqliteMigration steps(db_, path_);
            store_schema::migrate(steps, path_);  // again under the lock: another writer may have been first
            transaction.commit();
            return 0;
        });
    } catch (const StoreError& e) {
        close();
        remove_if_created();
        throw std::runtime_error(fmt::format("cannot open results database {}: {}", message_name(path_), e.reason()));
    } catch (...) {
        close();
        remove_if_created();
        throw;
    }
}

SqliteStore::SqliteStore(ReadOnly, const std::string& path) : path_(path), busy_wait_(sqlite_short_wait) {
    if (path_.empty()) throw std::runtime_error("results database path is empty");
    std::error_code ec;
    const auto status = fs::status(path_, ec);
    if (status.type() == fs::file_type::not_found)
        throw NoStoreError(fmt::format("no results store at {}", message_name(path_)));
    refuse_non_regular(path_);
    refuse_inaccessible(path_, R_OK);

    // Tables, then the layout version. Read-only: nothing is created or migrated.
    const auto read_layout = [&] {
        return with_retry(db_, path_, busy_wait_, [&] {
            const auto layout = read_layout_of(db_, path_);
            store_schema::check_readable(layout, layout.is_store() ? read_version(db_, path_) : 0, path_);
            has_point_sets_ = layout.has("point_sets");
            return 0;
        });
    };
    const auto open = [&](const std::string& name, int extra_flags) {
        close();
        const int rc = sqlite3_open_v2(name.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX | extra_flags,
                                       nullptr);
        if (rc != SQLITE_OK) fail(db_, path_, "opening", rc);
        sqlite3_busy_timeout(db_, static_cast<int>(busy_wait_.count()));
    };
    try {
        try {
            open(literal_file_name(path_), 0);
            read_layout();
        } catch (const StoreError& e) {
            // Opened read-only, "readonly" can only mean SQLite wanted to create the -shm
            // (or -wal) beside a WAL store, in a directory we cannot write.
            if (!cannot_open_shared_memory(e.code()) && (e.code() & 0xff) != SQLITE_READONLY) throw;
            // A WAL store in a read-only directory: nobody can be writing it, so
            // read it as an immutable file (no locks, no -shm).
            open(file_uri(path_), SQLITE_OPEN_URI);
            read_layout();
        }
    } catch (const StoreError& e) {
        close();
        throw std::runtime_error(e.what());  // already names the database
    } catch (...) {
        close();
        throw;
    }
}

std::int64_t SqliteStore::insert_machine(const MachineRow& row) {
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&] {
        WriteTransaction transaction(db_, path_);
        Statement insert(db_, path_, sqlite_queries().insert_machine.c_str());
        insert.bind(1, row.created);
        insert.bind(2, row.hostname);
        insert.bind(3, row.cpu_model);
        insert.bind(4, row.mode);
        insert.bind(5, std::int64_t{row.partial ? 1 : 0});
        insert.bind(6, row.schema);
        insert.bind(7, row.json);
        insert.step();
        // Read inside the transaction: no other writer can have inserted since.
        const std::int64_t id = sqlite3_last_insert_rowid(db_);
        transaction.commit();
        return id;
    });
}

std::int64_t SqliteStore::insert_point_set(const PointSetRow& row,
                                           const std::vector<std::pair<std::string, std::int64_t>>& cache) {
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&] {
        WriteTransaction transaction(db_, path_);
        // The write lock is held from BEGIN IMMEDIATE: a remover cannot take the machine
        // between this check and the commit.
        if (row.machine_id) {
            Statement exists(db_, path_, sqlite_queries().machine_exists.c_str());
            exists.bind(1, *row.machine_id);
            if (!exists.step()) throw store_schema::StoreFailure(path_, removed_machine_reason(*row.machine_id));
        }
        Statement insert(db_, path_, sqlite_queries().insert_point_set.c_str());
        insert.bind(1, row.created);
        insert.bind(2, row.name);
        insert.bind(3, row.machine_id);
        insert.bind(4, row.point_count);
        insert.bind(5, row.json);
        insert.step();
        const std::int64_t id = sqlite3_last_insert_rowid(db_);
        for (const auto& [key, index] : cache) {
            Statement remember(db_, path_, sqlite_queries().remember_measurement.c_str());
            remember.bind(1, key);
            remember.bind(2, id);
            remember.bind(3, index);
            remember.step();
        }
        transaction.commit();
        return id;
    });
}

std::optional<StoredJson> SqliteStore::document(const std::string& by_id, const std::string& newest,
                                                std::optional<std::int64_t> id) const {
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&]() -> std::optional<StoredJson> {
        Statement query(db_, path_, (id ? by_id : newest).c_str());
        if (id) query.bind(1, *id);
        if (!query.step()) return std::nullopt;
        return StoredJson{query.integer(0), query.text(1)};
    });
}

std::optional<StoredJson> SqliteStore::machine_json(std::optional<std::int64_t> id) const {
    return document(sqlite_queries().machine_by_id, sqlite_queries().newest_machine, id);
}

// Oldest first (ascending id), like a log.
std::vector<StoredMachine> SqliteStore::list_machines() const {
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&] { return read_machines(); });
}

std::vector<StoredMachine> SqliteStore::read_machines() const {
    std::vector<StoredMachine> rows;
    Statement query(db_, path_, sqlite_queries().list_machines.c_str());
    while (query.step()) {
        StoredMachine row;
        row.id = query.integer(0);
        row.created = query.text(1);
        row.hostname = query.text(2);
        row.cpu_model = query.text(3);
        row.mode = query.text(4);
        row.partial = query.integer(5) != 0;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::optional<StoredJson> SqliteStore::point_set_json(std::optional<std::int64_t> id) const {
    if (!has_point_sets_) return std::nullopt;
    return document(sqlite_queries().point_set_by_id, sqlite_queries().newest_point_set, id);
}

std::vector<StoredPointSet> SqliteStore::list_point_sets() const {
    if (!has_point_sets_) return {};
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&] { return read_point_sets(); });
}

std::vector<StoredPointSet> SqliteStore::read_point_sets() const {
    if (!has_point_sets_) return {};
    std::vector<StoredPointSet> rows;
    Statement query(db_, path_, sqlite_queries().list_point_sets.c_str());
    while (query.step()) {
        StoredPointSet row;
        row.id = query.integer(0);
        row.created = query.text(1);
        row.name = query.text(2);
        row.machine_id = query.optional_integer(3);
        row.point_count = query.integer(4);
        check_stored_point_set(row);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::optional<CacheEntry> SqliteStore::cache_entry(const std::string& key) const {
    if (!has_point_sets_) return std::nullopt;
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&]() -> std::optional<CacheEntry> {
        if (!read_layout_of(db_, path_).has("measurement_cache")) return std::nullopt;  // written before it existed
        Statement query(db_, path_, sqlite_queries().cached_measurement.c_str());
        query.bind(1, key);
        if (!query.step()) return std::nullopt;
        return CacheEntry{query.integer(0), query.integer(1)};
    });
}

RemovedRows SqliteStore::remove_rows(const std::vector<std::int64_t>& machine_ids,
                                     const std::vector<std::int64_t>& point_set_ids, bool write) {
    std::lock_guard lock(mutex_);
    return with_retry(db_, path_, busy_wait_, [&] {
        // IMMEDIATE: the rows looked up are the rows deleted, no other writer in between.
        std::optional<WriteTransaction> transaction;
        if (write) transaction.emplace(db_, path_);
        RemovedRows out = pick_removed_rows(read_machines(), read_point_sets(), machine_ids, point_set_ids);
        if (!out.complete()) return out;  // rolled back: nothing removed
        const auto& q = sqlite_queries();
        const auto run = [&](const std::string& sql, std::int64_t id) {
            Statement statement(db_, path_, sql.c_str());
            statement.bind(1, id);
            statement.step();
        };
        // A store written before the cache existed has none to count (a writer's open adds it).
        const bool has_cache = read_layout_of(db_, path_).has("measurement_cache");
        for (const auto& set : out.point_sets) {
            if (has_cache) {
                Statement count(db_, path_, q.count_set_measurements.c_str());
                count.bind(1, set.id);
                if (count.step()) out.cache_entries += count.integer(0);
                if (write) run(q.forget_set_measurements, set.id);
            }
            if (write) run(q.delete_point_set, set.id);
        }
        for (const auto& machine : out.machines) {
            std::vector<std::int64_t> sets;
            Statement query(db_, path_, q.sets_of_machine.c_str());
            query.bind(1, machine.id);
            while (query.step()) sets.push_back(query.integer(0));
            note_unlinked_sets(out, sets, point_set_ids);
            if (!write) continue;
            run(q.unlink_machine, machine.id);
            run(q.delete_machine, machine.id);
        }
        if (transaction) transaction->commit();
        return out;
    });
}

} // namespace

std::unique_ptr<StoreBackend> open_sqlite_store(const std::string& path, bool create_parent_dirs) {
    return std::make_unique<SqliteStore>(path, create_parent_dirs, retry_deadline);
}

std::unique_ptr<StoreBackend> open_sqlite_store_read_only(const std::string& path) {
    return std::make_unique<SqliteStore>(SqliteStore::ReadOnly{}, path);
}

void check_sqlite_store_writable(const std::string& path, bool is_default) {
    const auto parent = fs::path(path).parent_path();
    const auto directory = parent.empty() ? fs::path(".") : parent;
    std::error_code ec;
    if (!is_default && !fs::is_directory(directory, ec)) {
        throw std::runtime_error(fmt::format("cannot write results database {}: directory {} does not exist",
                                             message_name(path), message_name(directory.string())));
    }
    // WAL needs its -wal and -shm files next to the database, so the directory
    // must be writable, not only the file (access() also sees read-only mounts).
    if (fs::is_directory(directory, ec) && ::access(directory.c_str(), W_OK) != 0) {
        throw std::runtime_error(fmt::format("cannot write results database {}: directory {} is not writable: {}",
                                             message_name(path), message_name(directory.string()), std::strerror(errno)));
    }
    if (fs::exists(path, ec) && !fs::is_directory(path, ec) && ::access(path.c_str(), W_OK) != 0) {
        throw std::runtime_error(
            fmt::format("cannot write results database {}: the file is not writable: {}", message_name(path),
                        std::strerror(errno)));
    }
    // Opening as a writer reads (or creates) the schema: a damaged file or a
    // newer layout fails here. Then take the write lock once and let it go.
    SqliteStore store(path, is_default, sqlite_short_wait);
    try {
        store.take_write_lock_once();
    } catch (const StoreError& e) {
        throw std::runtime_error(fmt::format("cannot write results database {}: {}", message_name(path), e.reason()));
    }
}

} // namespace roofline
