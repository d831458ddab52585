#!/usr/bin/env bash
# A command that exits with a non-zero status (bad arguments, a missing input file) was measured and
# tabled like any other: under -q the table was all a person saw, the failure only in roofline's own
# exit status. Now a warning (shown under -q) says how it ended; the status is still passed through.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
cd "$tmp"
fail=0
"$bin" measure -q --engine time --no-store -- sh -c 'exit 3' >out 2>err
rc=$?
((rc == 3)) || { echo "FAIL: exit $rc, not the command's 3"; fail=1; }
grep -q "warning: the command exited with status 3" err || { echo "FAIL: no warning that the command exited with status 3"; fail=1; }
grep -q "^(program)" out || { echo "FAIL: the table is gone"; fail=1; }
# A command that succeeds gets no such warning.
"$bin" measure -q --engine time --no-store -- sh -c 'exit 0' >out0 2>err0 || { echo "FAIL: exit $? for a command that exits 0"; fail=1; }
grep -q "exited with status" err0 && { echo "FAIL: a warning for a command that exited 0"; fail=1; }
((fail)) && { cat err out err0; exit 1; }
echo "ok: $(grep -m1 'exited with status 3' err)"
