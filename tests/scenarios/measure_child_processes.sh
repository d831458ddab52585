#!/usr/bin/env bash
# A command whose work runs in a child process (third hostile sweep, issue 10): the
# instrument engine counts the first process only, so a shell or wrapper that forks
# the program gets a warning saying the children's work is not counted, and one that
# execs it (env, exec) an error naming the cause, never a silent 0 FLOPs; its exit status is
# then 1 (nothing measured), and the message says why not the command's own status.
# SKIPPED (exit 77) without a C compiler, valgrind or the Valgrind tool.
set -u
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
cat >work.c <<'C'
#include <stdio.h>
int main(void) { volatile double x = 0; for (int i = 0; i < 100000; ++i) x += i * 0.5; printf("%g\n", x); return 0; }
C
cc -O1 -o work work.c || fail "cannot build"

out=$("$bin" measure --no-store --cache-sim off -- sh -c "./work; true" 2>&1) || fail "sh -c: exit $?"
grep -q "started 1 child process(es)" <<<"$out" || fail "no warning that the child's work is not counted"
out=$("$bin" measure --no-store --cache-sim off -- env ./work 2>&1); code=$?
[[ $code == 1 ]] || fail "env ./work: exit $code, expected 1"
grep -q "replaced itself with another program (exec" <<<"$out" || fail "the exec is not named as the cause"
# A wrapper that execs a program exiting 3: still 1 (refused, nothing measured), and the message
# says why the command's own status is not passed through.
cat >work3.c <<'C'
int main(void) { return 3; }
C
cc -O1 -o work3 work3.c || fail "cannot build"
printf '#!/bin/sh\nexec ./work3\n' >wrap3.sh && chmod +x wrap3.sh
out=$("$bin" measure --no-store --cache-sim off -- ./wrap3.sh 2>&1); code=$?
[[ $code == 1 ]] || fail "./wrap3.sh: exit $code, expected 1"
grep -q "roofline exits 1, not the command's status 3: the measurement was refused" <<<"$out" ||
  fail "the message does not say why the exit status is 1, not 3"
out=$("$bin" measure --no-store --cache-sim off -- ./work 2>&1) || fail "./work: exit $?"
grep -q "child process" <<<"$out" && fail "a program without children got the warning"
echo "PASS: forked work warned about, exec'd work an error naming it, a plain program neither"
