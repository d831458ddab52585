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
    // Cut in the middle, both would read "aaa...zzz": printed whole instead.
    EXPECT_NE(text.find(rows[0].name), std::string::npos);
    EXPECT_NE(text.find(rows[1].name), std::string::npos);
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

} // namespace
