#!/usr/bin/env bash
# A results store that cannot be opened is named once, with the reason after it: the writer's
# open wrapped the back end's own message ("cannot open results database g.db: results
# database g.db: preparing a query failed: ..."; a lock named it three times). For a file
# that is no database, a directory, a missing directory, a store another process holds
# locked, and a file the permissions keep from us (as nobody when run as root), a reader
# (list) and a writer (measure) each exit non-zero with one line that names the --db once.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # the commands run in $tmp
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
chmod 755 "$tmp"
export ROOFLINE_DB=$tmp/default.db  # never the user's store
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
# named_once WANT_EXIT DB REGEX CMD...: runs roofline CMD (as given, --db DB among it); the
# error line must match REGEX and name DB exactly once.
named_once() {
  local want=$1 db=$2 regex=$3; shift 3
  timeout 60 "$@" >"$tmp/out" 2>&1; local code=$?
  [[ $code -eq $want ]] || check "$*: exit $code, expected $want"
  local line; line=$(grep '^roofline: error: ' "$tmp/out")
  grep -Eq -- "$regex" <<<"$line" || check "$*: expected /$regex/"
  local n; n=$(grep -oF -- "$db" <<<"$line" | wc -l)
  [[ $n -eq 1 ]] || check "$*: the error names $db $n times, expected once"
}
reader() { named_once 1 "$1" "$2" "$bin" list --db "$1"; }
writer() { named_once 1 "$1" "$2" "$bin" measure --db "$1" -- true; }

echo "not a database" >garbage.db
reader garbage.db 'results database garbage\.db: .*not a roofline results store or is damaged'
writer garbage.db 'cannot open results database garbage\.db: .*not a roofline results store or is damaged'
mkdir dir.db
reader dir.db 'cannot open results database dir\.db: it is a directory'
writer dir.db 'cannot open results database dir\.db: it is a directory'
writer "$tmp/no/such/dir/x.db" "cannot write results database $tmp/no/such/dir/x\\.db: directory $tmp/no/such/dir does not exist"

# A store another process holds locked for writing: the writer gives up after seconds.
"$bin" measure --db store.db -- true >"$tmp/out" 2>&1 || check "measure cannot create store.db"
python3 - store.db "$tmp/locked" <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(15)
c.execute("ROLLBACK")
PY
holder=$!
for _ in $(seq 100); do [[ -e $tmp/locked ]] && break; sleep 0.1; done
writer store.db 'cannot open results database store\.db: it is locked by another process \(still busy after [0-9]+ s\).*\(starting a write failed: database is locked\)'
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null

# A file the permissions keep from us: as nobody when run as root (root reads any file).
as_user=()
if [[ $(id -u) -eq 0 ]]; then
  command -v setpriv >/dev/null && id -u nobody >/dev/null 2>&1 &&
    as_user=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
  # nobody must reach the binary (a build under a private home directory it cannot).
  [[ ${#as_user[@]} -gt 0 ]] && ! "${as_user[@]}" "$bin" --version >/dev/null 2>&1 && as_user=()
fi
if [[ $(id -u) -ne 0 || ${#as_user[@]} -gt 0 ]]; then
  mkdir open && chmod 777 open
  "$bin" measure --db open/unreadable.db -- true >"$tmp/out" 2>&1 || check "measure cannot create unreadable.db"
  cp open/unreadable.db open/readonly.db
  chmod 000 open/unreadable.db
  chmod 444 open/readonly.db
  named_once 1 open/unreadable.db 'cannot open results database open/unreadable\.db: the file is not readable: Permission denied' \
    "${as_user[@]}" "$bin" list --db open/unreadable.db
  named_once 1 open/readonly.db 'cannot write results database open/readonly\.db: the file is not writable: Permission denied' \
    "${as_user[@]}" "$bin" measure --db open/readonly.db -- true
  chmod 644 open/unreadable.db
else
  echo "note: running as root without setpriv or a nobody user: the permission cases left out"
fi
[[ $fail -eq 0 ]] && echo "ok: a damaged file, a directory, a missing directory, a locked store and a file we may not" \
  "read or write are each named once, with the reason after the name"
exit $fail
