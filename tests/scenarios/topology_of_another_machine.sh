#!/usr/bin/env bash
# A topology that is not this machine's (HWLOC_XMLFILE naming another machine's file) must
# not be measured as if it were: bench bound "16 threads to 16 cores" of a 2-CPU machine and
# timed them as 16 cores. Commands that measure refuse it, topology says so, and a topology
# that cannot be true (a core without a processing unit) is refused.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data/topology" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; exit 1; }

other=$data/sixteen-cores.xml
HWLOC_XMLFILE=$other "$bin" bench --only compute --threads all --time-budget 1 --no-store -o "$tmp/m.json" \
  --svg '' >"$tmp/out" 2>"$tmp/err"
code=$?
[[ $code -eq 1 ]] || fail "bench on another machine's topology: exit $code, expected 1"
grep -q "not this machine's" "$tmp/err" || fail "bench did not say why"
[[ -e $tmp/m.json ]] && fail "bench wrote a model"

HWLOC_XMLFILE=$other HWLOC_THISSYSTEM=1 "$bin" kernels stream_triad --sizes 16K --no-store -q \
  >"$tmp/out" 2>"$tmp/err"
code=$?
[[ $code -eq 1 ]] || fail "kernels with a file claimed to be this system: exit $code, expected 1"
grep -q "processing units 0-15 where this machine has CPUs" "$tmp/err" || \
  [[ $(nproc --all) -ge 16 ]] || fail "kernels did not check the claim against the CPUs online"

HWLOC_XMLFILE=$other "$bin" topology >"$tmp/out" 2>"$tmp/err" || fail "topology of another machine failed"
grep -q "this topology is not this machine's" "$tmp/out" || fail "topology did not warn: $(cat "$tmp/out")"

HWLOC_XMLFILE=$data/core-without-pu.xml "$bin" topology >"$tmp/out" 2>"$tmp/err"
code=$?
[[ $code -eq 1 ]] || fail "a core without a processing unit: exit $code, expected 1"
grep -q "has no processing unit" "$tmp/err" || fail "no reason for the refusal"

"$bin" topology >"$tmp/out" 2>"$tmp/err" || fail "this machine's topology failed"
grep -q "not this machine's" "$tmp/out" && fail "this machine's topology called foreign"
echo "ok: another machine's topology is refused for measuring and flagged by topology"
