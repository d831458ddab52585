#!/usr/bin/env bash
# Issue 33: a bad value from a configuration file or a ROOFLINE_* variable is reported
# with where it came from (FILE:LINE:COL or the variable, the setting, the value), as the
# docs promise, not as a command-line mistake ("--samples must be 1 to 1000"); and
# 'config show' lists it marked INVALID with the reason, then exits 2, instead of listing
# it as if it were fine. Checks a command makes only when it runs say the same.
set -u
bin=$1
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"

# expect CODE REGEX ARGS...: roofline ARGS exits CODE with REGEX in its output (stdout and stderr).
expect() {
  local want_code=$1 regex=$2; shift 2
  timeout 60 "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local code=$?
  cat "$tmp/err" >>"$tmp/out"  # after: one file for both would interleave their buffers
  if [[ $code -ne $want_code ]] || { [[ -n $regex ]] && ! grep -Eq -- "$regex" "$tmp/out"; }; then
    echo "FAIL: roofline $* with $(tr '\n' ' ' <roofline.yaml 2>/dev/null): exit $code (want $want_code), /$regex/ not in:"
    sed 's/^/  | /' "$tmp/out"; fail=1
  fi
}

# A value the option's own check refuses: every command stops with the file and line;
# config show lists every setting, this one INVALID with the reason, and exits 2.
printf 'kernels:\n  stat: median\n  samples: 0\n' >roofline.yaml
where="roofline.yaml:3:12: kernels.samples: '0' is not a valid value for 'roofline kernels --samples': --samples: must be 1 to 1000 \\(got 0\\)"
expect 2 "^roofline: error: $where" kernels sum_sp_scalar --sizes 4K --no-store -q
expect 2 "^roofline: error: $where" topology
expect 2 "^kernels.samples +0 +roofline.yaml:3:12 +INVALID$" config show
expect 2 "^kernels.stat +median +roofline.yaml:2:9$" config show
expect 2 "^  $where" config show
# A range plot checks: config show says so too, rather than calling the value valid.
printf 'plot:\n  width: 5\n' >roofline.yaml
expect 2 "^plot.width +5 +roofline.yaml:2:10 +INVALID$" config show
expect 2 "plot.width: '5' is not a valid value for 'roofline plot --width': --width: must be 40 to 1000" config show
printf 'kernels:\n  stat: median\n  samples: 0\n' >roofline.yaml
"$bin" config show kernels --format json >"$tmp/show.json" 2>"$tmp/err"; code=$?
python3 - "$tmp/show.json" <<'EOF' || { echo "FAIL: config show --format json (exit $code) does not mark it"; cat "$tmp/err"; fail=1; }
import json, sys
settings = {s["key"]: s for s in json.load(open(sys.argv[1]))["settings"]}
bad, good = settings["kernels.samples"], settings["kernels.stat"]
assert bad["value"] == "0" and not bad["valid"] and "roofline.yaml:3:12" in bad["problem"], bad
assert good["valid"] and "problem" not in good, good
EOF
[[ $code -eq 2 ]] || { echo "FAIL: config show --format json exit $code with an invalid setting, expected 2"; fail=1; }
# The command line cannot rescue a bad file (every command stops, as for an unknown name).
expect 2 "roofline.yaml:3:12" kernels sum_sp_scalar --sizes 4K --no-store -q --samples 2
printf 'bench.threads: four\n' >roofline.yaml
expect 2 "^roofline: error: roofline.yaml:1:16: bench.threads: 'four' is not a valid value for 'roofline bench --threads': --threads expects a count from 1 to 1048576, a list like 1,2, 'all' or 'sweep' \\(got 'four'\\)" bench
expect 2 "^bench.threads +four +roofline.yaml:1:16 +INVALID$" config show
printf 'bench.threads: 1,2\n' >roofline.yaml
expect 0 "^bench.threads +1,2 +roofline.yaml:1:16$" config show bench.threads
printf 'bench:\n  gpu: -1\n  sick-threshold: 150\n' >roofline.yaml
expect 2 "^bench.gpu +-1 +roofline.yaml:2:8 +INVALID$" config show
expect 2 "^bench.sick-threshold +150 +roofline.yaml:3:19 +INVALID$" config show
expect 2 "^roofline: error: roofline.yaml:2:8: bench.gpu: '-1' is not a valid value for 'roofline bench --gpu': --gpu: must be 0 to 2147483647, a CUDA device number \\(got -1\\) \\(and 1 more bad setting" bench
expect 2 "^  roofline.yaml:3:19: bench.sick-threshold: '150' is not a valid value for 'roofline bench --sick-threshold': --sick-threshold is a percentage between 0 and 100" config show
printf 'history.last: -3\n' >roofline.yaml
expect 2 "^history.last +-3 +roofline.yaml:1:15 +INVALID$" config show
expect 2 "^  roofline.yaml:1:15: history.last: '-3' is not a valid value for 'roofline history --last': --last: must be 0 to 2147483647 runs, 0 for all \\(got -3\\)" config show

# Values a command checks only when it runs: its error says where the value came from.
printf 'kernels:\n  threads: 100000\n' >roofline.yaml
expect 2 "^roofline: error: roofline.yaml:2:12: kernels.threads: '100000': --threads must be 1 to" \
  kernels sum_sp_scalar --sizes 4K --no-store -q
# A size's form is the option's own check: found as the file is read, like --samples above.
printf 'kernels.sizes: bogus\n' >roofline.yaml
expect 2 "^roofline: error: roofline.yaml:1:16: kernels.sizes: 'bogus' is not a valid value for 'roofline kernels --sizes': --sizes: not a size: 'bogus'" \
  kernels sum_sp_scalar --no-store -q
expect 2 "^kernels.sizes +bogus +roofline.yaml:1:16 +INVALID$" config show
rm -f roofline.yaml
ROOFLINE_KERNELS_THREADS=100000 expect 2 \
  "^roofline: error: ROOFLINE_KERNELS_THREADS: kernels.threads: '100000': --threads must be 1 to" \
  kernels sum_sp_scalar --sizes 4K --no-store -q
# Typed on the command line, the same mistake is the command line's.
expect 2 "^roofline: error: --threads must be 1 to" kernels sum_sp_scalar --sizes 4K --no-store -q --threads 100000
# And a configured value the command line overrides is not blamed (the cores: known when it runs).
printf 'kernels.threads: 100000\n' >roofline.yaml
expect 0 "" kernels sum_sp_scalar --sizes 4K --no-store -q --threads 1 -o "$tmp/k.json"

[[ $fail -eq 0 ]] && echo "ok: bad configured values name their file and line; config show marks them INVALID"
exit $fail
