// The GPU backends' registry (app/gpu_backend.hpp): CUDA is there, a vendor without a backend is
// refused naming the vendors there are, and a backend registered here (a fake second vendor,
// no GPU needed) is the one the use cases call, for the bench and for the profile.
#include "app/gpu_backend.hpp"
#include "app/gpu_bench.hpp"
#include "app/gpu_measure.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

namespace roofline::app {
namespace {

TEST(GpuBackendRegistry, ListsCudaForNvidia) {
    const auto vendors = gpu_backend_vendors();
    ASSERT_FALSE(vendors.empty());
    EXPECT_EQ(vendors.front(), GpuVendor::nvidia);
    const auto& cuda = gpu_backend(GpuVendor::nvidia);
    EXPECT_EQ(cuda.vendor(), GpuVendor::nvidia);
    EXPECT_EQ(cuda.toolkit(), "CUDA");
}

TEST(GpuBackendRegistry, AVendorWithoutABackendIsARequestErrorNamingWhatThereIs) {
    for (const auto vendor : {GpuVendor::amd, GpuVendor::unknown}) {
        try {
            (void)gpu_backend(vendor);
            FAIL() << gpu_vendor_name(vendor) << " has no backend, and no error";
        } catch (const RequestError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(fmt::format("no GPU backend for vendor '{}'", gpu_vendor_name(vendor))),
                      std::string::npos) << what;
            EXPECT_NE(what.find("nvidia (CUDA)"), std::string::npos) << what;
        }
    }
    GpuBenchRequest bench;
    bench.vendor = GpuVendor::intel;
    EXPECT_THROW(probe_gpu(bench), RequestError);
    GpuMeasureRequest measure;
    measure.vendor = GpuVendor::intel;
    EXPECT_THROW((void)measure_gpu_kernels(measure, nullptr, {}), RequestError);
}

// A second vendor as a test would add it: what it was asked, and a GPU and points of its own.
struct FakeAmdBackend final : GpuBackend {
    mutable int probed = -1;
    mutable int benched = -1;
    mutable bool quick = false;
    GpuVendor vendor() const override { return GpuVendor::amd; }
    std::string toolkit() const override { return "ROCm"; }
    std::string benchmark_missing() const override { return {}; }
    void probe(int device) const override { probed = device; }
    GpuBenchResult bench(int device, bool q) const override {
        benched = device;
        quick = q;
        GpuBenchResult r;
        r.gpu.vendor = GpuVendor::amd;
        r.gpu.name = "fake MI300X";
        r.refused = {"a roof above its limit"};
        return r;
    }
    GpuMeasureResult profile(const GpuMeasureRequest& request, const ResultsStore*,
                             const GpuMeasureNotes& notes) const override {
        notes({GpuMeasureNote::Kind::ncu_run, "fake profiler"});
        GpuMeasureResult r;
        r.from = "fake profiler";
        r.kernels.resize(request.command.size());
        return r;
    }
    void describe_profile(const GpuMeasureRequest&, const GpuMeasureResult& result, Provenance& p) const override {
        p.engine = result.from;
    }
};

TEST(GpuBackendRegistry, ARegisteredBackendIsTheOneTheUseCasesCall) {
    auto owned = std::make_unique<FakeAmdBackend>();
    const FakeAmdBackend& fake = *owned;
    {
        const ScopedGpuBackend registered(std::move(owned));
        const auto vendors = gpu_backend_vendors();
        EXPECT_NE(std::find(vendors.begin(), vendors.end(), GpuVendor::amd), vendors.end());
        EXPECT_EQ(&gpu_backend(GpuVendor::amd), &fake);

        probe_gpu({GpuVendor::amd, 3, false});
        EXPECT_EQ(fake.probed, 3);
        const auto benched = bench_gpu({GpuVendor::amd, 2, true});
        EXPECT_EQ(fake.benched, 2);
        EXPECT_TRUE(fake.quick);
        EXPECT_EQ(benched.gpu.name, "fake MI300X");
        EXPECT_EQ(benched.gpu.vendor, GpuVendor::amd);
        ASSERT_EQ(benched.refused.size(), 1u);

        GpuMeasureRequest request;
        request.vendor = GpuVendor::amd;
        request.command = {"./app", "--size", "9"};
        std::string said;
        const auto result = measure_gpu_kernels(request, nullptr, [&](const GpuMeasureNote& n) { said = n.text; });
        EXPECT_EQ(said, "fake profiler");
        EXPECT_EQ(result.kernels.size(), 3u);
        Provenance provenance;
        describe_gpu_measure(request, result, provenance);
        EXPECT_EQ(provenance.engine, "fake profiler");
        // CUDA is still CUDA.
        EXPECT_EQ(gpu_backend(GpuVendor::nvidia).toolkit(), "CUDA");
    }
    // Gone with its registration.
    EXPECT_THROW((void)gpu_backend(GpuVendor::amd), RequestError);
}

// bench --gpu N names a device, not a vendor: the first backend whose benchmark this build has
// serves it, so a second vendor's machine needs no flag; a vendor asked for is the one used.
struct FakeBackendWithout final : GpuBackend {
    GpuVendor vendor() const override { return GpuVendor::intel; }
    std::string toolkit() const override { return "oneAPI"; }
    std::string benchmark_missing() const override { return "not built"; }
    void probe(int) const override {}
    GpuBenchResult bench(int, bool) const override { return {}; }
    GpuMeasureResult profile(const GpuMeasureRequest&, const ResultsStore*, const GpuMeasureNotes&) const override {
        return {};
    }
    void describe_profile(const GpuMeasureRequest&, const GpuMeasureResult&, Provenance&) const override {}
};

TEST(GpuBackendRegistry, BenchWithoutAVendorTakesTheFirstBackendWhoseBenchmarkIsBuilt) {
    const ScopedGpuBackend intel(std::make_unique<FakeBackendWithout>());
    const bool cuda_built = gpu_backend(GpuVendor::nvidia).benchmark_missing().empty();
    EXPECT_EQ(bench_vendor({}), GpuVendor::nvidia) << "nvidia is first whether or not its benchmark is built";
    {
        const ScopedGpuBackend amd(std::make_unique<FakeAmdBackend>());
        // CUDA's benchmark (built when nvcc is found) comes first; without it, the fake AMD one.
        EXPECT_EQ(bench_vendor({}), cuda_built ? GpuVendor::nvidia : GpuVendor::amd);
        EXPECT_EQ(bench_vendor({GpuVendor::intel, 0, false}), GpuVendor::intel);
    }
}

} // namespace
} // namespace roofline::app
