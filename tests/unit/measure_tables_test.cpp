// measure's function table (render/measure_tables.hpp): names are never cut
// into names that read the same, and the time column says where it came from.
#include "render/measure_tables.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

TEST(MeasureTables, LongNamesAreNotCutIntoDuplicates) {
    const std::string prefix(70, 'a');
    const std::vector<FunctionRow> rows = {{prefix + "::first(int)xxxxxxxxxxxxxxxxxxxx" + std::string(30, 'z'),
                                            std::nullopt, 1, 1, 0.5, "", std::nullopt},
                                           {prefix + "::second(int)xxxxxxxxxxxxxxxxxxx" + std::string(30, 'z'),
                                            std::nullopt, 1, 1, 0.5, "", std::nullopt}};
    const auto text = render_function_table("t", "function", "CPU s", rows);
    // Cut in the middle, both would read "aaa...zzz": the cut keeps where they differ.
    EXPECT_EQ(text.find(rows[0].name), std::string::npos);
    EXPECT_NE(text.find("::first(int)"), std::string::npos) << text;
    EXPECT_NE(text.find("::second(int)"), std::string::npos) << text;
    for (const auto& line : {text.substr(text.find("aaa")), text.substr(text.rfind("aaa"))})
        EXPECT_LE(line.find(' '), 80u) << line;
}

TEST(MeasureTables, TemplateInstantiationsStayApartAndShort) {
    // 300 instantiations of one template told apart by one argument: a name of 531 characters
    // each was printed whole (cut in the middle they read the same).
    std::vector<FunctionRow> rows;
    const std::string map = "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
                            "std::vector<float, std::allocator<float> > >&";
    for (int k : {7, 243, 254})
        rows.push_back({"physics::solvers::detail::Kernel<" + std::to_string(k) +
                            ", float, physics::solvers::detail::Slow>::apply(std::vector<float, std::allocator<float> > "
                            "const&, " + map + ")",
                        std::nullopt, 1, 1, 0.5, "", std::nullopt});
    const auto text = render_function_table("t", "function", "CPU s", rows);
    for (int k : {7, 243, 254}) EXPECT_NE(text.find("Kernel<" + std::to_string(k) + ","), std::string::npos) << text;
    EXPECT_EQ(text.find("allocator"), std::string::npos) << text;
    std::size_t longest = 0, from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) longest = std::max(longest, nl - from);
    EXPECT_LE(longest, 80u + 80u) << text;  // the name column is at most 80 wide
}

TEST(MeasureTables, DistinctLongNamesAreCutInTheMiddle) {
    const std::vector<FunctionRow> rows = {{std::string(100, 'a') + "_one", std::nullopt, 1, 1, {}, "", std::nullopt},
                                           {std::string(100, 'b') + "_two", std::nullopt, 1, 1, {}, "", std::nullopt}};
    const auto text = render_function_table("t", "function", "CPU s", rows);
    EXPECT_EQ(text.find(rows[0].name), std::string::npos);
    EXPECT_NE(text.find("..."), std::string::npos);
    EXPECT_NE(text.find("_one"), std::string::npos);
    EXPECT_NE(text.find("_two"), std::string::npos);
}

TEST(MeasureTables, TimeSourceColumnOnlyWhenThereAreNotes) {
    std::vector<FunctionRow> rows = {{"<function dot>", 3, 6, 48, 0.1, "wall time of 3 calls timed", std::nullopt}};
    EXPECT_NE(render_function_table("t", "region", "time s", rows).find("time from"), std::string::npos);
    rows[0].time_note.clear();
    EXPECT_EQ(render_function_table("t", "region", "time s", rows).find("time from"), std::string::npos);
}

TEST(MeasureTables, ListedShareSaysWhatTheTableLeavesOut) {
    ListedShare share;
    share.listed = 7;
    share.left_out = 884;
    share.all_flops = 1000;
    share.listed_flops = 30;
    share.left_out_flops = 970;
    share.largest_left_out_flops = 1.7;
    share.all_seconds = 2.0;
    share.listed_seconds = 0.5;
    share.lower_min_share_percent = 0.1;
    share.lower_lists = 600;
    EXPECT_EQ(render_listed_share(share),
              "the 7 functions listed hold 3.00% of the FLOPs and 25.0% of the sampled CPU time; 884 more hold 97.0% "
              "of the FLOPs, the largest of them 0.170%: --min-share 0.1 lists 600 more\n");
    // No sampled time, nothing listed, and no lower share that lists more.
    share.all_seconds.reset();
    share.listed_seconds.reset();
    share.listed = 0;
    share.listed_flops = 0;
    share.left_out_flops = 1000;
    share.lower_lists = 0;
    EXPECT_EQ(render_listed_share(share), "no function listed; 884 more hold 100% of the FLOPs, the largest of them 0.170%\n");
    // Nearly all listed: the share is told from all.
    share.listed = 1;
    share.listed_flops = 999.9;
    share.left_out_flops = 0.1;
    EXPECT_EQ(render_listed_share(share).substr(0, 56), "the 1 function listed holds 99.990% of the FLOPs; 884 mo");
    // Nothing left out: no line.
    share.left_out = 0;
    EXPECT_EQ(render_listed_share(share), "");
}

TEST(MeasureTables, ListedShareWithoutFlopsSaysTheLeftOutTime) {
    // A program with no FLOPs (a histogram of bytes) read "the 2 functions listed hold 99.6% of the
    // sampled CPU time; 239 more: --min-share 0.02 lists 1 more", the 239 holding nothing said.
    ListedShare share;
    share.listed = 2;
    share.left_out = 239;
    share.all_seconds = 1.0;
    share.listed_seconds = 0.996;
    share.lower_min_share_percent = 0.02;
    share.lower_lists = 1;
    EXPECT_EQ(render_listed_share(share), "the 2 functions listed hold 99.6% of the sampled CPU time; 239 more hold "
                                          "0.400% of the sampled CPU time: --min-share 0.02 lists 1 more\n");
    share.left_out = 1;
    share.lower_lists = 0;
    EXPECT_EQ(render_listed_share(share),
              "the 2 functions listed hold 99.6% of the sampled CPU time; 1 more holds 0.400% of the sampled CPU time\n");
    // The left-out rows' own time where it was tallied, not the rest of the program's: a program that
    // exited before its loops ran read "no loop listed; 3 more hold 100% of the sampled CPU time".
    ListedShare loops;
    loops.noun = "loop";
    loops.left_out = 3;
    loops.all_seconds = 0.002;
    loops.listed_seconds = 0.0;
    loops.left_out_seconds = 0.0;
    EXPECT_EQ(render_listed_share(loops), "no loop listed; 3 more hold none of the sampled CPU time\n");
    loops.left_out_seconds = 0.0005;
    EXPECT_EQ(render_listed_share(loops), "no loop listed; 3 more hold 25.0% of the sampled CPU time\n");
}

TEST(MeasureTables, ListedShareOfLoopsCountsTheirOwnCode) {
    ListedShare share;
    share.noun = "loop";
    share.own_code = true;
    share.listed = 5;
    share.left_out = 1;
    share.all_flops = 1000;
    share.listed_flops = 990;
    share.left_out_flops = 4;
    share.largest_left_out_flops = 4;
    share.lower_min_share_percent = 0.2;
    share.lower_lists = 1;
    // One left out: no "largest of them"; the rest (6 FLOPs) is code in no loop.
    EXPECT_EQ(render_listed_share(share),
              "the 5 loops listed hold 99.0% of the FLOPs in their own code; 1 more holds 0.400% of the FLOPs: "
              "--min-share 0.2 lists 1 more\n");
    share.listed = 1;
    EXPECT_EQ(render_listed_share(share).substr(0, 60), "the 1 loop listed holds 99.0% of the FLOPs in its own code; ");
}

} // namespace

namespace {

TEST(MeasureTables, SampledPointsBesideSeveralThreadsSayTheirTimeIsSummed) {
    // An OpenMP program: its region ran on 2 threads; its function, sampled, shows 1 thread and
    // the CPU time of both (12 ms beside the region's 6 ms), which nothing explained.
    Point region;
    region.name = "ikj";
    region.threads = 2;
    region.seconds = 0.006;
    Point function = region;
    function.name = "mm_ikj._omp_fn.0";
    function.threads = 1;
    function.seconds = 0.012;
    function.details["samples"] = 120;
    const std::string line = "their seconds are CPU time summed over the threads that ran them";
    EXPECT_NE(render_measured_points({{region, std::nullopt}, {function, std::nullopt}}, false).find(line),
              std::string::npos);
    // One thread everywhere, or no sampled point: nothing to explain.
    region.threads = 1;
    EXPECT_EQ(render_measured_points({{region, std::nullopt}, {function, std::nullopt}}, false).find(line),
              std::string::npos);
    region.threads = 2;
    EXPECT_EQ(render_measured_points({{region, std::nullopt}}, false).find(line), std::string::npos);
}

TEST(MeasureTables, AJudgedRowGivesTheIntensityOfItsBindingRoofsLevel) {
    // A stencil from an audit: 0.1 FLOP/B at L1 was printed beside its binding roof at DRAM, where
    // it has 0.169 (0.1 x that roof is not what caps it).
    Roofline r;
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 88.7};
    r.bandwidth = {{"L1 triad", "L1", 314}, {"DRAM copy+WA", "DRAM", 52.4}};
    Point p;
    p.name = "jacobi";
    p.threads = 1;
    p.seconds = 0.0637;
    p.work = 1.67e8;
    p.bytes = {{"L1", 1.67e9}, {"DRAM", 0.988e9}};
    const Analysis a = analyze(r, p, View::carm);
    ASSERT_EQ(a.binding_level, "DRAM");
    const std::string judged = render_measured_points({{p, a}}, true);
    EXPECT_NE(judged.find(" 0.169 "), std::string::npos) << judged;
    EXPECT_EQ(judged.find(" 0.1000 "), std::string::npos) << judged;
    EXPECT_NE(judged.find("DRAM DRAM copy+WA"), std::string::npos) << judged;
    // Not judged: the level closest to the core, as before.
    const std::string plain = render_measured_points({{p, std::nullopt}}, false);
    EXPECT_NE(plain.find(" L1"), std::string::npos) << plain;
}

} // namespace
