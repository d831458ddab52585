#!/usr/bin/env bash
# Issue 33: the command-line parser's own messages quote the arguments as typed; an escape
# sequence among them reaches the terminal escaped (\x1b...), never raw, and the exit is 2.
set -u
bin=$1
fail=0
for args in "$(printf '\e]0;pwn\a')" "report --$(printf '\e[2J')x" "report --format $(printf '\e[2J')" \
            "kernels --cache $(printf '\e]0;x\a')"; do
  # shellcheck disable=SC2086
  out=$("$bin" $args 2>&1); code=$?
  if [[ $code -ne 2 ]]; then echo "FAIL: '$args' (escaped: $(printf %q "$args")): exit $code, expected 2"; fail=1; fi
  if grep -q $'\e' <<<"$out"; then echo "FAIL: $(printf %q "$args"): a raw escape reached the output"; fail=1; fi
  grep -q 'x1b' <<<"$out" || { echo "FAIL: $(printf %q "$args"): the escape is not shown escaped: $(printf %q "$out")"; fail=1; }
done
[[ $fail -eq 0 ]] && echo "ok: the parser's messages show escape sequences escaped, exit 2"
exit $fail
