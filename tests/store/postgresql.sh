#!/usr/bin/env bash
# The results store on PostgreSQL (issue 14): starts a throwaway server (Debian's
# postgresql) on a unix socket in a temporary directory, no network; runs the
# store's unit tests against it; many roofline processes writing one store at
# once; commands end to end. The server is stopped and its directory removed
# however the script ends. Exit 77 (skipped) when the server programs are absent.
# Usage: postgresql.sh ROOFLINE UNIT_TESTS
set -u
bin=$1
unit_tests=$2

pg_bin=
for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
  [[ -x $dir/initdb && -x $dir/postgres && -x $dir/pg_ctl && -x $dir/pg_isready && -x $dir/psql ]] && pg_bin=$dir
done
[[ -n $pg_bin ]] || { echo "skip: no PostgreSQL server programs under /usr/lib/postgresql (apt-get install postgresql)"; exit 77; }

# The server refuses to run as root: as root it runs as postgres (or nobody).
server_user=
if [[ $(id -u) -eq 0 ]]; then
  for candidate in postgres nobody; do
    id -u "$candidate" >/dev/null 2>&1 && { server_user=$candidate; break; }
  done
  [[ -n $server_user ]] || { echo "skip: running as root and no 'postgres' user to run the server as"; exit 77; }
fi
as_server() {  # COMMAND...: run as the server's user
  if [[ -z $server_user ]]; then "$@"
  elif command -v runuser >/dev/null; then runuser -u "$server_user" -- "$@"
  else su "$server_user" -s /bin/sh -c "$(printf '%q ' "$@")"
  fi
}

# Under /tmp, short: a unix socket's path has a limit of about 100 bytes.
tmp=$(mktemp -d /tmp/roofline-pg.XXXXXX) || exit 1
data=$tmp/data
server_pid=
cleanup() {
  if [[ -f $data/postmaster.pid ]]; then
    as_server "$pg_bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1
  fi
  [[ -n $server_pid ]] && wait "$server_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
[[ -n $server_user ]] && chown "$server_user" "$tmp"
chmod 755 "$tmp"

fail=0
check() {  # MESSAGE [FILE]: a failed expectation, with the output that shows it
  echo "FAIL: $1"
  [[ -n ${2:-} && -f $2 ]] && sed 's/^/  | /' "$2" | tail -40
  fail=1
}

as_server "$pg_bin/initdb" -D "$data" -U roofline -A trust -E UTF8 --locale=C --no-sync >"$tmp/initdb.log" 2>&1 \
  || { check "initdb failed" "$tmp/initdb.log"; exit 1; }
# A child of this script (pg_ctl would detach it): whatever kills the test kills the server.
# listen_addresses empty: the unix socket in $tmp only; durability is not what is tested here.
as_server "$pg_bin/postgres" -D "$data" -k "$tmp" -c listen_addresses= -c fsync=off -c synchronous_commit=off \
  -c full_page_writes=off -c max_connections=100 >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  "$pg_bin/pg_isready" -q -h "$tmp" -U roofline -d postgres && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
"$pg_bin/pg_isready" -q -h "$tmp" -U roofline -d postgres || { check "the server did not start" "$tmp/server.log"; exit 1; }

psql_in() {  # DATABASE SQL: one value, no decoration
  "$pg_bin/psql" -X -q -h "$tmp" -U roofline -d "$1" -At -c "$2"
}
psql_in postgres "CREATE DATABASE roofline_units" >/dev/null && psql_in postgres "CREATE DATABASE roofline_cli" >/dev/null \
  || { echo "FAIL: cannot create the test databases"; exit 1; }
url_units="postgresql://roofline@/roofline_units?host=$tmp"
url="postgresql://roofline@/roofline_cli?host=$tmp"
echo "server: $("$pg_bin/postgres" --version), socket in $tmp"

# 1. The store's unit tests against the server: every case that every back end must pass,
# and the PostgreSQL ones. None may be skipped: the URL is set.
ROOFLINE_TEST_PG_URL=$url_units "$unit_tests" --gtest_filter='*/PostgreSQL:ResultsStorePostgres*:StoreLocation.*' \
  >"$tmp/units.log" 2>&1 || check "unit tests failed against PostgreSQL" "$tmp/units.log"
ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\? from.*ran.*/\1/p' "$tmp/units.log")
grep -q '^\[  SKIPPED \]' "$tmp/units.log" && check "unit tests were skipped although the server is up" "$tmp/units.log"
[[ ${ran:-0} -ge 30 ]] || check "only ${ran:-0} unit tests ran against PostgreSQL" "$tmp/units.log"
echo "unit tests against PostgreSQL: ${ran:-0} ran"

# 2. A reader of a new database: nothing stored yet, and nothing created.
"$bin" list --db "$url" >"$tmp/out" 2>&1 || check "list on an empty database failed" "$tmp/out"
grep -qF "no results store at $url yet" "$tmp/out" || check "list did not say the store is empty" "$tmp/out"
[[ $(psql_in roofline_cli "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0 ]] \
  || check "a reader created tables"

# 3. Many writers at once: processes of roofline, each storing several point sets into the
# same new store (the first ones race to create its tables).
writers=12 per_writer=8
pids=()
for w in $(seq 1 $writers); do
  (
    for i in $(seq 1 $per_writer); do
      "$bin" measure --engine time -q --db "$url" -- /bin/true >/dev/null 2>"$tmp/writer-$w.err" || exit 1
    done
  ) &
  pids+=($!)
done
failed_writers=0
for pid in "${pids[@]}"; do wait "$pid" || failed_writers=$((failed_writers + 1)); done
cat "$tmp"/writer-*.err >"$tmp/writers.err"
((failed_writers == 0)) || check "$failed_writers of $writers concurrent writers failed" "$tmp/writers.err"
expected=$((writers * per_writer))
counts=$(psql_in roofline_cli "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || sum(point_count) FROM point_sets")
[[ $counts == "$expected $expected $expected" ]] \
  || check "after $writers writers x $per_writer: rows, distinct ids, points = '$counts', expected $expected each"
"$bin" list --db "$url" --format json >"$tmp/list.json" 2>"$tmp/out" || check "list after the writers failed" "$tmp/out"
listed=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["point_sets"]), len({s["id"] for s in d["point_sets"]}))' "$tmp/list.json" 2>/dev/null)
[[ $listed == "$expected $expected" ]] || check "list shows '$listed' point sets (and distinct ids), expected $expected" "$tmp/list.json"
echo "concurrent writers: $writers processes x $per_writer runs, $counts (rows, ids, points)"

# 4. End to end: a kernel measured into the store, found again from it (the measurement
# cache), shown from it; a password in the URL is neither printed nor recorded.
secret_url="$url&password=topsecret"
"$bin" kernels daxpy --sizes 16K --samples 1 --db "$secret_url" >"$tmp/kernels-1.out" 2>&1 \
  || check "kernels into PostgreSQL failed" "$tmp/kernels-1.out"
id=$(sed -n 's/.*stored as point set #\([0-9]*\) in .*/\1/p' "$tmp/kernels-1.out")
[[ -n $id ]] || check "kernels did not say where it stored the points" "$tmp/kernels-1.out"
grep -qF "stored as point set #$id in $url" "$tmp/kernels-1.out" \
  || check "the store was not named by its URL without the password" "$tmp/kernels-1.out"
"$bin" kernels daxpy --sizes 16K --samples 1 --db "$secret_url" >"$tmp/kernels-2.out" 2>&1 \
  || check "kernels again failed" "$tmp/kernels-2.out"
grep -q "taken from the results store" "$tmp/kernels-2.out" \
  || check "the second run did not take its point from the store" "$tmp/kernels-2.out"
"$bin" show --points "stored:${id:-0}" --db "$url" --format json >"$tmp/show.json" 2>"$tmp/out" \
  || check "show from PostgreSQL failed" "$tmp/out"
grep -q '"name": "daxpy 16 KiB"' "$tmp/show.json" || check "show did not give the stored point" "$tmp/show.json"
grep -q '"command"' "$tmp/show.json" || check "the stored point set has no provenance" "$tmp/show.json"
grep -l "topsecret" "$tmp"/kernels-*.out "$tmp/show.json" && check "a password was printed"
[[ $(psql_in roofline_cli "SELECT count(*) FROM point_sets WHERE json LIKE '%topsecret%'") == 0 ]] \
  || check "a password was recorded in the store"

# 4b. roofline remove on PostgreSQL: the kernels set and its cache entries go; an unknown id
# removes nothing; the URL is said without its password.
"$bin" remove --points "${id:-0}" 999999 --db "$secret_url" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "remove with an unknown id: exit $code, expected 1" "$tmp/out"
grep -qF "the results store $url holds no point set #999999" "$tmp/out" || check "remove: the unknown id not said" "$tmp/out"
"$bin" remove --points "stored:${id:-0}" --dry-run --db "$secret_url" >"$tmp/out" 2>&1 \
  || check "remove --dry-run on PostgreSQL failed" "$tmp/out"
grep -q "^would remove point set #${id:-0} (roofline kernels daxpy" "$tmp/out" || check "remove --dry-run did not say it" "$tmp/out"
[[ $(psql_in roofline_cli "SELECT count(*) FROM point_sets WHERE id = ${id:-0}") == 1 ]] || check "--dry-run removed the set"
"$bin" remove --points "${id:-0}" --db "$secret_url" >"$tmp/out" 2>&1 || check "remove on PostgreSQL failed" "$tmp/out"
grep -q "^removed point set #${id:-0} (roofline kernels daxpy" "$tmp/out" || check "remove did not say what it removed" "$tmp/out"
grep -q topsecret "$tmp/out" && check "remove printed the password" "$tmp/out"
[[ $(psql_in roofline_cli "SELECT count(*) FROM point_sets WHERE id = ${id:-0}") == 0 ]] || check "remove left the set"
[[ $(psql_in roofline_cli "SELECT count(*) FROM measurement_cache WHERE point_set_id = ${id:-0}") == 0 ]] \
  || check "remove left the set's cache entries"

# 5. A server that is down: a clear error and exit 1 at once, no password, no hang.
down="postgresql://roofline:topsecret@127.0.0.1:9/roofline_cli"
start=$SECONDS
"$bin" list --db "$down" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "list on a server that is down: exit $code, expected 1" "$tmp/out"
grep -qF "cannot connect to results database postgresql://roofline@127.0.0.1:9/roofline_cli: " "$tmp/out" \
  || check "the server that is down was not named" "$tmp/out"
grep -q topsecret "$tmp/out" && check "the password was printed" "$tmp/out"
"$bin" measure --engine time -q --db "$down" -- /bin/true >"$tmp/out" 2>&1; code=$?
[[ $code -ne 0 ]] || check "measure into a server that is down exited 0" "$tmp/out"
((SECONDS - start < 20)) || check "failing on a server that is down took $((SECONDS - start)) s"

if ((fail)); then echo "server log:"; tail -20 "$tmp/server.log" | sed 's/^/  | /'; exit 1; fi
echo "ok: the results store works on PostgreSQL"
