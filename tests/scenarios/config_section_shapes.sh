#!/usr/bin/env bash
# A command's section in a configuration file, written the ways people write it: with all its
# options commented out (a template) it sets nothing, as a file of comments does, where it
# stopped every command with "kernels: a setting needs a value"; given a value itself
# ('kernels: 5') it is named as a command whose settings go under it, not as an "unknown
# setting 'kernels'"; a value with a line break in it is quoted on one line (\n).
set -u
bin=$1
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"

# expect CODE REGEX FILE-TEXT: with roofline.yaml holding FILE-TEXT (printf %b), 'roofline config
# show' exits CODE with REGEX (grep -E) in its output, and so does 'roofline list'.
expect() {
  printf '%b' "$3" >roofline.yaml
  for cmd in "config show" "list"; do
    # shellcheck disable=SC2086
    timeout 60 "$bin" $cmd >"$tmp/out" 2>&1; local code=$?
    if [[ $code -ne $1 ]] || ! grep -Eq -- "$2" "$tmp/out"; then
      echo "FAIL: roofline $cmd with roofline.yaml '$3': exit $code (want $1), /$2/ not in:"
      sed 's/^/  | /' "$tmp/out"; fail=1
    fi
  done
}

expect 0 "project file +roofline.yaml +0 settings|Results store" 'kernels:\n  # cache: cold\n  # samples: 9\n'
expect 0 "project file +roofline.yaml +1 setting|Results store" 'kernels:\n  # cache: cold\nbench:\n  quick: true\n'
# Still a mistake: a setting (not a command) without its value, at the top or in a section.
expect 2 "roofline.yaml:1:1: db: a setting needs a value" 'db:\n'
expect 2 "roofline.yaml:2:3: kernels.cache: a setting needs a value" 'kernels:\n  cache:\n'
expect 2 "roofline.yaml:1:1: kernels.cache: a setting needs a value" 'kernels.cache:\n'
# A value for the command itself.
for text in 'kernels: 5\n' 'kernels: [cold]\n'; do
  expect 2 "roofline.yaml:1:1: 'kernels' is a command, not a setting: write its settings under it, indented \('kernels:' then '  [a-z-]+: VALUE'\), or as 'kernels\.[a-z-]+: VALUE'" "$text"
  grep -q "unknown setting" "$tmp/out" && { echo "FAIL: '$text' still called an unknown setting"; fail=1; }
done
expect 2 "roofline.yaml:1:1: unknown setting 'kernel'" 'kernel: 5\n'
# A line break in a value: the message keeps to its one line.
expect 2 "kernels\.samples: '5\\\\nx' is not a valid value for 'roofline kernels --samples'" 'kernels: {samples: "5\\nx"}\n'
grep -q "^x' is not" "$tmp/out" && { echo "FAIL: the value's line break split the message"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: empty sections set nothing, a command given a value is named as one, values quoted on one line"
exit $fail
