#!/usr/bin/env bash
# measure --engine ncu --offload without a GPU (issue 13). The real roofline-offload.so runs:
# a stand-in program loads it as the CUDA driver does with CUDA_INJECTION64_PATH, and a
# stand-in libcupti (ROOFLINE_CUPTI_LIB) hands it a fixed set of activity records: 64 MiB up,
# a batch of 2 copies (64 MiB) up, 3 kernels, 1 MiB between devices, 4 MiB migrated up and
# 2 MiB down, 32 MiB down, over 10 ms. ncu is a stand-in writing the recorded CSV of
# tests/data (3 kernel launches). Checked: the summary the library writes, the point made of
# it, the bus intensity in the report, the two runs' order and failures, and misuse.
set -u
bin=$1 lib=$2 fake_cupti=$3 driver=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$src/tests/scenarios/lib/gpu_machine.sh"
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
fixture=$src/tests/data/ncu-details.csv
export ROOFLINE_DB=$tmp/results.db ROOFLINE_OFFLOAD_LIB=$lib ROOFLINE_CUPTI_LIB=$fake_cupti
MiB=1048576

# 1. The library alone, as the driver would load it: it writes PREFIX.<pid>.
summary_of() {  # PREFIX: the path of the one summary written under it; fails when not exactly one
  local files=("$1".*)
  [[ ${#files[@]} -eq 1 && -f ${files[0]} ]] && echo "${files[0]}"
}
CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/s "$driver" 0 >"$tmp/out" 2>&1 || check "the stand-in program failed"
f=$(summary_of "$tmp/s") || check "not one summary $tmp/s.<pid>"
cp "$f" "$tmp/s.json"
python3 - "$tmp/s.json" <<'PY' || { echo "FAIL: the summary"; cat "$tmp/s.json"; fail=1; }
import json, sys
s = json.load(open(sys.argv[1]))
M = 1 << 20
assert s["schema"] == "roofline.offload/1"
c = s["copies"]
assert c["host_to_device"] == {"bytes": 128 * M, "operations": 3, "busy_ns": 4000000}, c["host_to_device"]
assert c["device_to_host"]["bytes"] == 32 * M and c["device_to_host"]["operations"] == 1, c
assert c["peer_to_peer"]["bytes"] == M, c
assert s["migrations"]["host_to_device"]["bytes"] == 4 * M and s["migrations"]["device_to_host"]["bytes"] == 2 * M, s
assert s["kernels"]["operations"] == 3 and s["kernels"]["busy_ns"] == 3000000, s["kernels"]
assert s["first_ns"] == 1000000 and s["last_ns"] == 11000000, s
assert s["pid"] > 0, s
assert s["dropped_records"] == 0 and s["note"] == "", s
PY
# What CUPTI could not do is said, and the rest still counted.
FAKE_CUPTI_FAIL_UM=1 FAKE_CUPTI_DROPPED=7 CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/um "$driver" 0 >/dev/null 2>&1
f=$(summary_of "$tmp/um") || check "not one summary $tmp/um.<pid>"
python3 - "$f" <<'PY' || { echo "FAIL: the summary without migrations"; cat "$f"; fail=1; }
import json, sys
s = json.load(open(sys.argv[1]))
assert "unified-memory migrations not counted: fake CUPTI error" in s["note"], s["note"]
assert s["migrations"]["host_to_device"]["bytes"] == 0 and s["copies"]["host_to_device"]["bytes"] == 128 << 20, s
assert s["dropped_records"] == 7, s
PY
# The migrations above were configured when the first context was created (the stand-in, as
# CUPTI inside the driver's initialization, is not ready at injection). A libcupti without the
# callback API cannot defer: said, and the rest counted.
FAKE_CUPTI_NO_CALLBACKS=1 CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/nocb "$driver" 0 >/dev/null 2>&1
f=$(summary_of "$tmp/nocb") || check "not one summary $tmp/nocb.<pid>"
python3 - "$f" <<'PY' || { echo "FAIL: the summary of a libcupti without callbacks"; cat "$f"; fail=1; }
import json, sys
s = json.load(open(sys.argv[1]))
assert "unified-memory migrations not counted" in s["note"], s["note"]
assert s["migrations"]["host_to_device"]["bytes"] == 0 and s["copies"]["host_to_device"]["bytes"] == 128 << 20, s
PY
# Once the counter is configured, the driver's callbacks are turned off: of the three driver
# calls after the context none reaches the library when the counter was configured at the
# context; when CUPTI stays not ready until the second call, the first two do (each a retry),
# the third does not, and the migrations are counted all the same.
migrations_counted() {  # SUMMARY_PREFIX
  local f; f=$(summary_of "$1") || { echo "FAIL: not one summary $1.<pid>"; return 1; }
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['migrations']['host_to_device']['bytes'] == 4 << 20 and s['note'] == '', s" "$f" ||
    { echo "FAIL: migrations not counted in $f"; return 1; }
}
for ready_at in 0 2; do
  delivered=$(( ready_at ))
  FAKE_CUPTI_READY_AT_CALL=$ready_at FAKE_CUPTI_REPORT=$tmp/calls$ready_at ROOFLINE_OFFLOAD_TRACE=1 \
    CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/cb$ready_at "$driver" 0 >"$tmp/out" 2>&1
  want="calls 3 delivered $delivered driver_domain 0 context_callback 0"
  [[ $(cat "$tmp/calls$ready_at" 2>/dev/null) == "$want" ]] ||
    check "ready at driver call $ready_at: '$(cat "$tmp/calls$ready_at" 2>/dev/null)', expected '$want'"
  grep -q "driver callbacks turned off: fake CUPTI error" "$tmp/out" ||
    check "ready at driver call $ready_at: no trace of the callbacks turned off"
  migrations_counted "$tmp/cb$ready_at" || fail=1
done
grep -q "migration counter, configured and enabled at cuLaunchKernel: fake CUPTI error" "$tmp/out" ||
  check "ready at the second driver call: not configured at cuLaunchKernel"
ROOFLINE_CUPTI_LIB=$tmp/none.so CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/no "$driver" 0 >/dev/null 2>&1
f=$(summary_of "$tmp/no") || check "not one summary $tmp/no.<pid>"
grep -q '"note": "ROOFLINE_CUPTI_LIB: ' "$f" 2>/dev/null || { echo "FAIL: no word that libcupti was not found"; fail=1; }
# Two CUDA processes (one run of a copy of itself), and a child forked without exec that
# inherits the library: two summaries, not three.
CUDA_INJECTION64_PATH=$lib ROOFLINE_OFFLOAD_OUT=$tmp/two "$driver" 0 spawn >/dev/null 2>&1
n=$(ls "$tmp"/two.* 2>/dev/null | wc -l)
[[ $n -eq 2 ]] || { echo "FAIL: two CUDA processes (and a forked child) wrote $n summaries, expected 2"; fail=1; }

# 2. measure --engine ncu --offload: the program under CUPTI, then under (a stand-in) ncu.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/ncu" <<NCU
#!/usr/bin/env bash
log=
while [[ \$# -gt 0 ]]; do
  case \$1 in
    --log-file) log=\$2; shift 2 ;;
    --csv) shift ;;
    --print-units|--metrics|--target-processes|--clock-control) shift 2 ;;
    *) break ;;
  esac
done
[[ -z \${CUDA_INJECTION64_PATH:-} ]] || { echo "stand-in ncu: CUPTI library still injected" >&2; exit 9; }
touch "$tmp/ncu-ran"
"\$@"; code=\$?
cp "$fixture" "\$log"
exit \$code
NCU
chmod +x "$tmp/bin/ncu"
export PATH=$tmp/bin:$PATH
"$bin" measure --engine ncu --offload -o "$tmp/p.json" -- "$driver" 0 >"$tmp/out" 2>&1 || check "measure --offload failed"
grep -q "run 1 of 2: the program under CUPTI" "$tmp/out" || check "no word on the run under CUPTI"
grep -q "fake CUDA program ran" "$tmp/out" || check "the program did not run under CUPTI"
grep -q "whole offload: 3 kernel launches and 5 copies in 10.0 ms" "$tmp/out" || check "no whole-offload line"
grep -q "TI .* FLOP per bus byte, a = TI / I(DRAM)" "$tmp/out" || check "no throughput intensity printed"
grep -q "warning" "$tmp/out" && check "warnings where both runs agree"
python3 - "$tmp/p.json" "$fixture" <<'PY' || { echo "FAIL: the whole-offload point"; fail=1; }
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
w = pts["whole offload"]
kernels = [p for n, p in pts.items() if n != "whole offload"]
M = 1 << 20
assert w["source"] == "ncu" and w["details"]["whole_offload"] == 1, w
assert w["flops"] == sum(k["flops"] for k in kernels), (w["flops"], [k["flops"] for k in kernels])
assert w["bytes"]["DRAM"] == sum(k["bytes"]["DRAM"] for k in kernels), w["bytes"]
assert w["bytes"]["PCIe"] == (128 + 32 + 4 + 2) * M, w["bytes"]   # not the 1 MiB between devices
assert abs(w["seconds"] - 0.010) < 1e-12, w["seconds"]
assert w["details"]["kernel_launches"] == 3 and w["details"]["ncu_kernel_launches"] == 3, w["details"]
assert w["details"]["device_to_device_bytes"] == M and w["details"]["wall_seconds"] > 0, w["details"]
PY

# On the GPU's roofline: the bus roof and the coefficient a = TI / I(DRAM).
gpu_machine "$src" "$tmp/gpu-machine.json"
# (stderr apart: the fixture recorded no tensor metric, which the report warns of there)
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/p.json" --gpu 0 --format json >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/err" >>"$tmp/out"; check "report --gpu of the offload failed"; }
python3 - "$tmp/out" <<'PY' || { echo "FAIL: the offload on the GPU's roofline"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
report = json.load(open(sys.argv[1]))  # kernels of several precisions: a section each
sections = [s["report"] for s in report["sections"]] if "sections" in report else [report]
pts = {p["point"]: p for s in sections for p in s["points"]}
w = pts["whole offload"]
t = w["throughput"]
assert t["bus"] == "PCIe" and t["memory_level"] == "DRAM", t
assert abs(t["coefficient"] - t["throughput_intensity"] / t["memory_intensity"]) < 1e-9 * t["coefficient"], t
PY

# The recorded pair: --ncu-csv with --offload-summary gives the same point.
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/s.json" -o "$tmp/r.json" --no-store >"$tmp/out" 2>&1 ||
  check "--ncu-csv with --offload-summary failed"
python3 - "$tmp/p.json" "$tmp/r.json" <<'PY' || { echo "FAIL: the recorded pair differs"; fail=1; }
import json, sys
a, b = ({p["name"]: p for p in json.load(open(f))["points"]}["whole offload"] for f in sys.argv[1:3])
assert a["bytes"] == b["bytes"] and a["flops"] == b["flops"] and a["seconds"] == b["seconds"], (a, b)
PY

# A run of two CUDA processes: their copies and kernels add up.
"$bin" measure --engine ncu --offload --no-store -o "$tmp/two.json" -- "$driver" 0 spawn >"$tmp/out" 2>&1 ||
  check "measure --offload of two CUDA processes failed"
grep -q "whole offload: 6 kernel launches and 10 copies over 2 CUDA processes" "$tmp/out" || check "two processes not added up"
grep -q "the run under CUPTI launched 6 kernels, the one under ncu 3" "$tmp/out" ||
  check "no warning that ncu's run (the fixture's 3 kernels) differs"
python3 - "$tmp/two.json" <<'PY' || { echo "FAIL: the whole offload of two processes"; fail=1; }
import json, sys
w = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}["whole offload"]
assert w["bytes"]["PCIe"] == 2 * (128 + 32 + 4 + 2) * (1 << 20) and w["details"]["cuda_processes"] == 2, w
assert abs(w["seconds"] - 0.010) < 1e-12, w["seconds"]  # the same 10 ms in both: the span is the union
PY

# Runs that did different work are said to; a failing program stops before ncu.
FAKE_CUPTI_KERNELS=5 "$bin" measure --engine ncu --offload --no-store -o "$tmp/five.json" -- "$driver" 0 >"$tmp/out" 2>&1 ||
  check "measure --offload with 5 kernels under CUPTI failed"
grep -q "warning: whole offload: the run under CUPTI launched 5 kernels, the one under ncu 3" "$tmp/out" ||
  check "no warning that the two runs differ"
rm -f "$tmp/ncu-ran"
"$bin" measure --engine ncu --offload --no-store -o "$tmp/f.json" -- "$driver" 4 >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "a program failing under CUPTI: exit $code, expected its 4"
grep -q "failed under CUPTI (exit 4): not run under ncu" "$tmp/out" || check "no word that the program failed under CUPTI"
[[ ! -e $tmp/ncu-ran ]] || check "ncu ran after the program failed under CUPTI"
ROOFLINE_CUPTI_LIB=$tmp/none.so "$bin" measure --engine ncu --offload --no-store -o "$tmp/nc.json" -- "$driver" 0 \
  >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "no libcupti: exit $code, expected 1"
grep -q "no whole-offload point: .*nothing was offloaded to the GPU (ROOFLINE_CUPTI_LIB: " "$tmp/out" ||
  check "no word that CUPTI was missing"
python3 - "$tmp/nc.json" <<'PY' || { echo "FAIL: the kernels were lost with the offload point"; fail=1; }
import json, sys
names = [p["name"] for p in json.load(open(sys.argv[1]))["points"]]
assert len(names) == 2 and "whole offload" not in names, names
PY
"$bin" measure --engine ncu --offload --no-store -- true >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "a program without CUDA: exit $code, expected 1"
grep -q "the CUPTI library wrote no summary: it made no CUDA call" "$tmp/out" || check "no word that no CUDA call was made"

# Misuse: exit 2 and a message.
bad() {  # EXPECTED-MESSAGE ARGS...
  local want=$1; shift
  "$bin" measure "$@" >"$tmp/out" 2>&1; local code=$?
  [[ $code -eq 2 ]] || check "measure $*: exit $code, expected 2"
  grep -q -- "$want" "$tmp/out" || check "measure $*: no '$want'"
}
bad "give the summary that run wrote: --offload-summary FILE" --ncu-csv "$fixture" --offload --no-store
bad "goes with --ncu-csv" --engine ncu --offload-summary "$tmp/s.json" --no-store -- "$driver" 0
bad "are for CUDA programs" --engine time --offload --no-store -- true
ROOFLINE_OFFLOAD_LIB=$tmp/none.so bad "ROOFLINE_OFFLOAD_LIB=$tmp/none.so does not exist" --engine ncu --offload --no-store -- "$driver" 0
echo '{"schema": "roofline.offload/1", "copies": 3}' >"$tmp/bad.json"
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/bad.json" --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "a broken summary: exit $code, expected 1"
grep -q "bad.json: /copies: expected an object" "$tmp/out" || check "no word where the summary is broken"
exit $fail
