#!/usr/bin/env bash
# Issue 10, second sweep: what `measure` does with a run it only timed, with
# --times from the wrong run, with a program that stops itself, with -o naming
# the store, and with control characters in paths and command names:
# - the time engine's points have "flops": null (not counted), the table shows
#   "-" and report/plot leave them out with a note, never "0 GFLOP/s";
# - --times refuses a file without provenance, of another command, or of a run
#   killed by a signal (exit 2), and takes the same command's times;
# - a program that raises SIGSTOP is continued (it used to hang measure);
# - -o equal to --db is refused before anything runs, the store left intact;
# - an escape sequence in an -o path or a command name reaches stderr escaped.
# SKIPPED (exit 77) without a C compiler or jq.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v cc >/dev/null || { echo "SKIPPED: no C compiler"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export ROOFLINE_DB=$tmp/results.db
out=""
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
machine=$src/tests/data/report-machine.json

cat >flops.c <<'C'
#include <stdio.h>
int main(int argc, char **argv) { volatile double x = 0; for (long i = 0; i < 2000000; ++i) x += i * 0.5; printf("%d\n", argc); return 0; }
C
cat >segv.c <<'C'
int main(void) { volatile int *p = 0; return *p; }
C
cat >stopself.c <<'C'
#include <signal.h>
int main(void) { raise(SIGSTOP); return 0; }
C
for p in flops segv stopself; do cc -O1 -o $p $p.c || fail "cannot build $p"; done

# Time only: flops null, "-" in the table, not judged by report, left out of plot.
out=$("$bin" measure --engine time -o t.json -- ./flops a b 2>&1) || fail "time engine run"
jq -e '.points[] | select(.name == "(program)") | .flops == null and .seconds > 0' t.json >/dev/null ||
  fail "the time engine's point should have flops null: $(cat t.json)"
grep -E '^\(program\) +[0-9.]+ +1 +- +- ' <<<"$out" >/dev/null || fail "the table should show '-' for GFLOP and GFLOP/s"
out=$("$bin" report --machine "$machine" --points t.json 2>&1) || fail "report of a time-only point"
grep -q "not judged: their FLOPs not counted" <<<"$out" || fail "report does not say the point is not judged"
grep -q "^No points\.$" <<<"$out" || fail "report judged a time-only point"
out=$("$bin" plot --machine "$machine" --points t.json -o chart.svg 2>&1) || fail "plot of a time-only point"
grep -q "left out: their work was not counted" <<<"$out" || fail "plot does not say the point was left out"
echo "ok: time-only points are not counted, not judged, not plotted"

# --times: the same command's times are taken; another command's, a crashed run's, or a file
# without provenance are refused.
out=$("$bin" measure --engine time -o segv.json -- ./segv 2>&1)
out=$("$bin" measure --no-store --times t.json --engine instrument -- ./flops a c 2>&1)
[[ $? == 2 ]] || fail "--times of another command's arguments: expected exit 2"
grep -q "timed another command" <<<"$out" || fail "--times: the mismatch is not said"
out=$("$bin" measure --no-store --times segv.json -- ./segv 2>&1)
[[ $? == 2 ]] || fail "--times of a run killed by SIGSEGV: expected exit 2"
grep -q "killed by signal SIGSEGV" <<<"$out" || fail "--times: the crashed run is not said"
out=$("$bin" measure --no-store --times "$src/tests/data/report-points.json" -- ./flops 2>&1)
[[ $? == 2 ]] || fail "--times of a file without provenance: expected exit 2"
if command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]]; then
  out=$("$bin" measure --no-store --times t.json -- "$tmp/flops" a b 2>&1) || fail "--times of the same command"
  echo "ok: --times takes the same command's times and refuses the rest"
else
  echo "ok: --times refuses another command's, a crashed run's and a provenance-less file (same command: skipped, no valgrind)"
fi

# A program that stops itself is continued.
out=$(timeout 60 "$bin" measure --engine time --no-store -- ./stopself 2>&1); code=$?
[[ $code == 0 ]] || fail "a program raising SIGSTOP: exit $code (124: measure hung)"
grep -q "stopped itself (SIGSTOP)" <<<"$out" || fail "the stop is not said"
echo "ok: a program that stops itself is continued"

# A script without "#!" runs under /bin/sh, as from a shell.
printf 'echo ran-by-sh\n' >noshebang; chmod +x noshebang
out=$("$bin" measure --engine time --no-store -- ./noshebang 2>&1) || fail "a script without #!: exit $?"
grep -q "ran-by-sh" <<<"$out" || fail "a script without #! did not run"
echo "ok: a script without #! runs under /bin/sh"

# -o naming the store.
"$bin" measure --engine time -q -- ./flops >/dev/null 2>&1 || fail "a first stored run"
before=$(sqlite3 "$ROOFLINE_DB" 'select count(*) from point_sets' 2>/dev/null || echo "?")
out=$("$bin" measure --engine time -o "$tmp/./results.db" -- ./flops 2>&1)
[[ $? == 2 ]] || fail "-o equal to the store: expected exit 2"
[[ $(head -c 15 "$ROOFLINE_DB") == "SQLite format 3" ]] || fail "the store was overwritten"
if command -v sqlite3 >/dev/null; then
  [[ $(sqlite3 "$ROOFLINE_DB" 'select count(*) from point_sets') == "$before" ]] || fail "the store changed"
fi
echo "ok: -o naming the store is refused, the store intact"

# A point set judged on a stored machine names it (list's machine column); before, none did.
"$bin" bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' >/dev/null 2>&1 ||
  fail "a stored compute-only model"
"$bin" measure --engine time -q -- ./flops >/dev/null 2>&1 || fail "a run judged on the stored machine"
"$bin" list --format json >"$tmp/list.json" 2>&1 || fail "list"
python3 - "$tmp/list.json" <<'PY' || fail "the last point set does not name the stored machine it was judged on"
import json, sys
d = json.load(open(sys.argv[1]))
machine = d["machines"][-1]["id"]
assert d["point_sets"][-1]["machine_id"] == machine, (d["point_sets"][-1], machine)
assert d["point_sets"][0]["machine_id"] is None  # measured before any machine was stored
PY
echo "ok: a point set names the stored machine it was judged on"

# Escape sequences in names reach stderr escaped.
esc=$'\e]0;pwned\a\e[2J'
out=$("$bin" plot --machine "$machine" -o "$tmp/${esc}chart.svg" 2>&1) || fail "plot to an odd file name"
[[ $out == *$'\e'* || $out == *$'\a'* ]] && fail "plot's message printed a raw escape sequence"
grep -q 'chart written to .*\\x1b\]0;pwned\\x07' <<<"$out" || fail "plot's message does not show the name escaped"
out=$("$bin" measure --engine time --no-store -- "./${esc}nothing" 2>&1)
[[ $out == *$'\e'* ]] && fail "measure's 'command not found' printed a raw escape sequence"
grep -q 'command not found: ./\\x1b' <<<"$out" || fail "measure's 'command not found' does not show the name escaped"
echo "ok: escape sequences in paths and command names are shown escaped"
echo "PASS"
