#!/usr/bin/env bash
# Issue 33: two outputs of one command that are the same file (bench -o m.svg, whose chart
# goes to m.svg too; --svg or --chart naming the -o file, through another spelling or a
# symlink) are a usage error (exit 2) before anything is measured or written, not a chart
# silently written over the model after the whole run. Different files still go ahead.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: the test runs in its own directory
src=$(cd "$(dirname "$0")/../.." && pwd)
data=$src/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
ln -s m.json link.svg          # dangling: it would create m.json
mkdir sub
# expect_refused ARGS...: exit 2 at once, a message saying so, nothing measured or written.
expect_refused() {
  timeout 60 "$bin" "$@" >out 2>err; code=$?
  if [[ $code -ne 2 ]] || ! grep -q 'same file' err || grep -q 'measuring' err; then
    echo "FAIL: '$*': exit $code, expected 2 with 'same file' before measuring:"; sed 's/^/  | /' err; fail=1
  fi
  for f in m.json m.svg c.txt; do
    [[ -e $f ]] && { echo "FAIL: '$*' wrote $f"; fail=1; rm -f "$f"; }
  done
}
expect_refused bench --no-store -o m.svg
expect_refused bench --no-store -o m.json --svg m.json
expect_refused bench --no-store -o m.json --svg ./sub/../m.json
expect_refused bench --no-store -o m.json --svg "$tmp/m.json"
expect_refused bench --no-store -o m.json --svg link.svg
expect_refused compare "$data/report-points.json" "$data/report-points.json" --machine "$data/report-machine.json" \
    -o c.svg --chart c.svg
# An existing file under two names (a hard link) is one file too. (--chart takes .svg or .html
# names only, checked as it is parsed.)
echo old >c.svg && ln c.svg hard.svg
timeout 60 "$bin" compare "$data/report-points.json" "$data/report-points.json" \
    --machine "$data/report-machine.json" -o c.svg --chart hard.svg >out 2>err; code=$?
if [[ $code -ne 2 ]] || [[ $(cat c.svg) != old ]]; then
  echo "FAIL: -o c.svg --chart hard.svg (a hard link): exit $code, expected 2 and c.svg untouched"; fail=1
fi
rm -f c.svg hard.svg

# Different files: compare writes both; bench gets past the check to measuring (stopped there).
"$bin" compare "$data/report-points.json" "$data/report-points.json" --machine "$data/report-machine.json" \
    -o c.txt --chart c.svg >out 2>err || { echo "FAIL: compare -o c.txt --chart c.svg refused:"; sed 's/^/  | /' err; fail=1; }
[[ -s c.txt && -s c.svg ]] || { echo "FAIL: compare did not write c.txt and c.svg"; fail=1; }
timeout -s INT 3 "$bin" bench --no-store -o m.json --svg other.svg >out 2>err
grep -q 'measuring' err || { echo "FAIL: bench -o m.json --svg other.svg did not start measuring:"; sed 's/^/  | /' err; fail=1; }
# Both outputs /dev/null: written in place one after the other, nothing lost.
timeout -s INT 3 "$bin" bench --no-store -o /dev/null --svg /dev/null >out 2>err
grep -q 'measuring' err || { echo "FAIL: bench -o /dev/null --svg /dev/null refused:"; sed 's/^/  | /' err; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: two outputs naming one file are refused before the run (exit 2)"
exit $fail
