#!/usr/bin/env bash
# A cgroup CPU quota under the cores (a container's --cpus, systemd's CPUQuota): bench's short
# bursts see every core at full speed, so its all-core roofs read the hardware's (412 GFLOP/s on 2
# Zen 5 cores under a 1-CPU quota) while sustained work gets the quota. Now the environment names
# the quota and what it means. Makes a cgroup v1 or v2 with a 1-CPU quota; skips where it cannot.
set -u
bin=$1
tmp=$(mktemp -d)
[[ $(nproc) -ge 2 ]] || { rm -rf "$tmp"; echo "SKIP: one CPU: a 1-CPU quota is no limit"; exit 77; }
name=roofline-test-$$
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
  dir=/sys/fs/cgroup/$name
  mkdir "$dir" 2>/dev/null && echo "100000 100000" >"$dir/cpu.max" 2>/dev/null || dir=""
elif [[ -d /sys/fs/cgroup/cpu ]]; then
  dir=/sys/fs/cgroup/cpu/$name
  mkdir "$dir" 2>/dev/null && echo 100000 >"$dir/cpu.cfs_period_us" 2>/dev/null &&
    echo 100000 >"$dir/cpu.cfs_quota_us" 2>/dev/null || dir=""
else
  dir=""
fi
cleanup() { [[ -n $dir ]] && rmdir "$dir" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
[[ -n $dir && -d $dir ]] || { echo "SKIP: cannot make a cgroup with a CPU quota here (not root, or no cpu controller)"; exit 77; }
export HOME=$tmp
bash -c "echo \$\$ >'$dir/cgroup.procs' 2>/dev/null || echo \$\$ >'$dir/tasks'; exec '$bin' topology" >"$tmp/in" 2>&1 ||
  { echo "FAIL: topology in the cgroup exit $?"; cat "$tmp/in"; exit 1; }
"$bin" topology >"$tmp/out" 2>&1
# A program that uses the whole quota (one busy thread under a 1-CPU quota): measure says its time
# holds the throttling's waits.
bash -c "echo \$\$ >'$dir/cgroup.procs' 2>/dev/null || echo \$\$ >'$dir/tasks'; exec '$bin' measure --engine time --no-store --repeat 1 -- sh -c 'i=0; while [ \$i -lt 400000 ]; do i=\$((i+1)); done'" >"$tmp/measure" 2>&1 ||
  { echo "FAIL: measure in the cgroup exit $?"; cat "$tmp/measure"; exit 1; }
fail=0
# On a busy machine the program waits for other processes' CPUs, not for its quota (it gets under
# 0.9 CPUs): then measure says those waits instead, which is as true, and the quota is not judged.
if grep -q "warning: other processes kept" "$tmp/measure"; then
  echo "note: other processes kept the CPUs busy during the run: the quota's throttling is not judged"
else
  grep -q "its cgroup's quota of 1.00" "$tmp/measure" || { echo "FAIL: measure did not say the program used up its quota"; cat "$tmp/measure"; fail=1; }
fi
# The run's points carry the 1 CPU the quota allows at once (the advice's per-thread caps count it).
grep -q "the program may run on 1 CPU at once (its cgroup's CPU quota is 1.00 CPUs" "$tmp/measure" ||
  { echo "FAIL: measure did not say the quota allows 1 CPU at once"; cat "$tmp/measure"; fail=1; }
grep -q "this process's cgroup allows 1.00 CPUs of CPU time over its" "$tmp/in" ||
  { echo "FAIL: no word on the 1-CPU quota"; cat "$tmp/in"; fail=1; }
grep -q "roofline-test-$$" "$tmp/out" && { echo "FAIL: the quota said outside the cgroup"; fail=1; }
((fail)) && exit 1
echo "ok: $(grep -o "this process's cgroup allows [^(]*" "$tmp/in")"
