#!/usr/bin/env bash
# Issue 33: every way `roofline kernels` is stopped keeps the points measured. The first Ctrl-C
# is said at once on stderr (it used to be silent during a slow point); a second Ctrl-C a second
# later, three quick ones, SIGHUP (an ssh connection dropped) and SIGTERM write the points measured
# so far to -o and the store, marked interrupted, and exit 128 + the first signal (130, 129,
# 143). Before, a second signal or SIGHUP ended the process at once and wrote nothing.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail=0
# start NAME: two quick points (16 and 64 KiB), then one that takes seconds a call (a naive
# DGEMM of 24 MiB); returns once the two quick rows are printed.
start() {
  rm -f "$tmp/$1".*
  "$bin" kernels dgemm_naive --sizes 16K,64K,24M --samples 5 -o "$tmp/$1.json" --db "$tmp/$1.db" \
      >"$tmp/$1.out" 2>"$tmp/$1.err" </dev/null &
  pid=$!
  for _ in $(seq 1 600); do
    [[ $(grep -c ' ok$' "$tmp/$1.out" 2>/dev/null) -ge 2 ]] && return 0
    sleep 0.1
  done
  echo "FAIL: $1: the two quick points were not measured within 60 s"; cat "$tmp/$1.err"; return 1
}
# check NAME CODE SIGNAL: exit CODE within 5 s of the last signal; the two quick points (and the
# slow one, should a fast machine finish it meanwhile) in -o and the store, marked interrupted by SIGNAL.
check() {
  local name=$1 want=$2 signal=$3 code waited=0
  while kill -0 "$pid" 2>/dev/null && (( waited < 50 )); do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: $name: still running 5 s after the signals"; kill -KILL "$pid"; fail=1
  fi
  wait "$pid"; code=$?; pid=
  local f=$tmp/$name.json
  if [[ $code != "$want" ]]; then echo "FAIL: $name: exit $code, expected $want"; fail=1; fi
  if ! jq -e '(.points | length) >= 2' "$f" >/dev/null 2>&1; then
    echo "FAIL: $name: the 2 points measured are not in -o ($(jq -c '.points | length' "$f" 2>&1))"; fail=1
  elif ! jq -e --arg s "$signal" '.provenance.options.interrupted | test($s)' "$f" >/dev/null; then
    echo "FAIL: $name: -o is not marked interrupted by $signal"; fail=1
  fi
  if ! "$bin" list --db "$tmp/$name.db" 2>&1 | grep -q "(interrupted by $signal: partial)"; then
    echo "FAIL: $name: no partial set in the store:"; "$bin" list --db "$tmp/$name.db" 2>&1 | sed 's/^/  | /'; fail=1
  fi
  grep -Eq "interrupted by $signal: the [23] points measured before it are kept" "$tmp/$name.err" ||
    { echo "FAIL: $name: what was kept is not said"; fail=1; }
  if (( fail )); then sed 's/^/  | /' "$tmp/$name.err"; else echo "ok: $name: exit $code, $(jq '.points | length' "$f") points kept"; fi
}

# 1. Ctrl-C during the slow point is said at once; a second, a second later, writes the points now.
if start twice; then
  kill -INT "$pid"; sleep 0.5
  grep -q 'SIGINT (Ctrl-C): stopping after the point being measured' "$tmp/twice.err" ||
    { echo "FAIL: the first Ctrl-C was not acknowledged within 0.5 s"; fail=1; }
  sleep 0.5; kill -INT "$pid"
  check twice 130 SIGINT
fi
# 2. Three quick Ctrl-C.
if start thrice; then
  kill -INT "$pid"; kill -INT "$pid"; kill -INT "$pid"
  check thrice 130 SIGINT
fi
# 3. SIGHUP alone (the terminal went away): the point is left out after 2 s, the rest written.
if start hup; then
  kill -HUP "$pid"
  check hup 129 SIGHUP
fi
# 4. SIGTERM, then SIGHUP as the session ends: the first signal's code.
if start term; then
  kill -TERM "$pid"; sleep 0.3; kill -HUP "$pid"
  check term 143 SIGTERM
fi
# 5. The rows go into a pipe whose reader is gone with the terminal (`| tee` over a dropped ssh
# connection), then SIGHUP: the next row cannot be written, and the points are still kept (before,
# SIGPIPE ended the process, or the failed row did).
mkfifo "$tmp/rows"
cat "$tmp/rows" >"$tmp/pipe.out" &
reader=$!
"$bin" kernels stream_triad --sizes 16K,64K,32M --samples 20 -o "$tmp/pipe.json" --no-store \
    >"$tmp/rows" 2>"$tmp/pipe.err" </dev/null &
pid=$!
for _ in $(seq 1 600); do [[ $(grep -c ' ok$' "$tmp/pipe.out" 2>/dev/null) -ge 2 ]] && break; sleep 0.1; done
kill -KILL "$reader"; wait "$reader" 2>/dev/null
kill -HUP "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null && (( waited < 50 )); do sleep 0.1; waited=$((waited + 1)); done
kill -0 "$pid" 2>/dev/null && { echo "FAIL: pipe: still running 5 s after SIGHUP"; kill -KILL "$pid"; }
wait "$pid"; code=$?; pid=
if [[ $code != 129 ]] || ! jq -e '(.points | length) >= 2 and .provenance.options.interrupted == "SIGHUP"' \
     "$tmp/pipe.json" >/dev/null 2>&1; then
  echo "FAIL: pipe: exit $code (expected 129), points: $(jq -c '.points | length' "$tmp/pipe.json" 2>&1)"
  sed 's/^/  | /' "$tmp/pipe.err"; fail=1
else
  echo "ok: pipe: reader gone, SIGHUP: exit 129, $(jq '.points | length' "$tmp/pipe.json") points kept"
fi
exit $fail
