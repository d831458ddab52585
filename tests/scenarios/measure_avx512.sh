#!/usr/bin/env bash
# AVX-512 programs (issue 35): a program built with -mavx512f used to run natively and
# then fail under Valgrind, which cannot decode EVEX instructions (its bug 383010).
# - the instrument engine refuses it before anything runs (the program never starts),
#   exit 1, in one message saying what, why and what to do; --engine time still times it;
# - --counts-from PROGRAM (the same source built without -mavx512f) gives the points
#   that build's FLOPs and the AVX-512 build's native time (it sleeps 0.4 s, the other
#   does not), regions matched by name (--region-function dot), the outputs compared
#   (a differing line is warned about), and the provenance says counted_from and the
#   ISA each run executed; a program with target_clones (AVX-512 chosen at run time) is
#   measured, with a warning that the counted and the timed run may run different code.
# SKIPPED (exit 77) without a C compiler that takes -mavx512f, a CPU and OS with AVX-512,
# objdump, jq, valgrind or the built Valgrind tool.
set -u
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
command -v objdump >/dev/null || { echo "SKIPPED: objdump (binutils) is not installed"; exit 77; }
grep -qw avx512f /proc/cpuinfo || { echo "SKIPPED: this CPU (or its OS) has no AVX-512"; exit 77; }
export ROOFLINE_DB=$tmp/results.db

cat >dot.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif
#define N 1000000
static double a[N], b[N];
__attribute__((noinline, noipa)) double dot(const double *x, const double *y, long n) {
#ifdef __AVX512F__
    __m512d s = _mm512_setzero_pd();
    for (long i = 0; i < n; i += 8) s = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), s);
    return _mm512_reduce_add_pd(s);
#else
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
#endif
}
int main(void) {
    FILE *ran = fopen("ran", "a");  /* says the program started */
    if (ran) fclose(ran);
    for (long i = 0; i < N; ++i) { a[i] = i & 7; b[i] = (i >> 3) & 3; }
    double s = 0;
    for (int r = 0; r < 10; ++r) s += dot(a, b, N);
#ifdef __AVX512F__
    usleep(400000);  /* the timed build is told from the counted one by its time */
#endif
    printf("dot = %.1f\n", s);
#ifdef EXTRA
    printf("one line more\n");
#endif
    return 0;
}
C
cc -O2 -mavx512f -o dot512 dot.c 2>/dev/null || { echo "SKIPPED: the C compiler does not take -mavx512f"; exit 77; }
cc -O2 -o dot_plain dot.c || fail "cannot build dot_plain"
cc -O2 -DEXTRA -o dot_extra dot.c || fail "cannot build dot_extra"
./dot512 >/dev/null || { echo "SKIPPED: the AVX-512 build does not run here"; exit 77; }
rm -f ran

# Refused before anything runs: the program never starts, exit 1, one message.
out=$("$bin" measure --engine instrument --no-store -- ./dot512 2>&1)
code=$?
[[ $code == 1 ]] || fail "an AVX-512 program under the instrument engine: expected exit 1, got $code"
[[ ! -e ran ]] || fail "the program ran before the refusal"
for needle in "./dot512 holds AVX-512 instructions (EVEX-encoded; " "found by objdump in dot" \
              "Valgrind bug 383010" "Nothing was run" "-mno-avx512f" "-mprefer-vector-width=256 is not enough" \
              "--counts-from" "--engine perf"; do
  grep -qF -- "$needle" <<<"$out" || fail "the refusal does not say '$needle'"
done
[[ $(grep -c "^roofline: error:" <<<"$out") == 1 ]] || fail "the refusal is not one message"
# auto picks the instrument engine where no hardware counters exist: refused the same way.
auto_engine=$("$bin" measure --engine auto --no-store --repeat 1 --cache-sim off -- ./dot_plain 2>&1)
rm -f ran
if ! grep -q "hardware counters are available" <<<"$auto_engine"; then
  out=$("$bin" measure --no-store -- ./dot512 2>&1)
  [[ $? == 1 && ! -e ran ]] && grep -q "holds AVX-512 instructions" <<<"$out" || fail "--engine auto ran or did not refuse"
fi
rm -f ran
# The --counts-from program is checked too: an AVX-512 build there is refused.
out=$("$bin" measure --no-store --counts-from ./dot512 -- ./dot512 2>&1)
[[ $? == 1 && ! -e ran ]] || fail "--counts-from an AVX-512 build: expected exit 1 before any run"
grep -qF "the --counts-from program ./dot512 holds AVX-512 instructions" <<<"$out" || fail "--counts-from's program is not named"
# The time engine does not run Valgrind: nothing to refuse.
out=$("$bin" measure --engine time --no-store --repeat 1 -- ./dot512 2>&1) || fail "--engine time of an AVX-512 program"
grep -q "holds AVX-512" <<<"$out" && fail "the time engine refused an AVX-512 program"
echo "ok: an AVX-512 program is refused before it runs, in one message"

# --counts-from: FLOPs from the build without AVX-512, time from the AVX-512 build's native run.
out=$("$bin" measure --no-store --repeat 1 --warmup 0 --region-function dot -o pts.json --counts-from ./dot_plain \
      -- ./dot512 2>&1) || fail "measure --counts-from"
jq -e '.points[] | select(.name == "(program)") | .flops > 1.99e7 and .flops < 2.01e7' pts.json >/dev/null ||
  fail "(program)'s FLOPs are not the counted build's 2e7: $(jq -c '[.points[] | {name, flops, seconds}]' pts.json)"
jq -e '.points[] | select(.name == "(program)") | .seconds >= 0.4' pts.json >/dev/null ||
  fail "(program)'s time is not the AVX-512 build's (>= 0.4 s): $(jq -c '[.points[] | {name, seconds}]' pts.json)"
jq -e '.points[] | select(.name == "<function dot>") | .flops > 1.99e7 and .flops < 2.01e7' pts.json >/dev/null ||
  fail "the region of dot is not matched by name across the builds: $(jq -c '[.points[] | {name, flops}]' pts.json)"
# Each counted point says its counts are another build's, so that judging it (report, plot) names
# that build's loads and stores first when it lands above its roof.
jq -e '[.points[] | select(.flops > 0) | .details.counted_from_other_build == 1] | length > 0 and all' pts.json >/dev/null ||
  fail "the counted points do not say they were counted in another build: $(jq -c '[.points[] | {name, details}]' pts.json)"
jq -e '.provenance.options | .counted_from == "./dot_plain" and .outputs_compared == "same" and
       (.isa_timed | test("avx512f")) and (.isa_counted | test("no AVX-512"))' pts.json >/dev/null ||
  fail "the provenance does not say counted_from, the outputs and each run's ISA: $(jq -c .provenance.options pts.json)"
grep -q "counts from ./dot_plain (--counts-from, under the Valgrind tool), time from ./dot512" <<<"$out" ||
  fail "the notes do not say where counts and time come from"
grep -q "both programs printed the same standard output" <<<"$out" || fail "the outputs' comparison is not said"
grep -qF "(GFLOP and bytes counted in ./dot_plain under Valgrind, --counts-from; seconds from ./dot512 run natively)" <<<"$out" ||
  fail "the table of points does not say where its figures come from"
grep -q "run under the Valgrind tool (counts of ./dot_plain)" <<<"$out" || fail "the counted program's run is not named"
echo "ok: --counts-from takes FLOPs from the plain build and the time from the AVX-512 build"

# Outputs that differ are warned about, with the first differing line.
out=$("$bin" measure --no-store --repeat 1 --warmup 0 --cache-sim off -o extra.json --counts-from ./dot_extra \
      -- ./dot512 2>&1) || fail "measure --counts-from a build printing more"
grep -q "warning: the two programs' standard outputs differ (./dot512: 17 bytes, natively; ./dot_extra: 31 bytes, under Valgrind); first differing line 2: '' against 'one line more'" <<<"$out" ||
  fail "differing outputs are not warned about with their first differing line"
jq -e '.provenance.options.outputs_compared | test("first differing line 2")' extra.json >/dev/null ||
  fail "the provenance does not keep the difference"
echo "ok: differing outputs are said"

# Code chosen by the CPU at run time (GCC target_clones: an ifunc and a dot.avx512f clone) is
# not refused: under Valgrind the default clone runs; the warning says the two runs may differ.
cat >clones.c <<'C'
#include <stdio.h>
#define N 100000
static double a[N], b[N];
__attribute__((target_clones("avx512f", "default"), noinline)) double dot(const double *x, const double *y, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}
int main(void) { for (long i = 0; i < N; ++i) { a[i] = i & 7; b[i] = 1; } printf("%.1f\n", dot(a, b, N)); return 0; }
C
if cc -O3 -o clones clones.c 2>/dev/null; then
  out=$("$bin" measure --no-store --repeat 1 --cache-sim off -o clones.json -- ./clones 2>&1) ||
    fail "a program with target_clones (AVX-512 chosen at run time) was not measured"
  grep -q "warning: the counted run and the timed run may have executed different code: clones (.*ifunc.*dot.avx512f" <<<"$out" ||
    fail "the run-time-dispatch warning does not name the program and its AVX-512 clone"
  grep -q "under Valgrind the CPU has no avx512f" <<<"$out" || fail "the warning does not say what the counting CPU lacks"
  # Each run's ISA level first; the counted run's CPU as this Valgrind says it presents (its hwcaps), not assumed.
  jq -e '.provenance.options | (.isa_timed | test("^avx512: this CPU.s CPUID: .*avx512f")) and
         (.isa_counted | test("^avx2: Valgrind [0-9.]+.s emulated CPU, chosen from the host.s hwcaps amd64-.*avx2.* \\(no AVX-512\\)$"))' \
    clones.json >/dev/null || fail "the provenance does not record each run's ISA: $(jq -c .provenance.options clones.json)"
  echo "ok: code chosen by the CPU at run time is measured, with a warning, each run's ISA recorded"
  # The time engine's one run: its ISA recorded, no counted run's.
  "$bin" measure --engine time --no-store --repeat 1 -o clones-time.json -- ./clones >/dev/null 2>&1 ||
    fail "measure --engine time ./clones"
  jq -e '.provenance.options | (.isa_timed | test("^avx512: ")) and .isa_counted == null' clones-time.json >/dev/null ||
    fail "the time engine's provenance: $(jq -c .provenance.options clones-time.json)"
  echo "ok: the time engine records the timed run's ISA"
else
  echo "note: the C compiler has no target_clones: run-time dispatch not checked"
fi
