#!/usr/bin/env bash
# The build gives each layer an include root that shows only the layers it may
# use (docs/ARCHITECTURE.md): an upward include must fail to compile, a
# permitted one must compile. Usage: forbidden_include_fails.sh BUILD_DIR CXX
set -euo pipefail
build=$1 cxx=$2
roots=$build/layers
[[ -d $roots/core && -d $roots/io ]] || { echo "no layer include roots under $roots"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
compiles() {  # layer (its roots and those it may use) header
    local -a flags=()
    for layer in $1; do flags+=(-I "$roots/$layer"); done
    printf '#include "%s"\n' "$2" > "$tmp/probe.cpp"
    "$cxx" -std=c++20 -fsyntax-only "${flags[@]}" "$tmp/probe.cpp" 2> "$tmp/err"
}
failed=0
expect() {  # yes|no "layers" header
    if compiles "$2" "$3"; then got=yes; else got=no; fi
    if [[ $got != "$1" ]]; then
        echo "with the roots of [$2], #include \"$3\" compiled: $got (expected $1)"; cat "$tmp/err"; failed=1
    fi
}
expect yes "core" core/roofline.hpp
expect no "core" io/points_json.hpp
expect yes "io core" io/points_json.hpp
expect no "render core" bench/thread_team.hpp
expect no "bench core topo" render/report.hpp
expect yes "bench core topo" bench/thread_team.hpp
expect no "measure core topo" cli/commands.hpp
expect yes "app bench measure io topo core" app/kernel_sweep.hpp
expect no "app bench measure io topo core" render/report.hpp
expect no "measure io topo core" app/kernel_sweep.hpp
expect no "app bench measure io topo core" cli/commands.hpp
exit $failed
