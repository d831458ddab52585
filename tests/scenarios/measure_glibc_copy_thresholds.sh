#!/usr/bin/env bash
# glibc's memcpy stores non-temporally (to DRAM, past the caches) above a size it computes at start
# from the CPU's caches; under Valgrind that CPU is Valgrind's emulated one (an 8 MiB L3: 2 MiB),
# not this machine's (240 MiB on a Zen 4 guest). An audit's 6 MiB memcpy, L3-resident natively,
# was counted as 240 MiB of non-temporal DRAM stores and judged DRAM-bound. The counting run now
# gets the native thresholds (GLIBC_TUNABLES, from the loader's --list-diagnostics): a copy between
# the two thresholds stores nothing non-temporally, as natively, and a note says so.
# SKIPPED (exit 77) without a C compiler, valgrind, the tool, jq, a glibc that lists its
# diagnostics (2.33+), or when Valgrind's threshold is not below this machine's.
set -u
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lib=$(dirname "$bin")/lib
[[ -e $lib/libroofline_marker.so ]] || { echo "SKIPPED: no marker library in $lib"; exit 77; }
export HOME=$tmp ROOFLINE_DB=$tmp/results.db

cat >copy.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <roofline/roofline.h>
int main(int argc, char** argv) {
    long size = atol(argv[1]);
    char *s = malloc(size), *d = malloc(size);
    memset(s, 1, size);
    memset(d, 2, size);
    roofline_begin("copy");
    for (int r = 0; r < 4; ++r) { s[r] = (char)r; memcpy(d, s, size); }
    roofline_end("copy");
    printf("%d\n", d[size / 2] + d[3]);
    return 0;
}
C
cc -O2 -I"$src/include" copy.c -L"$lib" -lroofline_marker -Wl,-rpath,"$lib" -o copy || fail "cannot build copy.c"
loader=$(ldd ./copy | awk '$1 ~ /^\// && $2 !~ /=>/ {print $1; exit}')
[[ -n $loader ]] || { echo "SKIPPED: no dynamic loader in ldd's output"; exit 77; }
threshold() { sed -n 's/^x86\.cpu_features\.non_temporal_threshold=//p' | head -1; }
native=$("$loader" --list-diagnostics 2>/dev/null | threshold)
emulated=$(valgrind --tool=none -q "$loader" --list-diagnostics 2>/dev/null | threshold)
[[ -n $native && -n $emulated ]] || { echo "SKIPPED: this glibc does not list its thresholds (2.33+ does)"; exit 77; }
native=$((native)); emulated=$((emulated))
size=$((emulated * 2))
(( size < native && size <= 64 * 1024 * 1024 )) ||
  { echo "SKIPPED: Valgrind's non-temporal threshold ($emulated) is not well below this machine's ($native)"; exit 77; }

out=$("$bin" measure --engine instrument --no-store --repeat 1 -o copy.json -- ./copy "$size" 2>&1) ||
  fail "measure exited $?"
grep -q "the counting run was given this machine's native thresholds (glibc.cpu.x86_non_temporal_threshold = " \
  <<<"$out" || fail "no note of the thresholds given to the counting run"
# ... and the points' provenance keeps them: which copies went past the caches depends on them.
jq -r '.provenance.options.glibc_thresholds_counted // ""' copy.json |
  grep -q "^glibc.cpu.x86_non_temporal_threshold = .* MiB (this machine's native values, given to the counting run)$" ||
  fail "the thresholds given to the counting run are not in the points' provenance"
nt=$(jq -r '.points[] | select(.name == "copy") | .details.cache_DRAM_nontemporal_bytes // 0' copy.json)
stored=$(jq -r '.points[] | select(.name == "copy") | .details.bytes_stored' copy.json)
[[ -n $nt && -n $stored ]] || fail "no point 'copy' with the cache simulation's bytes"
(( stored >= 4 * size )) || fail "copy stored $stored bytes, not the 4 x $size it copies"
[[ $nt == 0 ]] || fail "a $size-byte memcpy (native threshold $native) stored $nt bytes non-temporally in the counting run"
# A GLIBC_TUNABLES of the user's is kept, the threshold added after it.
out=$(GLIBC_TUNABLES=glibc.malloc.perturb=0 "$bin" measure --engine instrument --no-store --repeat 1 -o copy2.json \
        -- ./copy "$size" 2>&1) || fail "measure with GLIBC_TUNABLES exited $?"
nt=$(jq -r '.points[] | select(.name == "copy") | .details.cache_DRAM_nontemporal_bytes // 0' copy2.json)
[[ $nt == 0 ]] || fail "with the user's GLIBC_TUNABLES the copy stored $nt bytes non-temporally"
echo "ok: a $size-byte memcpy (Valgrind's threshold $emulated, this machine's $native) stored nothing non-temporally"
