/* A region that finishes, then one that runs until a stop signal comes: region "done" sums
 * 20 sweeps of 1e6 doubles (4e7 FLOPs) and ends; region "spin" then loops, and the program
 * creates the file argv[1] once it is inside it, so the test knows when to send the signal.
 * With a second argument "own-handler" the program installs its own SIGINT handler first: the
 * handler prints "own handler called", the loop ends, "spin" closes and the program exits 3. */
#include <roofline/roofline.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile sig_atomic_t stop = 0;
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
    long n = 1000000; double* a = malloc(n * sizeof *a); volatile double s = 0;
    for (long i = 0; i < n; i++) a[i] = i;
    roofline_begin("done");
    for (int r = 0; r < 20; r++) for (long i = 0; i < n; i++) s += a[i] * 0.5;
    roofline_end("done");
    roofline_begin("spin");
    FILE* f = fopen(argv[1], "w");
    if (f) fclose(f);
    while (!stop) s += a[(long)s % n] * 0.5;
    roofline_end("spin");
    return own ? 3 : 0;
}
