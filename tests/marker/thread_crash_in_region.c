/* Two threads in region "parallel" (after a serial region "setup" that finishes); thread 1 faults
 * half-way through its loop while thread 0 still works: scenario measure_thread_crash_in_region. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <roofline/roofline.h>

#define M 1024
static double xs[M], out[2];
static long reps = 20000;
static pthread_barrier_t both;

static void* work(void* arg) {
    const long t = (long)arg;
    double s = 0;
    pthread_barrier_wait(&both); /* both alive at once: the region ran on 2 threads */
    for (long k = 0; k < reps; k++) {
        for (int i = 0; i < M; i++) s += xs[i] * 1.5;
        if (t == 1 && k == reps / 2) *(volatile int*)0 = 1;
        __asm__ volatile("" : "+x"(s));
    }
    out[t] = s;
    return 0;
}

int main(void) {
    for (int i = 0; i < M; i++) xs[i] = i & 3;
    pthread_barrier_init(&both, 0, 2);
    roofline_begin("setup");
    double z = 0;
    for (int i = 0; i < M; i++) z += xs[i] * xs[i];
    roofline_end("setup");
    pthread_t th[2];
    roofline_begin("parallel");
    for (long t = 0; t < 2; t++) pthread_create(&th[t], 0, work, (void*)t);
    for (int t = 0; t < 2; t++) pthread_join(th[t], 0);
    roofline_end("parallel");
    printf("%g %g %g\n", z, out[0], out[1]);
    return 0;
}
