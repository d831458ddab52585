#!/usr/bin/env bash
# What the GPU limit guard says of a GPU's roofs as a model is read (an architecture no
# specification table has, held only to the bounds any GPU keeps; an SM clock above the
# architecture's max boost) is printed by show among the model's notes, and by report --gpu N
# and plot --gpu N as notes on standard error, the same lines (plot once per GPU however many
# --gpu name it); --quiet leaves them out; the H200's model as measured, judged by the table in
# full, gets none. The H200's model and points of tests/data/gpu, edited here.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
data=$src/tests/data/gpu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
export ROOFLINE_DB=$tmp/results.db
points=$data/h200-points-cublas-gemm-n4096.json
# $1: the model's file; $2: the compute capability; $3: the SM clock read (MHz).
edit_model() {
  python3 - "$data/h200-machine.json" "$1" "$2" "$3" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
g = m["gpus"][0]
g["compute_capability"] = sys.argv[3]
g["sm_clock_mhz"] = float(sys.argv[4])
json.dump(m, open(sys.argv[2], "w"))
PY
}
edit_model "$tmp/unknown.json" 12.7 1980   # an architecture no table has
edit_model "$tmp/clock.json" 9.0 2600      # Hopper, max boost 1980 MHz
for case in unknown clock; do
  model=$tmp/$case.json
  "$bin" show "$model" >"$tmp/out" 2>&1 || check "$case: show cannot read the model"
  note=$(sed -n 's/^  - \(GPU 0 (NVIDIA H200): .*\)$/\1/p' "$tmp/out")
  case $case in
    unknown) [[ $note == *"sm_127 is in no specification table"* ]] || check "$case: show has no note of the table" ;;
    clock) [[ $note == *"2600 MHz, is above the 1980 MHz max boost"* ]] || check "$case: show has no note of the clock" ;;
  esac
  [[ -n $note ]] || continue
  "$bin" report --machine "$model" --points "$points" --gpu 0 >/dev/null 2>"$tmp/out" || check "$case: report --gpu 0 failed"
  [[ $(grep -cxF "roofline: note: $note" "$tmp/out") -eq 1 ]] || check "$case: report --gpu 0 does not print show's note once"
  "$bin" report --machine "$model" --points "$points" --gpu 0 --quiet >/dev/null 2>"$tmp/out" ||
    check "$case: report --gpu 0 --quiet failed"
  ! grep -qF "GPU 0 (NVIDIA H200)" "$tmp/out" || check "$case: report --quiet prints the GPU's note"
  "$bin" plot --machine "$model" --points "$points" --gpu 0 --gpu 0:fp32 -o "$tmp/chart.svg" >"$tmp/out" 2>&1 ||
    check "$case: plot --gpu 0 --gpu 0:fp32 failed"
  [[ $(grep -cxF "roofline: note: $note" "$tmp/out") -eq 1 ]] || check "$case: plot --gpu 0 does not print show's note once"
done
# As measured: the table judges every roof at a clock within the max boost; nothing to say.
"$bin" report --machine "$data/h200-machine.json" --points "$points" --gpu 0 >/dev/null 2>"$tmp/out" ||
  check "report --gpu 0 on the measured model failed"
! grep -qF "GPU 0 (NVIDIA H200)" "$tmp/out" || check "report prints a limit note for a GPU the table judges in full"
[[ $fail -eq 0 ]] && echo "ok: the limit guard's notes (unknown architecture, clock above max boost) printed by report and" \
  "plot --gpu as show lists them, once, not with --quiet, none for the H200 as measured"
exit $fail
