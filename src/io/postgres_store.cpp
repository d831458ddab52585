#include "io/postgres_store.hpp"

#include "core/message_name.hpp"

#include "io/store_location.hpp"
#include "io/store_queries.hpp"
#include "io/store_schema.hpp"

#include <fmt/format.h>
#include <libpq-fe.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace roofline {
namespace {

using store_schema::Layout;

// libpq waits for a server forever unless told: a host that does not answer
// must fail the command, not hang it. A URL's own connect_timeout wins.
constexpr const char* default_connect_timeout_s = "10";
// How long a statement waits for a lock another session holds (lock_timeout),
// and how long conflicting writers are retried: writers as long as SQLite's,
// readers and the up-front check a few seconds, then they say so.
constexpr auto writer_wait = std::chrono::milliseconds(60000);
constexpr auto short_wait = std::chrono::milliseconds(3000);
// Serializes creating and upgrading the tables between roofline writers (a
// transaction-scoped advisory lock: let go at commit, never held for long).
constexpr const char* schema_lock_key = "8245931928434863717";  // "roofline" in ASCII, as a bigint

// SQLSTATEs we act on.
constexpr std::string_view serialization_failure = "40001";
constexpr std::string_view deadlock_detected = "40P01";
constexpr std::string_view lock_not_available = "55P03";
constexpr std::string_view undefined_table = "42P01";

// The statements both back ends run, in PostgreSQL's dialect: an insert gives its id
// (RETURNING id).
static_assert(store_queries::postgresql.insert_returns_id);
const store_queries::Queries& postgres_queries() {
    static const auto rendered = store_queries::render(store_queries::postgresql);
    return rendered;
}

// A failure the server reported, with its SQLSTATE.
class PgError : public store_schema::StoreFailure {
public:
    PgError(const std::string& name, std::string reason, std::string sqlstate)
        : StoreFailure(name, std::move(reason)), sqlstate_(std::move(sqlstate)) {}
    const std::string& sqlstate() const { return sqlstate_; }

private:
    std::string sqlstate_;
};

// libpq's messages end with a newline and go on in tab-indented lines: one line,
// "first; second".
std::string one_line(const std::string& text) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        const auto first = text.find_first_not_of(" \t\r", start);
        const auto last = text.find_last_not_of(" \t\r", end == 0 ? 0 : end - 1);
        if (first != std::string::npos && first < end && last != std::string::npos && last >= first)
            out += (out.empty() ? "" : "; ") + text.substr(first, last - first + 1);
        start = end + 1;
    }
    return out;
}

// A message that may quote part of the URL (libpq echoes a bad parameter) loses its passwords.
std::string scrubbed(std::string text, const std::vector<std::string>& secrets) {
    for (const auto& secret : secrets)
        for (std::size_t at; !secret.empty() && (at = text.find(secret)) != std::string::npos;)
            text.replace(at, secret.size(), "***");
    return text;
}

// PostgreSQL text is UTF-8 without NUL bytes: invalid sequences (a symbol, a command
// line) become U+FFFD, as they do in the stored JSON, and so does NUL.
std::string valid_text(const std::string& text) {
    if (std::all_of(text.begin(), text.end(), [](char c) { return c > 0; })) return text;  // ASCII, no NUL
    const auto quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    for (const char c : nlohmann::json::parse(quoted).get<std::string>()) {
        if (c == '\0') out += "\xEF\xBF\xBD";
        else out += c;
    }
    return out;
}

std::int64_t to_integer(const char* text, const std::string& name) {
    std::int64_t value = 0;
    const char* end = text + std::char_traits<char>::length(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec != std::errc() || ptr != end)
        throw store_schema::StoreFailure(name, fmt::format("the server returned '{}' where a number was expected", text));
    return value;
}

// One query parameter: text (NULL when empty optional), or raw bytes (bytea).
struct Param {
    std::optional<std::string> value;
    bool binary = false;
};

Param text(const std::string& value) { return {valid_text(value), false}; }
Param integer(std::int64_t value) { return {std::to_string(value), false}; }
Param integer(std::optional<std::int64_t> value) {
    return value ? integer(*value) : Param{};
}
Param bytes(const std::string& value) { return {value, true}; }

struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// One libpq connection and the store's name for messages.
class Connection {
public:
    Connection(const std::string& url, std::chrono::milliseconds lock_wait, bool read_only)
        : name_(store_display_name(url)), secrets_(store_url_secrets(url)) {
        // Checked first: libpq's own message for a bad URL, instead of a failed connection.
        char* parse_error = nullptr;
        if (PQconninfoOption* options = PQconninfoParse(url.c_str(), &parse_error)) {
            PQconninfoFree(options);
        } else {
            const std::string detail = parse_error ? one_line(parse_error) : "out of memory";
            PQfreemem(parse_error);
            throw std::runtime_error(fmt::format("results database {}: not a valid PostgreSQL URL: {}",
                                                 message_name(name_), scrubbed(detail, secrets_)));
        }
        // Entries before dbname are defaults the URL may override; client_encoding after it
        // is ours: we send and read UTF-8.
        const char* const keys[] = {"connect_timeout", "application_name", "dbname", "client_encoding", nullptr};
        const char* const values[] = {default_connect_timeout_s, "roofline", url.c_str(), "UTF8", nullptr};
        conn_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
        if (!conn_)
            throw std::runtime_error(
                fmt::format("cannot connect to results database {}: out of memory", message_name(name_)));
        if (PQstatus(conn_) != CONNECTION_OK) {
            const std::string detail = scrubbed(one_line(PQerrorMessage(conn_)), secrets_);
            PQfinish(conn_);
            conn_ = nullptr;
            throw std::runtime_error(fmt::format("cannot connect to results database {}: {}", message_name(name_), detail));
        }
        // NOTICEs ("relation already exists, skipping") are not the user's business.
        PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
        settings_ = fmt::format("SET lock_timeout = {}", lock_wait.count());
        // A reader's session cannot write: nothing it does changes the store.
        if (read_only) settings_ += "; SET default_transaction_read_only = on";
        try {
            exec_script(settings_.c_str(), "setting up the session");
        } catch (...) {
            PQfinish(conn_);
            conn_ = nullptr;
            throw;
        }
    }
    ~Connection() { PQfinish(conn_); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    const std::string& name() const { return name_; }

    Result exec(const char* sql, const std::vector<Param>& params, const char* doing) {
        std::vector<const char*> values;
        std::vector<int> lengths;
        std::vector<int> formats;
        for (const auto& p : params) {
            values.push_back(p.value ? p.value->data() : nullptr);
            lengths.push_back(p.value ? static_cast<int>(p.value->size()) : 0);
            formats.push_back(p.binary ? 1 : 0);
        }
        Result result(PQexecParams(conn_, sql, static_cast<int>(params.size()), nullptr, values.data(), lengths.data(),
                                   formats.data(), 0));
        check(result, doing);
        return result;
    }
    Result exec(const char* sql, const char* doing) { return exec(sql, {}, doing); }
    // Several statements, no parameters.
    void exec_script(const char* sql, const char* doing) {
        Result result(PQexec(conn_, sql));
        check(result, doing);
    }

    bool in_transaction() const { return PQtransactionStatus(conn_) != PQTRANS_IDLE; }
    // The server or the network dropped the connection (an idle timeout, a restart).
    bool lost() const { return PQstatus(conn_) == CONNECTION_BAD; }
    // Connects again with the same parameters and session settings.
    void reconnect() {
        PQreset(conn_);
        if (PQstatus(conn_) != CONNECTION_OK)
            throw std::runtime_error(fmt::format("cannot connect to results database {} again: {}", message_name(name_),
                                                 scrubbed(one_line(PQerrorMessage(conn_)), secrets_)));
        exec_script(settings_.c_str(), "setting up the session");
    }
    void rollback_quietly() noexcept {
        if (conn_ && in_transaction()) PQclear(PQexec(conn_, postgres_queries().rollback.c_str()));
    }

private:
    void check(const Result& result, const char* doing) {
        const auto status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
        const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
        const char* primary = result ? PQresultErrorField(result.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
        const std::string detail = scrubbed(one_line(primary ? primary : PQerrorMessage(conn_)), secrets_);
        throw PgError(name_, fmt::format("{} failed: {}", doing, detail), state ? state : "");
    }

    PGconn* conn_ = nullptr;
    std::string name_;
    std::vector<std::string> secrets_;
    std::string settings_;  // the session's SET statements
};

// A write transaction; rolled back unless committed.
class Transaction {
public:
    explicit Transaction(Connection& c) : c_(c) { c_.exec(postgres_queries().begin_write.c_str(), "starting a write"); }
    ~Transaction() {
        if (!committed_) c_.rollback_quietly();
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
        c_.exec(postgres_queries().commit.c_str(), "committing");
        committed_ = true;
    }

private:
    Connection& c_;
    bool committed_ = false;
};

// Runs `work` (one whole transaction, or one read) again when the server aborted it
// for a conflict with another writer (serialization failure, deadlock); a lock held
// past lock_timeout, or still conflicting at the deadline, is said as such. A
// connection found dropped (a store opened before a long bench, then idle) is made
// again once and the work redone: the server rolled back what it had not committed (a
// commit whose answer was lost on the way would be stored twice: a rare duplicate row
// rather than a lost run).
template <typename Work>
auto with_retry(Connection& c, std::chrono::milliseconds wait, Work work) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    auto pause = std::chrono::milliseconds(2);
    thread_local std::minstd_rand jitter(std::random_device{}());
    bool reconnected = false;
    for (;;) {
        try {
            return work();
        } catch (const PgError& e) {
            if (c.lost() && !reconnected) {
                reconnected = true;
                c.reconnect();
                continue;
            }
            c.rollback_quietly();
            const bool conflict = e.sqlstate() == serialization_failure || e.sqlstate() == deadlock_detected;
            if (e.sqlstate() == lock_not_available || (conflict && std::chrono::steady_clock::now() > deadline))
                throw store_schema::StoreFailure(c.name(), store_schema::locked_reason(wait, e.reason()));
            if (!conflict) throw;
            // Jittered, so that writers that collided do not collide again in step.
            std::this_thread::sleep_for(pause + std::chrono::milliseconds(jitter() % (pause.count() + 1)));
            pause = std::min(pause * 2, std::chrono::milliseconds(100));
        }
    }
}

// The connection's current schema (where the tables live), nullopt when the
// search_path names no schema that exists.
std::optional<std::string> current_schema(Connection& c) {
    const auto r = c.exec("SELECT current_schema()", "reading the current schema");
    if (PQntuples(r.get()) != 1 || PQgetisnull(r.get(), 0, 0)) return std::nullopt;
    return std::string(PQgetvalue(r.get(), 0, 0));
}

Layout read_layout(Connection& c) {
    Layout layout;
    const auto r = c.exec("SELECT c.relname, c.relkind FROM pg_catalog.pg_class c WHERE c.relnamespace = "
                          "(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema())",
                          "reading the tables");
    for (int row = 0; row < PQntuples(r.get()); ++row) {
        layout.empty = false;
        const std::string_view kind = PQgetvalue(r.get(), row, 1);
        if (kind == "r" || kind == "p") layout.tables.emplace_back(PQgetvalue(r.get(), row, 0));
    }
    return layout;
}

int read_version(Connection& c) {
    const auto r = c.exec(postgres_queries().read_version.c_str(), "reading the layout version");
    return PQntuples(r.get()) == 1 ? store_schema::parse_version(PQgetvalue(r.get(), 0, 0), c.name()) : 0;
}

bool has_every_table(const Layout& layout) {
    return layout.is_store() && layout.has("point_sets") && layout.has("measurement_cache");
}

// store_schema's migration in PostgreSQL's dialect. The logical layout is SQLite's:
// ids are BIGSERIAL (taken at insert, returned by RETURNING), and the cache's key is
// bytea, so that any key (bytes that are not UTF-8 included) is found again exactly
// (store_queries::postgresql).
class PostgresMigration final : public store_schema::Migration {
public:
    explicit PostgresMigration(Connection& c) : c_(c) {}

    Layout layout() override { return read_layout(c_); }
    void create_missing_tables() override {
        c_.exec_script(postgres_queries().create_tables.c_str(), "creating tables");
    }
    // Nothing to do: BIGSERIAL ids come from a sequence, which never gives a value twice, and
    // no insert names an id (store_queries), so a removed id is never given again.
    void never_reuse_ids() override {}
    int version_or_insert_current() override {
        c_.exec(postgres_queries().insert_version.c_str(), {integer(std::int64_t{store_schema::version})},
                "writing the layout version");
        return read_version(c_);
    }
    void set_version(int to) override {
        c_.exec(postgres_queries().set_version.c_str(), {integer(std::int64_t{to})}, "upgrading the layout version");
    }

private:
    Connection& c_;
};

class PostgresStore final : public StoreBackend {
public:
    PostgresStore(const std::string& url, PostgresAccess access, std::chrono::milliseconds wait)
        : c_(url, wait, access == PostgresAccess::read_only), wait_(wait) {
        if (access == PostgresAccess::read_only) open_reader();
        else open_writer();
    }

    // The up-front check of a writer: the server takes writes and the role may insert
    // into every table, found without waiting long for a lock and without writing a row.
    void check_write_access() {
        std::lock_guard lock(mutex_);
        const auto r = c_.exec("SHOW transaction_read_only", "asking whether the server takes writes");
        if (PQntuples(r.get()) == 1 && std::string_view(PQgetvalue(r.get(), 0, 0)) == "on")
            throw store_schema::StoreFailure(c_.name(), "the server only reads (a standby, or "
                                                        "default_transaction_read_only is on)");
        with_retry(c_, wait_, [&] {
            Transaction transaction(c_);
            // What an INSERT takes: it waits only for a lock that blocks writers (a migration,
            // VACUUM FULL), and needs the privileges to write.
            c_.exec("LOCK TABLE machines, point_sets, measurement_cache IN ROW EXCLUSIVE MODE", "locking for a write");
            const auto may = c_.exec("SELECT has_sequence_privilege(pg_get_serial_sequence('machines', 'id'), 'USAGE') "
                                     "AND has_sequence_privilege(pg_get_serial_sequence('point_sets', 'id'), 'USAGE')",
                                     "checking the id sequences");
            if (std::string_view(PQgetvalue(may.get(), 0, 0)) != "t")
                throw store_schema::StoreFailure(c_.name(), "permission denied for the id sequences (GRANT USAGE "
                                                            "ON SEQUENCE machines_id_seq, point_sets_id_seq)");
            return 0;  // rolled back: nothing written
        });
    }

    std::int64_t insert_machine(const MachineRow& row) override {
        std::lock_guard lock(mutex_);
        // One statement: atomic on its own, and its id comes back with it.
        return with_retry(c_, wait_, [&] {
            const auto r = c_.exec(postgres_queries().insert_machine.c_str(),
                                   {text(row.created), text(row.hostname), text(row.cpu_model), text(row.mode),
                                    integer(std::int64_t{row.partial ? 1 : 0}), text(row.schema), text(row.json)},
                                   "storing a machine model");
            return to_integer(PQgetvalue(r.get(), 0, 0), c_.name());
        });
    }

    std::int64_t insert_point_set(const PointSetRow& row,
                                  const std::vector<std::pair<std::string, std::int64_t>>& cache) override {
        std::lock_guard lock(mutex_);
        // Keys in one order in every writer: two sets remembering the same keys wait for
        // each other instead of deadlocking. Stable: of a key given twice, the last wins.
        auto ordered = cache;
        std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        return with_retry(c_, wait_, [&] {
            Transaction transaction(c_);
            // Locked for key share, as the foreign key's check would: a remover holding it
            // FOR UPDATE is waited for, and then the machine is found gone and said so (not
            // a foreign-key violation); one that comes later waits and unlinks this set.
            if (row.machine_id) {
                const auto found = c_.exec((postgres_queries().machine_exists + " FOR KEY SHARE").c_str(),
                                           {integer(row.machine_id)}, "finding the set's machine");
                if (PQntuples(found.get()) == 0)
                    throw store_schema::StoreFailure(c_.name(), removed_machine_reason(*row.machine_id));
            }
            const auto r = c_.exec(postgres_queries().insert_point_set.c_str(),
                                   {text(row.created), text(row.name), integer(row.machine_id), integer(row.point_count),
                                    text(row.json)},
                                   "storing a point set");
            const std::int64_t id = to_integer(PQgetvalue(r.get(), 0, 0), c_.name());
            for (const auto& [key, index] : ordered) {
                c_.exec(postgres_queries().remember_measurement.c_str(), {bytes(key), integer(id), integer(index)},
                        "remembering a measurement");
            }
            transaction.commit();
            return id;
        });
    }

    std::optional<StoredJson> machine_json(std::optional<std::int64_t> id) const override {
        return document(postgres_queries().machine_by_id, postgres_queries().newest_machine, id);
    }

    std::vector<StoredMachine> list_machines() const override {
        std::lock_guard lock(mutex_);
        return with_retry(c_, wait_, [&] { return read_machines(); });
    }

    std::optional<StoredJson> point_set_json(std::optional<std::int64_t> id) const override {
        if (!has_point_sets_) return std::nullopt;
        return document(postgres_queries().point_set_by_id, postgres_queries().newest_point_set, id);
    }

    std::vector<StoredPointSet> list_point_sets() const override {
        if (!has_point_sets_) return {};
        std::lock_guard lock(mutex_);
        return with_retry(c_, wait_, [&] { return read_point_sets(); });
    }

    std::optional<CacheEntry> cache_entry(const std::string& key) const override {
        if (!has_point_sets_) return std::nullopt;
        std::lock_guard lock(mutex_);
        return with_retry(c_, wait_, [&]() -> std::optional<CacheEntry> {
            try {
                const auto r = c_.exec(postgres_queries().cached_measurement.c_str(), {bytes(key)}, "looking up a measurement");
                if (PQntuples(r.get()) == 0) return std::nullopt;
                return CacheEntry{to_integer(PQgetvalue(r.get(), 0, 0), c_.name()),
                                  to_integer(PQgetvalue(r.get(), 0, 1), c_.name())};
            } catch (const PgError& e) {
                if (e.sqlstate() != undefined_table) throw;
                return std::nullopt;  // a store written before the cache existed
            }
        });
    }

    RemovedRows remove_rows(const std::vector<std::int64_t>& machine_ids, const std::vector<std::int64_t>& point_set_ids,
                            bool write) override {
        std::lock_guard lock(mutex_);
        return with_retry(c_, wait_, [&] {
            std::optional<Transaction> transaction;
            if (write) {
                transaction.emplace(c_);
                // The rows to delete, locked first (ascending ids, so two removers queue rather than
                // deadlock): a point set being stored for a machine locks it for key share, so it
                // either commits before this (and is unlinked below) or waits and then finds the
                // machine gone. Under READ COMMITTED each later statement sees what committed.
                for (const auto& [table, ids] : {std::pair{"machines", machine_ids}, std::pair{"point_sets", point_set_ids}}) {
                    auto sorted = ids;
                    std::sort(sorted.begin(), sorted.end());
                    for (const std::int64_t id : sorted)
                        c_.exec(fmt::format("SELECT id FROM {} WHERE id = $1 FOR UPDATE", table).c_str(), {integer(id)},
                                "locking the rows to remove");
                }
            }
            RemovedRows out = pick_removed_rows(read_machines(), read_point_sets(), machine_ids, point_set_ids);
            if (!out.complete()) return out;  // rolled back: nothing removed
            const auto& q = postgres_queries();
            const auto run = [&](const std::string& sql, std::int64_t id, const char* doing) {
                return c_.exec(sql.c_str(), {integer(id)}, doing);
            };
            // A store written before the cache existed has none to count (a writer's open adds it).
            const bool has_cache = read_layout(c_).has("measurement_cache");
            for (const auto& set : out.point_sets) {
                if (has_cache) {
                    const auto count = run(q.count_set_measurements, set.id, "counting a set's cached measurements");
                    out.cache_entries += to_integer(PQgetvalue(count.get(), 0, 0), c_.name());
                    if (write) run(q.forget_set_measurements, set.id, "forgetting a set's cached measurements");
                }
                if (write) run(q.delete_point_set, set.id, "removing a point set");
            }
            for (const auto& machine : out.machines) {
                const auto r = run(q.sets_of_machine, machine.id, "finding a machine's point sets");
                std::vector<std::int64_t> sets;
                for (int i = 0; i < PQntuples(r.get()); ++i) sets.push_back(to_integer(PQgetvalue(r.get(), i, 0), c_.name()));
                note_unlinked_sets(out, sets, point_set_ids);
                if (!write) continue;
                run(q.unlink_machine, machine.id, "unlinking a machine's point sets");
                run(q.delete_machine, machine.id, "removing a machine");
            }
            if (transaction) transaction->commit();
            return out;
        });
    }

private:
    // The listings' queries, for a caller holding mutex_ (inside its own retry).
    std::vector<StoredMachine> read_machines() const {
        const auto r = c_.exec(postgres_queries().list_machines.c_str(), "listing machines");
        std::vector<StoredMachine> rows;
        for (int i = 0; i < PQntuples(r.get()); ++i) {
            StoredMachine row;
            row.id = to_integer(PQgetvalue(r.get(), i, 0), c_.name());
            row.created = PQgetvalue(r.get(), i, 1);
            row.hostname = PQgetvalue(r.get(), i, 2);
            row.cpu_model = PQgetvalue(r.get(), i, 3);
            row.mode = PQgetvalue(r.get(), i, 4);
            row.partial = to_integer(PQgetvalue(r.get(), i, 5), c_.name()) != 0;
            rows.push_back(std::move(row));
        }
        return rows;
    }

    std::vector<StoredPointSet> read_point_sets() const {
        if (!has_point_sets_) return {};
        const auto r = c_.exec(postgres_queries().list_point_sets.c_str(), "listing point sets");
        std::vector<StoredPointSet> rows;
        for (int i = 0; i < PQntuples(r.get()); ++i) {
            StoredPointSet row;
            row.id = to_integer(PQgetvalue(r.get(), i, 0), c_.name());
            row.created = PQgetvalue(r.get(), i, 1);
            row.name = PQgetvalue(r.get(), i, 2);
            if (!PQgetisnull(r.get(), i, 3)) row.machine_id = to_integer(PQgetvalue(r.get(), i, 3), c_.name());
            row.point_count = to_integer(PQgetvalue(r.get(), i, 4), c_.name());
            check_stored_point_set(row);
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void open_writer() {
        if (!current_schema(c_))
            throw store_schema::StoreFailure(c_.name(), "no schema to keep the tables in (the search_path names "
                                                        "none that exists): create it, or name another");
        // Most opens find the store as it should be: nothing to write, no lock to take.
        const auto layout = read_layout(c_);
        if (has_every_table(layout) && read_version(c_) == store_schema::version) return;
        with_retry(c_, wait_, [&] {
            Transaction transaction(c_);
            c_.exec("SELECT pg_advisory_xact_lock($1::bigint)", {Param{schema_lock_key, false}},
                    "waiting for the schema lock");
            PostgresMigration steps(c_);
            store_schema::migrate(steps, c_.name());  // under the lock: another writer may have been first
            transaction.commit();
            return 0;
        });
    }

    void open_reader() {
        with_retry(c_, wait_, [&] {
            const auto no_store = [&] {
                return NoStoreError(fmt::format("no results store at {}", message_name(c_.name())));
            };
            if (!current_schema(c_)) throw no_store();
            const auto layout = read_layout(c_);
            if (layout.empty) throw no_store();  // a new database: nothing stored yet, and nothing created
            store_schema::check_readable(layout, layout.is_store() ? read_version(c_) : 0, c_.name());
            has_point_sets_ = layout.has("point_sets");
            return 0;
        });
    }

    std::optional<StoredJson> document(const std::string& by_id, const std::string& newest,
                                       std::optional<std::int64_t> id) const {
        std::lock_guard lock(mutex_);
        return with_retry(c_, wait_, [&]() -> std::optional<StoredJson> {
            const auto r = id ? c_.exec(by_id.c_str(), {integer(*id)}, "reading a stored document")
                              : c_.exec(newest.c_str(), "reading the newest stored document");
            if (PQntuples(r.get()) == 0) return std::nullopt;
            return StoredJson{to_integer(PQgetvalue(r.get(), 0, 0), c_.name()), PQgetvalue(r.get(), 0, 1)};
        });
    }

    // One connection is one conversation: calls from several threads take turns.
    mutable std::mutex mutex_;
    mutable Connection c_;
    std::chrono::milliseconds wait_;
    bool has_point_sets_ = true;  // false only for a version-1 store opened read-only
};

} // namespace

std::unique_ptr<StoreBackend> open_postgres_store(const std::string& url, PostgresAccess access) {
    return std::make_unique<PostgresStore>(url, access, access == PostgresAccess::write ? writer_wait : short_wait);
}

void check_postgres_store_writable(const std::string& url) {
    // Connecting and opening as a writer creates the schema if missing and refuses a
    // newer layout or another program's tables; each lock is waited for briefly.
    PostgresStore store(url, PostgresAccess::write, short_wait);
    try {
        store.check_write_access();
    } catch (const store_schema::StoreFailure& e) {
        // Said once: the reason after the name. Other errors (a lost connection) name it themselves.
        throw std::runtime_error(fmt::format("cannot write results database {}: {}", message_name(store_display_name(url)),
                                             e.reason()));
    }
}

} // namespace roofline
