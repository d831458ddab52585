/* Threads started inside a region (pthread_create, wrapped by the library) count for it: its
 * threads are the most of them alive at once, not the number made, and not the threads that
 * opened it alone. Each case is made so that the count does not depend on timing: threads that
 * must be alive together wait for each other on a barrier; threads that must not are joined
 * before the next starts.
 *   pool           5 rounds of 3 threads alive at once (a barrier of 3): 3, not 15
 *   one_at_a_time  4 threads, each joined before the next starts: 1
 *   exits          3 threads leaving through pthread_exit, one at a time: 1
 *   nested         a thread started inside it starts another, both alive at once: 2
 *   late           a thread started before it opened, working while it is open: not counted (1)
 *   serial         no thread started: 1, no spawned_threads
 *   busy           2 threads each burning 30 ms of CPU while main waits: 2 */
#include <roofline/roofline.h>

#include <pthread.h>

#include "common.h"

static pthread_barrier_t three, two, late_start;

static void* wait_for_three(void* arg) {
    (void)arg;
    pthread_barrier_wait(&three);
    return NULL;
}

static void* quick(void* arg) { return arg; }

static void* leave(void* arg) { pthread_exit(arg); }

static void* grandchild(void* arg) {
    (void)arg;
    pthread_barrier_wait(&two);
    return NULL;
}

static void* child(void* arg) {
    (void)arg;
    pthread_t t;
    if (pthread_create(&t, NULL, grandchild, NULL) != 0) return NULL;
    pthread_barrier_wait(&two);
    pthread_join(t, NULL);
    return NULL;
}

static void* burn(void* arg) {
    pthread_barrier_wait(&two);
    spin_ms(30);
    return arg;
}

static void* early(void* arg) {
    (void)arg;
    pthread_barrier_wait(&late_start);
    sleep_ms(5);
    return NULL;
}

int main(void) {
    pthread_barrier_init(&three, NULL, 3);
    pthread_barrier_init(&two, NULL, 2);
    pthread_barrier_init(&late_start, NULL, 2);
    pthread_t t[3];

    roofline_begin("pool");
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 3; ++i) pthread_create(&t[i], NULL, wait_for_three, NULL);
        for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
    }
    roofline_end("pool");

    roofline_begin("one_at_a_time");
    for (int i = 0; i < 4; ++i) {
        pthread_create(&t[0], NULL, quick, NULL);
        pthread_join(t[0], NULL);
    }
    roofline_end("one_at_a_time");

    roofline_begin("exits");
    for (int i = 0; i < 3; ++i) {
        pthread_create(&t[0], NULL, leave, NULL);
        pthread_join(t[0], NULL);
    }
    roofline_end("exits");

    roofline_begin("nested");
    pthread_create(&t[0], NULL, child, NULL);
    pthread_join(t[0], NULL);
    roofline_end("nested");

    pthread_create(&t[0], NULL, early, NULL);
    roofline_begin("late");
    pthread_barrier_wait(&late_start);
    pthread_join(t[0], NULL);
    roofline_end("late");

    roofline_begin("serial");
    sleep_ms(1);
    roofline_end("serial");

    roofline_begin("busy");
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, burn, NULL);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    roofline_end("busy");
    return 0;
}
