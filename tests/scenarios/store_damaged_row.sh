#!/usr/bin/env bash
# A results store row whose JSON text is damaged (edited with sqlite3 here) is said with the store,
# the table and row id, what is wrong in plain words and what to do; the message quoted nlohmann's
# own ("[json.exception.parse_error.101] parse error at line 1, column 1: syntax error while
# parsing value - invalid literal; last read: 'g'"). list marks the row and warns with the same
# words, kernels measures again a point whose stored set cannot be read (it stopped the whole
# sweep), and the command the message gives (roofline remove) removes the row.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp/home
mkdir -p "$HOME"
cd "$tmp" || exit 1
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; fail=1; }
run() {  # EXPECTED_EXIT ARGS...: roofline ARGS with stderr in $tmp/err
  local want=$1; shift
  timeout 120 "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local code=$?
  [[ $code == "$want" ]] || bad "roofline $*: exit $code, want $want"
}
no_raw_json_error() {
  grep -q "json.exception\|parse error at line" "$tmp/err" && bad "nlohmann's own words are quoted"
}

run 0 kernels daxpy --sizes 16K --samples 1 --db s.db -q
run 0 kernels ddot --sizes 16K --samples 1 --db s.db -q
sqlite3 s.db "UPDATE point_sets SET json = 'garbage' WHERE id = 2"

# Reading it: where, what, what to do; exit 1 (the store, not the arguments).
said="results store s\.db: point set 2 (table point_sets, id 2) is damaged: its JSON text is not valid JSON at byte 1 of 7 (near 'garbage')\. The store's other rows can still be read: use another point set (--points stored:ID; 'roofline list' shows them), or remove this one: roofline remove --points 2 --db s\.db"
for args in "show --points stored:2" "show --points" "report --machine $data/report-machine.json --points stored:2" \
            "plot --machine $data/report-machine.json --points stored -o c.svg"; do
  # shellcheck disable=SC2086
  run 1 $args --db s.db
  grep -q "^roofline: error: $said$" "$tmp/err" || bad "roofline $args: not said as it should be"
  no_raw_json_error
done
# The others are read as before.
run 0 show --points stored:1 --db s.db
# list: every row listed, the damaged one marked, and the same words as a warning.
run 0 list --db s.db
grep -Eq "^ +2 .*\(damaged row: its JSON cannot be read\)$" "$tmp/out" || { cat "$tmp/out" >>"$tmp/err"; bad "list does not mark set 2"; }
grep -Eq "^ +1 .* 1 .*roofline kernels daxpy" "$tmp/out" || { cat "$tmp/out" >>"$tmp/err"; bad "list does not show set 1 as before"; }
grep -q "^roofline: warning: $said$" "$tmp/err" || bad "list does not warn of set 2"
# kernels: the point the damaged set holds for ddot is measured again (the sweep stopped on it),
# and stored anew: the next run takes it from the store.
run 0 kernels ddot --sizes 16K --samples 1 --db s.db
grep -q "^roofline: warning: ddot at 16 KiB: the point the results store holds for it cannot be read, so it is measured again: results store s\.db: point set 2 " "$tmp/err" ||
  bad "kernels does not say the stored point is measured again"
grep -q "^ddot .* ok$" "$tmp/out" || { cat "$tmp/out" >>"$tmp/err"; bad "kernels ddot did not measure"; }
run 0 kernels ddot --sizes 16K --samples 1 --db s.db
grep -q "1 of 1 point taken from the results store" "$tmp/err" || bad "the point measured again was not stored under its key"

# Cut short, and empty: said so.
sqlite3 s.db "UPDATE point_sets SET json = '{\"schema\": \"roofline.points/1\", \"po' WHERE id = 2"
run 1 show --points stored:2 --db s.db
grep -q "point set 2 (table point_sets, id 2) is damaged: its JSON text ends at byte 35, before the document is complete (cut short)\. " "$tmp/err" ||
  bad "a row cut short is not said so"
sqlite3 s.db "UPDATE point_sets SET json = '' WHERE id = 2"
run 1 show --points stored:2 --db s.db
grep -q "point set 2 (table point_sets, id 2) is damaged: its JSON text is empty\. " "$tmp/err" || bad "an empty row is not said so"

# A machine row: the same, with what removes a machine.
sqlite3 s.db "INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES
  ('2026-01-01T00:00:00Z', 'h', 'c', 'quick', 0, 'roofline.machine/1', readfile('$data/report-machine.json'))"
sqlite3 s.db "UPDATE machines SET json = substr(json, 1, 100) WHERE id = 1"
run 1 report --points stored:1 --db s.db
grep -q "^roofline: error: results store s\.db: machine 1 (table machines, id 1) is damaged: its JSON text ends at byte 100, before the document is complete (cut short)\. The store's other rows can still be read: use another machine (--machine stored:ID; 'roofline list' shows them), or remove this one: roofline remove --machine 1 --db s\.db$" "$tmp/err" ||
  bad "report on a damaged stored machine: not said as it should be"
no_raw_json_error
run 0 list --db s.db
grep -q "^roofline: warning: results store s\.db: machine 1 (table machines, id 1) is damaged" "$tmp/err" || bad "list does not warn of machine 1"

# What the messages say to do, done as they say: the rows are gone, the rest reads as before.
for id in 1 2; do
  cmd=$(grep -o "remove this one: roofline remove .*" "$tmp/err" | sed -n "${id}p" | sed 's/^remove this one: roofline //')
  [[ -n $cmd ]] || { bad "no command to run in the warnings"; break; }
  eval "\"\$bin\" $cmd" >"$tmp/out" 2>&1 || bad "the command given failed: roofline $cmd"
done
run 0 list --db s.db
[[ -s $tmp/err ]] && bad "list still warns after the rows were removed"
grep -q "^Machines (0;" "$tmp/out" || { cat "$tmp/out" >>"$tmp/err"; bad "the machine is still listed"; }
grep -q "^Point sets (3;" "$tmp/out" || { cat "$tmp/out" >>"$tmp/err"; bad "not 3 point sets left"; }
run 0 show --points stored --db s.db
[[ $fail -eq 0 ]] && echo "ok: a damaged stored row is said with where, what and what to do, and can be removed as said"
exit $fail
