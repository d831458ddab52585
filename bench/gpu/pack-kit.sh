#!/usr/bin/env bash
# Packs what bench/gpu/device-check.sh needs on a GPU machine that has CUDA but none of our
# Debian packages, into KIT/kit.tar.xz (KIT default .gpu-kit, ignored by git): build/roofline with the shared
# libraries it loads (not glibc, and not libstdc++/libgcc_s: the CUDA programs and ncu that
# roofline starts inherit its library path, and the GPU machine's own C++ runtime is as new or
# newer), roofline-gpubench and roofline-offload.so as built here (nvcc, CUPTI headers). Run from
# the project's root after `make build` on a machine with nvcc (ROOFLINE_BIN=FILE packs another
# build of roofline). The CUDA test programs and the
# gpubench source travel with the working tree and are compiled there when needed.
set -euo pipefail
root=$(git rev-parse --show-toplevel); cd "$root"
kit=${1:-.gpu-kit}
for f in build/roofline build/roofline-gpubench build/roofline-offload.so; do
  [[ -e $f ]] || { echo "pack-kit: $f missing: build with nvcc on PATH first (make build)" >&2; exit 1; }
done
grep -qx "/${kit#./}/" .git/info/exclude 2>/dev/null || echo "/${kit#./}/" >> .git/info/exclude
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
cp "${ROOFLINE_BIN:-build/roofline}" build/roofline-gpubench build/roofline-offload.so "$stage/bin/"
ldd build/roofline | awk '$3 ~ /^\// {print $3}' \
  | grep -vE '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so|ld-linux' \
  | while read -r lib; do cp -L "$lib" "$stage/lib/"; done
# Compressed: the libraries alone (OpenBLAS) are near the 64 MiB a device call can carry.
rm -rf "$kit"; mkdir -p "$kit"
tar -cJf "$kit/kit.tar.xz" -C "$stage" bin lib
du -sh "$kit"
