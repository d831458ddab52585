#!/usr/bin/env bash
# A message to a terminal is broken at spaces to its width (COLUMNS, else the terminal's), its
# continuations indented; to a pipe the same message stays on one line for scripts and grep.
# `report` with an empty store says a 200-character error. The terminal is script(1)'s.
# SKIPPED (exit 77) without script(1).
set -u
bin=$1
command -v script >/dev/null || { echo "SKIP: no script(1) for a terminal"; exit 77; }
source "$(cd "$(dirname "$0")" && pwd)/lib/isolated_config.sh"
check() { echo "FAIL: $1"; fail=1; }

piped=$("$bin" report 2>&1 >/dev/null)
[[ $? -ne 0 ]] || check "report with an empty store exited 0"
[[ $(wc -l <<<"$piped") -eq 1 ]] || check "to a pipe the error is not one line: $piped"
[[ ${#piped} -gt 100 ]] || check "the error is too short to show wrapping: $piped"

# script(1) runs the command on a pseudo-terminal; its output comes back with CR LF.
on_tty=$(COLUMNS=60 script -qec "$(printf '%q' "$bin") report" /dev/null 2>&1 | tr -d '\r')
widest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$on_tty")
[[ $widest -le 60 ]] || check "on a 60-column terminal a line is $widest characters wide: $on_tty"
[[ $(wc -l <<<"$on_tty") -ge 3 ]] || check "on a 60-column terminal the error was not broken into lines: $on_tty"
grep -q '^  [^ ]' <<<"$on_tty" || check "continuation lines are not indented: $on_tty"
# Broken only at spaces: joined again, it is the piped message word for word.
joined=$(sed -E '1!s/^ +//' <<<"$on_tty" | paste -sd' ')
[[ $joined == "$piped" ]] || check "the wrapped error reads otherwise than the piped one:
$joined
$piped"

((fail == 0)) && echo "ok: wrapped to 60 columns on a terminal ($widest wide), one line to a pipe"
exit $fail
