#include "measure/function_names.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(FunctionNames, OnlyANameTwoFilesShareIsQualified) {
    const auto names = names_apart({{"kern", "/x/liba.so"}, {"kern", "/y/libb.so"}, {"main", "/x/prog"},
                                    {kCodeOutsideAnyFile, ""}});
    EXPECT_EQ(names.at({"kern", "/x/liba.so"}), "kern (liba.so)");
    EXPECT_EQ(names.at({"kern", "/y/libb.so"}), "kern (libb.so)");
    EXPECT_EQ(names.at({"main", "/x/prog"}), "main");
    EXPECT_EQ(names.at({kCodeOutsideAnyFile, ""}), kCodeOutsideAnyFile);
}

TEST(FunctionNames, SamplerNamesBecomeTheTools) {
    // The tool saw both kerns; the sampler only liba's (named plainly) and main.
    std::vector<RegionCounts> tool(3);
    tool[0].name = "kern (liba.so)", tool[0].object = "/x/liba.so";
    tool[1].name = "kern (libb.so)", tool[1].object = "/y/libb.so";
    tool[2].name = "main", tool[2].object = "/x/prog";
    SamplingResult s;
    s.functions["kern"] = {7, 0.7, "/x/liba.so"};
    s.functions["main"] = {2, 0.2, "/x/prog"};
    s.stack_functions = {"kern", "main"};
    s.stack_function_files = {"/x/liba.so", "/x/prog"};
    use_tool_function_names(tool, s);
    ASSERT_EQ(s.functions.size(), 2u);
    EXPECT_EQ(s.functions.at("kern (liba.so)").samples, 7);
    EXPECT_EQ(s.functions.at("main").samples, 2);
    EXPECT_EQ(s.stack_functions[0], "kern (liba.so)");
    EXPECT_EQ(s.stack_functions[1], "main");
}

TEST(FunctionNames, QualifiedSamplerNameBecomesPlainWhereTheToolSawOne) {
    std::vector<RegionCounts> tool(1);
    tool[0].name = "kern", tool[0].object = "/x/liba.so";
    SamplingResult s;
    s.functions["kern (liba.so)"] = {3, 0.3, "/x/liba.so"};
    s.functions["kern (libb.so)"] = {1, 0.1, "/y/libb.so"};  // the tool did not see it: kept
    use_tool_function_names(tool, s);
    EXPECT_EQ(s.functions.at("kern").samples, 3);
    EXPECT_EQ(s.functions.at("kern (libb.so)").samples, 1);
}
