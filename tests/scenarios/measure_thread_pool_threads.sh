#!/usr/bin/env bash
# A region opened on the main thread around threads it starts (a hand-made pool) ran on those
# threads. The time engine said 'threads 1' for examples/programs/thread_pool's 'axpy' (only the
# opening thread calls begin), while the instrument engine said 2 (the threads that did FLOPs in
# it). Now the marker library wraps pthread_create and a region's threads are the most threads
# started inside it alive at once: both engines say 2 for thread_pool and 3 for a pool of 3
# threads that all wait for each other (5 rounds: 3, not the 15 made), and 1 for the serial region
# after it. The instrument engine's part needs valgrind and the tool.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
command -v jq >/dev/null || { echo "SKIPPED: jq is needed"; exit 77; }
cat >"$tmp/pool.c" <<'C'
#include <pthread.h>
#include <roofline/roofline.h>
#include <stdio.h>
enum { THREADS = 3, N = 200000 };
static double y[THREADS][N];
static pthread_barrier_t all;
static void* work(void* arg) {
    double* v = arg;
    pthread_barrier_wait(&all);  /* every thread of the round is alive at once */
    for (int i = 0; i < N; ++i) v[i] = v[i] * 0.5 + 1.0;
    return NULL;
}
int main(void) {
    pthread_barrier_init(&all, NULL, THREADS);
    pthread_t t[THREADS];
    roofline_begin("pool");
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, work, y[i]);
        for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
    }
    roofline_end("pool");
    roofline_begin("serial");
    for (int i = 0; i < N; ++i) y[0][i] = y[0][i] * 0.5 + 1.0;
    roofline_end("serial");
    printf("%g\n", y[0][N - 1] + y[THREADS - 1][0]);
    return 0;
}
C
cc -O1 "$tmp/pool.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" -pthread -o "$tmp/pool" ||
  { echo "FAIL: cannot compile the test program"; exit 1; }
engines=(time)
if command -v valgrind >/dev/null && [[ -d $build/vgtool ]]; then engines+=(instrument)
else echo "note: no valgrind or Valgrind tool here: only the time engine is checked"; fi
threads() { jq -r --arg n "$2" '[.points[] | select(.name == $n)] | if length == 0 then "none" else .[0].threads end' "$1"; }
fail=0
thread_pool=$build/examples/programs/thread_pool
[[ -x $thread_pool ]] || { echo "note: $thread_pool is not built (target thread_pool): only the scenario's pool is checked"; thread_pool=; }
for e in "${engines[@]}"; do
  out=$("$bin" measure --engine $e --cache-sim off --no-store --repeat 1 -o "$tmp/$e.json" -- "$tmp/pool" 2>&1) ||
    { echo "FAIL: pool $e: exit $?"; sed 's/^/  | /' <<<"$out"; fail=1; continue; }
  pool=$(threads "$tmp/$e.json" pool) serial=$(threads "$tmp/$e.json" serial)
  [[ $pool == 3 && $serial == 1 ]] ||
    { echo "FAIL: pool $e: threads pool $pool, serial $serial (expected 3 and 1)"; sed 's/^/  | /' <<<"$out"; fail=1; }
  if [[ $e == time ]] && ! grep -q "regions that started threads ran on them.*'pool' 3" <<<"$out"; then
    echo "FAIL: the threads started inside 'pool' are not said"; sed 's/^/  | /' <<<"$out"; fail=1
  fi
  if [[ -n $thread_pool ]]; then
    # 1,000,000 elements: each thread's half takes long enough that the two overlap.
    "$bin" measure --engine $e --cache-sim off --no-store --repeat 1 -o "$tmp/tp_$e.json" -- "$thread_pool" 1000000 3 2 \
      >"$tmp/tp_$e.out" 2>&1 || { echo "FAIL: thread_pool $e: exit $?"; sed 's/^/  | /' "$tmp/tp_$e.out"; fail=1; continue; }
    axpy=$(threads "$tmp/tp_$e.json" axpy)
    [[ $axpy == 2 ]] || { echo "FAIL: thread_pool $e: threads of axpy $axpy (expected 2)"; fail=1; }
  fi
done
[[ $fail == 0 ]] && echo "ok: ${engines[*]}: threads started inside a region are its threads"
exit $fail
