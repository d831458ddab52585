#!/bin/bash
# The tool's cache options, wrong: each stops Valgrind with exit 1 and says what is wrong
# (they are checked after Valgrind's own option pass, where a bad option only prints).
# usage: bad_options.sh TOOL_DIR PROGRAM
tool_dir=$1 program=$2
fail=0
expect() {  # expect MESSAGE OPTIONS...
  local want=$1; shift
  local err rc
  err=$(VALGRIND_LIB=$tool_dir valgrind -q --tool=roofline --roofline-out=/dev/null "$@" "$program" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 1 || $err != *"$want"* ]]; then
    echo "FAIL: $* -> exit $rc, expected 1 and '$want'; got:"; echo "$err" | head -5; fail=1
  else
    echo "ok: $* -> exit 1, '$want'"
  fi
}
expect "L1: the size must be a whole number of sets" --roofline-cache=32768:12:64:1
expect "level 1: unexpected ':'" --roofline-cache=32768:8:64:1:bogus
expect "at most 4 levels" --roofline-cache=32768:8:64:1,65536:8:64:1,131072:8:64:1,262144:8:64:1,524288:8:64:1
expect "level 1: expected SIZE:WAYS:LINE:SHARED_BY" --roofline-cache=x
expect "CPU 1: expected a core below 2" --roofline-cache=32768:8:64:1 --roofline-cache-cores=2 --roofline-cpu-cores=0,2
expect "CPU 0: unexpected 'x'" --roofline-cache=32768:8:64:1 --roofline-cpu-cores=0x
exit $fail
