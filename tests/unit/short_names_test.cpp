// Names shortened for tables and charts (render/short_names.hpp): short, and never two alike.
#include "render/short_names.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace roofline;

namespace {

TEST(ShortNames, ShortNamesAreKept) {
    const std::vector<std::string> names = {"main", "daxpy(int, double*)"};
    EXPECT_EQ(short_names(names, 24), names);
}

TEST(ShortNames, ParametersGoFirstWhereNamesStayApart) {
    const auto out = short_names({"solve(std::vector<double, std::allocator<double> > const&, int)", "setup()"}, 20);
    EXPECT_EQ(out[0], "solve(...)");
    EXPECT_EQ(out[1], "setup()");
    // Overloads differ only in their parameters: those stay (cut where they differ).
    const auto overloads = short_names({"scale(std::vector<double, std::allocator<double> >&, double)",
                                        "scale(std::vector<float, std::allocator<float> >&, float)"},
                                       40);
    EXPECT_NE(overloads[0], overloads[1]);
    EXPECT_NE(overloads[0].find("double"), std::string::npos) << overloads[0];
    EXPECT_NE(overloads[1].find("float"), std::string::npos) << overloads[1];
}

TEST(ShortNames, InnerTemplateArgumentsAndOperatorsAreRead) {
    const auto out = short_names({"ns::Grid<std::vector<double, std::allocator<double> >, 3>::operator<<(int)"}, 50);
    EXPECT_EQ(out[0], "ns::Grid<std::vector<...>, 3>::operator<<(int)");
}

TEST(ShortNames, HundredsOfInstantiationsStayApartWithinTheWidth) {
    std::vector<std::string> names;
    for (int k = 0; k < 300; ++k)
        names.push_back("physics::solvers::detail::Kernel<" + std::to_string(k) +
                        ", float, physics::solvers::detail::Slow>::apply(std::vector<float, std::allocator<float> > "
                        "const&)");
    const auto out = short_names(names, 60);
    std::set<std::string> distinct(out.begin(), out.end());
    EXPECT_EQ(distinct.size(), names.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
        EXPECT_LE(out[k].size(), 60u) << out[k];
        EXPECT_NE(out[k].find("Kernel<" + std::to_string(k) + ","), std::string::npos) << out[k];
    }
}

TEST(ShortNames, NamesThatCannotBeToldApartShortAreKeptWhole) {
    // They differ only in the middle of a run of one letter: no cut of 16 keeps them apart.
    const std::vector<std::string> names = {std::string(40, 'a') + "x" + std::string(40, 'a'),
                                            std::string(40, 'a') + "y" + std::string(40, 'a')};
    const auto out = short_names(names, 16);
    EXPECT_NE(out[0], out[1]);
}

TEST(ShortNames, CutsKeepWholeUtf8Characters) {
    // "é" is two bytes, "€" three: a cut through one left a chart's SVG not XML.
    std::vector<std::string> names;
    for (int k = 0; k < 5; ++k) names.push_back("é€é€é€é€é€é€é€é€é€é€é€é€é€" + std::to_string(k) + "€é€é€é€é€é€é€é€é€é€");
    for (std::size_t width = 16; width < 40; ++width)
        for (const auto& n : short_names(names, width)) {
            EXPECT_LE(n.size(), width) << n;
            for (std::size_t i = 0; i < n.size();) {  // each character's lead byte, then its continuations
                const auto lead = static_cast<unsigned char>(n[i]);
                const std::size_t length = lead < 0x80 ? 1 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
                ASSERT_NE(length, 0u) << "a continuation byte begins a character at " << i << " of " << n;
                ASSERT_LE(i + length, n.size()) << "a character cut at the end of " << n;
                for (std::size_t j = 1; j < length; ++j)
                    ASSERT_EQ(static_cast<unsigned char>(n[i + j]) & 0xC0, 0x80) << n;
                i += length;
            }
        }
}

} // namespace
