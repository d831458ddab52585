#!/usr/bin/env bash
# roofline model with a hostile work unit and a negative zero (issue 33): --unit with a
# terminal control sequence echoed it into the result line (an OSC that retitles the
# terminal); a kernel spec's work_unit likewise; "flops: -0" printed "-0 FLOP". Now the
# unit is refused (exit 2 for the option, 1 for the file) and -0 prints as 0.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
no_escape() { if grep -q $'\e' "$tmp/out"; then fail "$1: an escape byte reached the output"; fi; }

"$bin" model --unit $'\e]0;x\a' --peak 10 --bw 5 --intensity 1 >"$tmp/out" 2>&1; code=$?
[[ $code == 2 ]] || fail "--unit with an OSC sequence: exit $code, expected 2"
no_escape "--unit"
grep -q "expected a unit name" "$tmp/out" || fail "--unit: the reason is not said"
"$bin" model --unit 'bit op' --peak 10 --bw 5 --intensity 1 >"$tmp/out" 2>&1 || fail "--unit 'bit op' refused"
grep -q "Gbit op/s" "$tmp/out" || fail "--unit 'bit op' not used"
echo "ok: --unit with a control sequence refused, a plain unit used"

printf 'name: k\nwork_unit: "x\\e]0;pwn\\a"\nwork_per_iteration: 1\nsizes: {N: 1000}\niterations: N\narrays:\n  - {name: x, type: double, reads: 1}\n' >"$tmp/unit.yaml"
"$bin" model --peak 10 --bw 5 "$tmp/unit.yaml" >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] || fail "a kernel spec's work_unit with an OSC sequence: exit $code, expected 1"
no_escape "work_unit"
grep -q "work_unit: expected a unit name" "$tmp/out" || fail "work_unit: the reason is not said"
echo "ok: a kernel spec's hostile work_unit refused"

printf 'name: z\nflops: -0\nsizes: {N: 1000}\niterations: N\narrays:\n  - {name: x, type: double, reads: 1}\n' >"$tmp/zero.yaml"
"$bin" model --peak 10 --bw 5 "$tmp/zero.yaml" >"$tmp/out" 2>&1 || fail "flops: -0 refused"
grep -q -- "-0 FLOP" "$tmp/out" && fail "-0 printed"
grep -q "per iteration   0 FLOP" "$tmp/out" || fail "0 FLOP per iteration not printed"
printf 'name: n\nflops: -1\nsizes: {N: 1000}\niterations: N\narrays:\n  - {name: x, type: double, reads: 1}\n' >"$tmp/neg.yaml"
"$bin" model --peak 10 --bw 5 "$tmp/neg.yaml" >"$tmp/out" 2>&1 && fail "flops: -1 accepted"
grep -q "expected a number >= 0" "$tmp/out" || fail "flops: -1: the reason is not said"
echo "ok: -0 FLOP prints as 0, a negative count is refused"
