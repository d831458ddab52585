/* A region that finishes, then one that runs until a stop signal comes: region "done" sums
 * 20 sweeps of 1e6 doubles (4e7 FLOPs) and ends; region "spin" then loops, and the program
 * creates the file argv[1] once it is inside it, so the test knows when to send the signal.
 * With a second argument "own-handler" the program installs its own SIGINT handler first: the
 * handler prints "own handler called", the loop ends, "spin" closes and the program exits 3.
 * With "sigchld-ignored" it sets SIGCHLD to SIG_IGN (its children are reaped by the kernel).
 * With "stdio-held" a second thread (stop signals blocked: they come to the main thread) holds
 * stdio's list of streams for good, blocked in fflush(NULL) on a pipe nobody reads: a writer that
 * opened its file with fopen (which takes that lock) would wait for ever.
 * With "busy-threads" two more threads open and close region "short" in a tight loop, and so does
 * the main thread inside "spin": as the signal comes, some thread is inside a region's begin or
 * end most of the time, holding the library's lock on its regions.
 * With "exit-write" the program returns from main once "done" finished (creating argv[1] first):
 * the library writes its file at exit (the test stalls that write and sends a signal during it). */
#include <roofline/roofline.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile sig_atomic_t stop = 0;
static volatile int flushing = 0;
static void* hold_stdio(void* unused) {
    (void)unused;
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stops, NULL);
    int fds[2];
    if (pipe(fds) != 0) return NULL;
    FILE* f = fdopen(fds[1], "w");
    static char buf[1 << 20], data[1 << 19];
    if (!f || setvbuf(f, buf, _IOFBF, sizeof buf) != 0) return NULL;
    fwrite(data, 1, sizeof data, f);  /* buffered: more than the pipe holds (64 KiB) */
    flushing = 1;
    fflush(NULL); /* blocks in write() with the stream list's lock held */
    return NULL;
}
static volatile double sink;
static void short_region(void) {
    roofline_begin("short");
    double x = 0;
    for (int i = 0; i < 50; i++) x += i * 0.5;
    sink = x;
    roofline_end("short");
}
static void* busy(void* unused) {
    (void)unused;
    for (;;) short_region();
    return NULL;
}
static void on_int(int sig) {
    (void)sig;
    static const char msg[] = "own handler called\n";
    (void)!write(1, msg, sizeof msg - 1);
    stop = 1;
}
int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const int own = argc > 2 && strcmp(argv[2], "own-handler") == 0;
    if (own) signal(SIGINT, on_int);
    if (argc > 2 && strcmp(argv[2], "sigchld-ignored") == 0) signal(SIGCHLD, SIG_IGN);
    const int held = argc > 2 && strcmp(argv[2], "stdio-held") == 0;
    const int exit_write = argc > 2 && strcmp(argv[2], "exit-write") == 0;
    const int busy_threads = argc > 2 && strcmp(argv[2], "busy-threads") == 0;
    long n = 1000000; double* a = malloc(n * sizeof *a); volatile double s = 0;
    for (long i = 0; i < n; i++) a[i] = i;
    roofline_begin("done");
    for (int r = 0; r < 20; r++) for (long i = 0; i < n; i++) s += a[i] * 0.5;
    roofline_end("done");
    if (exit_write) {
        const int ready = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (ready >= 0) close(ready);
        return 0; /* the library writes its file at exit */
    }
    roofline_begin("spin");
    if (busy_threads) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, busy, NULL);
    }
    if (held) {
        pthread_t t;
        pthread_create(&t, NULL, hold_stdio, NULL);
        while (!flushing) usleep(1000);
        usleep(200000); /* in write() by now */
    }
    const int ready = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644); /* not fopen: stdio may be held */
    if (ready >= 0) close(ready);
    while (busy_threads && !stop) short_region();
    while (!stop) s += a[(long)s % n] * 0.5;
    roofline_end("spin");
    return own ? 3 : 0;
}
