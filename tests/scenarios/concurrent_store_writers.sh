#!/usr/bin/env bash
# Two bench runs writing the same database at once: both land.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
args=(bench --only compute --precision dp --threads 1 --time-budget 1 --svg '' -q --db "$tmp/r.db")
"$bin" "${args[@]}" -o "$tmp/a.json" & a=$!
"$bin" "${args[@]}" -o "$tmp/b.json" & b=$!
wait $a; ca=$?; wait $b; cb=$?
[[ $ca -eq 0 && $cb -eq 0 ]] || { echo "FAIL: exit codes $ca $cb"; exit 1; }
rows=$(sqlite3 "$tmp/r.db" 'select count(*) from machines')
[[ $rows -eq 2 ]] || { echo "FAIL: $rows rows, expected 2"; exit 1; }
echo "ok: both concurrent runs stored"
