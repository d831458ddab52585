#include "core/glibc_store_thresholds.hpp"

#include <gtest/gtest.h>

using namespace roofline;

// What ld.so --list-diagnostics printed on a 2-vCPU Zen 4 guest (glibc 2.36), in part.
constexpr const char* kZen4 =
    "x86.cpu_features.preferred.Prefer_No_AVX512=0x0\n"
    "x86.cpu_features.data_cache_size=0x8000\n"
    "x86.cpu_features.shared_cache_size=0x14000000\n"
    "x86.cpu_features.non_temporal_threshold=0xf000000\n"
    "x86.cpu_features.rep_movsb_threshold=0x840\n"
    "x86.cpu_features.rep_movsb_stop_threshold=0x100000\n"
    "x86.cpu_features.rep_stosb_threshold=0x800\n";

TEST(GlibcStoreThresholds, TheNonTemporalThresholdsAreReadAndNothingElse) {
    const auto t = glibc_store_thresholds(kZen4);
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].tunable, "glibc.cpu.x86_non_temporal_threshold");
    EXPECT_EQ(t[0].bytes, 0xf000000u);
    // glibc 2.40 adds memset's; a value that is no number is left out; a later copy is ignored.
    const auto newer = glibc_store_thresholds(
        "x86.cpu_features.non_temporal_threshold=0x200000\r\n"
        "x86.cpu_features.memset_non_temporal_threshold=12345\n"
        "x86.cpu_features.non_temporal_threshold=0x1\n"
        "x86.cpu_features.memset_non_temporal_threshold=0xzz\n");
    ASSERT_EQ(newer.size(), 2u);
    EXPECT_EQ(newer[0].bytes, 0x200000u);
    EXPECT_EQ(newer[1].tunable, "glibc.cpu.x86_memset_non_temporal_threshold");
    EXPECT_EQ(newer[1].bytes, 12345u);
    EXPECT_TRUE(glibc_store_thresholds("").empty());
    EXPECT_TRUE(glibc_store_thresholds("ld.so: unrecognized option '--list-diagnostics'\n").empty());
    EXPECT_TRUE(glibc_store_thresholds("x86.cpu_features.non_temporal_threshold=\n").empty());
}

TEST(GlibcStoreThresholds, TunablesAreAppendedToWhatTheUserSet) {
    const std::vector<GlibcThreshold> t = {{"glibc.cpu.x86_non_temporal_threshold", 0xf000000}};
    EXPECT_EQ(glibc_tunables_with("", t), "glibc.cpu.x86_non_temporal_threshold=0xf000000");
    EXPECT_EQ(glibc_tunables_with("glibc.malloc.check=3", t),
              "glibc.malloc.check=3:glibc.cpu.x86_non_temporal_threshold=0xf000000");
    EXPECT_EQ(glibc_tunables_with("glibc.malloc.check=3", {}), "glibc.malloc.check=3");
}

TEST(GlibcStoreThresholds, TheLoaderIsLddsLineWithoutAnArrow) {
    EXPECT_EQ(loader_in_ldd_output("\tlinux-vdso.so.1 (0x00007ffd)\n"
                                   "\tlibroofline_marker.so.0 => /w/lib/libroofline_marker.so.0 (0x00007f5e)\n"
                                   "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f5d)\n"
                                   "\t/lib64/ld-linux-x86-64.so.2 (0x00007f5e8)\n"),
              "/lib64/ld-linux-x86-64.so.2");
    EXPECT_EQ(loader_in_ldd_output("\tnot a dynamic executable\n"), "");
    EXPECT_EQ(loader_in_ldd_output("\tlibfoo.so => not found\n"), "");
}
