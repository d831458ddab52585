#!/usr/bin/env bash
# 'config show KEYS': its --help examples run as written, and every key must name a setting.
# 'roofline config show bench --changed' (config --help: "bench's settings not at their
# built-in defaults") exited 2 with "no setting is named bench" when none was changed, and
# 'config show kernels nosuch' listed kernels' settings without a word about nosuch.
set -u
bin=$1
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"
unset ROOFLINE_DB  # nothing changed from its built-in default (HOME is the scenario's own)

# expect CODE REGEX ARGS...
expect() {
  local want=$1 regex=$2; shift 2
  timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne $want ]] || ! grep -Eq -- "$regex" "$tmp/out"; then
    echo "FAIL: roofline $*: exit $code (want $want), /$regex/ not in:"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
}

# Every example of 'config --help' and 'config show --help' that runs 'roofline config show',
# as written (the environment variable ones included), exits 0.
examples=$( { "$bin" config --help; "$bin" config show --help; } | sed -n 's/^  \(\(ROOFLINE_[A-Z_]*=[^ ]* \)\{0,1\}roofline config show[^ ]*\( [^ ]*\)*\)/\1/p' |
  sed 's/   .*//' | sort -u)
[[ -n $examples ]] || { echo "FAIL: no 'roofline config show' example found in --help"; fail=1; }
while IFS= read -r line; do
  [[ -z $line ]] && continue
  read -r -a words <<<"$line"
  envs=()
  while [[ ${words[0]} == ROOFLINE_*=* ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
  env "${envs[@]}" timeout 60 "$bin" "${words[@]:1}" >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 0 ]] || { echo "FAIL: the --help example '$line' exits $code:"; sed 's/^/  | /' "$tmp/out"; fail=1; }
done <<<"$examples"

# --changed with nothing changed: an empty list, said so, exit 0.
expect 0 "^\(none: every setting asked for is at its built-in default\)$" config show bench --changed
printf 'bench:\n  time-budget: 30\n' >roofline.yaml
expect 0 "^bench.time-budget +30 +roofline.yaml:2:16$" config show bench --changed
rm -f roofline.yaml
# A key naming nothing is an error even beside keys that name settings; each is named.
expect 2 "^roofline: error: no setting is named 'nosuch', 'kernel.cach' \(try 'roofline config show'" \
  config show kernels nosuch kernel.cach
expect 2 "no setting is named 'nosuch'" config show --changed nosuch
[[ $fail -eq 0 ]] && echo "ok: config show's examples run; every key names a setting"
exit $fail
