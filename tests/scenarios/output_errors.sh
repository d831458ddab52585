#!/usr/bin/env bash
# Output that cannot be written (a full disk) is an error with a message and a
# non-zero exit, never exit 0 with the results gone.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
[[ -w /dev/full ]] || { echo "skip: no /dev/full"; exit 77; }
fail=0
for args in "report --machine $src/tests/data/report-machine.json --points $src/tests/data/report-points.json" \
            "report --machine $src/tests/data/report-machine.json --points $src/tests/data/report-points.json --format json" \
            "kernels --list" "model --peak 85.8 --bw 29 --intensity 0.05" "--help"; do
  # shellcheck disable=SC2086
  "$bin" $args >/dev/full 2>"${TMPDIR:-/tmp}/rl_err.$$"; code=$?
  if [[ $code -eq 0 ]] || ! grep -q 'cannot write to standard output' "${TMPDIR:-/tmp}/rl_err.$$"; then
    echo "FAIL: '$args' > /dev/full: exit $code, stderr: $(head -c 300 "${TMPDIR:-/tmp}/rl_err.$$")"; fail=1
  fi
done
rm -f "${TMPDIR:-/tmp}/rl_err.$$"
[[ $fail -eq 0 ]] && echo "ok: writes to a full standard output fail loudly"
exit $fail
