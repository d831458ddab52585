/* Two threads running one loop, for measure --loops (issue 36): the loop's counts are every
 * thread's (2 threads x REPS calls x 2 N FLOPs), and its time is the samples of every thread
 * (the main thread only waits: a loop point at all means the other threads were sampled).
 * usage: loop_threads N REPS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long n, reps;

__attribute__((noinline)) void axpy(long len, double a, const double *x, double *y)
{
    for (long i = 0; i < len; i++) /* axpy */
        y[i] += a * x[i];
}

static void *work(void *result)
{
    double *x = calloc((size_t)n, sizeof(double)), *y = calloc((size_t)n, sizeof(double));
    if (!x || !y) exit(1);
    for (long r = 0; r < reps; r++) axpy(n, 1.5, x, y);
    *(double *)result = y[n - 1];
    free(x);
    free(y);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N REPS\n", argv[0]);
        return 2;
    }
    n = atol(argv[1]);
    reps = atol(argv[2]);
    pthread_t threads[2];
    double results[2];
    for (int t = 0; t < 2; t++) pthread_create(&threads[t], NULL, work, &results[t]);
    for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
    printf("%g\n", results[0] + results[1]);
    return 0;
}
