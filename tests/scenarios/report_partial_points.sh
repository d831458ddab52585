#!/usr/bin/env bash
# Issue 33: `report` (and `plot`) on points from an interrupted run (kernels or measure stopped by a signal,
# provenance.options.interrupted) says they are partial in every format: text and Markdown under
# the title, JSON "partial": true with the runs, CSV (no place for it) a warning on stderr. Before,
# only `show --points` said so. A complete set says nothing of the kind.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
data=$src/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail=0
jq '. + {provenance: {command: ["roofline", "kernels"], runs: ["native"], engine: "analytic",
                      options: {interrupted: "SIGINT"}}}' "$data/report-points.json" >"$tmp/part.json"
jq '. + {provenance: {command: ["roofline", "kernels"], runs: ["native"], engine: "analytic",
                      options: {interrupted: "yes: the points measured before the signal"}}}' \
  "$data/report-points.json" >"$tmp/old.json"
report() { "$bin" report --machine "$data/report-machine.json" "$@" 2>"$tmp/err"; }
expect() {  # expect WHAT OUTPUT PATTERN
  grep -q -- "$3" <<<"$2" || { echo "FAIL: $1: no '$3' in:"; sed 's/^/  | /' <<<"$2" | head -8; fail=1; }
}
out=$(report --points "$tmp/part.json") || { echo "FAIL: report exited $?"; fail=1; }
expect text "$out" "^PARTIAL: the points come from a run that stopped before its end.*part.json (interrupted by SIGINT)"
out=$(report --points "$tmp/part.json" --format markdown)
expect markdown "$out" "^> \*\*PARTIAL\*\*: the points come from a run that stopped before its end"
out=$(report --points "$tmp/part.json" --format json)
jq -e '.partial == true and (.interrupted_runs | length == 1) and (.interrupted_runs[0] | test("SIGINT"))' <<<"$out" \
  >/dev/null || { echo "FAIL: json: not marked partial: $(jq -c '{partial, interrupted_runs}' <<<"$out" 2>&1)"; fail=1; }
out=$(report --points "$tmp/part.json" --format csv)
expect "csv (stderr)" "$(cat "$tmp/err")" "warning: PARTIAL: the points come from a run that stopped before its end"
# Written to a file: the file says it, and stderr too.
report --points "$tmp/part.json" -o "$tmp/r.md" --format markdown >/dev/null
expect "-o file" "$(cat "$tmp/r.md")" "PARTIAL"
expect "-o file (stderr)" "$(cat "$tmp/err")" "PARTIAL"
# A kernels file written before issue 33 ("yes: ..."), combined with a complete set: that one is named.
out=$(report --points "$tmp/old.json" --points "$data/report-points.json")
expect "old kernels file" "$out" "^PARTIAL: .*old.json (interrupted)"
# A program that crashed (measure keeps what it measured, provenance native_status "signal SIGSEGV"):
# as partial, its signal named; one that exited by itself is not.
jq '. + {provenance: {command: ["roofline", "measure"], runs: ["native"], engine: "time",
                      options: {native_status: "signal SIGSEGV"}}}' "$data/report-points.json" >"$tmp/crash.json"
out=$(report --points "$tmp/crash.json")
expect "crashed program" "$out" "^PARTIAL: .*crash.json (the program was killed by SIGSEGV)"
jq '.provenance.options.native_status = "exit 3"' "$tmp/crash.json" >"$tmp/exit3.json"
report --points "$tmp/exit3.json" | grep -q PARTIAL && { echo "FAIL: a program that exited 3 is called partial"; fail=1; }
# A complete set: nothing of the kind.
out=$(report --points "$data/report-points.json")
grep -q PARTIAL <<<"$out" && { echo "FAIL: a complete set is called partial"; fail=1; }
out=$(report --points "$data/report-points.json" --format json)
jq -e '.partial == false' <<<"$out" >/dev/null || { echo "FAIL: json of a complete set: partial is not false"; fail=1; }
# plot too: a banner on the chart and a warning on stderr.
"$bin" plot --machine "$data/report-machine.json" --points "$tmp/part.json" -o "$tmp/c.svg" 2>"$tmp/err" >/dev/null ||
  { echo "FAIL: plot exited $?"; fail=1; }
grep -q "PARTIAL POINTS" "$tmp/c.svg" 2>/dev/null || { echo "FAIL: plot: no PARTIAL banner on the chart"; fail=1; }
expect "plot (stderr)" "$(cat "$tmp/err")" "warning: PARTIAL: the points come from a run that stopped before its end"
"$bin" plot --machine "$data/report-machine.json" --points "$data/report-points.json" -o "$tmp/d.svg" 2>/dev/null
grep -q "PARTIAL" "$tmp/d.svg" && { echo "FAIL: plot: a complete set is called partial"; fail=1; }
[[ $fail == 0 ]] && echo "ok: report and plot say that points from an interrupted run are partial, in every format"
exit $fail
