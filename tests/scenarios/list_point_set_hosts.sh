#!/usr/bin/env bash
# list shows the host every stored point set was measured on, from the set's provenance: a
# kernel sweep's set names no stored machine (its machine column is '-'), and its host was
# shown nowhere (the CSV's host column was empty for every set). Here a kernels sweep and a
# measure run are stored; list (text, JSON, CSV) gives both this host's node name.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
host=$(uname -n)
"$bin" kernels daxpy --sizes 32K --samples 1 >"$tmp/out" 2>&1 || check "kernels daxpy failed"
"$bin" measure -- true >"$tmp/out" 2>&1 || check "measure -- true failed"
"$bin" list >"$tmp/out" 2>&1 || check "list failed"
python3 - "$tmp/out" "$host" <<'PY' || { check "list (text): the sets' hosts"; }
import sys
lines = open(sys.argv[1]).read().splitlines()
host = sys.argv[2]
head = next(i for i, l in enumerate(lines) if l.startswith("Point sets ("))
header = lines[head + 1].split()
assert header == ["id", "created", "(UTC)", "points", "machine", "host", "source"], header
rows = [l.split(None, 5) for l in lines[head + 2:] if l.strip()]
assert len(rows) == 2, rows
kernels = next(r for r in rows if r[5].startswith("roofline kernels"))
assert kernels[3] == "-", kernels  # no stored machine: the host is all that says where
assert all(r[4] == host for r in rows), rows
PY
"$bin" list --format json >"$tmp/out" 2>&1 || check "list --format json failed"
python3 - "$tmp/out" "$host" <<'PY' || { check "list (json): the sets' hostname"; }
import json, sys
sets = json.load(open(sys.argv[1]))["point_sets"]
assert len(sets) == 2 and all(s["hostname"] == sys.argv[2] for s in sets), sets
PY
"$bin" list --format csv >"$tmp/out" 2>&1 || check "list --format csv failed"
python3 - "$tmp/out" "$host" <<'PY' || { check "list (csv): the sets' host column"; }
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "points"]
assert len(rows) == 2 and all(r["host"] == sys.argv[2] for r in rows), rows
PY
[[ $fail -eq 0 ]] && echo "ok: list gives the host of a kernels sweep's set and a measure run's ($host) in text, JSON and CSV"
exit $fail
