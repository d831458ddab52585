#!/usr/bin/env bash
# roofline measure with programs that do odd things (issue 10): region names
# that are empty or not UTF-8 are kept (the run too); the marker library's
# errors (an end without a begin, a region never closed) are warnings naming
# the region; a 32-bit program under the default engine keeps its native time;
# every run of the instrument engine reads the same standard input (a pipe, a
# file). Parts needing the marker library, valgrind and the Valgrind tool, or a
# 32-bit build, say "skip" when those are missing; all missing: exit 77.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$(dirname "$bin")" && pwd)
lib=$build/lib
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
have_cc=0; command -v cc >/dev/null && have_cc=1
have_marker=0; [[ $have_cc == 1 && -e $lib/libroofline_marker.so ]] && have_marker=1
have_vg=0; command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]] && have_vg=1
done_parts=0

if [[ $have_marker == 1 ]]; then
  cat >"$tmp/odd.c" <<'C'
#include <roofline/roofline.h>
static volatile double x;
static void work(void) { for (int i = 0; i < 200000; ++i) x += i * 0.5; }
int main(void) {
    roofline_begin(""); work(); roofline_end("");
    roofline_begin("caf\xe9"); work(); roofline_end("caf\xe9");
    roofline_end("io"); roofline_end("io");     /* two ends without a begin */
    roofline_begin("left-open"); work();        /* never closed */
    return 0;
}
C
  cc -O1 "$tmp/odd.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" -o "$tmp/odd" ||
    fail "cannot compile the test program"
  engine=time; [[ $have_vg == 1 ]] && engine=instrument
  out=$("$bin" measure --engine $engine -o "$tmp/p.json" -- "$tmp/odd" 2>&1); code=$?
  [[ $code == 0 ]] || fail "exit $code: an odd region name rejected the run"
  grep -q "empty name: shown as (unnamed region)" <<<"$out" || fail "the empty name is not said"
  grep -q 'not UTF-8: shown as \\xNN' <<<"$out" || fail "the repaired name is not said"
  grep -q "end of region 'io' without a matching begin (2 times)" <<<"$out" || fail "the end without a begin is not said"
  grep -q "region 'left-open' was still open when the program ended" <<<"$out" || fail "the open region is not said"
  python3 - "$tmp/p.json" "$engine" <<'PY' || fail "points"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
for name in ("(unnamed region)", "caf\\xE9", "left-open", "(program)"):
    assert name in pts, (name, list(pts))
    assert pts[name]["seconds"] > 0, pts[name]
if sys.argv[2] == "instrument":  # the tool's counts merged under the same repaired names
    assert pts["(unnamed region)"]["flops"] > 0 and pts["caf\\xE9"]["flops"] > 0, pts
PY
  echo "ok: empty and non-UTF-8 region names kept ($engine engine), marker errors reported"
  done_parts=$((done_parts + 1))
else
  echo "skip (region names): no C compiler or marker library (target roofline_marker)"
fi

# A 32-bit program: the default engine falls back to time (the tool runs 64-bit programs only).
if [[ $have_cc == 1 ]] && printf 'void _start(void){__asm__ volatile("movl $1,%%eax; xorl %%ebx,%%ebx; int $0x80");}\n' >"$tmp/s32.c" &&
   cc -m32 -nostdlib -static -O1 "$tmp/s32.c" -o "$tmp/s32" 2>/dev/null && "$tmp/s32"; then
  out=$("$bin" measure -o "$tmp/p32.json" -- "$tmp/s32" 2>&1); code=$?
  [[ $code == 0 ]] || fail "exit $code for a 32-bit program under the default engine"
  jq -e '.points[] | select(.name == "(program)") | .seconds > 0' "$tmp/p32.json" >/dev/null || fail "no native time kept"
  if grep -q "engine: perf" <<<"$out"; then :; elif [[ $have_vg == 1 ]]; then
    grep -q "engine: time .*32-bit (ELF32)" <<<"$out" || fail "the fallback to the time engine is not said"
  fi
  out=$("$bin" measure --engine instrument --no-store -- "$tmp/s32" 2>&1); code=$?
  if [[ $have_vg == 1 ]]; then
    [[ $code == 1 ]] || fail "exit $code for --engine instrument on a 32-bit program, expected 1"
    grep -q "32-bit program (ELF32).*--engine time" <<<"$out" || fail "no clear refusal"
  fi
  echo "ok: a 32-bit program keeps its native time under the default engine"
  done_parts=$((done_parts + 1))
else
  echo "skip (32-bit): cannot build or run a 32-bit program here"
fi

# Standard input: every run of the instrument engine (the native runs, repeated since issue 35,
# and the one under the Valgrind tool) reads all of it.
if [[ $have_vg == 1 ]]; then
  seen=$tmp/seen
  reader=(sh -c "cat >> '$seen'; echo --- >> '$seen'")
  # Each run's input, then '---': at least two runs, all alike.
  same_runs() { python3 -c 'import sys; b=open(sys.argv[1]).read().split("---\n"); sys.exit(not (b[-1]=="" and len(b)>=3 and all(x==sys.argv[2] for x in b[:-1])))' "$seen" "$1"; }
  printf 'one\ntwo\n' | "$bin" measure --engine instrument --no-store -- "${reader[@]}" >"$tmp/out" 2>&1 ||
    { out=$(cat "$tmp/out"); fail "piped input: exit $?"; }
  same_runs $'one\ntwo\n' || { out=$(cat "$seen"); fail "the runs read different piped input"; }
  grep -q "standard input is a pipe" "$tmp/out" || { out=$(cat "$tmp/out"); fail "not said"; }
  # As USAGE says: the instrument engine repeats the native run with a pipe as without one (a
  # warm-up, up to 5 timed runs, the counting run); the time engine times it once.
  runs=$(grep -c -- '^---$' "$seen")
  [[ $runs -ge 4 ]] || { out=$(cat "$tmp/out"); fail "a piped input under the instrument engine: $runs runs, not repeated"; }
  rm -f "$seen"
  printf 'one\ntwo\n' | "$bin" measure --engine time --no-store -- "${reader[@]}" >"$tmp/out" 2>&1 ||
    { out=$(cat "$tmp/out"); fail "piped input, time engine: exit $?"; }
  [[ $(grep -c -- '^---$' "$seen") == 1 ]] || { out=$(cat "$tmp/out"); fail "a piped input under the time engine is timed more than once"; }
  grep -q "the native run is timed once (--repeat K" "$tmp/out" || { out=$(cat "$tmp/out"); fail "the single run is not said"; }
  rm -f "$seen"; printf 'a\nb\n' >"$tmp/in.txt"
  "$bin" measure --engine instrument --no-store -- "${reader[@]}" <"$tmp/in.txt" >"$tmp/out" 2>&1 ||
    { out=$(cat "$tmp/out"); fail "file input: exit $?"; }
  same_runs $'a\nb\n' || { out=$(cat "$seen"); fail "the runs read different file input"; }
  echo "ok: every run reads the same standard input (a pipe, a file)"
  done_parts=$((done_parts + 1))
else
  echo "skip (standard input): valgrind or the Valgrind tool (target roofline_vgtool) is missing"
fi
[[ $done_parts -gt 0 ]] || { echo "SKIPPED: nothing could run here"; exit 77; }
