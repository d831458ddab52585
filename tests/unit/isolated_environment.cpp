// No unit test reads or writes the user's own results store or configuration (issue 31):
// before any test runs, HOME and the XDG directories point into a fresh temporary
// directory of this process, ROOFLINE_DB is unset and the system configuration file is
// one that does not exist. ctest discovers the unit tests at build time (gtest_discover_tests),
// so the ENVIRONMENT that tests/CMakeLists.txt gives every other test cannot reach them;
// a static object does it here, for every test binary that links this file.
#include "io/results_store.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

namespace {

class IsolatedEnvironment {
public:
    IsolatedEnvironment() : owner_(::getpid()) {
        std::error_code ec;
        auto base = std::filesystem::temp_directory_path(ec);
        if (ec) base = "/tmp";
        std::string pattern = (base / "roofline-unit-home-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) std::abort();  // never run against the user's own home
        home_ = pattern;
        const auto set = [](const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); };
        set("HOME", home_);
        set("XDG_DATA_HOME", home_ + "/.local/share");
        set("XDG_CONFIG_HOME", home_ + "/.config");
        set("XDG_CACHE_HOME", home_ + "/.cache");
        set("XDG_STATE_HOME", home_ + "/.local/state");
        set("ROOFLINE_SYSTEM_CONFIG", home_ + "/no-system-config.yaml");
        ::unsetenv("ROOFLINE_DB");
    }
    ~IsolatedEnvironment() {
        // A forked child that exits normally runs this too: only the process that made it removes it.
        if (::getpid() != owner_) return;
        std::error_code ec;
        std::filesystem::remove_all(home_, ec);
    }
    IsolatedEnvironment(const IsolatedEnvironment&) = delete;
    IsolatedEnvironment& operator=(const IsolatedEnvironment&) = delete;

private:
    pid_t owner_;
    std::string home_;
};

const IsolatedEnvironment isolated_environment;

} // namespace

// The default store of every unit test is in the temporary home, not the user's.
TEST(TestIsolation, TheDefaultStoreIsNotTheUsersOwn) {
    const std::string home = std::getenv("HOME");
    EXPECT_NE(home.find("roofline-unit-home-"), std::string::npos) << home;
    EXPECT_EQ(std::getenv("ROOFLINE_DB"), nullptr);
    const auto store = roofline::ResultsStore::default_path();
    EXPECT_EQ(store.rfind(home + "/", 0), 0u) << store;
    if (const passwd* user = ::getpwuid(::getuid()); user && user->pw_dir) {
        EXPECT_NE(store, std::string(user->pw_dir) + "/.local/share/roofline/results.db");
    }
}
