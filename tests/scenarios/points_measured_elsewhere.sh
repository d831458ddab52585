#!/usr/bin/env bash
# Points measured on one machine judged on another's roofs: report (text, Markdown, JSON, CSV),
# plot and compare say once where the points were measured and whose roofs judge them (JSON: a
# field a script reads), and still judge them (comparing machines is a use). Before, nothing said
# it. Points measured on the model's own host and CPU, or a set without provenance, get no word.
set -u
bin=$1
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$src/tests/scenarios/lib/model_store.sh"
export ROOFLINE_DB=$tmp/results.db
out=""
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
machine=$src/tests/data/advice-machine-zen4.json  # measured on host 'vm', CPU 'AMD EPYC'
# The same points with the provenance of another machine, and of this model's own.
python3 - "$src/tests/data/report-points.json" "$tmp" <<'PY' || fail "cannot write the point sets"
import json, sys
p = json.load(open(sys.argv[1]))
for name, host, cpu in (("there", "node7", "Intel(R) Xeon(R) Platinum 8480+"), ("here", "vm", "AMD EPYC")):
    p["provenance"] = {"command": ["./app"], "cwd": "/tmp", "date": "2026-11-29T12:00:00Z", "host": host, "cpu": cpu,
                       "runs": ["native"], "engine": "perf", "options": {}, "tool_version": "0.1.0"}
    json.dump(p, open(f"{sys.argv[2]}/{name}.json", "w"))
PY
said="the points were measured on node7 \(Intel\(R\) Xeon\(R\) Platinum 8480\+\) and are judged on the roofs of vm \(AMD EPYC\)"

out=$("$bin" report --machine "$machine" --points "$tmp/there.json" 2>&1) || fail "report failed"
[[ $(grep -cE "$said" <<<"$out") == 1 ]] || fail "report (text): not said once where the points were measured"
grep -qE "^Measured elsewhere: " <<<"$out" || fail "report (text): not under the title"
grep -q "Efficiency" <<<"$out" || fail "report (text): the points were not judged"
out=$("$bin" report --machine "$machine" --points "$tmp/there.json" --format markdown 2>&1) || fail "report (markdown) failed"
grep -qE "^> \*\*Measured elsewhere\*\*: $said" <<<"$out" || fail "report (markdown): not said"
out=$("$bin" report --machine "$machine" --points "$tmp/there.json" --format json 2>"$tmp/err") || fail "report (json) failed"
printf '%s' "$out" >"$tmp/r.json"
python3 - "$tmp/r.json" <<'PY' || fail "report (json): measured_elsewhere"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["measured_elsewhere"]
assert e == [{"set": "there.json", "host": "node7", "cpu": "Intel(R) Xeon(R) Platinum 8480+", "machine_host": "vm",
              "machine_cpu": "AMD EPYC"}], e
assert "judged on the roofs of vm" in d["measured_elsewhere_note"]
assert d["points"], "not judged"
PY
out=$("$bin" report --machine "$machine" --points "$tmp/there.json" --format csv 2>&1 >/dev/null) || fail "report (csv) failed"
grep -qE "warning: $said" <<<"$out" || fail "report (csv): not said on stderr"
# Two sets, one measured elsewhere: that one is named.
out=$("$bin" report --machine "$machine" --points "$tmp/here.json" --points "$tmp/there.json" 2>&1) || fail "report (two sets) failed"
grep -qE "the points of there\.json were measured on node7" <<<"$out" || fail "report (two sets): the set not named"
grep -qE "(of|those of) here\.json" <<<"$out" && fail "report (two sets): the set measured on the model's host named"

# No word for points of the model's own machine, nor for a set without provenance.
for points in "$tmp/here.json" "$src/tests/data/report-points.json"; do
  out=$("$bin" report --machine "$machine" --points "$points" 2>&1) || fail "report ($points) failed"
  grep -qi "measured elsewhere\|measured on" <<<"$out" && fail "report ($points): said although measured there or unknown"
  out=$("$bin" report --machine "$machine" --points "$points" --format json 2>/dev/null) || fail "report json ($points) failed"
  python3 -c 'import json,sys; assert json.load(sys.stdin)["measured_elsewhere"] == []' <<<"$out" ||
    fail "report (json, $points): measured_elsewhere not empty"
done

out=$("$bin" plot --machine "$machine" --points "$tmp/there.json" -o "$tmp/c.svg" 2>&1) || fail "plot failed"
[[ $(grep -cE "warning: $said" <<<"$out") == 1 ]] || fail "plot: not said once"

out=$("$bin" compare --points "$tmp/here.json" --points "$tmp/there.json" --machine "$machine" 2>&1) || fail "compare failed"
grep -qE "^Measured elsewhere: B: $said" <<<"$out" || fail "compare (text): B's points not said"
grep -qE "Measured elsewhere: A" <<<"$out" && fail "compare (text): A's points were measured on the model's host"
out=$("$bin" compare --points "$tmp/here.json" --points "$tmp/there.json" --machine "$machine" --format json 2>/dev/null) ||
  fail "compare (json) failed"
printf '%s' "$out" >"$tmp/c.json"
python3 - "$tmp/c.json" <<'PY' || fail "compare (json): measured_elsewhere"
import json, sys
e = json.load(open(sys.argv[1]))["measured_elsewhere"]
assert [(x["side"], x["set"].endswith("there.json"), x["host"], x["machine_host"]) for x in e] == [("B", True, "node7", "vm")], e
assert "judged on the roofs of vm" in e[0]["note"], e
PY
# report and plot without --machine, on a store machines share: the latest model of the points'
# host (node7's, older), not the newest (vm's), said; the points then judged where measured.
db=$tmp/report.db
python3 - "$machine" "$tmp/node7-model.json" <<'PY' || fail "cannot write node7's model"
import json, sys
m = json.load(open(sys.argv[1]))
m["environment"]["hostname"], m["cpu"]["model"] = "node7", "Intel(R) Xeon(R) Platinum 8480+"
json.dump(m, open(sys.argv[2], "w"))
PY
store_models "$bin" "$db" "$tmp/node7-model.json" "$machine" || fail "cannot fill the store"
for cmd in "report --points $tmp/there.json" "plot --points $tmp/there.json -o $tmp/shared.svg"; do
  out=$("$bin" $cmd --db "$db" 2>&1) || fail "$cmd (shared store) failed"
  grep -q "using stored machine #[0-9]*, the points' host's (node7) latest complete model; the store also holds newer models of other hosts (#[0-9]* (vm))" <<<"$out" ||
    fail "$cmd (shared store): the points' host's model not chosen and said"
  grep -qE "$said" <<<"$out" && fail "$cmd (shared store): judged on another host's roofs"
done
out=$("$bin" report --points "$tmp/here.json" --db "$db" 2>&1) || fail "report (vm's points, shared store) failed"
grep -q "using stored machine" <<<"$out" && fail "report: the newest model is the points' host's, yet another was said"

# measure: this machine's points on a model of another host (--machine, or a store machines share).
build=$(cd "$(dirname "$bin")" && pwd)
if command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]]; then
  python3 - "$machine" "$tmp/node9.json" <<'PY' || fail "cannot write the other host's model"
import json, sys
m = json.load(open(sys.argv[1])); m["environment"]["hostname"] = "node9"; json.dump(m, open(sys.argv[2], "w"))
PY
  out=$("$bin" measure --no-store --machine "$tmp/node9.json" --engine instrument --repeat 1 -- true 2>&1) ||
    fail "measure failed"
  [[ $(grep -cE "warning: the points were measured on .* and are judged on the roofs of node9 \(AMD EPYC\)" <<<"$out") == 1 ]] ||
    fail "measure: not said once that the model is another host's"
  # A model of this very host and CPU (topology's words, as bench writes them): no word.
  "$bin" topology --json >"$tmp/topology.json" 2>/dev/null || fail "topology failed"
  python3 - "$machine" "$tmp/topology.json" "$tmp/here-model.json" <<'PY' || fail "cannot write this host's model"
import json, sys
m = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
m["environment"]["hostname"] = t["environment"]["hostname"]; m["cpu"]["model"] = t["cpu"]["model"]
json.dump(m, open(sys.argv[3], "w"))
PY
  out=$("$bin" measure --no-store --machine "$tmp/here-model.json" --engine instrument --repeat 1 -- true 2>&1) ||
    fail "measure (this host's model) failed"
  grep -q "judged on the roofs of" <<<"$out" && fail "measure: said although the model is this host's"
  # A store machines share: this host's model, then a newer one of node9. measure takes this
  # host's (said, with node9's passed over), not the newest; with node9's only, it warns.
  db=$tmp/shared.db
  store_models "$bin" "$db" "$tmp/here-model.json" "$tmp/node9.json" || fail "cannot fill the shared store"
  ids=$(python3 -c 'import sqlite3,sys; print(" ".join(str(r[0]) for r in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM machines ORDER BY id")))' "$db")
  read -r mine theirs <<<"$ids"
  out=$("$bin" measure --no-store --db "$db" --engine instrument --repeat 1 -- true 2>&1) || fail "measure (shared store) failed"
  grep -q "using stored machine #$mine, this host's (.*) latest complete model; the store also holds newer models of other hosts (#$theirs (node9))" <<<"$out" ||
    fail "measure (shared store): this host's model not chosen and said"
  grep -q "judged on the roofs of node9" <<<"$out" && fail "measure (shared store): judged on node9's model"
  python3 -c 'import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute("DELETE FROM machines WHERE id=?", (int(sys.argv[2]),)); d.commit()' "$db" "$mine"
  out=$("$bin" measure --no-store --db "$db" --engine instrument --repeat 1 -- true 2>&1) || fail "measure (node9's only) failed"
  [[ $(grep -cE "warning: the points were measured on .* and are judged on the roofs of node9" <<<"$out") == 1 ]] ||
    fail "measure (store of node9's model only): not warned"
else
  echo "measure part skipped: valgrind or the Valgrind tool missing"
fi
echo "ok"
