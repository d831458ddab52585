// Where the tool finds its own files (issue 15): relative to the executable in an installed
// prefix and in a build tree, an override first, and a clear reason when something is missing.
#include "io/install_layout.hpp"
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using roofline::test::ScopedEnv;

namespace {

class InstallLayout : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("roofline-layout-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path touch(const fs::path& relative) {
        const auto path = root_ / relative;
        fs::create_directories(path.parent_path());
        std::ofstream(path) << "x";
        return path;
    }
    // A tool directory: the tool, and links to the two core files (real ones under core/).
    void make_tool_dir(const fs::path& relative) {
        touch(relative / "roofline-amd64-linux");
        for (const char* core : {"vgpreload_core-amd64-linux.so", "default.supp"})
            fs::create_symlink(touch(fs::path("core") / core), root_ / relative / core);
    }
    fs::path root_;
    ScopedEnv no_events_{"ROOFLINE_EVENTS_DIR", std::nullopt};
    ScopedEnv no_vgtool_{"ROOFLINE_VGTOOL_DIR", std::nullopt};
};

TEST_F(InstallLayout, InstalledPrefixIsFoundFromTheExecutable) {
    const auto exe = touch("prefix/bin/roofline");
    touch("prefix/share/roofline/events/generic.txt");
    make_tool_dir("prefix/libexec/roofline/vgtool");
    EXPECT_EQ(roofline::events_dir(exe.string()), (root_ / "prefix/share/roofline/events").string());
    std::string why;
    EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), (root_ / "prefix/libexec/roofline/vgtool").string()) << why;
    // Moved: found at the new place, nothing remembered of the old one.
    fs::rename(root_ / "prefix", root_ / "moved");
    const auto moved = root_ / "moved/bin/roofline";
    EXPECT_EQ(roofline::events_dir(moved.string()), (root_ / "moved/share/roofline/events").string());
    EXPECT_EQ(roofline::vgtool_dir(moved.string(), why), (root_ / "moved/libexec/roofline/vgtool").string()) << why;
}

TEST_F(InstallLayout, BuildTreeIsFoundFromTheExecutable) {
    const auto exe = touch("build/roofline");
    touch("build/share/roofline/events/generic.txt");
    make_tool_dir("build/vgtool");
    EXPECT_EQ(roofline::events_dir(exe.string()), (root_ / "build/share/roofline/events").string());
    std::string why;
    EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), (root_ / "build/vgtool").string()) << why;
}

TEST_F(InstallLayout, NothingThereIsEmptyWithAReason) {
    const auto exe = touch("bare/bin/roofline");
    EXPECT_EQ(roofline::events_dir(exe.string()), "");
    std::string why;
    EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), "");
    EXPECT_NE(why.find("was not found"), std::string::npos) << why;
    EXPECT_NE(why.find("libexec/roofline/vgtool/roofline-amd64-linux"), std::string::npos) << why;
    EXPECT_NE(why.find("ROOFLINE_VGTOOL_DIR"), std::string::npos) << why;
}

TEST_F(InstallLayout, AToolWhoseValgrindIsGoneSaysSo) {
    const auto exe = touch("prefix/bin/roofline");
    make_tool_dir("prefix/libexec/roofline/vgtool");
    fs::remove_all(root_ / "core");  // the Valgrind the links point to was removed
    std::string why;
    EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), "");
    EXPECT_NE(why.find("cannot run"), std::string::npos) << why;
    EXPECT_NE(why.find("vgpreload_core-amd64-linux.so links to"), std::string::npos) << why;
}

TEST_F(InstallLayout, OverridesComeFirst) {
    const auto exe = touch("prefix/bin/roofline");
    touch("prefix/share/roofline/events/generic.txt");
    make_tool_dir("prefix/libexec/roofline/vgtool");
    make_tool_dir("elsewhere/vgtool");
    ScopedEnv events{"ROOFLINE_EVENTS_DIR", (root_ / "elsewhere/events").string()};
    EXPECT_EQ(roofline::events_dir(exe.string()), (root_ / "elsewhere/events").string());
    std::string why;
    {
        ScopedEnv tool{"ROOFLINE_VGTOOL_DIR", (root_ / "elsewhere/vgtool").string()};
        EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), (root_ / "elsewhere/vgtool").string()) << why;
    }
    ScopedEnv bad{"ROOFLINE_VGTOOL_DIR", (root_ / "nowhere").string()};
    EXPECT_EQ(roofline::vgtool_dir(exe.string(), why), "");  // a wrong override is an error, not a fallback
    EXPECT_NE(why.find("ROOFLINE_VGTOOL_DIR="), std::string::npos) << why;
}

} // namespace
