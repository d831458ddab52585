# Sourced by scenarios that need a results store holding machine models of their choosing;
# not a scenario itself. Needs python3.
# store_models BIN DB MODEL...: a fresh store at DB (its tables made by a 'measure' of 'true',
# which stores a point set and no model) holding the MODEL files (JSON), oldest first, each
# under the host and CPU its file names. Returns non-zero when it cannot.
store_models() {
  local bin=$1 db=$2; shift 2
  rm -f "$db"
  "$bin" measure --engine time --db "$db" -q -o "$db.true.json" -- true >/dev/null 2>&1 || return 1
  python3 - "$db" "$@" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for i, path in enumerate(sys.argv[2:]):
    m = json.load(open(path))
    db.execute("INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES (?, ?, ?, ?, 0, ?, ?)",
               (f"2026-11-2{i + 1}T00:00:00Z", m["environment"]["hostname"], m["cpu"]["model"], "quick", m["schema"],
                json.dumps(m)))
db.commit()
PY
}
