#!/usr/bin/env bash
# Man pages and the bash completion (roofline generate-docs) against --help: a
# page for every command --help lists, nested ones too; every option and
# argument --help prints in its page's OPTIONS or ARGUMENTS; every page renders
# with no groff warning; the build's copies are what the binary writes now and
# install where GNUInstallDirs says; the bash completion completes commands,
# options, fixed values and files. (zsh: docs_zsh_completion.sh.)
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # MESSAGE
  echo "FAIL: $1"; fail=1
}
for tool in groff man python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
unset SOURCE_DATE_EPOCH
export HOME=$tmp/home LC_ALL=C.UTF-8
mkdir -p "$HOME" "$tmp/man"

"$bin" generate-docs --man-dir "$tmp/man" --bash "$tmp/bash" --zsh "$tmp/zsh" >"$tmp/out" 2>&1 ||
  { check "generate-docs failed (exit $?)"; cat "$tmp/out"; exit 1; }
"$bin" generate-docs >"$tmp/out" 2>&1
[[ $? == 2 ]] || check "generate-docs with nothing to write: expected exit 2"
"$bin" --help >"$tmp/out" 2>&1
grep -q generate-docs "$tmp/out" && check "generate-docs is listed by --help (it is hidden)"
[[ -e $tmp/man/roofline-generate-docs.1 ]] && check "a page for the hidden generate-docs"

# help_items SECTION: the names in a --help section ("SUBCOMMANDS", "OPTIONS", "POSITIONALS"),
# one a line: a command's name, an option's names ("-o,--output"), a positional's name.
help_items() {
  python3 -c '
import re, sys
section, inside = sys.argv[1], False
for line in sys.stdin.read().splitlines():
    if re.match(r"^[A-Za-z][A-Za-z ]*:$", line):
        inside = line[:-1].upper() == section
        continue
    if inside and re.match(r"^  \S", line):
        print(line.split()[0])
' "$1"
}
# section_of PAGE TITLE: the rendered text of one section of a page.
section_of() {
  MANWIDTH=200 MANPAGER=cat man -l "$1" 2>/dev/null | col -b | awk -v t="$2" '
    /^[A-Z][A-Z ]*$/ { inside = ($0 == t); next } inside'
}

pages=0
# check_command WORDS...: the page of `roofline WORDS` against its --help, then its commands'.
check_command() {
  local page name
  page=$tmp/man/$(IFS=-; echo "roofline${*:+-$*}").1
  name=$(basename "$page")
  if [[ ! -s $page ]]; then check "no page $name for 'roofline $*'"; return; fi
  pages=$((pages + 1))
  "$bin" "$@" --help >"$tmp/help" 2>&1 || check "roofline $* --help failed"
  groff -man -Tutf8 -ww -z "$page" >"$tmp/warn" 2>&1
  [[ -s $tmp/warn ]] && { check "$name: groff warnings"; sed 's/^/  | /' "$tmp/warn"; }
  MANPAGER=cat man -l "$page" >"$tmp/rendered" 2>"$tmp/warn" || check "$name: man -l failed"
  [[ -s $tmp/warn ]] && { check "$name: man -l says something"; sed 's/^/  | /' "$tmp/warn"; }
  grep -q '^NAME' "$tmp/rendered" || check "$name: no NAME section when rendered"

  section_of "$page" OPTIONS >"$tmp/options"
  local item n
  for item in $(help_items OPTIONS <"$tmp/help"); do
    for n in ${item//,/ }; do
      grep -qE -- "(^|[ ,])$n([ ,=]|\$)" "$tmp/options" || check "$name: option $n (roofline $* --help) missing from OPTIONS"
    done
  done
  section_of "$page" ARGUMENTS >"$tmp/arguments"
  for item in $(help_items POSITIONALS <"$tmp/help"); do
    grep -qE "(^|[ ])$item( |\$)" "$tmp/arguments" || check "$name: argument $item missing from ARGUMENTS"
  done
  local sub
  for sub in $(help_items SUBCOMMANDS <"$tmp/help"); do
    section_of "$page" COMMANDS | grep -qE "^ *$sub( |\$)" || check "$name: command $sub missing from COMMANDS"
    check_command "$@" "$sub"
  done
}
check_command
(( pages >= 14 )) || check "only $pages pages checked (roofline --help lists 13 commands, config 1)"
[[ -s $tmp/man/roofline-config-show.1 ]] || check "no page for the nested command 'config show'"
[[ $(ls "$tmp/man" | wc -l) == "$pages" ]] || check "$(ls "$tmp/man" | wc -l) pages written, $pages commands in --help"

# The top page: exit codes, the environment, and no date of the day it was built.
top=$tmp/man/roofline.1
for section in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES COMMANDS "SEE ALSO"; do
  [[ -n $(section_of "$top" "$section") ]] || check "roofline.1: no $section"
done
section_of "$top" "EXIT STATUS" | grep -qE '^ *130' || check "roofline.1: exit status 130 missing"
section_of "$top" ENVIRONMENT | grep -q ROOFLINE_SYSTEM_CONFIG || check "roofline.1: ROOFLINE_SYSTEM_CONFIG missing"
section_of "$tmp/man/roofline-kernels.1" ENVIRONMENT | grep -q ROOFLINE_KERNELS_CACHE ||
  check "roofline-kernels.1: ROOFLINE_KERNELS_CACHE missing"
grep -q "$(date -u +%Y-%m-%d)" "$top" && check "roofline.1 carries today's date (reproducible builds)"
head -2 "$top" | grep -qE '^\.TH "ROOFLINE" 1 "" "roofline [0-9.]+"' || check "roofline.1: unexpected .TH: $(sed -n 2p "$top")"
mkdir -p "$tmp/dated"
SOURCE_DATE_EPOCH=86400 "$bin" generate-docs --man-dir "$tmp/dated" || check "generate-docs with SOURCE_DATE_EPOCH failed"
grep -q '^\.TH "ROOFLINE" 1 "1970-01-02"' "$tmp/dated/roofline.1" || check "SOURCE_DATE_EPOCH=86400 is not 1970-01-02 in .TH"
# A configured default is the builder's, not the program's: the pages show the built-in one.
mkdir -p "$tmp/configured"
ROOFLINE_KERNELS_CACHE=cold "$bin" generate-docs --man-dir "$tmp/configured" || check "generate-docs with ROOFLINE_* set failed"
diff -r "$tmp/man" "$tmp/configured" >/dev/null || check "a ROOFLINE_* variable changed the pages"
ROOFLINE_BENCH_THREADZ=2 "$bin" generate-docs --man-dir "$tmp/configured" || check "a mistyped ROOFLINE_* variable stopped generate-docs"

# The build's copies (cmake/docs.cmake) are current and install where they should.
build=$(dirname "$bin")
if [[ -d $build/share/man/man1 ]]; then
  diff -r -I '^\.TH' "$build/share/man/man1" "$tmp/man" >"$tmp/out" || { check "build's man pages differ from the binary's"; head "$tmp/out"; }
  cmp -s "$build/share/bash-completion/completions/roofline" "$tmp/bash" || check "build's bash completion is stale"
  cmp -s "$build/share/zsh/site-functions/_roofline" "$tmp/zsh" || check "build's zsh completion is stale"
  if [[ -f $build/cmake_install.cmake ]] && command -v cmake >/dev/null; then
    cmake --install "$build" --component roofline --prefix "$tmp/prefix" >"$tmp/out" 2>&1 || { check "cmake --install failed"; cat "$tmp/out"; }
    for f in share/man/man1/roofline.1 share/man/man1/roofline-config-show.1 \
             share/bash-completion/completions/roofline share/zsh/site-functions/_roofline; do
      [[ -s $tmp/prefix/$f ]] || check "not installed: $f"
    done
  fi
else
  echo "note: no $build/share/man/man1 (not a build tree): build copies not compared"
fi

# bash completion: what Tab offers for a line, in a directory with a few files.
mkdir -p "$tmp/files/charts"
touch "$tmp/files/pts.json" "$tmp/files/pts2.json" "$tmp/files/other.txt"
bash -n "$tmp/bash" || check "bash completion: syntax error"
complete_line() {  # WORDS... (the last is the word being completed): the completions, sorted, on one line
  (cd "$tmp/files" && bash --norc -c '
    source "$1" || exit 1
    shift
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _roofline
    printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/bash" "$@") | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {  # WANT WORDS...
  local want=$1 got
  shift
  got=$(complete_line "$@")
  [[ $got == "$want" ]] || check "bash: '$*' completes to '$got', expected '$want'"
}
expect "bench" roofline be
expect "compare config" roofline co
expect "--quick" roofline bench --quic
expect "--quick --quiet" roofline bench --qu
expect "--changed" roofline config show --ch
expect "show" roofline config ""
expect "compute memory" roofline bench --only ""
expect "both dp sp" roofline bench --precision ""
expect "both dp sp" roofline bench --precision = ""
expect "markdown" roofline report --format m
expect "pts.json pts2.json" roofline plot --points pt
expect "pts.json pts2.json" roofline compare p
expect "charts" roofline plot -o ch
expect "--full" roofline bench -o out.json --threads 4 --fu
expect "--full" roofline bench --gpu --fu
expect "" roofline nosuch --qu
expect "--changed" roofline config --help show --ch   # a switch takes no value: show is a command
got=$(complete_line roofline "")
for cmd in topology bench model report plot measure list show kernels compare history monitor config; do
  [[ " $got " == *" $cmd "* ]] || check "bash: 'roofline ' does not offer $cmd"
done
[[ " $got " == *" generate-docs "* ]] && check "bash: the hidden generate-docs is offered"
# After measure's '--': a program (from PATH), then its files.
[[ " $(complete_line roofline measure -- bas) " == *" bash "* ]] || check "bash: 'measure -- bas' does not offer bash"
expect "other.txt" roofline measure -- ./prog o

exit $fail
