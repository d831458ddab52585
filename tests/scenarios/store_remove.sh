#!/usr/bin/env bash
# roofline remove deletes stored rows: a machine (its point sets stay, no longer naming it) and
# a point set (its measurement-cache entries go with it), each said as it goes; an unknown id
# removes nothing (exit 1); --dry-run says what would go and changes nothing; a missing store
# is said and not created. The rows are checked with sqlite3, not with roofline's own reading.
set -u
bin=$1
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 command"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp/home; mkdir -p "$HOME"
db=$tmp/s.db
fail=0
bad() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
run() {  # EXPECTED_EXIT ARGS...: roofline ARGS, stdout and stderr in $tmp/out
  local want=$1; shift
  timeout 300 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  [[ $code == "$want" ]] || bad "roofline $*: exit $code, want $want"
}
said() { grep -qE -- "$1" "$tmp/out" || bad "not said: /$1/"; }
rows() { sqlite3 "$db" "SELECT (SELECT count(*) FROM machines) || ' ' || (SELECT count(*) FROM point_sets) || ' ' || (SELECT count(*) FROM measurement_cache)"; }

# Two machines, a measured run judged on the second, a kernel sweep with cache entries.
for _ in 1 2; do
  run 0 bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' --db "$db"
done
run 0 measure --engine time -q --db "$db" -- /bin/true
run 0 kernels daxpy --sizes 16K --samples 1 -q --db "$db"
[[ $(sqlite3 "$db" "SELECT machine_id FROM point_sets WHERE id = 1") == 2 ]] || bad "set 1 does not name machine 2"
before=$(rows)
[[ $before =~ ^2\ 2\ [1-9] ]] || bad "the store holds '$before' (machines, sets, cache entries)"
host=$(sqlite3 "$db" "SELECT hostname FROM machines WHERE id = 2")
created=$(sqlite3 "$db" "SELECT created FROM machines WHERE id = 2")

# An unknown id among known ones: named, with the store and 'roofline list'; nothing removed.
run 1 remove --machine 2 --points 2 9 --db "$db"
said "^roofline: error: the results store .*/s\.db holds no point set #9 \('roofline list --db .*/s\.db' shows what it holds\); nothing was removed$"
[[ $(rows) == "$before" ]] || bad "an unknown id removed rows: $(rows), was $before"
run 1 remove --machine 7 8 --db "$db"
said "holds no machines #7, #8 "

# A dry run: what would go, nothing gone.
run 0 remove --machine 2 --points 2 --dry-run --db "$db"
said "^would remove machine #2 \(host $host, .*, $created\)$"
said "^would remove point set #2 \(roofline kernels daxpy .*, 1 point, .*Z\)$"
said "^would remove [0-9]+ measurement-cache entr"
said "^would keep point set #1: it keeps its points, no longer naming a stored machine$"
said "a dry run: nothing was removed"
[[ $(rows) == "$before" ]] || bad "--dry-run removed rows: $(rows), was $before"

# --format json: the same rows, as a script reads them; the dry run's note stays on stderr.
timeout 300 "$bin" remove --machine 2 --points 2 --dry-run --format json --db "$db" >"$tmp/json" 2>"$tmp/out" \
  || bad "remove --dry-run --format json failed"
python3 - "$tmp/json" "$host" "$created" <<'PY' || { bad "remove --format json"; sed 's/^/  | /' "$tmp/json"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "roofline.remove/1", d
assert d["dry_run"] is True and d["removed"] is False, d
assert d["store"].endswith("/s.db"), d["store"]
assert [(m["id"], m["hostname"], m["created"]) for m in d["machines"]] == [(2, sys.argv[2], sys.argv[3])], d["machines"]
assert [(s["id"], s["points"]) for s in d["point_sets"]] == [(2, 1)], d["point_sets"]
assert d["point_sets"][0]["source"].startswith("roofline kernels daxpy"), d["point_sets"]
assert d["cache_entries"] >= 1 and d["unlinked_point_sets"] == [1], d
PY
said "a dry run: nothing was removed"
[[ $(rows) == "$before" ]] || bad "--dry-run --format json removed rows: $(rows), was $before"
run 2 remove --machine 2 --format csv --db "$db"
# A zero id is refused as given ('0', not 'stored:0').
run 2 remove --machine 0 --db "$db"
said "^roofline: error: --machine: ids in the store start at 1 \(got '0'\)"
run 2 remove --points stored:00 --db "$db"
said "got 'stored:00'"

# The removal: stored:ID and plain ids alike.
run 0 remove --machine stored:2 --points 2 --db "$db"
said "^removed machine #2 \(host $host, .*, $created\)$"
said "^removed point set #2 \(roofline kernels daxpy"
said "^kept point set #1: it keeps its points, no longer naming a stored machine$"
[[ $(rows) == "1 1 0" ]] || bad "after the removal the store holds '$(rows)', want '1 1 0'"
[[ $(sqlite3 "$db" "SELECT coalesce(machine_id, 'null') FROM point_sets WHERE id = 1") == null ]] \
  || bad "set 1 still names a machine"
run 0 list --db "$db" --format json
python3 - "$tmp/out" <<'PY' || bad "list after the removal"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
assert [m["id"] for m in d["machines"]] == [1], d["machines"]
assert [s["id"] for s in d["point_sets"]] == [1], d["point_sets"]
PY
run 1 show stored:2 --db "$db"
# A removed id, the newest, is never given again: the next machine and set are #3, so
# 'stored:2' keeps meaning the removed ones (an error), not the newcomers.
run 0 bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' --db "$db"
run 0 measure --engine time -q --machine stored:3 --db "$db" -- /bin/true
[[ $(sqlite3 "$db" "SELECT group_concat(id) FROM machines") == 1,3 ]] \
  || bad "machine ids after a new bench: $(sqlite3 "$db" "SELECT group_concat(id) FROM machines"), want 1,3"
[[ $(sqlite3 "$db" "SELECT group_concat(id) FROM point_sets") == 1,3 ]] \
  || bad "point set ids after a new measure: $(sqlite3 "$db" "SELECT group_concat(id) FROM point_sets"), want 1,3"
run 1 show stored:2 --db "$db"
run 0 remove --machine 3 --points 3 -q --db "$db"
[[ $(rows) == "1 1 0" ]] || bad "after removing #3 the store holds '$(rows)', want '1 1 0'"
# An error is said on stderr, as text, with --format json too; stdout stays empty.
timeout 300 "$bin" remove --points 2 --format json --db "$db" >"$tmp/json" 2>"$tmp/out"
[[ $? == 1 ]] || bad "remove of a removed set with --format json: not exit 1"
said "holds no point set #2"
[[ -s $tmp/json ]] && bad "an error wrote to stdout with --format json"
# Removed once: a second time it is unknown.
run 1 remove --points 2 --db "$db"
said "holds no point set #2"

# A missing store is said, and not created.
run 1 remove --machine 1 --db "$tmp/none.db"
said "no results store at .*/none\.db: nothing to remove"
[[ -e $tmp/none.db ]] && bad "remove created a store"

[[ $fail -eq 0 ]] && echo "ok: remove takes a machine (its sets stay) and a set (its cache entries go), refuses unknown ids whole, --dry-run changes nothing"
exit $fail
