#!/usr/bin/env bash
# An empty name ('') for a file, directory, program or store is a usage error naming the option
# (exit 2), from the command line or a configuration file, before anything runs or is written.
# It had a silent meaning of its own in each command: '-o ""' was standard output (list, report,
# show, compare, model, history, topology, config show), no file at all (kernels, measure), or
# plot's default roofline.svg; '--db ""' was the default store (the user's own, with ROOFLINE_DB
# unset), 'compare --chart ""' no chart, 'measure --counts-from ""' and 'monitor --counts ""' as
# if not given, 'measure --machine ""' the latest stored machine. bench's -o '' and --svg '' are
# the documented way to write no model or no chart, and stay so.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"
machine=$data/report-machine.json
points=$data/report-points.json
unset ROOFLINE_DB  # the default store is the home directory's: nothing may create it

# refused OPTION CMD...: exit 2, the message naming OPTION and the empty name, and nothing else said.
refused() {
  local option=$1; shift
  timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne 2 ]] || ! grep -q -- "^$option: the name given is empty ('')" "$tmp/out"; then
    echo "FAIL: roofline $*: exit $code (want 2, '$option: the name given is empty'):"; sed 's/^/  | /' "$tmp/out"
    fail=1
  fi
}
for cmd in list history; do
  refused --output $cmd -o ''
  refused --db $cmd --db ''
done
refused --output topology -o ''
refused --output config show -o ''
refused --output show "$machine" --output ''
refused --output report --machine "$machine" --points "$points" -o ''
refused --output plot --machine "$machine" --points "$points" -o ''
refused --output compare "$machine" "$machine" -o ''
refused --output model --peak 10 --bw 5 --intensity 1 -o ''
refused --points-out model --peak 10 --bw 5 --intensity 1 --points-out ''
refused --output kernels daxpy --sizes 16K --samples 1 -o ''
refused --output measure --engine time -o '' -- true
for cmd in kernels measure bench model plot report show compare monitor; do
  case $cmd in
  measure) refused --db measure --engine time --db '' -- true ;;
  bench) refused --db bench --only compute --time-budget 1 -o '' --svg '' --db '' ;;
  *) refused --db $cmd --db '' ;;
  esac
done
refused --db kernels daxpy --sizes 16K --samples 1 --db=   # '--db=' is '--db ""'
# '-' is standard output to -o; to --db it made a SQLite file named '-'.
for cmd in "kernels daxpy --sizes 16K --samples 1" list; do
  # shellcheck disable=SC2086
  timeout 60 "$bin" $cmd --db - >"$tmp/out" 2>&1; code=$?
  if [[ $code -ne 2 ]] || ! grep -q -- "^--db: '-' is no store: a results store is a SQLite file or a postgresql:// URL" "$tmp/out"; then
    echo "FAIL: roofline $cmd --db -: exit $code (want 2):"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
done
refused --chart compare "$machine" "$machine" --chart ''
refused --counts-from measure --engine instrument --counts-from '' -- true
refused --cache-model measure --engine instrument --cache-model '' -- true
refused --times measure --times '' -- true
refused --ncu-csv measure --engine ncu --ncu-csv ''
refused --loops-library measure --loops --loops-library '' -- true
refused --counts monitor --job 1 --once --counts ''
refused --dir monitor --job 1 --once --counts "$points" --dir ''
refused --bash generate-docs --bash ''
# The argument-named ones say which command's file it was.
for args in "compare '' $machine" "model ''"; do
  eval "timeout 60 \"\$bin\" $args --machine \"\$machine\"" >"$tmp/out" 2>&1; code=$?
  if [[ $code -ne 2 ]] || ! grep -q "^${args%% *}: a .*file name given is empty ('')" "$tmp/out"; then
    echo "FAIL: roofline $args: exit $code (want 2, the empty file name said):"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
done
# --machine '' and --points '' were refused only by some commands (report, plot): now by all.
for cmd in "measure --engine time --no-store --machine '' -- true" "report --points '' --machine $machine" \
           "report --machine '' --points $points" "model --machine '' $data/model-daxpy-small.yaml"; do
  eval "timeout 60 \"\$bin\" $cmd" >"$tmp/out" 2>&1; code=$?
  if [[ $code -ne 2 ]] || ! grep -q "expects a file, 'stored' or 'stored:ID' (got '')" "$tmp/out"; then
    echo "FAIL: roofline $cmd: exit $code (want 2):"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
done
# A configuration file's '' is refused the same way, named with its place in the file.
printf "kernels:\n  db: ''\n" >roofline.yaml
timeout 60 "$bin" kernels daxpy --sizes 16K --samples 1 >"$tmp/out" 2>&1; code=$?
if [[ $code -ne 2 ]] || ! grep -q "roofline.yaml:2:7: kernels.db: .*--db: the name given is empty" "$tmp/out"; then
  echo "FAIL: kernels.db: '' in roofline.yaml: exit $code (want 2):"; sed 's/^/  | /' "$tmp/out"; fail=1
fi
rm roofline.yaml

# Nothing was written: no default store in the home directory, no default chart, no file named ''.
[[ -e $HOME/.local/share/roofline ]] && { echo "FAIL: the default store was created"; fail=1; }
leftover=$(ls -A)
[[ -z $leftover ]] || { echo "FAIL: files written: $leftover"; fail=1; }

# bench: '' is documented ("'' for none") and still means no model, no chart.
"$bin" bench --help >"$tmp/help" 2>&1
grep -A1 -- "-o,--output" "$tmp/help" | grep -q "('' for none" ||
  { echo "FAIL: bench --help does not say -o '' is none"; fail=1; }
grep -q -- "--svg.*('' for none" "$tmp/help" || { echo "FAIL: bench --help does not say --svg '' is none"; fail=1; }
timeout 60 "$bin" bench --list -o '' --svg '' >"$tmp/out" 2>&1 ||
  { echo "FAIL: bench --list -o '' --svg '' refused:"; sed 's/^/  | /' "$tmp/out"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: an empty name is refused, naming its option, before anything runs"
exit $fail
