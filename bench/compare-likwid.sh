#!/usr/bin/env bash
# compare-likwid.sh — run `roofline bench`, `likwid-bench` (its widest-ISA kernels) and our
# own assembly probes (bench/peak-probe.sh, bench/load-probe.sh) on this machine in one go
# and print how our roofs compare, next to the physical limit our JSON reports (a benchmark,
# not a test: exits 0 when targets fail, non-zero only when a tool crashed or is missing).
# Options: --help.
set -uo pipefail

usage() {
    cat <<'EOF'
Usage: bench/compare-likwid.sh [OPTIONS]

Compares `roofline bench` with `likwid-bench` and with the brute-force assembly probes
bench/peak-probe.sh (best FMA/ADD mix) and bench/load-probe.sh (plain vmovapd loads) on this
machine, and times our runs. Prints:
  figure | ours | likwid | probe | physical limit | ours/likwid | ours/probe | target | PASS/FAIL
then "N passed, M failed". The physical limit is our JSON's theoretical_gflops (compute
roofs) or theoretical_gbs (memory roofs, from the --quick runs' per-level roofs); "?" where
it is 0, null or absent (a CPU our table does not know).
likwid kernels: the widest ISA this CPU and likwid-bench have: peakflops[_sp]_avx512_fma,
load_avx512, copy_mem_avx512, stream_mem_avx512[_fma] where /proc/cpuinfo has avx512f,
else peakflops[_sp]_avx_fma, load_avx, copy_mem_avx, stream_mem_avx_fma.

  --binary PATH    roofline binary (default: build/roofline; built with `make` if missing)
  --threads N      the "all threads" count (default: number of online CPUs)
  --no-full        do not time `roofline bench --full` (it takes about a minute)
  --quick-only     only time `--quick` and check its run-to-run stability
                   (no likwid comparisons, no --full)
  --reps N         runs of each tool per figure, the best of each is compared (default 3)
  --no-probes      do not run bench/peak-probe.sh and bench/load-probe.sh (no probe targets)
  --probe-ms N     --ms for the probes (default: theirs, 10; peak-probe takes 20-40 s)
  --keep DIR       keep our JSON outputs and likwid logs in DIR (default: a temp dir, removed)
  -h, --help       this help

Figures (likwid: max of --reps runs; ours: max of --reps runs of the median roofline bench
reports; probes: their own best of several runs; "L" = likwid, "P" = probe):
  DP/SP peak, 1 and all threads (ours "best" mix)  >= 1.15 x L peakflops[_sp]_<widest>_fma
                                                   and >= 0.95 x P peak-probe
  load L1 16kB per thread                          >= 1.0 x L load_<widest>, >= 0.95 x P load-probe
  load L2 256kB/L3 8MB/DRAM 1GB per thread         >= 1.0 x L load_<widest> (L2: probe shown, no target)
  DRAM best pattern (any of ours, incl. _nt), 1GB/thread >= 0.97 x max(copy_mem_<w>, stream_mem_<w>)
  wall time of --quick <= 30 s, --full <= 180 s
  3 x --quick: every top roof within 5% of the median of the three
Sizes: ours parse kB/MB/GB as 1024-based, per thread; likwid's -W size is the total over
threads (and 1000-based for kB/MB/GB), so likwid gets the same total in bytes: N:<bytes>B:<threads>
(from 2 GiB on, likwid cannot read a byte count, so the total goes in kB rounded up: +<0.0001%).
EOF
}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
binary="$repo/build/roofline"
threads_all=$(nproc 2>/dev/null || echo 1)
do_full=1
quick_only=0
reps=3
keep=""
do_probes=1
probe_ms=""

while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --binary=*) binary=${1#*=}; shift ;;
        --threads) threads_all=${2:?--threads needs a number}; shift 2 ;;
        --threads=*) threads_all=${1#*=}; shift ;;
        --no-full) do_full=0; shift ;;
        --quick-only) quick_only=1; do_full=0; shift ;;
        --reps) reps=${2:?--reps needs a number}; shift 2 ;;
        --reps=*) reps=${1#*=}; shift ;;
        --no-probes) do_probes=0; shift ;;
        --probe-ms) probe_ms=${2:?--probe-ms needs a number}; shift 2 ;;
        --probe-ms=*) probe_ms=${1#*=}; shift ;;
        --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
        --keep=*) keep=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "compare-likwid: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$threads_all" =~ ^[1-9][0-9]*$ ]] || { echo "compare-likwid: --threads wants a positive number" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "compare-likwid: --reps wants a positive number" >&2; exit 2; }
[[ -z "$probe_ms" || "$probe_ms" =~ ^[1-9][0-9]*$ ]] || { echo "compare-likwid: --probe-ms wants a positive number" >&2; exit 2; }
[[ $quick_only -eq 1 ]] && do_probes=0

log() { printf '[compare-likwid] %s\n' "$*" >&2; }

# ---- prerequisites -----------------------------------------------------------------
# shellcheck source=bench/probe-common.sh
source "$script_dir/probe-common.sh"
ensure_tool compare-likwid jq jq || exit 1
# likwid kernels: the widest ISA the CPU has and this likwid-bench knows
if [[ $quick_only -eq 0 ]]; then
    ensure_tool compare-likwid likwid-bench likwid || { echo "compare-likwid: (or use --quick-only)" >&2; exit 1; }
    likwid_widest_kernels compare-likwid || exit 1
fi
if [[ $do_probes -eq 1 ]]; then
    for tool in gcc python3; do
        command -v "$tool" >/dev/null 2>&1 || { echo "compare-likwid: the probes need $tool (or use --no-probes)" >&2; exit 1; }
    done
fi
if [[ ! -x "$binary" ]]; then
    if [[ "$binary" == "$repo/build/roofline" ]]; then
        log "$binary is missing: building it with 'make -C $repo build'"
        make -C "$repo" build >&2 || { echo "compare-likwid: build failed" >&2; exit 1; }
    fi
    [[ -x "$binary" ]] || { echo "compare-likwid: no roofline binary at $binary (use --binary PATH)" >&2; exit 1; }
fi

if [[ -n "$keep" ]]; then
    mkdir -p "$keep" || exit 1
    work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/compare-likwid.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
fi

crashed=0
tlist="1"
[[ $threads_all -gt 1 ]] && tlist="1,$threads_all"
tvals=(1)
[[ $threads_all -gt 1 ]] && tvals+=("$threads_all")

# ---- result rows -------------------------------------------------------------------
# "figure|ours|likwid|probe|physical|ours/likwid|ours/probe|target|result"; the physical limit
# is a lookup key (@gf:PREC:T, @gb:LEVEL:PATTERN:T) resolved from our JSON files at the end
rows=()
passed=0
failed=0
add_row() { local IFS='|'; rows+=("$*"); }

# compare NAME UNIT OURS LIKWID LMIN PROBE PMIN PHYSKEY
#   passes when ours/likwid >= LMIN and (PMIN given) ours/probe >= PMIN; a probe figure without
#   PMIN is shown with its ratio but not judged
compare() {
    local name=$1 unit=$2 ours=$3 lw=$4 lmin=$5 pr=$6 pmin=$7 phys=$8
    local rl=- rp=- target=() why=() f_ours f_lw f_pr
    have() { [[ -n "$1" && "$1" != null ]]; }
    fmt() { if have "$1"; then printf '%.1f %s' "$1" "$unit"; else echo n/a; fi; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
    ge() { awk -v r="$1" -v m="$2" 'BEGIN { exit !(r != "inf" && r + 0 >= m + 0) }'; }
    f_ours=$(fmt "$ours"); f_lw=$(fmt "$lw"); f_pr=$(fmt "$pr")
    [[ $do_probes -eq 0 || ( -z "$pr" && -z "$pmin" ) ]] && { f_pr=-; pmin=""; }
    have "$ours" && have "$lw" && rl=$(ratio "$ours" "$lw")
    have "$ours" && have "$pr" && [[ $do_probes -eq 1 ]] && rp=$(ratio "$ours" "$pr")
    [[ -n "$lmin" ]] && target+=(">= $lmin L")
    [[ -n "$pmin" ]] && target+=(">= $pmin P")
    if ! have "$ours"; then why+=("no figure: ours"); fi
    if [[ -n "$lmin" ]]; then
        if ! have "$lw"; then why+=("no figure: likwid"); elif have "$ours" && ! ge "$rl" "$lmin"; then why+=("likwid"); fi
    fi
    if [[ -n "$pmin" ]]; then
        if ! have "$pr"; then why+=("no figure: probe"); elif have "$ours" && ! ge "$rp" "$pmin"; then why+=("probe"); fi
    fi
    local verdict=PASS
    if [[ ${#why[@]} -gt 0 ]]; then
        verdict="FAIL ($(IFS=,; echo "${why[*]}" | sed 's/,/, /g'))"; failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
    add_row "$name" "$f_ours" "$f_lw" "$f_pr" "$phys" "$rl" "$rp" "$(IFS=,; echo "${target[*]}" | sed 's/,/, /g')" "$verdict"
}

# at_most NAME VALUE LIMIT UNIT [SHOWN]
at_most() {
    local name=$1 v=$2 lim=$3 unit=$4 shown=${5:-} verdict
    [[ -z "$shown" ]] && shown=$(printf '%.1f %s' "$v" "$unit")
    if awk -v a="$v" -v b="$lim" 'BEGIN { exit !(a + 0 <= b + 0) }'; then
        verdict=PASS; passed=$((passed + 1))
    else
        verdict=FAIL; failed=$((failed + 1))
    fi
    add_row "$name" "$shown" - - - - - "<= $lim $unit" "$verdict"
}

# physical KEY : the physical limit our JSON files report for a row ("?" when unknown)
physical() {
    local key=$1 v files=()
    [[ "$key" == @* ]] || { echo "$key"; return; }
    shopt -s nullglob
    files=("$work"/*.json)
    shopt -u nullglob
    [[ ${#files[@]} -eq 0 ]] && { echo "?"; return; }
    IFS=: read -r kind a b c <<<"${key#@}"
    case "$kind" in
        gf) v=$(jq -rs --arg p "$a" --argjson t "$b" \
                '[.[] | (.compute // [])[] | select(.precision == $p and .mix == "best" and .threads == $t)
                  | (.theoretical_gflops // 0)] | max // 0' "${files[@]}" 2>/dev/null) ;;
        gb) v=$(jq -rs --arg l "$a" --arg p "$b" --argjson t "$c" \
                '[.[] | (.memory // [])[] | select(.level == $l and ($p == "*" or .pattern == $p) and .threads == $t)
                  | (.theoretical_gbs // 0)] | max // 0' "${files[@]}" 2>/dev/null) ;;
    esac
    if awk -v x="${v:-0}" 'BEGIN { exit !(x + 0 > 0) }'; then
        printf '%.1f %s' "$v" "$([[ $kind == gf ]] && echo GF/s || echo GB/s)"
    else
        echo "?"
    fi
}

# ---- helpers -------------------------------------------------------------------------
# run_ours OUTFILE ARGS... : roofline bench, quiet, no chart, no results-store row
run_ours() {
    local out=$1; shift
    local errf="$out.stderr"
    if ! "$binary" bench -q --svg '' --no-store -o "$out" "$@" 2>"$errf"; then
        log "roofline bench $* FAILED (rc != 0):"; sed 's/^/    /' "$errf" >&2
        crashed=1; return 1
    fi
    [[ -s "$out" ]] || { log "roofline bench $* wrote no JSON"; crashed=1; return 1; }
    return 0
}

# bytes TEXT : our parser's reading of a size (kB/MB/GB are 1024-based)
bytes() {
    awk -v s="$1" 'BEGIN {
        v = s + 0; u = tolower(s); sub(/^[0-9.]+/, "", u)
        m = 1; if (u ~ /^k/) m = 1024; else if (u ~ /^m/) m = 1048576; else if (u ~ /^g/) m = 1073741824
        printf "%.0f", v * m }'
}

# run_ours_reps PREFIX ARGS... : $reps runs of roofline bench into PREFIX-1.json ... PREFIX-N.json,
# so that our best run is compared with likwid's best run (the VM's vCPUs move between host
# cores, so single runs of either tool can differ by 2x)
run_ours_reps() {
    local prefix=$1 i; shift
    for ((i = 1; i <= reps; i++)); do run_ours "$prefix-$i.json" "$@" || return 1; done
}

log "machine: $(cpu_model), $(nproc) CPUs; comparing 1 and $threads_all threads"
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
log "work files in $work"

# ---- 0. our assembly probes -------------------------------------------------------------
levels=(L1 L2 L3 DRAM)
sizes=(16kB 256kB 8MB 1GB)
if [[ $do_probes -eq 1 ]]; then
    pargs=(--threads "$threads_all"); [[ -n "$probe_ms" ]] && pargs+=(--ms "$probe_ms")
    log "probe: bench/peak-probe.sh ${pargs[*]} (every FMA/ADD chain mix, 20-40 s)"
    if "$script_dir/peak-probe.sh" "${pargs[@]}" >"$work/peak-probe.txt" 2>&1; then
        awk '$1 == "PROBE" { printf "    %s %s thread(s): %s GF/s, %s (%s), %s FLOP/cycle\n", $2, $3, $4, $5, $7, $6 }
             $1 == "PROBE_CLOCK" { printf "    clock, %s thread(s): %s GHz\n", $2, $3 }
             /^WARNING/ { print "    " $0 }' "$work/peak-probe.txt" >&2
    else
        log "bench/peak-probe.sh FAILED:"; tail -5 "$work/peak-probe.txt" | sed 's/^/    /' >&2; crashed=1
    fi
    log "probe: bench/load-probe.sh ${pargs[*]} --size ${sizes[0]} --l2-size ${sizes[1]}"
    if "$script_dir/load-probe.sh" "${pargs[@]}" --size "$(bytes "${sizes[0]}")" --l2-size "$(bytes "${sizes[1]}")" \
            >"$work/load-probe.txt" 2>&1; then
        awk '$1 == "PROBE" { printf "    load %s B/thread, %s thread(s): %s GB/s (%s)\n", $3, $4, $5, $6 }
             /^WARNING/ { print "    " $0 }' "$work/load-probe.txt" >&2
    else
        log "bench/load-probe.sh FAILED:"; tail -5 "$work/load-probe.txt" | sed 's/^/    /' >&2; crashed=1
    fi
fi
# probe_peak PREC T / probe_load BYTES_PER_THREAD T : the probe's figure (empty when none)
probe_peak() { [[ -f "$work/peak-probe.txt" ]] && awk -v p="$1" -v t="$2" '$1 == "PROBE" && $2 == p && $3 == t { print $4; exit }' "$work/peak-probe.txt"; }
probe_load() { [[ -f "$work/load-probe.txt" ]] && awk -v b="$1" -v t="$2" '$1 == "PROBE" && $2 == "load" && $3 == b && $4 == t { print $5; exit }' "$work/load-probe.txt"; }

# ---- 1. compute peaks ------------------------------------------------------------------
if [[ $quick_only -eq 0 ]]; then
    log "ours: compute roofs (dp, sp; threads $tlist)"
    if run_ours_reps "$work/compute" --only compute --precision both --threads "$tlist"; then
        for prec in dp sp; do
            test=$lw_peak_dp; [[ $prec == sp ]] && test=$lw_peak_sp
            for t in "${tvals[@]}"; do
                ours=$(jq -rs --arg p "$prec" --argjson t "$t" \
                    '[.[].compute[] | select(.precision == $p and .threads == $t and .mix == "best") | .gflops] | max // empty' \
                    "$work"/compute-*.json)
                log "likwid: $test, $(tname "$t") (x$reps)"
                # 32 kB per thread: in L1, as in likwid's own peakflops examples
                lw=$(likwid_best "$test" $((32000 * t)) "$t" "MFlops/s")
                compare "${prec^^} peak, $(tname "$t")" GF/s "$ours" "$lw" 1.15 \
                    "$(probe_peak "$prec" "$t")" 0.95 "@gf:$prec:$t"
            done
        done
    fi

# ---- 2. load bandwidth per level ---------------------------------------------------------
    log "ours: load bandwidth at ${sizes[*]} per thread (threads $tlist)"
    if run_ours_reps "$work/load" --only memory --pattern load --working-set "$(IFS=,; echo "${sizes[*]}")" --threads "$tlist"; then
        for t in "${tvals[@]}"; do
            for i in "${!levels[@]}"; do
                per=$(bytes "${sizes[$i]}"); total=$((per * t))
                ours=$(jq -rs --argjson t "$t" --argjson ws "$total" \
                    '[.[].curves[] | select(.pattern == "load" and .threads == $t) | .points[] | select(.[0] == $ws) | .[1]] | max // empty' \
                    "$work"/load-*.json)
                log "likwid: $lw_load ${sizes[$i]}/thread, $(tname "$t") (x$reps)"
                lw=$(likwid_best "$lw_load" "$total" "$t" "MByte/s")
                pr=""; pmin=""
                if [[ $i -le 1 ]]; then pr=$(probe_load "$per" "$t"); fi
                [[ $i -eq 0 ]] && pmin=0.95
                compare "load ${levels[$i]} ${sizes[$i]}/thr, $(tname "$t")" GB/s "$ours" "$lw" 1.0 \
                    "$pr" "$pmin" "@gb:${levels[$i]}:load:$t"
            done
        done
    fi

# ---- 3. DRAM best pattern ---------------------------------------------------------------
    log "ours: DRAM 1GB/thread, every pattern (threads $tlist)"
    if run_ours_reps "$work/dram" --only memory --working-set 1GB \
            --pattern load,store,copy,triad,2ld1st,store_nt,copy_nt,triad_nt --threads "$tlist"; then
        for t in "${tvals[@]}"; do
            total=$(( $(bytes 1GB) * t ))
            best=$(jq -rs --argjson t "$t" --argjson ws "$total" \
                '[.[].curves[] | select(.threads == $t) | .pattern as $p | .points[] | select(.[0] == $ws) | {p: $p, g: .[1]}]
                 | max_by(.g) // empty | "\(.g) \(.p)"' "$work"/dram-*.json)
            ours=${best%% *}; pat=${best#* }
            log "likwid: $lw_copy_mem and $lw_stream_mem 1GB/thread, $(tname "$t") (x$reps)"
            lc=$(likwid_best "$lw_copy_mem" "$total" "$t" "MByte/s")
            ls_=$(likwid_best "$lw_stream_mem" "$total" "$t" "MByte/s")
            lw=$(awk -v a="$lc" -v b="$ls_" 'BEGIN { if (a == "" && b == "") exit; print (a + 0 > b + 0 ? a : b) }')
            lname=copy; awk -v a="$lc" -v b="$ls_" 'BEGIN { exit !(b + 0 > a + 0) }' && lname=stream
            compare "DRAM best (${pat:-?} vs $lname), $(tname "$t")" GB/s "$ours" "$lw" 0.97 "" "" "@gb:DRAM:*:$t"
        done
    fi
fi

# ---- 4. wall time and stability of --quick; wall time of --full -----------------------
quick_ok=0
for i in 1 2 3; do
    log "ours: roofline bench --quick, run $i of 3"
    t0=$(now)
    if run_ours "$work/quick$i.json" --quick; then
        quick_ok=$((quick_ok + 1))
        dt=$(elapsed "$t0")
        [[ $i -eq 1 ]] && quick_time=$dt
        log "  took $dt s"
    fi
done
if [[ -n "${quick_time:-}" ]]; then
    at_most "wall time --quick" "$quick_time" 30 s
fi

if [[ $quick_ok -eq 3 ]]; then
    # top roofs of each run: best compute per precision/threads, memory per level/pattern/threads
    stab=$(jq -rs '
        def roofs: ([.compute[] | select(.mix == "best") | {key: "\(.precision) peak \(.threads)t", value: .gflops}]
                  + [.memory[] | {key: "\(.level) \(.pattern) \(.threads)t", value: .gbs}]) | from_entries;
        (map(roofs)) as $r
        | ([$r[] | keys[]] | unique) as $keys
        | [ $keys[] as $k
            | [$r[] | .[$k] | select(. != null)] as $v
            | if ($v | length) < 3 then {k: $k, dev: null}
              else ($v | sort | .[1]) as $med
                   | {k: $k, dev: ([$v[] | ((. - $med) / $med | fabs)] | max)} end ]
        | (map(select(.dev == null)) | map(.k)) as $missing
        | (map(select(.dev != null)) | max_by(.dev)) as $w
        | "\($w.dev // 0) \($w.k // "-" | gsub(" "; "_")) \(length) \($missing | join(","))"
    ' "$work/quick1.json" "$work/quick2.json" "$work/quick3.json")
    read -r dev worst nroofs missing <<<"$stab"
    pct=$(awk -v d="$dev" 'BEGIN { printf "%.1f", d * 100 }')
    at_most "3x --quick: worst dev. of $nroofs roofs" "$pct" 5 % "$pct % (${worst//_/ })"
    [[ -n "${missing:-}" ]] && log "roofs missing from some --quick runs: $missing"
    log "per-roof deviation from the median of 3 --quick runs:"
    jq -rs '
        def roofs: ([.compute[] | select(.mix == "best") | {key: "\(.precision) peak \(.threads)t", value: .gflops}]
                  + [.memory[] | {key: "\(.level) \(.pattern) \(.threads)t", value: .gbs}]) | from_entries;
        map(roofs) as $r | ([$r[] | keys[]] | unique)[] as $k
        | [$r[] | .[$k] | select(. != null)] as $v | select(($v | length) == 3)
        | ($v | sort | .[1]) as $med
        | "    \($k): \($v | map(. * 10 | round / 10) | join(" / ")), worst \(([$v[] | ((. - $med) / $med | fabs)] | max) * 1000 | round / 10)%"
    ' "$work/quick1.json" "$work/quick2.json" "$work/quick3.json" >&2
else
    add_row "3x --quick stability" n/a - - - - - "<= 5 %" "FAIL (a run failed)"
    failed=$((failed + 1))
fi

if [[ $do_full -eq 1 ]]; then
    log "ours: roofline bench --full (about a minute)"
    t0=$(now)
    if run_ours "$work/full.json" --full; then
        dt=$(elapsed "$t0")
        at_most "wall time --full" "$dt" 180 s
    else
        add_row "wall time --full" crashed - - - - - "<= 180 s" "FAIL"
        failed=$((failed + 1))
    fi
fi

# ---- table -------------------------------------------------------------------------------
echo
echo "roofline bench vs likwid-bench and our probes on $(cpu_model) ($(nproc) CPUs), $(date '+%F %T')"
echo "ours: best of $reps runs, each figure the median of its samples as roofline bench reports it; likwid: best of $reps runs (likwid-bench measures once per call)"
if [[ $quick_only -eq 0 ]]; then
    echo "likwid kernels: $lw_peak_dp, $lw_peak_sp, $lw_load, $lw_copy_mem, $lw_stream_mem"
fi
[[ $do_probes -eq 1 ]] && echo "probes: bench/peak-probe.sh and bench/load-probe.sh (best of their runs; L = likwid, P = probe in the target column)"
echo "likwid pinned per workgroup N:<bytes>B:<threads> (hwthreads 0..T-1), ours pinned one thread per core; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
echo
{
    echo "figure|ours|likwid|probe|physical limit|ours/likwid|ours/probe|target|result"
    for r in "${rows[@]}"; do
        IFS='|' read -r -a f <<<"$r"
        f[4]=$(physical "${f[4]}")
        (IFS='|'; echo "${f[*]}")
    done
} | print_table
echo
[[ -e "$work/likwid-failed" ]] && crashed=1
[[ $crashed -ne 0 ]] && echo "WARNING: a tool failed during the run (see the messages above); its figures are missing"
echo "$passed passed, $failed failed"
[[ $crashed -ne 0 ]] && exit 1
exit 0
