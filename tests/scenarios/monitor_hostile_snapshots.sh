#!/usr/bin/env bash
# Issue 33: the snapshot directory is writable by the jobs, and `monitor` runs as root on a
# node: nothing a job puts there may make the monitor read or print a file the job cannot.
# A symbolic link and a hard link to a private file are not opened; a file that is not JSON
# is reported by position, never by its contents; a snapshot named after a live process but
# owned by another user is skipped. No secret reaches the output.
set -u
bin=$1
tmp=$(mktemp -d)
sleeper=""
trap '[[ -n $sleeper ]] && kill $sleeper 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
mkdir "$tmp/snap"
cat >"$tmp/counts.json" <<'JSON'
{"schema":"roofline.points/1","points":[{"name":"step","flops":2000,"bytes":{"L1":8000},"seconds":0.001,
 "threads":1,"source":"instrument","details":{"calls":1}}]}
JSON
echo '"TOPSECRET-link' >"$tmp/secret"
chmod 600 "$tmp/secret"
ln -s "$tmp/secret" "$tmp/snap/2000001.json"
ln "$tmp/secret" "$tmp/snap/2000002.json"
echo 'TOPSECRET-garbage {' >"$tmp/snap/2000003.json"
# A live process of ours, and a snapshot in its name owned by someone else.
sleep 30 & sleeper=$!
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
  printf '{"schema":"roofline.monitor/1","pid":%d,"job":"x","start_ns":1,"time_ns":2,"regions":[]}\n' $sleeper \
    >"$tmp/snap/$sleeper.json"
  chown nobody "$tmp/snap/$sleeper.json"
fi
out=$(ROOFLINE_DB=$tmp/r.db "$bin" monitor --job x --counts "$tmp/counts.json" --dir "$tmp/snap" --once --interval 0.2 2>&1)
grep -q TOPSECRET <<<"$out" && check "a secret reached the output"
grep -q "2000001.json: a symbolic link (not followed)" <<<"$out" || check "the symbolic link is not named as such"
grep -q "2000002.json: a file with other names" <<<"$out" || check "the hard link is not refused"
grep -q "2000003.json: not JSON (at byte" <<<"$out" || check "the garbage file is not reported by position"
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
  grep -q "$sleeper.json: owned by uid $(id -u nobody), not by the user of process $sleeper" <<<"$out" ||
    check "a snapshot owned by another user than its process's is not skipped"
fi
[[ $fail -eq 0 ]] && echo "ok: links not followed, contents never echoed, foreign-owned snapshots skipped"
exit $fail
