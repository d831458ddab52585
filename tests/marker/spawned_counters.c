/* Perf engine, threads started inside regions (run.sh's case spawned_counters runs it with
 * ROOFLINE_PERF_EVENTS="clk=1:1", task-clock: CPU time in ns). A region whose work runs on
 * threads it starts must hold their counters, over the part of each thread's life while the
 * region is open, each thread once:
 *   spawned  2 threads burn 200 ms of CPU each and are joined; a pool thread made here stays
 *            asleep until the region has closed (read at the region's end: it is still alive)
 *   second   the pool thread burns 200 ms: not spawned's work (spawned closed), and not this
 *            region's either (the thread was started before it opened)
 *   outer, nested   nested inside outer: a thread started inside both starts another that burns
 *            100 ms (inherited: both regions hold it)
 *   self     a thread started inside it opens it too (100 ms inside, 100 ms after its end):
 *            200 ms, not 300 (its own instance's counts are not added twice)
 * It prints the CPU times it measured itself (getrusage RUSAGE_THREAD), in ns:
 *   cpu burners=<the 2 burners> main_spawned=<main inside spawned> pool_before=<the pool
 *   thread until spawned closed> pool_after=<its burn> grandchild=<> child=<> self=<the self
 *   thread> main_self=<main inside self> process=<RUSAGE_SELF at the end> */
#define _GNU_SOURCE
#include <roofline/roofline.h>

#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>

#include "common.h"

static long long thread_cpu_ns(int who) {
    struct rusage u;
    getrusage(who, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000LL +
           (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000LL;
}

static long long burner_ns[2], pool_before, pool_after, grandchild_ns, child_ns, self_ns;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pool_go, pool_done;

static void* burner(void* arg) {
    long long* out = arg;
    spin_ms(200);
    *out = thread_cpu_ns(RUSAGE_THREAD);
    return NULL;
}

static void* pool(void* arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!pool_go) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    pool_before = thread_cpu_ns(RUSAGE_THREAD);
    spin_ms(200);
    pool_after = thread_cpu_ns(RUSAGE_THREAD) - pool_before;
    pthread_mutex_lock(&mu);
    pool_done = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void* grandchild(void* arg) {
    (void)arg;
    spin_ms(100);
    grandchild_ns = thread_cpu_ns(RUSAGE_THREAD);
    return NULL;
}

static void* child(void* arg) {
    (void)arg;
    pthread_t t;
    if (pthread_create(&t, NULL, grandchild, NULL) == 0) pthread_join(t, NULL);
    child_ns = thread_cpu_ns(RUSAGE_THREAD);
    return NULL;
}

static void* self(void* arg) {
    (void)arg;
    roofline_begin("self");
    spin_ms(100);
    roofline_end("self");
    spin_ms(100);
    self_ns = thread_cpu_ns(RUSAGE_THREAD);
    return NULL;
}

int main(void) {
    pthread_t t[2], p;
    long long m0 = thread_cpu_ns(RUSAGE_THREAD);
    roofline_begin("spawned");
    pthread_create(&p, NULL, pool, NULL);
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, burner, &burner_ns[i]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    roofline_end("spawned");
    const long long main_spawned = thread_cpu_ns(RUSAGE_THREAD) - m0;

    roofline_begin("second");
    pthread_mutex_lock(&mu);
    pool_go = 1;
    pthread_cond_broadcast(&cv);
    while (!pool_done) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    roofline_end("second");
    pthread_join(p, NULL);

    roofline_begin("outer");
    roofline_begin("nested");
    pthread_create(&t[0], NULL, child, NULL);
    pthread_join(t[0], NULL);
    roofline_end("nested");
    roofline_end("outer");

    m0 = thread_cpu_ns(RUSAGE_THREAD);
    roofline_begin("self");
    pthread_create(&t[0], NULL, self, NULL);
    pthread_join(t[0], NULL);
    roofline_end("self");
    const long long main_self = thread_cpu_ns(RUSAGE_THREAD) - m0;

    printf("cpu burners=%lld main_spawned=%lld pool_before=%lld pool_after=%lld grandchild=%lld child=%lld "
           "self=%lld main_self=%lld process=%lld\n",
           burner_ns[0] + burner_ns[1], main_spawned, pool_before, pool_after, grandchild_ns, child_ns, self_ns,
           main_self, thread_cpu_ns(RUSAGE_SELF));
    return 0;
}
