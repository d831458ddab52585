#!/usr/bin/env bash
# The documents newcomers read first name only options that exist: every `roofline COMMAND ...`
# written in README.md, docs/*.md and the examples' READMEs (in inline code or a code block)
# uses options that `roofline COMMAND --help` lists (up to ' -- ', a pipe or the end of the
# code). A renamed or removed option must be renamed in the docs too. The checker's own test:
# a document naming an option that does not exist must be refused.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp ROOFLINE_SYSTEM_CONFIG=$tmp/none.yaml

cat > "$tmp/check.py" <<'PY'
import re, subprocess, sys
binary, files = sys.argv[1], sys.argv[2:]
top = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
commands = re.findall(r"^  ([a-z][a-z-]*)\s", top.split("Subcommands:")[1].split("\n\n")[0], re.M)
helps = {}
def options_of(command):
    if command not in helps:
        out = subprocess.run([binary, *command.split(), "--help"], capture_output=True, text=True).stdout
        # Option lines: "  -o,--output TEXT  ...", "  --quick  ...".
        helps[command] = set(re.findall(r"(?:^  |,)(--?[A-Za-z][\w-]*)", out, re.M))
    return helps[command]
call = re.compile(r"(?:^|[\s/(])roofline (" + "|".join(commands) + r")\b((?: show\b)?)(.*)")
problems, checked = [], 0
for path in files:
    text = open(path).read()
    spans = re.findall(r"`([^`\n]+)`", text)  # inline code
    in_block = False
    for line in text.splitlines():  # and every line of a code block
        if line.lstrip().startswith("```"):
            in_block = not in_block
        elif in_block:
            spans.append(line)
    for span in spans:
        for m in call.finditer(span):
            command = m.group(1) + m.group(2)
            # A '|' inside brackets is an alternative ("[--quick | --full]"), outside a pipe.
            rest, depth = "", 0
            for ch in m.group(3):
                depth += {"[": 1, "]": -1}.get(ch, 0)
                rest += " " if ch == "|" and depth > 0 else ch
            rest = re.split(r" -- | \| |;|&&|  #", rest)[0]
            for option in re.findall(r"(?<![\w.-])(--?[A-Za-z][\w-]*)", rest):
                checked += 1
                if option not in options_of(command):
                    problems.append(f"{path}: 'roofline {command} ... {option}': "
                                    f"'roofline {command} --help' has no {option}")
for p in sorted(set(problems)):
    print(p)
print(f"{checked} options checked in {len(files)} files", file=sys.stderr)
sys.exit(1 if problems else 0)
PY

fail=0
docs=("$src/README.md" "$src"/docs/*.md "$src/examples/README.md" "$src/examples/programs/README.md")
python3 "$tmp/check.py" "$bin" "${docs[@]}" || { echo "FAIL: the documents above name options that do not exist"; fail=1; }
# The checker refuses what it should: an option no command has, one of another command, after
# a bracketed alternative; and it passes the separator and a shared option.
cat > "$tmp/bad.md" <<'MD'
Run `roofline bench [--quick | --full] --no-such-option` and `roofline report [--format text|json] --engine perf`.
```sh
roofline measure -o app.json -- ./app --engine-of-the-app
```
MD
out=$(python3 "$tmp/check.py" "$bin" "$tmp/bad.md" 2>&1)
grep -q "roofline bench ... --no-such-option" <<<"$out" || { echo "FAIL: an unknown option passed: $out"; fail=1; }
grep -q "roofline report ... --engine" <<<"$out" || { echo "FAIL: another command's option passed: $out"; fail=1; }
grep -q "engine-of-the-app" <<<"$out" && { echo "FAIL: the program's own option after -- was checked: $out"; fail=1; }
grep -qE "(--quick|-o'|--format)" <<<"$out" && { echo "FAIL: an option that exists was refused: $out"; fail=1; }
[[ $fail -eq 0 ]] && echo "every option the documents give a roofline command exists"
exit $fail
