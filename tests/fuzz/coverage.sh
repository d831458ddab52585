#!/usr/bin/env bash
# make fuzz-coverage: how much of each parser the fuzz corpora reach. Runs every target of
# COV_BUILD (built with -DROOFLINE_FUZZ_COVERAGE=ON) once over its seed corpus and the working
# corpus the fuzz runs grew (CORPUS_BUILD/corpus/<name>, e.g. build-fuzz after make fuzz-soak),
# then reports llvm-cov's line, function and region coverage of the source files the target's
# parser lives in. Those files also hold code the target does not call (writers, other readers),
# so 100% is not the aim; the uncovered lines are listed with `llvm-cov show` (see the log).
# Writes COV_BUILD/fuzz-coverage/summary.tsv:  target  files  lines%  functions%  regions%  inputs
# Usage: coverage.sh COV_BUILD CORPUS_BUILD [TARGET...]
set -uo pipefail
cov=$(cd "$1" && pwd); corpora=$(cd "$2" && pwd); shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
declare -A files=(
  [points_json]="src/io/points_json.cpp src/io/json_node.cpp"
  [machine_json]="src/io/machine_json.cpp src/io/json_node.cpp"
  [machine_spec_yaml]="src/io/machine_spec_yaml.cpp src/io/yaml_node.cpp"
  [kernel_spec_yaml]="src/io/kernel_spec_yaml.cpp src/io/yaml_node.cpp"
  [yaml_expression]="src/io/yaml_node.cpp"
  [event_file]="src/measure/event_file.cpp"
  [formula]="src/measure/formula.cpp"
  [marker_json]="src/measure/protocol_json.cpp"
  [vgtool_json]="src/measure/protocol_json.cpp"
  [monitor_snapshot]="src/measure/monitor_snapshot.cpp"
)
targets=("$@")
((${#targets[@]})) || targets=(points_json machine_json machine_spec_yaml kernel_spec_yaml yaml_expression event_file formula marker_json vgtool_json monitor_snapshot)
out=$cov/fuzz-coverage; mkdir -p "$out"
summary=$out/summary.tsv
printf 'target\tfiles\tlines%%\tfunctions%%\tregions%%\tinputs\n' >"$summary"
export ASAN_OPTIONS=detect_leaks=0
status=0
for name in "${targets[@]}"; do
  bin=$cov/fuzz/${name}_fuzz
  [[ -x $bin && -n ${files[$name]:-} ]] || { echo "fuzz-coverage: no $bin (or no files listed for it)"; status=1; continue; }
  dirs=("$src/tests/fuzz/corpus/$name")
  [[ -d $corpora/corpus/$name ]] && dirs+=("$corpora/corpus/$name")
  inputs=$(find "${dirs[@]}" -type f | wc -l)
  rm -f "$out/$name".*.profraw
  LLVM_PROFILE_FILE="$out/$name.%p.profraw" "$bin" -runs=0 -timeout=10 -rss_limit_mb=4096 "${dirs[@]}" >"$out/$name.log" 2>&1 ||
    { echo "fuzz-coverage: $name failed on its corpus (see $out/$name.log)"; status=1; continue; }
  llvm-profdata merge -sparse "$out/$name".*.profraw -o "$out/$name.profdata" || { status=1; continue; }
  paths=(); for f in ${files[$name]}; do paths+=("$src/$f"); done
  llvm-cov report "$bin" -instr-profile="$out/$name.profdata" "${paths[@]}" >"$out/$name.report" 2>>"$out/$name.log"
  llvm-cov show "$bin" -instr-profile="$out/$name.profdata" -show-line-counts-or-regions "${paths[@]}" >"$out/$name.show" 2>>"$out/$name.log"
  # TOTAL  regions missed cover%  functions missed cover%  lines missed cover%  [branches ...]
  read -r -a t < <(grep '^TOTAL' "$out/$name.report")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${files[$name]}" "${t[9]:-?}" "${t[6]:-?}" "${t[3]:-?}" "$inputs" >>"$summary"
done
column -t -s $'\t' "$summary"
exit $status
