#!/usr/bin/env bash
# A 2-thread program run under `taskset -c 0` (details cpus_allowed 1) was judged on the roofs of 2
# threads, which its threads, taking turns on one CPU, could never reach. Now a point is judged by
# min(threads, cpus_allowed): measure's table, report (text and JSON judged_threads) and plot put it
# under the 1-thread roofline and say why, once. Without taskset (2 CPUs allowed) nothing changes.
# The instrument engine counts the work (the time engine counts none, so it judges nothing).
# Needs valgrind and the Valgrind tool, taskset, jq and 2 CPUs online, else 77.
set -u
machine=$(cd "$(dirname "$0")/../data" && pwd)/report-machine.json  # DP roofs of 1 and 2 threads
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
export HOME=$tmp
command -v taskset >/dev/null || { echo "SKIPPED: no taskset here"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: no jq here"; exit 77; }
(($(nproc) > 1)) || { echo "SKIPPED: 1 CPU online: taskset -c 0 narrows nothing"; exit 77; }
taskset -c 0 true 2>/dev/null || { echo "SKIPPED: taskset -c 0 refused here"; exit 77; }
cat >two.c <<'C'
#include <pthread.h>
static pthread_barrier_t both;  /* both workers alive at once, so the tool counts 2 */
static double out[2];
static void* spin(void* arg) {
    pthread_barrier_wait(&both);
    double x = 1, y = 0;
    for (long i = 0; i < 2000000; ++i) { x = x * 1.0000001; y += x; }
    out[(long)arg] = y;
    return arg;
}
int main(void) {
    pthread_t t[2];
    pthread_barrier_init(&both, 0, 2);
    for (long i = 0; i < 2; ++i) pthread_create(&t[i], 0, spin, (void*)i);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
    return out[0] > out[1];
}
C
cc -O1 -pthread two.c -o two 2>cc.err || { echo "SKIPPED: cannot build a pthread program"; cat cc.err; exit 77; }
field() { jq -r ".points[] | select(.name == \"(program)\") | $2 // \"none\"" "$1"; }

# The tool runs one thread at a time and now and then sees them one after the other (threads then
# from CPU time: 1 under taskset): up to 3 tries for the 2 threads this checks (12 of 12 here had them).
for try in 1 2 3; do
  out=$(taskset -c 0 "$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 --machine "$machine" \
    -o one.json -- ./two 2>&1) || fail "measure under taskset -c 0: exit $?"
  [[ $(field one.json .threads) == 2 ]] && break
done
[[ $(field one.json .threads) == 2 && $(field one.json .details.cpus_allowed) == 1 ]] ||
  fail "under taskset -c 0 the point has threads $(field one.json .threads), cpus_allowed $(field one.json .details.cpus_allowed); expected 2 and 1"
grep -q "^(program): it ran 2 threads on 1 CPU allowed .*judged as 1 thread at once, on the roofs of 1 thread" <<<"$out" ||
  fail "measure did not say the point is judged as 1 thread"
out=$("$bin" report --points one.json --machine "$machine" --format json 2>&1) || fail "report: exit $?"
jq -e '.roofline.threads == 1 and .points[0].judged_threads.threads == 1 and .points[0].judged_threads.point_threads == 2
       and (.points[0].judged_threads.why | test("on the roofs of 1 thread"))' <<<"$out" >/dev/null ||
  fail "report JSON: not judged on the 1-thread roofline with judged_threads"
out=$("$bin" report --points one.json --machine "$machine" 2>&1) || fail "report: exit $?"
grep -q "(dp, 1 thread, CARM view)" <<<"$out" && [[ $(grep -c "^  threads          it ran 2 threads on 1 CPU" <<<"$out") == 1 ]] ||
  fail "report text: not the 1-thread roofline, or not said once"
out=$("$bin" plot --points one.json --machine "$machine" -o chart.svg 2>&1) || fail "plot: exit $?"
[[ $(grep -c "point '(program)': it ran 2 threads on 1 CPU allowed" <<<"$out") == 1 ]] || fail "plot did not say it once"

# Without taskset: as many CPUs allowed as threads, judged on its own 2 threads, nothing said.
out=$("$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 --machine "$machine" \
  -o all.json -- ./two 2>&1) || fail "measure: exit $?"
allowed=$(field all.json .details.cpus_allowed)
if [[ $allowed =~ ^[0-9]+$ ]] && ((allowed >= 2)) && [[ $(field all.json .threads) == 2 ]]; then
  ! grep -q "CPU allowed" <<<"$out" || fail "measure said a count changed with $allowed CPUs allowed"
  out=$("$bin" report --points all.json --machine "$machine" --format json 2>&1) || fail "report: exit $?"
  jq -e '.roofline.threads == 2 and .points[0].judged_threads == null' <<<"$out" >/dev/null ||
    fail "report JSON: with $allowed CPUs allowed the point was not judged on its 2 threads"
else
  echo "note: without taskset the point has threads $(field all.json .threads), cpus_allowed $allowed: that half not checked"
fi
echo "ok: 2 threads on 1 allowed CPU judged on the 1-thread roofline, said once by measure, report and plot"
