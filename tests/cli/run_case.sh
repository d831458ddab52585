#!/usr/bin/env bash
# One CLI contract case: run roofline with ARGS, check the exit code and that
# stdout+stderr match REGEX (grep -E; a leading '!' means must NOT match). @TMP@ in ARGS becomes a fresh directory,
# @SRC@ the repository root (for input files under tests/data).
set -u
bin=$1 expected_exit=$2 regex=$3 args=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=${args//@TMP@/$tmp}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
args=${args//@SRC@/$(printf '%q' "$src")}
export ROOFLINE_DB="$tmp/results.db"
eval "set -- $args"
out=$("$bin" "$@" 2>&1)
code=$?
if [[ "$code" != "$expected_exit" ]]; then
  echo "FAIL: exit code $code, expected $expected_exit"; echo "$out"; exit 1
fi
if [[ $regex == '!'* ]]; then
  if grep -Eq -- "${regex#!}" <<<"$out"; then
    echo "FAIL: output matches /${regex#!}/, which it must not"; echo "$out"; exit 1
  fi
  echo "ok: exit $code, output does not match /${regex#!}/"; exit 0
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
  echo "FAIL: output does not match /$regex/"; echo "$out"; exit 1
fi
echo "ok: exit $code, output matches /$regex/"
