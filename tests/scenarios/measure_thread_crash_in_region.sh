#!/usr/bin/env bash
# A thread that faults (SIGSEGV) half-way through a region that runs on 2 threads. The instrument
# engine takes the region's FLOPs from the run under Valgrind and its time from the native run;
# both stop at the fault, but Valgrind runs one thread at a time, so the other thread had done a
# different share of its work in each, and the rate mixes two amounts of work (an audit's read 4.42
# GFLOP/s where whole runs read 2.27) without a word. Now measure says so, still exits 139 (the
# program's signal) and keeps the points, the finished serial region's too.
# Needs a C compiler, valgrind, the Valgrind tool and the marker library, else 77.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
marker_library_or_skip
cc -O2 -pthread "$src/tests/marker/thread_crash_in_region.c" -I "$src/include" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -o crash || fail "cannot compile the test program"
out=$("$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 -o p.json -- ./crash 2>&1); code=$?
[[ $code == 139 ]] || fail "exit $code, expected 139 (the program's SIGSEGV)"
grep -q "killed by signal 11 (SIGSEGV)" <<<"$out" || fail "the crash is not said"
grep -q "while regions ran on several threads (threads: 'parallel' 2)" <<<"$out" ||
  fail "not said that the counts and the time of the region open on 2 threads cover different work"
grep -q "regions ran on several threads (threads: .*'setup'" <<<"$out" && fail "the finished serial region is named"
flops=$(jq -r '.points[] | select(.name == "parallel") | .flops' p.json 2>/dev/null)
awk -v f="${flops:-0}" 'BEGIN { exit !(f > 0) }' || fail "region parallel lost its counts ($flops)"
flops=$(jq -r '.points[] | select(.name == "setup") | .flops' p.json 2>/dev/null)
[[ $flops == 2048 ]] || fail "region setup counted $flops FLOPs, expected 2048"
echo "ok"
