#!/usr/bin/env bash
# The reader of roofline's output leaves early ('| head', a pager quit). SIGPIPE ended the process
# at its next line, losing what was measured: 'kernels ... | head -1' wrote no -o and stored
# nothing (the whole sweep lost), 'measure ... 2>&1 | head -2' wrote -o but died before the store
# (and, its reader gone at once, before -o too), 'bench --quick 2>&1 | head' saved nothing however
# far it had got. Now kernels and bench take SIGPIPE as a stop (what was measured is written and
# stored, marked partial, exit 141), measure delivers its points whatever happens to its output,
# and the measured command still gets SIGPIPE's default (an ignored signal stays so across exec).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp ROOFLINE_DB=$tmp/results.db
command -v jq >/dev/null || { echo "SKIPPED: no jq"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; fail=1; }

# kernels: head takes the header and the first row and leaves; the rows after it raise SIGPIPE.
"$bin" kernels stream_triad daxpy --sizes 4K,8K,16K,32K,64K,128K,256K,512K -o "$tmp/k.json" 2>"$tmp/err" |
  head -1 >/dev/null
code=${PIPESTATUS[0]}
[[ $code == 141 ]] || bad "kernels | head -1: exit $code, expected 141 (stopped by SIGPIPE)"
grep -q "SIGPIPE (the reader of the output left): stopping after the point being measured" "$tmp/err" ||
  bad "kernels | head -1: the stop is not said"
n=$(jq '.points | length' "$tmp/k.json" 2>/dev/null)
[[ ${n:-0} -ge 1 ]] || bad "kernels | head -1: no points in -o ('$n')"
[[ $(jq -r '.provenance.options.interrupted' "$tmp/k.json" 2>/dev/null) == SIGPIPE ]] ||
  bad "kernels | head -1: the points are not marked interrupted by SIGPIPE"
"$bin" list --format csv >"$tmp/list" 2>&1
grep -q "interrupted by SIGPIPE: partial" "$tmp/list" || bad "kernels | head -1: the partial set is not stored"

# measure: the reader is gone before roofline says anything; the points still reach -o and the
# store. The command's own SIGPIPE is its default (SigIgn's bit 13, 0x1000, clear).
"$bin" measure --db "$tmp/m.db" --engine time --repeat 1 -o "$tmp/m.json" -- \
  sh -c "grep SigIgn /proc/\$\$/status > '$tmp/sigign'" 2>&1 | true
[[ $(jq -r '.points[0].name' "$tmp/m.json" 2>/dev/null) == "(program)" ]] ||
  { echo "FAIL: measure 2>&1 | true: no points in -o"; fail=1; }
"$bin" list --db "$tmp/m.db" --format csv >"$tmp/err" 2>&1
grep -q '^points,1,' "$tmp/err" || bad "measure 2>&1 | true: the points are not stored"
mask=$(awk '{print $2}' "$tmp/sigign" 2>/dev/null)
if [[ -z $mask ]]; then
  echo "FAIL: the measured command did not run"; fail=1
elif (( (16#$mask & 0x1000) != 0 )); then
  echo "FAIL: the measured command inherited SIGPIPE ignored (SigIgn $mask)"; fail=1
fi
exit $fail
