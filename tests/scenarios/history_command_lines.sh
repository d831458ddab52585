#!/usr/bin/env bash
# history and compare never mix runs of different command lines (issue 35): a point measured
# from a program is named by its regions ("(program)", "dot"), so the same name comes from every
# input size. Three stored runs of one program, two of them with the same arguments (the program
# once by another path), one with another input size: history follows the latest command line's
# runs and says how many it left out, --command all shows each command line as its own series,
# --command LINE one; compare says when two sets ran different command lines. Needs valgrind, the
# Valgrind tool and a C compiler, else 77.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$bin")
[[ -e $build/vgtool/roofline-amd64-linux ]] || { echo "SKIPPED: build the Valgrind tool (target roofline_vgtool)"; exit 77; }
command -v valgrind >/dev/null || { echo "SKIPPED: valgrind is not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIPPED: no C compiler"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/r.db
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }
cat >"$tmp/dot.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double* x = malloc(n * sizeof *x);
    for (long i = 0; i < n; ++i) x[i] = i * 0.5;
    double s = 0;
    for (int r = 0; r < 20; ++r)
        for (long i = 0; i < n; ++i) s += x[i] * x[i];
    printf("%g\n", s);
    free(x);
    return 0;
}
C
cc -O1 -o "$tmp/dot" "$tmp/dot.c" || fail "cannot compile the test program"
cd "$tmp" || exit 1
measure() { "$bin" measure --engine instrument --cache-sim off --repeat 1 -q -- "$@" >"$tmp/out" 2>"$tmp/err" || fail "measure $*"; }
measure ./dot 100000           # set 1
measure ./dot 200000           # set 2: another input size
measure "$tmp/dot" 100000      # set 3: the first command line, the program by another path

# Default: the latest set's command line (sets 1 and 3), the other left out with a note.
"$bin" history --point '(program)' --format json >"$tmp/out" 2>"$tmp/err" || fail "history --point"
jq -e '(.figures | length) == 1 and (.figures[0].command | endswith("dot 100000")) and
       ([.figures[0].runs[] | select(.figure != null)] | length) == 2 and
       ([.figures[0].runs[].run | test("dot 200000")] | any | not)' "$tmp/out" >/dev/null ||
  fail "history mixed the command lines or lost a run: $(jq -c '.figures' "$tmp/out")"
grep -q "point '(program)': 1 other stored point set measured it with another command line ('./dot 200000' in #2): left out" \
  "$tmp/err" || fail "the set left out is not said"
grep -q -- "--command all" "$tmp/err" || fail "the note does not say how to see the other command lines"
echo "ok: history follows the latest command line (the program by either path) and says what it left out"

# --command all: one series per command line, labelled; no step between them.
"$bin" history --point '(program)' --command all >"$tmp/out" 2>"$tmp/err" || fail "history --command all"
grep -Eq '^FIGURE +COMMAND LINE ' "$tmp/out" || fail "no COMMAND LINE column"
grep -Eq '^\(program\) +\./dot 200000 +GFLOP/s +1 ' "$tmp/out" || fail "the other input size is not a series of its own"
grep -Eq '^\(program\) +.*dot 100000 +GFLOP/s +2 ' "$tmp/out" || fail "the first command line's two runs are not one series"
grep -Eq 'run 2: ' "$tmp/out" && fail "a step from one command line to another was flagged"
echo "ok: --command all shows each command line as its own series"

# --command LINE: that series; a line no set ran is a usage error naming those that ran.
"$bin" history --point '(program)' --command './dot 200000' --format json >"$tmp/out" 2>"$tmp/err" ||
  fail "history --command './dot 200000'"
jq -e '(.figures | length) == 1 and .figures[0].command == "./dot 200000" and (.figures[0].runs | length) == 1' \
  "$tmp/out" >/dev/null || fail "--command LINE: $(jq -c . "$tmp/out")"
"$bin" history --point '(program)' --command './dot 5' >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 2 ]] && grep -q "no stored point set of the points named ran that command line; they ran: " "$tmp/err" ||
  fail "--command with a line no set ran: exit $code"
"$bin" history --command all >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 2 ]] || fail "--command without --point: exit $code, expected 2"
echo "ok: --command LINE follows that command line; an unknown one is refused with those that ran"

# compare: the command lines differ (sets 1 and 2), said above the table and in WHY; not for 1 and 3.
"$bin" compare --points stored:1 --points stored:2 >"$tmp/out" 2>"$tmp/err" || fail "compare 1 2"
grep -q "^The command lines differ: A ran ./dot 100000, B ran ./dot 200000" "$tmp/out" || fail "compare does not say the command lines differ"
"$bin" compare --points stored:1 --points stored:2 --format json >"$tmp/out" 2>"$tmp/err" || fail "compare --format json"
jq -e '.command_a == "./dot 100000" and .command_b == "./dot 200000"' "$tmp/out" >/dev/null || fail "compare's JSON lacks the command lines"
"$bin" compare --points stored:1 --points stored:3 >"$tmp/out" 2>"$tmp/err" || fail "compare 1 3"
grep -q "command lines differ\|other command line" "$tmp/out" && fail "one program by two paths was called another command line"
echo "ok: compare says when two point sets ran different command lines"
