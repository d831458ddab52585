#!/usr/bin/env bash
# Installs the Debian packages roofline needs, only those missing.
set -euo pipefail
packages=(build-essential cmake pkg-config libhwloc-dev hwloc nlohmann-json3-dev libcli11-dev
          libfmt-dev libsqlite3-dev sqlite3 libgtest-dev libyaml-cpp-dev likwid jq
          libpq-dev postgresql  # the PostgreSQL results store (libpq), and a server its tests start
          chromium gnuplot-nox valgrind libpfm4-dev libdw-dev python3
          zsh man-db groff-base bsdextrautils  # the man pages' and completions' tests (man -l, groff, col)
          openmpi-bin libopenmpi-dev libopenblas-dev libfftw3-dev
          clang libclang-rt-14-dev  # clang + libclang_rt.fuzzer/asan: make fuzz-smoke
          debootstrap lmod bash-completion)  # packaging tests: a clean Debian 12, module files, completion
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
