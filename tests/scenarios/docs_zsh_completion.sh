#!/usr/bin/env bash
# The zsh completion (roofline generate-docs --zsh): it parses, and in a real
# interactive zsh (driven through zsh/zpty, compinit loading _roofline from
# $fpath) Tab offers the commands, a command's options, an option's fixed values
# and files. Skipped (77) without zsh (scripts/install-deps.sh installs it).
set -u
bin=$1
command -v zsh >/dev/null || { echo "SKIP: zsh is not installed"; exit 77; }
zsh -f -c 'zmodload zsh/zpty' 2>/dev/null || { echo "SKIP: zsh has no zsh/zpty module"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { echo "FAIL: $1"; fail=1; }
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp/home
mkdir -p "$HOME" "$tmp/fpath" "$tmp/files/charts"
touch "$tmp/files/pts.json" "$tmp/files/pts2.json" "$tmp/files/other.txt"

"$bin" generate-docs --zsh "$tmp/fpath/_roofline" || { check "generate-docs --zsh failed"; exit 1; }
head -1 "$tmp/fpath/_roofline" | grep -qx '#compdef roofline' || check "_roofline does not start with #compdef roofline"
zsh -n "$tmp/fpath/_roofline" || check "zsh -n: syntax error in _roofline"

# The interactive shell's setup: compinit finds _roofline; every match a completion
# adds is also recorded, and Tab prints them between << and >>.
cat >"$tmp/setup.zsh" <<EOF
PS1='> ' RPS1= PS2=
bindkey -e
fpath=($tmp/fpath \$fpath)
path=($(dirname "$bin") \$path)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-prompt ''
zstyle ':completion:*' menu no
typeset -ga __hits
compadd() {
  local arg
  for arg in "\$@"; do
    [[ \$arg == (-|--) ]] && break
    [[ \$arg == -[OAD]* ]] && { builtin compadd "\$@"; return; }  # a query, not an addition
  done
  local -a found
  builtin compadd -A found "\$@"
  __hits+=(\$found)
  builtin compadd "\$@"
}
_capture() { __hits=(); _main_complete; print -rn -- \$'\n'"<<\${(j: :)\${(ou)__hits}}>>"\$'\n' }
zle -C capture complete-word _capture
bindkey '^I' capture
cd $tmp/files
EOF
cat >"$tmp/driver.zsh" <<'EOF'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "source ${1:q}; print READY-\$((6*7))"
zpty -r z out '*READY-42*' || exit 3
# One line per test: WANT<TAB>LINE; prints "ok" or what Tab offered instead.
while IFS=$'\t' read -r want line; do
  zpty -w -n z "$line"$'\t'
  zpty -r z out '*>>*' || exit 3
  got=(${=${${out##*<<}%%>>*}})
  got=${(j: :)${(ou)got}}
  zpty -w -n z $'\C-u'
  if [[ $got == "$want" ]]; then print -r -- "ok: $line"; else print -r -- "WRONG: '$line' offered '$got', expected '$want'"; fi
done
zpty -d z
EOF
cat >"$tmp/cases" <<'EOF'
bench	roofline be
compare config	roofline co
--quick	roofline bench --quic
--quick --quiet	roofline bench --qu
--changed	roofline config show --ch
show	roofline config 
compute memory	roofline bench --only 
both dp sp	roofline bench --precision=
markdown	roofline report --format m
pts.json pts2.json	roofline plot --points pt
charts	roofline plot -o ch
pts.json pts2.json	roofline compare p
show	roofline config s
EOF
timeout 120 zsh -f "$tmp/driver.zsh" "$tmp/setup.zsh" <"$tmp/cases" >"$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] || check "the zsh driver failed (exit $rc)"
grep -q WRONG "$tmp/out" && check "zsh completions differ"
[[ $(grep -c '^ok: ' "$tmp/out") == $(wc -l <"$tmp/cases") ]] || { check "not every case ran"; }
((fail)) && sed 's/^/  | /' "$tmp/out"
exit $fail
