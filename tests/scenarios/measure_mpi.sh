#!/usr/bin/env bash
# `mpirun -np N roofline measure -- ./mpi_dot`: each rank measures itself (a
# native run, a run under the Valgrind tool, a call-timing run, each joining
# the job), rank 0 writes every rank's points and their sum over ranks. Exact
# FLOPs at 1 and 2 ranks with Open MPI; the rank files are gone afterwards;
# the provenance names the job. Where MPICH's Hydra is installed too, its
# one-run-per-rank path: refused with the two launches to use, then those. --loops in each
# rank: dot's loop per rank and summed.
# SKIPPED (exit 77) without mpirun, the mpi_dot example, valgrind or jq.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$bin")
app=$build/examples/programs/mpi_dot
[[ -x $app ]] || { echo "SKIPPED: $app not built (MPI was not found when configuring)"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIPPED: mpirun is not installed"; exit 77; }
command -v valgrind >/dev/null || { echo "SKIPPED: valgrind is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
[[ -e $build/vgtool/roofline-amd64-linux ]] || { echo "SKIPPED: the Valgrind tool is not built"; exit 77; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export ROOFLINE_DB=$tmp/results.db
# Open MPI refuses root without these; tests run as root in CI.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
out=""
fail() { echo "FAIL: $*"; echo "$out"; [[ -n ${json:-} && -e $json ]] && cat "$json"; exit 1; }
check() { jq -e "$2" "$json" >/dev/null || fail "$1: $2"; }
point() { echo ".points[] | select(.name == \"$1\")"; }

n=2000000 reps=5  # calls of ~2 ms: long next to a ptrace stop (tens of us on a VM, hundreds when both vCPUs are busy)
per_rank=$((2 * n * reps + reps))  # the dot products, and adding each to the rank's sum

for ranks in 1 2; do
  json=$tmp/job$ranks.json
  out=$(timeout 300 mpirun -np $ranks "$bin" measure --region-function dot -o "$json" -- "$app" $n $reps 2>&1)
  code=$?
  [[ $code == 0 ]] || fail "$ranks ranks: exit $code"
  check "$ranks ranks" ".provenance.mpi.ranks == $ranks and .provenance.mpi.launcher == \"Open MPI\" and (.provenance.mpi.job | length > 0) and (.provenance.mpi.hosts | length == $ranks)"
  for ((r = 0; r < ranks; r++)); do
    check "rank $r of $ranks" "$(point "dot [rank $r]") | .flops == $per_rank and .seconds > 0 and .details.mpi_rank == $r and .threads == 1"
    # Timed calls, or (seen in about 1 run of 5 under ctest -j 2, rank 0 only, not yet explained: issue 10
    # note) the sampled fallback; either way exact FLOPs, every call and a time.
    check "rank $r of $ranks" "$(point "<function dot> [rank $r]") | .flops == 2 * $n * $reps and .details.calls == $reps and .seconds > 0 and (.source | test(\"^instrument\\\\+(calltiming|callstacks|sampling)$\"))"
    check "rank $r of $ranks" "$(point "(program) [rank $r]") | .flops >= $per_rank and .seconds > 0"
    how=$(jq -r ".points[] | select(.name == \"<function dot> [rank $r]\") | .source" "$json")
    if [[ $how != instrument+calltiming ]]; then  # evidence for the flake, not a failure
      echo "note: <function dot> [rank $r of $ranks] timed by $how, not call timing; measure said:"
      grep -iE 'dot|timed|ptrace|stop' <<<"$out" | head -8
    fi
  done
  [[ -z $(ls "$tmp"/job$ranks.rank*.json 2>/dev/null) ]] || fail "$ranks ranks: rank files left behind"
done
# The sum over ranks: FLOPs and threads summed, the slowest rank's seconds.
json=$tmp/job2.json
check sum "$(point dot) | .flops == 2 * $per_rank and .threads == 2 and .details.mpi_ranks == 2 and .details.mpi_hosts == 1"
check sum "($(point dot) | .seconds) == ([.points[] | select(.name | startswith(\"dot [rank\")) | .seconds] | max)"
check sum "$(point '<function dot>') | .flops == 4 * $n * $reps"
json=$tmp/job1.json
check "1 rank" "[.points[] | select(.details.mpi_ranks != null)] | length == 0"
grep -q "MPI job of 2 rank" <<<"$out" || fail "no job table from rank 0"
[[ $(grep -c "native run (timing)" <<<"$out") == 1 ]] || fail "only rank 0 should report its runs"

# Stored once, by rank 0, as one point set.
[[ $("$bin" list --format json | jq "[.point_sets[] | select(.source | test(\"mpi_dot\"))] | length") == 2 ]] || fail "expected one stored point set per launch: $("$bin" list 2>&1)"

# Ranks on two nodes (simulated by ROOFLINE_NODE_NAME): the job's point spans both, and each
# node's ranks are summed into a point of their own, for that node's roofline.
json=$tmp/nodes.json
small=20000
out=$(timeout 300 mpirun -np 2 -x ROOFLINE_NODE_NAME=node-a "$bin" measure --no-store -o "$json" -- "$app" $small 2 : \
      -np 1 -x ROOFLINE_NODE_NAME=node-b "$bin" measure --no-store -o "$json" -- "$app" $small 2 2>&1) || fail "two nodes"
per_small=$((2 * small * 2 + 2))
check nodes "$(point dot) | .flops == 3 * $per_small and .details.mpi_hosts == 2"
check nodes "$(point 'dot [node node-a]') | .flops == 2 * $per_small and .details.mpi_ranks == 2 and .details.mpi_hosts == 1 and .series == \"dot per node\""
check nodes "$(point 'dot [node node-b]') | .flops == $per_small and .details.mpi_ranks == 1"
check nodes ".provenance.mpi.hosts | sort == [\"node-a\", \"node-a\", \"node-b\"]"

# --loops in each rank (issue 36): dot's loop is a point per rank with its exact FLOPs, and
# the job sums them over ranks.
json=$tmp/loops.json
out=$(timeout 300 mpirun -np 2 "$bin" measure --loops --no-store --min-share 5 -o "$json" -- "$app" $n $reps 2>&1) ||
  fail "--loops in 2 ranks"
loop=$(jq -r '[.points[] | select(.name | test("^dot: .* \\[rank 0\\]$")) | .name][0] // empty' "$json")
[[ -n $loop ]] || fail "--loops: no point of dot's loop in rank 0: $(jq -c '[.points[].name]' "$json")"
loop=${loop% \[rank 0\]}
for r in 0 1; do check "--loops, rank $r" "$(point "$loop [rank $r]") | .flops == 2 * $n * $reps"; done
check "--loops, the sum" "$(point "$loop") | .flops == 4 * $n * $reps and .details.mpi_ranks == 2"

# Without -o the ranks' files go to hidden files in the working directory, gone once rank 0 has stored the job.
out=$(timeout 300 mpirun -np 2 "$bin" measure -q -- "$app" 1000 2 2>&1) || fail "launch without -o"
[[ -z $(ls -A "$tmp" | grep '^\.roofline-') ]] || fail "rank files left in the working directory: $(ls -A "$tmp")"

# --times from an earlier time-engine launch: each rank takes its own rank's times, one run under the tool.
out=$(timeout 300 mpirun -np 2 "$bin" measure --engine time --no-store -o "$tmp/times.json" -- "$app" $n $reps 2>&1) ||
  fail "time launch"
json=$tmp/counted.json
out=$(timeout 300 mpirun -np 2 "$bin" measure --times "$tmp/times.json" --no-store -o "$json" -- "$app" $n $reps 2>&1) ||
  fail "--times launch"
check "--times" "$(point 'dot [rank 1]') | .flops == $per_rank and .seconds == ($(jq "$(point 'dot [rank 1]') | .seconds" "$tmp/times.json"))"
check "--times" ".provenance.runs == [\"instrument\"] and .provenance.options.times_from == \"$tmp/times.json\""

# MPICH's Hydra: a rank's PMI connection closes when the program finalizes, so one run per rank and launch.
if command -v mpiexec.hydra >/dev/null && command -v mpicc.mpich >/dev/null; then
  src=$(cd "$here/../.." && pwd)
  mpicc.mpich -O2 -I"$src/include" "$src/examples/programs/mpi_dot.c" -L"$build/lib" -lroofline_marker \
    -Wl,-rpath,"$build/lib" -o "$tmp/mpi_dot_mpich" || fail "cannot build mpi_dot with mpicc.mpich"
  out=$(timeout 120 mpiexec.hydra -n 2 "$bin" measure --no-store -- "$tmp/mpi_dot_mpich" $n $reps 2>&1)
  code=$?
  [[ $code == 2 ]] || fail "hydra: instrument engine in one launch: exit $code, expected 2"
  grep -q -- "--times times.json" <<<"$out" || fail "hydra: no two-launch guidance"
  out=$(timeout 120 mpiexec.hydra -n 2 "$bin" measure --engine time --no-store -o "$tmp/htimes.json" -- "$tmp/mpi_dot_mpich" $n $reps 2>&1) ||
    fail "hydra: time launch"
  json=$tmp/hjob.json
  out=$(timeout 300 mpiexec.hydra -n 2 "$bin" measure --times "$tmp/htimes.json" --no-store -o "$json" -- "$tmp/mpi_dot_mpich" $n $reps 2>&1) ||
    fail "hydra: --times launch"
  check hydra "$(point dot) | .flops == 2 * $per_rank and .seconds > 0 and .details.mpi_ranks == 2"
  check hydra ".provenance.mpi.launcher == \"MPICH/Hydra\""
fi

# A store that fills up while the job runs: the job's file is still written, the failure said,
# the job's points kept in rank 0's working directory, the rank files left, exit 1.
mnt=$tmp/full
mkdir -p "$mnt" "$tmp/cwd"
if [[ $(id -u) == 0 ]] && mount -t tmpfs -o size=512k tmpfs "$mnt" 2>/dev/null; then
  trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
  "$bin" list --db "$mnt/r.db" >/dev/null 2>&1  # the store exists before the job starts
  json=$tmp/fulljob.json
  # The disk fills once both ranks' programs run: by then every rank has checked its destinations
  # (a fill started by one rank's program before another rank's check would fail that check instead).
  # At most 30 s: a rank that never starts its program must fail the checks below, not hang the job.
  out=$(cd "$tmp/cwd" && timeout 300 mpirun -np 2 "$bin" measure --engine time --db "$mnt/r.db" -o "$json" -- \
        sh -c "touch '$tmp'/started.\$\$; i=0
               while [ \$(ls '$tmp'/started.* | wc -l) -lt 2 ] && [ \$i -lt 600 ]; do sleep 0.05; i=\$((i + 1)); done
               dd if=/dev/zero of='$mnt/fill.\$\$' bs=4k 2>/dev/null; exec '$app' 1000 2" 2>&1)
  code=$?
  [[ $code == 1 ]] || fail "full store: exit $code, expected 1"
  grep -q "the job's points could not be stored" <<<"$out" || fail "full store: the failure is not said"
  check "full store" "$(point dot) | .details.mpi_ranks == 2"
  kept=$(ls "$tmp/cwd"/roofline-points-*.json 2>/dev/null | head -1)
  [[ -n $kept ]] || fail "full store: the job's points were not kept in the working directory"
  grep -q "the job's points were kept in .*/$(basename "$kept") instead" <<<"$out" || fail "full store: where is not said"
  jq -e "$(point dot) | .details.mpi_ranks == 2" "$kept" >/dev/null || fail "full store: the kept file lacks the job's sum"
  [[ -n $(ls "$tmp"/fulljob.rank*.json 2>/dev/null) ]] || fail "full store: the rank files were removed though the job was not stored"
  umount "$mnt"; trap 'rm -rf "$tmp"' EXIT
  echo "ok: a store full by the job's end: the job's file written, its points kept in $(basename "$kept"), exit 1"
else
  echo "skip (full store): cannot mount a small tmpfs here (needs root)"
fi

# A launcher as the measured command is refused with the order that works.
out=$("$bin" measure --no-store -- mpirun -np 2 "$app" 2>&1)
[[ $? == 2 ]] || fail "roofline measure -- mpirun: expected exit 2"
echo "PASS: MPI ranks measured at 1 and 2 ranks, sums, --times, launcher refusal"
