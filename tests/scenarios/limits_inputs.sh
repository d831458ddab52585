#!/usr/bin/env bash
# Issue 10: an input file that never ends (/dev/zero, /dev/urandom, an endless
# pipe), a directory or a huge file is refused with a message and exit 1, never
# read until memory runs out. `timeout 60` only catches a hang.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
machine=$src/examples/machines/opteron_x4.yaml
points=$src/tests/data/report-points.json
fail=0

# expect REGEX ARGS...: exit 1 and REGEX in stdout+stderr.
expect() {
  local regex=$1; shift
  timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne 1 ]] || ! grep -Eq "$regex" "$tmp/out"; then
    echo "FAIL: roofline $*: exit $code (want 1), output: $(head -c 300 "$tmp/out")"; fail=1
  fi
}

device='not a regular file \(a character device\)'
for dev in /dev/zero /dev/urandom; do
  expect "cannot read $dev: $device" plot --machine "$dev" --points "$points" -o "$tmp/c.svg"
  expect "cannot read $dev: $device" plot --machine "$machine" --points "$dev" -o "$tmp/c.svg"
  expect "cannot read $dev: $device" report --machine "$dev" --points "$points"
  expect "cannot read $dev: $device" report --machine "$machine" --points "$dev"
  expect "cannot read $dev: $device" model "$dev" --peak 1 --bw 1
  expect "cannot read $dev: $device" show "$dev"
done
expect "cannot read $tmp: not a regular file \(a directory\)" plot --machine "$machine" --points "$tmp" -o "$tmp/c.svg"

# Sparse: 300 MiB of size, nothing written.
truncate -s 300M "$tmp/big.json"
expect 'cannot read .*/big\.json: 300 MiB is over the 256 MiB limit for input files' \
  plot --machine "$machine" --points "$tmp/big.json" -o "$tmp/c.svg"
expect 'cannot read .*/big\.json: 300 MiB is over the 256 MiB limit' report --machine "$tmp/big.json" --points "$points"

# A pipe is read, and stops at the limit when it does not end.
timeout 60 "$bin" plot --machine "$machine" --points <(cat "$points") -o "$tmp/p.svg" -q >"$tmp/out" 2>&1 ||
  { echo "FAIL: plot --points from a pipe: $(head -c 300 "$tmp/out")"; fail=1; }
expect 'cannot read /dev/fd/[0-9]+: it goes on past the 256 MiB limit for input files' \
  plot --machine "$machine" --points <(cat /dev/zero) -o "$tmp/c.svg"

# Every command that takes a machine or points takes them from a pipe, also where it reads
# a file twice (its kind sniffed, then parsed): the pipe's text is kept for the run.
json_machine=$src/tests/data/report-machine.json
piped() {  # piped WHAT REGEX ARGS...: exit 0 and REGEX in the output
  local what=$1 regex=$2; shift 2
  timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne 0 ]] || ! grep -Eq "$regex" "$tmp/out"; then
    echo "FAIL: $what from a pipe: exit $code, output: $(head -c 300 "$tmp/out")"; fail=1
  fi
}
piped "report --machine" 'Roofline report' report --machine <(cat "$json_machine") --points "$points"
piped "plot --machine" 'chart written' plot --machine <(cat "$json_machine") --points "$points" -o "$tmp/m.svg"
piped "show" 'Example CPU' show <(cat "$json_machine")
piped "show /dev/stdin" 'Example CPU' show /dev/stdin <"$json_machine"
piped "compare, two point sets" 'same' compare <(cat "$points") <(cat "$points") --machine "$json_machine"
piped "compare, two machines" 'ROOF' compare <(cat "$json_machine") <(cat "$json_machine")

[[ $fail -eq 0 ]] && echo "ok: devices, directories, huge files and endless pipes are refused"
exit $fail
