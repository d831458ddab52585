#!/usr/bin/env bash
# -o naming a configuration file in force (./roofline.yaml, the user's or the system's) is refused
# before anything is written: 'roofline config show -o roofline.yaml' put its report where the
# settings were, and every command after stopped on the file as invalid YAML.
set -u
bin=$1
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"
mkdir -p "$HOME/.config/roofline"
printf 'kernels:\n  cache: cold\n' >roofline.yaml
printf 'kernels:\n  stat: median\n' >"$HOME/.config/roofline/config.yaml"
printf 'kernels:\n  samples: 3\n' >"$ROOFLINE_SYSTEM_CONFIG"
cp roofline.yaml "$tmp/project.before"

# refused CMD... -o FILE: exit 2, naming FILE and which configuration file it is; nothing written.
refused() {
  local which=$1; shift
  timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne 2 ]] || ! grep -q "is the $which configuration file every roofline command reads" "$tmp/out"; then
    echo "FAIL: roofline $*: exit $code (want 2, naming the $which configuration file):"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
}
refused project config show -o roofline.yaml
refused project config show kernels.cache --output ./roofline.yaml
refused project topology -o "$PWD/roofline.yaml"
refused project kernels daxpy --sizes 16K --samples 1 --no-store -q -o roofline.yaml
refused user list -o "$HOME/.config/roofline/config.yaml"
refused system show -o "$ROOFLINE_SYSTEM_CONFIG"
cmp -s roofline.yaml "$tmp/project.before" || { echo "FAIL: roofline.yaml was changed"; fail=1; }
grep -q "stat: median" "$HOME/.config/roofline/config.yaml" || { echo "FAIL: the user's file was changed"; fail=1; }
grep -q "samples: 3" "$ROOFLINE_SYSTEM_CONFIG" || { echo "FAIL: the system file was changed"; fail=1; }
# The settings still hold, and another file is written as asked.
timeout 60 "$bin" config show kernels.cache -o settings.txt >"$tmp/out" 2>&1 ||
  { echo "FAIL: config show -o settings.txt:"; cat "$tmp/out"; fail=1; }
grep -Eq "^kernels.cache +cold +roofline.yaml:2:10" settings.txt || { echo "FAIL: settings.txt:"; cat settings.txt; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: -o never replaces a configuration file in force"
exit $fail
