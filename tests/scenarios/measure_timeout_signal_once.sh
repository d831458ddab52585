#!/usr/bin/env bash
# GNU timeout (without --foreground) delivers its signal twice: to the command (roofline) and to its
# own process group, which holds roofline too. measure took the second delivery, microseconds after
# the first, for a user's second Ctrl-C: "the command got a second SIGINT; sending SIGKILL", and a
# program that stops cleanly on SIGINT (here: it takes 0.3 s to finish and say so) was killed
# before it could. One request is one signal: the program gets its grace and ends by itself.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v timeout >/dev/null || { echo "SKIP: no timeout"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >graceful.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static volatile sig_atomic_t stop;
static void on_int(int sig) { (void)sig; stop = 1; }
int main(void) {
    signal(SIGINT, on_int);
    volatile double s = 0;
    while (!stop) s += 1.0;
    struct timespec t = {0, 300000000};  /* cleaning up: 0.3 s */
    nanosleep(&t, NULL);
    printf("clean exit\n");
    fflush(stdout);
    return 0;
}
C
cc -O1 -o graceful graceful.c || { echo "SKIP: cannot build the program"; exit 77; }
# stdin not a terminal: the program leads its own process group. timeout's two deliveries race (a
# second one that finds the first still pending merges with it; one that another thread of roofline
# takes does not), so they are sent here as timeout sends them, from one process, a few ms apart.
"$bin" measure --engine time --no-store -- ./graceful </dev/null >out 2>&1 &
measure=$!
sleep 1.5
kill -INT "$measure"; sleep 0.005; kill -INT "$measure"
wait "$measure"
fail=0
grep -q "second SIGINT" out && { echo "FAIL: timeout's one SIGINT was taken for a second one"; fail=1; }
grep -q "SIGKILL" out && { echo "FAIL: the program was killed rather than let stop"; fail=1; }
grep -q "clean exit" out || { echo "FAIL: the program did not finish by itself"; fail=1; }
((fail)) && { cat out; exit 1; }
echo "ok: $(grep -m1 'native run (timing)' out)"
