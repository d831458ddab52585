#!/usr/bin/env bash
# Hostile names (issue 10): escape and OSC sequences, clear-screen, CR, NUL,
# BEL and U+202E (right-to-left override) in point, machine, kernel and stored
# names never reach the output raw, in any format; a Markdown row stays one row
# and CSV cells cannot run as spreadsheet formulas.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail=0
# No raw control byte but newline; no U+202E either, except in JSON, which keeps
# names exact (a JSON reader gets the same string back) and escapes only controls.
raw_check() {  # FILE WHAT
  python3 - "$1" "$2" <<'PY' || fail=1
import sys
data = open(sys.argv[1], 'rb').read()
bad = [b for b in set(data) if (b < 0x20 and b != 0x0a) or b == 0x7f]
if bad or (b'\xe2\x80\xae' in data and 'json' not in sys.argv[2]):
    print(f"FAIL: {sys.argv[2]}: raw bytes {sorted(bad)} or U+202E in the output")
    sys.exit(1)
PY
}
machine=$src/tests/data/hostile-machine.json
points=$src/tests/data/hostile-points.json
for format in text markdown csv json; do
  "$bin" report --machine "$machine" --points "$points" --format "$format" >"$tmp/out.$format" 2>&1
  code=$?
  [[ $code -eq 0 ]] || { echo "FAIL: report --format $format: exit $code"; head -c 500 "$tmp/out.$format"; fail=1; }
  raw_check "$tmp/out.$format" "report --format $format"
done
grep -q '\\x1b\]0;pwned\\x07' "$tmp/out.text" || { echo "FAIL: text hides the name instead of showing it escaped"; fail=1; }
# Markdown: every table row has the header's ten unescaped bars.
python3 - "$tmp/out.markdown" <<'PY' || fail=1
import re, sys
rows = [l for l in open(sys.argv[1], encoding='utf-8') if l.startswith('| ')]
bars = {len(re.findall(r'(?<!\\)\|', r)) for r in rows}
if len(rows) != 6 or bars != {10}:
    print(f"FAIL: markdown table: {len(rows)} rows, bar counts {bars}"); sys.exit(1)
PY
# CSV: no cell starts with a formula character unless it is a plain number.
python3 - "$tmp/out.csv" <<'PY' || fail=1
import csv, re, sys
for row in csv.reader(open(sys.argv[1], encoding='utf-8', newline='')):
    for cell in row:
        if cell[:1] in ('=', '+', '-', '@', '\t', '\r') and not re.fullmatch(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?', cell):
            print(f"FAIL: csv cell {cell!r} is live for a spreadsheet"); sys.exit(1)
PY
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out.json" || { echo "FAIL: json output does not parse"; fail=1; }

# show: a points file and a machine file as text.
"$bin" show --points "$points" >"$tmp/show.points" 2>&1 || { echo "FAIL: show --points"; fail=1; }
raw_check "$tmp/show.points" "show --points"
"$bin" show "$machine" >"$tmp/show.machine" 2>&1 || { echo "FAIL: show machine"; fail=1; }
raw_check "$tmp/show.machine" "show machine"

# model: a kernel spec with a hostile name and description.
printf 'name: "evil\\e]0;pwned\\a\\u202e"\ndescription: "clear\\e[2J\\r"\nflops: 2\nsizes: {N: 1000}\niterations: N\narrays:\n  - {name: x, type: double, reads: 1}\n' >"$tmp/k.yaml"
"$bin" model --machine "$machine" "$tmp/k.yaml" >"$tmp/model.text" 2>&1 || { echo "FAIL: model"; cat "$tmp/model.text"; fail=1; }
raw_check "$tmp/model.text" "model"
"$bin" model --machine "$machine" "$tmp/k.yaml" --format json >"$tmp/model.json" 2>&1 || { echo "FAIL: model json"; fail=1; }
raw_check "$tmp/model.json" "model --format json"

# list: a stored point set whose name carries escapes.
if command -v sqlite3 >/dev/null; then
  "$bin" bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' >/dev/null 2>&1 &&
  sqlite3 "$ROOFLINE_DB" "INSERT INTO point_sets (created, name, point_count, json) VALUES ('x', 'run' || char(27) || '[2J' || char(8238), 0, '{}')" \
    || { echo "FAIL: could not insert a row"; fail=1; }
  for format in text csv json; do
    "$bin" list --format "$format" >"$tmp/list.$format" 2>&1 || { echo "FAIL: list --format $format"; fail=1; }
    raw_check "$tmp/list.$format" "list --format $format"
  done
fi
# A file name with a newline in a message stays on its message's line (shown as \n):
# a name cannot forge a line of output ("roofline: error: ..." or a result).
nl_name=$tmp/$'bad\nroofline: done.json'
printf 'x' >"$nl_name"
one_line_error() {  # WHAT ARGS...: exit non-zero, one line on stderr that shows the name escaped
  local what=$1; shift
  "$@" >"$tmp/nl.out" 2>"$tmp/nl.err" && { echo "FAIL: $what: exit 0"; fail=1; return; }
  if [[ $(wc -l <"$tmp/nl.err") -ne 1 ]] || ! grep -qF 'bad\nroofline: done' "$tmp/nl.err"; then
    echo "FAIL: $what: the name's newline reached stderr raw"; cat "$tmp/nl.err"; fail=1
  fi
}
one_line_error "report --points" "$bin" report --machine "$machine" --points "$nl_name"
one_line_error "plot --machine" "$bin" plot --machine "$nl_name" --points "$points"
one_line_error "model" "$bin" model --machine "$machine" "$nl_name"
one_line_error "a missing file" "$bin" report --machine "$machine" --points "$nl_name.missing"
one_line_error "measure -o in a missing directory" "$bin" measure -o "$nl_name/x/out.json" -- true
one_line_error "measure --db in a missing directory" "$bin" measure --db "$nl_name/x/r.db" -- true
one_line_error "measure of a missing command" "$bin" measure -- "$nl_name.missing"
[[ $fail -eq 0 ]] && echo "ok: hostile names are escaped in every output"
exit $fail
