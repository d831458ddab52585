#!/usr/bin/env bash
# Issue 33: settings read from the environment are checked like options, before any work:
# ROOFLINE_MAX_ISA=bogus was ignored silently (AVX-512 kernels measured for someone asking
# about AVX2), and ROOFLINE_DB=mysql://... was taken as the name of a SQLite file.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp XDG_DATA_HOME=$tmp/data
fail=0
# expect CODE REGEX ENV... -- ARGS...: exit CODE and stderr+stdout matching REGEX.
expect() {
  local code=$1 regex=$2; shift 2
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local out got
  out=$(env "${envs[@]}" timeout 120 "$bin" "$@" 2>&1); got=$?
  if [[ $got -ne $code ]] || ! grep -Eq -- "$regex" <<<"$out"; then
    echo "FAIL: ${envs[*]} roofline $*: exit $got (expected $code), output:"; sed 's/^/  | /' <<<"$out"; fail=1
  fi
}
expect 2 "ROOFLINE_MAX_ISA='bogus' is not an instruction set" ROOFLINE_MAX_ISA=bogus -- kernels stream_triad --sizes 64K --no-store
expect 2 "ROOFLINE_MAX_ISA='bogus' is not an instruction set" ROOFLINE_MAX_ISA=bogus -- bench --quick --no-store -o m.json
[[ -e m.json ]] && { echo "FAIL: bench with a bad ROOFLINE_MAX_ISA wrote m.json"; fail=1; }
# Control bytes in the value are not sent to the terminal.
out=$(ROOFLINE_MAX_ISA=$'\e]0;x\a' "$bin" topology 2>&1)
if grep -q $'\e' <<<"$out"; then echo "FAIL: an escape in ROOFLINE_MAX_ISA reached the terminal"; fail=1; fi
# Any case is the same instruction set; an empty value is no cap.
expect 0 "stream_triad" ROOFLINE_MAX_ISA=AVX2 -- kernels --list
expect 0 "stream_triad" ROOFLINE_MAX_ISA=sse2 -- kernels --list
expect 0 "stream_triad" ROOFLINE_MAX_ISA= -- kernels --list
# A URL of a scheme we cannot open is refused, not created as a file of that name.
expect 2 "mysql:// is not a results store" ROOFLINE_DB=mysql://u@h/db -- list
expect 2 "mysql:// is not a results store" ROOFLINE_DB=mysql://u@h/db -- kernels stream_triad --sizes 64K
[[ -e mysql: ]] && { echo "FAIL: a directory 'mysql:' was created"; fail=1; }
expect 2 "file:// is not a results store" -- list --db file:///tmp/x.db
exit $fail
