#!/usr/bin/env bash
# A program run under `taskset -c 0` (or a cgroup quota of 1 CPU) runs its threads one at a time,
# yet the advice's per-thread caps (the slowest FLOP chain, one chain's rate) added them up over
# every thread up to the machine's hardware threads. Now measure records the CPUs the run was
# allowed (details cpus_allowed: the affinity mask's CPUs, at most the quota rounded up) and says
# so. A 2-thread program under taskset -c 0: 1 CPU allowed; without it: the CPUs taskset-free.
# Needs taskset, jq and a C compiler with pthreads, else 77.
set -u
bin=$1
command -v taskset >/dev/null || { echo "SKIP: no taskset here"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: no jq here"; exit 77; }
cc=$(command -v cc || command -v gcc) || { echo "SKIP: no C compiler here"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
cat >"$tmp/two.c" <<'C'
#include <pthread.h>
static void* spin(void* arg) {
    volatile double x = 1;
    for (long i = 0; i < 20000000; ++i) x = x * 1.0000001;
    return arg;
}
int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], 0, spin, 0);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
    return 0;
}
C
"$cc" -O1 -pthread "$tmp/two.c" -o "$tmp/two" 2>"$tmp/cc.err" || { echo "SKIP: cannot build a pthread program"; cat "$tmp/cc.err"; exit 77; }
taskset -c 0 true 2>/dev/null || { echo "SKIP: taskset -c 0 refused here"; exit 77; }
fail=0
allowed() { jq -r '.points[] | select(.name == "(program)") | .details.cpus_allowed // "none"' "$1"; }
out=$(taskset -c 0 "$bin" measure --engine time --no-store --repeat 1 -o "$tmp/one.json" -- "$tmp/two" 2>&1) ||
  { echo "FAIL: measure under taskset -c 0: exit $?"; sed 's/^/  | /' <<<"$out"; exit 1; }
[[ $(allowed "$tmp/one.json") == 1 ]] ||
  { echo "FAIL: under taskset -c 0 the point's cpus_allowed is $(allowed "$tmp/one.json"), not 1"; fail=1; }
if [[ $(nproc) -gt 1 ]]; then
  grep -q "the program may run on 1 CPU at once (its affinity mask holds 1 of the" <<<"$out" ||
    { echo "FAIL: measure did not say the run was allowed 1 CPU"; sed 's/^/  | /' <<<"$out"; fail=1; }
fi
# Without taskset: the mask this shell has (nproc counts it), at most a cgroup quota.
out=$("$bin" measure --engine time --no-store --repeat 1 -o "$tmp/all.json" -- "$tmp/two" 2>&1) ||
  { echo "FAIL: measure: exit $?"; sed 's/^/  | /' <<<"$out"; exit 1; }
all=$(allowed "$tmp/all.json")
[[ $all =~ ^[0-9]+$ ]] && ((all >= 1 && all <= $(nproc))) ||
  { echo "FAIL: without taskset the point's cpus_allowed is $all (nproc $(nproc))"; fail=1; }
((fail)) && exit 1
echo "ok: cpus_allowed 1 under taskset -c 0, $all without"
