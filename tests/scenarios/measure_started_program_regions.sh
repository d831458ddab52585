#!/usr/bin/env bash
# A program the measured one starts (system(), fork and exec) that loads the marker library too
# inherited ROOFLINE_MARKER_OUT and wrote the parent's results file at its exit, without a word:
# after the parent's roofline_finalize() (LIKWID_MARKER_CLOSE) its region 'step' replaced the
# parent's (20 ms of sleep reported as the child's 200 ms), and in a parent that opened no region
# its regions became the parent's points. Now the started program writes nothing there, its regions
# are named in a warning with its program, and the parent's points are its own; a program started
# by a shell wrapper that loads no library (sh -c) still has its points, with no warning.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
cat >"$tmp/parent.c" <<'C'
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static void sleep_ms(long ms) { struct timespec t = {ms / 1000, (ms % 1000) * 1000000L}; nanosleep(&t, 0); }
int main(int argc, char** argv) {
    const char* how = argv[1];
    char command[4096];
    snprintf(command, sizeof command, "'%s' child", argv[0]);
    if (!strcmp(how, "child")) {  /* the started program: 'step' of its own, and 'helper' */
        roofline_begin("step"); sleep_ms(200); roofline_end("step");
        roofline_begin("helper"); sleep_ms(10); roofline_end("helper");
        return 0;
    }
    if (!strcmp(how, "alone")) { roofline_begin("step"); sleep_ms(20); roofline_end("step"); return 0; }
    if (!strcmp(how, "finalize")) {
        roofline_begin("step"); sleep_ms(20); roofline_end("step");
        roofline_finalize();
        return system(command) == 0 ? 0 : 1;
    }
    if (!strcmp(how, "forkexec")) {
        roofline_begin("step"); sleep_ms(20); roofline_end("step");
        pid_t p = fork();
        if (p == 0) { execl(argv[0], argv[0], "child", (char*)0); _exit(127); }
        waitpid(p, 0, 0);
        return 0;
    }
    /* "quiet": no region of its own */
    return system(command) == 0 ? 0 : 1;
}
C
cc -O1 "$tmp/parent.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" -o "$tmp/parent" ||
  { echo "FAIL: cannot compile the test program"; exit 1; }
command -v jq >/dev/null || { echo "SKIPPED: jq is needed"; exit 77; }
fail=0
point() { jq -r --arg n "$2" "[.points[] | select(.name == \$n)] | if length == 0 then \"none\" else .[0].$3 end" "$1"; }
for how in finalize forkexec; do
  "$bin" measure --engine time --no-store --repeat 1 -o "$tmp/$how.json" -- "$tmp/parent" $how >"$tmp/$how.out" 2>&1 ||
    { echo "FAIL: $how: exit $?"; sed 's/^/  | /' "$tmp/$how.out"; fail=1; continue; }
  s=$(point "$tmp/$how.json" step seconds)
  # The parent's 'step' sleeps 20 ms, the started program's 200 ms.
  awk -v s="$s" 'BEGIN { exit !(s >= 0.019 && s < 0.15) }' ||
    { echo "FAIL: $how: 'step' is ${s} s, not the parent's 20 ms"; fail=1; }
  [[ $(point "$tmp/$how.json" helper name) == none ]] ||
    { echo "FAIL: $how: the started program's region 'helper' became a point of the command"; fail=1; }
  grep -q "warning: 1 process that the command started running parent (system(), popen, or fork and exec) opened marker regions ('helper', 'step')" "$tmp/$how.out" ||
    { echo "FAIL: $how: the started program's regions are not named in a warning"; sed 's/^/  | /' "$tmp/$how.out"; fail=1; }
done
"$bin" measure --engine time --no-store --repeat 1 -o "$tmp/quiet.json" -- "$tmp/parent" quiet >"$tmp/quiet.out" 2>&1 ||
  { echo "FAIL: quiet: exit $?"; fail=1; }
[[ $(jq '[.points[] | select(.name != "(program)")] | length' "$tmp/quiet.json") == 0 ]] ||
  { echo "FAIL: a parent without regions got the started program's: $(jq -c '[.points[].name]' "$tmp/quiet.json")"; fail=1; }
grep -q "opened marker regions ('helper', 'step')" "$tmp/quiet.out" ||
  { echo "FAIL: quiet: no warning naming the started program's regions"; sed 's/^/  | /' "$tmp/quiet.out"; fail=1; }
# A shell that loads no library, starting the program: the program is the first to load it, so its
# regions are the command's, as before.
"$bin" measure --engine time --no-store --repeat 1 -o "$tmp/sh.json" -- sh -c "'$tmp/parent' alone; true" \
  >"$tmp/sh.out" 2>&1 || { echo "FAIL: sh -c: exit $?"; fail=1; }
[[ $(point "$tmp/sh.json" step calls) != none ]] ||
  { echo "FAIL: sh -c: the program's region has no point"; sed 's/^/  | /' "$tmp/sh.out"; fail=1; }
grep -q "process that the command started" "$tmp/sh.out" && { echo "FAIL: sh -c: warned"; fail=1; }
[[ $fail == 0 ]] && echo "ok: a started program's regions are named, not written over the command's"
exit $fail
