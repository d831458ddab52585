#!/usr/bin/env bash
# A file name with a line break, as the user gave it to -o, --svg or --chart, is quoted in the
# line that says where the result went (its break shown as \n, as other messages quote odd
# names): "chart written to a\nb.svg", never "chart written to a" and a line "b.svg" that
# reads like another message. The files themselves are written under the names given.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp ROOFLINE_DB=$tmp/results.db
fail=0
machine=$src/examples/machines/opteron_x4.yaml
points=$src/tests/data/report-points.json

# expect LINE_REGEX FILE... -- ARGS...: roofline ARGS exits 0, a line of its output matches
# LINE_REGEX, no line is the tail of a name that was split, and each FILE exists.
expect() {
  local regex=$1; shift
  local files=()
  while [[ $1 != -- ]]; do files+=("$1"); shift; done
  shift
  local out code
  out=$(timeout 120 "$bin" "$@" 2>&1 >/dev/null); code=$?
  if [[ $code -ne 0 ]] || ! grep -Eq -- "$regex" <<<"$out" || grep -Eq '^(b|d|x|y)\.[a-z]+( |$)' <<<"$out"; then
    echo "FAIL: roofline $(printf '%q ' "$@"): exit $code, /$regex/ not on one line, or a name split:"
    sed 's/^/  | /' <<<"$out"; fail=1
  fi
  for f in "${files[@]}"; do
    [[ -s $f ]] || { echo "FAIL: $(printf %q "$f") was not written"; fail=1; }
  done
}

expect '^chart written to a\\nb\.svg \(1 machine, 3 points\)$' $'a\nb.svg' -- \
  plot --machine "$machine" --points "$points" -o $'a\nb.svg'
expect '^report written to r\\nx\.txt$' $'r\nx.txt' -- \
  report --machine "$machine" --points "$points" -o $'r\nx.txt'
expect '^chart written to c\\nd\.svg$' $'c\nd.svg' -- \
  compare --machine "$machine" --machine "$machine" --chart $'c\nd.svg'
expect '^roofline: the points written to k\\nx\.json$' $'k\nx.json' -- \
  kernels stream_triad --sizes 24K --samples 1 --no-store -o $'k\nx.json'
expect '^saved: model m\\nx\.json; chart m\\ny\.svg; not in the results store\.$' $'m\nx.json' $'m\ny.svg' -- \
  bench --only compute --threads 1 --time-budget 1 --no-store -o $'m\nx.json' --svg $'m\ny.svg'
[[ $fail -eq 0 ]] && echo "ok: file names with a line break are quoted (\\n) where the results went"
exit $fail
