#!/usr/bin/env bash
# Function points whose advice cannot help. A naive recursive Fibonacci on doubles (each call: an
# add or none, about 15 instructions) was told to vectorize with -O3 -march=native, which changed
# nothing (6.55 ms, 6.47 after): measure --functions now writes each function's calls (the Valgrind
# tool's entries), instructions and file, and report puts call_overhead in vectorize's place. An
# FFTW codelet (libfftw3, a library the user does not build) was told "-march=native" and "raise
# the intensity": it now gets library_code alone, naming the library; the program's own function
# with real work per call keeps its advice.
# SKIPPED (exit 77) without a C compiler, valgrind or the Valgrind tool; the FFTW part without FFTW.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(cd "$(dirname "$bin")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) missing"; exit 77; }

# fib: 635,621 calls per fib(27), half of them one add. scale: a loop of its own, 2 FLOPs per
# element over 200,000 elements per call, 40 calls (scalar at -O1: vectorize stays its advice).
cat >"$tmp/fib.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
double fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
// A loop at its first instruction (no prologue): that instruction's runs are passes, not calls.
__attribute__((noinline)) void square(double* a, double* end) { do { *a = *a * *a; a++; } while (a < end); }
__attribute__((noinline)) double scale(double* a, int n, double x) {
    double s = 0; for (int i = 0; i < n; ++i) { a[i] = a[i] * x + 1.0; s += a[i]; } return s;
}
int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 27;
    double s = 0;
    for (int r = 0; r < 10; ++r) s += fib(n);
    double* a = calloc(200000, sizeof *a);
    for (int r = 0; r < 40; ++r) s += scale(a, 200000, 0.5);
    for (int r = 0; r < 40; ++r) square(a, a + 200000);
    printf("%f\n", s);
    return 0;
}
C
cc -O1 -g "$tmp/fib.c" -o "$tmp/fib" || { echo "SKIP: cannot build a C program"; exit 77; }
out=$("$bin" measure --no-store --functions --cache-sim off -o "$tmp/fib.json" -- "$tmp/fib" 27 2>&1); code=$?
[[ $code == 0 ]] || fail "measure exit $code"
python3 - "$tmp/fib.json" <<'PY' || fail "fib's point carries no calls"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
d = pts["fib"]["details"]
assert d["function_calls"] == 6356210, d      # 10 x (2 fib(28) - 1)
assert 5 <= d["instructions"] / d["function_calls"] <= 30, d
assert pts["fib"]["object"].endswith("/fib"), pts["fib"]
assert "function_calls" not in pts["square"]["details"], pts["square"]   # 8M passes are no calls
PY
grep -q "square: a loop starts at its first instruction, so the runs of that instruction are not its calls" <<<"$out" ||
  fail "no note on square's calls"
out=$("$bin" report --machine "$(dirname "$0")/../data/advice-machine-zen4.json" --points "$tmp/fib.json" --format json 2>&1); code=$?
[[ $code == 0 ]] || fail "report exit $code"
python3 - <<PY || fail "fib's next steps"
import json
r = json.loads('''$out''')
steps = {a["point"]: [s["kind"] for s in a["next_steps_typed"]] for a in r["points"]}
fib = steps["fib"]
assert fib and fib[0] == "call_overhead", steps
assert "vectorize" not in fib and "widen_vectors" not in fib and "split_chain" not in fib, steps
assert "vectorize" in steps.get("scale", ["vectorize"]), steps   # its own work: advice kept
assert "call_overhead" not in steps["square"], steps
step = [s for a in r["points"] if a["point"] == "fib" for s in a["next_steps_typed"]][0]
assert step["calls"] == 6356210 and step["flops_per_call"] < 1, step
PY
text=$("$bin" report --machine "$(dirname "$0")/../data/advice-machine-zen4.json" --points "$tmp/fib.json" 2>&1)
grep -q "0.500 FLOPs and 15.0 instructions per call over 6.36e+06 calls" <<<"$text" || { out=$text; fail "the text"; }
echo "ok: fib is told about its calls (call_overhead), not to vectorize"

# FFTW: its codelets' points are library code.
cat >"$tmp/fft.c" <<'C'
#include <fftw3.h>
#include <stdio.h>
int main(void) {
    int n = 1 << 16;
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * n), *out = fftw_malloc(sizeof(fftw_complex) * n);
    fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    for (int i = 0; i < n; ++i) { in[i][0] = i % 7; in[i][1] = 0; }
    for (int r = 0; r < 40; ++r) fftw_execute(p);
    printf("%f\n", out[1][0]);
    fftw_destroy_plan(p); fftw_free(in); fftw_free(out);
    return 0;
}
C
cc -O2 "$tmp/fft.c" -o "$tmp/fft" -lfftw3 -lm 2>/dev/null || { echo "ok (FFTW part skipped: no libfftw3 to link)"; exit 0; }
out=$("$bin" measure --no-store --functions --cache-sim off -o "$tmp/fft.json" -- "$tmp/fft" 2>&1); code=$?
[[ $code == 0 ]] || fail "measure exit $code"
out=$("$bin" report --machine "$(dirname "$0")/../data/advice-machine-zen4.json" --points "$tmp/fft.json" --format json 2>&1); code=$?
[[ $code == 0 ]] || fail "report exit $code"
python3 - <<PY || fail "FFTW's next steps"
import json
r = json.loads('''$out''')
lib = [a for a in r["points"] if "libfftw3" in a["point"]]
assert lib, [a["point"] for a in r["points"]]
for a in lib:
    kinds = [s["kind"] for s in a["next_steps_typed"]]
    assert kinds == ["library_code"], (a["point"], kinds)
    assert a["next_steps_typed"][0]["library"].startswith("libfftw3.so"), a["next_steps_typed"]
    said = " ".join(a["next_steps"])
    assert "build for this CPU (-march" not in said and "raise the intensity" not in said, said
    assert a["binding_roof"] and a["headroom"], a   # the roofline's facts stay
# The program's point too: its FLOPs are all in libfftw3 (measure without --functions says so).
prog = [a for a in r["points"] if a["point"] == "(program)"]
assert prog and [s["kind"] for s in prog[0]["next_steps_typed"]] == ["library_code"], prog
PY
echo "ok: FFTW's codelets are library code (library_code), not told compiler flags"
