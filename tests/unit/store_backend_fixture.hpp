// A fresh, empty results store location for one test, in either back end, and
// raw SQL on it (bypassing ResultsStore: old layouts, damage, other sessions' locks).
// SQLite: a file in a temporary directory. PostgreSQL: a schema of its own in the
// database ROOFLINE_TEST_PG_URL names (tests/store/postgresql.sh starts a server and
// sets it); without that variable the PostgreSQL cases are skipped.
#pragma once

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include <stdlib.h>
#include <unistd.h>

namespace store_test {

enum class Backend { SQLite, PostgreSQL };

inline const char* backend_name(Backend backend) { return backend == Backend::SQLite ? "SQLite" : "PostgreSQL"; }
inline std::string backend_test_name(const testing::TestParamInfo<Backend>& info) { return backend_name(info.param); }
// How gtest (and so ctest's test names) shows the parameter.
inline void PrintTo(Backend backend, std::ostream* out) { *out << backend_name(backend); }

// The server the PostgreSQL cases use, or nullopt.
inline std::optional<std::string> test_pg_url() {
    const char* url = std::getenv("ROOFLINE_TEST_PG_URL");
    if (!url || !*url) return std::nullopt;
    return std::string(url);
}

// `url` with one more query parameter.
inline std::string with_parameter(const std::string& url, const std::string& parameter) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + parameter;
}

// A raw libpq session, as another process's would be.
class PgSession {
public:
    explicit PgSession(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
        if (PQstatus(conn_) != CONNECTION_OK)
            throw std::runtime_error(std::string("test connection failed: ") + PQerrorMessage(conn_));
        PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    }
    ~PgSession() { PQfinish(conn_); }
    PgSession(const PgSession&) = delete;
    PgSession& operator=(const PgSession&) = delete;

    // Runs `sql` (several statements allowed); throws with the server's message.
    void exec(const std::string& sql) {
        PGresult* r = PQexec(conn_, sql.c_str());
        const auto status = PQresultStatus(r);
        const std::string message = PQresultErrorMessage(r);
        PQclear(r);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            throw std::runtime_error("test SQL failed: " + sql + ": " + message);
    }
    // The first column of the first row ("" when none).
    std::string text(const std::string& sql) {
        PGresult* r = PQexec(conn_, sql.c_str());
        std::string out;
        const auto status = PQresultStatus(r);
        const std::string message = PQresultErrorMessage(r);
        if (status == PGRES_TUPLES_OK && PQntuples(r) > 0) out = PQgetvalue(r, 0, 0);
        PQclear(r);
        if (status != PGRES_TUPLES_OK) throw std::runtime_error("test query failed: " + sql + ": " + message);
        return out;
    }

private:
    PGconn* conn_;
};

class StoreLocation {
public:
    virtual ~StoreLocation() = default;
    // What --db takes.
    virtual std::string db() const = 0;
    // The store as messages name it.
    virtual std::string name() const = 0;
    virtual void run_sql(const std::string& sql) = 0;
    virtual std::string query_text(const std::string& sql) = 0;
    // How many tables the store's database (PostgreSQL: its schema) holds.
    virtual int table_count() = 0;
};

class SqliteLocation final : public StoreLocation {
public:
    SqliteLocation() {
        std::string pattern = (std::filesystem::temp_directory_path() / "roofline-store-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        dir_ = pattern;
    }
    ~SqliteLocation() override {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    std::string db() const override { return (dir_ / "results.db").string(); }
    std::string name() const override { return db(); }
    void run_sql(const std::string& sql) override {
        sqlite3* handle = nullptr;
        if (sqlite3_open(db().c_str(), &handle) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
        char* message = nullptr;
        const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &message);
        const std::string detail = message ? message : "";
        sqlite3_free(message);
        sqlite3_close(handle);
        if (rc != SQLITE_OK) throw std::runtime_error("test SQL failed: " + sql + ": " + detail);
    }
    std::string query_text(const std::string& sql) override {
        sqlite3* handle = nullptr;
        sqlite3_open(db().c_str(), &handle);
        sqlite3_stmt* stmt = nullptr;
        std::string out;
        if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            if (const auto* text = sqlite3_column_text(stmt, 0)) out = reinterpret_cast<const char*>(text);
        sqlite3_finalize(stmt);
        sqlite3_close(handle);
        return out;
    }
    int table_count() override {
        if (!std::filesystem::exists(db())) return 0;
        // SQLite's own (sqlite_sequence, which AUTOINCREMENT keeps) are not the store's.
        return std::atoi(
            query_text("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
                .c_str());
    }

private:
    std::filesystem::path dir_;
};

// A schema of its own (dropped at the end) in the test database: the store URL
// selects it with options=-csearch_path=…, as a user sharing one database would.
class PostgresLocation final : public StoreLocation {
public:
    explicit PostgresLocation(const std::string& server_url)
        : server_url_(server_url), schema_(fresh_schema_name()), admin_(server_url) {
        admin_.exec(fmt::format("CREATE SCHEMA {}", schema_));
        admin_.exec(fmt::format("SET search_path TO {}", schema_));
    }
    ~PostgresLocation() override {
        try {
            PgSession(server_url_).exec(fmt::format("DROP SCHEMA IF EXISTS {} CASCADE", schema_));
        } catch (const std::exception&) {
        }
    }
    std::string db() const override { return with_parameter(server_url_, "options=-csearch_path%3D" + schema_); }
    std::string name() const override { return db(); }  // the test URL has no password
    void run_sql(const std::string& sql) override { admin_.exec(sql); }
    std::string query_text(const std::string& sql) override { return admin_.text(sql); }
    int table_count() override {
        const auto count = admin_.text(fmt::format("SELECT count(*) FROM pg_tables WHERE schemaname = '{}'", schema_));
        return std::atoi(count.c_str());
    }
    const std::string& schema() const { return schema_; }
    const std::string& server_url() const { return server_url_; }

private:
    static std::string fresh_schema_name() {
        static std::atomic<int> counter{0};
        return fmt::format("rl_test_{}_{}", ::getpid(), counter++);
    }
    std::string server_url_;
    std::string schema_;
    PgSession admin_;
};

// The fixture of the tests every back end must pass.
class StoreBackendTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override {
        if (GetParam() == Backend::SQLite) {
            location_ = std::make_unique<SqliteLocation>();
            return;
        }
        const auto url = test_pg_url();
        if (!url) GTEST_SKIP() << "no PostgreSQL server: ROOFLINE_TEST_PG_URL is not set (tests/store/postgresql.sh)";
        location_ = std::make_unique<PostgresLocation>(*url);
    }
    bool postgres() const { return GetParam() == Backend::PostgreSQL; }
    StoreLocation& location() { return *location_; }
    std::string db() const { return location_->db(); }

private:
    std::unique_ptr<StoreLocation> location_;
};

} // namespace store_test
