#!/usr/bin/env bash
# Issue 33: a wedged GPU driver made `roofline bench --gpu` hang before anything was measured:
# the GPU benchmark's --probe run had no time limit. A stand-in roofline-gpubench
# (ROOFLINE_GPUBENCH) that never ends, with ROOFLINE_GPUBENCH_TIME_LIMIT=2: bench must stop it
# within seconds, kill its process group (a child it started included), say why, and exit 1
# before measuring the CPU. A stand-in whose probe answers but whose measuring run never
# ends: the CPU's figures are kept, the GPU run is killed and said, exit 1. A stand-in that
# ignores SIGTERM gets SIGKILL. A bad ROOFLINE_GPUBENCH_TIME_LIMIT is a usage error.
set -u
bin=$1
tmp=$(mktemp -d)
# A grandchild bench failed to end would be ended here, by its pid.
cleanup() { [[ -f $tmp/grandchild ]] && kill "$(cat "$tmp/grandchild")" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
# PROBE_HANGS MEASURE_HANGS: each hang also starts a grandchild that writes its pid, then
# both sleep; "stubborn" ignores SIGTERM.
standin() {
  cat >"$tmp/gpubench" <<STANDIN
#!/usr/bin/env bash
[[ "$3" == stubborn ]] && trap '' TERM
probe=0; out=""
while [[ \$# -gt 0 ]]; do [[ \$1 == --probe ]] && probe=1; [[ \$1 == -o ]] && { out=\$2; shift; }; shift; done
hang() { sleep 1000 & echo \$! >"$tmp/grandchild"; while :; do sleep 1; done; }
if [[ \$probe == 1 ]]; then [[ "$1" == hang ]] && hang; exit 0; fi
[[ "$2" == hang ]] && hang
exit 2
STANDIN
  chmod +x "$tmp/gpubench"
  [[ -f $tmp/grandchild ]] && kill "$(cat "$tmp/grandchild")" 2>/dev/null
  rm -f "$tmp/grandchild"
}
export ROOFLINE_GPUBENCH=$tmp/gpubench
bench=(bench --only compute --precision dp --threads 1 --time-budget 1 --no-store --svg '' --gpu)
# Gone within 5 s (a loaded host can take a moment to end and reap it; ps says what it is if not).
gone() {
  [[ -f $tmp/grandchild ]] || return 1
  local pid i
  pid=$(cat "$tmp/grandchild")
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    [[ $(ps -o stat= -p "$pid" 2>/dev/null) == Z* ]] && return 0  # a zombie has ended
    sleep 0.1
  done
  ps -o pid,stat,args -p "$pid"
  return 1
}

# The probe hangs: stopped after its limit, before anything is measured.
standin hang ok normal
start=$(date +%s)
ROOFLINE_GPUBENCH_TIME_LIMIT=2 timeout 60 "$bin" "${bench[@]}" -o "$tmp/m.json" </dev/null >"$tmp/out" 2>&1; code=$?
took=$(( $(date +%s) - start ))
[[ $code == 1 ]] || check "a probe that never ends: exit $code, expected 1 (124: bench hung)"
(( took < 20 )) || check "a probe that never ends: bench took $took s with a 2 s limit"
grep -q -- "--gpu: the GPU benchmark's probe ($tmp/gpubench --probe) did not end within 2.00 s: its process group was stopped (SIGTERM)" "$tmp/out" ||
  check "the probe's time limit is not said"
grep -q "nothing was measured" "$tmp/out" || check "the probe: not said that nothing was measured"
[[ -e $tmp/m.json ]] && check "a model was written though the probe failed"
gone || check "the probe's child process (the stand-in's sleep) is still running"

# The measuring run hangs: the CPU's figures are kept, the GPU run killed and said.
standin ok hang normal
ROOFLINE_GPUBENCH_TIME_LIMIT=2 timeout 120 "$bin" "${bench[@]}" -o "$tmp/m2.json" </dev/null >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] || check "a measuring run that never ends: exit $code, expected 1"
grep -q -- "--gpu: the GPU benchmark ($tmp/gpubench) did not end within 2.00 s" "$tmp/out" || check "the measuring run's limit is not said"
grep -q '"compute"' "$tmp/m2.json" 2>/dev/null || check "the CPU's figures were not kept"
gone || check "the measuring run's child process is still running"

# One that ignores SIGTERM gets SIGKILL.
standin hang ok stubborn
ROOFLINE_GPUBENCH_TIME_LIMIT=1 timeout 60 "$bin" "${bench[@]}" -o "$tmp/m3.json" </dev/null >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] && grep -q "did not end within 1.00 s: its process group was killed (SIGKILL: it did not end on SIGTERM)" "$tmp/out" ||
  check "a probe that ignores SIGTERM: exit $code"

# A bad limit is a usage error.
for v in abc -5 0; do
  ROOFLINE_GPUBENCH_TIME_LIMIT=$v timeout 60 "$bin" "${bench[@]}" -o "$tmp/m4.json" </dev/null >"$tmp/out" 2>&1; code=$?
  [[ $code == 2 ]] && grep -q "ROOFLINE_GPUBENCH_TIME_LIMIT must be a number of seconds" "$tmp/out" ||
    check "ROOFLINE_GPUBENCH_TIME_LIMIT=$v: exit $code, expected 2"
done
[[ $fail == 0 ]] && echo "ok: every GPU benchmark run has a time limit; its process group is killed and the reason said"
exit $fail
