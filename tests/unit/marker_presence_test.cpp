// measure/marker_presence: whether a program loads the marker library at start, from ldd's list.
// A run cut short says what it lost by it: region timings only for a program that could mark any.
#include "measure/marker_presence.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(MarkerPresence, LddListsTheMarkerLibraryOrNot) {
    const std::string without = "\tlinux-vdso.so.1 (0x00007ffd5b1f2000)\n"
                                "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0d1a000000)\n"
                                "\t/lib64/ld-linux-x86-64.so.2 (0x00007f0d1a3c5000)\n";
    EXPECT_EQ(marker_library_in_ldd_output(without), std::optional<bool>(false));
    const std::string with = "\tlinux-vdso.so.1 (0x00007ffd5b1f2000)\n"
                             "\tlibroofline_marker.so => /work/main/build/lib/libroofline_marker.so (0x00007f0d1a3a0000)\n"
                             "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0d1a000000)\n";
    EXPECT_EQ(marker_library_in_ldd_output(with), std::optional<bool>(true));
    // Linked but not found by the loader: it names the library all the same.
    EXPECT_EQ(marker_library_in_ldd_output("\tlibroofline_marker.so.1 => not found\n"), std::optional<bool>(true));
    // A library whose directory, not its file, is named like it: not the library.
    EXPECT_EQ(marker_library_in_ldd_output("\tlibm.so.6 => /opt/libroofline_marker/libm.so.6 (0x1)\n"),
              std::optional<bool>(false));
    // A script or a static program: ldd lists nothing, nothing is known.
    EXPECT_EQ(marker_library_in_ldd_output("\tnot a dynamic executable\n"), std::nullopt);
    EXPECT_EQ(marker_library_in_ldd_output("\tstatically linked\n"), std::nullopt);
    EXPECT_EQ(marker_library_in_ldd_output(""), std::nullopt);
}

TEST(MarkerPresence, ThisTestProgramDoesNotLoadIt) {
    // ldd on a dynamic program of ours that does not link the marker library (if ldd is here).
    const auto loads = loads_marker_library("/bin/sh", {});
    if (loads) {
        EXPECT_FALSE(*loads);
    }
    EXPECT_EQ(loads_marker_library("/bin/sh", {{"LD_PRELOAD", "/x/libroofline_marker.so"}}), std::optional<bool>(true));
}
