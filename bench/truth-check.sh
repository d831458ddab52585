#!/usr/bin/env bash
# truth-check.sh — the check to run before every stop (about a minute, at most 90 s on 2 cores):
# one `roofline bench --quick`, then likwid-bench (widest ISA) and the in-tree probes at the same
# sizes, side by side; exits non-zero where one of our roofs is under the others.
# A benchmark, not a test: never in CI. Options: --help.
set -uo pipefail

usage() {
    cat <<'EOF'
Usage: bench/truth-check.sh [OPTIONS]

Runs `roofline bench --quick` once, then at the sizes it chose (the memory roofs' working
sets, which follow the checked cache hierarchy: the machine JSON's caches[].size_bytes):
  DP peak, 1 thread            ours (compute "best" mix) vs likwid-bench peakflops_<widest>_fma
                               at half the L1 (1 thread) and bench/peak-probe.sh (short search)
  load L1, L2, L3, DRAM,       ours ("load" roofs) vs likwid-bench load_<widest> at the same
  1 thread and all threads     total working set (-W N:<bytes>B:<threads>) and vs
                               bench/load-probe.sh at the same size per thread
<widest> is avx512 where /proc/cpuinfo has avx512f, else avx, else sse. likwid: best of --reps
runs of about --seconds of kernel each (iterations set from our figure, then from its first
run's time); likwid's MByte/s and MFlops/s are 1e6, ours GB/s and GFLOP/s 1e9: compared as such.
Prints
  figure | ours | likwid | probe | ours/likwid | ours/probe | min | PASS/FAIL
then "N passed, M failed", the hierarchy used, the machine (CPU model, microarchitecture,
hypervisor) and the wall time. A figure passes when the smaller of its ratios is at least 0.95
(DRAM: 0.97). The probes map their buffers with huge pages where the kernel allows them, as
ours does; likwid-bench does not ask for them (under THP "madvise" its DRAM figures are then
lower than a huge-page run's: the probe is the stricter DRAM yardstick there).
A load figure that fails is measured once more, ours (bench --only memory at that working set
and thread count), likwid and the probe back to back, and judged on that; its row says
"(recheck; first R)". One disturbed figure is then not a failure; a roof truly low fails twice.

Exit status: 0 all passed; 1 a ratio under its minimum, or a roof missing from our JSON;
2 a tool is missing or crashed (its figures are not judged), or bad options.
Needs jq and likwid-bench (installed with apt-get when run as root), gcc and python3 for the
probes. Run it on a quiet machine: a compiler running beside it is reported, not waited for.

  --binary PATH    roofline binary (default: build/roofline next to this script)
  --model FILE     take our roofs from this machine JSON instead of running bench --quick
  --reps N         likwid-bench runs per figure, the best is kept (default 2)
  --seconds S      likwid-bench kernel time per run (default 0.2; each call also sleeps 1 s)
  --no-probes      skip bench/peak-probe.sh and bench/load-probe.sh
  --wait S         first wait up to S seconds for a quiet machine (no compiler running, other
                   processes under 10% of one CPU over 5 s); then run anyway, with a warning
  --keep DIR       keep the JSON, likwid logs and probe output in DIR (default: a temp dir)
  -h, --help       this help
EOF
}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
binary="$repo/build/roofline"
model=""
reps=2
seconds=0.2
do_probes=1
keep=""
wait_s=0

while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --binary=*) binary=${1#*=}; shift ;;
        --model) model=${2:?--model needs a file}; shift 2 ;;
        --model=*) model=${1#*=}; shift ;;
        --reps) reps=${2:?--reps needs a number}; shift 2 ;;
        --reps=*) reps=${1#*=}; shift ;;
        --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
        --seconds=*) seconds=${1#*=}; shift ;;
        --no-probes) do_probes=0; shift ;;
        --wait) wait_s=${2:?--wait needs seconds}; shift 2 ;;
        --wait=*) wait_s=${1#*=}; shift ;;
        --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
        --keep=*) keep=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "truth-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "truth-check: --reps wants a positive number" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "truth-check: --seconds wants a number" >&2; exit 2; }
[[ "$wait_s" =~ ^[0-9]+$ ]] || { echo "truth-check: --wait wants whole seconds" >&2; exit 2; }

log() { printf '[truth-check] %s\n' "$*" >&2; }
# shellcheck source=bench/probe-common.sh
source "$script_dir/probe-common.sh"
t_start=$(now)

# ---- prerequisites -----------------------------------------------------------------------
ensure_tool truth-check jq jq || exit 2
ensure_tool truth-check likwid-bench likwid || exit 2
likwid_widest_kernels truth-check || exit 2
if [[ $do_probes -eq 1 ]]; then
    for tool in gcc python3; do
        command -v "$tool" >/dev/null 2>&1 || { log "no $tool: the probes are skipped"; do_probes=0; }
    done
fi
if [[ -z "$model" && ! -x "$binary" ]]; then
    echo "truth-check: no roofline binary at $binary: build it (cmake --build build --target roofline) or use --binary PATH" >&2
    exit 2
fi
[[ -z "$model" || -s "$model" ]] || { echo "truth-check: no model file $model" >&2; exit 2; }

if [[ -n "$keep" ]]; then
    mkdir -p "$keep" || exit 2
    work=$(cd "$keep" && pwd)
    rm -f "$work/likwid-failed"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/truth-check.XXXXXX") || exit 2
    trap 'rm -rf "$work"' EXIT
fi

# machine_ticks: "busy steal" CPU ticks of the whole machine (/proc/stat)
machine_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9; exit }' /proc/stat; }
compiling() { pgrep -x cc1plus >/dev/null 2>&1 || pgrep -x cc1 >/dev/null 2>&1; }
if [[ $wait_s -gt 0 ]]; then
    waited=0
    while [[ $waited -lt $wait_s ]]; do
        read -r b0 _ < <(machine_ticks); sleep 5; waited=$((waited + 5)); read -r b1 _ < <(machine_ticks)
        if ! compiling && [[ $((b1 - b0)) -lt $(($(getconf CLK_TCK) / 2)) ]]; then break; fi
        log "waiting for a quiet machine ($waited of $wait_s s)"
    done
    t_start=$(now)   # the wall time is the check's, without the wait
fi

crashed=0
busy=""   # what else was running (a compiler) at some point of the check
check_busy() { compiling && busy="a compiler (cc1/cc1plus)"; }
check_busy
[[ -n "$busy" ]] && log "WARNING: $busy is running: the figures will be low and noisy"
# this script's CPU ticks with its waited-for children (/proc/$$/stat utime stime cutime cstime):
# the machine's busy ticks less these are other work
own_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 + $14 + $15 }' "/proc/$$/stat"; }
read -r m_busy0 m_steal0 < <(machine_ticks)
own0=$(own_ticks)

# ---- ours: one bench --quick ------------------------------------------------------------------
quick_s=""
if [[ -n "$model" ]]; then
    cp "$model" "$work/m.json" || exit 2
    log "ours: roofs from $model"
else
    log "ours: roofline bench --quick"
    t0=$(now)
    if ! "$binary" bench --quick -q --svg '' --no-store -o "$work/m.json" 2>"$work/bench.stderr" || [[ ! -s "$work/m.json" ]]; then
        log "roofline bench --quick FAILED:"; tail -5 "$work/bench.stderr" | sed 's/^/    /' >&2
        exit 2
    fi
    quick_s=$(elapsed "$t0")
    log "  took $quick_s s"
fi
jq -e '.compute and .memory and .caches' "$work/m.json" >/dev/null 2>&1 \
    || { echo "truth-check: $work/m.json has no compute, memory or caches (a partial model?)" >&2; exit 2; }

# our figures: "peak GFLOPS", "load LEVEL THREADS GBS WORKING_SET" (load roofs), "N THREADS"
jq -r '
    "peak \([.compute[] | select(.precision == "dp" and .mix == "best" and .threads == 1) | .gflops] | max // "")",
    "N \([.memory[] | select(.pattern == "load") | .threads] | max // 1)",
    (.memory[] | select(.pattern == "load") | "load \(.level) \(.threads) \(.gbs) \(.working_set_bytes)")
' "$work/m.json" >"$work/ours.txt"
ours_peak=$(awk '$1 == "peak" { print $2 }' "$work/ours.txt")
nthreads=$(awk '$1 == "N" { print $2 }' "$work/ours.txt")
tvals=(1); [[ $nthreads -gt 1 ]] && tvals+=("$nthreads")
mapfile -t levels < <(jq -r '[.caches[].level] | unique | .[] | "L\(.)"' "$work/m.json")
levels+=(DRAM)
ours_load() { awk -v l="$1" -v t="$2" '$1 == "load" && $2 == l && $3 == t { print $4; exit }' "$work/ours.txt"; }
ours_ws() { awk -v l="$1" -v t="$2" '$1 == "load" && $2 == l && $3 == t { print $5; exit }' "$work/ours.txt"; }
l1_bytes=$(jq -r '[.caches[] | select(.level == 1) | .size_bytes] | first // 32768' "$work/m.json")

# ---- likwid-bench -----------------------------------------------------------------------------
peak_total=$((l1_bytes / 2))
log "likwid: $lw_peak_dp at $peak_total B, 1 thread (best of $reps)"
lw_peak=$(likwid_best "$lw_peak_dp" "$peak_total" 1 "MFlops/s" "${ours_peak:-50}" "$seconds")
declare -A lw_fig
for lev in "${levels[@]}"; do
    for t in "${tvals[@]}"; do
        ws=$(ours_ws "$lev" "$t")
        [[ -n "$ws" ]] || { log "ours: no $lev load roof at $(tname "$t"): nothing to size likwid by"; continue; }
        log "likwid: $lw_load $lev at $ws B, $(tname "$t") (best of $reps)"
        lw_fig[$lev:$t]=$(likwid_best "$lw_load" "$ws" "$t" "MByte/s" "$(ours_load "$lev" "$t")" "$seconds")
    done
done
[[ -e "$work/likwid-failed" ]] && crashed=1

# ---- probes -----------------------------------------------------------------------------------
pr_peak=""; declare -A pr_load
if [[ $do_probes -eq 1 ]]; then
    # a short search: 5 ms runs, the 2 best mixes of phase 1 refined; 1 thread only
    log "probe: bench/peak-probe.sh --threads 1 (short search)"
    if "$script_dir/peak-probe.sh" --threads 1 --ms 5 --reps 1 --final-reps 3 --top 2 >"$work/peak-probe.txt" 2>&1; then
        pr_peak=$(awk '$1 == "PROBE" && $2 == "dp" && $3 == 1 { print $4; exit }' "$work/peak-probe.txt")
    else
        log "bench/peak-probe.sh FAILED:"; tail -5 "$work/peak-probe.txt" | sed 's/^/    /' >&2; crashed=1
    fi
    # every level at our working sets per thread: load-probe runs each of its two sizes at 1 and
    # all threads (huge pages where the kernel allows them, as ours; likwid-bench gets 4 KiB pages
    # under THP "madvise", which costs it DRAM bandwidth)
    for lev in "${levels[@]}"; do
        s1=$(ours_ws "$lev" 1); sn=$(ours_ws "$lev" "$nthreads")
        [[ -n "$sn" ]] && sn=$((sn / nthreads))
        [[ -n "$s1" ]] || s1=$sn
        [[ -n "$s1" ]] || continue
        second=0; [[ -n "$sn" && "$sn" != "$s1" ]] && second=$sn
        log "probe: bench/load-probe.sh --threads $nthreads --size $s1 --l2-size $second ($lev)"
        if ! "$script_dir/load-probe.sh" --threads "$nthreads" --ms 10 --reps 5 --size "$s1" --l2-size "$second" \
                >"$work/load-probe-$lev.txt" 2>&1; then
            log "bench/load-probe.sh FAILED:"; tail -5 "$work/load-probe-$lev.txt" | sed 's/^/    /' >&2; crashed=1
            continue
        fi
        for t in "${tvals[@]}"; do
            per=$s1; [[ $t -gt 1 && -n "$sn" ]] && per=$sn
            per=$((per / 2048 * 2048)); [[ $per -lt 2048 ]] && per=2048   # load-probe's rounding
            pr_load[$lev:$t]=$(awk -v b="$per" -v t="$t" '$1 == "PROBE" && $2 == "load" && $3 == b && $4 == t { print $5; exit }' \
                "$work/load-probe-$lev.txt")
        done
    done
fi
check_busy

# ---- judging --------------------------------------------------------------------------------
rows=()
passed=0
failed=0
unjudged=0
# judge NAME UNIT OURS LIKWID PROBE MIN [NOTE] : a row; passes when the smaller ratio is >= MIN
judge() {
    local name=$1 unit=$2 ours=$3 lw=$4 pr=$5 min=$6 note=${7:-} rl=- rp=- lo="" verdict
    fmt() { if [[ -n "$1" ]]; then printf '%.1f %s' "$1" "$unit"; else echo "-"; fi; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "" }'; }
    if [[ -n "$ours" && -n "$lw" ]]; then rl=$(ratio "$ours" "$lw"); lo=$rl; fi
    if [[ -n "$ours" && -n "$pr" ]]; then
        rp=$(ratio "$ours" "$pr")
        [[ -z "$lo" ]] || awk -v a="$rp" -v b="$lo" 'BEGIN { exit !(a + 0 < b + 0) }' && lo=$rp
    fi
    if [[ -z "$ours" ]]; then
        verdict="FAIL (no roof of ours)"; failed=$((failed + 1))
    elif [[ -z "$lo" ]]; then
        verdict="not judged (no figure to compare)"; unjudged=$((unjudged + 1))
    elif awk -v r="$lo" -v m="$min" 'BEGIN { exit !(r + 0 >= m + 0) }'; then
        verdict="PASS"; passed=$((passed + 1))
    else
        verdict="FAIL (< $min)"; failed=$((failed + 1))
    fi
    [[ -n "$note" ]] && verdict+=" $note"
    local IFS='|'
    rows+=("$name|$(fmt "$ours")|$(fmt "$lw")|$(fmt "$pr")|${rl:--}|${rp:--}|${lo:--}|$verdict")
}

# min_ratio OURS LIKWID PROBE: the smaller of ours/likwid and ours/probe ("" when neither)
min_ratio() {
    awk -v o="$1" -v l="$2" -v p="$3" 'BEGIN { m = ""
        if (o != "" && l + 0 > 0) m = o / l
        if (o != "" && p + 0 > 0 && (m == "" || o / p < m)) m = o / p
        if (m != "") printf "%.3f", m }'
}
# recheck_load LEVEL THREADS WS: sets r_ours, r_lw, r_pr, measured once more back to back
recheck_load() {
    local lev=$1 t=$2 ws=$3 per=$(($3 / $2)) second=0
    r_ours=""; r_lw=""; r_pr=""
    if "$binary" bench --only memory --pattern load --working-set "$per" --threads "$t" -q --svg '' --no-store \
            -o "$work/recheck-$lev-$t.json" 2>"$work/recheck-$lev-$t.stderr"; then
        r_ours=$(jq -r --argjson t "$t" --arg l "$lev" \
            '[.memory[] | select(.pattern == "load" and .threads == $t and .level == $l) | .gbs] | max // ""' \
            "$work/recheck-$lev-$t.json")
    fi
    r_lw=$(likwid_best "$lw_load" "$ws" "$t" "MByte/s" "${r_ours:-$(ours_load "$lev" "$t")}" "$seconds")
    if [[ $do_probes -eq 1 ]]; then
        # load-probe runs its first size at 1 thread and at --threads; a second size of 0 is none
        "$script_dir/load-probe.sh" --threads "$t" --ms 10 --reps 5 --size "$per" --l2-size "$second" \
            >"$work/recheck-probe-$lev-$t.txt" 2>&1 || true
        per=$((per / 2048 * 2048)); [[ $per -lt 2048 ]] && per=2048
        r_pr=$(awk -v b="$per" -v t="$t" '$1 == "PROBE" && $2 == "load" && $3 == b && $4 == t { print $5; exit }' \
            "$work/recheck-probe-$lev-$t.txt")
    fi
}

judge "DP peak, 1 thread" GF/s "$ours_peak" "$lw_peak" "$pr_peak" 0.95
rechecked=0
for lev in "${levels[@]}"; do
    min=0.95; [[ $lev == DRAM ]] && min=0.97
    for t in "${tvals[@]}"; do
        ws=$(ours_ws "$lev" "$t")
        size=$(awk -v b="${ws:-0}" 'BEGIN { if (b >= 1048576) printf "%.1f MiB", b / 1048576; else printf "%.0f KiB", b / 1024 }')
        o=$(ours_load "$lev" "$t"); l=${lw_fig[$lev:$t]:-}; p=${pr_load[$lev:$t]:-}; note=""
        first=$(min_ratio "$o" "$l" "$p")
        # A host that lends these cores elsewhere now and then disturbs one figure, ours or a
        # peer's (a 2-thread DRAM roof read 50.9 GB/s beside the probe's 55.9, then 94.1 beside
        # 51.7 two runs later, on a quiet guest). A load row that fails is measured once more,
        # ours, likwid and the probe back to back, and judged on that; the row gives the first
        # ratio. A roof truly under the peers fails both times.
        if [[ -n "$first" && -z "$model" && -n "$ws" ]] && awk -v r="$first" -v m="$min" 'BEGIN { exit !(r + 0 < m + 0) }'; then
            log "recheck: load $lev $size, $(tname "$t") (first ratio $first)"
            recheck_load "$lev" "$t" "$ws"
            if [[ -n "$r_ours" ]]; then
                o=$r_ours; l=$r_lw; p=$r_pr; note="(recheck; first $first)"; rechecked=$((rechecked + 1))
            fi
        fi
        judge "load $lev $size, $(tname "$t")" GB/s "$o" "$l" "$p" "$min" "$note"
    done
done

# ---- report -----------------------------------------------------------------------------------
echo
echo "truth check: roofline bench --quick vs likwid-bench ($lw_peak_dp, $lw_load) and the probes, $(date '+%F %T')"
echo "likwid: best of $reps runs of about $seconds s; sizes are totals over the threads; ours/likwid and ours/probe must be >= 0.95 (DRAM 0.97)"
[[ $do_probes -eq 0 ]] && echo "probes: skipped (--no-probes or no gcc/python3)"
echo
{ echo "figure|ours|likwid|probe|ours/likwid|ours/probe|min|PASS/FAIL"; printf '%s\n' "${rows[@]}"; } | print_table
echo
echo "$passed passed, $failed failed$([[ $unjudged -gt 0 ]] && echo ", $unjudged not judged")$([[ $rechecked -gt 0 ]] && echo "; $rechecked measured once more after failing (ours, likwid and the probe again)")"
echo "hierarchy used (caches[].size_bytes): $(jq -r '[.caches[] | "L\(.level) \(.size_bytes / 1024 | floor) KiB (\(.size_source // "?")\(if .reported_size_bytes then "; reported \(.reported_size_bytes / 1024 | floor) KiB" else "" end)\(if (.measured_size_bytes // 0) > 0 then ", measured \(.measured_size_bytes / 1024 | floor) KiB" else "" end))"] | join(", ")' "$work/m.json")"
echo "machine: $(cpu_model) ($(jq -r '.environment.microarchitecture // "?"' "$work/m.json")), $(nproc) CPUs, hypervisor $(jq -r '.environment.hypervisor // "none" | if . == "" then "none" else . end' "$work/m.json"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
[[ -n "$quick_s" ]] && echo "roofline bench --quick took $quick_s s (target <= 30 s)"
total_s=$(elapsed "$t_start")
read -r m_busy1 m_steal1 < <(machine_ticks)
others=$(awk -v b="$((m_busy1 - m_busy0))" -v o="$(($(own_ticks) - own0))" -v st="$((m_steal1 - m_steal0))" \
    -v hz="$(getconf CLK_TCK)" -v w="$total_s" -v n="$(nproc)" 'BEGIN {
        x = (b - o) / hz; if (x < 0) x = 0; s = st / hz
        printf "%.1f %.1f %d", x, s, (x + s > 0.05 * w * n) }')
read -r other_s steal_s noisy <<<"$others"
over=$(awk -v s="$total_s" 'BEGIN { if (s > 90) print ", OVER BUDGET" }')
echo "wall time: $total_s s (budget 90 s$over)$([[ $wait_s -gt 0 ]] && echo "; before it, $waited s waiting for a quiet machine")"
echo "other work during the check: ${other_s} CPU-s of other processes, ${steal_s} s stolen by the host"
[[ -n "$busy" ]] && echo "WARNING: $busy ran during the check: its figures are not to be trusted; run it again on a quiet machine"
[[ $noisy -eq 1 && -z "$busy" ]] && echo "WARNING: other work took more than 5% of the machine during the check: figures may be low; run it again on a quiet machine"
if [[ $crashed -ne 0 ]]; then
    echo "WARNING: a tool failed (see the messages above): its figures are missing"
    exit 2
fi
[[ $failed -gt 0 ]] && exit 1
exit 0
