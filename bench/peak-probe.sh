#!/usr/bin/env bash
# peak-probe.sh — brute-force assembly probe of this core's best FP throughput, independent
# of roofline's own kernels: every mix of F FMA chains + A ADD chains at the widest vector
# width, DP and SP, 1 thread and all threads.  A benchmark: prints figures, never asserts.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: bench/peak-probe.sh [OPTIONS]

Generates C files of straight-line inline-asm loops, one per kernel: F independent FMA
chains (vfmadd231pd/ps: x = m*a + x, x the dependent accumulator) and A independent ADD
chains (vaddpd/ps: x = x + a). Vector width: zmm (32 registers) if /proc/cpuinfo has
avx512f, else ymm (16 registers, needs avx2+fma); 2 registers hold the constants m and a,
so F + A runs up to 30 (zmm) or 14 (ymm), F, A >= 0. Compiled with gcc -O2 -march=native,
run on pinned threads (thread i on the i-th CPU of this process's affinity mask) that
start together; the rate is the total FLOPs / the team's span (first thread's start to last thread's end).

Search, best of runs of about --ms each, at 1 thread and at the all-threads count:
  phase 1: every (F, A) of the grid, chains updated 4 times per loop iteration, the FMA
           chains' updates then the ADD chains' ("group" order); --reps runs each;
  phase 2: the --top mixes of each (precision, threads) from phase 1, in both orders
           ("group", and "inter": fma0 add0 fma1 add1 ...) x 1, 2, 4, 8 updates per chain
           per iteration; --final-reps runs each.
  The figure is the best run seen; the mix is fma<F>+add<A>, its variant order-u<unroll>.
Grid cap (to stay under ~60 s): with zmm, F and A take 0..8 then step by 2 up to 30
(259 mixes per precision instead of 495); --full-grid tries every pair. With ymm every
pair is tried (119 mixes per precision). Run time: ymm about 25 s, zmm about 40 s.

The core clock is measured with a dependent chain of register adds (1 cycle each) timed
with clock_gettime, at 1 thread and all threads (best of runs before and after the
search); FLOP/cycle is per core at the 1-thread clock. An all-threads clock well below
the 1-thread one is reported: the threads share a core, or the machine is busy.

  --threads N       the "all threads" count (default: nproc)
  --ms N            milliseconds per run (default 10)
  --reps N          phase-1 runs per kernel and thread count (default 2)
  --final-reps N    phase-2 runs per kernel and thread count (default 5)
  --top N           mixes per (precision, threads) taken to phase 2, and printed (default 3)
  --isa ymm|zmm     force the vector width (default: widest the CPU has)
  --full-grid       zmm: every (F, A) pair, not the capped grid (about twice as long)
  --keep DIR        keep the generated C, binaries and raw results in DIR
  -h, --help        this help

Output: the top mixes, then per (precision, threads) the best GFLOP/s and its mix, and
machine-readable lines:
  PROBE <dp|sp> <threads> <GFLOP/s> fma<F>+add<A> <FLOP/cycle per core> <order>-u<unroll>
  PROBE_CLOCK <threads> <GHz>
EOF
}

threads=$(nproc 2>/dev/null || echo 1)
ms=10
reps=2
final_reps=5
top=3
isa=""
full_grid=0
keep=""

while [[ $# -gt 0 ]]; do
    case "$1" in
        --threads) threads=${2:?--threads needs a number}; shift 2 ;;
        --threads=*) threads=${1#*=}; shift ;;
        --ms) ms=${2:?--ms needs a number}; shift 2 ;;
        --ms=*) ms=${1#*=}; shift ;;
        --reps) reps=${2:?--reps needs a number}; shift 2 ;;
        --reps=*) reps=${1#*=}; shift ;;
        --final-reps) final_reps=${2:?--final-reps needs a number}; shift 2 ;;
        --final-reps=*) final_reps=${1#*=}; shift ;;
        --top) top=${2:?--top needs a number}; shift 2 ;;
        --top=*) top=${1#*=}; shift ;;
        --isa) isa=${2:?--isa needs ymm or zmm}; shift 2 ;;
        --isa=*) isa=${1#*=}; shift ;;
        --full-grid) full_grid=1; shift ;;
        --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
        --keep=*) keep=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "peak-probe: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for v in threads ms reps final_reps top; do
    [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "peak-probe: --${v//_/-} wants a positive number" >&2; exit 2; }
done

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { [[ " $flags " == *" $1 "* ]]; }
if [[ -z "$isa" ]]; then
    if has avx512f; then isa=zmm
    elif has avx2 && has fma; then isa=ymm
    else echo "peak-probe: this CPU has neither avx512f nor avx2+fma" >&2; exit 1; fi
fi
case "$isa" in
    zmm) has avx512f || { echo "peak-probe: --isa zmm but no avx512f" >&2; exit 1; } ;;
    ymm) { has avx2 && has fma; } || { echo "peak-probe: --isa ymm but no avx2+fma" >&2; exit 1; } ;;
    *) echo "peak-probe: --isa wants ymm or zmm" >&2; exit 2 ;;
esac
# shellcheck source=bench/probe-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_setup peak-probe "$keep"

: "${work:?}"

# ---- the generator: kernel specs "prec F A order unroll" on stdin -> kernels.inc ----------
cat >"$work/gen.py" <<'PY'
import sys
isa = sys.argv[1]
nregs = 32 if isa == "zmm" else 16
cm, ca = nregs - 2, nregs - 1          # registers of the constants m and a
lanes_dp = 8 if isa == "zmm" else 4
out, table = [], []
for line in sys.stdin:
    if not line.strip():
        continue
    prec, f, a, order, unroll = line.split()
    f, a, unroll = int(f), int(a), int(unroll)
    sfx = "pd" if prec == "dp" else "ps"
    bcast = "vbroadcastsd" if prec == "dp" else "vbroadcastss"
    esize = 8 if prec == "dp" else 4
    lanes = lanes_dp if prec == "dp" else 2 * lanes_dp
    r = lambda i: "%%" + isa + str(i)
    lines = ["%s 0(%%[c]), %s" % (bcast, r(cm)), "%s %d(%%[c]), %s" % (bcast, esize, r(ca))]
    for i in range(f + a):
        lines.append("vmovap%s %s, %s" % (sfx[1], r(ca), r(i)))
    lines += [".p2align 5", "1:"]
    if order == "inter":     # fma0 add0 fma1 add1 ...
        seq = []
        for i in range(max(f, a)):
            if i < f: seq.append(("f", i))
            if i < a: seq.append(("a", f + i))
    else:                    # "group": every FMA chain, then every ADD chain
        seq = [("f", i) for i in range(f)] + [("a", f + i) for i in range(a)]
    for _ in range(unroll):
        for kind, i in seq:
            if kind == "f":
                lines.append("vfmadd231%s %s, %s, %s" % (sfx, r(ca), r(cm), r(i)))
            else:
                lines.append("vadd%s %s, %s, %s" % (sfx, r(ca), r(i), r(i)))
    lines += ["dec %[n]", "jnz 1b", "vzeroupper"]
    name = "k_%s_%d_%d_%s_%d" % (prec, f, a, order, unroll)
    ctype = "double" if prec == "dp" else "float"
    lit = "" if prec == "dp" else "f"
    out.append("static void %s(long n) {" % name)
    out.append("    static const %s c[2] = {0.9999999%s, 1e-7%s};" % (ctype, lit, lit))
    out.append("    __asm__ volatile(")
    out += ['        "%s\\n\\t"' % l for l in lines]
    out.append('        : [n] "+r"(n) : [c] "r"(c) : "cc", "memory", %s);' %
               ", ".join('"xmm%d"' % i for i in range(nregs)))
    out.append("}")
    table.append('    {"%s", %d, %d, "%s", %d, %d, %s},' % (prec, f, a, order, unroll, unroll * (2 * f + a) * lanes, name))
print("\n".join(out))
print("static const struct kernel kernels[] = {")
print("\n".join(table))
print("};")
PY

# ---- the harness: every kernel at every thread count, best of reps ---------------------------
cat >"$work/peak-probe.c" <<'CSRC'
#include "probe-harness.h"

struct kernel {
    const char *prec;
    int f, a;
    const char *order;
    int unroll;
    long flops_per_iter;
    void (*fn)(long);
};
#include "kernels.inc"
#define NK ((int)(sizeof kernels / sizeof kernels[0]))

struct job { void (*fn)(long); long iters; };
static void job_work(int tid, void *p) { (void)tid; struct job *j = p; j->fn(j->iters); }

/* argv: threads-list (e.g. 1,2) ms reps. Prints "R prec threads GFLOP/s F A order unroll" per
 * kernel and thread count, and "C threads GHz" (clock, best of runs before and after). */
int main(int argc, char **argv) {
    if (argc < 4) return 2;
    int tval[16], tcount = 0;
    for (char *s = strtok(argv[1], ","); s && tcount < 16; s = strtok(NULL, ",")) tval[tcount++] = atoi(s);
    double ms = atof(argv[2]);
    int reps = atoi(argv[3]);
    probe_init_cpus();
    double ghz[16];
    for (int ti = 0; ti < tcount; ++ti) ghz[ti] = probe_clock_ghz(tval[ti], ms / 2, 10);
    for (int k = 0; k < NK; ++k) {
        /* calibrate on 1 thread: iterations for about ms */
        struct job j = {kernels[k].fn, 2000};
        double s = 1e30;
        for (int i = 0; i < 2; ++i) { double t = probe_run_once(job_work, &j, 1); if (t < s) s = t; }
        long it = (long)((double)j.iters * ms * 1e-3 / s);
        j.iters = it < 100 ? 100 : it;
        for (int ti = 0; ti < tcount; ++ti) {
            double best = 0;
            for (int r = 0; r < reps; ++r) {
                double t = probe_run_once(job_work, &j, tval[ti]);
                double g = (double)kernels[k].flops_per_iter * (double)j.iters * tval[ti] / t * 1e-9;
                if (g > best) best = g;
            }
            printf("R %s %d %.3f %d %d %s %d\n", kernels[k].prec, tval[ti], best, kernels[k].f, kernels[k].a,
                   kernels[k].order, kernels[k].unroll);
        }
    }
    for (int ti = 0; ti < tcount; ++ti) {
        double g = probe_clock_ghz(tval[ti], ms / 2, 10);
        if (g > ghz[ti]) ghz[ti] = g;
        printf("C %d %.4f\n", tval[ti], ghz[ti]);
    }
    return 0;
}
CSRC

tlist=1; [[ $threads -gt 1 ]] && tlist="1,$threads"
nregs=16; [[ $isa == zmm ]] && nregs=32
budget=$((nregs - 2))

# build_run NAME REPS : kernels from $work/NAME.spec -> $work/NAME.out
build_run() {
    python3 "$work/gen.py" "$isa" <"$work/$1.spec" >"$work/kernels.inc" \
        || { echo "peak-probe: generating the $1 kernels failed" >&2; exit 1; }
    gcc -O2 -march=native -pthread -I"$here" -I"$work" -o "$work/$1" "$work/peak-probe.c" \
        || { echo "peak-probe: compiling the generated probe failed (sources in $work)" >&2; exit 1; }
    "$work/$1" "$tlist" "$ms" "$2" >"$work/$1.out" || { echo "peak-probe: the $1 probe crashed" >&2; exit 1; }
}

t_start=$(date +%s.%N)
# ---- phase 1: every (F, A) of the grid, "group" order, 4 updates per chain per iteration ----
python3 - "$budget" "$isa" "$full_grid" >"$work/phase1.spec" <<'PY'
import sys
budget, isa, full = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
if isa == "zmm" and not full:
    values = list(range(0, 9)) + list(range(10, budget + 1, 2))
else:
    values = list(range(budget + 1))
for prec in ("dp", "sp"):
    for f in values:
        for a in values:
            if 0 < f + a <= budget:
                print(prec, f, a, "group", 4)
PY
build_run phase1 "$reps"

# ---- phase 2: the --top mixes of each (precision, threads), both orders x unroll 1/2/4/8 -----
python3 - "$top" "$work/phase1.out" >"$work/phase2.spec" <<'PY'
import sys
top, path = int(sys.argv[1]), sys.argv[2]
rows = [l.split() for l in open(path) if l.startswith("R ")]
chosen = set()
for prec in ("dp", "sp"):
    for t in {r[2] for r in rows}:
        sel = sorted((r for r in rows if r[1] == prec and r[2] == t), key=lambda r: -float(r[3]))[:top]
        chosen.update((prec, int(r[4]), int(r[5])) for r in sel)
for prec, f, a in sorted(chosen):
    for order in ("group", "inter"):
        if order == "inter" and (f == 0 or a == 0):
            continue        # the same code as "group"
        for unroll in (1, 2, 4, 8):
            print(prec, f, a, order, unroll)
PY
build_run phase2 "$final_reps"
t_end=$(date +%s.%N)

# ---- report ------------------------------------------------------------------------------------
python3 - "$isa" "$budget" "$top" "$ms" "$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { print b - a }')" \
    "$(wc -l <"$work/phase1.spec")" "$(wc -l <"$work/phase2.spec")" "$work/phase1.out" "$work/phase2.out" <<'PY'
import sys
isa, budget, top, ms, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
n1, n2 = int(sys.argv[6]), int(sys.argv[7])
rows, clock = [], {}
for path in sys.argv[8:10]:
    for l in open(path):
        p = l.split()
        if p[0] == "R":
            rows.append((p[1], int(p[2]), float(p[3]), int(p[4]), int(p[5]), p[6], int(p[7])))
        elif p[0] == "C":
            clock[int(p[1])] = max(clock.get(int(p[1]), 0.0), float(p[2]))
threads = sorted(clock)
ghz1 = clock[1]
print("peak-probe: %s, %d registers for chains, %d + %d kernels (phase 1 + 2), %s ms per run, %.1f s"
      % (isa, budget, n1, n2, ms, secs))
for t in threads:
    print("clock: %d thread%s %.3f GHz" % (t, "s" if t > 1 else "", clock[t]))
if len(threads) > 1 and clock[threads[-1]] < 0.9 * ghz1:
    print("WARNING: the clock chain runs at %.2f GHz per thread on %d threads but %.2f GHz alone: the threads "
          "share a core or the machine is busy; all-threads figures are low" % (clock[threads[-1]], threads[-1], ghz1))
mix = lambda r: "fma%d+add%d" % (r[3], r[4])
variant = lambda r: "%s-u%d" % (r[5], r[6])
best = []
for prec in ("dp", "sp"):
    for t in threads:
        per_mix = {}
        for r in rows:
            if r[0] == prec and r[1] == t and ((r[3], r[4]) not in per_mix or r[2] > per_mix[(r[3], r[4])][2]):
                per_mix[(r[3], r[4])] = r
        ranked = sorted(per_mix.values(), key=lambda r: -r[2])
        print("\n%s, %d thread%s: top %d mixes (fma<F>+add<A>; order-unroll of its best variant)"
              % (prec, t, "s" if t > 1 else "", top))
        for r in ranked[:top]:
            print("  %-12s %8.1f GFLOP/s  %6.2f FLOP/cycle/core  %s" % (mix(r), r[2], r[2] / t / ghz1, variant(r)))
        fo = max((r for r in ranked if r[4] == 0), key=lambda r: r[2], default=None)
        ao = max((r for r in ranked if r[3] == 0), key=lambda r: r[2], default=None)
        if fo and ao:
            print("  (FMA only: fma%d %.1f GFLOP/s; ADD only: add%d %.1f GFLOP/s)" % (fo[3], fo[2], ao[4], ao[2]))
        best.append((prec, t, ranked[0]))
print("\nbest per (precision, threads):")
for prec, t, b in best:
    print("  %s %d thread%s: %8.1f GFLOP/s  %6.2f FLOP/cycle/core  %s (%s)"
          % (prec, t, "s" if t > 1 else "", b[2], b[2] / t / ghz1, mix(b), variant(b)))
print()
for prec, t, b in best:
    print("PROBE %s %d %.1f %s %.2f %s" % (prec, t, b[2], mix(b), b[2] / t / ghz1, variant(b)))
for t in threads:
    print("PROBE_CLOCK %d %.3f" % (t, clock[t]))
PY
