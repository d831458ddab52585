// The regions other processes of the command opened, said in warnings (measure/child_regions).
#include "measure/child_regions.hpp"

#include <gtest/gtest.h>

using roofline::measure::detail::warn_child_regions;

TEST(MeasureChildRegions, NothingNotedNoWarning) {
    std::vector<std::string> warnings;
    warn_child_regions("", warnings);
    warn_child_regions("garbage without a tab\n\tno pid\n", warnings);
    EXPECT_TRUE(warnings.empty());
}

TEST(MeasureChildRegions, ForkedChildrenAndStartedProgramsAreSaidApart) {
    std::vector<std::string> warnings;
    warn_child_regions("101\tchild\n101\tchild two\n102\tchild\n"
                       "200\tother\tsolver\n200\tparent\tsolver\n",
                       warnings);
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_NE(warnings[0].find("2 forked child processes of the command opened marker regions ('child', "
                               "'child two')"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[1].find("1 process that the command started running solver (system(), popen, or fork and "
                               "exec) opened marker regions ('other', 'parent')"),
              std::string::npos)
        << warnings[1];
    EXPECT_NE(warnings[1].find("roofline measure -- solver ARGS"), std::string::npos) << warnings[1];
    EXPECT_EQ(warnings[0].find("solver"), std::string::npos) << warnings[0];
}

TEST(MeasureChildRegions, SeveralStartedProgramsAreNamed) {
    std::vector<std::string> warnings;
    warn_child_regions("7\ta\tone\n8\tb\ttwo\n", warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 processes that the command started running one, two"), std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("Measure each on their own (roofline measure -- PROGRAM ARGS)"), std::string::npos)
        << warnings[0];
}
