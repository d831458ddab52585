#!/usr/bin/env bash
# A process kept to some CPUs (taskset, numactl --physcpubind, a batch job's binding) measures
# those: bench's threads used to bind themselves to every core and escape `taskset -c 0`
# (sched_setaffinity may widen a mask no cpuset cgroup forbids), timing "2 threads" on a run
# asked to use one CPU. Now the topology is kept to the process's affinity mask, and said.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v taskset >/dev/null || { echo "SKIP: taskset is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
allowed=$(taskset -pc $$ | sed 's/.*: //')
first=${allowed%%[,-]*}
[[ $(nproc) -ge 2 ]] || { echo "SKIP: one CPU: nothing to keep the process from"; exit 77; }
export HOME=$tmp
fail=0
taskset -c "$first" "$bin" topology >"$tmp/topo" 2>&1 || { echo "FAIL: topology exit $?"; cat "$tmp/topo"; exit 1; }
grep -qE '^Cores +1$' "$tmp/topo" || { echo "FAIL: topology under taskset -c $first does not say 1 core"; fail=1; }
grep -q "kept to the 1 of " "$tmp/topo" || { echo "FAIL: topology does not say it was kept to the affinity mask"; fail=1; }
taskset -c "$first" "$bin" bench --quick --only compute --no-store -o "$tmp/m.json" --svg '' >"$tmp/bench" 2>&1 ||
  { echo "FAIL: bench exit $?"; cat "$tmp/bench"; exit 1; }
jq -e '(.compute | length) > 0 and all(.compute[]; .threads == 1) and .cpu.cores == 1' "$tmp/m.json" >/dev/null ||
  { echo "FAIL: bench under taskset -c $first measured more than one core"; jq -c '[.compute[] | {name, threads}], .cpu' "$tmp/m.json"; fail=1; }
jq -e 'any(.environment.warnings[]; startswith("kept to the 1 of "))' "$tmp/m.json" >/dev/null ||
  { echo "FAIL: the model does not say it was kept to the affinity mask"; fail=1; }
# Without a mask narrower than the machine, nothing is said.
"$bin" topology >"$tmp/topo2" 2>&1
grep -q "kept to the" "$tmp/topo2" && [[ $(taskset -pc $$ | sed 's/.*: //') == "0-$(($(nproc --all) - 1))" ]] &&
  { echo "FAIL: the note with every CPU allowed"; fail=1; }
((fail)) && { cat "$tmp/topo" "$tmp/bench"; exit 1; }
echo "ok: taskset -c $first: 1 core, compute roofs at 1 thread only, said in a note"
