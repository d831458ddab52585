#!/usr/bin/env bash
# Time in the kernel is work no roof describes: a program that touches fresh memory spends most of
# its time in page faults (a 0.53 s run had 0.10 s of user time) and was judged as slow code with no
# word about it. Now measure records each point's first run's user and system CPU time, warns when a
# quarter or more of it was the kernel's, and a program whose threads nothing counted (no marker
# region, no tool) gets the CPUs it kept busy as its threads, said in a note.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >faults.c <<'C'
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
    long sum = 0;
    for (int r = 0; r < 6; ++r) {                 /* 6 x 128 MiB of fresh pages */
        char* a = malloc(128L << 20);
        if (!a) return 2;
        memset(a, r + 1, 128L << 20);
        sum += a[r * 4096];
        free(a);
    }
    printf("%ld\n", sum);
    return 0;
}
C
cat >spin.c <<'C'
#include <stdio.h>
int main(void) {
    volatile double x = 0;
    for (long i = 0; i < 100000000; ++i) x = x + 1.0;
    printf("%g\n", x);
    return 0;
}
C
cc -O2 -o faults faults.c && cc -O2 -o spin spin.c || { echo "SKIP: cannot build the programs"; exit 77; }
fail=0
"$bin" measure --engine time --no-store --repeat 1 -o f.json -- ./faults >f.out 2>&1 || { echo "FAIL: measure exit $?"; cat f.out; exit 1; }
grep -q "of its CPU time in the kernel" f.out || { echo "FAIL: no kernel-time warning for a page-fault bound program"; fail=1; }
jq -e '.points[] | select(.name == "(program)") | .details.cpu_system_seconds > 0 and .details.cpu_user_seconds >= 0
       and .details.cpu_wall_seconds > 0' f.json >/dev/null || { echo "FAIL: no CPU times in the point's details"; fail=1; }
"$bin" measure --engine time --no-store --repeat 1 -o s.json -- ./spin >s.out 2>&1 || { echo "FAIL: measure exit $?"; cat s.out; exit 1; }
grep -q "in the kernel" s.out && { echo "FAIL: a kernel-time warning for a program that makes no system calls"; fail=1; }
jq -e '.points[] | select(.name == "(program)") | .threads == 1' s.json >/dev/null ||
  { echo "FAIL: a one-thread program given more threads"; fail=1; }
((fail)) && { cat f.out s.out; exit 1; }
echo "ok: $(grep -o '[0-9]*% of its CPU time in the kernel' f.out); the spinning program: none, 1 thread"
