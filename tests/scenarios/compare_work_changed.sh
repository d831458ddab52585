#!/usr/bin/env bash
# compare of two point sets of one command line whose work changed: a dot product given a second
# pass (2x the FLOPs) took 0.193 s, then 0.399 s, at about the same GFLOP/s (x0.967, inside its 5%
# spread): compare said 'same', --fail-on-slower exited 0 over a 2x slower program, and history
# flagged nothing. Now such a pair is judged on its time ('SLOWER (time +107%)', WHY names the
# work), --fail-on-slower exits 3; half the work in 3/4 of the time is FASTER, not 'SLOWER
# (-33%)'. Sets of different command lines keep their rates judged, the work said in WHY.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db  # no machine: rates and times only
fail=0
out=""
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
pts() {  # FILE FLOPS SECONDS [PROGRAM]: one point "dot" measured by './PROGRAM 2000'
  cat >"$1" <<EOF
{"schema":"roofline.points/1","provenance":{"command":["./${4:-dot}","2000"],"engine":"instrument"},
 "points":[{"name":"dot","flops":$2,"bytes":{"L1":6.4e9},"seconds":$3,"threads":1,"source":"instrument",
            "details":{"seconds_fastest":$3,"seconds_slowest":$(awk "BEGIN{print $3*1.007}")}}]}
EOF
}
pts "$tmp/one.json" 0.8e9 0.193
pts "$tmp/two.json" 1.6e9 0.399
pts "$tmp/half.json" 0.4e9 0.145
pts "$tmp/other.json" 1.6e9 0.399 dot2

out=$("$bin" compare "$tmp/one.json" "$tmp/two.json" 2>&1); code=$?
[[ $code == 0 ]] || check "compare: exit $code"
grep -qE '^dot .* 0\.967 +SLOWER \(time \+107%\) +the work: B did x2\.00 A.s FLOPs in x2\.07 its time \(rate x0\.967\)' <<<"$out" ||
  check "twice the work in 2.07x the time is not SLOWER on its time"
grep -q "0 faster, 1 slower" <<<"$out" || check "the summary does not count it slower"
grep -q "judged on its time (seconds B/A)" <<<"$out" || check "the rule for a changed work is not said"

out=$("$bin" compare "$tmp/one.json" "$tmp/two.json" --fail-on-slower 2>&1); code=$?
[[ $code == 3 ]] || check "--fail-on-slower over a 2x slower program: exit $code, expected 3"

out=$("$bin" compare "$tmp/one.json" "$tmp/half.json" --fail-on-slower 2>&1); code=$?
[[ $code == 0 ]] || check "--fail-on-slower over half the work in 0.75 of the time: exit $code, expected 0"
grep -qE '^dot .*FASTER \(time -25%\)' <<<"$out" || check "half the work in 0.75 of the time is not FASTER"

out=$("$bin" compare "$tmp/one.json" "$tmp/two.json" --format json 2>&1)
jq -e '.points[0] | .judged_on == "time" and .slower and .changed and (.work_ratio - 2 | fabs) < 1e-9
       and (.time_ratio - 0.399 / 0.193 | fabs) < 1e-9' <<<"$out" >/dev/null || check "json: judged_on, work_ratio, time_ratio"

# Another command line (another input may do other work): the rate is judged, the work said.
out=$("$bin" compare "$tmp/one.json" "$tmp/other.json" 2>&1)
grep -qE '^dot .* 0\.967 +SLOWER \(-3%\) +other command line; B did x2\.00 A.s FLOPs in x2\.07 its time' <<<"$out" ||
  check "another command line: the rate is not judged, or the work not said"

[[ $fail == 0 ]] && echo "ok: a point whose work changed is judged on its time; --fail-on-slower sees it"
exit $fail
