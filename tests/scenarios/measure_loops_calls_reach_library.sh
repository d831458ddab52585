#!/usr/bin/env bash
# measure --loops: a loop whose callee (a function of the program, counted instruction by
# instruction) calls into a library that is not (no --loops-library) holds that library
# function's own counts only, not those of the functions it calls in turn; the note saying so
# was its caller's loop's alone. glibc's exp is such a function: a wrapper whose work (about 20
# FLOPs a call) runs in __ieee754_exp_fma, which it calls; a loop calling f, whose loop calls
# exp, held f's FLOPs and none of exp's with nothing said (an audit's program: 4.0M FLOPs
# printed for 44M, at 0.66 GFLOP/s). Now the outer loop's call to f says which library functions
# its counts hold only in part. With --loops-library the library is counted and nothing is said.
#
# Here libreach.so's outer() calls inner() (the work: 2 FLOPs x 200 a call); the program's f loops
# over outer() and main loops over f().
# SKIPPED (exit 77) without a C compiler, valgrind or the Valgrind tool.
set -u
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
cat >reach.c <<'C'
__attribute__((noinline)) double inner(double x) {
    double s = 0;
    for (int i = 0; i < 200; i++) s += x * i;
    return s;
}
double outer(double x) { return inner(x) + 1.0; }
C
cat >main.c <<'C'
#include <stdio.h>
double outer(double);
__attribute__((noinline)) double f(int r) {
    double s = 0;
    for (int i = 0; i < 400; i++) s += outer(i * 1e-3 + r);
    return s;
}
int main(void) {
    double s = 0;
    for (int r = 0; r < 5; r++) s += f(r);
    printf("%g\n", s);
    return 0;
}
C
cc -O1 -g -fPIC -shared -o libreach.so reach.c || fail "cannot build libreach.so"
cc -O1 -g -o reach main.c -L. -lreach -Wl,-rpath,"$PWD" || fail "cannot build the program"

out=$("$bin" measure --loops --min-share 0 --no-store -- ./reach 2>&1) || fail "measure --loops: exit $?"
grep -Eq "^note: f: the call at \+0x[0-9a-f]+ in its loop main\.c:5 goes to outer in libreach\.so, a file not counted" <<<"$out" ||
  fail "f's loop: its call into libreach.so is not said"
grep -Eq "^note: main: the call at \+0x[0-9a-f]+ in its loop main\.c:10 goes to f, whose counts with calls hold outer in libreach\.so, a file not counted instruction by instruction: .*\(--loops-library .*/libreach\.so adds them\)$" <<<"$out" ||
  fail "main's loop: that its call to f holds outer's own counts only is not said"
echo "ok: both loops say their counts with calls hold outer's own counts only"

out=$("$bin" measure --loops --loops-library ./libreach.so --min-share 0 --no-store -- ./reach 2>&1) ||
  fail "measure --loops --loops-library: exit $?"
grep -q "a file not counted instruction by instruction" <<<"$out" && fail "with --loops-library, a call is still said to be uncounted"
echo "ok: with --loops-library nothing is said"
