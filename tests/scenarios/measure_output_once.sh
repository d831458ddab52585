#!/usr/bin/env bash
# measure shows the program's output once: its standard output and error come from the first
# native run only. The timed repeats, the counting run under Valgrind, the call-timing run and
# the sampling runs print nothing to the user's terminal (before, a program's output came
# 2 to 5 times and its standard error once per run); --counts-from still compares the counted
# run's standard output (kept, not shown); a later run that fails quotes the end of its
# standard error in its warning. Needs a C compiler, else 77; the instrument-engine parts need
# valgrind and the Valgrind tool.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(cd "$(dirname "$bin")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
command -v cc >/dev/null || { echo "skip: no C compiler"; exit 77; }
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }
cd "$tmp" || exit 1
# Prints a line to each stream; with a count file, the run numbered FAIL_RUN fails (exit 4).
cat >p.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) double work(long n) { double s = 0; for (long i = 1; i <= n; ++i) s += 1.0 / i; return s; }
int main(int argc, char **argv) {
    int run = 0;
    if (argc > 1) {
        FILE *f = fopen(argv[1], "a+"); fputs("x\n", f); rewind(f);
        for (int c; (c = fgetc(f)) != EOF;) run += c == '\n';
        fclose(f);
    }
    double s = 0;
    for (int k = 0; k < 4; ++k) s += work(200000);
    printf("program output line s=%.3f\n", s);
    fprintf(stderr, "program stderr line\n");
    const char *fail_run = getenv("FAIL_RUN");
    if (fail_run && run == atoi(fail_run)) { fprintf(stderr, "run %d failed: disk full\n", run); return 4; }
    return 0;
}
C
cc -O2 -g -o p p.c || fail "cannot compile the test program"
once() {  # once WHAT: the program's lines appear exactly once in out and err
  [[ $(grep -c "^program output line" out) == 1 ]] || fail "$1: the program's standard output came $(grep -c "^program output line" out) times, not once"
  [[ $(grep -c "^program stderr line" err) == 1 ]] || fail "$1: the program's standard error came $(grep -c "^program stderr line" err) times, not once"
}

"$bin" measure --engine time --no-store --repeat 3 -- ./p >out 2>err || fail "measure --engine time --repeat 3"
once "--engine time --repeat 3 (4 runs)"
grep -q "shown for its first native run only" err || fail "the note does not say the later runs show no output"
echo "ok: four native runs, the program's output and standard error shown once"

# A repeat that fails: its warning quotes the end of its standard error.
FAIL_RUN=2 "$bin" measure --engine time --no-store --repeat 3 -- ./p count >out 2>err || fail "measure with a failing repeat"
grep -q "native run 2 of 4 exited with status 4, the first exited with status 0" err || fail "the failing repeat is not said"
grep -q "^  | run 2 failed: disk full" err || fail "the failing repeat's standard error is not quoted"
echo "ok: a repeat that fails quotes the end of its standard error"
rm -f count

if command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]]; then
  # Native runs, the counting run, call timing and sampling: still once.
  "$bin" measure --no-store --cache-sim off --region-function work --functions -o f.json -- ./p count >out 2>err ||
    fail "measure --region-function work --functions"
  once "--region-function --functions"
  [[ $(wc -l <count) -ge 4 ]] || fail "expected at least 4 runs (native, Valgrind, call timing, sampling), got $(wc -l <count)"
  grep -q "call-timing run" err || fail "no call-timing run was made"
  grep -q "sampling run" err || fail "no sampling run was made"
  echo "ok: $(wc -l <count) runs (native, repeats, Valgrind, call timing, sampling), the output shown once"
  rm -f count

  # --counts-from: the counted program's output is compared, not shown.
  cp p p_counted
  "$bin" measure --no-store --cache-sim off --repeat 1 --counts-from ./p_counted -o c.json -- ./p >out 2>err ||
    fail "measure --counts-from"
  once "--counts-from"
  grep -q "both programs printed the same standard output" err || fail "the outputs are no longer compared"
  echo "ok: --counts-from compares the counted run's standard output without showing it"

  # The run under Valgrind fails where the native run did not: its standard error is quoted.
  echo x >count  # the native run is run 2, the run under Valgrind run 3
  FAIL_RUN=3 "$bin" measure --no-store --cache-sim off --repeat 1 -- ./p count >out 2>err
  grep -q "exited with 0 natively but 4 under Valgrind" err || fail "the different exit under Valgrind is not said"
  grep -q "^  | run 3 failed: disk full" err || fail "the counting run's standard error is not quoted"
  once "a failing counting run"
  echo "ok: a counting run that fails quotes the end of its standard error"
else
  echo "skip (instrument engine): valgrind or the Valgrind tool is missing"
fi
