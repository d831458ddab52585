#!/usr/bin/env bash
# roofline measure and a region's time (issue 33): a region's seconds are the wall time it
# was open (threads that run it one after the other add up; before, the longest thread's
# time was divided into all threads' work: twice the true rate for two threads in turn);
# regions recorded before the program execs another are kept (before, they were lost and
# the note said the program "does not use the roofline marker library"), and so are the
# regions of an exec'd image that loads the library; the notes say what the library did:
# not loaded, or loaded with no region. Needs a C compiler and the marker library, else 77.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$(dirname "$bin")" && pwd)
lib=$build/lib
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
out=
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
command -v cc >/dev/null && [[ -e $lib/libroofline_marker.so ]] ||
  { echo "skip: no C compiler or marker library (target roofline_marker)"; exit 77; }
cc -O1 "$src/tests/marker/wall_exec.c" -I "$src/include" -I "$src/tests/marker" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -lpthread -o "$tmp/wall_exec" || fail "cannot compile the test program"
printf 'int main(void){return 0;}\n' >"$tmp/plain.c"
cc "$tmp/plain.c" -o "$tmp/plain" || fail "cannot compile the plain program"
printf '#include <roofline/roofline.h>\nint main(void){roofline_init();return 0;}\n' >"$tmp/unmarked.c"
cc "$tmp/unmarked.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" -o "$tmp/unmarked" ||
  fail "cannot compile the unmarked program"

points() { python3 -c 'import json,sys; print(json.dumps({p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}))' "$1"; }

# Two threads in turn, 40 ms each: the region was open 80 ms, by one thread at a time (it said 2
# threads: judged on two threads' roofs). Two at once: 40 ms, 2 threads.
out=$("$bin" measure --engine time -o "$tmp/seq.json" -- "$tmp/wall_exec" sequential 2>&1) || fail "measure sequential"
python3 - "$tmp/seq.json" <<'PY' || fail "region seconds of threads in turn"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
seq, both = pts["seq"], pts["overlap"]
assert seq["threads"] == 1 and 0.078 <= seq["seconds"] < 0.5, seq
assert both["threads"] == 2 and 0.039 <= both["seconds"] < 0.075, both
PY
echo "ok: threads in turn add up and count as one, threads at once count once"

# An exec of itself: the regions of both images; of a program without the library: the first's.
out=$("$bin" measure --engine time -o "$tmp/exec.json" -- "$tmp/wall_exec" exec "$tmp/wall_exec" again 2>&1) ||
  fail "measure exec"
grep -q "marker regions from 2 program images" <<<"$out" || fail "the two images are not said"
grep -q "region 'open' was still open when the program ended" <<<"$out" || fail "the region open at the exec is not said"
grep -q "does not use the roofline marker library" <<<"$out" && fail "the old, false note"
python3 - "$tmp/exec.json" <<'PY' || fail "regions of both images"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
assert pts["before"]["seconds"] >= 0.019 and pts["after"]["seconds"] >= 0.009, pts
assert "open" in pts, pts
PY
out=$("$bin" measure --engine time -o "$tmp/true.json" -- "$tmp/wall_exec" exec "$tmp/plain" 2>&1) ||
  fail "measure exec of a plain program"
python3 - "$tmp/true.json" <<'PY' || fail "regions before an exec of a program without the library"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
assert pts["before"]["seconds"] >= 0.019 and "after" not in pts, pts
PY
echo "ok: regions before an exec kept, and the exec'd image's"

# What the notes say: the library not there, or there with no region.
out=$("$bin" measure --engine time --no-store -- "$tmp/plain" 2>&1) || fail "measure plain"
grep -q "the roofline marker library wrote nothing" <<<"$out" || fail "plain program: note"
out=$("$bin" measure --engine time --no-store -- "$tmp/unmarked" 2>&1) || fail "measure unmarked"
grep -q "the roofline marker library was loaded but no region was opened" <<<"$out" || fail "library without regions: note"
echo "ok: notes say whether the library was loaded"
