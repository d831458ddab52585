#!/usr/bin/env bash
# Outputs and stores at hostile paths (issue 10, second sweep): `-o` writes a
# device or a FIFO in place (never replaces the node with a file), follows a
# symlink and keeps it, never overwrites a results store; `--db` naming a FIFO
# fails at once instead of hanging; another program's SQLite database gets no
# tables of ours; a NUL byte cannot hide the rest of a JSON file. Device nodes
# are private ones (mknod here, root only), never the system's /dev.
# `timeout 20` only catches a hang.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 command"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export ROOFLINE_DB=$tmp/default.db  # never the user's store
machine=$src/tests/data/report-machine.json
fail=0
check() {  # MESSAGE: a failed expectation, with the command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
# run WANT_EXIT ARGS...: runs roofline, output in $tmp/out; a different exit is a failure.
run() {
  local want=$1; shift
  timeout 20 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  [[ $code -eq $want ]] || check "roofline $*: exit $code, expected $want"
  return 0
}
said() {  # REGEX: the last command's output says it
  grep -Eq -- "$1" "$tmp/out" || check "expected /$1/ in the output"
}

# Devices: /dev/full's "no space" is an error, /dev/null takes the text; both stay devices.
if [[ $(id -u) -eq 0 ]] && mknod -m 666 mydevfull c 1 7 && mknod -m 666 mydevnull c 1 3; then
  run 1 show "$machine" -o mydevfull
  said 'cannot write mydevfull: (the device refuses writes \()?No space left on device'  # refused before the run (7a28244)
  [[ -c mydevfull ]] || check "-o mydevfull replaced the device node"
  run 0 show "$machine" -o mydevnull
  [[ -c mydevnull ]] || check "-o mydevnull replaced the device node"
else
  echo "note: device nodes need root; device checks left out"
fi

# A FIFO with no reader: an error at once, not a wait. With a reader: it gets the text.
mkfifo ofifo
run 1 show "$machine" --format json -o ofifo
said 'cannot write ofifo: it is a FIFO and no process is reading it'
[[ -p ofifo ]] || check "-o ofifo replaced the FIFO"
timeout 20 cat ofifo >from-fifo & reader=$!
sleep 0.5
run 0 show "$machine" --format json -o ofifo
wait $reader
grep -q '"schema"' from-fifo || check "the FIFO's reader got no JSON"
[[ -p ofifo ]] || check "-o ofifo (with a reader) replaced the FIFO"

# Symlinks: the target is written, the link kept; a dangling link's target is created.
echo old >target.json
ln -s target.json link.json
run 0 show "$machine" --format json -o link.json
[[ -L link.json ]] || check "-o link.json replaced the symlink"
grep -q '"schema"' target.json || check "-o link.json did not write the link's target"
ln -s new-target.json dangling.json
run 0 show "$machine" --format json -o dangling.json
[[ -L dangling.json && -f new-target.json ]] || check "-o dangling.json did not create the link's target"

# -o never overwrites a results store, whether it is also --db or not.
run 0 measure --engine time -q --db store.db -- true
cp store.db store.copy
run 1 show "$machine" -o store.db
said 'cannot write store\.db: it is an SQLite database \(a results store\)'
cmp -s store.db store.copy || check "show -o store.db changed the store"
timeout 20 "$bin" measure --engine time -q --db store.db -o store.db -- true >"$tmp/out" 2>&1
[[ $? -ne 0 ]] || check "measure --db store.db -o store.db: exit 0"
said 'store\.db'
[[ $(sqlite3 store.db 'SELECT count(*) FROM meta') -ge 1 ]] 2>/dev/null || check "the store is gone after -o store.db"
run 0 list --db store.db

# --db naming a FIFO: refused at once by readers and writers.
mkfifo fifo.db
fifo_said='cannot open results database fifo\.db: not a regular file \(a FIFO\)'
run 1 list --db fifo.db; said "$fifo_said"
run 1 show --db fifo.db; said "$fifo_said"
run 1 measure --engine time -q --db fifo.db -- true; said "$fifo_said"
[[ -p fifo.db ]] || check "--db fifo.db replaced the FIFO"

# Another program's database: refused as by readers, and left as it was.
sqlite3 other.db 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
cp other.db other.copy
run 1 measure --engine time -q --db other.db -- true
said 'results database other\.db is not a roofline results store \(it has no roofline tables\)'
cmp -s other.db other.copy || check "measure --db other.db changed the database"
[[ $(sqlite3 other.db "SELECT group_concat(name) FROM sqlite_master") == t ]] || check "other.db gained tables"
run 1 list --db other.db
said 'is not a roofline results store'

# A NUL byte: nlohmann would stop there and never read the junk behind it.
printf '{"schema":"roofline.points/1","points":[]}\0junk' >nul.json
run 1 report --machine "$machine" --points nul.json
said 'nul\.json: not valid JSON: a NUL byte at line 1, column 43'

# A home directory that does not exist is not created for the default store (third sweep).
(unset ROOFLINE_DB XDG_DATA_HOME; HOME=$tmp/no-such-home timeout 20 "$bin" list >"$tmp/out" 2>&1; echo $? >"$tmp/code")
[[ $(cat "$tmp/code") == 1 ]] || check "list with HOME missing: exit $(cat "$tmp/code"), expected 1"
said 'no-such-home is not a directory: set HOME, or name the store with --db FILE or ROOFLINE_DB'
[[ -e $tmp/no-such-home ]] && check "the missing home directory was created"

[[ $fail -eq 0 ]] && echo "ok: devices, FIFOs, symlinks, stores and foreign databases are handled at their paths"
exit $fail
