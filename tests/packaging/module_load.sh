#!/usr/bin/env bash
# The module templates of packaging/modules/ against an installed tree (packaging/README.md):
# both are filled in with sed (@PREFIX@, @LIBDIR@, @VERSION@) into a temporary module path,
# then, under Lmod (which reads Lua and Tcl modulefiles), each is loaded in a clean bash:
# roofline is the prefix's, --version runs, pkg-config finds the marker library and a C
# program built with its flags runs, man finds roofline(1) (when the prefix has it) and
# still the system's pages, bash completes roofline (when the prefix has a completion and
# bash-completion is installed); `module unload` takes every entry of the prefix back out.
# Exit 77 (skipped) when Lmod is not installed (Debian: apt-get install lmod).
# Usage: module_load.sh PREFIX        (e.g. after cmake --install build --prefix /tmp/rl)
set -uo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 PREFIX" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
templates=$here/../../packaging/modules
prefix=$(cd "$1" 2>/dev/null && pwd -P) || { echo "FAIL: no directory $1" >&2; exit 1; }
[[ -x $prefix/bin/roofline ]] || { echo "FAIL: $prefix/bin/roofline is missing: not an installed prefix" >&2; exit 1; }

# Lmod's init script: $LMOD_INIT, else the usual places (Debian's has the version in the path).
lmod_init=${LMOD_INIT:-}
if [[ -z $lmod_init ]]; then
  for f in /usr/share/lmod/lmod/init/bash /usr/share/lmod/*/init/bash /opt/apps/lmod/lmod/init/bash; do
    [[ -f $f ]] && { lmod_init=$f; break; }
  done
fi
[[ -n $lmod_init && -f $lmod_init ]] || { echo "SKIPPED: Lmod is not installed (apt-get install lmod, or set LMOD_INIT)"; exit 77; }

version=$("$prefix/bin/roofline" --version) || { echo "FAIL: $prefix/bin/roofline --version failed" >&2; exit 1; }
version=${version#roofline }
[[ $version =~ ^[0-9]+\.[0-9]+ ]] || { echo "FAIL: roofline --version printed '$version'" >&2; exit 1; }
libdir=  # relative, as @LIBDIR@: lib, lib64 or lib/<multiarch>
for pc in "$prefix"/lib/pkgconfig/roofline.pc "$prefix"/lib64/pkgconfig/roofline.pc "$prefix"/lib/*/pkgconfig/roofline.pc; do
  [[ -f $pc ]] && { libdir=${pc#"$prefix"/}; libdir=${libdir%/pkgconfig/roofline.pc}; break; }
done
[[ -n $libdir ]] || { echo "FAIL: no roofline.pc under $prefix/lib*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs in a bash started with a clean environment, with the module path as $1 and the
# module system's init script in $LMOD_INIT_SCRIPT.
# shellcheck disable=SC2016
check='
set -u
fail() { echo "FAIL ($KIND): $*" >&2; exit 1; }
source "$LMOD_INIT_SCRIPT" || fail "cannot source $LMOD_INIT_SCRIPT"
module use "$1"
before_path=$PATH
checked="load, roofline --version"
module load roofline 2>"$TMP/load.err" || fail "module load roofline: $(cat "$TMP/load.err")"
[[ -s $TMP/load.err ]] && fail "module load roofline said: $(cat "$TMP/load.err")"
[[ $(command -v roofline) == "$PREFIX/bin/roofline" ]] || fail "roofline on PATH is \"$(command -v roofline)\", not $PREFIX/bin/roofline"
out=$(roofline --version) || fail "roofline --version failed"
[[ $out == "roofline $VERSION" ]] || fail "roofline --version printed \"$out\""
if command -v pkg-config >/dev/null; then
  [[ $(pkg-config --modversion roofline) == "$VERSION" ]] || fail "pkg-config --modversion roofline: $(pkg-config --modversion roofline 2>&1)"
  checked+=", pkg-config"
  if command -v cc >/dev/null; then  # PKG_CONFIG_PATH to build, LD_LIBRARY_PATH to run
    printf "#include <roofline/roofline.h>\nint main(void){roofline_init();roofline_begin(\"r\");roofline_end(\"r\");roofline_finalize();return 0;}\n" >"$TMP/app.c"
    cc "$TMP/app.c" -o "$TMP/app" $(pkg-config --cflags --libs roofline) || fail "cannot build a program with pkg-config roofline"
    "$TMP/app" >/dev/null || fail "a program linked with pkg-config roofline does not run"
    checked+=", a marker program built and run"
  fi
else echo "note ($KIND): no pkg-config, marker library not checked"; fi
[[ -z ${FPATH+x} ]] || fail "FPATH=$FPATH is set: exported, it replaces the default fpath of every zsh"
[[ :$CMAKE_PREFIX_PATH: == *":$PREFIX:"* ]] || fail "CMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH lacks $PREFIX"
if ! command -v man >/dev/null; then echo "note ($KIND): no man, man pages not checked"
else
  if [[ -f $PREFIX/share/man/man1/roofline.1 || -f $PREFIX/share/man/man1/roofline.1.gz ]]; then
    page=$(man -w roofline 2>&1) || fail "man -w roofline: $page"
    [[ $page == "$PREFIX/share/man/man1/roofline.1"* ]] || fail "man -w roofline is $page"
    checked+=", man roofline"
  else echo "note ($KIND): $PREFIX/share/man/man1/roofline.1 not installed, not checked"; fi
  if [[ -n $SYSTEM_PAGE ]]; then  # MANPATH still ends in the system default
    man -w "$SYSTEM_PAGE" >/dev/null 2>&1 || fail "man -w $SYSTEM_PAGE fails with MANPATH=$MANPATH"
    checked+=", man $SYSTEM_PAGE"
  fi
fi
completion=$PREFIX/share/bash-completion/completions/roofline
if [[ -f $completion && -f /usr/share/bash-completion/bash_completion ]]; then
  source /usr/share/bash-completion/bash_completion
  if declare -F _comp_load >/dev/null; then _comp_load roofline
  elif declare -F __load_completion >/dev/null; then __load_completion roofline; fi
  complete -p roofline >/dev/null 2>&1 || fail "bash-completion does not load $completion (XDG_DATA_DIRS=$XDG_DATA_DIRS)"
  checked+=", bash completion"
else echo "note ($KIND): no $completion or no bash-completion, completion not checked"; fi
module unload roofline || fail "module unload roofline"
for var in PATH MANPATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH LD_LIBRARY_PATH XDG_DATA_DIRS; do
  [[ :${!var:-}: == *":$PREFIX"[:/]* ]] && fail "after unload $var=${!var} still holds $PREFIX"
done
[[ $PATH == "$before_path" ]] || fail "after unload PATH=$PATH, was $before_path"
[[ $(command -v roofline) != "$PREFIX/bin/roofline" ]] || fail "roofline still found after unload"
echo "ok ($KIND): $checked, unload"
'

# A system man page that man finds before the module is loaded (none on images without them).
system_page=
command -v man >/dev/null && for p in man ls bash; do
  env -u MANPATH man -w "$p" >/dev/null 2>&1 && { system_page=$p; break; }
done

status=0
for kind in lua tcl; do
  dir=$tmp/modules-$kind
  mkdir -p "$dir/roofline"
  name=$version; [[ $kind == lua ]] && name=$version.lua  # Lmod: .lua is Lua, anything else Tcl
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@LIBDIR@|$libdir|g" -e "s|@VERSION@|$version|g" \
    "$templates/roofline.$kind" >"$dir/roofline/$name"
  if grep -n '@[A-Z]*@' "$dir/roofline/$name"; then
    echo "FAIL ($kind): placeholders left in the filled-in template" >&2; status=1; continue
  fi
  mkdir -p "$tmp/work-$kind"
  env -i HOME="$tmp" PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
    KIND=$kind PREFIX="$prefix" VERSION="$version" TMP="$tmp/work-$kind" SYSTEM_PAGE="$system_page" \
    LMOD_INIT_SCRIPT="$lmod_init" \
    bash --norc --noprofile -c "$check" check "$dir" || status=1
done
exit $status
