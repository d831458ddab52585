# Sourced by the scenarios that measure a program of their own with the instrument
# engine; not a scenario itself. instrument_scenario BIN: exits 77 (skipped) without a
# C compiler, valgrind or the built Valgrind tool; then bin (absolute), a fresh $tmp
# (the working directory, removed at exit), out="" and fail MESSAGE (prints $out, exits 1).
instrument_scenario() {
  bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  command -v cc >/dev/null || { echo "SKIPPED: no C compiler"; exit 77; }
  command -v valgrind >/dev/null || { echo "SKIPPED: valgrind is not installed"; exit 77; }
  [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] || { echo "SKIPPED: the Valgrind tool is not built"; exit 77; }
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  cd "$tmp" || exit 1
  out=""
}
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
# After instrument_scenario, for a program built against the marker library: sets lib (its
# folder), exits 77 without it, and makes $tmp the HOME (no user's store or configuration).
marker_library_or_skip() {
  lib=$(dirname "$bin")/lib
  [[ -e $lib/libroofline_marker.so ]] || { echo "SKIPPED: no marker library in $lib"; exit 77; }
  export HOME=$tmp
}
