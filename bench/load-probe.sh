#!/usr/bin/env bash
# load-probe.sh — plain-vector-load bandwidth probe, independent of roofline's own kernels:
# straight-line vmovapd loads (zmm if avx512f, else ymm) over a per-thread buffer that fits
# L1 (and one that fits L2), 1 thread and all threads.  A benchmark: never asserts.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: bench/load-probe.sh [OPTIONS]

Per thread, a 2 MiB-aligned buffer (madvise MADV_HUGEPAGE, first touched by its thread) is
swept again and again by a loop of straight-line `vmovapd` loads into 8 or 16 registers
(zmm if /proc/cpuinfo has avx512f, else ymm), no arithmetic on the loaded values (inline
asm, registers clobbered). Loop variants: 8 or 16 registers x 16 or 32 loads per loop
iteration; the best variant is reported. Threads are pinned (thread i on the i-th CPU of
this process's affinity mask) and start together; GB/s = 1e9 bytes/s = total bytes loaded
/ the team's span (first thread's start to last thread's end), best of --reps runs of about --ms each.
Sizes are per thread, 1024-based (16k = 16384 bytes), rounded down to a multiple of one
loop iteration's bytes (at most 2 KiB).

  --size SIZE       L1 buffer per thread (default 16k)
  --l2-size SIZE    L2 buffer per thread (default 256k; 0 to skip)
  --threads N       the "all threads" count (default: nproc)
  --ms N            milliseconds per run (default 10)
  --reps N          runs per (size, variant, threads); the best is kept (default 10)
  --isa ymm|zmm     force the vector width (default: widest the CPU has)
  --keep DIR        keep the generated C and the binary in DIR
  -h, --help        this help

Output: a line per (size, threads) with GB/s, bytes/cycle/core (at the 1-thread clock, from
a dependent add chain) and the best variant, and
machine-readable lines:
  PROBE load <bytes-per-thread> <threads> <GB/s> <variant> <bytes/cycle per core>
  PROBE_CLOCK <threads> <GHz>
EOF
}

size=16k
l2size=256k
threads=$(nproc 2>/dev/null || echo 1)
ms=10
reps=10
isa=""
keep=""

while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=${2:?--size needs a size}; shift 2 ;;
        --size=*) size=${1#*=}; shift ;;
        --l2-size) l2size=${2:?--l2-size needs a size}; shift 2 ;;
        --l2-size=*) l2size=${1#*=}; shift ;;
        --threads) threads=${2:?--threads needs a number}; shift 2 ;;
        --threads=*) threads=${1#*=}; shift ;;
        --ms) ms=${2:?--ms needs a number}; shift 2 ;;
        --ms=*) ms=${1#*=}; shift ;;
        --reps) reps=${2:?--reps needs a number}; shift 2 ;;
        --reps=*) reps=${1#*=}; shift ;;
        --isa) isa=${2:?--isa needs ymm or zmm}; shift 2 ;;
        --isa=*) isa=${1#*=}; shift ;;
        --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
        --keep=*) keep=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "load-probe: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for v in threads ms reps; do
    [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "load-probe: --$v wants a positive number" >&2; exit 2; }
done

# bytes SIZE: 1024-based k/M/G suffixes (optionally followed by B or iB), or plain bytes
bytes() {
    local s=$1
    [[ "$s" =~ ^([0-9]+)([kKmMgG]?)(i?[bB])?$ ]] || { echo "load-probe: bad size '$s'" >&2; exit 2; }
    local n=${BASH_REMATCH[1]} u=${BASH_REMATCH[2],,}
    case "$u" in k) n=$((n * 1024)) ;; m) n=$((n * 1048576)) ;; g) n=$((n * 1073741824)) ;; esac
    echo "$n"
}
sizes=("$(bytes "$size")")
l2b=$(bytes "$l2size")
[[ $l2b -gt 0 ]] && sizes+=("$l2b")

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { [[ " $flags " == *" $1 "* ]]; }
if [[ -z "$isa" ]]; then
    if has avx512f; then isa=zmm
    elif has avx; then isa=ymm
    else echo "load-probe: this CPU has no AVX" >&2; exit 1; fi
fi
case "$isa" in
    zmm) has avx512f || { echo "load-probe: --isa zmm but no avx512f" >&2; exit 1; } ;;
    ymm) has avx || { echo "load-probe: --isa ymm but no avx" >&2; exit 1; } ;;
    *) echo "load-probe: --isa wants ymm or zmm" >&2; exit 2 ;;
esac
# shellcheck source=bench/probe-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_setup load-probe "$keep"

python3 - "$isa" >"$work/kernels.inc" <<'PY'
import sys
isa = sys.argv[1]
vbytes = 64 if isa == "zmm" else 32
out, table = [], []
for regs in (8, 16):
    for loads in (16, 32):
        block = loads * vbytes
        name = "ld_r%d_u%d" % (regs, loads)
        lines = [".p2align 5", "1:"]
        for i in range(loads):
            lines.append("vmovapd %d(%%[p]), %%%%%s%d" % (i * vbytes, isa, i % regs))
        lines += ["add $%d, %%[p]" % block, "cmp %[e], %[p]", "jb 1b"]
        clob = ", ".join('"xmm%d"' % i for i in range(regs))
        out.append("static void %s(const char *p, const char *e) {" % name)
        out.append("    __asm__ volatile(")
        out += ['        "%s\\n\\t"' % l for l in lines]
        out.append('        : [p] "+r"(p) : [e] "r"(e) : "cc", "memory", %s);' % clob)
        out.append("}")
        table.append('    {"%dreg-x%d", %d, %s},' % (regs, loads, block, name))
print("\n".join(out))
print("static const struct variant variants[] = {")
print("\n".join(table))
print("};")
print('static const char *const probe_isa = "%s";' % isa)
PY

cat >"$work/load-probe.c" <<'EOF'
#include "probe-harness.h"
#include <sys/mman.h>

struct variant {
    const char *name;
    long block;                       /* bytes per loop iteration */
    void (*fn)(const char *, const char *);
};
#include "kernels.inc"
#define NV ((int)(sizeof variants / sizeof variants[0]))
#define MAXBLOCK 2048L

static char *bufs[CPU_SETSIZE];
struct job { int v; long bytes; long sweeps; };

static void touch_work(int tid, void *p) {
    struct job *j = p;
    memset(bufs[tid], 1, (size_t)j->bytes);
}

static void load_work(int tid, void *p) {
    struct job *j = p;
    const char *b = bufs[tid], *e = b + j->bytes;
    void (*fn)(const char *, const char *) = variants[j->v].fn;
    for (long s = 0; s < j->sweeps; ++s) fn(b, e);
}

int main(int argc, char **argv) {
    int nthreads = atoi(argv[1]);
    double ms = atof(argv[2]);
    int reps = atoi(argv[3]);
    probe_init_cpus();
    int tcount = nthreads > 1 ? 2 : 1;
    int tval[2] = {1, nthreads};
    double ghz[2];
    for (int ti = 0; ti < tcount; ++ti) ghz[ti] = probe_clock_ghz(tval[ti], ms / 2, 10);
    printf("load-probe: %s vmovapd, CPUs:", probe_isa);
    for (int t = 0; t < nthreads; ++t) printf(" %d", probe_cpu_of(t));
    printf(";");
    for (int ti = 0; ti < tcount; ++ti) printf(" clock %d thread%s %.3f GHz", tval[ti], tval[ti] > 1 ? "s" : "", ghz[ti]);
    printf("\n");
    probe_check_clocks(ghz, tcount, nthreads);
    char lines[64][160];
    int nl = 0;
    for (int si = 4; si < argc && nl < 60; ++si) {
        long want = atol(argv[si]);
        long bytes = want / MAXBLOCK * MAXBLOCK;
        if (bytes < MAXBLOCK) bytes = MAXBLOCK;
        const long huge = 2L << 20;
        size_t alloc = (size_t)((bytes + huge - 1) / huge * huge);
        for (int t = 0; t < nthreads; ++t) {
            bufs[t] = aligned_alloc((size_t)huge, alloc);
            if (!bufs[t]) { fprintf(stderr, "load-probe: out of memory\n"); return 1; }
            madvise(bufs[t], alloc, MADV_HUGEPAGE);
        }
        struct job j = {0, bytes, 1};
        probe_run_once(touch_work, &j, nthreads);
        for (int ti = 0; ti < tcount; ++ti) {
            double best = 0; int bestv = 0;
            for (int v = 0; v < NV; ++v) {
                /* calibrate: sweeps for about ms on one thread (a warm-up sweep, then doubling
                 * the sweeps up to an eighth of ms: a DRAM-sized buffer is not swept 32 times) */
                j.v = v; j.sweeps = 1;
                probe_run_once(load_work, &j, 1);
                double s = probe_run_once(load_work, &j, 1);
                while (s < ms * 1e-3 / 8 && j.sweeps < (1L << 40)) { j.sweeps *= 2; s = probe_run_once(load_work, &j, 1); }
                j.sweeps = (long)((double)j.sweeps * ms * 1e-3 / s);
                if (j.sweeps < 1) j.sweeps = 1;
                for (int r = 0; r < reps; ++r) {
                    double t = probe_run_once(load_work, &j, tval[ti]);
                    double gbs = (double)bytes * (double)j.sweeps * tval[ti] / t * 1e-9;
                    if (gbs > best) { best = gbs; bestv = v; }
                }
            }
            printf("  %7g KiB/thread, %d thread%s: %8.1f GB/s  %6.2f B/cycle/core  (%s)\n", bytes / 1024.0,
                   tval[ti], tval[ti] > 1 ? "s" : "", best,
                   best / tval[ti] / ghz[0], variants[bestv].name);
            snprintf(lines[nl++], sizeof lines[0], "PROBE load %ld %d %.1f %s %.2f", bytes, tval[ti], best,
                     variants[bestv].name, best / tval[ti] / ghz[0]);
        }
        for (int t = 0; t < nthreads; ++t) free(bufs[t]);
    }
    printf("\n");
    for (int i = 0; i < nl; ++i) printf("%s\n", lines[i]);
    for (int ti = 0; ti < tcount; ++ti) printf("PROBE_CLOCK %d %.3f\n", tval[ti], ghz[ti]);
    return 0;
}
EOF

gcc -O2 -march=native -pthread -I"$here" -o "$work/load-probe" "$work/load-probe.c" \
    || { echo "load-probe: compiling the generated probe failed (sources in $work)" >&2; exit 1; }
"$work/load-probe" "$threads" "$ms" "$reps" "${sizes[@]}"
