#!/usr/bin/env bash
# Issue 33's class "two outputs of a run may not be the same file", extended to inputs: an
# output that names a file the command reads (report --points p.json -o p.json) replaced the
# user's measured points with a report, silently. Now a usage error (exit 2) before anything
# is read or written, through another spelling or a symlink too; the input is left as it was.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp ROOFLINE_DB=$tmp/results.db
fail=0
cp "$src/tests/data/report-points.json" p.json
cp "$src/tests/data/report-machine.json" m.json
cp "$src/examples/kernels/stream_triad.yaml" k.yaml
ln -s p.json alias.json
before_p=$(sha256sum p.json m.json k.yaml)
# expect_refused ARGS...: exit 2, the input named as it was given (an option or command reads
# it; a positional, which has no option, by its place: "A, the first file compared").
expect_refused() {
  local out code
  out=$(timeout 60 "$bin" "$@" 2>&1); code=$?
  if [[ $code -ne 2 ]] || ! grep -Eq 'is (the file .* reads|A, the first file compared|a kernel spec model reads): writing it would replace that input' <<<"$out"; then
    echo "FAIL: roofline $*: exit $code, expected 2 naming the input:"; sed 's/^/  | /' <<<"$out"; fail=1
  fi
}
expect_refused report --machine m.json --points p.json -o p.json
expect_refused report --machine m.json --points p.json -o ./sub/../p.json
expect_refused report --machine m.json --points p.json -o alias.json
expect_refused report --machine m.json --points p.json -o m.json
expect_refused plot --machine m.json --points p.json -o p.json --format svg
expect_refused compare p.json alias.json --machine m.json -o p.json
# Given positionally, the input is not called --machine's or --points' (it was "the file --machine reads").
out=$(timeout 60 "$bin" compare m.json m.json -o m.json 2>&1)
grep -q '^roofline: error: -o m.json is A, the first file compared: writing it would replace that input; give -o another file$' <<<"$out" ||
  { echo "FAIL: compare m.json m.json -o m.json does not name A as given:"; sed 's/^/  | /' <<<"$out"; fail=1; }
cp p.json q.json
out=$(timeout 60 "$bin" compare p.json q.json --machine m.json -o q.json 2>&1)
grep -q 'is B, the second file compared: writing' <<<"$out" ||
  { echo "FAIL: compare p.json q.json -o q.json does not name B as given:"; sed 's/^/  | /' <<<"$out"; fail=1; }
cp m.json machine.svg  # --chart takes .svg or .html names only: an input so named
expect_refused compare --machine machine.svg --machine m.json --chart machine.svg
expect_refused show p.json -o p.json
expect_refused model --machine m.json k.yaml -o k.yaml
[[ $(sha256sum p.json m.json k.yaml) == "$before_p" ]] || { echo "FAIL: an input file was changed"; fail=1; }
# Another file is still fine.
"$bin" report --machine m.json --points p.json -o r.txt >/dev/null 2>&1 || { echo "FAIL: report -o r.txt"; fail=1; }
[[ -s r.txt ]] || { echo "FAIL: r.txt not written"; fail=1; }
exit $fail
