#!/usr/bin/env bash
# make test-sanitize: runs the suite of a ROOFLINE_SANITIZE=ON build (ASan + UBSan) with ctest.
# Usage: run.sh BUILD JOBS [ctest args...]
# Every sanitizer report is also written to BUILD/sanitizer-logs/ (log_path): a report in a
# process whose exit code a test ignores still fails the run. The Valgrind tests show as skipped.
set -uo pipefail
build=$(cd "$1" && pwd); jobs=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
logs=$build/sanitizer-logs
rm -rf "$logs"; mkdir -p "$logs"
# detect_leaks: LeakSanitizer on (exit 23 on a leak); lsan.supp lists third-party leaks we accept.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:print_summary=1:log_path=$logs/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ROOFLINE_SANITIZED=1
cd "$build" || exit 1
start=$(date +%s)
ctest --output-on-failure -j "$jobs" "$@"
status=$?
echo "test-sanitize: ctest took $(( $(date +%s) - start )) s"
shopt -s nullglob
reports=("$logs"/*)
if ((${#reports[@]})); then
  echo "test-sanitize: ${#reports[@]} sanitizer report(s) in $logs:"
  for r in "${reports[@]}"; do
    echo "=== $r"; head -60 "$r"
  done
  status=1
fi
exit $status
