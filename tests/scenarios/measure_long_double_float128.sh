#!/usr/bin/env bash
# Precisions the instrument engine cannot count as the hardware computes them: x87 long
# double arithmetic (VEX computes it in double: counted as f64, and a note says how many
# FLOPs were x87 and where) and __float128 (software: libgcc's __addtf3, __multf3, no FP
# instructions at all: a warning says its operations are not in the FLOPs). Before, both
# were silent: a long double sum was an f64 point, a binary128 dot product 0 FLOPs.
# SKIPPED (exit 77) without a C compiler, libquadmath, valgrind or the Valgrind tool.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(cd "$(dirname "$bin")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) missing"; exit 77; }

# ldsum: N long double adds (x87 fadd). qdot: N binary128 multiplies and N adds (software).
cat >"$tmp/prec.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#define N 20000
__attribute__((noinline)) long double ldsum(const long double* a, int n) {
    long double s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s;
}
__attribute__((noinline)) __float128 qdot(const __float128* a, const __float128* b, int n) {
    __float128 s = 0; for (int i = 0; i < n; ++i) s += a[i] * b[i]; return s;
}
int main(int argc, char** argv) {
    long double* a = malloc(N * sizeof *a);
    __float128 *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; ++i) { a[i] = 1; x[i] = 1; y[i] = 0.5; }
    long double s = ldsum(a, N);
    double q = argc > 1 ? (double)qdot(x, y, N) : 0;
    printf("%Lg %g\n", s, q);
    return 0;
}
C
cc -O2 "$tmp/prec.c" -o "$tmp/prec" || { echo "SKIP: cannot build a __float128 program"; exit 77; }

out=$("$bin" measure --no-store --engine instrument --cache-sim off -o "$tmp/ld.json" -- "$tmp/prec" 2>&1); code=$?
[[ $code == 0 ]] || fail "exit $code"
grep -q "20000 of the FLOPs are x87 instructions (long double arithmetic, in ldsum): counted as f64" <<<"$out" ||
  fail "the x87 FLOPs are not said"
grep -q "binary128" <<<"$out" && fail "binary128 said of a run that did none"
python3 - "$tmp/ld.json" <<'PY' || fail "the long double point"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
d = pts["(program)"]["details"]
assert pts["(program)"]["flops"] == 20000 and d["flops_f64_add"] == 20000, d
PY
echo "ok: x87 long double adds counted as f64, and said"

# A long double dot product (gcc -O2, 1e6 x 20): every point, the program, its functions and its
# loops, carries flops_x87, and report tells it to leave x87 (leave_x87), not to vectorize
# (-O3 -march=native: 57.9 ms against 58.1; 4 accumulators: 58.3; in double: 18.9) nor to split
# its chain; still on the double roofline.
cat >"$tmp/ld.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#define N 1000000
__attribute__((noipa)) long double lddot(const long double* a, const long double* b, int n) {
    long double s = 0; for (int i = 0; i < n; ++i) s += a[i] * b[i]; return s;
}
int main(void) {
    long double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; ++i) { a[i] = 1.0L / (i + 1); b[i] = 0.5L; }
    long double s = 0;
    for (int r = 0; r < 20; ++r) s += lddot(a, b, N);
    printf("%Lg\n", s);
    return 0;
}
C
cc -O2 "$tmp/ld.c" -o "$tmp/ld" || fail "cannot build the long double program"
out=$("$bin" measure --no-store --engine instrument --cache-sim off --functions --loops -o "$tmp/ldd.json" -- "$tmp/ld" 2>&1); code=$?
[[ $code == 0 ]] || fail "exit $code"
out=$("$bin" report --machine "$(dirname "$0")/../data/advice-machine-zen4.json" --points "$tmp/ldd.json" --format json 2>"$tmp/report.err"); code=$?
[[ $code == 0 ]] || fail "report exit $code"
python3 - "$tmp/ldd.json" <(printf '%s' "$out") <<'PY2' || fail "the long double dot product's advice"
import json, sys
pts = json.load(open(sys.argv[1]))["points"]
names = [p["name"] for p in pts]
assert "(program)" in names and "lddot" in names and any(n.startswith("lddot: lddot+") for n in names), names
for p in pts:
    if p["name"].startswith("lddot") or p["name"] == "(program)":
        assert p["details"].get("flops_x87", 0) >= 0.97 * p["flops"] > 0, (p["name"], p["flops"], p["details"])
rep = json.load(open(sys.argv[2]))
assert rep["roofline"]["precision"] == "dp", rep["roofline"]
flops = {p["name"]: p["flops"] for p in pts}
program = flops["(program)"]
for p in rep["points"]:
    kinds = [s["kind"] for s in p["next_steps_typed"]]
    text = " ".join(p["next_steps"])
    assert "vectorize" not in kinds and "split_chain" not in kinds, (p["point"], kinds)
    # The repeat loop's own 20 adds, when a time sample lands in it (by chance), are a point whose
    # FLOPs are not its time: told so (flops_not_the_time), not to leave x87. Every other point is.
    if "flops_not_the_time" in kinds and flops.get(p["point"], program) < 1e-3 * program:
        continue
    assert "leave_x87" in kinds, (p["point"], kinds)
    assert "-O3" not in text and "x87 unit has no SIMD form" in text, (p["point"], text)
PY2
echo "ok: long double code is told to leave x87 (leave_x87), not to vectorize"

out=$("$bin" measure --no-store --engine instrument --cache-sim off -o "$tmp/q.json" -- "$tmp/prec" q 2>&1); code=$?
[[ $code == 0 ]] || fail "exit $code"
grep -q "warning: the program does binary128 (__float128) arithmetic in software (__addtf3, __multf3 ran" <<<"$out" ||
  fail "the software binary128 arithmetic is not warned of"
python3 - "$tmp/q.json" <<'PY' || fail "the binary128 point"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
q = pts["(program)"]
# the 2N binary128 operations are not counted, as the warning says: the x87 adds only
assert q["flops"] == 20000, q
PY
echo "ok: software binary128 arithmetic warned of as not counted"

# Inexact binary128 values (1/(i+3)): after each inexact operation libgcc's soft-fp calls
# __sfp_handle_exceptions, which runs one real divss to raise the inexact flag. Those were
# counted: 2 f32 FLOPs an element, an f32 point at 0.045 GFLOP/s told to vectorize that helper.
cat >"$tmp/qi.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#define N 20000
__attribute__((noinline)) __float128 qdot(const __float128* a, const __float128* b, int n) {
    __float128 s = 0; for (int i = 0; i < n; ++i) s += a[i] * b[i]; return s;
}
int main(void) {
    __float128 *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; ++i) { x[i] = 1.0Q / (i + 3); y[i] = 0.5; }
    printf("%g\n", (double)qdot(x, y, N));
    return 0;
}
C
cc -O2 "$tmp/qi.c" -o "$tmp/qi" || fail "cannot build the inexact __float128 program"
out=$("$bin" measure --no-store --engine instrument --cache-sim off --functions -o "$tmp/qi.json" -- "$tmp/qi" 2>&1); code=$?
[[ $code == 0 ]] || fail "exit $code"
grep -q "warning: the program does binary128 (__float128) arithmetic in software (__addtf3, __divtf3, __multf3 ran" <<<"$out" ||
  fail "the software binary128 arithmetic is not warned of"
grep -q "floating-point operations libgcc's __sfp_handle_exceptions ran only to raise the exception flags" <<<"$out" ||
  fail "the flag-raising operations left out are not said"
python3 - "$tmp/qi.json" <<'PY2' || fail "the inexact binary128 points"
import json, sys
pts = json.load(open(sys.argv[1]))["points"]
for p in pts:
    d = p["details"]
    f32 = sum(v for k, v in d.items() if k.startswith("flops_f32_"))
    assert p["flops"] == 0 and f32 == 0, (p["name"], p["flops"], f32)
assert any(p["name"] == "(program)" for p in pts), [p["name"] for p in pts]
PY2
echo "ok: inexact binary128: __sfp_handle_exceptions' flag-raising divss not counted, warning kept"

# libquadmath loaded but not called (every gfortran program loads it through libgfortran): the
# loader runs its PLT, frame_dummy and constructor code (182 instructions), which was warned
# of as binary128 arithmetic. Called (sqrtq), it is warned of.
cat >"$tmp/qm.c" <<'C'
#include <stdio.h>
#include <quadmath.h>
int main(int argc, char** argv) {
    double r = 0;
    if (argc > 1) { __float128 x = argc; r = (double)sqrtq(x); }
    printf("%g\n", r);
    return 0;
}
C
if cc -O2 "$tmp/qm.c" -o "$tmp/qm" -Wl,--no-as-needed -lquadmath 2>/dev/null; then
  out=$("$bin" measure --no-store --engine instrument --cache-sim off -o "$tmp/qm.json" -- "$tmp/qm" 2>&1); code=$?
  [[ $code == 0 ]] || fail "exit $code"
  grep -q "binary128" <<<"$out" && fail "binary128 said of a program that only loads libquadmath"
  out=$("$bin" measure --no-store --engine instrument --cache-sim off -o "$tmp/qm.json" -- "$tmp/qm" q 2>&1); code=$?
  [[ $code == 0 ]] || fail "exit $code"
  grep -q "binary128 (__float128) arithmetic in software ([0-9]* functions of libquadmath" <<<"$out" ||
    fail "libquadmath's sqrtq is not warned of"
  echo "ok: libquadmath loaded and not called is not warned of; called, it is"
else
  echo "note: no libquadmath.h to link against: its case left out"
fi
