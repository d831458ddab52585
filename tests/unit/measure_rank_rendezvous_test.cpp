// The ranks' meeting through files (measure/rank_rendezvous.hpp), with fake ranks in threads:
// each writes its file when it is ready, and the waiting rank sees who came and who did not.
#include "io/points_json.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"
#include "measure/mpi_job.hpp"
#include "measure/rank_rendezvous.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace roofline;
using namespace roofline::measure;

namespace {

std::string rank_file(const TempDir& dir, int rank) { return dir.file("rank" + std::to_string(rank) + ".node"); }

// Fake ranks: rank r writes "node-r" after r x `step` of its own work.
std::vector<std::thread> fake_ranks(const TempDir& dir, const std::vector<int>& ranks, std::chrono::milliseconds step) {
    std::vector<std::thread> threads;
    for (int r : ranks)
        threads.emplace_back([&dir, r, step] {
            std::this_thread::sleep_for(step * r);
            write_text_file_atomic(rank_file(dir, r), "node-" + std::to_string(r));
        });
    return threads;
}

} // namespace

TEST(RankRendezvous, WaitsUntilEveryRankHasWrittenItsFile) {
    TempDir dir("roofline-rendezvous-test");
    auto ranks = fake_ranks(dir, {1, 2, 3}, std::chrono::milliseconds(60));
    std::map<int, std::string> said;
    const auto missing = wait_for_ranks({1, 2, 3}, 30, [&](int r) {
        auto text = read_file_if_exists(rank_file(dir, r));
        if (text) said[r] = *text;
        return text.has_value();
    });
    for (auto& t : ranks) t.join();
    EXPECT_TRUE(missing.empty());
    EXPECT_EQ(said, (std::map<int, std::string>{{1, "node-1"}, {2, "node-2"}, {3, "node-3"}}));
}

TEST(RankRendezvous, ARankThatNeverComesIsMissingAfterTheTimeAndTheWaitIsSaidOnce) {
    TempDir dir("roofline-rendezvous-test");
    auto ranks = fake_ranks(dir, {1}, std::chrono::milliseconds(10));
    int polls_of_rank_2 = 0, told = 0, told_missing = -1;
    const auto start = std::chrono::steady_clock::now();
    const auto missing = wait_for_ranks(
        {2, 1}, 3.5,
        [&](int r) {
            if (r == 2) ++polls_of_rank_2;
            return std::filesystem::exists(rank_file(dir, r));
        },
        [&](int n) {
            ++told;
            told_missing = n;
        });
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (auto& t : ranks) t.join();
    EXPECT_EQ(missing, std::vector<int>{2});
    EXPECT_GE(waited, 3.5);
    EXPECT_LT(waited, 10);
    EXPECT_EQ(told, 1);
    EXPECT_EQ(told_missing, 1);
    // Backing off: not every 50 ms for 3.5 s (70 polls), and not once either.
    EXPECT_GT(polls_of_rank_2, 3);
    EXPECT_LT(polls_of_rank_2, 30);
}

TEST(RankRendezvous, EveryRankIsPolledOnceEvenWithNoTimeToWait) {
    int polls = 0;
    EXPECT_TRUE(wait_for_ranks({0, 1}, 0, [&](int) { return ++polls > 0; }).empty());
    EXPECT_EQ(polls, 2);
}

TEST(RankRendezvous, RankZeroGathersPointsTheOtherRanksWriteWhileItWaits) {
    TempDir dir("roofline-rendezvous-test");
    const auto out = dir.file("job.json");
    const MpiRank self{0, 3, "job-9", "Open MPI"};
    std::vector<std::thread> ranks;
    for (int r : {1, 2})
        ranks.emplace_back([&, r] {
            std::this_thread::sleep_for(std::chrono::milliseconds(80 * r));
            Point p;
            p.name = "solve";
            p.work = 10.0 * r;
            p.bytes["L1"] = 8;
            p.seconds = 1;
            Provenance prov;
            prov.host = "n" + std::to_string(r);
            prov.mpi = MpiProvenance{"Open MPI", "job-9", r, 3, {}};
            write_points_file(rank_points_path(out, self, r), {p}, &prov);
        });
    Point own;
    own.name = "solve";
    own.work = 1;
    own.bytes["L1"] = 8;
    own.seconds = 1;
    const auto job = gather_job(self, {0, "n0", {own}}, out, 0, 30, {});
    for (auto& t : ranks) t.join();
    EXPECT_TRUE(job.missing.empty());
    ASSERT_EQ(job.ranks.size(), 3u);
    EXPECT_EQ(job.ranks[2].host, "n2");
    EXPECT_EQ(job.ranks[2].points.at(0).work, 20);
    EXPECT_EQ(job.files.size(), 2u);
}
