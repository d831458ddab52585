#!/usr/bin/env bash
# Two libraries that each have a function `kern` (liba's adds, libb's multiplies) were one `kern`
# row with both libraries' FLOPs (6M), and --region-function kern counted both without saying it
# matched two functions. Functions are now told apart by their file as well as their name: two
# rows "kern (liba.so)" and "kern (libb.so)", each with its own counts and sampled time;
# --region-function kern measures both and warns naming both; 'kern (libb.so)' picks one. Code
# generated at run time (an FMA loop in an mmap'ed PROT_EXEC buffer) was named "(unknown)"; it is
# "(code outside any file: generated at run time)", counted exactly.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
[[ $(uname -m) == x86_64 ]] && grep -qw fma /proc/cpuinfo || { echo "SKIP: the generated code is x86-64 FMA"; exit 77; }
export HOME=$tmp
cd "$tmp"
# static: each library calls its own kern (an exported one would be interposed: liba's for both)
cat >a.c <<'C'
__attribute__((noinline)) static double kern(const double* x, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i];   /* 1 add an element */
    return s;
}
double run_a(const double* x, long n) { return kern(x, n); }
C
sed -e 's/double s = 0;/double s = 1;/' -e 's/s += x\[i\];   \/\* 1 add/s *= x[i];   \/* 1 multiply/' \
    -e 's/run_a/run_b/' a.c >b.c
cat >main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
double run_a(const double* x, long n);
double run_b(const double* x, long n);
int main(void) {
    long n = 1000000;
    double* x = malloc(n * sizeof *x);
    for (long i = 0; i < n; ++i) x[i] = 1.0;
    double s = run_a(x, n) + run_a(x, n) + run_a(x, n) + run_a(x, n);   /* liba: 4M adds */
    s += run_b(x, n) + run_b(x, n);                                       /* libb: 2M multiplies */
    /* vfmadd231sd xmm0,xmm1,xmm2; dec rdi; jnz back; ret: 2 FLOPs a pass */
    static const unsigned char code[] = {0xc4, 0xe2, 0xf1, 0xb9, 0xc2, 0x48, 0xff, 0xcf, 0x75, 0xf6, 0xc3};
    unsigned char* buf = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) return 2;
    memcpy(buf, code, sizeof code);
    double (*fma_loop)(long, double, double, double) = (double (*)(long, double, double, double))(void*)buf;
    s += fma_loop(500000, 0.0, 1.0, 1.0);                                  /* 1M FLOPs */
    printf("%g\n", s);
    return 0;
}
C
cc -O1 -fno-tree-vectorize -fPIC -shared -o liba.so a.c && cc -O1 -fno-tree-vectorize -fPIC -shared -o libb.so b.c &&
  cc -O1 -o prog main.c -L. -la -lb -Wl,-rpath,"$tmp" || { echo "SKIP: cannot build the programs"; exit 77; }
[[ $(./prog) == 4.5e+06 ]] || { echo "SKIP: the program does not run here (PROT_EXEC refused?)"; exit 77; }
"$bin" measure --engine instrument --functions --region-function kern --no-store -o pts.json -- ./prog >out 2>&1 ||
  { echo "FAIL: measure exit $?"; cat out; exit 1; }
fail=0
flops() { jq -r --arg n "$1" '[.points[] | select(.name == $n) | .flops] | if length == 1 then .[0] else "rows: \(length)" end' "$2"; }
# On paper: liba's kern 4 x 1e6 adds, libb's 2 x 1e6 multiplies, the generated loop 500000 FMAs.
for want in "kern (liba.so)=4000000" "kern (libb.so)=2000000" "(code outside any file: generated at run time)=1000000" \
            "<function kern>=6000000"; do
  got=$(flops "${want%=*}" pts.json)
  [[ $got == "${want#*=}" ]] || { echo "FAIL: ${want%=*}: $got FLOPs, not ${want#*=}"; fail=1; }
done
jq -e '[.points[] | select(.name == "kern")] | length == 0' pts.json >/dev/null || { echo "FAIL: a bare 'kern' row remains"; fail=1; }
jq -e '[.points[] | select(.name == "(unknown)")] | length == 0' pts.json >/dev/null || { echo "FAIL: an '(unknown)' row remains"; fail=1; }
# each kern has the sampler's time (the program spends ~ms in each)
jq -e '[.points[] | select(.name == "kern (liba.so)" or .name == "kern (libb.so)") | select(.seconds > 0)] | length == 2' \
  pts.json >/dev/null || { echo "FAIL: the two kerns do not each have sampled time"; fail=1; }
grep -q "region-function kern matches 2 functions, counted together: kern (liba.so); kern (libb.so)" out ||
  { echo "FAIL: no warning naming both kerns"; fail=1; }
# the qualified form picks one
"$bin" measure --engine instrument --region-function 'kern (libb.so)' --no-store -o one.json -- ./prog >out1 2>&1 ||
  { echo "FAIL: measure (qualified) exit $?"; cat out1; exit 1; }
got=$(flops "<function kern (libb.so)>" one.json)
[[ $got == 2000000 ]] || { echo "FAIL: <function kern (libb.so)>: $got FLOPs, not 2000000"; fail=1; }
grep -q "matches 2 functions" out1 && { echo "FAIL: the qualified name still matched two"; fail=1; }
((fail)) && { cat out out1; jq -c '[.points[] | {name, flops, seconds}]' pts.json; exit 1; }
echo "ok: $(grep -E '^kern \(lib[ab]\.so\) +[0-9]' out | tr -s ' ' | paste -sd'|')"
