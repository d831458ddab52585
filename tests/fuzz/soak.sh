#!/usr/bin/env bash
# make fuzz-soak: the long fuzz runs (issue 10 asks for an hour each before a release).
# Runs each libFuzzer target of BUILD/fuzz until the fuzzer itself has used FUZZ_CPU_SECONDS
# (default 3600) of CPU time, not wall time: on a shared 2-vCPU machine a wall-clock hour
# can be half an hour of fuzzing. The fuzzer is then stopped with SIGINT (libFuzzer prints its
# final stats and exits 72). A wall-clock cap of 4x the CPU budget stops a starved run.
# Same options and corpora as smoke.sh, but an RSS limit of 4 GB: under ASan a long run's RSS
# climbs by about 1 MB per thousand inputs with no leak of ours (the same inputs in a loop
# without ASan stay at 6 MB; ASan's stack depot keeps every distinct allocation stack, and the
# YAML parser's recursion makes new ones), so 2 GB is reached within the hour. A single
# allocation over 2 GB (-malloc_limit_mb) is still a finding, as is any leak or timeout.
# libFuzzer's -timeout is wall-clock time per input: a fuzzer at nice 19 on a busy machine can
# wait longer than that for a CPU, so the limit is 60 s here, and an input reported as a
# timeout is replayed at once: when it runs in under a second it was a starved run, not a
# hang (said in the log), and the fuzzer goes on with the rest of its CPU budget.
# Findings are saved under BUILD/crashes/<name>/.
# A soak may be split over several sittings (a session ends, the machine is needed): SIGINT or
# SIGTERM stops it with a "stopped" line that keeps the CPU seconds and executions so far, and
# the next soak of that target resumes from them, on the corpus the earlier part grew.
# Writes one line per target to BUILD/fuzz-logs/soak.tsv:
#   target  verdict  cpu_s  wall_s  executions  cov  ft  corpus_units
# (cov: edges of the instrumented code reached; ft: libFuzzer's finer features.)
# Usage: soak.sh BUILD [TARGET...]   (env: FUZZ_CPU_SECONDS, FUZZ_NICE=19)
set -uo pipefail
source "$(dirname "$0")/fuzz_env.sh"
budget=${FUZZ_CPU_SECONDS:-3600}
niceness=${FUZZ_NICE:-19}
summary="$build/fuzz-logs/soak.tsv"
tick=$(getconf CLK_TCK)

cpu_seconds() {  # utime + stime of a process, all its threads ($14, $15 of /proc/PID/stat)
  local stat; stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }
  stat=${stat##*) }  # the command name may hold spaces; fields restart after ") "
  read -r -a f <<<"$stat"
  echo $(((f[11] + f[12]) / tick))
}

executions_in() { grep -o 'stat::number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$'; }

# Interrupted: the fuzzer stops (libFuzzer prints its stats on SIGINT), and the part done so far
# is kept as a "stopped" line for the next soak to resume from.
stop_part() {
  now=$(cpu_seconds "$pid"); ((now >= 0)) && used=$((before + now))
  kill -INT "$pid" 2>/dev/null; wait "$pid"
  cat "$part" >>"$log"
  n=$(executions_in "$part"); rm -f "$part"
  printf '%s\tstopped\t%s\t%s\t%s\t-\t-\t-\n' "$name" "$used" "$((earlier_wall + SECONDS - start))" \
    "$((execs + ${n:-0}))" | tee -a "$summary"
  exit 130
}

status=0
for name in "${targets[@]}"; do
  bin="$build/fuzz/${name}_fuzz"
  [[ -x $bin ]] || { echo "fuzz-soak: $bin not built"; status=1; continue; }
  mkdir -p "$build/crashes/$name" "$build/corpus/$name"
  log="$build/fuzz-logs/$name.soak.log"
  start=$SECONDS
  used=0 execs=0 starved=0 earlier_wall=0
  last_line=$( (grep -P "^\Q$name\E\t" "$summary" 2>/dev/null || true) | tail -1)
  if [[ $(cut -f2 <<<"$last_line") == stopped ]]; then
    IFS=$'\t' read -r _ _ used earlier_wall execs _ <<<"$last_line"
    echo "soak: $name: resuming after $used s of CPU and $execs executions" | tee -a "$log"
  else
    : >"$log"
  fi
  while :; do
    part="$log.part"
    nice -n "$niceness" "$bin" -timeout=60 -rss_limit_mb=4096 -malloc_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$name/" "$build/corpus/$name" "$src/corpus/$name" >"$part" 2>&1 &
    pid=$!
    trap 'stop_part' INT TERM
    before=$used
    while kill -0 "$pid" 2>/dev/null; do
      sleep 10
      now=$(cpu_seconds "$pid"); ((now >= 0)) && used=$((before + now))
      if ((used >= budget || SECONDS - start >= 4 * budget)); then kill -INT "$pid" 2>/dev/null; fi
    done
    wait "$pid"; code=$?
    trap - INT TERM
    cat "$part" >>"$log"
    n=$(executions_in "$part")
    execs=$((execs + ${n:-0}))
    artifact=$(grep -o "Test unit written to .*timeout-[0-9a-f]*" "$part" | sed 's/.*written to //')
    rm -f "$part"
    [[ -n $artifact && -f $artifact ]] || break
    t0=$(date +%s%N)
    timeout 60 "$bin" "$artifact" >/dev/null 2>&1
    ms=$((($(date +%s%N) - t0) / 1000000))
    ((ms < 1000)) || break  # slow again when replayed: a real timeout
    echo "soak: $name: the timeout input ran in $ms ms when replayed: a starved run, not a hang; going on" >>"$log"
    rm -f "$artifact"; starved=$((starved + 1))
    ((used < budget && SECONDS - start < 4 * budget)) || { code=72; break; }
  done
  wall=$((earlier_wall + SECONDS - start))
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*$')
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*$')
  units=$(find "$build/corpus/$name" -type f | wc -l)
  if ((code == 72)) && ! grep -qE 'FUZZ FINDING|runtime error|ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehavior|libFuzzer: (deadly|out-of-memory|malloc))' "$log"; then
    verdict=clean
    ((starved)) && verdict="clean ($starved starved timeouts replayed fast)"
  else
    verdict="FINDING(exit $code)"; status=1
    grep -E 'ERROR: |SUMMARY: |FUZZ FINDING|runtime error|^    #[0-9] ' "$log" | head -20
  fi
  line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$verdict" "$used" "$wall" "$execs" "${cov:-?}" "${ft:-?}" "$units")
  echo "$line" | tee -a "$summary"
done
exit $status
