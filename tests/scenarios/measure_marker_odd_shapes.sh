#!/usr/bin/env bash
# Marker regions in odd shapes, each against a hand count or a clear warning (instrument engine).
# adds() is N = 100000 adds in a loop and one more into a global: N + 1 = 100001 FLOPs a call.
#   unclosed  region 'open' never closed: N + 1, a warning that it was still open at the end
#   twice     region 'twice' closed twice: N + 1 (the second adds() after the first end is
#             outside), 1 call, (program) 2(N + 1); a warning of the end without a begin
#   threads   region 'threads' opened in two threads, adds() in each, both inside it at once (a
#             barrier before the end): 2(N + 1), 2 threads, 2 calls
#   fork      region 'parent' N + 1; region 'child' opened in a forked child: no point, a warning
#             naming it
#   names     spaces, UTF-8, quotes and a backslash, a tab, 4999 characters: each N + 1 under its
#             own name, the long one whole in the points file
#   reserved  regions named '(program)', '(roofline marker calls)' and '<function adds>', the names
#             measure gives points of its own: they were dropped beside the program's point, added
#             to the marker calls' calibration (8014 bytes loaded a call taken off every region,
#             instead of 76) or read as --region-function adds; now each is 'NAME (marker region)'
#             with N + 1, a warning says so, and the calls' cost is as in a run without them.
#   many      1030 distinct region names, adds() in each: the Valgrind tool keeps 1024 (the
#             calibration's two among them), so r1022 to r1029 have their time and no counts, which
#             was unsaid; a warning now names the first and the 8 calls.
set -u
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
marker_library_or_skip
cat >odd.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <roofline/roofline.h>
#define N 100000
static double x[N];
double sink;
__attribute__((noipa)) void adds(void) {
    double s = 0;
    for (int i = 0; i < N; ++i) s += x[i];
    sink += s;
}
static pthread_barrier_t both_inside;
static void* worker(void* unused) {
    (void)unused;
    roofline_begin("threads");
    adds();
    pthread_barrier_wait(&both_inside);  /* threads that open it in turn count as one */
    roofline_end("threads");
    return 0;
}
int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    for (int i = 0; i < N; ++i) x[i] = i;
    if (!strcmp(mode, "unclosed")) {
        roofline_begin("open");
        adds();
    } else if (!strcmp(mode, "endonly")) {
        roofline_end("only_ended");
        adds();
    } else if (!strcmp(mode, "twice")) {
        roofline_begin("twice");
        adds();
        roofline_end("twice");
        roofline_end("twice");
        adds();
    } else if (!strcmp(mode, "threads")) {
        pthread_t t[2];
        pthread_barrier_init(&both_inside, 0, 2);
        for (int i = 0; i < 2; ++i) pthread_create(&t[i], 0, worker, 0);
        for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
    } else if (!strcmp(mode, "fork")) {
        roofline_begin("parent");
        adds();
        roofline_end("parent");
        pid_t p = fork();
        if (p == 0) {
            roofline_begin("child");
            adds();
            roofline_end("child");
            _exit(0);
        }
        waitpid(p, 0, 0);
    } else if (!strcmp(mode, "names")) {
        static char longname[5000];
        memset(longname, 'L', sizeof longname - 1);
        const char* names[] = {"with space", "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "d" "\xc3\xa9" " " "\xe2\x88\x91", "quote\"and\\back",
                               "tab\there", longname};
        for (int k = 0; k < 5; ++k) {
            roofline_begin(names[k]);
            adds();
            roofline_end(names[k]);
        }
    } else if (!strcmp(mode, "many")) {
        char name[16];
        for (int k = 0; k < 1030; ++k) {
            snprintf(name, sizeof name, "r%04d", k);
            roofline_begin(name);
            adds();
            roofline_end(name);
        }
    } else if (!strcmp(mode, "reserved") || !strcmp(mode, "plain")) {
        const int plain = !strcmp(mode, "plain");
        const char* names[] = {"(program)", "(roofline marker calls)", "<function adds>"};
        const char* plain_names[] = {"a", "b", "c"};
        for (int k = 0; k < 3; ++k) {
            roofline_begin(plain ? plain_names[k] : names[k]);
            adds();
            roofline_end(plain ? plain_names[k] : names[k]);
        }
    }
    printf("%g\n", sink);
    return 0;
}
C
cc -O1 -I"$src/include" odd.c -L"$lib" -lroofline_marker -lpthread -Wl,-rpath,"$lib" -o odd ||
  { echo "SKIP: cannot build the program"; exit 77; }
N1=100001
run() {  # MODE: points in $1.json, output in $1.out
  "$bin" measure --engine instrument --no-store -o "$1.json" -- ./odd "$1" >"$1.out" 2>&1 || { cat "$1.out"; fail "$1: measure exit $?"; }
}
field() { jq -r --arg name "$2" ".points[] | select(.name == \$name) | $3" "$1.json"; }

run unclosed
[[ $(field unclosed open .flops) == "$N1" ]] || fail "unclosed: 'open' holds $(field unclosed open .flops) FLOPs, not N + 1"
grep -q "warning: region 'open' was still open when the program ended" unclosed.out || fail "unclosed: no warning"

run twice
[[ $(field twice twice .flops) == "$N1" && $(field twice twice .details.calls) == 1 ]] ||
  fail "twice: 'twice' holds $(field twice twice .flops) FLOPs in $(field twice twice .details.calls) calls, not N + 1 in 1"
[[ $(field twice '(program)' .flops) == $((2 * N1)) ]] || fail "twice: (program) is not 2(N + 1)"
grep -q "end of region 'twice' without a matching begin" twice.out || fail "twice: no warning of the second end"

# A region only ended, never begun: it never ran (it was said 'counted, but no native timing').
run endonly
grep -q "not placed: only_ended (ended without a begin: it never ran)" endonly.out ||
  fail "endonly: the region never begun is not said to have never run"

run threads
[[ $(field threads threads .flops) == $((2 * N1)) && $(field threads threads .threads) == 2 && \
   $(field threads threads .details.calls) == 2 ]] || fail "threads: $(jq -c '.points[0]' threads.json)"

run fork
[[ $(field fork parent .flops) == "$N1" ]] || fail "fork: 'parent' is not N + 1"
[[ -z $(field fork child .flops) ]] || fail "fork: the child's region has a point"
grep -q "forked child process of the command opened marker regions ('child')" fork.out || fail "fork: the child's region is not named"

run names
long=$(printf 'L%.0s' $(seq 4999))
for name in "with space" "$(printf '\xc3\xbcn\xc3\xafc\xc3\xb6d\xc3\xa9 \xe2\x88\x91')" 'quote"and\back' "$(printf 'tab\there')" "$long"; do
  [[ $(field names "$name" .flops) == "$N1" ]] || fail "names: '${name:0:20}' is not N + 1: $(jq -c '[.points[].name | .[0:20]]' names.json)"
done

run plain
run reserved
for name in "(program)" "(roofline marker calls)" "<function adds>"; do
  [[ $(field reserved "$name (marker region)" .flops) == "$N1" ]] ||
    fail "reserved: no point '$name (marker region)' of N + 1: $(jq -c '[.points[] | [.name, .flops]]' reserved.json)"
  grep -qF "region name '$name' is one roofline measure gives points of its own" reserved.out || fail "reserved: '$name' not said"
done
[[ $(field reserved '(program)' .flops) == $((3 * N1)) ]] || fail "reserved: (program) is not 3(N + 1)"
grep -q "no function of that name" reserved.out && fail "reserved: '<function adds>' read as --region-function"
cost() { grep -o "the marker calls' own under the Valgrind tool: [0-9]* bytes loaded, [0-9]* stored and [0-9]* instructions" "$1.out"; }
[[ -n $(cost plain) && $(cost reserved) == "$(cost plain)" ]] ||
  fail "reserved: the marker calls' cost is '$(cost reserved)', without those names '$(cost plain)'"
run many
[[ $(field many r1021 .flops) == "$N1" && $(field many r1022 .flops) == null ]] ||
  fail "many: r1021 $(field many r1021 .flops), r1022 $(field many r1022 .flops) FLOPs"
grep -q "counts at most 1024 distinct region names .*: 8 call(s) of regions past them, the first 'r1022', were not counted" many.out ||
  fail "many: the regions past the tool's limit are not said"

echo "ok: unclosed, closed twice, two threads, fork, odd names and measure's own names: each N + 1 = $N1 a call"
