#!/bin/bash
# How true `roofline measure` is on everyday programs nobody tuned for us
# (bench/real-programs/): threaded OpenBLAS in marker regions, a driver and the
# library it calls by --region-function (timed call by call, and from call
# stacks when called too often), C++ methods by short name, fftw_execute, and
# an MPI program at 2 ranks. For every point the program reports on itself:
#   FLOPs counted / the algorithm's FLOPs   (1.000 = exact; libraries do a
#                                            little more, FFTW less than nominal)
#   seconds measured / the program's own clock (median of 3 native runs; the
#                                            runs are separate, so host noise shows)
#   % of attainable, and whether report flags it above its roof.
# usage: bench/real-programs.sh [BUILD_DIR] [MACHINE_JSON]
# Cases whose library is not installed (libopenblas-dev, libfftw3-dev,
# openmpi-bin + libopenmpi-dev) are skipped. Without MACHINE_JSON a quick
# bench is run first.
set -euo pipefail
build=$(realpath "${1:-build}")
roofline=$build/roofline
src=$(dirname "$(realpath "$0")")/real-programs
[ -x "$roofline" ] || { echo "no $roofline: build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ROOFLINE_DB=$work/results.db
machine=${2:-}
if [ -z "$machine" ]; then
  echo "no machine model given: running 'roofline bench --quick' first" >&2
  "$roofline" bench --quick -q -o "$work/machine.json" >/dev/null
  machine=$work/machine.json
fi

marker="-I$(dirname "$build")/include -I$build/include -L$build/lib -Wl,-rpath,$build/lib -lroofline_marker"
have_header() { echo "#include <$1>" | gcc -E -x c - >/dev/null 2>&1; }
built=()
if have_header cblas.h && have_header openblas_config.h; then
  # shellcheck disable=SC2086
  gcc -O2 -march=native "$src/blas_regions.c" -I"$(dirname "$build")/include" $marker -lopenblas -o "$work/blas_regions"
  gcc -O2 -march=native "$src/blas_wrapper.c" -lopenblas -o "$work/blas_wrapper"
  built+=(blas)
else
  echo "skipped: OpenBLAS cases (apt-get install libopenblas-dev)" >&2
fi
g++ -O2 -march=native "$src/grid_methods.cpp" -o "$work/grid_methods"
if have_header fftw3.h; then
  gcc -O2 "$src/fft_execute.c" -lfftw3 -lm -o "$work/fft_execute"
  built+=(fftw)
else
  echo "skipped: FFTW case (apt-get install libfftw3-dev)" >&2
fi
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
  mpicc.openmpi -O2 "$src/mpi_update.c" -o "$work/mpi_update"
  built+=(mpi)
else
  echo "skipped: MPI case (apt-get install openmpi-bin libopenmpi-dev)" >&2
fi
has() { [[ " ${built[*]} " == *" $1 "* ]]; }

# case: label | environment | launcher prefix | measure options | program and arguments
cases=()
has blas && cases+=(
  "threaded BLAS in regions|OPENBLAS_NUM_THREADS=2||--region-scope process|blas_regions 300 20"
  "driver of a threaded library, timed calls|OPENBLAS_NUM_THREADS=2||--region-function solve_block --region-function cblas_dgemm|blas_wrapper 200 40"
  "driver called 1e5 times, call stacks|OPENBLAS_NUM_THREADS=1||--region-function solve_block --region-function cblas_dgemm|blas_wrapper 24 100000")
cases+=("C++ methods by short name|X=1||--region-function sweep --region-function Grid2D<double>::norm|grid_methods 1000 200")
has fftw && cases+=("fftw_execute (PLT, tail jump through a pointer)|X=1||--region-function fftw_execute|fft_execute 4096 2000")
has mpi && cases+=("MPI, 2 ranks (Open MPI)|OMPI_ALLOW_RUN_AS_ROOT=1|mpirun.openmpi -np 2 --oversubscribe --allow-run-as-root|--region-function update|mpi_update 1000000 50")

printf '%-48s %-28s %9s %9s %8s  %s\n' case point "FLOP/ref" "s/clock" "attain" "flag"
for c in "${cases[@]}"; do
  IFS='|' read -r label envs launcher opts prog <<<"$c"
  read -r -a progv <<<"$prog"
  progv[0]=$work/${progv[0]}
  read -r -a launch <<<"$launcher"
  read -r -a optv <<<"$opts"
  for k in 1 2 3; do env "$envs" ${launch[@]+"${launch[@]}"} "${progv[@]}" >"$work/own$k.txt"; done
  out=$work/points.json
  rm -f "$out" "$work"/points.rank*.json
  if ! env "$envs" ${launch[@]+"${launch[@]}"} "$roofline" measure -q --no-store --machine "$machine" -o "$out" \
      ${optv[@]+"${optv[@]}"} -- "${progv[@]}" >"$work/measure.txt" 2>&1; then
    echo "$label: roofline measure failed:" >&2; cat "$work/measure.txt" >&2; continue
  fi
  "$roofline" report -q --machine "$machine" --points "$out" --format json >"$work/report.json"
  python3 - "$label" "$out" "$work/report.json" "$work"/own[123].txt <<'PY'
import json, re, statistics, sys
label, points_file, report_file, owns = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
points = {p["name"]: p for p in json.load(open(points_file))["points"]}
report = {a["point"]: a for a in json.load(open(report_file))["points"]}
clock = {}
for own in owns:
    for line in open(own):
        m = re.match(r"check (\S+) flops=(\S+) seconds=(\S+)", line)
        if m: clock.setdefault(m.group(1), []).append((float(m.group(2)), float(m.group(3))))
for name, runs in clock.items():
    key = name if name in points else f"<function {name}>"
    p = points.get(key)
    if p is None:
        print(f"{label:48.48s} {name:28.28s} {'no point':>9s}"); continue
    flops = runs[0][0]
    seconds = statistics.median(r[1] for r in runs)
    a = report.get(key, {})
    flag = "ABOVE ROOF" if a.get("above_roof") else ""
    print(f"{label:48.48s} {name:28.28s} {p['flops'] / flops:9.3f} {p['seconds'] / seconds:9.2f} "
          f"{100 * a.get('efficiency', 0):7.1f}%  {flag}")
PY
done
