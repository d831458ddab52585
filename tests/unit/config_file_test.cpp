// Configuration files (io/config_file): flattening to COMMAND.OPTION keys with
// the place of each value, and the mistakes that must stop with file:line:col.
#include "io/config_file.hpp"
#include "io/machine_json.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace roofline;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_config_text(text, "c.yaml");
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST(ConfigFile, FlattensSectionsAndDottedKeysInFileOrder) {
    const auto s = parse_config_text("db: /r.db\nkernels:\n  cache: cold\n  sizes: [4K, 1M]\nbench.time-budget: 60\n",
                                     "c.yaml");
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].key, "db");
    EXPECT_EQ(s[0].values, std::vector<std::string>{"/r.db"});
    EXPECT_EQ(s[0].where, "c.yaml:1:5");
    EXPECT_EQ(s[0].key_where, "c.yaml:1:1");
    EXPECT_EQ(s[1].key, "kernels.cache");
    EXPECT_EQ(s[1].where, "c.yaml:3:10");
    EXPECT_EQ(s[1].key_where, "c.yaml:3:3");
    EXPECT_EQ(s[2].key, "kernels.sizes");
    EXPECT_TRUE(s[2].list);
    EXPECT_EQ(s[2].values, (std::vector<std::string>{"4K", "1M"}));
    EXPECT_FALSE(s[1].list);
    EXPECT_EQ(s[3].key, "bench.time-budget");
    EXPECT_EQ(s[3].values, std::vector<std::string>{"60"});
}

TEST(ConfigFile, CommentsOnlyOrEmptyHasNoSettings) {
    EXPECT_TRUE(parse_config_text("", "c.yaml").empty());
    EXPECT_TRUE(parse_config_text("# nothing\n\n   # indented\n", "c.yaml").empty());
}

TEST(ConfigFile, MistakesNameTheirPlace) {
    EXPECT_EQ(error_of("db: a\nkernels.db: b\nkernels:\n  db: c\n"),
              "c.yaml:4:3: 'kernels.db' is set twice (first at c.yaml:2:1)");
    EXPECT_EQ(error_of("kernels:\n  cache:\n    deep: 1\n"),
              "c.yaml:2:3: kernels.cache: settings nest one level only (a command's name, then its options)");
    EXPECT_EQ(error_of("kernels:\n  cache:\n"), "c.yaml:2:3: kernels.cache: a setting needs a value (write 'key: value')");
    EXPECT_NE(error_of("- a\n- b\n").find("c.yaml:1:1: a configuration file is a mapping"), std::string::npos);
    EXPECT_NE(error_of("kernels.sizes: [[1]]\n").find("c.yaml:1:17: "), std::string::npos);
    EXPECT_NE(error_of("a: 1\n---\nb: 2\n").find("one YAML document"), std::string::npos);
    EXPECT_NE(error_of("kernels: {\n").find("c.yaml:"), std::string::npos);
}

// A top-level key with nothing after it is kept, marked: 'kernels:' whose options are all
// commented out is an empty section, 'db:' a setting without its value; which it is, only the
// command line knows (cli/layered_config: the first is no setting, the second an error).
TEST(ConfigFile, TopLevelKeyWithoutValueIsMarked) {
    const auto s = parse_config_text("kernels:\n  # cache: cold\ndb:\n", "c.yaml");
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].key, "kernels");
    EXPECT_TRUE(s[0].no_value);
    EXPECT_TRUE(s[0].values.empty());
    EXPECT_EQ(s[1].key, "db");
    EXPECT_TRUE(s[1].no_value);
    EXPECT_EQ(s[1].key_where, "c.yaml:3:1");
    EXPECT_FALSE(parse_config_text("db: /r.db\n", "c.yaml")[0].no_value);
}

TEST(ConfigFile, MissingFileIsAbsentAndDirectoryIsAnError) {
    const auto dir = std::filesystem::temp_directory_path() / "roofline-config-file-test";
    std::filesystem::create_directories(dir);
    const auto missing = read_config_file((dir / "none.yaml").string());
    EXPECT_FALSE(missing.present);
    EXPECT_TRUE(missing.settings.empty());
    EXPECT_ANY_THROW(read_config_file(dir.string()));
    {
        std::ofstream((dir / "c.yaml").string()) << "quiet: yes\n";
    }
    const auto read = read_config_file((dir / "c.yaml").string());
    EXPECT_TRUE(read.present);
    ASSERT_EQ(read.settings.size(), 1u);
    EXPECT_EQ(read.settings[0].values, std::vector<std::string>{"yes"});
    std::filesystem::remove_all(dir);
}

// Issue 33: ROOFLINE_SYSTEM_CONFIG naming a FIFO hung every command in open().
TEST(ConfigFile, AFifoIsRefusedAtOnceNotWaitedOn) {
    const auto dir = std::filesystem::temp_directory_path() / ("roofline-config-fifo-test." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto fifo = (dir / "config.yaml").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto reading = std::async(std::launch::async, [&] {
        try {
            read_config_file(fifo);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    });
    if (reading.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        // Still blocked in open(): a writer releases it so the test can end, failed.
        const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (writer >= 0) ::close(writer);
        ADD_FAILURE() << "reading a FIFO as the configuration file blocked";
    }
    EXPECT_EQ(reading.get(), "configuration file: cannot read " + fifo + ": not a regular file (a FIFO)");
    std::filesystem::remove_all(dir);
}

// A name that is there but leads nowhere is the user's file: refused naming it, never taken
// as absent (a loop of symbolic links, and a link to a missing file, were "not present").
TEST(ConfigFile, ASymlinkLoopOrDanglingLinkIsAnErrorNotAbsent) {
    const auto dir = std::filesystem::temp_directory_path() / ("roofline-config-link-test." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto error_of_file = [](const std::string& path) {
        try {
            const auto f = read_config_file(path);
            return std::string(f.present ? "(read)" : "(absent)");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
    };
    const auto loop = (dir / "loop.yaml").string();
    std::filesystem::create_symlink(loop, loop);
    EXPECT_EQ(error_of_file(loop).rfind("configuration file: cannot read " + loop + ": a loop of symbolic links (", 0), 0u)
        << error_of_file(loop);
    const auto dangling = (dir / "dangling.yaml").string();
    std::filesystem::create_symlink("gone.yaml", dangling);
    EXPECT_EQ(error_of_file(dangling), "configuration file: cannot read " + dangling +
                                           ": a symbolic link to gone.yaml, which does not exist; fix it or remove it");
    EXPECT_EQ(error_of_file((dir / "none.yaml").string()), "(absent)");
    std::filesystem::remove_all(dir);
}
