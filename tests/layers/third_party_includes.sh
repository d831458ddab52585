#!/usr/bin/env bash
# Third-party headers live in system include directories, where the layers'
# include roots cannot hide them: this test keeps each library in the layer
# docs/ARCHITECTURE.md gives it (CLI11 in cli/, SQLite, libpq and yaml-cpp in io/,
# hwloc in topo/, libpfm4, libdw and Capstone in measure/, OpenBLAS and FFTW in bench/;
# nlohmann-json nowhere below io/ but in render/).
set -euo pipefail
src="$(cd "$(dirname "$0")/../../src" && pwd)"
failed=0
check() {  # header-pattern allowed-layer...
    local pattern=$1; shift
    local allowed=("$@")
    while IFS= read -r hit; do
        local file=${hit%%:*}
        local layer=${file#"$src"/}; layer=${layer%%/*}
        local ok=0
        for a in "${allowed[@]}"; do [[ $layer == "$a" ]] && ok=1; done
        if [[ $ok -eq 0 ]]; then
            echo "layer '$layer' includes $pattern (allowed only in: ${allowed[*]}): ${hit#"$src"/}"
            failed=1
        fi
    done < <(grep -rnE "^#include <$pattern" "$src" --include='*.cpp' --include='*.hpp' --include='*.inl' || true)
}
check 'CLI/' cli
check 'sqlite3\.h' io
check 'libpq-fe\.h' io
check 'yaml-cpp/' io
check 'hwloc' topo
check 'perfmon/' measure
check 'capstone/' measure
check '(elfutils/|dwarf\.h|libdw)' measure
check '(cblas\.h|openblas|lapacke?\.h)' bench
check '(fftw3\.h)' bench
# io/'s public headers hand nlohmann-json's values to the layers above it.
check 'nlohmann/' io measure render app cli
if [[ $failed -ne 0 ]]; then exit 1; fi
echo "third-party headers stay in their layers"
