// C++ methods of a class template in a namespace, found by their short names.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace solver {
template <class T>
class Grid2D {
public:
    Grid2D(int nx, int ny) : nx_(nx), ny_(ny), u_(std::size_t(nx) * ny, T(1)), v_(std::size_t(nx) * ny, T(0)) {}
    __attribute__((noinline)) void sweep() {  // 4 FLOPs per inner point
        for (int j = 1; j < ny_ - 1; j++)
            for (int i = 1; i < nx_ - 1; i++) {
                const std::size_t k = std::size_t(j) * nx_ + i;
                v_[k] = T(0.25) * (u_[k - 1] + u_[k + 1] + u_[k - nx_] + u_[k + nx_]);
            }
        u_.swap(v_);
    }
    __attribute__((noinline)) T norm() const {  // 2 FLOPs per point
        T s = 0;
        for (auto x : u_) s += x * x;
        return s;
    }

private:
    int nx_, ny_;
    std::vector<T> u_, v_;
};
} // namespace solver

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1000, it = argc > 2 ? std::atoi(argv[2]) : 200;
    solver::Grid2D<double> g(n, n);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < it; k++) g.sweep();
    const auto t1 = std::chrono::steady_clock::now();
    const double s = g.norm();
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("check sweep flops=%.6e seconds=%.6f\n", 4.0 * (n - 2) * (n - 2) * it,
                std::chrono::duration<double>(t1 - t0).count());
    std::printf("check Grid2D<double>::norm flops=%.6e seconds=%.6f\n", 2.0 * n * n,
                std::chrono::duration<double>(t2 - t1).count());
    std::printf("result %g\n", s);
    return 0;
}
