# shellcheck shell=bash disable=SC2034,SC2154  # sets variables its callers use ($here, $work, lw_*), reads theirs ($reps)
# probe-common.sh — shell functions of the bench/ scripts. probe_setup is sourced by
# bench/peak-probe.sh and bench/load-probe.sh; the likwid-bench, tool and table helpers below it by
# bench/compare-likwid.sh and bench/truth-check.sh; marker_program_setup by loops-check.sh and
# model-vs-measured.sh.
# probe_setup: the tools the probes need and their work directory (kept with --keep, else a temp
# dir removed at exit). Usage: probe_setup NAME KEEP_DIR   sets $here (bench/) and $work.
probe_setup() {
    local name=$1 keep_dir=$2
    command -v gcc >/dev/null || { echo "$name: gcc is needed" >&2; exit 1; }
    command -v python3 >/dev/null || { echo "$name: python3 is needed" >&2; exit 1; }
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    if [[ -n "$keep_dir" ]]; then
        mkdir -p "$keep_dir"; work=$(cd "$keep_dir" && pwd)
    else
        work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
        # shellcheck disable=SC2064  # expand now: $work is fixed from here on
        trap "rm -rf '$work'" EXIT
    fi
}

# ---- shared by bench/compare-likwid.sh and bench/truth-check.sh ------------------------------
# The caller defines log (its prefixed message on stderr) and sets $work (its work directory)
# and $reps (runs of likwid-bench per figure) before calling these.

# ensure_tool NAME COMMAND PACKAGE : COMMAND is on the PATH, or apt-get installs PACKAGE (as root);
# else says how to get it and returns 1
ensure_tool() {
    local name=$1 cmd=$2 pkg=$3
    command -v "$cmd" >/dev/null 2>&1 && return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        log "$cmd is missing: installing it (apt-get install -y $pkg)"
        { apt-get install -y "$pkg" || { apt-get update && apt-get install -y "$pkg"; }; } >/dev/null 2>&1
    fi
    command -v "$cmd" >/dev/null 2>&1 && return 0
    echo "$name: $cmd is needed: run 'sudo apt-get install -y $pkg' (or your system's equivalent)" >&2
    return 1
}

# likwid_widest_kernels NAME : sets lw_peak_dp, lw_peak_sp, lw_load, lw_copy_mem, lw_stream_mem to
# the widest-ISA kernels this CPU and this likwid-bench have (AVX-512 where /proc/cpuinfo has
# avx512f, else AVX, else SSE); returns 1 (and says why) when one is missing
likwid_widest_kernels() {
    local name=$1 tests v
    tests=$(likwid-bench -a 2>/dev/null | awk '{ print $1 }')
    [[ -n "$tests" ]] || { echo "$name: 'likwid-bench -a' lists no kernels" >&2; return 1; }
    pick() {   # pick CANDIDATE... : the first one likwid-bench has
        local c
        for c in "$@"; do grep -qx -- "$c" <<<"$tests" && { echo "$c"; return 0; }; done
        return 1
    }
    if grep -qw avx512f /proc/cpuinfo; then
        lw_peak_dp=$(pick peakflops_avx512_fma peakflops_avx_fma)
        lw_peak_sp=$(pick peakflops_sp_avx512_fma peakflops_sp_avx_fma)
        lw_load=$(pick load_avx512 load_avx)
        lw_copy_mem=$(pick copy_mem_avx512 copy_mem_avx)
        lw_stream_mem=$(pick stream_mem_avx512_fma stream_mem_avx512 stream_mem_avx_fma)
    elif grep -qw avx /proc/cpuinfo; then
        lw_peak_dp=$(pick peakflops_avx_fma peakflops_avx)
        lw_peak_sp=$(pick peakflops_sp_avx_fma peakflops_sp_avx)
        lw_load=$(pick load_avx)
        lw_copy_mem=$(pick copy_mem_avx)
        lw_stream_mem=$(pick stream_mem_avx_fma stream_mem_avx)
    else
        lw_peak_dp=$(pick peakflops_sse)
        lw_peak_sp=$(pick peakflops_sp_sse)
        lw_load=$(pick load_sse)
        lw_copy_mem=$(pick copy_mem_sse copy_mem)
        lw_stream_mem=$(pick stream_mem_sse_fma stream_mem_sse stream_mem)
    fi
    for v in lw_peak_dp lw_peak_sp lw_load lw_copy_mem lw_stream_mem; do
        [[ -n "${!v:-}" ]] || { echo "$name: likwid-bench has no kernel for $v" >&2; return 1; }
    done
}

# likwid_best TEST TOTAL_BYTES THREADS KEY [GUESS [SECONDS]]
#   best (max) of $reps runs of likwid-bench -t TEST -W N:TOTAL:THREADS, in G (KEY, "MFlops/s" or
#   "MByte/s", / 1000), on stdout; empty when no run gave a figure. Without GUESS likwid-bench
#   chooses its iterations (at least 1 s of kernel a run, about 5 s a call). With GUESS (the
#   rate expected, in G) the first run's iterations are set from it for about SECONDS (default
#   0.2) of kernel, the next ones from the first run's time; a run under a third of SECONDS is
#   only a calibration (one more run is made, at most 2 more). likwid-bench sleeps 1 s a call.
#   A failed run is logged and leaves $work/likwid-failed (command substitution cannot set
#   the caller's variables).
likwid_best() {
    local test=$1 total=$2 t=$3 key=$4 guess=${5:-} secs=${6:-0.2}
    local best="" v logf size iters="" tm per counted=0 tries=0 runargs=()
    # likwid reads a size in bytes as a 32-bit int: from 2 GiB on, give it in (1000-byte) kB, rounded up
    size="${total}B"
    [[ $total -ge 2147483648 ]] && size="$(((total + 999) / 1000))kB"
    if [[ -n "$guess" ]]; then
        # work of one iteration (every thread sweeps its share once): bytes, or FLOPs for a FLOP rate
        per=$(likwid-bench -l "$test" 2>/dev/null | awk -F: -v k="$key" -v b="$total" '
            /^Flops per element/ { f = $2 + 0 } /^Bytes per element/ { e = $2 + 0 }
            END { if (k == "MFlops/s") { if (e > 0) printf "%.0f", b / e * f } else printf "%.0f", b }')
        iters=$(awk -v s="$secs" -v g="$guess" -v w="${per:-0}" 'BEGIN {
            i = (w > 0 && g > 0) ? s * g * 1e9 / w : 10; if (i < 10) i = 10; if (i > 2e9) i = 2e9; printf "%.0f", i }')
    fi
    while [[ $counted -lt $reps && $tries -lt $((reps + 2)) ]]; do
        tries=$((tries + 1))
        logf="$work/likwid-$test-$total-$t-$tries.log"
        runargs=(-t "$test" -W "N:$size:$t")
        [[ -n "$iters" ]] && runargs+=(-i "$iters")
        if ! likwid-bench "${runargs[@]}" >"$logf" 2>&1; then
            log "likwid-bench ${runargs[*]} FAILED:"; tail -5 "$logf" | sed 's/^/    /' >&2
            touch "$work/likwid-failed"; counted=$((counted + 1)); continue
        fi
        v=$(awk -v k="$key" -F':' '$1 == k { gsub(/[ \t]/, "", $2); print $2 / 1000; exit }' "$logf")
        [[ -z "$v" ]] && { log "no '$key' in likwid-bench ${runargs[*]} output ($logf)"; touch "$work/likwid-failed"; counted=$((counted + 1)); continue; }
        if [[ -n "$iters" ]]; then
            tm=$(awk -F: '$1 == "Time" { print $2 + 0; exit }' "$logf")
            # a run much shorter than asked for calibrates the next one and counts only on the last try
            if awk -v a="${tm:-0}" -v s="$secs" 'BEGIN { exit !(a >= s / 3) }' || [[ $tries -ge $((reps + 2)) ]]; then
                counted=$((counted + 1))
            else
                v=""
            fi
            iters=$(awk -v i="$iters" -v a="${tm:-0}" -v s="$secs" 'BEGIN {
                n = (a > 0) ? i * s / a : i * 100; if (n < 10) n = 10; if (n > 2e9) n = 2e9; printf "%.0f", n }')
        else
            counted=$((counted + 1))
        fi
        [[ -n "$v" ]] && best=$(awk -v a="$best" -v b="$v" 'BEGIN { if (a == "" || b + 0 > a + 0) print b; else print a }')
    done
    echo "$best"
}

# print_table : '|'-separated rows on stdin (the first the header) as aligned columns, the first
# and last left-aligned, the others right-aligned, a rule under the header
print_table() {
    awk -F'|' '
        { for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; if (NF > nf) nf = NF }
        END {
            for (r = 1; r <= n; r++) {
                line = ""
                for (i = 1; i <= nf; i++) {
                    fmt = (i == 1 || i == nf) ? "%-" w[i] "s" : "%" w[i] "s"
                    line = line (i > 1 ? " | " : "") sprintf(fmt, c[r, i])
                }
                print line
                if (r == 1) { sep = ""; for (i = 1; i <= nf; i++) { s = ""; for (k = 0; k < w[i]; k++) s = s "-"; sep = sep (i > 1 ? "-+-" : "") s } print sep }
            }
        }'
}

# marker_program_setup BINARY KEEP_DIR: for the scripts that build programs against the marker
# library (loops-check.sh, model-vs-measured.sh): roofline's binary and its lib/ checked, and the
# work directory (KEEP_DIR, else a temp dir removed at exit). Sets $marker_lib and $work.
marker_program_setup() {
    local binary=$1 keep=$2
    [[ -x $binary ]] || { echo "missing $binary: build the roofline target" >&2; exit 2; }
    marker_lib=$(dirname "$(readlink -f "$binary")")/lib
    [[ -e $marker_lib/libroofline_marker.so ]] || { echo "missing $marker_lib/libroofline_marker.so" >&2; exit 2; }
    work=${keep:-$(mktemp -d)}
    mkdir -p "$work"
    [[ -n $keep ]] || trap 'rm -rf "$work"' EXIT
}
cpu_model() { grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }   # elapsed T0: seconds since T0 (from now)
tname() { [[ $1 -eq 1 ]] && echo "1 thread" || echo "$1 threads"; }
