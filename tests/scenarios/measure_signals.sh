#!/usr/bin/env bash
# roofline measure under signals (issue 10): a child that ignores SIGINT/SIGTERM
# is killed after the grace period; a signal reaches a shell child's own
# children (the child leads a process group); after an interrupted native run
# no run under the Valgrind tool starts (exit 130); SIGKILL of roofline does not
# leave the child running. Runs without a terminal, as ctest does.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
# Each run gets its own tag in its sleep's duration, so that pgrep finds only ours.
tag=$((RANDOM % 900 + 100))
# Waits (up to 10 s) until a process whose command line matches $1 exists. The patterns start
# with ^sleep: roofline's own command line holds the same words, and it must be signalled only
# once its child runs.
wait_for() { for _ in $(seq 1 100); do pgrep -f "$1" >/dev/null && return 0; sleep 0.1; done; return 1; }
gone() { for _ in $(seq 1 30); do pgrep -f "$1" >/dev/null || return 0; sleep 0.1; done; return 1; }

# 1. A child that ignores INT and TERM: SIGKILL after the grace period (3 s), said on stderr.
"$bin" measure --engine time --no-store -- bash -c "trap '' INT TERM; sleep 60.$tag" </dev/null >"$tmp/out" 2>&1 &
pid=$!; pids+=("$pid")
wait_for "^sleep 60.$tag" || fail "the child did not start"
start=$SECONDS
kill -INT "$pid"
wait "$pid"; code=$?
(( SECONDS - start <= 8 )) || fail "took $((SECONDS - start)) s to stop a child that ignores SIGINT"
[[ $code == 130 ]] || fail "exit $code, expected 130"
grep -q "did not end within 3 s of SIGINT; sending SIGKILL" "$tmp/out" || fail "the SIGKILL is not said"
gone "^sleep 60.$tag" || fail "the child's sleep survived"
echo "ok: a child ignoring SIGINT is killed after the grace period, exit 130"

# 2. A shell child's foreground grandchild gets the signal too (sent to the child's process group).
"$bin" measure --engine time --no-store -- sh -c "sleep 61.$tag; :" </dev/null >"$tmp/out" 2>&1 &
pid=$!; pids+=("$pid")
wait_for "^sleep 61.$tag" || fail "the grandchild did not start"
kill -TERM "$pid"
wait "$pid"; code=$?
[[ $code == 143 ]] || fail "exit $code after SIGTERM, expected 143"
gone "^sleep 61.$tag" || fail "the shell's child 'sleep 61.$tag' kept running after SIGTERM"
echo "ok: SIGTERM reaches the child's own children, exit 143"

# 3. SIGKILL of roofline: the child dies with it (PR_SET_PDEATHSIG).
"$bin" measure --engine time --no-store -- sleep 62.$tag </dev/null >"$tmp/out" 2>&1 &
pid=$!; pids+=("$pid")
wait_for "^sleep 62.$tag" || fail "the child did not start"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
gone "^sleep 62.$tag" || fail "the child kept running after roofline was killed"
echo "ok: the child dies with roofline"

# 4. The instrument engine: Ctrl-C during the native run starts no run under Valgrind.
if command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]]; then
  "$bin" measure --engine instrument --db "$tmp/r.db" -- sh -c "sleep 63.$tag; :" </dev/null >"$tmp/out" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_for "^sleep 63.$tag" || fail "the child did not start"
  kill -INT "$pid"
  wait "$pid"; code=$?
  [[ $code == 130 ]] || fail "exit $code after SIGINT, expected 130"
  grep -q "run under the Valgrind tool (counts)" "$tmp/out" && fail "the Valgrind run started after Ctrl-C"
  pgrep -f "valgrind.*sleep 63.$tag" >/dev/null && fail "valgrind is running"
  grep -q "interrupted by SIGINT" "$tmp/out" || fail "the interruption is not said"
  grep -q "stored as point set #1" "$tmp/out" || fail "the native run's time was not kept"
  # The stored set says it is partial, and its provenance names only the run that happened.
  "$bin" list --db "$tmp/r.db" >"$tmp/out" 2>&1
  grep -q "(interrupted by SIGINT: partial)" "$tmp/out" || fail "list does not mark the set as interrupted"
  if command -v sqlite3 >/dev/null; then
    sqlite3 "$tmp/r.db" 'select json from point_sets' 2>/dev/null | grep -q '"runs":\["native"\]' ||
      fail "the provenance lists a run that never happened: $(sqlite3 "$tmp/r.db" 'select json from point_sets' 2>&1 | head -c 300)"
  fi
  echo "ok: no Valgrind run after an interrupted native run, its time kept and marked partial, exit 130"
else
  echo "skip (part 4): valgrind or the Valgrind tool (target roofline_vgtool) is missing"
fi
