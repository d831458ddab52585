/* Whole-CPU counters (ROOFLINE_PERF_EVENTS "...@cpu"): two threads in one region at
 * once, each 100 ms, and main alone in another for 100 ms. A system-wide clock on a
 * CPU counts the same wall time for both threads: the region keeps the larger (about
 * 100 ms), not the sum (200 ms). */
#include <roofline/roofline.h>

#include <pthread.h>

#include "common.h"

static pthread_barrier_t start;

static void* both(void* arg) {
    (void)arg;
    pthread_barrier_wait(&start);
    roofline_begin("both");
    sleep_ms(100);
    roofline_end("both");
    return NULL;
}

int main(void) {
    pthread_barrier_init(&start, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, both, NULL);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    roofline_begin("solo");
    sleep_ms(100);
    roofline_end("solo");
    return 0;
}
