#!/usr/bin/env bash
# Issue 35: compare as a user meets it. A marker region "daxpy" in one run is the function
# "<function daxpy.constprop.0>" in another (measured with --functions, the compiler's clone):
# compared as one point, both names shown. Stored point sets are labelled as point sets (it said
# "points stored machine #1"), and without --machine they are judged on the latest stored
# machine so WHY is filled; with no machine at all the table says why WHY is empty.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp ROOFLINE_DB=$tmp/results.db
fail=0
out=""
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
point() { echo "{\"name\":\"$1\",\"flops\":2e8,\"bytes\":{\"L1\":2.4e9,\"DRAM\":2.4e9},\"seconds\":$2,\"threads\":1,\"source\":\"instrument\"}"; }
echo "{\"schema\":\"roofline.points/1\",\"points\":[$(point daxpy 0.1),$(point dot 0.05)]}" >a.json
echo "{\"schema\":\"roofline.points/1\",\"points\":[$(point '<function daxpy.constprop.0>' 0.05),$(point dot 0.1)]}" >b.json

out=$("$bin" compare a.json b.json 2>&1) || check "compare of two files failed"
grep -q 'daxpy = <function daxpy.constprop.0> .*FASTER' <<<"$out" || check "daxpy and its function were not compared as one point"
grep -q 'only in' <<<"$out" && check "a point was left unmatched"
grep -q 'not judged: no machine model' <<<"$out" || check "an empty WHY column was not explained"
out=$("$bin" compare a.json b.json --format json 2>&1)
[[ $(jq -r '.points[0].point_b' <<<"$out") == '<function daxpy.constprop.0>' ]] || check "JSON lacks point_b"

# Two stored point sets and a stored machine: labelled as point sets, judged, WHY said.
"$bin" kernels stream_triad --sizes 64K -q >/dev/null 2>&1 || { echo "FAIL: kernels"; exit 1; }
"$bin" kernels stream_triad --sizes 64K -q >/dev/null 2>&1 || { echo "FAIL: kernels"; exit 1; }
out=$("$bin" compare --points stored:1 --points stored:2 2>&1) || check "compare of stored sets failed"
grep -q '^A: points stored point set #1' <<<"$out" || check "stored point set #1 not labelled as a point set"
grep -q 'stored machine' <<<"$out" && check "a point set was called a machine"
"$bin" bench --quick -q -o m.json --svg '' >/dev/null 2>&1 || { echo "FAIL: bench --quick"; exit 1; }
out=$("$bin" compare --points stored:1 --points stored:2 2>&1) || check "compare with a stored machine failed"
grep -q 'on .*(the latest stored machine; --machine chooses another' <<<"$out" || check "the judging machine is not named"
grep -q 'each judged on its own machine' <<<"$out" || check "points with a stored machine were not judged"
exit $fail
