#!/usr/bin/env bash
# Ctrl-C during a bench run: what was measured is saved, marked partial, exit 130.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" bench --quick -o "$tmp/m.json" --svg "$tmp/m.svg" --db "$tmp/r.db" >"$tmp/out" 2>&1 &
pid=$!
# Wait until the compute figures have their first burst (a memory figure's first
# has begun: a slow machine may spend the whole budget in the first round), then interrupt.
# Up to 5 minutes: a guest whose page faults are slow takes long to fill its buffers.
for _ in $(seq 1 3000); do
  grep -Eq '\] memory .*\(burst 1\)' "$tmp/out" 2>/dev/null && break
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

# A partial run does not replace complete results: a second run, stopped by
# SIGTERM (exit 143), writes beside them.
cp "$tmp/m.json" "$tmp/complete.json"
"$bin" bench --quick -o "$tmp/complete.json" --no-store >"$tmp/out2" 2>&1 &
pid=$!
for _ in $(seq 1 3000); do grep -Eq '\] memory .*\(burst 1\)' "$tmp/out2" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"; code=$?
[[ $code -eq 143 ]] || { echo "FAIL: SIGTERM gave exit code $code, expected 143 (128 + 15)"; exit 1; }
cmp -s "$tmp/m.json" "$tmp/complete.json" || { echo "FAIL: a partial run replaced the earlier model"; exit 1; }
[[ -s "$tmp/complete.partial.json" ]] || { echo "FAIL: no complete.partial.json"; exit 1; }
grep -q 'kept the earlier results' "$tmp/out2" || { echo "FAIL: not said"; cat "$tmp/out2"; exit 1; }
echo "ok: earlier results kept, partial written beside them"
