#!/usr/bin/env bash
# Threads at once and unequal shares under the instrument engine (the Valgrind tool counts).
# A program whose main thread did serial FLOPs, then started 2 workers and joined them, read
# 3 threads (every thread slot that did FLOPs): on a 2-CPU machine "more threads than cores",
# and its point judged on 3 threads' roofs. Now the tool counts the most threads that worked at
# once (2) and, apart, the threads that did work (3). And a region whose 2 threads did 3:1 shares
# was judged against 2 threads' roofs with nothing said; now measure says its busiest thread did
# 1.50x an equal share. Counted by hand: every element is one multiply and one add (2 FLOPs),
# N = 300,000 elements; pthread and (where the compiler has it) OpenMP. Needs valgrind, the tool,
# jq and the marker library, else 77.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
command -v jq >/dev/null || { echo "SKIPPED: jq is needed"; exit 77; }
command -v valgrind >/dev/null && [[ -d $build/vgtool ]] || { echo "SKIPPED: no valgrind or Valgrind tool"; exit 77; }
cat >"$tmp/shares.c" <<'C'
#include <pthread.h>
#include <roofline/roofline.h>
#include <stdio.h>
enum { N = 300000 };
static double a[4][3 * N];
struct job { double* v; int n; };
static void* work(void* arg) {
    struct job* j = arg;
    for (int i = 0; i < j->n; ++i) j->v[i] = j->v[i] * 0.5 + 1.0;
    return NULL;
}
static void pool(struct job* jobs) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, work, &jobs[i]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
}
int main(void) {
    roofline_begin("serial_then_pool");  /* main N alone, then 2 workers of N: 3 did FLOPs, 2 at once */
    struct job serial = {a[0], N};
    work(&serial);
    struct job even[2] = {{a[1], N}, {a[2], N}};
    pool(even);
    roofline_end("serial_then_pool");
    roofline_begin("uneven");  /* 2 workers of 3N and N: the busiest did 6N of 8N FLOPs */
    struct job uneven[2] = {{a[3], 3 * N}, {a[1], N}};
    pool(uneven);
    roofline_end("uneven");
    printf("%g\n", a[0][1] + a[1][2] + a[2][3] + a[3][4]);
    return 0;
}
C
cat >"$tmp/nomarker.c" <<'C'
#include <pthread.h>
#include <stdio.h>
enum { N = 400000 };
static double a[3][N];
static void* work(void* arg) {
    double* v = arg;
    for (int i = 0; i < N; ++i) v[i] = v[i] * 0.5 + 1.0;
    return NULL;
}
int main(void) {
    work(a[0]);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, work, a[i + 1]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    printf("%g\n", a[0][1] + a[1][2] + a[2][3]);
    return 0;
}
C
cat >"$tmp/omp.c" <<'C'
#include <omp.h>
#include <roofline/roofline.h>
#include <stdio.h>
enum { N = 300000 };
static double a[4 * N];
static void work(double* v, int n) { for (int i = 0; i < n; ++i) v[i] = v[i] * 0.5 + 1.0; }
int main(void) {
    work(a, N);
    roofline_begin("omp_uneven");
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) work(a, 3 * N);
        else work(a + 3 * N, N);
    }
    roofline_end("omp_uneven");
    roofline_begin("omp_even");
#pragma omp parallel for num_threads(2) schedule(static)
    for (int i = 0; i < 4 * N; ++i) a[i] = a[i] * 0.5 + 1.0;
    roofline_end("omp_even");
    printf("%g\n", a[1] + a[4 * N - 1]);
    return 0;
}
C
flags=(-O1 -fno-tree-vectorize -ffp-contract=off -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib")
cc "$tmp/shares.c" "${flags[@]}" -pthread -o "$tmp/shares" && cc "$tmp/nomarker.c" -O1 -fno-tree-vectorize -ffp-contract=off \
  -pthread -o "$tmp/nomarker" || { echo "FAIL: cannot compile the test programs"; exit 1; }
omp=; cc "$tmp/omp.c" "${flags[@]}" -fopenmp -o "$tmp/omp" 2>/dev/null && omp=$tmp/omp
[[ -n $omp ]] || echo "note: no OpenMP compiler here: only the pthread programs are checked"
fail=0
get() { jq -r --arg n "$2" --arg k "$3" '[.points[] | select(.name == $n)] | if length == 0 then "none"
  else (.[0] | if $k == "threads" then .threads else (.details[$k] // "none") end) end' "$1"; }
expect() { # FILE POINT FIELD WANT
  local got; got=$(get "$1" "$2" "$3")
  [[ $got == "$4" ]] || { echo "FAIL: $(basename "$1") '$2' $3: $got (expected $4)"; fail=1; }
}
run() { # NAME PROGRAM
  "$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 -o "$tmp/$1.json" -- "$2" >"$tmp/$1.out" 2>&1 ||
    { echo "FAIL: $1: exit $?"; sed 's/^/  | /' "$tmp/$1.out"; fail=1; return 1; }
}
if run shares "$tmp/shares"; then
  expect "$tmp/shares.json" serial_then_pool threads 2
  expect "$tmp/shares.json" serial_then_pool threads_working 3
  expect "$tmp/shares.json" serial_then_pool busiest_thread_flops 600000
  expect "$tmp/shares.json" uneven threads 2
  expect "$tmp/shares.json" uneven threads_working 2
  expect "$tmp/shares.json" uneven busiest_thread_flops 1800000
  # the program: 5 threads did FLOPs, never more than 2 at once (it read 5 before: slots reused, 3)
  expect "$tmp/shares.json" '(program)' threads 2
  expect "$tmp/shares.json" '(program)' threads_working 5
  grep -q "uneven: its busiest thread did 1.50x an equal share of its FLOPs (1.8e+06 of 2.4e+06, over the 2 threads" \
    "$tmp/shares.out" || { echo "FAIL: the uneven shares are not said"; sed 's/^/  | /' "$tmp/shares.out"; fail=1; }
  ! grep -q "serial_then_pool: its busiest thread" "$tmp/shares.out" ||
    { echo "FAIL: equal shares were said to be unequal"; fail=1; }
fi
# Without marker regions the program's point has only the tool's count: 3 did work, at most 2 at
# once (1 where Valgrind ran one worker to its end before the other was created).
if VALGRIND_LIB=$build/vgtool valgrind -q --tool=roofline --roofline-out="$tmp/nomarker_tool.json" "$tmp/nomarker" \
  >/dev/null 2>"$tmp/nomarker.err"; then
  read -r at_once working busiest < <(jq -r '.regions[0] | "\(.threads) \(.threads_working) \(.busiest_thread_flops)"' \
    "$tmp/nomarker_tool.json")
  # main's 800,000 and the 2 adds of its printf
  [[ $working == 3 && $busiest == 800002 && ($at_once == 2 || $at_once == 1) ]] ||
    { echo "FAIL: tool: threads $at_once, threads_working $working, busiest $busiest (expected <= 2, 3, 800002)"; fail=1; }
else
  echo "FAIL: the tool did not run"; sed 's/^/  | /' "$tmp/nomarker.err"; fail=1
fi
if [[ -n $omp ]] && OMP_NUM_THREADS=2 run omp "$omp"; then
  expect "$tmp/omp.json" omp_uneven threads 2
  expect "$tmp/omp.json" omp_uneven threads_working 2
  expect "$tmp/omp.json" omp_uneven busiest_thread_flops 1800000
  expect "$tmp/omp.json" omp_even threads 2
  expect "$tmp/omp.json" omp_even busiest_thread_flops 1200000
  grep -q "omp_uneven: its busiest thread did 1.50x an equal share" "$tmp/omp.out" ||
    { echo "FAIL: the OpenMP team's uneven shares are not said"; sed 's/^/  | /' "$tmp/omp.out"; fail=1; }
  ! grep -q "omp_even: its busiest thread" "$tmp/omp.out" || { echo "FAIL: an even team was said uneven"; fail=1; }
fi
[[ $fail == 0 ]] && echo "ok: threads at once and the busiest thread's share (pthread${omp:+, OpenMP})"
exit $fail
