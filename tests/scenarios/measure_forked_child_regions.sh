#!/usr/bin/env bash
# Marker regions a forked child opens are lost under the time engine (the results file is the
# process roofline started): before, region 'child' vanished without a word, while the instrument
# engine warned that only the first process is counted. Now the marker library names each region a
# forked child opens, and measure warns, naming them; a program that does not fork gets no warning.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
cat >"$tmp/forky.c" <<'C'
#include <roofline/roofline.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static double work(long n) { volatile double s = 0; for (long i = 0; i < n; ++i) s += i * 0.5; return s; }
int main(int argc, char** argv) {
    roofline_begin("parent"); double s = work(100000); roofline_end("parent");
    if (argc > 1 && !strcmp(argv[1], "fork")) {
        pid_t p = fork();
        if (p == 0) {
            roofline_begin("child"); work(100000); roofline_end("child");
            roofline_begin("child two"); work(1000); roofline_end("child two");
            _exit(0);
        }
        waitpid(p, 0, 0);
    }
    printf("%g\n", s);
    return 0;
}
C
cc -O1 "$tmp/forky.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" -o "$tmp/forky" ||
  { echo "FAIL: cannot compile the test program"; exit 1; }
fail=0
"$bin" measure --engine time --no-store -o "$tmp/p.json" -- "$tmp/forky" fork >"$tmp/out" 2>&1 ||
  { echo "FAIL: exit $?"; fail=1; }
grep -q "warning: 1 forked child process of the command opened marker regions ('child', 'child two')" "$tmp/out" ||
  { echo "FAIL: the forked child's regions are not named in a warning"; fail=1; }
grep -q "'parent'" <(grep warning "$tmp/out") && { echo "FAIL: the parent's region is named as lost"; fail=1; }
command -v jq >/dev/null && { jq -e '[.points[].name] | index("parent") != null' "$tmp/p.json" >/dev/null ||
  { echo "FAIL: the parent's region has no point"; fail=1; }; }
"$bin" measure --engine time --no-store -- "$tmp/forky" >"$tmp/out2" 2>&1 || { echo "FAIL: no fork: exit $?"; fail=1; }
grep -q "forked child" "$tmp/out2" && { echo "FAIL: a warning without a fork"; fail=1; }
(( fail )) && { sed 's/^/  | /' "$tmp/out"; }
[[ $fail == 0 ]] && echo "ok: a forked child's regions are named in a warning under the time engine"
exit $fail
