#!/usr/bin/env bash
# Layered configuration (issue 12): built-in < system file < user file <
# ./roofline.yaml < ROOFLINE_* < command line, each layer seen by
# 'config show' with where the value came from and by the command that runs;
# unknown names, bad values and broken files stop with file:line:col and the
# closest valid name.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # MESSAGE: a failed expectation, with the last command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
mkdir -p "$tmp/home/.config/roofline" "$tmp/project"
cd "$tmp/project" || exit 1
# Nothing of the machine's own configuration leaks in.
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
unset XDG_CONFIG_HOME
export HOME=$tmp/home ROOFLINE_SYSTEM_CONFIG=$tmp/system.yaml
user=$tmp/home/.config/roofline/config.yaml

# value_of KEY: "VALUE|FROM" from config show's JSON.
value_of() {
  "$bin" config show "$1" --format json >"$tmp/out" 2>&1 || { echo "exit $?"; return; }
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["settings"][0]; print(s["value"]+"|"+s["from"])' "$tmp/out"
}
expect() {  # KEY WANT
  local got; got=$(value_of "$1")
  [[ $got == "$2" ]] || check "$1: got '$got', expected '$2'"
}

expect kernels.samples "5|built-in"
printf 'kernels:\n  samples: 2\n' >"$tmp/system.yaml"
expect kernels.samples "2|$tmp/system.yaml:2:12"
printf '# mine\nkernels.samples: 3\n' >"$user"
expect kernels.samples "3|$user:2:18"
printf 'kernels:\n  stat: median\n  samples: 4\n' >roofline.yaml
expect kernels.samples "4|roofline.yaml:3:12"
ROOFLINE_KERNELS_SAMPLES=6 expect kernels.samples "6|ROOFLINE_KERNELS_SAMPLES"
ROOFLINE_KERNELS_SAMPLES= expect kernels.samples "4|roofline.yaml:3:12"   # empty: unset

# The command that runs uses them, and its own flag wins.
"$bin" kernels sum_sp_scalar --sizes 4K --no-store -q -o "$tmp/k.json" >"$tmp/out" 2>&1 || check "kernels with configuration failed"
grep -q '"statistic": "median of 4 samples' "$tmp/k.json" || { cp "$tmp/k.json" "$tmp/out"; check "kernels did not take stat and samples from the files"; }
# The points say which settings configuration gave them, and the command line as typed.
grep -q '"settings": "samples=4 (roofline.yaml:3:12); stat=median (roofline.yaml:2:9)' "$tmp/k.json" \
  || { cp "$tmp/k.json" "$tmp/out"; check "the points do not record the configured settings"; }
grep -q '"--sizes"' "$tmp/k.json" || { cp "$tmp/k.json" "$tmp/out"; check "the points do not record the command line"; }
ROOFLINE_KERNELS_SAMPLES=3 "$bin" kernels sum_sp_scalar --sizes 4K --no-store -q --samples 2 --stat min -o "$tmp/k.json" >"$tmp/out" 2>&1
grep -q '"statistic": "min of 2 samples' "$tmp/k.json" || { cp "$tmp/k.json" "$tmp/out"; check "the command line did not override the files and the environment"; }
# What the command line overrode was not in force: the points do not record it as a setting.
grep -Eq '"settings": "[^"]*(samples|stat)=' "$tmp/k.json" \
  && { cp "$tmp/k.json" "$tmp/out"; check "the points record settings the command line overrode"; }
"$bin" kernels --help >"$tmp/out" 2>&1
grep -q -- '--samples INT:1\.\.1000=4' "$tmp/out" || check "--help does not show the configured default"

# A shared name (db) reaches every command; a command's own setting beats it in the same layer,
# and a shared one of a higher layer beats a command's own of a lower layer.
printf 'db: ~/a.db\nkernels:\n  db: /k.db\n' >"$user"
expect list.db "$tmp/home/a.db|$user:1:5 (db)"
expect kernels.db "/k.db|$user:3:7"
ROOFLINE_DB=/e.db expect kernels.db "/e.db|ROOFLINE_DB (db)"
"$bin" list --format json >"$tmp/out" 2>&1
grep -q "no results store at $tmp/home/a.db" "$tmp/out" || check "list did not use the configured store"
rm -f "$user"

# Mistakes: exit 2, where, and the closest name.
mistake() {  # WANT-EXIT REGEX FILE-TEXT [ENV=VALUE]
  printf '%b' "$3" >roofline.yaml
  env ${4:+"$4"} "$bin" config show >"$tmp/out" 2>&1; local code=$?
  [[ $code -eq $1 ]] || check "'$3': exit $code, expected $1"
  grep -Eq "$2" "$tmp/out" || check "'$3': message does not match /$2/"
  if [[ $1 -ne 0 ]]; then
    env ${4:+"$4"} "$bin" topology >/dev/null 2>&1 && check "'$3': another command ran in spite of it"
  fi
}
mistake 2 "roofline.yaml:2:3: unknown setting 'kernels.cach' \(did you mean 'kernels.cache'\?\)" 'kernels:\n  cach: cold\n'
mistake 2 "roofline.yaml:1:1: unknown setting 'kernel.cache' \(did you mean 'kernels.cache'\?\)" 'kernel.cache: cold\n'
mistake 2 "roofline.yaml:1:18: kernels.samples: 'many' is not a valid value for 'roofline kernels --samples'" 'kernels.samples: many\n'
mistake 2 "roofline.yaml:1:16: kernels.cache: 'hot' is not a valid value.*warm" 'kernels.cache: hot\n'
mistake 2 "roofline.yaml:1:18: kernels.samples: 'roofline kernels --samples' takes one value, not a list" 'kernels.samples: [1, 2]\n'
mistake 2 "roofline.yaml:1:8: quiet: 'maybe' is not true or false" 'quiet: maybe\n'
mistake 2 "roofline.yaml:3:1: .*db" 'db: a\nkernels: {}\ndb: b\n'
mistake 2 "roofline.yaml:2:3: kernels.cache: settings nest one level only" 'kernels:\n  cache:\n    x: 1\n'
mistake 2 "roofline.yaml:2:1: invalid YAML" 'kernels: [\n'
mistake 2 "roofline.yaml:1:1: a configuration file is a mapping" '- db\n'
mistake 2 "roofline.yaml:1:1: db: a setting needs a value" 'db:\n'
mistake 2 "ROOFLINE_KERNELS_CACH is not a roofline setting \(did you mean 'ROOFLINE_KERNELS_CACHE'\?\)" '' ROOFLINE_KERNELS_CACH=cold
mistake 2 "ROOFLINE_KERNELS_CACHE: kernels.cache: 'hot' is not a valid value" '' ROOFLINE_KERNELS_CACHE=hot
mistake 0 "project file +roofline.yaml +0 settings" '# nothing yet\n'
mistake 0 "environment +ROOFLINE_\\* variables +0 settings" '' ROOFLINE_SOMEONE_ELSES_VARIABLE=1  # not ours: ignored
rm -f roofline.yaml
mkdir roofline.yaml
"$bin" config show >"$tmp/out" 2>&1 && check "a directory as the project file was read"
grep -q "roofline.yaml" "$tmp/out" || check "the unreadable project file is not named"
rmdir roofline.yaml
# A name that is there but leads nowhere is the user's file, not an absent one: a symbolic link
# loop and a link to a missing file stop every command as a directory does, naming the file
# (both were read as "not present", so the settings the user meant were silently not in force).
ln -s roofline.yaml roofline.yaml
"$bin" topology >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "a symbolic link loop as the project file: exit $code, expected 1"
grep -q "^roofline: error: configuration file: cannot read roofline.yaml: a loop of symbolic links" "$tmp/out" ||
  check "a symbolic link loop as the project file is not said: $(cat "$tmp/out")"
rm roofline.yaml
ln -s gone.yaml roofline.yaml
"$bin" config show >"$tmp/out" 2>&1 && check "a link to a missing file as the project file was taken as absent"
grep -q "cannot read roofline.yaml: a symbolic link to gone.yaml, which does not exist" "$tmp/out" ||
  check "a link to a missing file as the project file is not said: $(cat "$tmp/out")"
rm roofline.yaml
ln -s "$tmp/user-loop" "$tmp/user-loop"
mkdir -p "$HOME/.config/roofline" && ln -s "$tmp/user-loop" "$HOME/.config/roofline/config.yaml"
"$bin" config show >"$tmp/out" 2>&1 && check "a symbolic link loop as the user file was taken as absent"
grep -q "cannot read .*/config.yaml: a loop of symbolic links" "$tmp/out" ||
  check "a symbolic link loop as the user file is not said: $(cat "$tmp/out")"
rm "$HOME/.config/roofline/config.yaml"
"$bin" config show >"$tmp/out" 2>&1 || check "config show with no files failed: $(cat "$tmp/out")"
exit $fail
