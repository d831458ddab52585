#!/usr/bin/env bash
# Issue 31: every kind of machine model the tool writes is read back by show, report and plot
# (exit 0, or a clear refusal with a non-zero exit: never a parse error such as "unknown
# level"), a model of an earlier version with "custom" working sets included. Commands that
# judge points take the latest complete stored model when they choose one themselves, say
# which when they skip a newer incomplete one, and `list` marks the incomplete ones.
# Every bench run is short: 1 thread, DP, the load pattern, a 64 MB DRAM set (every ISA: a run kept
# to one, --isa, makes a restricted model, not a complete one).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A home of its own: nothing here may read or write the user's store or configuration.
export HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share XDG_CONFIG_HOME=$tmp/home/.config
export ROOFLINE_SYSTEM_CONFIG=$tmp/no-system-config.yaml
unset ROOFLINE_DB
mkdir -p "$HOME"
db=$tmp/r.db
points=$src/tests/data/report-points.json
out=""
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
short=(--threads 1 --precision dp --pattern load --dram-size 64MB --time-budget 2 --svg "" --db "$db")
started=$SECONDS

# ---------------------------------------------------------------- each kind of model, stored in order
bench() {
  local name=$1; shift
  out=$("$bin" bench "$@" -o "$tmp/$name.json" "${short[@]}" 2>&1) || fail "bench $* exited $?"
  [[ -s $tmp/$name.json ]] || fail "bench $* wrote no model"
}
bench quick --quick                                  # #1: complete
bench memory --only memory                           # #2: memory-only
bench compute --only compute                         # #3: compute-only
bench working_set --only memory --working-set 16kB,64MB  # #4: memory-only, explicit sizes
jq -e '[.memory[].level] | all(. != "custom")' "$tmp/working_set.json" >/dev/null ||
  fail "explicit working sets are written as 'custom', not named by their level: $(jq -c '[.memory[].level]' "$tmp/working_set.json")"

# #5: interrupted. Ctrl-C once the run has begun a burst (or after 10 s): what was measured is kept.
"$bin" bench --quick -o "$tmp/interrupted.json" --threads 1 --precision dp --pattern load \
  --dram-size 64MB --time-budget 30 --svg "" --db "$db" >"$tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "burst 1" "$tmp/int.out" 2>/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid
code=$?
out=$(cat "$tmp/int.out")
[[ $code == 130 ]] || fail "interrupted bench exited $code, not 130"
have_interrupted=0
if [[ -s $tmp/interrupted.json ]]; then
  have_interrupted=1
  jq -e '.partial == true' "$tmp/interrupted.json" >/dev/null || fail "the interrupted model is not marked partial"
else
  echo "note: interrupted before anything was measured: no partial model to read back"
fi

# Models of earlier versions: --working-set roofs at level "custom", in a complete model and as
# the only memory roofs (what 'bench --working-set 1GB' wrote: its show failed with "unknown level").
jq '.memory |= map(if .level == "L3" then .level = "custom" else . end)' "$tmp/quick.json" >"$tmp/custom_some.json"
jq '.memory |= map(.level = "custom")' "$tmp/quick.json" >"$tmp/custom_all.json"
jq -e '[.memory[] | select(.level == "custom")] | length >= 1' "$tmp/custom_some.json" >/dev/null ||
  fail "the quick model has no L3 roof to make custom"
cp "$src/examples/machines/opteron_x4.yaml" "$tmp/spec.yaml"

# ---------------------------------------------------------------- each read by show, report, plot
# Exit 0, or a refusal that says what is missing (exit 1) — never a parse error of the file.
read_back() {
  local file=$1 what=$2 code
  shift 2
  out=$("$bin" "$@" 2>&1)
  code=$?
  if grep -Eq "unknown level|\.json: /|\.yaml:[0-9]+:[0-9]+:" <<<"$out"; then
    fail "$what of $(basename "$file"): the tool could not read its own file"
  fi
  [[ $code == 0 || $code == 1 ]] || fail "$what of $(basename "$file"): exit $code"
  if [[ $code == 1 ]]; then
    grep -q "error: " <<<"$out" || fail "$what of $(basename "$file"): exit 1 without an error message"
  fi
  echo "  $what $(basename "$file"): exit $code${out:+: $(grep -m1 -E 'error:|note:' <<<"$out" | cut -c1-150)}"
}
models=(quick memory compute working_set custom_some custom_all)
[[ $have_interrupted == 1 ]] && models+=(interrupted)
for name in "${models[@]}" spec; do
  file=$tmp/$name.json
  [[ $name == spec ]] && file=$tmp/spec.yaml
  out=$("$bin" show "$file" 2>&1) || fail "show $(basename "$file") exited $?"
  if [[ $name != spec ]]; then
    "$bin" show "$file" --format json >"$tmp/again.json" 2>"$tmp/err" || { out=$(cat "$tmp/err"); fail "show --format json of $name"; }
    out=$("$bin" show "$tmp/again.json" 2>&1) || fail "show of show --format json of $name exited $?"
  fi
  read_back "$file" report report --machine "$file" --points "$points"
  read_back "$file" plot plot --machine "$file" --points "$points" -o "$tmp/$name.svg"
done

# What each says of itself and of "custom".
out=$("$bin" show "$tmp/custom_all.json" 2>&1)
grep -q "Level 'custom': a working set chosen with 'bench --working-set'" <<<"$out" || fail "show does not explain 'custom'"
grep -q "^Machine: .*(compute-only: no bandwidth roof of a memory level)" <<<"$out" ||
  fail "show does not say a model of custom working sets only lacks a memory level's roof"
out=$("$bin" show "$tmp/memory.json" 2>&1)
grep -q "^Machine: .*(memory-only: no compute roof)" <<<"$out" || fail "show does not mark a memory-only model"
# A custom roof is no level's roof: the report's roofs are the other levels'.
out=$("$bin" report --machine "$tmp/custom_some.json" --points "$points" 2>&1) || fail "report on custom_some exited $?"
grep "^Roofs:" <<<"$out" | grep -q "custom" && fail "a custom working set became a roof"
grep "^Roofs:" <<<"$out" | grep -q "DRAM" || fail "the DRAM roof is missing"
out=$("$bin" report --machine "$tmp/custom_all.json" --points "$points" 2>&1) || fail "report on custom_all exited $?"
grep -q "not judged: the machine model has no bandwidth roof of a memory level" <<<"$out" ||
  fail "report does not say why the points of a model without memory levels have no verdict"

# ---------------------------------------------------------------- the store: list and the default choice
out=$("$bin" list --db "$db" --format json 2>&1) || fail "list exited $?"
contents=$(jq -r '[.machines[:4][].contents] | join(",")' <<<"$out")
[[ $contents == "complete,memory-only,compute-only,memory-only" ]] || fail "list --format json contents: '$contents'"
if [[ $have_interrupted == 1 ]]; then  # what else it lacks depends on when the signal came
  jq -e '.machines[4] | .partial and (.complete | not) and (.contents | endswith("interrupted"))' <<<"$out" >/dev/null ||
    fail "list does not mark the interrupted model"
fi
out=$("$bin" list --db "$db" 2>&1) || fail "list exited $?"
grep -Eq "^ +2 .*no \(memory-only\)$" <<<"$out" || fail "list does not mark #2 memory-only"
grep -Eq "^ +3 .*no \(compute-only\)$" <<<"$out" || fail "list does not mark #3 compute-only"
grep -Eq "^ +1 .* yes$" <<<"$out" || fail "list does not call #1 complete"

newest=$([[ $have_interrupted == 1 ]] && echo 5 || echo 4)
skipped_note="using stored machine #1, the latest complete model; skipped the newer #$newest "
out=$("$bin" report --db "$db" --points "$points" 2>&1) || fail "report with the stored machine exited $?"
grep -qF "$skipped_note" <<<"$out" || fail "report does not say it skipped the newer incomplete models"
grep -q "#2 (memory-only)" <<<"$out" || fail "report's note does not name the memory-only model it skipped"
grep -q "^Roofs: DP peak .*DRAM" <<<"$out" || fail "report did not judge against the complete model"
out=$("$bin" plot --db "$db" --points "$points" -o "$tmp/stored.svg" 2>&1) || fail "plot with the stored machine exited $?"
grep -qF "$skipped_note" <<<"$out" || fail "plot does not say it skipped the newer incomplete models"
out=$("$bin" measure --engine time --db "$db" --no-store -o "$tmp/true.json" -- true 2>&1) || fail "measure exited $?"
grep -qF "$skipped_note" <<<"$out" || fail "measure does not say which stored model it judges against"
out=$("$bin" model "$src/examples/kernels/dot.yaml" --db "$db" 2>&1) || fail "model exited $?"
grep -qF "$skipped_note" <<<"$out" || fail "model does not say which stored model it used"
# -q: the choice is the same, the note is not printed.
out=$("$bin" report -q --db "$db" --points "$points" 2>&1) || fail "report -q exited $?"
grep -q "note:" <<<"$out" && fail "report -q printed a note"

# An incomplete model named explicitly is used as given, with what it lacks.
out=$("$bin" report --db "$db" --machine stored:2 --points "$points" 2>&1)
code=$?
[[ $code == 1 ]] || fail "report against a memory-only model exited $code, not 1"
grep -q "note: stored machine #2 is incomplete (memory-only): no compute roof" <<<"$out" || fail "no note of what #2 lacks"
grep -q "error: stored machine #2: this model has only memory roofs" <<<"$out" || fail "no clear refusal for #2"
out=$("$bin" report --db "$db" --machine stored:3 --points "$points" 2>&1) || fail "report against #3 exited $?"
grep -q "note: stored machine #3 is incomplete (compute-only)" <<<"$out" || fail "no note of what #3 lacks"
out=$("$bin" report --machine "$tmp/memory.json" --points "$points" 2>&1)
grep -q "note: the machine model .*memory.json is incomplete (memory-only)" <<<"$out" || fail "no note of what a memory-only file lacks"

# A store of incomplete models only: the latest, and a note that no complete one is stored.
if command -v sqlite3 >/dev/null; then
  cp "$db" "$tmp/incomplete.db"
  sqlite3 "$tmp/incomplete.db" "DELETE FROM machines WHERE id = 1"
  out=$("$bin" report --db "$tmp/incomplete.db" --machine stored --points "$points" 2>&1)
  grep -q "no complete model is stored: run 'roofline bench' without --only" <<<"$out" ||
    fail "no note that the store holds no complete model"
fi

echo "ok: every model read back; incomplete models skipped and marked ($((SECONDS - started)) s)"
