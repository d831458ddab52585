#!/usr/bin/env bash
# VEX-encoded extensions beyond AVX2 (AVX-VNNI here: GCC 12 emits vpdpbusd for an int8 dot product
# under -march=native -mno-avx512f on Zen 4/5 and recent Intel) stop Valgrind as AVX-512 does, but
# the scan before the runs looks for EVEX only. Before: the counting run's SIGILL was reported as
# "AVX-512 code loaded at run time (dlopen) or generated", advising -mno-avx512f, which keeps it.
# Now: the bytes Valgrind logged name the extension, the advice is -march=x86-64-v3, the native
# time is kept as a time-only point, exit 132 (128 + SIGILL).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
grep -qw avx_vnni /proc/cpuinfo || { echo "SKIP: this CPU has no AVX-VNNI (the native run would die)"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
cat >"$tmp/vnni.c" <<'C'
#include <immintrin.h>
#include <stdio.h>
int main(int argc, char** argv) {
    (void)argv;
    __m256i acc = _mm256_set1_epi32(argc), a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(5);
    for (int i = 0; i < 1000; ++i) acc = _mm256_dpbusd_avx_epi32(acc, a, b);  /* VEX vpdpbusd */
    int out[8];
    _mm256_storeu_si256((__m256i*)out, acc);
    printf("%d\n", out[0]);
    return 0;
}
C
cc -O2 -mavx2 -mavxvnni -o "$tmp/vnni" "$tmp/vnni.c" || { echo "SKIP: the compiler has no -mavxvnni"; exit 77; }
export HOME=$tmp
cd "$tmp"
"$bin" measure --engine instrument --no-store -o pts.json -- ./vnni >out.txt 2>&1
rc=$?
fail=0
[[ $rc == 132 ]] || { echo "FAIL: exit $rc, expected 132 (128 + SIGILL)"; fail=1; }
for want in "bytes C4 " "AVX-VNNI, an extension beyond AVX2" "-march=x86-64-v3"; do
  grep -qF -- "$want" out.txt || { echo "FAIL: the message lacks '$want'"; fail=1; }
done
grep -q "AVX-512 code loaded at run time" out.txt && { echo "FAIL: VEX code called AVX-512"; fail=1; }
jq -e '[.points[] | select(.seconds > 0)] | length >= 1' pts.json >/dev/null 2>&1 ||
  { echo "FAIL: no time-only point kept"; fail=1; }
((fail)) && { cat out.txt; exit 1; }
echo "ok: AVX-VNNI named from Valgrind's bytes, exit 132, the time kept"
