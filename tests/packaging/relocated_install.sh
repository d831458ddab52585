#!/usr/bin/env bash
# An installed tree works on its own, wherever it is moved (issue 15): installs the build into a
# temporary prefix, moves the prefix, hides the build and source trees (a private mount
# namespace with empty directories mounted over them, so a path into either compiled in anywhere
# would fail), then, with the moved prefix only: bench --quick, a program built against the
# installed marker library with pkg-config and another with find_package, measured with the
# instrument and time engines (and perf where this machine has counters), and plot.
# Usage: relocated_install.sh BUILD_DIR SOURCE_DIR
# SKIPPED (77) without the Valgrind tool, valgrind, jq or a C compiler.
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
[[ -e $build/vgtool/roofline-amd64-linux ]] || { echo "SKIPPED: the Valgrind tool is not built"; exit 77; }
for tool in valgrind jq cc pkg-config cmake; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/first" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
mv "$tmp/first" "$tmp/moved"
prefix=$tmp/moved
# What the test builds, copied out before the trees are hidden.
mkdir -p "$tmp/work"
cp "$src/examples/programs/stream_triad.c" "$tmp/work/"
cp -r "$src/tests/marker/consumer" "$tmp/work/consumer"

# The part that must run from the moved prefix alone. No ROOFLINE_* override may help it.
cat >"$tmp/inside.sh" <<'INSIDE'
set -u
prefix=$1 work=$2
fail() { echo "FAIL: $*"; [[ -n ${out:-} ]] && echo "$out"; exit 1; }
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export PATH=$prefix/bin:$PATH PKG_CONFIG_PATH=$prefix/lib/pkgconfig ROOFLINE_DB=$work/results.db OMP_NUM_THREADS=1
cd "$work"
[[ $(command -v roofline) == "$prefix/bin/roofline" ]] || fail "roofline on PATH is $(command -v roofline)"
out=$(roofline --version 2>&1) || fail "roofline --version"

out=$(roofline bench --quick -o machine.json 2>&1) || fail "bench --quick from the moved prefix"
jq -e '(.compute | length) > 0 and (.memory | length) > 0' machine.json >/dev/null || fail "bench wrote no roofs"

# pkg-config: paths relative to the .pc file, so the moved prefix's.
flags=$(pkg-config --cflags --libs roofline) || fail "pkg-config roofline"
[[ $flags == *"$prefix/"* ]] || fail "pkg-config names another prefix: $flags"
# shellcheck disable=SC2086
out=$(cc -O2 stream_triad.c -o triad $flags -Wl,-rpath,"$prefix/lib" 2>&1) || fail "build against the installed marker library (pkg-config)"
out=$(cmake -S consumer -B consumer-build -DCMAKE_PREFIX_PATH="$prefix" 2>&1 && cmake --build consumer-build 2>&1) ||
  fail "find_package(roofline) consumer"

n=2000 it=3
out=$(roofline measure --engine instrument --machine machine.json -o instrument.json -- ./triad $n $it 2>&1) ||
  fail "measure --engine instrument (Valgrind tool from libexec/roofline/vgtool)"
jq -e --argjson f $((2 * n * it)) '.points[] | select(.name == "triad") | .flops == $f and .seconds > 0' instrument.json >/dev/null ||
  fail "instrument engine: region triad should have $((2 * n * it)) FLOPs: $(cat instrument.json)"
out=$(roofline measure --engine time --machine machine.json -o time.json -- ./consumer-build/consumer_cpp 2>&1) ||
  fail "measure --engine time (find_package consumer)"
jq -e '.points[] | select(.name == "consumer_region") | .details.calls == 1' time.json >/dev/null ||
  fail "time engine: region consumer_region missing: $(cat time.json)"
if out=$(roofline measure --engine perf --machine machine.json -o perf.json -- ./triad $n $it 2>&1); then
  jq -e '.points[] | select(.name == "triad") | .flops > 0' perf.json >/dev/null || fail "perf engine: no FLOPs for triad"
  echo "perf engine: measured (event files from share/roofline/events)"
else
  # No counters here: it must have got as far as saying so, not stumbled on its own files.
  [[ $out == *"event files were not found"* ]] && fail "perf engine lost its event files"
  echo "perf engine: not available on this machine ($(echo "$out" | head -1))"
fi

out=$(roofline plot --machine machine.json --points instrument.json -o chart.svg 2>&1) || fail "plot"
grep -q "triad" chart.svg || fail "the chart has no point named triad"
echo "ok: bench, measure (instrument, time) and plot from the moved prefix $prefix"
INSIDE

hidden="$src"
[[ $build == "$src"/* ]] || hidden="$hidden $build"
if unshare --mount true 2>/dev/null; then
  # shellcheck disable=SC2016
  unshare --mount bash -c 'for d in $3; do mount -t tmpfs -o size=1m,ro none "$d" || exit 90; done
                           echo "source and build trees hidden: $3"; bash "$4" "$1" "$2"' \
    _ "$prefix" "$tmp/work" "$hidden" "$tmp/inside.sh"
  code=$?
  [[ $code == 90 ]] && fail "could not hide the source and build trees"
else
  echo "note: no private mount namespace here: the source and build trees stay visible (only the move is tested)"
  bash "$tmp/inside.sh" "$prefix" "$tmp/work"; code=$?
fi
exit $code
