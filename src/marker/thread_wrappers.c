/* pthread_create, wrapped: a region opened on one thread around work done by threads it starts
 * (a hand-made pool, std::thread, a library's own threads) ran on those threads, but only the
 * opening thread calls begin and end. When a region is open on the creating thread (or that
 * thread was itself started inside one), roofline_marker_thread_created (marker.cpp) counts the
 * new thread for those regions from now until it exits (a thread-specific value's destructor,
 * which runs however the thread ends: return, pthread_exit, cancellation), and under the perf
 * engine the thread's counters from its start (roofline_marker_thread_runs) to its exit or the
 * regions' ends (roofline_marker_thread_exits, or the thread closing a region); otherwise the call
 * goes straight to the C library. Exported from the shared library, this comes before the C
 * library's pthread_create in the program's symbol lookup, for the program's calls and its
 * libraries' (libstdc++'s std::thread, libgomp's pool). Threads started before a region opens
 * (a pool made at start-up) are not seen. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

void* roofline_marker_thread_created(void);
void roofline_marker_thread_not_started(void* spawn);
void roofline_marker_thread_runs(void* spawn);
void roofline_marker_thread_exits(void* spawn);

typedef int (*create_fn)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int exit_key_made;

static void thread_exits(void* spawn) { roofline_marker_thread_exits(spawn); }
static void make_exit_key(void) { exit_key_made = pthread_key_create(&exit_key, thread_exits) == 0; }

struct start_call {
    void* (*fn)(void*);
    void* arg;
    void* spawn;
};

static void* start(void* p) {
    const struct start_call c = *(struct start_call*)p;
    free(p);
    roofline_marker_thread_runs(c.spawn);
    /* Without the key (pthread_key_create failed) the thread counts until its body returns. */
    if (exit_key_made && pthread_setspecific(exit_key, c.spawn) == 0) return c.fn(c.arg);
    void* result = c.fn(c.arg);
    roofline_marker_thread_exits(c.spawn);
    return result;
}

EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
    static create_fn real;
    create_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        next = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (!next) {
            fprintf(stderr, "roofline marker: the C library's pthread_create is not found\n");
            return EAGAIN;
        }
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    void* spawn = roofline_marker_thread_created();
    if (!spawn) return next(thread, attr, fn, arg);
    pthread_once(&exit_key_once, make_exit_key);
    struct start_call* c = malloc(sizeof *c);
    if (!c) {
        roofline_marker_thread_not_started(spawn);
        return next(thread, attr, fn, arg);
    }
    c->fn = fn;
    c->arg = arg;
    c->spawn = spawn;
    const int rc = next(thread, attr, start, c);
    if (rc != 0) {
        free(c);
        roofline_marker_thread_not_started(spawn);
    }
    return rc;
}
