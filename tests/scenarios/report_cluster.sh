#!/usr/bin/env bash
# report and plot against a cluster model (issue 14): each node's share of an MPI job's region
# ("NAME [node H]") is judged against that node's own roofline, the job's total over all nodes
# against the sum of the nodes' roofs, never one node's roof. Fixtures: three nodes made from
# one machine model, node-c with half its DP peak and DRAM bandwidth (a sick node); a job's
# points as `mpirun roofline measure` names them. SKIPPED (77) without jq.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
machine=$src/tests/data/report-machine.json  # DP peak 128 GFLOP/s and DRAM load 20 GB/s at 2 threads

jq '{schema: "roofline.cluster/1", threshold: 0.1, nodes: [
      {node: "node-a", rank: 0, machine: .}, {node: "node-b", rank: 1, machine: .},
      {node: "node-c", rank: 2, machine: (.compute |= map(.gflops /= 2) | .memory |= map(.gbs /= 2))}]}' \
  "$machine" >"$tmp/cluster.json"
# Each node ran 2 threads at 10 GFLOP/s on 1 FLOP/B from DRAM: 50% of node-a's and node-b's
# DRAM roof (20 GB/s x 1), 100% of node-c's (10 GB/s). The job: 30 GFLOP/s over 50 GB/s of roofs.
point() {  # NAME FLOPS HOSTS RANKS
  jq -n --arg n "$1" --argjson f "$2" --argjson h "$3" --argjson r "$4" \
    '{name: $n, flops: $f, bytes: {L1: $f, DRAM: $f}, seconds: 1, threads: (2 * $r), source: "instrument",
      details: {flops_dp: $f, mpi_hosts: $h, mpi_ranks: $r}}'
}
{
  point "solve [rank 0]" 5e9 1 1; point "solve" 3e10 3 3
  point "solve [node node-a]" 1e10 1 1; point "solve [node node-b]" 1e10 1 1; point "solve [node node-c]" 1e10 1 1
  point "solve [node node-z]" 1e10 1 1; point "partial" 2e10 2 2
} | jq -s '{schema: "roofline.points/1", points: .}' >"$tmp/job.json"

out=$("$bin" report --machine "$tmp/cluster.json" --points "$tmp/job.json" --format json 2>"$tmp/err") || fail "report exited $?"
json=$out
check() { jq -e "$1" <<<"$json" >/dev/null || fail "$2"; }
check '.schema == "roofline.sectioned-report/1"' "schema"
check '[.sections[].name] == ["node node-a", "node node-b", "node node-c", "all 3 nodes"]' "one section per node with points, then the whole"
eff() { echo ".sections[] | select(.name == \"$1\") | .report.points[] | select(.point == \"$2\") | .efficiency"; }
check "$(eff "node node-a" "solve [node node-a]") | . > 0.49 and . < 0.51" "node-a's share: 50% of its own DRAM roof"
check "$(eff "node node-c" "solve [node node-c]") | . > 0.99 and . < 1.01" "node-c's share: 100% of its own (halved) DRAM roof"
check '.sections[] | select(.name == "all 3 nodes") | .report.roofline.compute.value == 320' "the whole: the sum of the nodes' DP peaks (128 + 128 + 64)"
check "$(eff "all 3 nodes" "solve") | . > 0.59 and . < 0.61" "the job: 30 GFLOP/s of 50 GB/s x 1 FLOP/B"
err=$(cat "$tmp/err")
[[ $err == *"node node-z is not in the cluster model"* ]] || fail "a node the model lacks is not named: $err"
[[ $err == *"1 MPI rank share(s)"* ]] || fail "rank shares are not named: $err"
[[ $err == *"partial: the job's total over 2 node(s), the cluster model has 3"* ]] || fail "a partial total is not named: $err"

out=$("$bin" report --machine "$tmp/cluster.json" --points "$tmp/job.json" --format csv 2>/dev/null) || fail "csv"
[[ $(head -1 <<<"$out") == roofline,point,* ]] || fail "the CSV's first column is not the roofline"
[[ $(grep -c '^"\?node node-c"\?,' <<<"$out") == 1 ]] || fail "node-c's row in the CSV"
out=$("$bin" report --machine "$tmp/cluster.json" --points "$tmp/job.json" 2>/dev/null) || fail "text"
[[ $out == *"== node node-c =="* && $out == *"Roofline report: all 3 nodes (the sum of the nodes' roofs)"* ]] || fail "text sections"

out=$("$bin" plot --machine "$tmp/cluster.json" --points "$tmp/job.json" -o "$tmp/c.svg" 2>&1) || fail "plot exited $?"
[[ $out == *"(4 machines, 4 points)"* ]] || fail "plot: three nodes and their sum, four points"
grep -q "node node-c" "$tmp/c.svg" || fail "the chart does not name node-c"

out=$("$bin" plot --machine "$tmp/cluster.json" --machine "$machine" --points "$tmp/job.json" -o "$tmp/d.svg" 2>&1); code=$?
[[ $code == 2 && $out == *"is a cluster model: it is drawn on its own"* ]] || fail "a cluster model beside a machine: exit $code"

# Nothing to judge: an error that says what is needed, not an empty report.
jq '.points |= map(select(.name | test("rank")))' "$tmp/job.json" >"$tmp/ranks.json"
out=$("$bin" report --machine "$tmp/cluster.json" --points "$tmp/ranks.json" 2>&1); code=$?
[[ $code == 1 && $out == *"no point to judge against the cluster model"* ]] || fail "only rank points: exit $code"
out=$("$bin" report --machine "$tmp/cluster.json" --points "$tmp/job.json" --gpu 0 2>&1); code=$?
[[ $code == 2 ]] || fail "--gpu with a cluster model: exit $code"
echo "ok: per-node shares on their nodes' roofs, the job on the sum, the rest named"
