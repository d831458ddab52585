#!/usr/bin/env bash
# Ctrl-C during a bench run: what was measured is saved, marked partial, exit 130.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" bench --quick -o "$tmp/m.json" --svg "$tmp/m.svg" --db "$tmp/r.db" >"$tmp/out" 2>&1 &
pid=$!
# Wait until at least two figures have been announced, then interrupt.
for _ in $(seq 1 300); do
  [[ $(grep -c '^\[' "$tmp/out" 2>/dev/null || true) -ge 3 ]] && break
  sleep 0.1
done
kill -INT "$pid"
wait "$pid"; code=$?
cat "$tmp/out" | tail -5
[[ $code -eq 130 ]] || { echo "FAIL: exit code $code, expected 130"; exit 1; }
[[ -s "$tmp/m.json" ]] || { echo "FAIL: no model written"; exit 1; }
jq -e '.partial == true' "$tmp/m.json" >/dev/null || { echo "FAIL: model not marked partial"; exit 1; }
jq -e '(.compute | length) > 0' "$tmp/m.json" >/dev/null || { echo "FAIL: nothing measured kept"; exit 1; }
grep -q 'PARTIAL' "$tmp/m.svg" || { echo "FAIL: chart not marked partial"; exit 1; }
rows=$(sqlite3 "$tmp/r.db" 'select count(*) from machines where partial = 1')
[[ $rows -eq 1 ]] || { echo "FAIL: $rows partial rows in the store"; exit 1; }
grep -q 'interrupted' "$tmp/out" || { echo "FAIL: no 'interrupted' message"; exit 1; }
echo "ok: interrupted run saved partial results, exit 130"
