#!/usr/bin/env bash
# AVX-512 code in a library the program opens with dlopen: the scan before the runs sees only the
# program and the libraries ldd lists, so the instrument engine runs it, and Valgrind dies on SIGILL
# at the first EVEX instruction. Before: exit 1 ("Valgrind stopped at an instruction it cannot
# decode"), no points, the native runs' time thrown away. Now, as USAGE says for a counting run
# killed by signal N: exit 128 + 4 (SIGILL), the native time kept as time-only points (-o and the
# store), and the cause named (AVX-512 code loaded at run time; the library, what to do).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
grep -qw avx512f /proc/cpuinfo || { echo "SKIP: this CPU has no AVX-512F"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
fail=0
cat >"$tmp/lib512.c" <<'C'
__attribute__((target("avx512f"))) double sum512(const double* a, long n) {
    double s = 0;
    __asm__ volatile("vpxord %%zmm1, %%zmm1, %%zmm1" ::: "xmm1");  /* EVEX, whatever the compiler emits */
    for (long i = 0; i < n; ++i) s += a[i];
    return s;
}
C
cat >"$tmp/dl.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char** argv) {
    void* h = dlopen(argv[1], RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
    double (*f)(const double*, long) = (double (*)(const double*, long))dlsym(h, "sum512");
    static double a[100000];
    for (long i = 0; i < 100000; ++i) a[i] = 1;
    printf("%g\n", f(a, 100000));
    return 0;
}
C
cc -O1 -shared -fPIC "$tmp/lib512.c" -o "$tmp/lib512.so" && cc -O1 "$tmp/dl.c" -o "$tmp/dl" -ldl ||
  { echo "FAIL: cannot build the test programs"; exit 1; }
cd "$tmp" || exit 1
./dl ./lib512.so >/dev/null || { echo "SKIP: the AVX-512 library does not run natively here"; exit 77; }
timeout 300 "$bin" measure --engine instrument --db r.db -o p.json -- ./dl ./lib512.so >out 2>err </dev/null; code=$?
[[ $code == 132 ]] || { echo "FAIL: exit $code, expected 132 (128 + SIGILL)"; fail=1; }
grep -q "AVX-512 code loaded at run time (dlopen)" err || { echo "FAIL: the cause is not named"; fail=1; }
grep -q "lib512.so" err || { echo "FAIL: the library holding the instruction is not named"; fail=1; }
grep -q -- "--counts-from" err && grep -q -- "--engine perf" err || { echo "FAIL: what to do is not said"; fail=1; }
grep -q "kept: the native run's time, 1 time-only point" err || { echo "FAIL: what was kept is not said"; fail=1; }
jq -e '(.points | length) == 1 and .points[0].seconds > 0 and .points[0].work == null and
       (.provenance.options.lost_run | test("SIGILL") and test("dlopen"))' p.json >/dev/null 2>&1 ||
  { echo "FAIL: no time-only point marked in p.json: $(head -c 600 p.json 2>&1)"; fail=1; }
"$bin" list --db r.db 2>&1 | grep -q "(counting run killed by SIGILL: time only)" ||
  { echo "FAIL: not in the store, marked"; fail=1; }
(( fail )) && sed 's/^/  | /' err
[[ $fail == 0 ]] && echo "ok: AVX-512 code opened with dlopen: exit 132, the native time kept, the cause named"
exit $fail
