#!/usr/bin/env bash
# Issue 33: the run under the Valgrind tool killed by SIGKILL (as the OOM killer does) after the
# native run finished. Before: exit 1 ("the Valgrind tool wrote no counts") and the native timing
# thrown away, no file written. Now: exit 137 (128 + SIGKILL), which run died and why is said, and
# the native run's time is kept as a time-only point in -o and the store, marked in its provenance
# and the stored set's name. The same with --times (the earlier times kept).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
fail=0
# Runs natively to the end; under Valgrind (its preload mapped) it is killed by SIGKILL from outside,
# as by the OOM killer: a forked child sends it (Valgrind itself would handle a kill of itself).
cat >"$tmp/oom.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int under_valgrind(void) {
    FILE* maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (maps && fgets(line, sizeof line, maps))
        if (strstr(line, "vgpreload")) { found = 1; break; }
    if (maps) fclose(maps);
    return found;
}
int main(void) {
    volatile double s = 0;
    for (int i = 0; i < 1000000; ++i) s += i * 0.5;
    if (under_valgrind()) {
        const pid_t self = getpid();
        if (fork() == 0) { kill(self, SIGKILL); _exit(0); }
        for (;;) pause();
    }
    printf("%g\n", s);
    return 0;
}
C
cc -O1 "$tmp/oom.c" -o "$tmp/oom" || { echo "FAIL: cannot build the test program"; exit 1; }
cd "$tmp" || exit 1
check() {  # check NAME FILE DB: exit 137, said, a time-only point kept in FILE and DB
  local name=$1 file=$2 db=$3
  [[ $code == 137 ]] || { echo "FAIL: $name: exit $code, expected 137 (128 + SIGKILL)"; fail=1; }
  grep -q "run under the Valgrind tool (counts) was killed by SIGKILL (maybe by the OOM killer" err ||
    { echo "FAIL: $name: which run died and why is not said"; fail=1; }
  grep -q "kept: the native run's time, 1 time-only point" err || { echo "FAIL: $name: what was kept is not said"; fail=1; }
  jq -e '(.points | length) == 1 and .points[0].seconds > 0 and (.provenance.options.lost_run | test("SIGKILL"))' \
    "$file" >/dev/null 2>&1 || { echo "FAIL: $name: no time-only point marked in $file: $(head -c 400 "$file" 2>&1)"; fail=1; }
  "$bin" list --db "$db" 2>&1 | grep -q "(counting run killed by SIGKILL: time only)" ||
    { echo "FAIL: $name: not in the store, marked"; "$bin" list --db "$db" 2>&1 | sed 's/^/  | /'; fail=1; }
  (( fail )) && sed 's/^/  | /' err
}
timeout 120 "$bin" measure --engine instrument --db r.db -o p.json -- ./oom >out 2>err </dev/null; code=$?
check "native run + Valgrind run" p.json r.db
[[ $fail == 0 ]] && echo "ok: Valgrind run killed: exit 137, the native time kept and said"
# --times: the earlier run's times are what is kept.
"$bin" measure --engine time --no-store -o times.json -- ./oom >out 2>err </dev/null || { echo "FAIL: time run"; exit 1; }
timeout 120 "$bin" measure --times times.json --db r2.db -o p2.json -- ./oom >out 2>err </dev/null; code=$?
[[ $code == 137 ]] || { echo "FAIL: --times: exit $code, expected 137"; sed 's/^/  | /' err; fail=1; }
jq -e '(.points | length) == 1 and .points[0].seconds > 0' p2.json >/dev/null 2>&1 ||
  { echo "FAIL: --times: the earlier times were not kept"; sed 's/^/  | /' err; fail=1; }
grep -q "kept: the times of times.json, 1 time-only point" err || { echo "FAIL: --times: what was kept is not said"; fail=1; }
[[ $fail == 0 ]] && echo "ok: with --times, the earlier times kept, exit 137"
exit $fail
