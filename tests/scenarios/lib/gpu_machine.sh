# Sourced by the scenarios that judge CUDA points; not a scenario itself.
# gpu_machine SRC OUT: writes OUT, the example CPU model of tests/data with the example H100's
# measured roofs (gpubench-example.json) as its GPU 0.
gpu_machine() {
  python3 - "$1/tests/data" "$2" <<'PY'
import json, sys
data, out = sys.argv[1], sys.argv[2]
m = json.load(open(f"{data}/report-machine.json"))
m["gpus"] = [json.load(open(f"{data}/gpubench-example.json"))["gpu"]]
json.dump(m, open(out, "w"))
PY
}
