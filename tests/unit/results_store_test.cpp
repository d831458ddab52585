#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"

#include <gtest/gtest.h>

#include "error_text.hpp"
#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

MachineModel sample_model(const std::string& cpu_model) {
    MachineModel m;
    m.cpu.model = cpu_model;
    m.cpu.isa = {"sse2", "avx2"};
    m.compute.push_back({"dp avx2 fma 1t", "dp", "avx2", 256, "fma", "8 fma chains", 1, 51.2, 51.2, 0,
                         {51.2, 50, 52, 0.01, 5, true}});
    m.memory.push_back({"L1", "load", "avx2", 1, 200.5, 200.5, 0, 16384, {}, {200.5, 190, 201, 0.02, 5, true}});
    m.curves.push_back({"load", "avx2", 1, {{4096, 210.0}, {1 << 20, 90.0}}});
    m.environment.hostname = "host-a";
    m.environment.mode = BenchMode::quick;
    m.environment.timestamp = "2026-11-03T10:20:30Z";
    m.environment.warnings = {"no PMU"};
    return m;
}

class TempDir {
public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "roofline-store-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

// Sets (or unsets, for nullopt) an environment variable for one scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) ::setenv(name, value->c_str(), 1);
        else ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

} // namespace

TEST(ResultsStore, EmptyStoreHasNoMachines) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    EXPECT_FALSE(store.latest_machine().has_value());
    EXPECT_FALSE(store.machine(1).has_value());
    EXPECT_TRUE(store.list_machines().empty());
}

TEST(ResultsStore, SaveThenLatestIsEqual) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    const auto model = sample_model("CPU A");
    const auto id = store.save_machine(model);
    EXPECT_GT(id, 0);
    const auto latest = store.latest_machine();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(machine_to_json(*latest), machine_to_json(model));
    const auto by_id = store.machine(id);
    ASSERT_TRUE(by_id.has_value());
    EXPECT_EQ(machine_to_json(*by_id), machine_to_json(model));
}

TEST(ResultsStore, PersistsAcrossOpens) {
    TempDir dir;
    const auto path = dir.file("results.db");
    { ResultsStore(path).save_machine(sample_model("CPU A")); }
    ResultsStore reopened(path);
    ASSERT_TRUE(reopened.latest_machine().has_value());
    EXPECT_EQ(reopened.latest_machine()->cpu.model, "CPU A");
}

TEST(ResultsStore, ListIsOldestFirstAndLatestIsNewest) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    auto partial = sample_model("CPU C");
    partial.partial = true;
    partial.environment.mode = BenchMode::full;
    const auto first = store.save_machine(sample_model("CPU A"));
    const auto second = store.save_machine(sample_model("CPU B"));
    const auto third = store.save_machine(partial);
    EXPECT_LT(first, second);
    EXPECT_LT(second, third);

    const auto rows = store.list_machines();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].id, first);
    EXPECT_EQ(rows[0].cpu_model, "CPU A");
    EXPECT_EQ(rows[1].cpu_model, "CPU B");
    EXPECT_EQ(rows[2].cpu_model, "CPU C");
    EXPECT_TRUE(rows[2].partial);
    EXPECT_FALSE(rows[0].partial);
    EXPECT_EQ(rows[2].mode, "full");
    EXPECT_EQ(rows[0].hostname, "host-a");
    EXPECT_EQ(rows[0].created.size(), 20u); // 2026-11-03T10:20:30Z
    EXPECT_EQ(rows[0].created.back(), 'Z');

    EXPECT_EQ(store.latest_machine()->cpu.model, "CPU C");
    EXPECT_EQ(store.machine(second)->cpu.model, "CPU B");
}

TEST(ResultsStore, UserPathInMissingDirectoryIsAnError) {
    TempDir dir;
    const auto path = dir.file("nowhere/results.db");
    try {
        ResultsStore store(path);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("cannot open results database " + path), std::string::npos) << message;
        EXPECT_NE(message.find("directory " + dir.file("nowhere") + " does not exist"), std::string::npos)
            << message;
    }
    EXPECT_FALSE(fs::exists(dir.file("nowhere")));
}

TEST(ResultsStore, DefaultLocationCreatesParentDirectories) {
    TempDir dir;
    const auto path = dir.file("deep/er/results.db");
    ResultsStore store(path, /*create_parent_dirs=*/true);
    store.save_machine(sample_model("CPU A"));
    EXPECT_TRUE(fs::exists(path));
}

TEST(ResultsStore, DefaultPathHonoursEnvironment) {
    {
        ScopedEnv db("ROOFLINE_DB", "/tmp/custom.db");
        ScopedEnv xdg("XDG_DATA_HOME", "/xdg");
        EXPECT_EQ(ResultsStore::default_path(), "/tmp/custom.db");
    }
    {
        ScopedEnv db("ROOFLINE_DB", std::nullopt);
        ScopedEnv xdg("XDG_DATA_HOME", "/xdg/data");
        EXPECT_EQ(ResultsStore::default_path(), "/xdg/data/roofline/results.db");
    }
    // A home directory that exists (the store's own directories are made under it later).
    const auto home_dir = fs::temp_directory_path() / fmt::format("rl-home-{}", ::getpid());
    fs::create_directories(home_dir);
    {
        ScopedEnv db("ROOFLINE_DB", std::nullopt);
        ScopedEnv xdg("XDG_DATA_HOME", std::nullopt);
        ScopedEnv home("HOME", home_dir.string());
        EXPECT_EQ(ResultsStore::default_path(), (home_dir / ".local/share/roofline/results.db").string());
    }
    {
        // Relative XDG paths are invalid per the spec and ignored.
        ScopedEnv db("ROOFLINE_DB", "");
        ScopedEnv xdg("XDG_DATA_HOME", "relative");
        ScopedEnv home("HOME", home_dir.string());
        EXPECT_EQ(ResultsStore::default_path(), (home_dir / ".local/share/roofline/results.db").string());
    }
    {
        // A home that does not exist is refused, not created at the root later.
        ScopedEnv db("ROOFLINE_DB", std::nullopt);
        ScopedEnv xdg("XDG_DATA_HOME", std::nullopt);
        ScopedEnv home("HOME", (home_dir / "missing").string());
        EXPECT_THROW(ResultsStore::default_path(), std::runtime_error);
    }
    fs::remove_all(home_dir);
}

TEST(ResultsStore, CorruptStoredJsonNamesTheRow) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    auto bad = sample_model("CPU A");
    bad.schema = "roofline.machine/99"; // saved verbatim, rejected on read
    const auto id = store.save_machine(bad);
    try {
        store.machine(id);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        EXPECT_NE(std::string(e.what()).find("/schema"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(dir.file("results.db")), std::string::npos) << e.what();
    }
}

TEST(ResultsStoreConcurrency, TwoProcessesSavingAtOnceBothLand) {
    TempDir dir;
    const auto path = dir.file("results.db");
    constexpr int per_process = 20;
    std::vector<pid_t> children;
    for (int process = 0; process < 2; ++process) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            int status = 0;
            try {
                // Each process opens (and possibly creates) the database itself.
                ResultsStore store(path);
                for (int i = 0; i < per_process; ++i) {
                    store.save_machine(sample_model("process " + std::to_string(process)));
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "child %d: %s\n", process, e.what());
                status = 1;
            }
            ::_exit(status);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    ResultsStore store(path);
    const auto rows = store.list_machines();
    EXPECT_EQ(rows.size(), 2u * per_process);
    int from_first = 0;
    for (const auto& row : rows) from_first += row.cpu_model == "process 0";
    EXPECT_EQ(from_first, per_process);
}

TEST(ResultsStoreConcurrency, ThreadsWithSeparateStoresAllLand) {
    TempDir dir;
    const auto path = dir.file("results.db");
    constexpr int per_thread = 20;
    constexpr int thread_count = 2;
    std::vector<std::string> errors(thread_count);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            try {
                ResultsStore store(path);
                for (int i = 0; i < per_thread; ++i) store.save_machine(sample_model("thread"));
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors) EXPECT_EQ(error, "");
    EXPECT_EQ(ResultsStore(path).list_machines().size(), static_cast<std::size_t>(per_thread * thread_count));
}

// ---------------------------------------------------------------- point sets

namespace {

std::vector<Point> sample_points(const std::string& name) {
    Point p;
    p.name = name;
    p.series = "kernels";
    p.work = 2e9;
    p.bytes = {{"L1", 3.2e10}, {"DRAM", 1.6e10}};
    p.seconds = 0.25;
    p.threads = 2;
    p.source = "analytic";
    p.details = {{"flops_dp", 2e9}};
    Point ops = p;
    ops.name = name + " exchanges";
    ops.work_unit = "exchange";
    return {p, ops};
}

// Runs SQL straight on a database file, bypassing ResultsStore (to build old layouts).
void run_sql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const std::string detail = message ? message : "";
    sqlite3_free(message);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << detail;
}

std::string query_text(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* stmt = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        if (const auto* text = sqlite3_column_text(stmt, 0)) out = reinterpret_cast<const char*>(text);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}

} // namespace

TEST(ResultsStorePoints, EmptyStoreHasNoPoints) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    EXPECT_FALSE(store.latest_points().has_value());
    EXPECT_FALSE(store.points(1).has_value());
    EXPECT_TRUE(store.list_point_sets().empty());
}

TEST(ResultsStorePoints, SaveThenReadBackEqual) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    const auto points = sample_points("triad");
    const auto id = store.save_points("kernels run", points);
    EXPECT_GT(id, 0);
    const auto latest = store.latest_points();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(points_to_json(*latest), points_to_json(points));
    const auto by_id = store.points(id);
    ASSERT_TRUE(by_id.has_value());
    EXPECT_EQ(points_to_json(*by_id), points_to_json(points));
    EXPECT_EQ((*by_id)[1].work_unit, "exchange");
}

TEST(ResultsStorePoints, ListIsOldestFirstWithMachineAndCount) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    const auto machine_id = store.save_machine(sample_model("CPU A"));
    const auto first = store.save_points("measure ./app", sample_points("a"), machine_id);
    const auto second = store.save_points("model loop.yaml", {sample_points("b")[0]});
    const auto empty = store.save_points("nothing", {});
    EXPECT_LT(first, second);
    EXPECT_LT(second, empty);

    const auto rows = store.list_point_sets();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].id, first);
    EXPECT_EQ(rows[0].name, "measure ./app");
    EXPECT_EQ(rows[0].machine_id, machine_id);
    EXPECT_EQ(rows[0].point_count, 2);
    EXPECT_EQ(rows[0].created.size(), 20u);
    EXPECT_EQ(rows[1].name, "model loop.yaml");
    EXPECT_FALSE(rows[1].machine_id.has_value());
    EXPECT_EQ(rows[1].point_count, 1);
    EXPECT_EQ(rows[2].point_count, 0);

    // Latest is the newest set, even an empty one; older sets stay reachable by id.
    ASSERT_TRUE(store.latest_points().has_value());
    EXPECT_TRUE(store.latest_points()->empty());
    EXPECT_EQ(store.points(first)->at(0).name, "a");
    EXPECT_EQ(store.points(second)->at(0).name, "b");
}

TEST(ResultsStorePoints, MachinesAndPointsDoNotInterfere) {
    TempDir dir;
    const auto path = dir.file("results.db");
    {
        ResultsStore store(path);
        store.save_points("p", sample_points("a"));
        store.save_machine(sample_model("CPU A"));
    }
    ResultsStore reopened(path);
    EXPECT_EQ(reopened.list_machines().size(), 1u);
    EXPECT_EQ(reopened.list_point_sets().size(), 1u);
    EXPECT_EQ(reopened.latest_machine()->cpu.model, "CPU A");
    EXPECT_EQ(reopened.latest_points()->size(), 2u);
}

TEST(ResultsStorePoints, RefusesPointsItCouldNotReadBack) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    auto points = sample_points("a");
    points[0].name = "";
    EXPECT_THROW(store.save_points("bad", points), SchemaError);
    EXPECT_TRUE(store.list_point_sets().empty());
}

TEST(ResultsStorePoints, CorruptStoredPointsNameTheRow) {
    TempDir dir;
    const auto path = dir.file("results.db");
    std::int64_t id = 0;
    { id = ResultsStore(path).save_points("p", sample_points("a")); }
    run_sql(path, "UPDATE point_sets SET json = '{\"schema\": \"roofline.points/1\", \"points\": [{}]}'");
    ResultsStore store(path);
    try {
        store.points(id);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path + " (point set " + std::to_string(id) + "): /points/0/name: missing"),
                  std::string::npos)
            << message;
    }
}

TEST(ResultsStoreMigration, VersionOneDatabaseGainsPointSets) {
    TempDir dir;
    const auto path = dir.file("results.db");
    // The layout written by roofline before point sets existed.
    std::string machine_json;
    for (char ch : machine_to_json(sample_model("Old CPU")).dump()) {
        if (ch == '\'') machine_json += '\'';  // SQL string literal: '' is one quote
        machine_json += ch;
    }
    run_sql(path,
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('store_schema_version', '1');"
            "CREATE TABLE machines (id INTEGER PRIMARY KEY, created TEXT NOT NULL, hostname TEXT, "
            "cpu_model TEXT, mode TEXT, partial INTEGER NOT NULL DEFAULT 0, schema TEXT NOT NULL, "
            "json TEXT NOT NULL);"
            "INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES "
            "('2026-11-01T00:00:00Z', 'h', 'Old CPU', 'quick', 0, 'roofline.machine/1', '" +
                machine_json + "');");

    ResultsStore store(path);
    EXPECT_EQ(store.latest_machine()->cpu.model, "Old CPU");
    EXPECT_TRUE(store.list_point_sets().empty());
    const auto id = store.save_points("after upgrade", sample_points("a"), 1);
    EXPECT_EQ(store.points(id)->size(), 2u);
    EXPECT_EQ(query_text(path, "SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
}

TEST(ResultsStoreMigration, NewerLayoutIsRefused) {
    TempDir dir;
    const auto path = dir.file("results.db");
    { ResultsStore store(path); }
    run_sql(path, "UPDATE meta SET value = '3' WHERE key = 'store_schema_version'");
    try {
        ResultsStore store(path);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("layout version 3, newer than this roofline understands (2)"),
                  std::string::npos)
            << e.what();
    }
}

// ---------------------------------------------------------------- readers (issue 10)

namespace {

// A raw connection holding a lock, as another process's writer would.
class RawConnection {
public:
    explicit RawConnection(const std::string& path) {
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("open failed");
    }
    ~RawConnection() { sqlite3_close(db_); }
    int exec(const std::string& sql) { return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); }

private:
    sqlite3* db_ = nullptr;
};

void write_bytes(const std::string& path, const std::string& bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}


double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST(ResultsStoreReadOnly, MissingFileSaysSoAndIsNotCreated) {
    TempDir dir;
    const auto path = dir.file("results.db");
    EXPECT_EQ(error_of([&] { ResultsStore::open_read_only(path); }), "no results store at " + path);
    EXPECT_FALSE(fs::exists(path));
}

TEST(ResultsStoreReadOnly, ReadsWhatAWriterSaved) {
    TempDir dir;
    const auto path = dir.file("results.db");
    {
        ResultsStore store(path);
        store.save_machine(sample_model("CPU R"));
        store.save_points("run", sample_points("a"));
    }
    const auto reader = ResultsStore::open_read_only(path);
    EXPECT_EQ(reader->latest_machine()->cpu.model, "CPU R");
    EXPECT_EQ(reader->list_point_sets().size(), 1u);
    EXPECT_THROW(reader->save_machine(sample_model("no")), std::runtime_error);
}

TEST(ResultsStoreReadOnly, DoesNotMigrateAnOldLayout) {
    TempDir dir;
    const auto path = dir.file("results.db");
    run_sql(path,
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('store_schema_version', '1');"
            "CREATE TABLE machines (id INTEGER PRIMARY KEY, created TEXT NOT NULL, hostname TEXT, "
            "cpu_model TEXT, mode TEXT, partial INTEGER NOT NULL DEFAULT 0, schema TEXT NOT NULL, "
            "json TEXT NOT NULL);");
    const auto reader = ResultsStore::open_read_only(path);
    EXPECT_TRUE(reader->list_point_sets().empty());
    EXPECT_FALSE(reader->latest_points());
    EXPECT_EQ(query_text(path, "SELECT value FROM meta WHERE key = 'store_schema_version'"), "1");
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM sqlite_master WHERE name = 'point_sets'"), "0");
}

TEST(ResultsStoreReadOnly, NewerLayoutIsRefused) {
    TempDir dir;
    const auto path = dir.file("results.db");
    { ResultsStore store(path); }
    run_sql(path, "UPDATE meta SET value = '3' WHERE key = 'store_schema_version'");
    EXPECT_NE(error_of([&] { ResultsStore::open_read_only(path); }).find("layout version 3, newer than"),
              std::string::npos);
}

TEST(ResultsStoreReadOnly, EmptyOrForeignDatabaseIsNotAStore) {
    TempDir dir;
    const auto empty = dir.file("empty.db");
    write_bytes(empty, "");
    EXPECT_NE(error_of([&] { ResultsStore::open_read_only(empty); }).find("is not a roofline results store"),
              std::string::npos);
    EXPECT_EQ(fs::file_size(empty), 0u);  // nothing written
    const auto other = dir.file("other.db");
    run_sql(other, "CREATE TABLE t (x);");
    EXPECT_NE(error_of([&] { ResultsStore::open_read_only(other); }).find("has no roofline tables"), std::string::npos);
}

TEST(ResultsStoreReadOnly, CorruptFilesFailClearlyForReadersAndWriters) {
    TempDir dir;
    std::string random(8192, '\0');
    unsigned state = 12345;
    for (auto& ch : random) ch = static_cast<char>((state = state * 1103515245u + 12345u) >> 16);
    const std::vector<std::pair<std::string, std::string>> files = {
        {"random.db", random}, {"text.db", "this is a text file, not a database\n"}};
    for (const auto& [name, bytes] : files) {
        const auto path = dir.file(name);
        write_bytes(path, bytes);
        const auto read_error = error_of([&] { ResultsStore::open_read_only(path); });
        EXPECT_NE(read_error.find("not a roofline results store or is damaged"), std::string::npos) << read_error;
        const auto write_error = error_of([&] { ResultsStore store(path); });
        EXPECT_NE(write_error.find("not a roofline results store or is damaged"), std::string::npos) << write_error;
        const auto check_error = error_of([&] { check_store_writable(path); });
        EXPECT_NE(check_error.find("not a roofline results store or is damaged"), std::string::npos) << check_error;
    }
}

TEST(ResultsStoreReadOnly, TruncatedDatabaseFailsClearly) {
    TempDir dir;
    const auto path = dir.file("results.db");
    {
        ResultsStore store(path);
        for (int i = 0; i < 40; ++i) store.save_machine(sample_model("CPU " + std::to_string(i)));
    }
    const auto size = fs::file_size(path);
    ASSERT_GT(size, 16384u);
    fs::resize_file(path, size / 2);
    // Either the open or the reads notice; nothing crashes and the message says why.
    const auto message = error_of([&] {
        const auto reader = ResultsStore::open_read_only(path);
        reader->list_machines();
        for (const auto& row : reader->list_machines()) reader->machine(row.id);
    });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_TRUE(message.find("malformed") != std::string::npos || message.find("damaged") != std::string::npos ||
                message.find("corrupt") != std::string::npos)
        << message;
}

TEST(ResultsStoreReadOnly, ReaderDoesNotWaitForAWalWriter) {
    TempDir dir;
    const auto path = dir.file("results.db");
    {
        ResultsStore store(path);
        store.save_machine(sample_model("committed"));
    }
    RawConnection writer(path);
    ASSERT_EQ(writer.exec("BEGIN IMMEDIATE"), SQLITE_OK);
    ASSERT_EQ(writer.exec("INSERT INTO machines (created, schema, json) VALUES ('x', 'x', '{}')"), SQLITE_OK);
    // A reader that waited would give up with "locked" after a few seconds: succeeding is the proof.
    const auto reader = ResultsStore::open_read_only(path);
    EXPECT_EQ(reader->list_machines().size(), 1u);  // the committed row only
    writer.exec("ROLLBACK");
}

TEST(ResultsStoreReadOnly, LockedRollbackJournalStoreFailsFastAndSaysWhy) {
    TempDir dir;
    const auto path = dir.file("results.db");
    {
        ResultsStore store(path);
        store.save_machine(sample_model("committed"));
    }
    run_sql(path, "PRAGMA journal_mode=DELETE");  // as an older tool may leave it
    RawConnection writer(path);
    ASSERT_EQ(writer.exec("BEGIN EXCLUSIVE"), SQLITE_OK);  // readers cannot even share
    const auto start = std::chrono::steady_clock::now();
    const auto message = error_of([&] { ResultsStore::open_read_only(path)->list_machines(); });
    EXPECT_LT(seconds_since(start), 30.0);  // not the writers' minute
    EXPECT_NE(message.find("is locked by another process"), std::string::npos) << message;
    writer.exec("ROLLBACK");
}

TEST(ResultsStoreCheckWritable, AcceptsAUsablePathAndWritesNoRows) {
    TempDir dir;
    const auto path = dir.file("results.db");
    EXPECT_NO_THROW(check_store_writable(path));
    ResultsStore store(path);
    EXPECT_TRUE(store.list_machines().empty());
}

TEST(ResultsStoreCheckWritable, RefusesAMissingDirectory) {
    TempDir dir;
    const auto path = dir.file("no/such/dir/results.db");
    EXPECT_NE(error_of([&] { check_store_writable(path); }).find("does not exist"), std::string::npos);
}

TEST(ResultsStoreCheckWritable, RefusesAStoreLockedByAWriterWithinSeconds) {
    TempDir dir;
    const auto path = dir.file("results.db");
    { ResultsStore store(path); }
    RawConnection writer(path);
    ASSERT_EQ(writer.exec("BEGIN IMMEDIATE"), SQLITE_OK);
    const auto start = std::chrono::steady_clock::now();
    const auto message = error_of([&] { check_store_writable(path); });
    EXPECT_LT(seconds_since(start), 30.0);  // not the writers' minute
    EXPECT_NE(message.find("is locked by another process"), std::string::npos) << message;
    writer.exec("ROLLBACK");
}

TEST(ResultsStoreJson, InvalidUtf8NamesAreStoredNotLost) {
    TempDir dir;
    ResultsStore store(dir.file("results.db"));
    auto points = sample_points("bad\xff\xfename");
    const auto id = store.save_points("run \xff", points);
    const auto back = store.points(id);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->size(), 2u);
    EXPECT_NE((*back)[0].name.find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
}

// ---------------------------------------------------------------- hostile paths (issue 10, second sweep)

namespace {

std::string file_bytes(const std::string& path) {
    std::string bytes;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) bytes.append(buffer, n);
        std::fclose(f);
    }
    return bytes;
}

} // namespace

// SQLite's first read of a FIFO waits for a writer forever: refused before opening.
TEST(ResultsStoreHostilePaths, AFifoIsRefusedAtOnceByReadersAndWriters) {
    TempDir dir;
    const auto path = dir.file("fifo.db");
    ASSERT_EQ(::mkfifo(path.c_str(), 0666), 0);
    const auto expected = "cannot open results database " + path + ": not a regular file (a FIFO); pass another --db";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(error_of([&] { ResultsStore store(path); }), expected);
    EXPECT_EQ(error_of([&] { ResultsStore::open_read_only(path); }), expected);
    EXPECT_EQ(error_of([&] { check_store_writable(path); }), expected);
    EXPECT_LT(seconds_since(start), 5.0);
    EXPECT_TRUE(fs::is_fifo(path));
}

// Another program's database: writers refuse it as readers do, and write nothing
// into it (not even the WAL journal mode in its header).
TEST(ResultsStoreHostilePaths, AForeignDatabaseGetsNothingOfOurs) {
    TempDir dir;
    const auto path = dir.file("other.db");
    run_sql(path, "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    const auto before = file_bytes(path);
    const auto expected = "results database " + path +
                          " is not a roofline results store (it has no roofline tables); pass another --db";
    EXPECT_EQ(error_of([&] { ResultsStore store(path); }), expected);
    EXPECT_EQ(error_of([&] { check_store_writable(path); }), expected);
    EXPECT_EQ(error_of([&] { ResultsStore::open_read_only(path); }), expected);
    EXPECT_EQ(file_bytes(path), before);
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM sqlite_master"), "1");
    EXPECT_FALSE(fs::exists(path + "-wal"));
}

TEST(ResultsStoreHostilePaths, AnEmptyFileOrAStoreWithExtraTablesIsStillUsed) {
    TempDir dir;
    const auto empty = dir.file("empty.db");
    write_bytes(empty, "");
    EXPECT_NO_THROW(ResultsStore store(empty));
    EXPECT_NO_THROW(ResultsStore::open_read_only(empty));
    const auto extra = dir.file("extra.db");
    {
        ResultsStore store(extra);
        store.save_machine(sample_model("CPU X"));
    }
    run_sql(extra, "CREATE TABLE notes (x);");
    ResultsStore store(extra);
    EXPECT_EQ(store.list_machines().size(), 1u);
}

// The measurement cache: points remembered under keys with their set, the newest wins, a
// store written before the cache existed (no table) has nothing cached.
TEST(ResultsStore, MeasurementCacheFindsPointsByKey) {
    TempDir dir;
    const auto path = dir.file("results.db");
    auto point = [](const std::string& name, double seconds) {
        Point p = sample_points(name)[0];
        p.seconds = seconds;
        return p;
    };
    {
        ResultsStore store(path);
        const std::vector<Point> first = {point("a", 1), point("b", 2)};
        const std::vector<std::string> keys = {"key-a", ""};  // b is not remembered
        store.save_points("first", first, {}, nullptr, &keys);
        ASSERT_TRUE(store.cached_point("key-a").has_value());
        EXPECT_EQ(store.cached_point("key-a")->name, sample_points("a")[0].name);
        EXPECT_DOUBLE_EQ(store.cached_point("key-a")->seconds, 1);
        EXPECT_FALSE(store.cached_point("").has_value());
        EXPECT_FALSE(store.cached_point("key-b").has_value());
        const std::vector<std::string> again = {"key-a"};
        store.save_points("rerun", {point("a", 0.5)}, {}, nullptr, &again);
        EXPECT_DOUBLE_EQ(store.cached_point("key-a")->seconds, 0.5) << "the newest measurement wins";
    }
    {
        const auto reader = ResultsStore::open_read_only(path);
        EXPECT_DOUBLE_EQ(reader->cached_point("key-a")->seconds, 0.5);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE measurement_cache", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const auto older = ResultsStore::open_read_only(path);
    EXPECT_FALSE(older->cached_point("key-a").has_value()) << "a store without the cache table";
}

