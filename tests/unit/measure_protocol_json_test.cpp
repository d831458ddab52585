#include "measure/protocol_json.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(MeasureProtocolJson, Marker) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "solve", "calls": 10, "threads": 2, "seconds": 1.25, "thread_seconds": [1.25, 1.19],
         "counters": {"fp_add": 100, "cycles": 5e9}},
        {"name": "init", "calls": 1, "threads": 1, "seconds": 0.5}]})J",
                                     "m.json");
    ASSERT_EQ(r.timings.size(), 2u);
    EXPECT_EQ(r.timings[0].name, "solve");
    EXPECT_EQ(r.timings[0].calls, 10);
    EXPECT_EQ(r.timings[0].threads, 2);
    EXPECT_DOUBLE_EQ(r.timings[0].seconds, 1.25);
    ASSERT_EQ(r.counters.size(), 1u);
    EXPECT_DOUBLE_EQ(r.counters[0].events.at("cycles"), 5e9);
}

// A marker file's counter below zero (a damaged or hand-made file) became negative FLOPs or
// bytes (issue 33): refused, like every other figure of the protocol.
TEST(MeasureProtocolJson, ANegativeCounterIsADamagedFile) {
    try {
        parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
            {"name": "solve", "calls": 1, "threads": 1, "seconds": 1, "counters": {"fp_add": -5}}]})J",
                          "m.json");
        FAIL() << "accepted";
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("m.json: regions[0]: \"counters\".\"fp_add\" must be a count >= 0, found -5"),
                  std::string::npos)
            << e.what();
    }
}

// The images of an exec chain (<file>, <file>.exec1): a region in both adds up.
TEST(MeasureProtocolJson, MarkerReportsOfAnExecChainAddUp) {
    auto a = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "solve", "calls": 2, "threads": 1, "seconds": 1.0, "counters": {"fp": 10}},
        {"name": "init", "calls": 1, "threads": 1, "seconds": 0.5}]})J",
                               "m.json");
    auto b = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "solve", "calls": 3, "threads": 4, "seconds": 2.0, "counters": {"fp": 30}}],
        "errors": ["end of region 'x' without a matching begin"]})J",
                               "m.json.exec1");
    const auto m = merge_marker_reports({a, b});
    ASSERT_EQ(m.timings.size(), 2u);
    EXPECT_EQ(m.timings[0].name, "solve");
    EXPECT_EQ(m.timings[0].calls, 5);
    EXPECT_DOUBLE_EQ(m.timings[0].seconds, 3.0);
    EXPECT_EQ(m.timings[0].threads, 4);
    EXPECT_DOUBLE_EQ(m.counters.at(0).events.at("fp"), 40);
    ASSERT_EQ(m.problems.size(), 1u);
    EXPECT_EQ(m.problems[0].rfind("(in the program's exec'd image 1) the marker library reported: end of region", 0), 0u)
        << m.problems[0];
}

TEST(MeasureProtocolJson, Vgtool) {
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1,
         "flops": {"f64": {"add": 10, "fma": 20}, "f32": {"mul": 4}},
         "flops_by_width": {"scalar": 2, "256": 32}, "bytes_loaded": 160, "bytes_stored": 80}],
        "functions": [{"name": "daxpy", "flops": {"f64": {"fma": 20}}, "bytes_loaded": 16, "bytes_stored": 8}]})J",
                                     "v.json");
    ASSERT_EQ(r.regions.size(), 1u);
    const auto& p = r.regions[0];
    EXPECT_DOUBLE_EQ(p.flops.at("f64_fma"), 20);
    EXPECT_DOUBLE_EQ(p.flops.at("f32_mul"), 4);
    EXPECT_DOUBLE_EQ(p.total_flops(), 34);
    EXPECT_DOUBLE_EQ(p.flops_by_width.at("256"), 32);
    EXPECT_DOUBLE_EQ(p.bytes_loaded, 160);
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_EQ(r.functions[0].name, "daxpy");
}

TEST(MeasureProtocolJson, VgtoolThreadPlacement) {
    const auto pinned = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [],
        "cache_model": {"cores": 2, "placement": "affinity", "threads": [
            {"thread": 1, "core": 0, "pinned": false}, {"thread": 2, "core": 0, "pinned": true},
            {"thread": 3, "core": 1, "pinned": true}]}})J",
                                          "v.json");
    EXPECT_NE(pinned.thread_placement.find("3 threads on simulated cores 0,1 (2 pinned to one core by their CPU "
                                           "affinity"),
              std::string::npos)
        << pinned.thread_placement;
    const auto spread = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [],
        "cache_model": {"cores": 4, "placement": "round-robin", "threads": [{"thread": 1, "core": 0}]}})J",
                                          "v.json");
    EXPECT_NE(spread.thread_placement.find("1 thread on simulated core 0 (thread n on core (n-1) mod cores"),
              std::string::npos)
        << spread.thread_placement;
    EXPECT_EQ(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": []})J", "v").thread_placement, "");
    // The simulation's limits are said, not dropped: bytes below L1 too low, write-backs charged elsewhere.
    const auto limited = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [],
        "cache_model": {"threads": [], "writer_contexts_exhausted": true, "out_of_memory": true}})J", "v.json");
    ASSERT_EQ(limited.problems.size(), 2u);
    EXPECT_NE(limited.problems[0].find("ran out of memory"), std::string::npos) << limited.problems[0];
    EXPECT_NE(limited.problems[0].find("too low"), std::string::npos) << limited.problems[0];
    EXPECT_NE(limited.problems[1].find("16,382"), std::string::npos) << limited.problems[1];
    EXPECT_TRUE(spread.problems.empty());
    EXPECT_THROW(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [],
        "cache_model": {"threads": [{"thread": 1, "core": "a"}]}})J", "v"), MeasureError);
    EXPECT_THROW(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [], "cache_model": 3})J", "v"),
                 MeasureError);
}

TEST(MeasureProtocolJson, Errors) {
    EXPECT_THROW(parse_marker_json("{", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "other", "regions": []})J", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1"})J", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [{"calls": 1}]})J", "m"), MeasureError);
    EXPECT_THROW(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "flops": 3}]})J", "v"),
                 MeasureError);
    try {
        parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "bytes_loaded": "a"}]})J",
                          "v.json");
        FAIL();
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("v.json: regions[0]"), std::string::npos) << e.what();
    }
}

// Issue 10: names are the program's bytes; an odd one must not cost the run.
// The fills made for REP STOS/MOVS stores are part of a boundary's reads, and their bytes part of
// the stores: a file saying more is damaged (core/rep_string_stores would have said "its bytes may
// be too many by up to 5 MB at L3 (of 1 MB)"). Refused, like a negative count.
TEST(MeasureProtocolJson, RepStringFiguresBeyondWhatTheyArePartOfAreADamagedFile) {
    const auto file = [](const char* fill, const char* stored) {
        return fmt::format(R"J({{"schema": "roofline.vgtool/1", "regions": [{{"name": "(program)", "calls": 1,
            "bytes_loaded": 0, "bytes_stored": 1048576, "rep_string_stored": {},
            "cache": {{"L3": {{"read": 1048576, "write": 0, "rep_string_fill": {}}}}}}}]}})J",
                           stored, fill);
    };
    const auto ok = parse_vgtool_json(file("1048576", "1048576"), "v.json");
    EXPECT_DOUBLE_EQ(ok.regions[0].cache_traffic.at("L3_rep_string_fill"), 1048576);
    EXPECT_DOUBLE_EQ(ok.regions[0].cache_traffic.at("rep_string_stored"), 1048576);
    try {
        parse_vgtool_json(file("5242880", "0"), "v.json");
        FAIL() << "a fill above the reads was accepted";
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("\"rep_string_fill\" (5.24288e+06) is more than \"read\""),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(parse_vgtool_json(file("0", "2097152"), "v.json"), MeasureError);
}

TEST(MeasureProtocolJson, EmptyNameIsKeptUnderAVisibleName) {
    const auto r = parse_marker_json(
        R"J({"schema": "roofline.marker/1", "regions": [{"name": "", "calls": 2, "threads": 1, "seconds": 0.5}],
             "errors": []})J",
        "m.json");
    ASSERT_EQ(r.timings.size(), 1u);
    EXPECT_EQ(r.timings[0].name, kUnnamedRegion);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_NE(r.problems[0].find("empty name"), std::string::npos) << r.problems[0];
    // The tool's report names it the same, so the two still merge.
    const auto v = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "", "calls": 2}]})J", "v");
    EXPECT_EQ(v.regions.at(0).name, kUnnamedRegion);
}

TEST(MeasureProtocolJson, NamesThatAreNotUtf8AreRepaired) {
    const std::string text = "{\"schema\": \"roofline.marker/1\", \"regions\": [{\"name\": \"caf\xe9 \xc3\xa9t\xff\", "
                             "\"calls\": 1, \"threads\": 1, \"seconds\": 0.25}], \"errors\": []}";
    const auto r = parse_marker_json(text, "m.json");
    ASSERT_EQ(r.timings.size(), 1u);
    EXPECT_EQ(r.timings[0].name, "caf\\xE9 \xc3\xa9t\\xFF");  // valid UTF-8 (é) kept as it is
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_NE(r.problems[0].find("2 byte(s)"), std::string::npos) << r.problems[0];
    const std::string vg = "{\"schema\": \"roofline.vgtool/1\", \"regions\": [{\"name\": \"caf\xe9 \xc3\xa9t\xff\"}]}";
    EXPECT_EQ(parse_vgtool_json(vg, "v").regions.at(0).name, r.timings[0].name);
}

TEST(MeasureProtocolJson, RepairUtf8) {
    std::size_t n = 0;
    EXPECT_EQ(repair_utf8("plain", &n), "plain");
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(repair_utf8("\xe2\x82\xac \xf0\x9f\x98\x80", &n), "\xe2\x82\xac \xf0\x9f\x98\x80");  // euro, emoji
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(repair_utf8("\xc0\xaf", &n), "\\xC0\\xAF");  // overlong '/'
    EXPECT_EQ(n, 2u);
    EXPECT_EQ(repair_utf8("\xed\xa0\x80", &n), "\\xED\\xA0\\x80");  // a surrogate
    EXPECT_EQ(repair_utf8("\xe2\x82", &n), "\\xE2\\x82");  // cut short
    EXPECT_EQ(repair_utf8("\xf4\x90\x80\x80", &n), "\\xF4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(MeasureProtocolJson, MarkerErrorsAndOpenRegionsAreReported) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "solve", "calls": 3, "threads": 1, "seconds": 1.5, "unclosed": 2}],
        "errors": ["end of region 'io' without a matching begin (4 times)",
                   "region 'solve' still open at finalize on thread 0 (closed then)"]})J",
                                     "m.json");
    ASSERT_EQ(r.timings.size(), 1u);  // the run is kept
    ASSERT_EQ(r.problems.size(), 2u);
    EXPECT_NE(r.problems[0].find("region 'solve' was still open when the program ended (2 of its 3"),
              std::string::npos)
        << r.problems[0];
    EXPECT_EQ(r.problems[1], "the marker library reported: end of region 'io' without a matching begin (4 times)");
}

// Found by fuzzing: counts beyond an integer were converted anyway (undefined
// behaviour), and numbers beyond a double escaped as a raw library exception.
TEST(MeasureProtocolJson, CountsOutOfRangeAreRefusedAsMeasureErrors) {
    for (const std::string& text :
         {std::string(R"({"schema": "roofline.marker/1", "regions": [{"name": "a", "calls": 1e40}]})"),
          std::string(R"({"schema": "roofline.marker/1", "regions": [{"name": "a", "threads": 1e10}]})"),
          std::string(R"({"schema": "roofline.marker/1", "regions": [{"name": "a", "seconds": -1}]})"),
          std::string(R"({"schema": "roofline.marker/1", "regions": [{"name": "a", "seconds": 1e999}]})")})
        EXPECT_THROW(parse_marker_json(text, "m.json"), MeasureError) << text;
    for (const std::string& text :
         {std::string(R"({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "calls": 1e300}]})"),
          std::string(R"({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "threads": -1e10}]})")})
        EXPECT_THROW(parse_vgtool_json(text, "v.json"), MeasureError) << text;
}

TEST(MeasureProtocolJson, PerInstructionCountsOfTheValgrindTool) {
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [], "functions": [],
        "per_instruction": [
          {"name": "daxpy", "object": "/bin/app", "address": 5162, "taken": 9999,
           "flops": {"f64": {"add": 0}}, "bytes_loaded": 0, "bytes_stored": 0, "instructions": 10000},
          {"name": "daxpy", "object": "/bin/app", "address": 5136,
           "flops": {"f64": {"mul": 10000}}, "bytes_loaded": 80000, "bytes_stored": 0, "instructions": 10000},
          {"name": "apply", "object": "/bin/app", "address": 6000, "instructions": 7, "flops": {},
           "bytes_loaded": 0, "bytes_stored": 0,
           "call_targets": [{"address": 4096, "object": "/bin/app", "function": "step", "calls": 5},
                            {"address": 64, "calls": 2}]}]})J",
                                     "t.json");
    ASSERT_EQ(r.instructions.size(), 3u);
    EXPECT_EQ(r.instructions[0].address, 5162u);
    EXPECT_TRUE(r.instructions[0].call_targets.empty());
    ASSERT_EQ(r.instructions[2].call_targets.size(), 2u);  // where an indirect call went
    EXPECT_EQ(r.instructions[2].call_targets[0].function, "step");
    EXPECT_EQ(r.instructions[2].call_targets[0].object, "/bin/app");
    EXPECT_EQ(r.instructions[2].call_targets[0].address, 4096u);
    EXPECT_EQ(r.instructions[2].call_targets[0].calls, 5);
    EXPECT_TRUE(r.instructions[2].call_targets[1].function.empty());
    for (const char* bad : {R"([{"address": 1, "calls": -1}])", R"([{"address": 1, "object": 7}])", R"({"address": 1})"})
        EXPECT_THROW(parse_vgtool_json(std::string(R"J({"schema": "roofline.vgtool/1", "regions": [], "per_instruction":
            [{"name": "f", "address": 1, "instructions": 1, "call_targets": )J") + bad + "}]}", "t"),
                     MeasureError) << bad;
    EXPECT_TRUE(r.instructions[0].jumps);
    EXPECT_EQ(r.instructions[0].taken, 9999);
    EXPECT_EQ(r.instructions[0].counts.name, "daxpy");
    EXPECT_EQ(r.instructions[0].counts.object, "/bin/app");
    EXPECT_FALSE(r.instructions[1].jumps);
    EXPECT_EQ(r.instructions[1].counts.instructions, 10000);
    EXPECT_EQ(r.instructions[1].counts.flops.at("f64_mul"), 10000);
    EXPECT_THROW(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [], "per_instruction": {}})J", "t"),
                 MeasureError);
}

// A marker region's own counts by function and instruction (measure --loops inside regions).
TEST(MeasureProtocolJson, RegionCountsByFunctionAndInstruction) {
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "flops": {}, "bytes_loaded": 0, "bytes_stored": 0, "instructions": 30},
        {"name": "solve", "calls": 2, "flops": {"f64": {"fma": 40}}, "bytes_loaded": 0, "bytes_stored": 0,
         "instructions": 20,
         "functions": [{"name": "daxpy", "object": "/bin/app", "flops": {"f64": {"fma": 40}}, "bytes_loaded": 0,
                        "bytes_stored": 0, "instructions": 20}],
         "per_instruction": [{"name": "daxpy", "object": "/bin/app", "address": 4096, "taken": 19,
                              "flops": {"f64": {"fma": 40}}, "bytes_loaded": 0, "bytes_stored": 0,
                              "instructions": 20}]},
        {"name": "other", "calls": 1, "flops": {}, "bytes_loaded": 0, "bytes_stored": 0, "instructions": 1}],
        "functions": []})J",
                                     "t.json");
    ASSERT_EQ(r.regions.size(), 3u);
    ASSERT_EQ(r.region_breakdowns.size(), 1u);  // only the region that carries them
    const auto& b = r.region_breakdowns[0];
    EXPECT_EQ(b.region, "solve");
    ASSERT_EQ(b.functions.size(), 1u);
    EXPECT_EQ(b.functions[0].flops.at("f64_fma"), 40);
    ASSERT_EQ(b.instructions.size(), 1u);
    EXPECT_EQ(b.instructions[0].address, 4096u);
    EXPECT_EQ(b.instructions[0].taken, 19);
    EXPECT_TRUE(r.instructions.empty());
    try {
        parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "solve", "calls": 1, "flops": {},
            "bytes_loaded": 0, "bytes_stored": 0, "instructions": 1, "per_instruction": [{"name": "f", "address": -5}]}]})J",
                          "t.json");
        ADD_FAILURE() << "an instruction at a negative address was read";
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("regions[0]: per_instruction[0]"), std::string::npos) << e.what();
    }
}

// A region opened on one thread around an OpenMP team: the library writes the team's threads
// (team_threads) beside those that opened it; the region ran on the more. A process whose
// teams the library could not see says why, as a warning.
TEST(MeasureProtocolJson, TheThreadsOfATeamForkedInsideARegionAreItsThreads) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "dot", "calls": 10, "threads": 4, "team_threads": 4, "seconds": 1, "thread_seconds": [1]},
        {"name": "serial", "calls": 1, "threads": 1, "seconds": 0.5, "thread_seconds": [0.5]}],
        "openmp_teams_unseen": "libgomp comes before libroofline_marker", "errors": []})J",
                                     "m.json");
    EXPECT_EQ(r.timings[0].threads, 4);
    EXPECT_EQ(r.timings[0].team_threads, 4);
    EXPECT_EQ(r.timings[1].threads, 1);
    EXPECT_EQ(r.timings[1].team_threads, 0);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_NE(r.problems[0].find("OpenMP teams forked inside marker regions are not counted"), std::string::npos);
    EXPECT_NE(r.problems[0].find("libgomp comes before"), std::string::npos);
    // An older file (threads only) and a team larger than the threads written: the team wins.
    const auto older = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "dot", "calls": 10, "threads": 1, "team_threads": 3, "seconds": 1}]})J",
                                         "m.json");
    EXPECT_EQ(older.timings[0].threads, 3);
    // Images of an exec chain: the largest team of any.
    const auto merged = merge_marker_reports({r, older});
    EXPECT_EQ(merged.timings[0].team_threads, 4);
}

// A region opened on one thread around threads it starts (pthread_create): the library writes the
// most of them alive at once (spawned_threads); the region ran on the more of those and its openers.
TEST(MeasureProtocolJson, TheThreadsStartedInsideARegionAreItsThreads) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "pool", "calls": 10, "threads": 1, "spawned_threads": 3, "seconds": 1, "thread_seconds": [1]},
        {"name": "serial", "calls": 1, "threads": 1, "seconds": 0.5, "thread_seconds": [0.5]}], "errors": []})J",
                                     "m.json");
    EXPECT_EQ(r.timings[0].threads, 3);
    EXPECT_EQ(r.timings[0].spawned_threads, 3);
    EXPECT_EQ(r.timings[1].threads, 1);
    EXPECT_EQ(r.timings[1].spawned_threads, 0);
    const auto later = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "pool", "calls": 1, "threads": 1, "spawned_threads": 5, "seconds": 1}]})J",
                                         "m.json");
    EXPECT_EQ(merge_marker_reports({r, later}).timings[0].spawned_threads, 5);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "pool", "calls": 1, "threads": 1, "spawned_threads": -1, "seconds": 1}]})J",
                                   "m.json"),
                 MeasureError);
}
