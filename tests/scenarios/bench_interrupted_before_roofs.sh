#!/usr/bin/env bash
# Issue 33: Ctrl-C during `bench --full` before the first roof was measured (while kernels are
# chosen) stored a model without roofs as the latest, and wrote it over -o's name. Now nothing
# is saved, that is said, and the exit is 130; the store and the files are left as they were.
# The first Ctrl-C is acknowledged at once; a second one while stopping does not lose the run.
# A store the run created (opening it before measuring checks it) is said to be new and empty,
# not "left as it was" (it did not exist before); a store that was there is left as it was.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; tr '\r' '\n' <"$tmp/err" | tail -8 | sed 's/^/  | /'; exit 1; }
cd "$tmp" || exit 1
"$bin" bench --full -o m.json --db r.db >out 2>err </dev/null &
pid=$!
for _ in $(seq 1 600); do grep -q 'choosing' err 2>/dev/null && break; sleep 0.1; done
grep -q 'choosing' err || fail "bench did not start choosing its kernels within 60 s"
kill -INT "$pid"; sleep 0.3
grep -q 'SIGINT (Ctrl-C): stopping' err || fail "the Ctrl-C was not acknowledged at once"
kill -INT "$pid" 2>/dev/null  # a second one while it stops
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "still running 10 s after Ctrl-C"
wait "$pid"; code=$?; pid=
if grep -q '\] compute .*(burst 1)\|\] memory .*(burst 1)' err; then
  echo "SKIP: a roof was measured before the signal (a fast machine): nothing to check"; exit 77
fi
[[ $code == 130 ]] || fail "exit $code, expected 130"
grep -q 'interrupted before any roof was measured.*nothing saved' err || fail "not said that nothing was saved"
[[ -e m.json || -e m.partial.json || -e m.svg ]] && fail "a model without roofs was written: $(ls)"
if [[ -e r.db ]]; then
  n=$("$bin" list --db r.db --format json 2>/dev/null | jq '.machines | length' 2>/dev/null)
  [[ $n == 0 ]] || fail "the store holds $n machine(s): $("$bin" list --db r.db 2>&1)"
  grep -q 'nothing saved (m.json, m.svg left as they were; the results store r.db is new and holds nothing: this run created it before measuring)$' err ||
    fail "the store this run created is not said to be new (or called left as it was)"
fi

# Again, now that the store is there: it is left as it was, and said so.
"$bin" bench --full -o m.json --db r.db >out 2>err </dev/null &
pid=$!
for _ in $(seq 1 600); do grep -q 'choosing' err 2>/dev/null && break; sleep 0.1; done
grep -q 'choosing' err || fail "the second bench did not start choosing its kernels within 60 s"
kill -INT "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
wait "$pid"; code=$?; pid=
if ! grep -q '\] compute .*(burst 1)\|\] memory .*(burst 1)' err; then
  [[ $code == 130 ]] || fail "second run: exit $code, expected 130"
  grep -q 'nothing saved (m.json, m.svg, the results store r.db left as they were)$' err ||
    fail "second run: the store that was there is not said to be left as it was"
fi
echo "ok: interrupted before any roof: nothing stored or written, said (a new store as new), exit 130"
