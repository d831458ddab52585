#!/usr/bin/env bash
# A cgroup memory limit (a container's --memory, a batch job's) is not in /proc/meminfo: bench
# sized its DRAM working set by MemAvailable, touched every page, and the OOM killer ended it
# (SIGKILL, nothing saved). Now the memory a run may take is the lesser of MemAvailable and the
# cgroup's limit less its usage, and a working set past it is refused with what to do.
# Makes a cgroup v1 or v2 with a 128 MiB limit; skips where it cannot.
set -u
bin=$1
tmp=$(mktemp -d)
name=roofline-test-mem-$$
limit=$((128 << 20))
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
  dir=/sys/fs/cgroup/$name
  mkdir "$dir" 2>/dev/null && echo $limit >"$dir/memory.max" 2>/dev/null || dir=""
elif [[ -d /sys/fs/cgroup/memory ]]; then
  dir=/sys/fs/cgroup/memory/$name
  mkdir "$dir" 2>/dev/null && echo $limit >"$dir/memory.limit_in_bytes" 2>/dev/null || dir=""
else
  dir=""
fi
cleanup() { [[ -n $dir ]] && rmdir "$dir" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
[[ -n $dir && -d $dir ]] || { echo "SKIP: cannot make a cgroup with a memory limit here (not root, or no memory controller)"; exit 77; }
export HOME=$tmp
bash -c "echo \$\$ >'$dir/cgroup.procs' 2>/dev/null || echo \$\$ >'$dir/tasks'; exec '$bin' bench --quick --only memory --threads 1 --dram-size 256MiB --no-store -o '$tmp/m.json' --svg ''" >"$tmp/out" 2>&1
rc=$?
fail=0
[[ $rc == 1 ]] || { echo "FAIL: exit $rc, expected 1 (137 is the OOM killer's SIGKILL)"; fail=1; }
grep -qE "the working sets need [0-9.]+ [KMG]iB \(1 thread\), more than 90% of the" "$tmp/out" &&
  grep -q "give a smaller --dram-size" "$tmp/out" || { echo "FAIL: no message naming the memory limit"; fail=1; }
((fail)) && { cat "$tmp/out"; exit 1; }
echo "ok: $(grep -o 'the working sets need [^:]*' "$tmp/out")"
