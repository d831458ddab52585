#!/usr/bin/env bash
# bench counts repeated stop signals while it saves ("already stopping: saving what was
# measured"); a fifth leaves at once (exit 130) without saving. Its last words must say that,
# not promise the saving that did not happen. The save is held up by a lock on the results
# store (SQLite waits for it), so the five signals all come while bench is saving.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$tmp"' EXIT  # closing fd 3 ends the sqlite3 that holds the lock
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; exit 1; }

"$bin" bench --only compute --threads 1 --time-budget 1 -o "$tmp/m.json" --svg '' --db "$tmp/r.db" \
  >"$tmp/out" 2>"$tmp/err" &
pid=$!
# The store is open once bench says what it measures: lock it until the test ends.
for _ in $(seq 1 600); do grep -q 'measuring' "$tmp/err" 2>/dev/null && break; sleep 0.1; done
exec 3> >(sqlite3 "$tmp/r.db")
echo 'BEGIN EXCLUSIVE;' >&3
# The model file is written before the store: then bench waits for the lock.
for _ in $(seq 1 1200); do [[ -s $tmp/m.json ]] && break; sleep 0.1; done
[[ -s $tmp/m.json ]] || fail "bench wrote no model"
sleep 0.5
for _ in 1 2 3 4 5; do kill -INT "$pid" 2>/dev/null; sleep 0.3; done
wait "$pid"; code=$?
[[ $code -eq 130 ]] || fail "exit $code after five SIGINTs, expected 130"
last=$(grep -v '^$' "$tmp/err" | tail -1)
[[ $last == *"a fifth stop: leaving at once"* ]] || fail "the last message is not the leaving: '$last'"
grep -q 'already stopping: saving what was measured' "$tmp/err" || fail "the repeated signals were not acknowledged"
echo "ok: a fifth stop signal says bench leaves without saving the rest (exit 130)"
