// The results store's behaviour that every back end must share, run against
// SQLite and PostgreSQL alike (store_backend_fixture.hpp: the PostgreSQL cases
// need ROOFLINE_TEST_PG_URL, which tests/store/postgresql.sh sets).
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"

#include <gtest/gtest.h>

#include "error_text.hpp"
#include "store_backend_fixture.hpp"
#include "store_samples.hpp"

#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace roofline;
using namespace store_test;

namespace {

// The layout roofline wrote before point sets existed (version 1), in each dialect.
std::string version_one_layout(bool postgres) {
    return fmt::format("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                       "INSERT INTO meta VALUES ('store_schema_version', '1');"
                       "CREATE TABLE machines (id {}, created TEXT NOT NULL, hostname TEXT, "
                       "cpu_model TEXT, mode TEXT, partial INTEGER NOT NULL DEFAULT 0, schema TEXT NOT NULL, "
                       "json TEXT NOT NULL);",
                       postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY");
}

// The layout of version 2 as roofline wrote it before ids were never given twice: SQLite's ids
// without AUTOINCREMENT (a new row took the highest id + 1); PostgreSQL's as now.
std::string version_two_layout_reusing_ids(bool postgres) {
    const std::string id = postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY";
    const std::string integer = postgres ? "BIGINT" : "INTEGER";
    return fmt::format("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                       "INSERT INTO meta VALUES ('store_schema_version', '2');"
                       "CREATE TABLE IF NOT EXISTS machines ( id {0}, created TEXT NOT NULL, hostname TEXT, "
                       "cpu_model TEXT, mode TEXT, partial INTEGER NOT NULL DEFAULT 0, schema TEXT NOT NULL, "
                       "json TEXT NOT NULL);"
                       "CREATE TABLE IF NOT EXISTS point_sets ( id {0}, created TEXT NOT NULL, name TEXT NOT NULL, "
                       "machine_id {1} REFERENCES machines(id), point_count {1} NOT NULL, json TEXT NOT NULL);"
                       "CREATE TABLE IF NOT EXISTS measurement_cache ( key {2} PRIMARY KEY, "
                       "point_set_id {1} NOT NULL REFERENCES point_sets(id), point_index {1} NOT NULL);",
                       id, integer, postgres ? "BYTEA" : "TEXT");
}

// `text` as an SQL string literal ('' is one quote).
std::string sql_literal(const std::string& text) {
    std::string out = "'";
    for (const char ch : text) {
        if (ch == '\'') out += '\'';
        out += ch;
    }
    return out + "'";
}

// Runs `work(process)` in `processes` child processes at once; true when all exit 0.
template <typename Work>
bool in_processes(int processes, Work work) {
    std::vector<pid_t> children;
    for (int process = 0; process < processes; ++process) {
        const pid_t pid = ::fork();
        if (pid < 0) return false;
        if (pid == 0) {
            int status = 0;
            try {
                work(process);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "child %d: %s\n", process, e.what());
                status = 1;
            }
            ::_exit(status);
        }
        children.push_back(pid);
    }
    bool ok = true;
    for (const pid_t pid : children) {
        int status = 0;
        ok = ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 && ok;
    }
    return ok;
}

} // namespace

using ResultsStoreBackends = StoreBackendTest;

INSTANTIATE_TEST_SUITE_P(Store, ResultsStoreBackends, testing::Values(Backend::SQLite, Backend::PostgreSQL),
                         backend_test_name);

// ---------------------------------------------------------------- machines

TEST_P(ResultsStoreBackends, EmptyStoreHasNoMachines) {
    ResultsStore store(db());
    EXPECT_FALSE(store.latest_machine().has_value());
    EXPECT_FALSE(store.machine(1).has_value());
    EXPECT_TRUE(store.list_machines().empty());
    EXPECT_EQ(location().table_count(), 4);  // meta, machines, point_sets, measurement_cache
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
}

TEST_P(ResultsStoreBackends, SaveThenLatestIsEqual) {
    ResultsStore store(db());
    const auto model = sample_model("CPU A");
    const auto id = store.save_machine(model);
    EXPECT_GT(id, 0);
    const auto latest = store.latest_machine();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(machine_to_json(*latest), machine_to_json(model));
    const auto by_id = store.machine(id);
    ASSERT_TRUE(by_id.has_value());
    EXPECT_EQ(machine_to_json(*by_id), machine_to_json(model));
    EXPECT_FALSE(store.machine(id + 1).has_value());
}

// `roofline list` marks the models that lack a part (bench --only) or were interrupted; a
// row that cannot be read is listed with why, not an error for the whole list.
TEST_P(ResultsStoreBackends, ListingReadsWhatEachModelHolds) {
    ResultsStore store(db());
    auto memory_only = sample_model("CPU M");
    memory_only.compute.clear();
    auto compute_only = sample_model("CPU C");
    compute_only.memory.clear();
    auto interrupted = sample_model("CPU I");
    interrupted.partial = true;
    store.save_machine(sample_model("CPU A"));
    store.save_machine(memory_only);
    store.save_machine(compute_only);
    store.save_machine(interrupted);
    const auto damaged = store.save_machine(sample_model("CPU D"));
    location().run_sql(fmt::format("UPDATE machines SET json = '{{\"schema\": \"roofline.machine/1\"}}' WHERE id = {}", damaged));

    EXPECT_FALSE(store.list_machines()[0].completeness);  // not read unless asked
    const auto rows = store.list_machines(true);
    ASSERT_EQ(rows.size(), 5u);
    std::vector<std::string> labels;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
        ASSERT_TRUE(rows[i].completeness) << i;
        labels.push_back(completeness_label(*rows[i].completeness));
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"complete", "memory-only", "compute-only", "interrupted"}));
    EXPECT_FALSE(rows[4].completeness);
    EXPECT_NE(rows[4].unreadable.find("/cpu"), std::string::npos) << rows[4].unreadable;
}

TEST_P(ResultsStoreBackends, PersistsAcrossOpens) {
    { ResultsStore(db()).save_machine(sample_model("CPU A")); }
    ResultsStore reopened(db());
    ASSERT_TRUE(reopened.latest_machine().has_value());
    EXPECT_EQ(reopened.latest_machine()->cpu.model, "CPU A");
}

TEST_P(ResultsStoreBackends, ListIsOldestFirstAndLatestIsNewest) {
    ResultsStore store(db());
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
    EXPECT_EQ(rows[0].created.size(), 20u);  // 2026-11-03T10:20:30Z
    EXPECT_EQ(rows[0].created.back(), 'Z');

    EXPECT_EQ(store.latest_machine()->cpu.model, "CPU C");
    EXPECT_EQ(store.machine(second)->cpu.model, "CPU B");
}

TEST_P(ResultsStoreBackends, CorruptStoredJsonNamesTheRow) {
    ResultsStore store(db());
    auto bad = sample_model("CPU A");
    bad.schema = "roofline.machine/99";  // saved verbatim, rejected on read
    const auto id = store.save_machine(bad);
    try {
        store.machine(id);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("/schema"), std::string::npos) << message;
        EXPECT_NE(message.find(fmt::format("results store {}: machine {} (table machines, id {}): /schema", location().name(),
                                           id, id)),
                  std::string::npos)
            << message;
        // Written by another version, perhaps: the way out is said, deleting it only if damaged.
        EXPECT_NE(message.find("The row cannot be read (damaged, or written by another version of roofline): use "
                               "another machine (--machine stored:ID; 'roofline list' shows them), or remove this one: roofline remove --machine "),
                  std::string::npos)
            << message;
    }
}

// A row whose JSON text is not JSON (a tampered or damaged store) was said in nlohmann's words:
// "r.db (point set 2): stored JSON is corrupt: [json.exception.parse_error.101] parse error at
// line 1, column 1: syntax error while parsing value - invalid literal; last read: 'g'". Now:
// which store, table and row, what is wrong in plain words, and what to do.
TEST_P(ResultsStoreBackends, AStoredRowThatIsNotJsonIsSaidWithWhereWhatAndWhatToDo) {
    ResultsStore store(db());
    const auto machine = store.save_machine(sample_model("CPU A"));
    const auto good = store.save_points("good", sample_points("a"));
    const auto set = store.save_points("bad", sample_points("b"));
    const auto error_of = [](auto read) -> std::string {
        try {
            read();
        } catch (const SchemaError& e) {
            return e.what();
        }
        return "(no SchemaError)";
    };
    const std::string where = fmt::format("results store {}: point set {} (table point_sets, id {}) is damaged: its JSON "
                                          "text ",
                                          location().name(), set, set);
    const std::string to_do = fmt::format(
        ". The store's other rows can still be read: use another point set (--points stored:ID; 'roofline list' shows "
        "them), or remove this one: roofline remove --points {} --db ",
        set);
    for (const auto& [stored, said] : std::vector<std::pair<std::string, std::string>>{
             {"garbage", "is not valid JSON at byte 1 of 7 (near 'garbage')"},
             {R"({"schema": "roofline.points/1", "points": [1,2)", "ends at byte 46, before the document is complete (cut short)"},
             {"", "is empty"},
             {R"({"points": []} x)", R"(is not valid JSON at byte 16 of 16 (near 'oints": []} x'))"},
             {"[1e400]", "cannot be read as JSON: number overflow parsing '1e400'"},
         }) {
        location().run_sql(fmt::format("UPDATE point_sets SET json = {} WHERE id = {}", sql_literal(stored), set));
        for (const auto& message : {error_of([&] { (void)store.points(set); }), error_of([&] { (void)store.latest_points(); })}) {
            EXPECT_EQ(message.rfind(where + said + to_do, 0), 0u) << message;
            EXPECT_NE(message.find(location().name(), where.size()), std::string::npos) << message;  // after --db
            EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
            EXPECT_EQ(message.find("parse error"), std::string::npos) << message;
        }
    }
    EXPECT_EQ(store.points(good)->size(), 2u);  // the others are read as before
    // The listing reads on, marking the damaged set and keeping the whole message for a warning.
    const auto rows = store.list_point_sets(true);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].damaged.empty());
    EXPECT_TRUE(rows[0].unreadable.empty());
    EXPECT_EQ(rows[1].damaged, "damaged row: its JSON cannot be read");
    EXPECT_EQ(rows[1].unreadable.rfind(where, 0), 0u) << rows[1].unreadable;
    // A machine: the same, and deleting it leaves the sets that name it.
    location().run_sql(fmt::format("UPDATE machines SET json = 'nope' WHERE id = {}", machine));
    const auto message = error_of([&] { (void)store.latest_machine(); });
    EXPECT_EQ(message.rfind(fmt::format("results store {}: machine {} (table machines, id {}) is damaged: its JSON text is "
                                        "not valid JSON at byte 2 of 4 (near 'nope'). The store's other rows can still be "
                                        "read: use another machine (--machine stored:ID; 'roofline list' shows them), or "
                                        "remove this one: roofline remove --machine {} --db ",
                                        location().name(), machine, machine, machine),
                            0),
              0u)
        << message;
    const auto machines = store.list_machines(true);
    ASSERT_EQ(machines.size(), 1u);
    EXPECT_EQ(machines[0].unreadable, message);
    // What the message says to do works on the damaged rows: remove reads no JSON.
    const auto removed = store.remove_rows({machine}, {set});
    ASSERT_TRUE(removed.complete());
    EXPECT_TRUE(store.list_machines().empty());
    ASSERT_EQ(store.list_point_sets().size(), 1u);
    EXPECT_EQ(store.points(good)->size(), 2u);
}

// ---------------------------------------------------------------- point sets

TEST_P(ResultsStoreBackends, EmptyStoreHasNoPoints) {
    ResultsStore store(db());
    EXPECT_FALSE(store.latest_points().has_value());
    EXPECT_FALSE(store.points(1).has_value());
    EXPECT_TRUE(store.list_point_sets().empty());
}

TEST_P(ResultsStoreBackends, PointsSaveThenReadBackEqual) {
    ResultsStore store(db());
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

TEST_P(ResultsStoreBackends, PointSetsListOldestFirstWithMachineAndCount) {
    ResultsStore store(db());
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

TEST_P(ResultsStoreBackends, ProvenanceIsStoredWithThePoints) {
    ResultsStore store(db());
    Provenance provenance;
    provenance.command = {"./app", "--size", "1M"};
    provenance.host = "node-7";
    const auto id = store.save_points("measure ./app", sample_points("a"), {}, &provenance);
    const auto set = store.point_set(id);
    ASSERT_TRUE(set.has_value());
    ASSERT_TRUE(set->provenance.has_value());
    EXPECT_EQ(set->provenance->command, provenance.command);
    EXPECT_EQ(set->provenance->host, "node-7");
}

// list shows every set's host from its provenance (a kernel sweep's too, which names no stored
// machine): read only when asked, empty where the set records none.
TEST_P(ResultsStoreBackends, ListedSetsGiveTheHostTheirProvenanceRecords) {
    ResultsStore store(db());
    Provenance sweep;
    sweep.command = {"roofline", "kernels", "daxpy"};
    sweep.host = "node-7";
    const auto with_host = store.save_points("roofline kernels daxpy", sample_points("a"), {}, &sweep);
    const auto without = store.save_points("model loop.yaml", sample_points("b"));
    const auto read = store.list_point_sets(true);
    ASSERT_EQ(read.size(), 2u);
    EXPECT_EQ(read[0].id, with_host);
    EXPECT_EQ(read[0].hostname, "node-7");
    EXPECT_FALSE(read[0].machine_id.has_value());
    EXPECT_EQ(read[1].id, without);
    EXPECT_EQ(read[1].hostname, "");
    for (const auto& row : store.list_point_sets()) EXPECT_EQ(row.hostname, "") << row.id;  // not read
}

TEST_P(ResultsStoreBackends, MachinesAndPointsDoNotInterfere) {
    {
        ResultsStore store(db());
        store.save_points("p", sample_points("a"));
        store.save_machine(sample_model("CPU A"));
    }
    ResultsStore reopened(db());
    EXPECT_EQ(reopened.list_machines().size(), 1u);
    EXPECT_EQ(reopened.list_point_sets().size(), 1u);
    EXPECT_EQ(reopened.latest_machine()->cpu.model, "CPU A");
    EXPECT_EQ(reopened.latest_points()->size(), 2u);
}

TEST_P(ResultsStoreBackends, RefusesPointsItCouldNotReadBack) {
    ResultsStore store(db());
    auto points = sample_points("a");
    points[0].name = "";
    EXPECT_THROW(store.save_points("bad", points), SchemaError);
    EXPECT_TRUE(store.list_point_sets().empty());
}

TEST_P(ResultsStoreBackends, CorruptStoredPointsNameTheRow) {
    std::int64_t id = 0;
    { id = ResultsStore(db()).save_points("p", sample_points("a")); }
    location().run_sql("UPDATE point_sets SET json = '{\"schema\": \"roofline.points/1\", \"points\": [{}]}'");
    ResultsStore store(db());
    try {
        store.points(id);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(fmt::format("results store {}: point set {} (table point_sets, id {}): /points/0/name: missing",
                                           location().name(), id, id)),
                  std::string::npos)
            << message;
    }
}

TEST_P(ResultsStoreBackends, InvalidUtf8NamesAreStoredNotLost) {
    ResultsStore store(db());
    auto points = sample_points("bad\xff\xfename");
    const auto id = store.save_points("run \xff", points);
    const auto back = store.points(id);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->size(), 2u);
    EXPECT_NE((*back)[0].name.find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
    ASSERT_EQ(store.list_point_sets().size(), 1u);
    EXPECT_EQ(store.list_point_sets()[0].name.substr(0, 4), "run ");
}

// The measurement cache: points remembered under keys with their set, the newest wins, a
// store written before the cache existed (no table) has nothing cached.
TEST_P(ResultsStoreBackends, MeasurementCacheFindsPointsByKey) {
    auto point = [](const std::string& name, double seconds) {
        Point p = sample_points(name)[0];
        p.seconds = seconds;
        return p;
    };
    {
        ResultsStore store(db());
        const std::vector<Point> first = {point("a", 1), point("b", 2)};
        const std::vector<std::string> keys = {"key-a", ""};  // b is not remembered
        store.save_points("first", first, {}, nullptr, &keys);
        ASSERT_TRUE(store.cached_point("key-a").has_value());
        EXPECT_EQ(store.cached_point("key-a")->name, "a");
        EXPECT_DOUBLE_EQ(store.cached_point("key-a")->seconds, 1);
        EXPECT_FALSE(store.cached_point("").has_value());
        EXPECT_FALSE(store.cached_point("key-b").has_value());
        const std::vector<std::string> again = {"key-a"};
        store.save_points("rerun", {point("a", 0.5)}, {}, nullptr, &again);
        EXPECT_DOUBLE_EQ(store.cached_point("key-a")->seconds, 0.5) << "the newest measurement wins";
        // Keys are bytes: one that is not UTF-8 is found again exactly, and is not another's.
        const std::vector<std::string> odd = {"key-\xff", "key-\xfe"};
        store.save_points("odd keys", {point("x", 3), point("y", 4)}, {}, nullptr, &odd);
        ASSERT_TRUE(store.cached_point("key-\xff").has_value());
        EXPECT_DOUBLE_EQ(store.cached_point("key-\xff")->seconds, 3);
        EXPECT_DOUBLE_EQ(store.cached_point("key-\xfe")->seconds, 4);
    }
    {
        const auto reader = ResultsStore::open_read_only(db());
        EXPECT_DOUBLE_EQ(reader->cached_point("key-a")->seconds, 0.5);
    }
    location().run_sql("DROP TABLE measurement_cache");
    const auto older = ResultsStore::open_read_only(db());
    EXPECT_FALSE(older->cached_point("key-a").has_value()) << "a store without the cache table";
}

// ---------------------------------------------------------------- layouts and migration

TEST_P(ResultsStoreBackends, VersionOneStoreGainsPointSets) {
    const std::string machine_json = machine_to_json(sample_model("Old CPU")).dump();
    location().run_sql(version_one_layout(postgres()) +
                       "INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES "
                       "('2026-11-01T00:00:00Z', 'h', 'Old CPU', 'quick', 0, 'roofline.machine/1', " +
                       sql_literal(machine_json) + ");");
    ResultsStore store(db());
    EXPECT_EQ(store.latest_machine()->cpu.model, "Old CPU");
    EXPECT_TRUE(store.list_point_sets().empty());
    const auto id = store.save_points("after upgrade", sample_points("a"), 1);
    EXPECT_EQ(store.points(id)->size(), 2u);
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
    // Ids go on after the old rows.
    EXPECT_EQ(store.save_machine(sample_model("New CPU")), 2);
}

// A removed id is never given again: 'stored:2', a script or a note naming machine #2 would
// then silently mean another machine (and a measure's check that its machine is still stored
// would pass on the newcomer). The newest removed is the case the old layout got wrong.
TEST_P(ResultsStoreBackends, RemovedIdsAreNeverGivenAgain) {
    std::int64_t machine = 0, set = 0;
    {
        ResultsStore store(db());
        store.save_machine(sample_model("CPU A"));
        machine = store.save_machine(sample_model("CPU B"));
        store.save_points("first", sample_points("a"), machine);
        const std::vector<std::string> keys = {"key-a", "key-b"};
        set = store.save_points("newest", sample_points("b"), machine, nullptr, &keys);
        ASSERT_TRUE(store.remove_rows({machine}, {set}).complete());
        const auto next_machine = store.save_machine(sample_model("CPU C"));
        EXPECT_GT(next_machine, machine);
        const auto next_set = store.save_points("next", sample_points("c"), next_machine);
        EXPECT_GT(next_set, set);
        EXPECT_FALSE(store.machine(machine).has_value());
        EXPECT_FALSE(store.points(set).has_value());
        // Removing every row does not start the count again either.
        ASSERT_TRUE(store.remove_rows({1, next_machine}, {1, next_set}).complete());
        ASSERT_TRUE(store.list_machines().empty());
        ASSERT_TRUE(store.list_point_sets().empty());
        machine = next_machine;
        set = next_set;
    }
    ResultsStore store(db());  // another process, later
    EXPECT_GT(store.save_machine(sample_model("CPU D")), machine);
    EXPECT_GT(store.save_points("later", sample_points("d")), set);
}

// A store an older roofline wrote (SQLite ids without AUTOINCREMENT) keeps its rows, their ids
// and what names them when a writer opens it, and from then on never gives a removed id again,
// even to a row inserted as an older roofline inserts (no id named: the rule is the table's).
TEST_P(ResultsStoreBackends, AStoreThatReusedIdsKeepsItsRowsAndIdsAndGivesNoneTwice) {
    const auto machine_row = [](const std::string& cpu) {
        return "INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES "
               "('2026-11-01T00:00:00Z', 'h', " +
               sql_literal(cpu) + ", 'quick', 0, 'roofline.machine/1', " +
               sql_literal(machine_to_json(sample_model(cpu)).dump()) + ");";
    };
    const auto set_row = [](const std::string& name, const std::string& machine) {
        return "INSERT INTO point_sets (created, name, machine_id, point_count, json) VALUES "
               "('2026-11-01T00:00:00Z', " +
               sql_literal(name) + ", " + machine + ", 2, " + sql_literal(points_to_json(sample_points(name)).dump()) +
               ");";
    };
    // Machines 1 and 3 (2 removed), sets 1 and 4 naming machine 3 (2 and 3 removed), a cache entry of set 4.
    location().run_sql(version_two_layout_reusing_ids(postgres()) + machine_row("CPU 1") + machine_row("CPU 2") +
                       machine_row("CPU 3") + set_row("s1", "3") + set_row("s2", "NULL") + set_row("s3", "NULL") +
                       set_row("s4", "3") +
                       "DELETE FROM machines WHERE id = 2; DELETE FROM point_sets WHERE id IN (2, 3);" +
                       "INSERT INTO measurement_cache (key, point_set_id, point_index) VALUES (" +
                       (postgres() ? "'key-a'::bytea" : "'key-a'") + ", 4, 1);");
    if (!postgres())
        ASSERT_EQ(location().query_text("SELECT sql FROM sqlite_master WHERE name = 'machines'").find("AUTOINCREMENT"),
                  std::string::npos);

    for (int open = 0; open < 2; ++open) {  // the second open finds nothing to do
        ResultsStore store(db());
        const auto machines = store.list_machines();
        ASSERT_EQ(machines.size(), 2u);
        EXPECT_EQ(machines[0].id, 1);
        EXPECT_EQ(machines[1].id, 3);
        EXPECT_EQ(machines[1].cpu_model, "CPU 3");
        EXPECT_EQ(store.machine(3)->cpu.model, "CPU 3");
        const auto sets = store.list_point_sets();
        ASSERT_EQ(sets.size(), 2u);
        EXPECT_EQ(sets[0].id, 1);
        EXPECT_EQ(sets[0].machine_id, 3);
        EXPECT_EQ(sets[1].id, 4);
        EXPECT_EQ(sets[1].name, "s4");
        EXPECT_EQ(store.points(4)->size(), 2u);
        const auto cached = store.cached_point("key-a");
        ASSERT_TRUE(cached.has_value());
        EXPECT_EQ(cached->name, sample_points("s4")[1].name);
    }
    EXPECT_EQ(location().table_count(), 4);  // no table left over from the rebuild
    if (!postgres()) {
        for (const char* table : {"machines", "point_sets"})
            EXPECT_NE(location()
                          .query_text(fmt::format("SELECT sql FROM sqlite_master WHERE name = '{}'", table))
                          .find("AUTOINCREMENT"),
                      std::string::npos)
                << table;
        // Other tables still name the rebuilt ones.
        EXPECT_NE(location().query_text("SELECT sql FROM sqlite_master WHERE name = 'point_sets'")
                      .find("REFERENCES machines(id)"),
                  std::string::npos);
        EXPECT_NE(location().query_text("SELECT sql FROM sqlite_master WHERE name = 'measurement_cache'")
                      .find("REFERENCES point_sets(id)"),
                  std::string::npos);
    }

    // The newest of each removed: the next ids are above them.
    ResultsStore store(db());
    ASSERT_TRUE(store.remove_rows({3}, {4}).complete());
    EXPECT_EQ(store.save_machine(sample_model("CPU new")), 4);
    EXPECT_EQ(store.save_points("new", sample_points("n")), 5);
    // As an older roofline inserts (no id named), after removing the newest again.
    ASSERT_TRUE(store.remove_rows({4}, {5}).complete());
    location().run_sql(machine_row("CPU old writer") + set_row("old writer", "NULL"));
    EXPECT_EQ(store.list_machines().back().id, 5);
    EXPECT_EQ(store.list_point_sets().back().id, 6);
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
}

TEST_P(ResultsStoreBackends, NewerLayoutIsRefusedByWritersAndReaders) {
    { ResultsStore store(db()); }
    location().run_sql("UPDATE meta SET value = '3' WHERE key = 'store_schema_version'");
    const std::string expected = "layout version 3, newer than this roofline understands (2)";
    EXPECT_NE(error_of([&] { ResultsStore store(db()); }).find(expected), std::string::npos);
    EXPECT_NE(error_of([&] { ResultsStore::open_read_only(db()); }).find(expected), std::string::npos);
    EXPECT_NE(error_of([&] { check_store_writable(db()); }).find(expected), std::string::npos);
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "3");
}

// A version that is no number was read as 0: a writer would "upgrade" the store over it.
TEST_P(ResultsStoreBackends, AVersionThatIsNoNumberIsRefusedAndLeftAlone) {
    { ResultsStore store(db()); }
    location().run_sql("UPDATE meta SET value = 'abc' WHERE key = 'store_schema_version'");
    const std::string expected = "has layout version 'abc', which is not a version";
    EXPECT_NE(error_of([&] { ResultsStore store(db()); }).find(expected), std::string::npos);
    EXPECT_NE(error_of([&] { ResultsStore::open_read_only(db()); }).find(expected), std::string::npos);
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "abc");
}

// Another program's tables: writers refuse them as readers do, and add nothing of ours.
TEST_P(ResultsStoreBackends, AForeignDatabaseGetsNothingOfOurs) {
    location().run_sql("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
    const auto expected = "results database " + location().name() +
                          " is not a roofline results store (it has no roofline tables); pass another --db";
    EXPECT_EQ(error_of([&] { ResultsStore store(db()); }), expected);
    EXPECT_EQ(error_of([&] { check_store_writable(db()); }), expected);
    EXPECT_EQ(error_of([&] { ResultsStore::open_read_only(db()); }), expected);
    EXPECT_EQ(location().table_count(), 1);
}

TEST_P(ResultsStoreBackends, AStoreWithExtraTablesIsStillUsed) {
    {
        ResultsStore store(db());
        store.save_machine(sample_model("CPU X"));
    }
    location().run_sql("CREATE TABLE notes (x INTEGER);");
    ResultsStore store(db());
    EXPECT_EQ(store.list_machines().size(), 1u);
    EXPECT_EQ(ResultsStore::open_read_only(db())->list_machines().size(), 1u);
}

// ---------------------------------------------------------------- readers

TEST_P(ResultsStoreBackends, ReaderOfNoStoreSaysSoAndCreatesNothing) {
    try {
        ResultsStore::open_read_only(db());
        FAIL() << "expected NoStoreError";
    } catch (const NoStoreError& e) {
        EXPECT_EQ(std::string(e.what()), "no results store at " + location().name());
    }
    EXPECT_EQ(location().table_count(), 0);
}

TEST_P(ResultsStoreBackends, ReaderReadsWhatAWriterSavedAndCannotWrite) {
    {
        ResultsStore store(db());
        store.save_machine(sample_model("CPU R"));
        store.save_points("run", sample_points("a"));
    }
    const auto reader = ResultsStore::open_read_only(db());
    EXPECT_EQ(reader->latest_machine()->cpu.model, "CPU R");
    EXPECT_EQ(reader->list_point_sets().size(), 1u);
    EXPECT_THROW(reader->save_machine(sample_model("no")), std::runtime_error);
    EXPECT_THROW(reader->save_points("no", sample_points("b")), std::runtime_error);
    EXPECT_EQ(ResultsStore(db()).list_machines().size(), 1u);
    EXPECT_EQ(ResultsStore(db()).list_point_sets().size(), 1u);
}

TEST_P(ResultsStoreBackends, ReaderDoesNotMigrateAnOldLayout) {
    location().run_sql(version_one_layout(postgres()));
    const auto reader = ResultsStore::open_read_only(db());
    EXPECT_TRUE(reader->list_point_sets().empty());
    EXPECT_FALSE(reader->latest_points());
    EXPECT_FALSE(reader->cached_point("any").has_value());
    EXPECT_EQ(location().query_text("SELECT value FROM meta WHERE key = 'store_schema_version'"), "1");
    EXPECT_EQ(location().table_count(), 2);  // meta and machines: no point_sets created
}

// A writer's uncommitted rows: the reader sees the committed ones without waiting for it.
TEST_P(ResultsStoreBackends, ReaderDoesNotWaitForAnUncommittedWriter) {
    {
        ResultsStore store(db());
        store.save_machine(sample_model("committed"));
    }
    const std::string begin = postgres() ? "BEGIN" : "BEGIN IMMEDIATE";
    const std::string insert = "INSERT INTO machines (created, schema, json) VALUES ('x', 'x', '{}')";
    std::unique_ptr<PgSession> pg_writer;
    sqlite3* sqlite_writer = nullptr;
    if (postgres()) {
        pg_writer = std::make_unique<PgSession>(db());
        pg_writer->exec(begin);
        pg_writer->exec(insert);
    } else {
        ASSERT_EQ(sqlite3_open(db().c_str(), &sqlite_writer), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(sqlite_writer, begin.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(sqlite_writer, insert.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto reader = ResultsStore::open_read_only(db());
    EXPECT_EQ(reader->list_machines().size(), 1u);  // the committed row only
    EXPECT_LT(seconds_since(start), 2.0);
    if (sqlite_writer) {
        sqlite3_exec(sqlite_writer, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(sqlite_writer);
    }
}

// ---------------------------------------------------------------- the up-front check

TEST_P(ResultsStoreBackends, CheckWritableCreatesTheSchemaAndWritesNoRows) {
    EXPECT_NO_THROW(check_store_writable(db()));
    EXPECT_EQ(location().table_count(), 4);
    ResultsStore store(db());
    EXPECT_TRUE(store.list_machines().empty());
    EXPECT_TRUE(store.list_point_sets().empty());
    // A second check on the existing store passes too.
    EXPECT_NO_THROW(check_store_writable(db()));
}

// ---------------------------------------------------------------- concurrent writers

// Many processes open the same new store at once (each possibly creating it) and write:
// every row lands, ids are unique, and the cache ends up pointing at one real set.
TEST_P(ResultsStoreBackends, ManyProcessesWritingAtOnceAllLand) {
    constexpr int processes = 12;
    constexpr int per_process = 15;
    const std::string location_db = db();
    const bool ok = in_processes(processes, [&](int process) {
        ResultsStore store(location_db);
        const std::vector<std::string> keys = {"shared-key", fmt::format("key-of-{}", process)};
        for (int i = 0; i < per_process; ++i) {
            store.save_machine(sample_model(fmt::format("process {}", process)));
            auto points = sample_points(fmt::format("p{}", process));
            points[0].seconds = process + 1;
            store.save_points(fmt::format("run {}", process), points, {}, nullptr, &keys);
        }
    });
    EXPECT_TRUE(ok) << "a writer failed (its message is on stderr)";
    ResultsStore store(db());
    const auto machines = store.list_machines();
    const auto sets = store.list_point_sets();
    EXPECT_EQ(machines.size(), static_cast<std::size_t>(processes * per_process));
    EXPECT_EQ(sets.size(), static_cast<std::size_t>(processes * per_process));
    std::set<std::int64_t> machine_ids, set_ids;
    for (const auto& m : machines) machine_ids.insert(m.id);
    for (const auto& s : sets) set_ids.insert(s.id);
    EXPECT_EQ(machine_ids.size(), machines.size());
    EXPECT_EQ(set_ids.size(), sets.size());
    int from_first = 0;
    for (const auto& m : machines) from_first += m.cpu_model == "process 0";
    EXPECT_EQ(from_first, per_process);
    // The shared key names a point some process stored; each process's own key its own point.
    const auto shared = store.cached_point("shared-key");
    ASSERT_TRUE(shared.has_value());
    EXPECT_GE(shared->seconds, 1);
    EXPECT_LE(shared->seconds, processes);
    for (int process = 0; process < processes; ++process) {
        const auto own = store.cached_point(fmt::format("key-of-{}", process));
        ASSERT_TRUE(own.has_value()) << process;
        EXPECT_EQ(own->name, sample_points(fmt::format("p{}", process))[1].name);
    }
}

TEST_P(ResultsStoreBackends, ThreadsWithSeparateStoresAllLand) {
    constexpr int per_thread = 20;
    constexpr int thread_count = 4;
    std::vector<std::string> errors(thread_count);
    std::vector<std::thread> threads;
    const std::string location_db = db();
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            try {
                ResultsStore store(location_db);
                for (int i = 0; i < per_thread; ++i) store.save_machine(sample_model("thread"));
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors) EXPECT_EQ(error, "");
    EXPECT_EQ(ResultsStore(db()).list_machines().size(), static_cast<std::size_t>(per_thread * thread_count));
}

// One store shared by threads: calls take turns on its one connection.
TEST_P(ResultsStoreBackends, OneStoreSharedByThreads) {
    ResultsStore store(db());
    constexpr int per_thread = 10;
    constexpr int thread_count = 4;
    std::vector<std::string> errors(thread_count);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            try {
                for (int i = 0; i < per_thread; ++i) {
                    store.save_points("shared", sample_points(fmt::format("t{}", t)));
                    store.list_point_sets();
                }
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors) EXPECT_EQ(error, "");
    EXPECT_EQ(store.list_point_sets().size(), static_cast<std::size_t>(per_thread * thread_count));
}

// ---------------------------------------------------------------- removing rows (roofline remove)

// A set goes with its cache entries; a machine goes and the sets that named it stay, naming none.
TEST_P(ResultsStoreBackends, RemoveTakesSetsWithTheirCacheAndUnlinksAMachinesSets) {
    ResultsStore store(db());
    const auto keep_machine = store.save_machine(sample_model("CPU K"));
    const auto machine = store.save_machine(sample_model("CPU R"));
    const std::vector<std::string> keys = {"key-a", "key-b"};
    const auto removed_set = store.save_points("gone", sample_points("a"), machine, nullptr, &keys);
    const auto kept_set = store.save_points("kept", sample_points("b"), machine);
    const auto other_set = store.save_points("other", sample_points("c"), keep_machine);
    ASSERT_TRUE(store.cached_point("key-a").has_value());

    const auto removed = store.remove_rows({machine}, {removed_set});
    ASSERT_TRUE(removed.complete());
    ASSERT_EQ(removed.machines.size(), 1u);
    EXPECT_EQ(removed.machines[0].id, machine);
    EXPECT_EQ(removed.machines[0].cpu_model, "CPU R");
    EXPECT_EQ(removed.machines[0].hostname, "host-a");
    ASSERT_EQ(removed.point_sets.size(), 1u);
    EXPECT_EQ(removed.point_sets[0].id, removed_set);
    EXPECT_EQ(removed.point_sets[0].name, "gone");
    EXPECT_EQ(removed.point_sets[0].point_count, 2);
    EXPECT_EQ(removed.cache_entries, 2);
    EXPECT_EQ(removed.unlinked_sets, std::vector<std::int64_t>{kept_set});

    const auto machines = store.list_machines();
    ASSERT_EQ(machines.size(), 1u);
    EXPECT_EQ(machines[0].id, keep_machine);
    EXPECT_EQ(store.latest_machine()->cpu.model, "CPU K");  // no longer "the latest"
    const auto sets = store.list_point_sets();
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].id, kept_set);
    EXPECT_FALSE(sets[0].machine_id.has_value());
    EXPECT_EQ(store.points(kept_set)->size(), 2u);  // its points stay
    EXPECT_EQ(sets[1].machine_id, keep_machine);
    EXPECT_FALSE(store.points(removed_set).has_value());
    EXPECT_FALSE(store.cached_point("key-a").has_value());
    EXPECT_FALSE(store.cached_point("key-b").has_value());
    EXPECT_EQ(location().query_text("SELECT count(*) FROM measurement_cache"), "0");
    EXPECT_EQ(store.points(other_set)->size(), 2u);
}

// measure looks its machine up, measures, then saves: a `roofline remove` of that machine in
// between (here, done between the two calls) must not leave a set naming a machine that is
// gone (SQLite does not enforce REFERENCES), nor bring the machine back: the save is refused,
// said, and stores nothing. Both back ends take this path.
TEST_P(ResultsStoreBackends, SavingPointsForAMachineRemovedMeanwhileStoresNothing) {
    ResultsStore store(db());
    const auto machine = store.save_machine(sample_model("CPU A"));
    ResultsStore remover(db());  // another process's `roofline remove`
    ASSERT_TRUE(remover.remove_rows({machine}, {}).complete());

    const std::vector<std::string> keys = {"key-a", "key-b"};
    try {
        store.save_points("late", sample_points("a"), machine, nullptr, &keys);
        FAIL() << "a set naming a removed machine was stored";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(fmt::format("machine #{}, which these points were judged on, is no longer stored", machine)),
                  std::string::npos) << message;
        EXPECT_NE(message.find("the point set was not stored"), std::string::npos) << message;
    }
    EXPECT_TRUE(store.list_point_sets().empty());
    EXPECT_TRUE(store.list_machines().empty());  // not stored again
    EXPECT_FALSE(store.cached_point("key-a").has_value());
    EXPECT_EQ(location().query_text("SELECT count(*) FROM point_sets"), "0");
    // Sets naming no machine, or one still stored, are stored as before.
    EXPECT_GT(store.save_points("unlinked", sample_points("b")), 0);
    const auto other = store.save_machine(sample_model("CPU B"));
    EXPECT_GT(store.save_points("linked", sample_points("c"), other), 0);
}

// PostgreSQL: a remover that has locked the machine (FOR UPDATE) and not yet committed makes the
// save wait, and then the save finds the machine gone and says so (not a foreign-key violation).
TEST_P(ResultsStoreBackends, SavingWhileARemoverHoldsTheMachineWaitsThenSaysItIsGone) {
    if (!postgres()) GTEST_SKIP() << "SQLite's write lock makes the check and the insert one step";
    ResultsStore store(db());
    const auto machine = store.save_machine(sample_model("CPU A"));
    PgSession remover(db());
    remover.exec("BEGIN");
    remover.exec(fmt::format("SELECT id FROM machines WHERE id = {} FOR UPDATE", machine));
    remover.exec(fmt::format("DELETE FROM machines WHERE id = {}", machine));
    std::string error;
    std::thread saver([&] {
        try {
            store.save_points("late", sample_points("a"), machine);
        } catch (const std::exception& e) {
            error = e.what();
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the saver is waiting on the lock
    remover.exec("COMMIT");
    saver.join();
    EXPECT_NE(error.find("is no longer stored"), std::string::npos) << error;
    EXPECT_EQ(location().query_text("SELECT count(*) FROM point_sets"), "0");
}

// One unknown id among known ones: nothing is removed, and the unknown ones are named.
TEST_P(ResultsStoreBackends, RemoveWithAnUnknownIdRemovesNothing) {
    ResultsStore store(db());
    const auto machine = store.save_machine(sample_model("CPU A"));
    const std::vector<std::string> keys = {"key-a", ""};
    const auto set = store.save_points("set", sample_points("a"), machine, nullptr, &keys);

    const auto result = store.remove_rows({machine, machine + 10}, {set, set + 5, set + 6});
    EXPECT_FALSE(result.complete());
    EXPECT_EQ(result.unknown_machines, std::vector<std::int64_t>{machine + 10});
    EXPECT_EQ(result.unknown_point_sets, (std::vector<std::int64_t>{set + 5, set + 6}));
    EXPECT_EQ(store.list_machines().size(), 1u);
    ASSERT_EQ(store.list_point_sets().size(), 1u);
    EXPECT_EQ(store.list_point_sets()[0].machine_id, machine);
    EXPECT_TRUE(store.cached_point("key-a").has_value());
}

// A dry run says what would go, the same as the removal, and changes nothing; a read-only open can.
TEST_P(ResultsStoreBackends, RemoveDryRunChangesNothingAndWorksReadOnly) {
    std::int64_t machine = 0, set = 0, kept = 0;
    {
        ResultsStore store(db());
        machine = store.save_machine(sample_model("CPU A"));
        const std::vector<std::string> keys = {"key-a", "key-b"};
        set = store.save_points("set", sample_points("a"), machine, nullptr, &keys);
        kept = store.save_points("kept", sample_points("b"), machine);
    }
    const auto reader = ResultsStore::open_read_only(db());
    const auto plan = reader->remove_rows({machine}, {set}, /*write=*/false);
    ASSERT_TRUE(plan.complete());
    EXPECT_EQ(plan.machines.size(), 1u);
    EXPECT_EQ(plan.point_sets.size(), 1u);
    EXPECT_EQ(plan.cache_entries, 2);
    EXPECT_EQ(plan.unlinked_sets, std::vector<std::int64_t>{kept});  // the set removed with it is not "kept"
    EXPECT_EQ(reader->list_machines().size(), 1u);
    EXPECT_EQ(reader->list_point_sets().size(), 2u);
    EXPECT_TRUE(reader->cached_point("key-a").has_value());
    // A read-only open cannot remove.
    EXPECT_THROW(reader->remove_rows({machine}, {}, /*write=*/true), std::runtime_error);
    EXPECT_EQ(reader->list_machines().size(), 1u);

    ResultsStore writer(db());
    const auto removed = writer.remove_rows({machine, machine}, {set});  // an id given twice goes once
    EXPECT_EQ(removed.machines.size(), 1u);
    EXPECT_EQ(removed.cache_entries, plan.cache_entries);
    EXPECT_EQ(removed.unlinked_sets, plan.unlinked_sets);
}
