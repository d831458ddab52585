#!/usr/bin/env bash
# ctest wrapper: installs the build into a temporary prefix and checks the module templates
# against it (module_load.sh; 77 without Lmod). Usage: module_files.sh BUILD_DIR SOURCE_DIR
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$1" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
bash "$2/tests/packaging/module_load.sh" "$tmp/prefix"
