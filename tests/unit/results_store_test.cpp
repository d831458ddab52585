// The SQLite back end's own cases: files, directories, locks and damage. What every
// back end must do is in results_store_backends_test.cpp.
#include "io/results_store.hpp"
#include "io/temp_dir.hpp"
#include "render/store_listing.hpp"

#include <gtest/gtest.h>

#include "scoped_env.hpp"

#include "error_text.hpp"
#include "store_samples.hpp"
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace roofline;
using store_test::sample_model;
namespace fs = std::filesystem;
using store_test::seconds_since;

namespace {

using roofline::test::ScopedEnv;

} // namespace

TEST(ResultsStore, UserPathInMissingDirectoryIsAnError) {
    TempDir dir("roofline-store");
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
    TempDir dir("roofline-store");
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

// ---------------------------------------------------------------- raw SQL

namespace {

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

} // namespace

TEST(ResultsStoreReadOnly, EmptyOrForeignDatabaseIsNotAStore) {
    TempDir dir("roofline-store");
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
    TempDir dir("roofline-store");
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
        // "cannot open results database P: results database P: ..." named it twice.
        for (const auto& message : {read_error, write_error, check_error})
            EXPECT_EQ(times_named(message, path), 1) << message;
        EXPECT_EQ(write_error.rfind("cannot open results database " + path + ": ", 0), 0u) << write_error;
    }
}

TEST(ResultsStoreReadOnly, TruncatedDatabaseFailsClearly) {
    TempDir dir("roofline-store");
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

TEST(ResultsStoreReadOnly, LockedRollbackJournalStoreFailsFastAndSaysWhy) {
    TempDir dir("roofline-store");
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
    EXPECT_EQ(times_named(message, path), 1) << message;
    writer.exec("ROLLBACK");
}

TEST(ResultsStoreCheckWritable, RefusesAMissingDirectory) {
    TempDir dir("roofline-store");
    const auto path = dir.file("no/such/dir/results.db");
    EXPECT_NE(error_of([&] { check_store_writable(path); }).find("does not exist"), std::string::npos);
}

TEST(ResultsStoreCheckWritable, RefusesAStoreLockedByAWriterWithinSeconds) {
    TempDir dir("roofline-store");
    const auto path = dir.file("results.db");
    { ResultsStore store(path); }
    RawConnection writer(path);
    ASSERT_EQ(writer.exec("BEGIN IMMEDIATE"), SQLITE_OK);
    const auto start = std::chrono::steady_clock::now();
    const auto message = error_of([&] { check_store_writable(path); });
    EXPECT_LT(seconds_since(start), 30.0);  // not the writers' minute
    EXPECT_NE(message.find("is locked by another process"), std::string::npos) << message;
    // Was "cannot open results database P: results database P is locked ... (results database P: ...)".
    EXPECT_EQ(times_named(message, path), 1) << message;
    writer.exec("ROLLBACK");
}

// SQLite says only "unable to open database file" of a file we may not read: said as such, once.
TEST(ResultsStoreCheckWritable, AFileThePermissionsKeepFromUsIsNamedOnceWithWhy) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads and writes any file (scenario.store_error_names_once drops it)";
    TempDir dir("roofline-store");
    const auto path = dir.file("results.db");
    { ResultsStore store(path); }
    ASSERT_EQ(::chmod(path.c_str(), 0400), 0);
    const auto write_error = error_of([&] { ResultsStore store(path); });
    EXPECT_EQ(write_error.rfind("cannot open results database " + path + ": the file is not writable: ", 0), 0u)
        << write_error;
    const auto check_error = error_of([&] { check_store_writable(path); });
    EXPECT_EQ(check_error.rfind("cannot write results database " + path + ": the file is not writable: ", 0), 0u)
        << check_error;
    EXPECT_NO_THROW(ResultsStore::open_read_only(path)->list_machines());
    ASSERT_EQ(::chmod(path.c_str(), 0), 0);
    const auto read_error = error_of([&] { ResultsStore::open_read_only(path); });
    EXPECT_EQ(read_error.rfind("cannot open results database " + path + ": the file is not readable: ", 0), 0u)
        << read_error;
    for (const auto& message : {write_error, check_error, read_error}) EXPECT_EQ(times_named(message, path), 1) << message;
    ::chmod(path.c_str(), 0600);
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
    TempDir dir("roofline-store");
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
    TempDir dir("roofline-store");
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
    TempDir dir("roofline-store");
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


// A tampered row whose point count reads -5 was listed with "-5" points (issue 33): it is a
// damaged row, and the listing says so in every format instead of the count.
TEST(ResultsStoreHostilePaths, ANegativePointCountIsListedAsADamagedRow) {
    TempDir dir("roofline-store");
    const auto path = dir.file("tampered.db");
    {
        ResultsStore store(path);
        store.save_points("good", store_test::sample_points("a"));
        store.save_points("tampered", store_test::sample_points("b"));
    }
    run_sql(path, "UPDATE point_sets SET point_count = -5 WHERE name = 'tampered';");
    ResultsStore store(path);
    const auto sets = store.list_point_sets();
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].damaged, "");
    EXPECT_EQ(sets[1].damaged, "damaged row: its point count reads -5");
    const auto text = roofline::render_store_listing(path, {}, sets, roofline::ReportFormat::text);
    EXPECT_NE(text.find("(damaged row: its point count reads -5)"), std::string::npos) << text;
    EXPECT_EQ(text.find("    -5"), std::string::npos) << text;
    const auto json = roofline::render_store_listing(path, {}, sets, roofline::ReportFormat::json);
    EXPECT_NE(json.find("\"points\": null"), std::string::npos) << json;
    EXPECT_NE(json.find("\"damaged\": \"damaged row: its point count reads -5\""), std::string::npos) << json;
    const auto csv = roofline::render_store_listing(path, {}, sets, roofline::ReportFormat::csv);
    EXPECT_EQ(csv.find(",-5,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("damaged row: its point count reads -5"), std::string::npos) << csv;
}

// A set's host (from its provenance) in each format; "-" in text where none is known.
TEST(StoreListing, PointSetsShowTheHostTheyWereMeasuredOn) {
    StoredPointSet sweep;
    sweep.id = 4;
    sweep.created = "2026-11-28T08:53:49Z";
    sweep.name = "roofline kernels daxpy";
    sweep.hostname = "node-7";
    sweep.point_count = 3;
    StoredPointSet unknown = sweep;
    unknown.id = 5;
    unknown.hostname = "";
    const std::vector<StoredPointSet> sets{sweep, unknown};
    const auto text = roofline::render_store_listing("s.db", {}, sets, roofline::ReportFormat::text);
    EXPECT_NE(text.find("  host  "), std::string::npos) << text;
    EXPECT_NE(text.find("        -  node-7            roofline kernels daxpy"), std::string::npos) << text;
    EXPECT_NE(text.find("        -  -                 roofline kernels daxpy"), std::string::npos) << text;
    const auto json = nlohmann::json::parse(roofline::render_store_listing("s.db", {}, sets, roofline::ReportFormat::json));
    EXPECT_EQ(json["point_sets"][0]["hostname"], "node-7");
    EXPECT_EQ(json["point_sets"][1]["hostname"], "");
    const auto csv = roofline::render_store_listing("s.db", {}, sets, roofline::ReportFormat::csv);
    EXPECT_NE(csv.find("points,4,2026-11-28T08:53:49Z,node-7,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("points,5,2026-11-28T08:53:49Z,,"), std::string::npos) << csv;
}
