# Sourced by the scenarios that build a program of their own against the marker library; not a
# scenario itself. marker_scenario BIN: sets bin (absolute), build, src, lib (the marker
# library's folder) and a fresh $tmp (removed at exit) as HOME and the results store's home
# (ROOFLINE_DB), then exits 77 (skipped) without a C compiler or the built marker library.
marker_scenario() {
  bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  build=$(dirname "$bin")
  src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
  lib=$build/lib
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  export HOME=$tmp ROOFLINE_DB=$tmp/results.db
  command -v cc >/dev/null && [[ -e $lib/libroofline_marker.so ]] ||
    { echo "SKIPPED: no C compiler or marker library (target roofline_marker)"; exit 77; }
}
