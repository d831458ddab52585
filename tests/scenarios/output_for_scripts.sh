#!/usr/bin/env bash
# Output a script can parse: '-o -' puts every command's result on standard
# output and nothing else there (the tables, notes and a measured program's own
# output go to stderr), no file named '-' is left behind, and a closed standard
# output is an error; every --format json document parses strictly (no NaN or
# Infinity) and names its schema; -q is taken by every command; a terminal chart
# has no escape codes under TERM=dumb and takes its width from COLUMNS.
# Before: 'measure -o -' and 'kernels -o -' wrote a file named '-' and printed
# their tables; '-o /dev/stdout' mixed the table into the JSON; TERM=dumb got
# colour codes; COLUMNS was ignored; list, show, compare, history, model,
# topology and 'config show' refused -q; 'config show --format json' had no schema.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
source "$src/tests/scenarios/lib/isolated_config.sh"  # cd's into $tmp/project
data=$src/tests/data
machine=$data/report-machine.json points=$data/report-points.json

# STDOUT-FILE must hold exactly one JSON document: strict (NaN, Infinity refused)
# and, unless told otherwise, with a "schema" of roofline.*/N.
json_only() {  # WHAT FILE [noschema]
  python3 - "$@" <<'PY' || fail=1
import json, re, sys
what, path = sys.argv[1], sys.argv[2]
def refuse(c): raise ValueError(f"non-JSON number {c}")
try:
    doc = json.loads(open(path, encoding='utf-8').read(), parse_constant=refuse)
except Exception as e:
    print(f"FAIL: {what}: standard output is not one JSON document: {e}")
    print(open(path, errors='replace').read()[:300]); sys.exit(1)
if len(sys.argv) < 4 and not (isinstance(doc, dict) and re.fullmatch(r'roofline\.[a-z-]+/[0-9]+', str(doc.get('schema')))):
    print(f"FAIL: {what}: no schema roofline.NAME/N (got {doc.get('schema') if isinstance(doc, dict) else type(doc)})"); sys.exit(1)
PY
}
run() {  # WHAT ARGS...: stdout to out, stderr to err; exit code in $code
  local what=$1; shift
  "$bin" "$@" >out 2>err
  code=$?
}

# -o -: the result alone on standard output.
run measure measure --engine time --repeat 1 --no-store -o - -- sh -c 'echo program-says-hello'
[[ $code == 0 ]] || { echo "FAIL: measure -o -: exit $code"; cat err; fail=1; }
json_only "measure -o -" out
grep -q program-says-hello err || { echo "FAIL: measure -o -: the program's own output is not on stderr"; fail=1; }
grep -q '^region ' err || { echo "FAIL: measure -o -: its table is not on stderr"; fail=1; }
grep -q 'points written to standard output' err || { echo "FAIL: measure -o -: not said where the points went"; cat err; fail=1; }

run kernels kernels daxpy --sizes 16K --samples 1 --no-store -o -
[[ $code == 0 ]] || { echo "FAIL: kernels -o -: exit $code"; cat err; fail=1; }
json_only "kernels -o -" out
grep -q '^daxpy ' err || { echo "FAIL: kernels -o -: its table is not on stderr"; fail=1; }

run model model "$src/examples/kernels/stream_triad.yaml" --peak 100 --bw 20 -o -
[[ $code == 0 ]] || { echo "FAIL: model -o -: exit $code"; cat err; fail=1; }
json_only "model -o -" out

for args in "topology --format json" "report --machine $machine --points $points --format json" \
            "show $machine --format json" "show $points --points --format json" \
            "compare $machine $machine --format json" "list --format json" "config show --format json" \
            "report --machine $machine --points $points --format csv" "plot --machine $machine --points $points --format svg"; do
  read -ra argv <<<"$args"
  run "$args" "${argv[@]}" -o -
  [[ $code == 0 ]] || { echo "FAIL: $args -o -: exit $code"; cat err; fail=1; continue; }
  case $args in
    *"--format json"*) json_only "$args -o -" out ;;
    *"--format csv"*) python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1]))); sys.exit(0 if len(rows) > 1 and len({len(r) for r in rows}) == 1 else 1)' out ||
             { echo "FAIL: $args -o -: not one CSV table"; fail=1; } ;;
    *"--format svg"*) head -c 5 out | grep -q '<svg' || { echo "FAIL: $args -o -: no SVG on standard output"; fail=1; } ;;
  esac
done
[[ -e ./- ]] && { echo "FAIL: a file named '-' was written"; fail=1; }

# Standard output closed: an error that says so, not a success.
"$bin" list --format json -o - >&- 2>err
code=$?
[[ $code == 1 ]] && grep -q 'cannot write to standard output' err ||
  { echo "FAIL: list -o - with standard output closed: exit $code"; cat err; fail=1; }
# Two results on standard output would run into each other.
"$bin" bench -o - --svg - --no-store >out 2>err
[[ $? == 2 ]] || { echo "FAIL: bench -o - --svg -: not refused"; cat err; fail=1; }
# --help still prints on standard output with -o -.
"$bin" list -o - --help 2>/dev/null | grep -q 'Usage:' || { echo "FAIL: list -o - --help: no help on standard output"; fail=1; }

# Every --format json without -o, warnings or notes on stderr: stdout parses whole.
for args in "topology --json" "bench --list --format json" "model --peak 85.8 --bw 29 --intensity 0.05 --json" \
            "report --machine $machine --points $points --format json" "list --format json" \
            "show $machine --format json" "compare $machine $machine --format json" "config show --format json"; do
  read -ra argv <<<"$args"
  run "$args" "${argv[@]}"
  [[ $code == 0 ]] || { echo "FAIL: $args: exit $code"; cat err; fail=1; continue; }
  json_only "$args" out
done

# -q: taken by every command, and no note on stderr where one would be said.
for args in "topology" "model --peak 1 --bw 1 --intensity 1" "report --machine $machine --points $points" \
            "plot --machine $machine --points $points --format term" "list" "show $machine" \
            "compare $machine $machine" "config show" "bench --list" "kernels --list"; do
  read -ra argv <<<"$args"
  run "$args" "${argv[@]}" -q
  [[ $code == 0 ]] || { echo "FAIL: $args -q: exit $code"; cat err; fail=1; }
  grep -q 'note:' err && { echo "FAIL: $args -q: a note on stderr"; cat err; fail=1; }
done
ROOFLINE_DB=$tmp/none.db "$bin" list -q >out 2>err
[[ -s err ]] && { echo "FAIL: list -q of a missing store: said '$(cat err)'"; fail=1; }
ROOFLINE_DB=$tmp/none.db "$bin" list >out 2>err
grep -q 'note: no results store' err || { echo "FAIL: list without -q: no note of the missing store"; fail=1; }

# The terminal chart: no escape codes for a dumb terminal; COLUMNS sets its width on a pipe.
if command -v script >/dev/null; then
  TERM=dumb script -qc "$(printf '%q ' "$bin" plot --machine "$machine" --points "$points" --format term)" /dev/null >tty.txt 2>&1
  grep -q $'\x1b' tty.txt && { echo "FAIL: plot --format term under TERM=dumb wrote escape codes"; fail=1; }
  grep -q 'Arithmetic intensity' tty.txt || { echo "FAIL: plot --format term on a terminal drew no chart"; head -5 tty.txt; fail=1; }
  TERM=xterm script -qc "$(printf '%q ' "$bin" plot --machine "$machine" --points "$points" --format term)" /dev/null >tty.txt 2>&1
  grep -q $'\x1b' tty.txt || echo "note: no colour on this terminal (the TERM=dumb check above shows nothing then)"
else
  echo "note: no 'script' command: the terminal checks are skipped"
fi
axis_width() {  # the x axis line's length: the chart's own width
  awk '/^ *-\+-*\+/ { if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"
}
COLUMNS=60 "$bin" plot --machine "$machine" --points "$points" --format term >narrow.txt 2>/dev/null
COLUMNS=300 "$bin" plot --machine "$machine" --points "$points" --format term >wide.txt 2>/dev/null
narrow=$(axis_width narrow.txt) wide=$(axis_width wide.txt)
(( narrow > 0 && narrow <= 60 )) || { echo "FAIL: COLUMNS=60: the chart is $narrow wide"; fail=1; }
(( wide > 200 && wide <= 300 )) || { echo "FAIL: COLUMNS=300: the chart is $wide wide"; fail=1; }
grep -q $'\x1b' narrow.txt && { echo "FAIL: the chart on a pipe has escape codes"; fail=1; }

[[ $fail == 0 ]] && echo "ok: results on standard output alone, JSON strict with schemas, -q everywhere, plain terminals"
exit $fail
