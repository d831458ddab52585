#!/usr/bin/env bash
# A results store named like a SQLite URI ('--db file:r.db', 'file:r.db?mode=ro') is the file of
# that name: SQLite took the name as a URI and wrote r.db, while every check on the path and
# every read after ('list --db file:r.db') looked for a file named 'file:r.db', said "no results
# store at file:r.db yet" and showed none of the points just stored.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export ROOFLINE_DB=$tmp/default.db  # never the user's store
fail=0
for name in 'file:r.db' 'file:s.db?mode=ro&cache=shared'; do
  timeout 120 "$bin" kernels daxpy --sizes 16K --samples 1 -q --db "$name" >"$tmp/out" 2>&1 ||
    { echo "FAIL: kernels --db '$name' (exit $?):"; cat "$tmp/out"; fail=1; continue; }
  [[ -f $name ]] || { echo "FAIL: kernels --db '$name' did not write the file '$name'; here: $(ls)"; fail=1; }
  timeout 20 "$bin" list --db "$name" >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 0 ]] && grep -q "^ *1 .* 1 .*roofline kernels daxpy" "$tmp/out" ||
    { echo "FAIL: list --db '$name' (exit $code) does not show the point set stored:"; cat "$tmp/out"; fail=1; }
  grep -q "no results store" "$tmp/out" && { echo "FAIL: list --db '$name' says there is no store"; fail=1; }
  timeout 20 "$bin" show --points stored:1 --db "$name" >"$tmp/out" 2>&1 ||
    { echo "FAIL: show --points stored:1 --db '$name':"; cat "$tmp/out"; fail=1; }
done
ls r.db s.db 2>/dev/null && { echo "FAIL: a store was written under the name the URI meant"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: a store named file:... is that file"
exit $fail
