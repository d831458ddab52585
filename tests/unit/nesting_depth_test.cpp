// Issue 33: every JSON and YAML we read refuses nesting past max_nesting_depth
// (core/input_limits.hpp) before building anything. 20 MB of '[' took 23 s and
// 1.7 GB before its JSON error; a 100k-deep YAML said "invalid YAML: bad file".
#include "core/input_limits.hpp"
#include "io/cluster_json.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/yaml_node.hpp"
#include "measure/engine.hpp"
#include "measure/monitor_snapshot.hpp"
#include "measure/protocol_json.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

std::string nested(int levels, char open = '[', char close = ']') {
    return std::string(static_cast<std::size_t>(levels), open) + std::string(static_cast<std::size_t>(levels), close);
}

// The message of what `read` throws, and how long it took.
std::string error_of(const std::function<void()>& read, double* seconds = nullptr) {
    const auto start = std::chrono::steady_clock::now();
    std::string what = "no error";
    try {
        read();
    } catch (const std::exception& e) {
        what = e.what();
    }
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return what.substr(0, 400);
}

const std::string depth_words = "nested more than 200 levels deep";

} // namespace

TEST(NestingDepth, TheLimitIsTheOneInInputLimits) {
    EXPECT_EQ(max_nesting_depth, 200);
    EXPECT_FALSE(json_nested_too_deep(nested(200)));
    EXPECT_FALSE(json_nested_too_deep("{\"a\":" + nested(199) + "}"));
    EXPECT_TRUE(json_nested_too_deep(nested(201)));
    std::string objects;
    for (int i = 0; i < 201; ++i) objects += "{\"a\":";
    EXPECT_TRUE(json_nested_too_deep(objects));  // never closed: too deep before the end shows that
    // Brackets inside strings are text, not levels; a syntax error before the limit is left to the parser.
    EXPECT_FALSE(json_nested_too_deep("[\"" + std::string(1000, '[') + "\"]"));
    EXPECT_FALSE(json_nested_too_deep("x" + std::string(1000, '[')));
}

TEST(NestingDepth, TwentyMegabytesOfBracketsAreRefusedAtOnce) {
    const fs::path dir = fs::temp_directory_path() / ("nesting_depth_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string file = (dir / "deep.json").string();
    std::ofstream(file) << std::string(20'000'000, '[');
    for (const auto& [what, read] : std::vector<std::pair<std::string, std::function<void()>>>{
             {"points", [&] { read_points_file(file); }},
             {"machine", [&] { read_machine_file(file); }},
             {"any JSON", [&] { read_json_file(file); }}}) {
        double seconds = 0;
        const auto e = error_of(read, &seconds);
        EXPECT_NE(e.find("deep.json: not valid JSON: " + depth_words), std::string::npos) << what << ": " << e;
        EXPECT_LT(seconds, 2.0) << what;
    }
    const std::string text = std::string(20'000'000, '[');
    double seconds = 0;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(is_cluster_json(text));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
    auto e = error_of([&] { parse_json_bounded(text, "net.json"); }, &seconds);
    EXPECT_NE(e.find("net.json: not valid JSON: " + depth_words), std::string::npos) << e;
    EXPECT_LT(seconds, 2.0);
    fs::remove_all(dir);
}

TEST(NestingDepth, ProgramsOutputsAndSnapshotsAreBoundedToo) {
    const std::string deep = "{\"schema\":\"roofline.marker/1\",\"regions\":" + nested(300) + "}";
    auto e = error_of([&] { measure::parse_marker_json(deep, "marker.json"); });
    EXPECT_NE(e.find("marker.json: not valid JSON (" + depth_words), std::string::npos) << e;
    e = error_of([&] { measure::parse_vgtool_json(deep, "vg.json"); });
    EXPECT_NE(e.find("vg.json: not valid JSON (" + depth_words), std::string::npos) << e;
    e = error_of([&] { measure::parse_monitor_snapshot("{\"schema\":\"roofline.monitor/1\",\"x\":" + nested(300) + "}",
                                                        "snap.json"); });
    EXPECT_NE(e.find("snap.json: not JSON: " + depth_words), std::string::npos) << e;
    // The same documents 100 levels deep reach the schema checks instead.
    e = error_of([&] { measure::parse_marker_json("{\"schema\":\"roofline.marker/1\",\"regions\":" + nested(100) + "}",
                                                  "marker.json"); });
    EXPECT_EQ(e.find(depth_words), std::string::npos) << e;
}

TEST(NestingDepth, DeepYamlSaysSoWithItsLine) {
    // Flow and block style, 100000 levels: yaml-cpp's own guard said "invalid YAML: bad file".
    for (const std::string& text : {"a: " + std::string(100'000, '['), std::string("a:\n") + [] {
                                        std::string block;
                                        for (int i = 0; i < 300; ++i) block += std::string(2 * i, ' ') + "- \n";
                                        return block;
                                    }()}) {
        double seconds = 0;
        const auto e = error_of([&] { parse_yaml_documents(text, "deep.yaml"); }, &seconds);
        EXPECT_NE(e.find("deep.yaml:"), std::string::npos) << e;
        EXPECT_NE(e.find(depth_words), std::string::npos) << e;
        EXPECT_EQ(e.find("bad file"), std::string::npos) << e;
        EXPECT_LT(seconds, 2.0);
    }
    EXPECT_EQ(error_of([&] { parse_yaml_documents("a: " + nested(150), "ok.yaml"); }), "no error");
}

TEST(NestingDepth, TwentyMegabytesOfYamlBracketsAreRefusedAtOnce) {
    // yaml-cpp scans a flow line's tokens before its parser sees the first: 11 s and 4.7 GB.
    double seconds = 0;
    const auto e = error_of([&] { parse_yaml_documents(std::string(20'000'000, '['), "deep.yaml"); }, &seconds);
    EXPECT_NE(e.find("deep.yaml:1:201: " + depth_words), std::string::npos) << e;
    EXPECT_LT(seconds, 2.0);
    const std::string flow = "a:\n  - {b: [" + std::string(300, '[');
    EXPECT_NE(error_of([&] { parse_yaml_documents(flow, "f.yaml"); }).find("f.yaml:2:"), std::string::npos);
    // Brackets that open no collection: in quotes, comments, plain and block scalars.
    const std::string many(1000, '[');
    for (const std::string& text : {"a: '" + many + "'\n", "a: \"\\\"" + many + "\"\n", "a: 1 # " + many + "\n",
                                    "a: x" + many + "\n", "code: |\n  " + many + "\n  " + many + "\nb: 2\n",
                                    "- >\n    " + many + "\n- 2\n"}) {
        EXPECT_EQ(error_of([&] { parse_yaml_documents(text, "ok.yaml"); }).find(depth_words), std::string::npos)
            << text.substr(0, 20);
    }
}
