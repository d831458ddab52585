#include "measure/clone_names.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(CloneNames, OriginDropsGccCloneSuffixes) {
    EXPECT_EQ(clone_origin("foo.constprop.0"), "foo");
    EXPECT_EQ(clone_origin("foo.isra.0"), "foo");
    EXPECT_EQ(clone_origin("foo.part.0"), "foo");
    EXPECT_EQ(clone_origin("foo.cold"), "foo");
    EXPECT_EQ(clone_origin("foo.isra.0.constprop.1"), "foo");
    EXPECT_EQ(clone_origin("foo.part.0.cold"), "foo");
    EXPECT_EQ(clone_origin("scale(double*, int) [clone .constprop.0]"), "scale(double*, int)");
    EXPECT_EQ(clone_origin("scale(double*, int) [clone .isra.0] [clone .cold]"), "scale(double*, int)");
    // Not clones: kept whole.
    EXPECT_EQ(clone_origin("foo"), "foo");
    EXPECT_EQ(clone_origin("foo.1"), "foo.1");
    EXPECT_EQ(clone_origin("cold"), "cold");
    EXPECT_EQ(clone_origin(".cold"), ".cold");
    EXPECT_EQ(clone_origin("foo.constprop_x.0"), "foo.constprop_x.0");
    EXPECT_EQ(clone_origin("f [clone .unknown.0]"), "f [clone .unknown.0]");
}

TEST(CloneNames, SameNamesMatchByName) {
    const auto m = match_clones({"foo", "main"}, {"main", "foo", "foo.constprop.0"});
    EXPECT_EQ(m.at("foo").timed, "foo");
    EXPECT_FALSE(m.at("foo").by_origin);
    EXPECT_EQ(m.at("main").timed, "main");
}

TEST(CloneNames, TheOnlyCloneOfAFunctionIsItsMatchBothWays) {
    // -O0 counted, -O2 timed: foo became foo.constprop.0, bar foo.isra.0's neighbour bar.part.0.
    auto m = match_clones({"foo", "bar", "main"}, {"main", "foo.constprop.0", "bar.part.0"});
    EXPECT_EQ(m.at("foo").timed, "foo.constprop.0");
    EXPECT_TRUE(m.at("foo").by_origin);
    EXPECT_EQ(m.at("bar").timed, "bar.part.0");
    EXPECT_FALSE(m.at("main").by_origin);
    // -O2 counted, -O0 timed.
    m = match_clones({"foo.isra.0", "main"}, {"main", "foo"});
    EXPECT_EQ(m.at("foo.isra.0").timed, "foo");
    EXPECT_TRUE(m.at("foo.isra.0").by_origin);
    // C++, demangled.
    m = match_clones({"scale(double*, int)"}, {"scale(double*, int) [clone .constprop.0]"});
    EXPECT_EQ(m.at("scale(double*, int)").timed, "scale(double*, int) [clone .constprop.0]");
}

TEST(CloneNames, AColdPartBesideItsFunctionIsNoCandidate) {
    const auto m = match_clones({"foo"}, {"foo.constprop.0", "foo.constprop.0.cold"});
    EXPECT_EQ(m.at("foo").timed, "foo.constprop.0");
    // Counted in parts: foo by name; its cold part is not given foo too.
    const auto parts = match_clones({"foo", "foo.cold"}, {"foo"});
    EXPECT_EQ(parts.at("foo").timed, "foo");
    EXPECT_TRUE(parts.at("foo.cold").timed.empty());
}

TEST(CloneNames, TwoClonesOrTwoCountedFunctionsOfOneOriginAreNeverMerged) {
    // Two specializations of foo in the timed build: neither is foo's alone.
    auto m = match_clones({"foo"}, {"foo.constprop.0", "foo.constprop.1"});
    EXPECT_TRUE(m.at("foo").timed.empty());
    EXPECT_EQ(m.at("foo").candidates, (std::vector<std::string>{"foo.constprop.0", "foo.constprop.1"}));
    // Two counted clones of foo, one foo timed: not both given it, nor either.
    m = match_clones({"foo.constprop.0", "foo.constprop.1"}, {"foo"});
    EXPECT_TRUE(m.at("foo.constprop.0").timed.empty());
    EXPECT_TRUE(m.at("foo.constprop.1").timed.empty());
    // A clone whose origin the counted build has by name: the origin keeps it, the clone gets none.
    m = match_clones({"foo", "foo.part.0"}, {"foo"});
    EXPECT_EQ(m.at("foo").timed, "foo");
    EXPECT_TRUE(m.at("foo.part.0").timed.empty());
    EXPECT_TRUE(m.at("foo.part.0").candidates.empty());
    // Different origins never meet.
    m = match_clones({"foo"}, {"food.constprop.0", "fo.constprop.0"});
    EXPECT_TRUE(m.at("foo").timed.empty());
}
