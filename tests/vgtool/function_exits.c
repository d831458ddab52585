/* Ways a --roofline-function call is left or interrupted other than by its return, each
 * with FLOPs of one kind per part so the checker can tell which part a region counted
 * (check_function_exits.py):
 *   altstack: work() sums N elements (f64 adds), raising SIGUSR1 half way; the handler,
 *             on an alternate signal stack above the thread's stack, does H f64 multiplies
 *             and returns. CALLS calls: CALLS*N adds, CALLS*H multiplies, all inside work.
 *   escape:   the same, but the handler siglongjmps out of work after its multiplies; the
 *             thread then does T f64 divisions outside work. work: CALLS*N/2 adds and
 *             CALLS*H multiplies; no division.
 *   region:   work() opens the client-request region "inner", does N adds and longjmps
 *             out without closing it; T divisions follow outside work. CALLS calls: work
 *             counts CALLS*N adds; "inner" stays open to the end (as the marker library
 *             keeps it): CALLS*N adds and CALLS*T divisions, with or without a function
 *             region around it.
 * Prints "alt above: 1" when the alternate stack lies above the thread's stack (what makes
 * the altstack case a test). */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <roofline/roofline_vg_requests.h>

#define N 100000
#define H 10000
#define T 1000
#define CALLS 3

static double a[N];
static volatile double sink;
static sigjmp_buf env;
static int mode_escape;
static char *volatile work_frame, *volatile handler_frame;
/* the thread's stack: a static buffer, below any mmap'd alternate stack */
static char tstack[1 << 20] __attribute__((aligned(4096)));

__attribute__((noinline)) static void handler(int s)
{
    (void)s;
    handler_frame = __builtin_frame_address(0);
    double x = sink;
    for (int i = 0; i < H; ++i) { x *= 1.0000001; __asm__ volatile("" : "+x"(x)); }
    sink = x;
    if (mode_escape) siglongjmp(env, 1);
}

__attribute__((noinline)) double work(void)
{
    double s = 0;
    work_frame = __builtin_frame_address(0);
    for (int i = 0; i < N / 2; ++i) s += a[i];
    raise(SIGUSR1);
    for (int i = N / 2; i < N; ++i) s += a[i];
    return s;
}

__attribute__((noinline)) static void tail(void)
{
    double x = 1e300;
    for (int i = 0; i < T; ++i) { x /= 1.0000001; __asm__ volatile("" : "+x"(x)); }
    sink = x;
}

__attribute__((noinline)) double work_region(void)
{
    double s = 0;
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, "inner", 0, 0, 0, 0);
    for (int i = 0; i < N; ++i) s += a[i];
    sink = s;
    siglongjmp(env, 1);
}

static void *thread_main(void *arg)
{
    (void)arg;
    void *alt = mmap(0, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t ss = {.ss_sp = alt, .ss_size = 1 << 16, .ss_flags = 0};
    if (alt == MAP_FAILED || sigaltstack(&ss, 0) != 0) { perror("sigaltstack"); exit(2); }
    for (volatile int c = 0; c < CALLS; ++c) {
        if (sigsetjmp(env, 1) == 0) sink = work();
        else tail();
    }
    printf("alt above: %d\n", handler_frame > work_frame);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    for (int i = 0; i < N; ++i) a[i] = 1.0;
    if (strcmp(mode, "region") == 0) {
        for (volatile int c = 0; c < CALLS; ++c)
            if (sigsetjmp(env, 1) == 0) work_region();
            else tail();
        return 0;
    }
    if (strcmp(mode, "altstack") != 0 && strcmp(mode, "escape") != 0) {
        fprintf(stderr, "usage: %s altstack|escape|region\n", argv[0]);
        return 2;
    }
    mode_escape = strcmp(mode, "escape") == 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, 0);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstack(&at, tstack, sizeof tstack);
    pthread_t t;
    if (pthread_create(&t, &at, thread_main, 0) != 0) return 2;
    pthread_join(t, 0);
    return 0;
}
