#!/usr/bin/env bash
# Installs the Debian packages roofline needs, only those missing.
#   install-deps.sh run   what building the tool and running it needs (make run): minutes on a
#                         fresh machine
#   install-deps.sh       everything the test suite uses as well (make test): PostgreSQL, MPI,
#                         Chromium, clang, zsh, ... (the default)
set -euo pipefail
what=${1:-all}
# Building roofline (every layer links its library) and running bench, measure and plot.
tool=(build-essential cmake pkg-config libhwloc-dev hwloc nlohmann-json3-dev libcli11-dev
      libfmt-dev libsqlite3-dev libyaml-cpp-dev
      libpq-dev  # the PostgreSQL results store's client library (a server is only for tests)
      valgrind libpfm4-dev libdw-dev  # the instrument and perf engines
      libcapstone-dev  # measure --loops: a function's machine code decoded into its control-flow graph
      binutils  # objdump: measure confirms AVX-512 (EVEX) instructions before running Valgrind
      libopenblas-dev libfftw3-dev)  # reference kernels (OpenBLAS) and the example programs
# What the tests use besides: peers, servers they start, browsers, shells, compilers.
tests=(sqlite3 libgtest-dev likwid jq python3
       postgresql  # a server the PostgreSQL store's tests start
       chromium gnuplot-nox
       zsh man-db groff-base bsdextrautils  # the man pages' and completions' tests (man -l, groff, col)
       openmpi-bin libopenmpi-dev
       clang libclang-rt-14-dev  # clang + libclang_rt.fuzzer/asan: make fuzz-smoke
       debootstrap lmod bash-completion)  # packaging tests: a clean Debian 12, module files, completion
case $what in
  run) packages=("${tool[@]}") ;;
  all) packages=("${tool[@]}" "${tests[@]}") ;;
  *) echo "usage: $0 [run|all]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then exit 0; fi
echo "roofline: installing missing packages: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "roofline: need root to install packages (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
