/* libgomp's entry points that start a parallel region (GCC's OpenMP since 4.9), wrapped: a
 * region opened on one thread around `#pragma omp parallel` is run by the whole team, but
 * only the opening thread calls begin and end. When a region is open on the forking thread
 * (roofline_marker_fork, marker.cpp), each team thread's body runs through
 * roofline_marker_team_body, which counts the team's threads for it (and adds their counters
 * under the perf engine); otherwise the call goes straight to libgomp. Exported from the
 * shared library, these come before libgomp's in the program's symbol lookup (a program links
 * libgomp after its own libraries). Not wrapped, so not seen: GOMP_parallel_reductions (task
 * reductions: libgomp reads the first word of the body's data), the pre-4.9
 * GOMP_parallel_start, host teams, tasks other threads run, and LLVM's libomp entered from
 * clang's __kmpc_fork_call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

void* roofline_marker_fork(void);
void roofline_marker_team_body(void* fork, void (*fn)(void*), void* data);
void roofline_marker_join(void* fork);
int roofline_marker_ompt_started(void);

typedef void (*body_fn)(void*);

struct team_call {
    body_fn fn;
    void* data;
    void* fork;
};

static void team_body(void* p) {
    const struct team_call* c = p;
    roofline_marker_team_body(c->fork, c->fn, c->data);
}

/* GCC's OpenMP runtime, by its soname on every Linux distribution. */
#define LIBGOMP_SONAME "libgomp.so.1"

/* The OpenMP runtime's own function. A program that calls one linked the runtime, but the linker
 * may have dropped it: with --as-needed (Debian's and Ubuntu's GCC pass it by default) a program
 * whose only OpenMP calls are the ones this library defines (a `#pragma omp parallel` with no
 * omp_* call: GOMP_parallel alone) names no symbol only libgomp has, so libgomp is not NEEDED and
 * is never loaded; every `#pragma omp parallel` then aborted here, natively too. That program was
 * built with -fopenmp for GCC's runtime: load it. */
static void* runtime_symbol(void** cache, const char* name) {
    void* f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (f) return f;
    f = dlsym(RTLD_NEXT, name);
    if (!f) {
        void* gomp = dlopen(LIBGOMP_SONAME, RTLD_NOW | RTLD_GLOBAL);
        if (gomp) f = dlsym(gomp, name);
    }
    if (!f) {
        fprintf(stderr, "roofline marker: %s is called but no OpenMP runtime defines it\n", name);
        abort();
    }
    __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}

/* Calls the runtime's `name` with the body wrapped when a region is open: CALL(body, data)
 * is the call with the body and its data put in. */
#define TEAM(name, type, CALL)                                     \
    static void* real;                                             \
    type next = (type)runtime_symbol(&real, name);                    \
    void* fork = roofline_marker_fork();                           \
    if (!fork) {                                                   \
        CALL(fn, data);                                            \
    } else {                                                       \
        struct team_call c = {fn, data, fork};                     \
        CALL(team_body, &c);                                       \
        roofline_marker_join(fork);                                \
    }

typedef void (*parallel_fn)(body_fn, void*, unsigned, unsigned);
EXPORT void GOMP_parallel(body_fn fn, void* data, unsigned num_threads, unsigned flags) {
#define CALL(f, d) next(f, d, num_threads, flags)
    TEAM("GOMP_parallel", parallel_fn, CALL)
#undef CALL
}

typedef void (*sections_fn)(body_fn, void*, unsigned, unsigned, unsigned);
EXPORT void GOMP_parallel_sections(body_fn fn, void* data, unsigned num_threads, unsigned count, unsigned flags) {
#define CALL(f, d) next(f, d, num_threads, count, flags)
    TEAM("GOMP_parallel_sections", sections_fn, CALL)
#undef CALL
}

/* The combined parallel loops: static, dynamic, guided and their nonmonotonic forms take a
 * chunk size; runtime and its forms do not. */
typedef void (*loop_fn)(body_fn, void*, unsigned, long, long, long, long, unsigned);
#define LOOP(name)                                                                                  \
    EXPORT void name(body_fn fn, void* data, unsigned num_threads, long start, long end, long incr, \
                     long chunk_size, unsigned flags) {                                             \
        TEAM(#name, loop_fn, LOOP_CALL)                                                             \
    }
#define LOOP_CALL(f, d) next(f, d, num_threads, start, end, incr, chunk_size, flags)
LOOP(GOMP_parallel_loop_static)
LOOP(GOMP_parallel_loop_dynamic)
LOOP(GOMP_parallel_loop_guided)
LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
LOOP(GOMP_parallel_loop_nonmonotonic_guided)

typedef void (*runtime_loop_fn)(body_fn, void*, unsigned, long, long, long, unsigned);
#define RUNTIME_LOOP(name)                                                                          \
    EXPORT void name(body_fn fn, void* data, unsigned num_threads, long start, long end, long incr, \
                     unsigned flags) {                                                              \
        TEAM(#name, runtime_loop_fn, RUNTIME_LOOP_CALL)                                             \
    }
#define RUNTIME_LOOP_CALL(f, d) next(f, d, num_threads, start, end, incr, flags)
RUNTIME_LOOP(GOMP_parallel_loop_runtime)
RUNTIME_LOOP(GOMP_parallel_loop_nonmonotonic_runtime)
RUNTIME_LOOP(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* This library's own GOMP_parallel (a reference to the exported name would resolve to the
 * first definition in the program, libgomp's when it comes first). */
extern void roofline_gomp_parallel_here(body_fn, void*, unsigned, unsigned)
    __attribute__((alias("GOMP_parallel"), visibility("hidden")));

/* Why OpenMP teams forked inside regions would not be seen in this process, or NULL (no OpenMP
 * runtime, or the wrappers or the OpenMP tool see them). */
__attribute__((visibility("hidden"))) const char* roofline_marker_openmp_unseen(void) {
    if (roofline_marker_ompt_started()) return NULL;
    if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
        return "the OpenMP runtime (LLVM's or Intel's) did not start roofline's OpenMP tool (OMP_TOOL=disabled, or "
               "the program defines ompt_start_tool itself)";
    void* gomp = dlsym(RTLD_DEFAULT, "GOMP_parallel");
    if (gomp && gomp != (void*)roofline_gomp_parallel_here)
        return "libgomp comes before libroofline_marker in the program's symbol lookup (it was linked or preloaded "
               "first): link -lroofline_marker before -fopenmp's libgomp";
    return NULL;
}
