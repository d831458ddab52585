// C++ names for --region-function: a method of a class template in a
// namespace ("solver::Grid2D<double>::sweep(int)"), found by its short name
// "sweep", and a function GCC clones with a constant argument
// ("relax.constprop.0" at -O2), found by its base name "relax".
//
//   grid_solver [N [SWEEPS]]     (default N = 200, 10 sweeps)
//
// sweep() does 3 FLOPs per inner point (2 adds, 1 multiply); relax() does 2
// per element (1 multiply, 1 add).
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace solver {

template <typename T>
class Grid2D {
public:
    explicit Grid2D(int n) : n_(n), u_(std::size_t(n) * n, T(1)), v_(u_) {}
    __attribute__((noinline)) void sweep(int times) {
        for (int s = 0; s < times; ++s) {
            for (int i = 1; i + 1 < n_; ++i)
                for (int j = 1; j + 1 < n_; ++j)
                    v_[at(i, j)] = T(0.25) * (u_[at(i - 1, j)] + u_[at(i + 1, j)] + u_[at(i, j - 1)]) ;
            u_.swap(v_);
        }
    }
    T corner() const { return u_[at(1, 1)]; }
    std::vector<T>& data() { return u_; }

private:
    std::size_t at(int i, int j) const { return std::size_t(i) * n_ + j; }
    int n_;
    std::vector<T> u_, v_;
};

}  // namespace solver

// static + one call site with a constant factor: GCC's ipa-cp clones it.
static __attribute__((noinline)) void relax(std::vector<double>& x, double factor, double shift) {
    for (double& e : x) e = e * factor + shift;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 200;
    const int sweeps = argc > 2 ? std::atoi(argv[2]) : 10;
    if (n < 3 || sweeps < 0) {
        std::fprintf(stderr, "usage: %s [N>=3 [SWEEPS]]\n", argv[0]);
        return 2;
    }
    solver::Grid2D<double> grid(n);
    grid.sweep(sweeps);
    relax(grid.data(), 0.5, argc > 3 ? std::atof(argv[3]) : 1.0);
    std::printf("grid_solver: n=%d sweeps=%d corner=%g\n", n, sweeps, grid.corner());
    return 0;
}
