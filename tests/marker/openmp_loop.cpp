// A dot product over an OpenMP team inside a region opened on the main thread, and a serial
// region after it (scenario.measure_openmp_threads runs it with OMP_NUM_THREADS=2).
//   openmp_loop [N [REPS]]      (default N = 200000, 10 repetitions)
#include <roofline/roofline.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 200000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
    if (n < 1 || reps < 1) {
        std::fprintf(stderr, "usage: %s [N [REPS]]\n", argv[0]);
        return 2;
    }
    std::vector<double> x(n, 1.0), y(n, 2.0);
    double s = 0;
    for (int r = 0; r < reps; ++r) {
        roofline_begin("dot");
#pragma omp parallel for reduction(+ : s)
        for (long i = 0; i < n; ++i) s += x[i] * y[i];
        roofline_end("dot");
    }
    roofline_begin("serial");
    for (long i = 0; i < n; ++i) s += x[i] * 0.5;
    roofline_end("serial");
    std::printf("openmp_loop: s=%g\n", s);
    return 0;
}
