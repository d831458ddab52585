#!/usr/bin/env bash
# Issue 33: SIGHUP (the terminal closed, an ssh connection dropped) during `roofline measure` ended
# roofline at once with nothing written (its child then killed with it). Now it is taken like
# Ctrl-C: passed on to the command, what was measured up to then written to -o, marked
# interrupted by SIGHUP, exit 129. Under nohup (SIGHUP ignored) the run goes on undisturbed.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; exit 1; }
tag=$((RANDOM % 900 + 100))
# Waits (up to 10 s) for the child, found by its own command line (^sleep: not roofline's).
wait_for() { for _ in $(seq 1 100); do pgrep -f "$1" >/dev/null && return 0; sleep 0.1; done; return 1; }
"$bin" measure --engine time --no-store -o "$tmp/h.json" -- sleep 30.$tag </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for "^sleep 30.$tag" || fail "the command did not start"
kill -HUP "$pid"
for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "still running 8 s after SIGHUP"
wait "$pid"; code=$?; pid=
[[ $code == 129 ]] || fail "exit $code after SIGHUP, expected 129"
jq -e '(.points | length) >= 1 and .provenance.options.interrupted == "SIGHUP"' "$tmp/h.json" >/dev/null 2>&1 ||
  fail "what was measured is not in -o, marked interrupted by SIGHUP"
grep -q "interrupted by SIGHUP" "$tmp/err" || fail "the SIGHUP is not said"
echo "ok: SIGHUP: the time up to then kept in -o, marked, exit 129"
# Under nohup: ignored, the command ends by itself.
nohup "$bin" measure --engine time --no-store -o "$tmp/n.json" -- sh -c "sleep 1.$tag; exit 0" </dev/null \
  >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for "^sleep 1.$tag" || fail "nohup: the command did not start"
kill -HUP "$pid"
wait "$pid"; code=$?; pid=
[[ $code == 0 ]] || fail "nohup: exit $code after SIGHUP, expected 0 (ignored)"
jq -e '.provenance.options.interrupted == null' "$tmp/n.json" >/dev/null 2>&1 || fail "nohup: marked interrupted"
echo "ok: under nohup SIGHUP is ignored"
