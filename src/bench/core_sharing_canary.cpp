#include "bench/core_sharing_canary.hpp"

#include "bench/isa_support.hpp"
#include "bench/sampler.hpp"

#include <algorithm>

namespace roofline {

bool threads_share_cores(double single_seconds, double team_seconds, double limit) {
    if (!(single_seconds > 0) || !(team_seconds > 0)) return false;
    return team_seconds / single_seconds > limit;
}

bool team_slowed(double team_seconds, double best_team_seconds, double limit) {
    if (!(team_seconds > 0) || !(best_team_seconds > 0)) return false;
    return team_seconds / best_team_seconds > limit;
}

const ComputeKernel* canary_kernel() {
    const ComputeKernel* best = nullptr;
    for (const auto& k : all_compute_kernels()) {
        if (!isa_supported(k.isa) || k.precision != "dp") continue;
        if (k.mix != "fma" && k.mix != "add") continue;
        const bool better = !best || k.vector_bits > best->vector_bits ||
                            (k.vector_bits == best->vector_bits && k.mix == "fma" && best->mix != "fma");
        if (better) best = &k;
    }
    return best;
}

CoreSharingCanary::CoreSharingCanary(ThreadTeam& team, const ComputeKernel& kernel, double seconds)
    : team_(team), kernel_(kernel),
      out_(static_cast<std::size_t>(team.size()),
           std::vector<double>(static_cast<std::size_t>(kernel.chains() * kernel.lanes()))) {
    // Calibrated on one thread; the values keep every chain finite however long it runs.
    reps_ = calibrate_reps(
        [this](std::uint64_t reps) {
            return team_.run_timed([&](int t) {
                if (t == 0) kernel_.run(reps, 1.0, 0x1p-30, out_[0].data());
            });
        },
        seconds);
}

bool CoreSharingCanary::cores_separate() {
    const double single = team_.run_timed([&](int t) {
        if (t == 0) kernel_.run(reps_, 1.0, 0x1p-30, out_[0].data());
    });
    const double all = team_.run_timed(
        [&](int t) { kernel_.run(reps_, 1.0, 0x1p-30, out_[static_cast<std::size_t>(t)].data()); });
    ++checks_;
    const bool shared = threads_share_cores(single, all);
    const bool slowed = team_slowed(all, best_team_);
    if (!shared && (best_team_ == 0 || all < best_team_)) best_team_ = all;
    failures_ += shared || slowed;
    return !(shared || slowed);
}

} // namespace roofline
