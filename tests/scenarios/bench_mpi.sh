#!/usr/bin/env bash
# bench --mpi (issue 14): `mpirun roofline bench --mpi` characterizes each node once and rank 0
# writes the cluster model. Nodes are simulated on this machine by ROOFLINE_NODE_NAME (their
# host name otherwise), and a sick node by capping one node's kernels to SSE2
# (ROOFLINE_MAX_ISA): half the DP peak of the others, which the sick-node report must name.
# SKIPPED (exit 77) without mpirun.
set -u
bin=$1
command -v mpirun >/dev/null || { echo "SKIPPED: mpirun is not installed"; exit 77; }
grep -qw avx2 /proc/cpuinfo || { echo "SKIPPED: the simulated sick node needs a CPU with AVX2 to cap"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ROOFLINE_DB=$tmp/results.db
args=(bench --mpi --only compute --precision dp --threads 1 --time-budget 2 --sick-threshold 30 -o cluster.json)

# Four ranks on three nodes: node-a has two (rank 3 waits), node-c runs SSE2 kernels only.
timeout 300 mpirun -np 1 -x ROOFLINE_NODE_NAME=node-a "$bin" "${args[@]}" : \
  -np 1 -x ROOFLINE_NODE_NAME=node-b "$bin" "${args[@]}" : \
  -np 1 -x ROOFLINE_NODE_NAME=node-c -x ROOFLINE_MAX_ISA=sse2 "$bin" "${args[@]}" : \
  -np 1 -x ROOFLINE_NODE_NAME=node-a "$bin" "${args[@]}" >"$tmp/out" 2>&1 || check "bench --mpi failed"
grep -q "rank 3: node node-a is measured by rank 0; this rank waits" "$tmp/out" || check "rank 3 did not wait"
grep -q "Sick nodes (more than 30% under a roof's median)" "$tmp/out" || check "no sick-node report"
netbench=0; [[ -x $(dirname "$bin")/roofline-netbench ]] && netbench=1
python3 - cluster.json $netbench <<'PY' || { echo "FAIL: the cluster model"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
c = json.load(open(sys.argv[1]))
assert c["schema"] == "roofline.cluster/1"
assert [(n["node"], n["rank"]) for n in c["nodes"]] == [("node-a", 0), ("node-b", 1), ("node-c", 2)], c["nodes"]
assert all(n["machine"]["compute"] for n in c["nodes"]), "a node without its roofs"
dp = next(r for r in c["roofs"] if r["roof"] == "DP peak, 1 thread")
assert set(dp["values"]) == {"node-a", "node-b", "node-c"} and dp["slowest_node"] == "node-c", dp
sick = c["sick_nodes"]
assert sick and all(s["node"] == "node-c" for s in sick), sick
assert any(s["roof"] == "DP peak, 1 thread" and s["shortfall"] > 0.3 for s in sick), sick
# The network between the (simulated) nodes, when the network benchmark was built.
if sys.argv[2] == "1":
    net = c["network"]
    assert net["scope"] == "between nodes" and net["nodes"] == 3, net
    assert net["pingpong"] and all(s["gbs"] > 0 for s in net["pingpong"]), net
    assert any(r["level"] == "network" and r["pattern"] == "pingpong" for r in c["nodes"][0]["machine"]["memory"])
PY
[[ -e cluster.json.nodes ]] && check "the ranks' meeting place was left behind"
"$bin" show cluster.json >"$tmp/out" 2>&1 || check "show of the cluster model failed"
grep -q "node-c .*DP peak, 1 thread" "$tmp/out" || check "show does not name the sick node"
grep -q "^Node node-b (rank 1)" "$tmp/out" || check "show does not list every node's roofs"
"$bin" list >"$tmp/out" 2>&1
[[ $(grep -c "AMD\|Intel\|machine" "$tmp/out") -ge 1 ]] || check "the nodes' models are not in the store"

# Outside an MPI launch: exit 2 with how to launch it.
"$bin" "${args[@]}" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || check "--mpi outside a launch: exit $code, expected 2"
grep -q "mpirun -np N roofline bench --mpi" "$tmp/out" || check "no word on how to launch --mpi"
# A bad option is refused by every rank before any rank waits.
timeout 60 mpirun -np 2 "$bin" bench --mpi --threads 99 -o c2.json --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -ne 0 && $code -ne 124 ]] || check "--mpi with a bad option: exit $code"
[[ -e c2.json ]] && check "--mpi with a bad option wrote a cluster model"
exit $fail
