#!/usr/bin/env bash
# roofline-gpubench's arguments, without a GPU: what it cannot do is refused before any device
# is touched (exit 2, a message that names the argument and what it expects); what it can is
# accepted (then 77 without a device, or it would measure). --help names every option.
# usage: argument_checks.sh ROOFLINE_GPUBENCH; exit 77 (skipped) when it was not built (no nvcc).
set -u
gb=$1
[[ -x $gb ]] || { echo "SKIP: $gb not built (no nvcc)"; exit 77; }
fail=0
refused() {  # ARGS... : exit 2 and the message names the option
  local out code
  out=$("$gb" "$@" 2>&1); code=$?
  [[ $code -eq 2 ]] || { echo "FAIL: $*: exit $code, expected 2"; fail=1; }
  grep -q -- "$1" <<<"$out" || { echo "FAIL: $*: the message does not name $1: $out"; fail=1; }
}
refused --only foo
refused --only memory,memory
refused --only ''
refused --only compute,
refused --l2-chunk-bytes 5000
refused --l2-chunk-bytes 12288        # 3 rows: not a power of two
refused --l2-chunk-bytes 1048576      # past the largest chunk
refused --l2-chunk-bytes 2048
refused --l2-chunk-bytes 4096x
refused --device
refused --frobnicate
help=$("$gb" --help) || { echo "FAIL: --help exit $?"; fail=1; }
for option in --only --l2-chunk-bytes --l2-sweep-chunks --quick --device -o; do
  grep -q -- "$option" <<<"$help" || { echo "FAIL: --help does not name $option"; fail=1; }
done
# Accepted: past parsing, to the device (77 here without one; 0 where there is one is not run).
if ! "$gb" --probe >/dev/null 2>&1; then
  for args in "--only l2 --l2-sweep-chunks" "--only compute,memory,l2,bus" "--l2-chunk-bytes 4096" \
              "--l2-chunk-bytes 524288 --only l2"; do
    # shellcheck disable=SC2086
    "$gb" $args -o /dev/null >/dev/null 2>&1; code=$?
    [[ $code -eq 77 ]] || { echo "FAIL: $args: exit $code, expected 77 (no device)"; fail=1; }
  done
fi
[[ $fail -eq 0 ]] && echo "ok: roofline-gpubench refuses bad --only and --l2-chunk-bytes values, accepts good ones"
exit $fail
