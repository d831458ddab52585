#!/usr/bin/env bash
# Issue 33: `roofline compare` with a point name used twice in each run (a region entered from
# two places). It compared the first of each, dropped the rest, reported "+9900% FASTER" and
# --fail-on-slower exited 0 over a 100x slowdown. Now points of one name are matched by their
# order in each run ("loop #1", "loop #2"), every pair is compared and --fail-on-slower sees
# them all. And `--chart x.png` wrote SVG into a .png: a chart name compare does not write is
# a usage error (exit 2) before anything is read or written.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db  # none: nothing stored to judge on, whatever the user has
fail=0
out=""
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
pts() {  # FILE GFLOP...: points named "loop" at these rates (1 s each), then one "solo"
  local file=$1; shift
  { echo '{"schema":"roofline.points/1","points":['
    for g in "$@"; do echo "{\"name\":\"loop\",\"flops\":${g}e9,\"bytes\":{\"L1\":1e9},\"seconds\":1,\"threads\":1,\"source\":\"analytic\"},"; done
    echo '{"name":"solo","flops":1e9,"bytes":{"L1":1e9},"seconds":1,"threads":1,"source":"analytic"}]}'
  } >"$file"
}
pts "$tmp/a.json" 1 100
pts "$tmp/b.json" 100 1
machine=$src/tests/data/report-machine.json

out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" 2>&1); code=$?
[[ $code == 0 ]] || check "compare: exit $code"
grep -qE '^loop #1 .*FASTER \(\+9900%\)' <<<"$out" || check "the first pair (loop #1) is not compared"
grep -qE '^loop #2 .*SLOWER \(-99%\)' <<<"$out" || check "the second pair (loop #2) is dropped"
grep -q "points of one name (NAME #k) by their order in each run" <<<"$out" || check "the matching by order is not said"
grep -q "1 faster, 1 slower, 1 within their spread, 0 in one run only" <<<"$out" || check "the summary does not count every pair"

out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" --fail-on-slower 2>&1); code=$?
[[ $code == 3 ]] || check "--fail-on-slower over a 100x slower loop #2: exit $code, expected 3"

out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" --format json 2>&1)
jq -e '[.points[] | select(.point == "loop")] | length == 2 and .[0].occurrence == 1 and .[1].occurrence == 2
       and .[1].ratio < 0.02 and .[1].changed' <<<"$out" >/dev/null || check "json: both loops with their occurrence"
jq -e '.points[] | select(.point == "solo") | has("occurrence") | not' <<<"$out" >/dev/null || check "json: a unique name has no occurrence"

# Three of a name in A, two in B: the third is A's alone.
pts "$tmp/a3.json" 1 1 1
pts "$tmp/b2.json" 1 1
out=$("$bin" compare "$tmp/a3.json" "$tmp/b2.json" 2>&1)
grep -qE '^loop #3 .*only in A' <<<"$out" || check "an extra point of a name is not shown as one run's only"

# --chart: only what compare writes; refused before any output.
for chart in x.png x.pdf x; do
  out=$(cd "$tmp" && "$bin" compare "$tmp/a.json" "$tmp/b.json" --machine "$machine" -o "$tmp/cmp-$chart.txt" --chart "$chart" 2>&1); code=$?
  [[ $code == 2 ]] || check "--chart $chart: exit $code, expected 2"
  grep -q -- "--chart $chart: compare draws its chart as SVG (.svg) or HTML (.html, .htm)" <<<"$out" || check "--chart $chart: no clear message"
  [[ -e $tmp/$chart || -e $tmp/cmp-$chart.txt ]] && check "--chart $chart: something was written before the refusal"
done
out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" --chart "$tmp/c.svg" 2>&1); code=$?
[[ $code == 2 ]] && grep -q -- "--chart needs the machines" <<<"$out" || check "--chart without machines: exit $code"
for chart in c.svg c.html; do
  out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" --machine "$machine" --chart "$tmp/$chart" 2>&1) || check "--chart $chart: exit $?"
done
head -c 5 "$tmp/c.svg" | grep -q '<svg' || check "c.svg is not SVG"
grep -qi '<html' "$tmp/c.html" || check "c.html is not HTML"
out=$("$bin" compare "$tmp/a.json" "$tmp/b.json" --machine "$machine" --chart /dev/null 2>&1) || check "--chart /dev/null: exit $?"

[[ $fail == 0 ]] && echo "ok: every pair of a repeated name compared; --fail-on-slower sees them; --chart x.png refused"
exit $fail
