#!/usr/bin/env bash
# A file given where a YAML spec, spec sheet or machine is read, that YAML reads as one long
# value (a CSV, a log, /etc/passwd), is refused naming the file and the start of that value:
# the message quoted the whole of it, 370 KB of error for a 370 KB CSV. The same for a long
# string where a machine model's JSON expects a short name.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export ROOFLINE_DB=$tmp/r.db
csv=$tmp/points.csv
{ echo "name,flops,bytes"; for i in $(seq 1 20000); do echo "k$i,$((2 * i)),$((8 * i))"; done; } >"$csv"
spec=$(dirname "$0")/../../examples/kernels/daxpy.yaml

# check CODE ARGS...: roofline ARGS exits CODE with a short message naming the file and the value's start.
check() {
  local want=$1; shift
  timeout 60 "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local code=$?
  local size; size=$(wc -c <"$tmp/err")
  if [[ $code -ne $want ]] || [[ $size -gt 1000 ]] || ! grep -q "points.csv:1:1: .*found 'name,flops,bytes k1,2,8 k2,4,16" "$tmp/err"; then
    echo "FAIL: roofline $*: exit $code (want $want), $size bytes of message:"; head -c 400 "$tmp/err" | sed 's/^/  | /'; echo; fail=1
  fi
}
check 1 show "$csv"
check 1 model "$csv" --peak 1 --bw 1
check 1 model "$spec" --machine "$csv"
check 1 plot --machine "$csv" -o "$tmp/c.svg"

# A machine model whose precision is a long string: its start is quoted, with "...".
python3 - "$tmp/m.json" <<'PY'
import json, sys
m = {"schema": "roofline.machine/1", "cpu": {"model": "x", "cores": 1},
     "compute": [{"name": "p", "precision": "q" * 100000, "gflops": 10, "threads": 1}], "memory": []}
json.dump(m, open(sys.argv[1], "w"))
PY
timeout 60 "$bin" show "$tmp/m.json" >"$tmp/out" 2>"$tmp/err"; code=$?
if [[ $code -ne 1 ]] || [[ $(wc -c <"$tmp/err") -gt 1000 ]] || ! grep -q '/compute/0/precision: .*found "qqqq.*\.\.\."' "$tmp/err"; then
  echo "FAIL: show of a model with a 100000-character precision: exit $code, $(wc -c <"$tmp/err") bytes:"
  head -c 400 "$tmp/err"; echo; fail=1
fi
[[ $fail -eq 0 ]] && echo "ok: a long value in a refused file is quoted by its start"
exit $fail
