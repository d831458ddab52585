#!/usr/bin/env bash
# measure with TMPDIR on a full disk. The marker library's regions and the Valgrind tool's counts
# are written to a temporary directory there, and neither says so when the disk is full: the
# regions vanished with a note blaming the program ("does not load libroofline_marker"), the
# counts were blamed on an exec ("it replaced itself with another program") or failed as
# invalid JSON, and Valgrind's gdbserver left files in TMPDIR. Now a disk full from the start is
# refused before any run, one that fills during the runs is named in the warning or error, and
# nothing is left in TMPDIR. Needs root for a small tmpfs (else skipped).
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
[[ $(id -u) -eq 0 ]] || { echo "SKIPPED: mounting a tmpfs needs root"; exit 77; }
mnt=$tmp/mnt
mkdir -p "$mnt"
mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null || { echo "SKIPPED: cannot mount a tmpfs here"; exit 77; }
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
cc -O1 "$src/tests/marker/fills_temp_dir.c" -I "$src/include" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -o "$tmp/fills" || { echo "FAIL: cannot compile the test program"; exit 1; }
fail=0
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/out"; fail=1; }
# Nothing of roofline's (its directory, Valgrind's vgdb files) may stay in TMPDIR.
only_filler() {
  local left
  left=$(ls -A "$mnt" | grep -v '^filler$')
  [[ -z $left ]] || { echo "FAIL: $1: left in TMPDIR: $left"; fail=1; }
}
# run ENGINE [ENV...]: measure the program with TMPDIR on the tmpfs; $code and $tmp/out.
run() {
  local engine=$1; shift
  rm -f "$mnt/filler"
  env TMPDIR="$mnt" "$@" "$bin" measure --engine "$engine" --repeat 1 -o "$tmp/p.json" -- "$tmp/fills" \
    >"$tmp/out" 2>&1
  code=$?
}
have_valgrind=0
command -v valgrind >/dev/null && have_valgrind=1

# A disk with room: the region is measured (and counted), so the checks below are not over-eager.
run time
[[ $code == 0 ]] && jq -e '.points[] | select(.name == "work") | .seconds > 0' "$tmp/p.json" >/dev/null ||
  bad "time engine with room: exit $code, region 'work' expected"
only_filler "time engine with room"
if ((have_valgrind)); then
  run instrument
  flops=$(jq -r '.points[] | select(.name == "work") | .flops' "$tmp/p.json" 2>/dev/null)
  [[ $code == 0 && $flops == 40000000 ]] || bad "instrument engine with room: exit $code, 'work' FLOPs '$flops' (4e7)"
  only_filler "instrument engine with room"
fi

# Full from the start: refused before any run, naming the directory and TMPDIR.
dd if=/dev/zero of="$mnt/filler" bs=64k >/dev/null 2>&1
for engine in time instrument; do
  rm -f "$tmp/p.json"
  env TMPDIR="$mnt" "$bin" measure --engine "$engine" --repeat 1 -o "$tmp/p.json" -- "$tmp/fills" >"$tmp/out" 2>&1
  code=$?
  [[ $code == 1 ]] && grep -q "temporary directory $mnt (TMPDIR, else /tmp) is on a file system with [0-9]* bytes free" \
    "$tmp/out" || bad "$engine, disk full from the start: exit $code, expected 1 and the full directory named"
  grep -q "^5e+12" "$tmp/out" && bad "$engine, disk full from the start: the program ran"
  [[ -e $tmp/p.json ]] && bad "$engine, disk full from the start: points written"
  only_filler "$engine, disk full from the start"
done

# The disk fills during the run, before the marker library writes at exit: the whole program's
# point is kept and the lost regions are blamed on the disk, not on the program.
run time FILL_PATH="$mnt/filler"
[[ $code == 0 ]] || bad "time engine, disk filled by the run: exit $code, expected 0 (the whole program's time)"
grep -q "warning: no marker regions could be read.*bytes free after the run.*TMPDIR" "$tmp/out" ||
  bad "time engine, disk filled by the run: the lost regions are not put down to the full disk"
grep -q "does not load libroofline_marker" "$tmp/out" && bad "time engine: the program blamed for the full disk"
jq -e '[.points[].name] == ["(program)"]' "$tmp/p.json" >/dev/null || bad "time engine: expected the whole program only"
only_filler "time engine, disk filled by the run"

if ((have_valgrind)); then
  # No room at all for the counts: not an exec, a full disk.
  run instrument FILL_PATH="$mnt/filler"
  [[ $code == 1 ]] && grep -q "error: the Valgrind tool wrote no counts.*bytes free after the run" "$tmp/out" ||
    bad "instrument engine, no room for the counts: exit $code, expected 1 and the full disk named"
  grep -q "replaced itself" "$tmp/out" && bad "instrument engine: a full disk blamed on an exec"
  only_filler "instrument engine, no room for the counts"
  # Room for the regions, not for all the counts: cut short, said so.
  run instrument FILL_PATH="$mnt/filler" FILL_LEAVE=32768
  [[ $code == 1 ]] && grep -q "error: the Valgrind tool's counts are cut short (.*bytes free after the run" "$tmp/out" ||
    bad "instrument engine, counts cut short: exit $code, expected 1 and the full disk named"
  only_filler "instrument engine, counts cut short"
else
  echo "note: no valgrind: the instrument engine's cases were not run"
fi
exit $fail
