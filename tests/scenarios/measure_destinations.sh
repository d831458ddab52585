#!/usr/bin/env bash
# roofline measure checks where its results go before the program runs
# (issue 10): a missing or invalid --machine, a --db in a missing directory or
# not a database, an -o in a missing directory fail fast and the program does
# not run. A destination that fails after the run (a full disk) does not stop
# the others, and the points are kept in a file named on stderr.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
mnt=$tmp/full
cleanup() { mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
export ROOFLINE_DB=$tmp/default.db
ran=$tmp/ran
prog=(sh -c "touch '$ran'")

check_refused() {  # expected message regex, then roofline's arguments
  local want=$1; shift
  rm -f "$ran"
  out=$("$bin" measure --engine time "$@" -- "${prog[@]}" 2>&1); code=$?
  [[ $code != 0 ]] || fail "$*: exit 0"
  [[ ! -e $ran ]] || fail "$*: the program ran before the error"
  grep -Eq "$want" <<<"$out" || fail "$*: no message matching '$want'"
}
check_refused "typo\.json" --machine "$tmp/typo.json" --no-store
echo '{"schema": "roofline.machine/1", "broken' >"$tmp/bad-machine.json"
check_refused "bad-machine\.json" --machine "$tmp/bad-machine.json" --no-store
check_refused "nodir" --db "$tmp/nodir/r.db"
head -c 4096 /dev/urandom >"$tmp/corrupt.db"
check_refused "corrupt\.db" --db "$tmp/corrupt.db"
check_refused "nodir" -o "$tmp/nodir/p.json" --no-store
echo "ok: a bad --machine, --db or -o stops measure before the program runs"

# A disk that fills up while the program runs (-o checked fine before it): the store is still
# written, the failure said, the points kept in the working directory, exit 1.
mkdir -p "$mnt" "$tmp/cwd"
if ! mount -t tmpfs -o size=256k tmpfs "$mnt" 2>/dev/null; then
  echo "skip (full disk): cannot mount a small tmpfs here (needs root)"; exit 0
fi
fill=(sh -c "dd if=/dev/zero of='$mnt/fill' bs=4k 2>/dev/null; :")
out=$(cd "$tmp/cwd" && "$bin" measure --engine time -o "$mnt/p.json" --db "$tmp/r.db" -- "${fill[@]}" 2>&1); code=$?
[[ $code == 1 ]] || fail "exit $code with -o on a full disk, expected 1"
grep -q "could not be written to $mnt/p.json" <<<"$out" || fail "the -o failure is not said"
grep -q "stored as point set #1" <<<"$out" || fail "the store was not written after -o failed"
[[ $(sqlite3 "$tmp/r.db" 'select count(*) from point_sets') == 1 ]] || fail "no row in the store"
kept=$(ls "$tmp/cwd"/roofline-points-*.json 2>/dev/null | head -1)
[[ -n $kept ]] || fail "no roofline-points-PID.json in the working directory"
grep -q "kept in .*/$(basename "$kept") instead" <<<"$out" || fail "where the points were kept is not said"
jq -e '.points | map(.name) | index("(program)")' "$kept" >/dev/null || fail "the kept file has no points"
echo "ok: -o on a disk full by then: the store still written, the points kept in $(basename "$kept"), exit 1"

# The store on that disk too: both fail after the run; the points are still kept.
rm -f "$mnt/fill" "$tmp/cwd"/roofline-points-*.json
out=$(cd "$tmp/cwd" && "$bin" measure --engine time -o "$mnt/p.json" --db "$mnt/r.db" -- "${fill[@]}" 2>&1); code=$?
[[ $code == 1 ]] || fail "exit $code with every destination on a full disk, expected 1"
grep -q "could not be stored" <<<"$out" || fail "the store's failure is not said"
grep -q "could not be written to $mnt/p.json" <<<"$out" || fail "the -o failure is not said"
ls "$tmp/cwd"/roofline-points-*.json >/dev/null 2>&1 || fail "the points were not kept"
echo "ok: every destination full: each failure said, the points kept, exit 1"
