// The "what was kept" summary line (issue 33): never "stored" of what is not in the store.
#include "render/kept_tally_text.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

std::string text(const KeptTally& t) { return kept_tally_text(t, "sample", " of job 7", " in r.db as 'job 7 n'", "S.jsonl"); }

} // namespace

TEST(KeptTallyText, EverythingStoredSaysSo) {
    KeptTally t;
    for (int i = 0; i < 6; ++i) t.add_stored();
    EXPECT_TRUE(t.all_stored());
    EXPECT_EQ(text(t), "6 samples of job 7 stored in r.db as 'job 7 n'");
}

TEST(KeptTallyText, SamplesNotStoredAreCountedWithWhyAndWhere) {
    KeptTally t;
    t.add_stored();
    t.add_stored();
    for (int i = 0; i < 4; ++i) t.add_unstored("disk full", true);
    EXPECT_EQ(t.taken(), 6);
    EXPECT_EQ(text(t), "6 samples of job 7 taken: 2 stored in r.db as 'job 7 n', 4 not stored (disk full); they are "
                       "kept in S.jsonl");
}

TEST(KeptTallyText, ARefusedSampleIsNotCalledStored) {
    KeptTally t;
    t.add_refused("flops: found -4", true);
    EXPECT_EQ(text(t), "1 sample of job 7 taken: 0 stored, 1 refused (flops: found -4); it is kept in S.jsonl");
}

TEST(KeptTallyText, SamplesNeitherStoredNorKeptAreLost) {
    KeptTally t;
    t.add_refused("NaN", true);
    t.add_unstored("disk full", false);
    t.add_unstored("disk full", false);
    EXPECT_EQ(t.lost(), 2);
    EXPECT_EQ(text(t), "3 samples of job 7 taken: 0 stored, 1 refused (NaN), 2 not stored (disk full); 1 is kept in "
                       "S.jsonl, 2 are lost");
    KeptTally none;
    none.add_unstored("gone", false);
    EXPECT_EQ(text(none), "1 sample of job 7 taken: 0 stored, 1 not stored (gone); it is lost");
}
