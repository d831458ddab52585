#!/usr/bin/env bash
# roofline kernels: a kernel named twice, or a size given twice, runs once and a note says so
# ('kernels daxpy daxpy --sizes 16K,16K' announced "2 kernels at 2 sizes" and ran one point,
# unsaid).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp/home ROOFLINE_DB=$tmp/r.db
mkdir -p "$HOME"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; fail=1; }

# Repeated names and sizes (16K and 16384 are one size): one point each, announced as such.
"$bin" kernels daxpy daxpy --sizes 16K,16384,32K,16K --samples 1 --no-store -o "$tmp/k.json" >"$tmp/out" 2>"$tmp/err" ||
  bad "kernels daxpy daxpy: exit $?"
grep -q "^roofline: note: daxpy is named twice: it runs once$" "$tmp/err" || bad "the repeated name is not said"
grep -q "^roofline: note: --sizes gives 16 KiB 3 times: each size runs once$" "$tmp/err" ||
  bad "the repeated size is not said"
grep -q "roofline kernels: 1 kernel at 2 sizes," "$tmp/err" || bad "the announcement does not count each once"
[[ $(jq '.points | length' "$tmp/k.json") == 2 ]] || bad "-o holds $(jq '.points | length' "$tmp/k.json") points, want 2"
[[ $(grep -c '^daxpy ' "$tmp/out") == 2 ]] || { cat "$tmp/out" >>"$tmp/err"; bad "the table has not 2 rows"; }
# -q: the notes are left out, the points not.
"$bin" kernels daxpy daxpy --sizes 16K,16K --samples 1 --no-store -q >"$tmp/out" 2>"$tmp/err" || bad "-q: exit $?"
grep -q "note:" "$tmp/err" && bad "-q still says notes"

# --help says all of it.
"$bin" kernels --help >"$tmp/err" 2>&1
grep -q "a kernel named more than once runs once" "$tmp/err" || bad "--help: repeated names"
grep -q "a size given more than once runs once" "$tmp/err" || bad "--help: repeated sizes"
[[ $fail -eq 0 ]] && echo "ok: repeated kernels and sizes run once and are said"
exit $fail
