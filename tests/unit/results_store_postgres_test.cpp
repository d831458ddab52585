// What only the PostgreSQL back end has: URLs (shown without their password),
// servers that are down or do not answer, schemas, roles, other sessions' locks.
// The cases that need a server use ROOFLINE_TEST_PG_URL (tests/store/postgresql.sh)
// and are skipped without it; the others run everywhere.
#include "io/results_store.hpp"
#include "io/store_location.hpp"

#include <gtest/gtest.h>

#include "scoped_env.hpp"

#include "error_text.hpp"
#include "store_backend_fixture.hpp"
#include "store_samples.hpp"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace roofline;
using namespace store_test;

namespace {

using roofline::test::ScopedEnv;

// A TCP port on the loopback that takes connections (the kernel completes them) and
// never says a word: a server that hangs.
class SilentListener {
public:
    SilentListener() {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(fd_, 8) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
            throw std::runtime_error("cannot listen on the loopback");
        port_ = ntohs(address.sin_port);
    }
    ~SilentListener() { ::close(fd_); }
    int port() const { return port_; }

private:
    int fd_ = -1;
    int port_ = 0;
};

// A port on the loopback that nothing listens on (bound, then closed).
int closed_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), length);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

} // namespace

// ---------------------------------------------------------------- URLs (no server needed)

TEST(StoreLocation, PostgresUrlsAreToldFromPaths) {
    EXPECT_TRUE(is_postgres_url("postgresql://host/db"));
    EXPECT_TRUE(is_postgres_url("postgres://host/db"));
    EXPECT_TRUE(is_postgres_url("postgresql:///db?host=/run/postgresql"));
    EXPECT_FALSE(is_postgres_url("results.db"));
    EXPECT_FALSE(is_postgres_url("/data/postgresql://x.db"));
    EXPECT_FALSE(is_postgres_url("postgresql:/host/db"));
    EXPECT_FALSE(is_postgres_url(""));
}

TEST(StoreLocation, DisplayNameLeavesOutEveryPassword) {
    EXPECT_EQ(store_display_name("postgresql://alice:s3cret@db.example.org:5433/roofline?sslmode=require&password=other"),
              "postgresql://alice@db.example.org:5433/roofline?sslmode=require");
    EXPECT_EQ(store_display_name("postgres://bob@host/db"), "postgres://bob@host/db");
    EXPECT_EQ(store_display_name("postgresql:///roofline?host=/var/run/postgresql"),
              "postgresql:///roofline?host=/var/run/postgresql");
    EXPECT_EQ(store_display_name("postgresql://:pw@host/db"), "postgresql://@host/db");
    EXPECT_EQ(store_display_name("postgresql://u:p@ss/w@host/db"), "postgresql://u@host/db");  // raw '@' and '/'
    EXPECT_EQ(store_display_name("postgresql://host/db?password=x"), "postgresql://host/db");
    EXPECT_EQ(store_display_name("/home/me/results.db"), "/home/me/results.db");
    EXPECT_EQ(store_display_name("a:b@c.db"), "a:b@c.db");  // a file name, not a URL
}

TEST(StoreLocation, SecretsAreThePasswordsAsTyped) {
    EXPECT_EQ(store_url_secrets("postgresql://alice:s3cret@host/db?password=other&sslmode=require"),
              (std::vector<std::string>{"s3cret", "other"}));
    EXPECT_TRUE(store_url_secrets("postgresql://alice@host/db").empty());
    EXPECT_TRUE(store_url_secrets("/tmp/a:b@c.db").empty());
}

// ---------------------------------------------------------------- servers that fail (no server needed)

TEST(ResultsStorePostgres, ServerThatIsDownFailsAtOnceWithoutThePassword) {
    const int port = closed_port();
    const std::string url = fmt::format("postgresql://alice:s3cret@127.0.0.1:{}/roofline", port);
    const std::string shown =
        fmt::format("cannot connect to results database postgresql://alice@127.0.0.1:{}/roofline: ", port);
    const auto start = std::chrono::steady_clock::now();
    for (const auto& message : {error_of([&] { ResultsStore store(url); }),
                                error_of([&] { ResultsStore::open_read_only(url); }),
                                error_of([&] { check_store_writable(url); })}) {
        EXPECT_EQ(message.rfind(shown, 0), 0u) << message;
        EXPECT_NE(message.find("Connection refused"), std::string::npos) << message;
        EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
    }
    EXPECT_LT(seconds_since(start), 5.0);
}

// A server that takes the connection and never answers: connect_timeout (10 s unless
// the URL says otherwise) ends the wait; the command fails, it does not hang.
TEST(ResultsStorePostgres, ServerThatNeverAnswersTimesOut) {
    SilentListener silent;
    const std::string url = fmt::format("postgresql://alice:s3cret@127.0.0.1:{}/roofline", silent.port());
    const auto start = std::chrono::steady_clock::now();
    const auto message = error_of([&] { ResultsStore::open_read_only(url); });
    const double waited = seconds_since(start);
    EXPECT_EQ(message.rfind(fmt::format("cannot connect to results database postgresql://alice@127.0.0.1:{}/roofline",
                                        silent.port()),
                            0),
              0u)
        << message;
    EXPECT_NE(message.find("timeout"), std::string::npos) << message;
    EXPECT_GE(waited, 8.0);   // the default connect_timeout, 10 s
    EXPECT_LT(waited, 30.0);  // and not forever
    // The URL's own timeout wins over the default (libpq's least is 2 s).
    const auto quick = std::chrono::steady_clock::now();
    EXPECT_NE(error_of([&] { ResultsStore store(url + "?connect_timeout=2"); }).find("timeout"), std::string::npos);
    EXPECT_LT(seconds_since(quick), 6.0);
}

TEST(ResultsStorePostgres, BadUrlIsAClearErrorThatHidesThePassword) {
    const auto unknown = error_of([] { ResultsStore store("postgresql://u:pw1@localhost/db?no_such_option=1"); });
    const std::string shown = "results database postgresql://u@localhost/db?no_such_option=1: not a valid PostgreSQL URL: ";
    EXPECT_EQ(unknown.rfind(shown, 0), 0u) << unknown;
    EXPECT_NE(unknown.find("no_such_option"), std::string::npos) << unknown;
    // libpq quotes a token it cannot decode: here the password itself.
    const auto encoded = error_of([] { ResultsStore::open_read_only("postgresql://u:p%zzw@localhost/db"); });
    EXPECT_NE(encoded.find("not a valid PostgreSQL URL"), std::string::npos) << encoded;
    EXPECT_EQ(encoded.find("p%zzw"), std::string::npos) << encoded;
    const auto port = error_of([] { check_store_writable("postgresql://localhost:notaport/db"); });
    EXPECT_NE(port.find("postgresql://localhost:notaport/db"), std::string::npos) << port;
}

// ---------------------------------------------------------------- with a server

class ResultsStorePostgresServer : public testing::Test {
protected:
    void SetUp() override {
        const auto url = test_pg_url();
        if (!url) GTEST_SKIP() << "no PostgreSQL server: ROOFLINE_TEST_PG_URL is not set (tests/store/postgresql.sh)";
        location_ = std::make_unique<PostgresLocation>(*url);
    }
    PostgresLocation& location() { return *location_; }

private:
    std::unique_ptr<PostgresLocation> location_;
};

TEST_F(ResultsStorePostgresServer, PasswordInTheUrlIsNeverShown) {
    // The test server trusts local connections, so the password is accepted and unused.
    const std::string url = with_parameter(location().db(), "password=hunter2");
    ResultsStore store(url);
    store.save_machine(sample_model("CPU P"));
    EXPECT_EQ(store.path(), location().db());
    EXPECT_EQ(ResultsStore::open_read_only(url)->path(), location().db());
    location().run_sql("UPDATE machines SET json = 'not json'");
    const auto message = [&]() -> std::string {
        try {
            store.latest_machine();
        } catch (const std::exception& e) {
            return e.what();
        }
        return "(no error)";
    }();
    EXPECT_NE(message.find("or remove this one: roofline remove --machine 1 --db "), std::string::npos) << message;
    EXPECT_NE(message.find("results store " + location().db() + ": machine 1 (table machines, id 1) is damaged: its JSON "
                           "text is not valid JSON at byte 2 of 8 (near 'not json')"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

TEST_F(ResultsStorePostgresServer, TheDefaultStoreMayBeAUrl) {
    ScopedEnv db("ROOFLINE_DB", location().db());
    EXPECT_EQ(ResultsStore::default_path(), location().db());
    EXPECT_NO_THROW(check_store_writable(""));
    const auto id = ResultsStore::open_db_option("")->save_points("run", sample_points("a"));
    EXPECT_EQ(location().query_text("SELECT count(*) FROM point_sets"), "1");
    EXPECT_EQ(ResultsStore::open_read_only(location().db())->points(id)->size(), 2u);
}

TEST_F(ResultsStorePostgresServer, ASchemaThatDoesNotExistIsSaid) {
    const std::string url = with_parameter(location().server_url(), "options=-csearch_path%3Dno_such_schema_here");
    const auto write = error_of([&] { ResultsStore store(url); });
    EXPECT_NE(write.find("no schema to keep the tables in"), std::string::npos) << write;
    EXPECT_THROW(ResultsStore::open_read_only(url), NoStoreError);
    PgSession server(location().server_url());
    EXPECT_EQ(server.text("SELECT count(*) FROM pg_namespace WHERE nspname = 'no_such_schema_here'"), "0");
}

// Another session holds a lock that blocks what we need: readers and the up-front
// check give up within seconds and say why (writers would wait a minute).
TEST_F(ResultsStorePostgresServer, LockedTablesFailFastAndSayWhy) {
    {
        ResultsStore store(location().db());
        store.save_machine(sample_model("committed"));
    }
    PgSession other(location().db());
    other.exec("BEGIN; LOCK TABLE machines IN SHARE MODE");  // readers pass, writers wait
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(ResultsStore::open_read_only(location().db())->list_machines().size(), 1u);
    EXPECT_LT(seconds_since(start), 2.0);
    start = std::chrono::steady_clock::now();
    const auto check = error_of([&] { check_store_writable(location().db()); });
    EXPECT_LT(seconds_since(start), 15.0);
    EXPECT_NE(check.find("cannot write results database " + location().db()), std::string::npos) << check;
    EXPECT_NE(check.find("is locked by another process"), std::string::npos) << check;
    EXPECT_EQ(times_named(check, location().db()), 1) << check;  // not "... results database URL: results database URL ..."
    other.exec("ROLLBACK; BEGIN; LOCK TABLE machines IN ACCESS EXCLUSIVE MODE");  // readers wait too
    start = std::chrono::steady_clock::now();
    const auto read = error_of([&] { ResultsStore::open_read_only(location().db())->list_machines(); });
    EXPECT_LT(seconds_since(start), 15.0);
    EXPECT_NE(read.find("is locked by another process"), std::string::npos) << read;
    EXPECT_EQ(times_named(read, location().db()), 1) << read;
    other.exec("ROLLBACK");
    EXPECT_NO_THROW(check_store_writable(location().db()));
}

// A role that may only read: readers work, the up-front check says what is missing,
// and nothing (not the schema) is written on its behalf.
TEST_F(ResultsStorePostgresServer, ARoleThatMayOnlyReadIsToldUpFront) {
    {
        ResultsStore store(location().db());
        store.save_machine(sample_model("CPU R"));
    }
    const std::string role = location().schema() + "_reader";
    try {
        location().run_sql(fmt::format("CREATE ROLE {} LOGIN", role));
    } catch (const std::exception& e) {
        GTEST_SKIP() << "cannot create a role on the test server: " << e.what();
    }
    location().run_sql(fmt::format("GRANT USAGE ON SCHEMA {0} TO {1}; GRANT SELECT ON ALL TABLES IN SCHEMA {0} TO {1}",
                                   location().schema(), role));
    const std::string url = with_parameter(location().db(), "user=" + role);
    {
        const auto reader = ResultsStore::open_read_only(url);
        EXPECT_EQ(reader->latest_machine()->cpu.model, "CPU R");
        const auto check = error_of([&] { check_store_writable(url); });
        EXPECT_NE(check.find("cannot write results database"), std::string::npos) << check;
        EXPECT_NE(check.find("permission denied"), std::string::npos) << check;
        EXPECT_EQ(times_named(check, url), 1) << check;
        EXPECT_THROW(ResultsStore(url).save_machine(sample_model("no")), std::runtime_error);
    }
    EXPECT_EQ(location().query_text("SELECT count(*) FROM machines"), "1");
    location().run_sql(fmt::format("DROP OWNED BY {0}; DROP ROLE {0}", role));
}

// Two first writers creating the same store at once: one creates, the other finds it.
TEST_F(ResultsStorePostgresServer, FirstWritersRacingToCreateTheTablesBothSucceed) {
    for (int round = 0; round < 3; ++round) {
        location().run_sql("DROP TABLE IF EXISTS measurement_cache, point_sets, machines, meta");
        std::vector<std::string> errors(6);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < errors.size(); ++t)
            threads.emplace_back([&, t] {
                errors[t] = error_of([&] { ResultsStore(location().db()).save_machine(sample_model("x")); });
            });
        for (auto& thread : threads) thread.join();
        for (const auto& error : errors) EXPECT_EQ(error, "(no error)");
        EXPECT_EQ(location().query_text("SELECT count(*) FROM machines"), std::to_string(errors.size()));
        EXPECT_EQ(location().table_count(), 4);
    }
}

// A store opened, then idle while the server dropped its connection (an idle timeout, a
// restart): the next call connects again instead of failing the run.
TEST_F(ResultsStorePostgresServer, ADroppedConnectionIsMadeAgain) {
    ResultsStore writer(location().db());
    writer.save_machine(sample_model("before"));
    const auto reader = ResultsStore::open_read_only(location().db());
    ASSERT_EQ(reader->list_machines().size(), 1u);
    const auto dropped = location().query_text(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE application_name = 'roofline' AND datname = current_database() AND pid <> pg_backend_pid()");
    EXPECT_EQ(dropped, "2");  // the writer's and the reader's
    EXPECT_GT(writer.save_machine(sample_model("after")), 1);
    EXPECT_EQ(reader->list_machines().size(), 2u);
    // The reader's session is read-only again after reconnecting.
    EXPECT_THROW(reader->save_machine(sample_model("no")), std::runtime_error);
    EXPECT_EQ(writer.list_machines().size(), 2u);
}
