/* A library-style thread pool: the region is opened on the main thread, and
 * threads the "library" starts do all the work (as OpenBLAS, FFTW or an
 * OpenMP runtime do). By default `roofline measure` counts the work of every
 * thread while a region is open, so "axpy" holds all 2 * N * REPS FLOPs at
 * any thread count; with --region-scope thread only the main thread's (none).
 *
 *   thread_pool [N [REPS [THREADS]]]      (default N = 100000, 10 repetitions, 2 threads)
 *
 * parallel_axpy() starts THREADS threads and waits for them: measured with
 * --region-function parallel_axpy it is a wrapper whose callees and threads
 * do the work. sum_then_scale() does N FLOPs itself and calls scale(), a leaf
 * doing N more: inclusive and self time differ. */
#include <pthread.h>
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long begin, end;
    double a;
    const double* x;
    double* y;
} Chunk;

static void* axpy_chunk(void* arg) {
    Chunk* c = arg;
    for (long i = c->begin; i < c->end; ++i) c->y[i] += c->a * c->x[i];
    return NULL;
}

__attribute__((noinline)) int parallel_axpy(long n, double a, const double* x, double* y, int threads) {
    pthread_t tid[64];
    Chunk chunk[64];
    for (int t = 0; t < threads; ++t) {
        chunk[t] = (Chunk){n * t / threads, n * (t + 1) / threads, a, x, y};
        if (pthread_create(&tid[t], NULL, axpy_chunk, &chunk[t]) != 0) return -1;
    }
    for (int t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
    return 0;
}

__attribute__((noinline)) void scale(long n, double a, double* y) {
    for (long i = 0; i < n; ++i) y[i] *= a;
}

__attribute__((noinline)) double sum_then_scale(long n, double* y) {
    double s = 0.0;
    for (long i = 0; i < n; ++i) s += y[i];
    scale(n, 0.5, y);
    return s;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    const int reps = argc > 2 ? atoi(argv[2]) : 10;
    const int threads = argc > 3 ? atoi(argv[3]) : 2;
    if (n <= 0 || reps < 0 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: %s [N [REPS [THREADS 1..64]]]\n", argv[0]);
        return 2;
    }
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    if (!x || !y) return 2;
    for (long i = 0; i < n; ++i) {
        x[i] = 1.0;
        y[i] = 0.0;
    }
    roofline_begin("axpy");
    for (int r = 0; r < reps; ++r)
        if (parallel_axpy(n, 0.5, x, y, threads) != 0) {
            fprintf(stderr, "thread_pool: cannot start threads\n");
            return 1;
        }
    roofline_end("axpy");
    const double s = sum_then_scale(n, y);
    printf("thread_pool: n=%ld reps=%d threads=%d sum=%g y[0]=%g\n", n, reps, threads, s, y[0]);
    free(x);
    free(y);
    return 0;
}
