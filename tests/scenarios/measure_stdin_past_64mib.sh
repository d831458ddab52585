#!/usr/bin/env bash
# A piped standard input longer than 64 MiB. Before: it was kept up to 64 MiB only, so the first
# (warm-up) run read all of it and the timed runs and the counting run its first 64 MiB (the audit's
# 100 MB: 2 x 2^26 FLOPs counted, not 2e8), with a warning that blamed the counts. Now the whole input
# is kept in a temporary file and every run reads all of it. Cheap: the time engine with --repeat
# (which replays the pipe as the instrument engine does), a reader that only counts bytes.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
avail=$(df -Pk "${TMPDIR:-/tmp}" | awk 'NR==2 {print $4}')
[[ -n $avail && $avail -gt 400000 ]] || { echo "SKIP: under 400 MB free in ${TMPDIR:-/tmp}"; exit 77; }
size=$(( (64 << 20) + 12345 ))
seen=$tmp/seen
head -c "$size" /dev/zero | "$bin" measure --engine time --repeat 2 --no-store -- sh -c "wc -c >> '$seen'" \
  >"$tmp/out" 2>&1 || { echo "FAIL: exit $?"; sed 's/^/  | /' "$tmp/out"; exit 1; }
fail=0
runs=$(wc -l <"$seen")
[[ $runs -ge 3 ]] || { echo "FAIL: $runs runs, expected a warm-up and 2 timed"; fail=1; }
while read -r n; do
  [[ $n == "$size" ]] || { echo "FAIL: a run read $n bytes of $size"; fail=1; }
done <"$seen"
grep -q "standard input is a pipe: its $size bytes were kept" "$tmp/out" ||
  { echo "FAIL: the kept input is not said"; fail=1; }
grep -q "warning: standard input" "$tmp/out" && { echo "FAIL: a warning about the input"; fail=1; }
(( fail )) && { sed 's/^/  | /' "$tmp/out"; cat "$seen"; }
[[ $fail == 0 ]] && echo "ok: a $size-byte pipe: all $runs runs read all of it"
exit $fail
