#!/usr/bin/env bash
# What else ran on the program's CPUs while it was timed (and on a kernel sweep's): another process on the same CPU took
# part of the time measure gave the program (0.77 s for a 0.46 s loop), and nothing was said. Now
# the timed run's /proc/stat busy time less roofline's and the program's own CPU time is the
# others' share, hypervisor steal likewise; past a quarter of a CPU (5% stolen) measure warns and
# the points' details keep both figures. A quiet run gets neither warning.
set -u
bin=$1
tmp=$(mktemp -d)
competitor=
trap '[[ -n $competitor ]] && kill "$competitor" 2>/dev/null; rm -rf "$tmp"' EXIT
for tool in jq cc taskset; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
[[ -r /proc/stat ]] || { echo "SKIP: /proc/stat is not readable"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >spin.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    volatile double x = 0;
    long n = argc > 1 ? atol(argv[1]) : 100000000;
    for (long i = 0; i < n; ++i) x = x + 1.0;
    printf("%g\n", x);
    return 0;
}
C
cc -O1 -o spin spin.c || { echo "FAIL: cannot build spin.c"; exit 1; }
fail=0
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')

# A competitor on the same CPU for the whole measurement.
taskset -c "$cpu" ./spin 100000000000 >/dev/null &
competitor=$!
sleep 0.2
# Reference kernels likewise: the sweep says what shared its CPU.
taskset -c "$cpu" "$bin" kernels --no-store stream_triad --sizes 1M,64M >kout 2>kerr ||
  { echo "FAIL: kernels beside a competitor exited $?"; cat kerr; fail=1; }
grep -q "warning: other processes kept .* of this process's 1 CPU busy on average during the sweep" kerr ||
  { echo "FAIL: kernels said nothing about the process sharing the CPU"; cat kerr; fail=1; }
taskset -c "$cpu" "$bin" measure --engine time --no-store --repeat 2 -o busy.json -- ./spin >out 2>err
rc=$?
kill "$competitor" 2>/dev/null; wait "$competitor" 2>/dev/null; competitor=
[[ $rc == 0 ]] || { echo "FAIL: measure beside a competitor exited $rc"; cat err; fail=1; }
grep -q "warning: other processes kept .* of this process's 1 CPU busy on average during the fastest timed native run" err ||
  { echo "FAIL: no warning about the process sharing the CPU"; cat err; fail=1; }
others=$(jq '.points[] | select(.name=="(program)") | .details.cpu_others_busy' busy.json)
jq -e --argjson o "${others:-null}" -n '$o >= 0.25 and $o <= 1.05' >/dev/null ||
  { echo "FAIL: details.cpu_others_busy is '$others', expected about half a CPU or more"; fail=1; }
jq -e '.points[] | select(.name=="(program)") | .details.cpu_steal_share | type == "number" and . >= 0 and . <= 1' busy.json >/dev/null ||
  { echo "FAIL: details.cpu_steal_share missing or out of 0..1"; fail=1; }

# Alone on its CPU (no competitor started): no such warning. Another test may run on the CPU,
# so a warning here is retried once before it counts.
quiet_ok=0
for attempt in 1 2; do
  taskset -c "$cpu" "$bin" measure --engine time --no-store --repeat 2 -- ./spin >out 2>err || { echo "FAIL: quiet measure failed"; cat err; fail=1; }
  if ! grep -q "warning: other processes kept" err; then quiet_ok=1; break; fi
done
[[ $quiet_ok == 1 ]] || { echo "FAIL: a quiet run was said to share its CPU (twice)"; cat err; fail=1; }
exit $fail
