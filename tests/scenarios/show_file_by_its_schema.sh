#!/usr/bin/env bash
# 'roofline show FILE' shows a file as what its schema says: a points file (kernels -o) was
# refused with 'expected "roofline.machine/1", found "roofline.points/1"', teaching nothing
# about --points; --points on a machine model is named as that mix-up (exit 2), not as a
# points file of the wrong schema.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export ROOFLINE_DB=$tmp/r.db
"$bin" kernels daxpy --sizes 16K --samples 1 --no-store -q -o "$tmp/k.json" >/dev/null 2>&1 ||
  { echo "FAIL: kernels -o did not write the points"; exit 1; }

"$bin" show "$tmp/k.json" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] && grep -q "^Points: $tmp/k.json (1)" "$tmp/out" && grep -q "^daxpy 16 KiB " "$tmp/out" ||
  { echo "FAIL: show POINTS-FILE (exit $code):"; cat "$tmp/out"; fail=1; }
"$bin" show "$tmp/k.json" --format json >"$tmp/out" 2>&1
grep -q '"schema": "roofline.points/1"' "$tmp/out" || { echo "FAIL: show POINTS-FILE --format json:"; cat "$tmp/out"; fail=1; }
"$bin" show --points "$tmp/k.json" >"$tmp/out2" 2>&1 && "$bin" show "$tmp/k.json" >"$tmp/out" 2>&1 &&
  cmp -s "$tmp/out" "$tmp/out2" || { echo "FAIL: show with and without --points differ for a points file"; fail=1; }

# A machine model given with --points: exit 2, naming the file and what it is.
python3 - "$tmp/m.json" <<'PY'
import json, sys
json.dump({"schema": "roofline.machine/1", "cpu": {"model": "x", "cores": 1},
           "compute": [{"name": "p", "precision": "dp", "gflops": 10, "threads": 1}], "memory": []},
          open(sys.argv[1], "w"))
PY
"$bin" show "$tmp/m.json" >"$tmp/out" 2>&1 || { echo "FAIL: show MACHINE-FILE:"; cat "$tmp/out"; fail=1; }
"$bin" show --points "$tmp/m.json" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] && grep -q "show --points: $tmp/m.json is a machine model (schema roofline.machine/1), not a point set: 'roofline show $tmp/m.json' shows it" "$tmp/out" ||
  { echo "FAIL: show --points MACHINE-FILE (exit $code, want 2):"; cat "$tmp/out"; fail=1; }
# Not JSON at all, or another schema: the reader it was asked for says so, as before.
echo '{"schema": "roofline.topology/1"}' >"$tmp/t.json"
"$bin" show "$tmp/t.json" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] && grep -q 'expected "roofline.machine/1", found "roofline.topology/1"' "$tmp/out" ||
  { echo "FAIL: show of a topology file (exit $code):"; cat "$tmp/out"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: show takes a file for what its schema says"
exit $fail
