// 1-D three-point Jacobi stencil, marked with the RAII C++ API (roofline.hpp).
//
//   stencil [N [SWEEPS]]        (default N = 20000 points per thread, 20 sweeps)
//
// Two std::threads each relax their own array. On each thread the region
// "solve" holds SWEEPS nested regions "sweep"; a sweep does 3 FLOPs (2 add,
// 1 mul) on each of the N - 2 inner points. In all: "solve" 2 calls,
// "sweep" 2 * SWEEPS calls and 2 * SWEEPS * (N - 2) * 3 FLOPs.
#include <roofline/roofline.hpp>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

namespace {

__attribute__((noinline)) void sweep(const std::vector<double>& in, std::vector<double>& out) {
    const std::size_t n = in.size();
    for (std::size_t i = 1; i + 1 < n; ++i) out[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0 / 3.0);
}

double solve(std::size_t n, int sweeps) {
    std::vector<double> u(n, 0.0), v(n, 0.0);
    u.front() = v.front() = 1.0;  // fixed boundary values
    u.back() = v.back() = 1.0;

    roofline::Region solve_region("solve");  // ends when the function returns
    for (int s = 0; s < sweeps; ++s) {
        ROOFLINE_SCOPE("sweep");  // nested in "solve"; ends at the end of each iteration
        sweep(u, v);
        std::swap(u, v);
    }
    return u[n / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 20000;
    const int sweeps = argc > 2 ? std::atoi(argv[2]) : 20;
    if (n < 3 || sweeps < 0) {
        std::fprintf(stderr, "usage: %s [N>=3 [SWEEPS]]\n", argv[0]);
        return 2;
    }
    roofline::Session session;  // roofline_init() now, roofline_finalize() at the end of main

    double result[2] = {0, 0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&result, t, n, sweeps] { result[t] = solve(static_cast<std::size_t>(n), sweeps); });
    for (auto& th : threads) th.join();

    std::printf("stencil: n=%ld sweeps=%d u[n/2]=%g %g\n", n, sweeps, result[0], result[1]);
    return 0;
}
