#!/usr/bin/env bash
# make fuzz-smoke: runs every libFuzzer target of BUILD/fuzz for FUZZ_SECONDS (default 60)
# over its seed corpus (tests/fuzz/corpus/<name>) and a working corpus (BUILD/corpus/<name>).
# Fails on any crash, sanitizer report, leak, timeout (-timeout=10) or OOM (-rss_limit_mb=2048);
# the input that did it is saved under BUILD/crashes/<name>/.
# Usage: smoke.sh BUILD [TARGET...]   (env: FUZZ_SECONDS, FUZZ_JOBS=1|2)
set -uo pipefail
source "$(dirname "$0")/fuzz_env.sh"
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
run_one() {
  local name=$1 bin="$build/fuzz/$1_fuzz"
  [[ -x $bin ]] || { echo "fuzz-smoke: $bin not built"; return 1; }
  mkdir -p "$build/crashes/$name" "$build/corpus/$name"
  local log="$build/fuzz-logs/$name.log"
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
         -artifact_prefix="$build/crashes/$name/" "$build/corpus/$name" "$src/corpus/$name" >"$log" 2>&1
  local code=$?
  local execs; execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if ((code == 0)); then
    echo "fuzz-smoke: $name: ok (${execs:-?} runs in ${seconds}s)"
  else
    echo "fuzz-smoke: $name: FAILED (exit $code), log $log, input in $build/crashes/$name/:"
    grep -E 'ERROR: |SUMMARY: |FUZZ FINDING|runtime error|^    #[0-9] ' "$log" | head -20
  fi
  return $code
}
export -f run_one; export build src seconds
status=0
if ((jobs > 1)); then
  printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}' || status=1
else
  for t in "${targets[@]}"; do run_one "$t" || status=1; done
fi
exit $status
