#!/usr/bin/env bash
# model --threads N: a spec's 'iterations' and 'elements' are the whole loop's at any N (work,
# bytes and time the team's, on the roofs of N threads), split evenly among the threads for
# the cache checks; 'per_thread: true' makes an operand's 'elements' each thread's. Checked by
# hand on a two-core sheet (private 1 MiB L2s, one shared 4 MiB L3). Also: a cache that holds
# the working set but has no roof at N threads is warned about, and bad sizes and names refused.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

cat >"$tmp/m2.yaml" <<'YAML'
schema: roofline.machine-spec/1
name: two cores
sockets: 1
cores: 2
caches: {L1: 32KiB, L2: 1MiB, L3: 4MiB}
peak:
  dp: {1: 32, 2: 64}
bandwidth:
  L1: {1: 200, 2: 400}
  L2: {1: 100, 2: 200}
  L3: {1: 50, 2: 90}
  DRAM: {1: 20, 2: 30}
YAML
triad() {  # N: three arrays of N doubles, sizes given
    cat <<YAML
sizes: {N: $1}
kernels:
  - name: triad
    flops: 2
    iterations: N
    arrays:
      - {name: a, type: double, writes: 1, elements: N}
      - {name: b, type: double, reads: 1, elements: N}
      - {name: c, type: double, reads: 1, elements: N}
      - {name: s, type: double, reads: 1, resident_in: registers}
YAML
}
check() {  # THREADS LEVEL GFLOPS SECONDS FOOTPRINT CAPACITY
    "$bin" model --machine "$tmp/m2.yaml" "$tmp/triad.yaml" --threads "$1" --json >"$tmp/out" 2>"$tmp/err" ||
        fail "model at $1 threads failed"
    python3 - "$tmp/out" "$@" <<'PY' || fail "triad at $1 threads is not as computed by hand"
import json, sys
m = json.load(open(sys.argv[1]))
threads, level, gflops, seconds, footprint, capacity = int(sys.argv[2]), sys.argv[3], *map(float, sys.argv[4:8])
k = m["kernels"][0]
assert m["threads"] == threads, m["threads"]
fit = k["cache_fit"]
assert fit and fit["level"] == level, fit
assert fit["footprint_bytes"] == footprint and fit["capacity_bytes"] == capacity, fit
assert abs(k["performance"] - gflops) < 1e-9 * gflops, k["performance"]
assert abs(k["seconds"] - seconds) < 1e-9 * seconds, k["seconds"]
assert k["iterations"] == 65536 or k["iterations"] == 131072, k["iterations"]
PY
}

# 65536 doubles x 3 = 1.5 MiB. One thread: more than its L2, inside the L3: 32 B/it at 50 GB/s,
# 3.125 GFLOP/s, 65536 x 32 B / 50 GB/s = 41.9 us. Two threads: 0.75 MiB each in their own L2s,
# the team's 200 GB/s: 12.5 GFLOP/s, 10.5 us: the same work, the whole loop's.
triad 65536 >"$tmp/triad.yaml"
check 1 L3 3.125 "$(python3 -c 'print(65536*32/50e9)')" 1572864 4194304
check 2 L2 12.5 "$(python3 -c 'print(65536*32/200e9)')" 1572864 2097152
"$bin" model --machine "$tmp/m2.yaml" "$tmp/triad.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err" || fail "text form"
grep -q "fits in L2 (2 MiB for 2 threads)" "$tmp/out" || fail "the two L2s are not said"
echo "ok: a triad that fits two L2s but not one is predicted from L2 at 2 threads, L3 at 1"

# 3 MiB: more than the two L2s, held once by the shared L3 (90 GB/s x 2/32 = 5.625 GFLOP/s).
triad 131072 >"$tmp/triad.yaml"
check 2 L3 5.625 "$(python3 -c 'print(131072*32/90e9)')" 3145728 4194304
echo "ok: the shared L3 holds the team's 3 MiB once"

# x every thread reads whole (1.22 MiB): split, two L2s hold it; per thread, each L2 needs all of it.
cat >"$tmp/mvm.yaml" <<'YAML'
name: mvm
flops: 2
sizes: {M: 4000, N: 160000}
iterations: M*N
arrays:
  - {name: A, type: double, reads: 1}
  - {name: x, type: double, reads: 1, resident_in: L2, elements: N}
YAML
"$bin" model --machine "$tmp/m2.yaml" "$tmp/mvm.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err" || fail "split x refused"
sed -i 's/elements: N}/elements: N, per_thread: true}/' "$tmp/mvm.yaml"
"$bin" model --machine "$tmp/m2.yaml" "$tmp/mvm.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "x per thread in two 1 MiB L2s: exit $code, expected 1"
grep -q "make it 2.44 MiB and L2 holds 2 MiB for 2 threads" "$tmp/err" || fail "the copy in each L2 is not counted"
sed -i 's/resident_in: L2/resident_in: L3/' "$tmp/mvm.yaml"
"$bin" model --machine "$tmp/m2.yaml" "$tmp/mvm.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err" ||
    fail "x per thread in the shared 4 MiB L3 refused"
# A working set with a 'per_thread' operand (0.61 MiB a thread) fits the two L2s with a copy in
# each (1.22 MiB), and the line says how it was counted.
cat >"$tmp/own.yaml" <<'YAML'
name: own
flops: 1
sizes: {N: 80000}
iterations: N
arrays:
  - {name: t, type: double, reads: 1, elements: N, per_thread: true}
YAML
"$bin" model --machine "$tmp/m2.yaml" "$tmp/own.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err" || fail "per-thread fit"
grep -q "working set     1.22 MiB (the operands' 'elements', the 'per_thread' ones once in each cache the threads use) fits in L2 (2 MiB for 2 threads)" "$tmp/out" ||
    fail "the per-thread copies are not said"
echo "ok: 'per_thread' counts a copy in each private L2, one in the shared L3"

# A sheet with no L2 or L3 roof at 2 threads: the working set fits there, the DRAM figure is said
# to be beatable.
sed -e 's/^  L1: .*//' -e 's/^  L2: .*//' -e 's/^  L3: .*//' "$tmp/m2.yaml" >"$tmp/dram.yaml"
triad 65536 >"$tmp/triad.yaml"
"$bin" model --machine "$tmp/dram.yaml" "$tmp/triad.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err" || fail "DRAM-only sheet"
grep -q "fits in L2 (2 MiB for 2 threads), but the machine model has no L2 bandwidth roof at 2 threads" "$tmp/err" ||
    fail "a cache without a roof at the thread count is not said"
# The ORM view bounds by DRAM alone: the same triad is predicted from memory (30 GB/s x 2/32 =
# 1.875 GFLOP/s), not placed in L2, where no roof of the view would bound it (it was "compute-bound"
# at the 64 GFLOP/s peak).
"$bin" model --machine "$tmp/m2.yaml" "$tmp/triad.yaml" --threads 2 --view orm --json >"$tmp/out" 2>"$tmp/err" ||
    fail "ORM view failed"
python3 - "$tmp/out" <<'PY' || fail "the ORM view placed the triad in a cache"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
assert k["binding_level"] == "DRAM" and abs(k["performance"] - 1.875) < 1e-9, (k["binding_level"], k["performance"])
assert k["cache_fit"] is None, k["cache_fit"]
PY
grep -q "fits in L2 (2 MiB for 2 threads), but the ORM view bounds loops by DRAM alone" "$tmp/err" ||
    fail "the ORM view's prediction from memory is not said"
echo "ok: a working set in a cache with no roof at the thread count (or in the ORM view) is warned about"

# Hostile input: a thread count the sheet has no roofs for, sizes below one element or past 64
# bits, 'per_thread' with no size, an empty kernel name.
"$bin" model --machine "$tmp/m2.yaml" "$tmp/triad.yaml" --threads 64 >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "64 threads on a two-core sheet: exit $code, expected 1"
grep -q "no DP compute roof for 64 threads; measured thread counts: 1, 2" "$tmp/err" || fail "64 threads not explained"
bad() {  # SED-EXPRESSION EXPECTED-MESSAGE
    sed -e "$1" "$tmp/mvm.yaml" >"$tmp/bad.yaml"
    "$bin" model --machine "$tmp/m2.yaml" "$tmp/bad.yaml" --threads 2 >"$tmp/out" 2>"$tmp/err"; code=$?
    [[ $code == 1 ]] || fail "'$1': exit $code, expected 1"
    grep -qF "$2" "$tmp/err" || fail "'$1' is not explained"
    grep -q "Segmentation\|terminate called" "$tmp/err" && fail "'$1' crashed"
    true
}
bad 's/elements: N, per_thread: true/elements: 1\/N/' "expected a number of elements of at least 1"
bad 's/elements: N, per_thread: true/elements: 1e30/' "make it 8e+30 B and L3 holds 4 MiB for 2 threads"
bad 's/elements: N, per_thread: true/per_thread: true/' "'per_thread' says 'elements' is each thread's: give 'elements'"
bad 's/name: mvm/name: ""/' "expected the kernel's name (not empty)"
echo "ok: bad thread counts, sizes and names are refused with the reason"
