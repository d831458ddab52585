#!/usr/bin/env python3
"""The layer rules of docs/ARCHITECTURE.md against the build and the code.

The build hides a layer's headers from the layers that do not link it, but only as
CMakeLists.txt's USES lists say; forbidden_include_fails.sh checks how include roots
work, not which layer may use which. This checks, for every layer:
  - the overview table's "may use" column, the diagram and CMakeLists.txt's USES list
    name the same layers (cli: all of them);
  - no source file includes a header of a layer it may not use;
  - src/marker/ includes only header-only parts of core;
  - core stays pure: no headers or calls for files, clocks, threads, randomness or the
    environment;
  - nothing below cli prints (no std::cout, fmt::print, printf ...): layers return data and
    text, cli writes it (io writes result files and standard output through descriptors);
  - every source file of a layer is in its layer's table ("A file below stands for its .hpp
    and .cpp"; a row may name a pattern such as `*_cmd.cpp` or `reference_*.cpp`).
usage: layer_rules.py REPO_ROOT   (exit 1 listing every breach)
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
doc = (root / "docs/ARCHITECTURE.md").read_text()
cmake = (root / "CMakeLists.txt").read_text()
LAYERS = ["core", "io", "topo", "bench", "measure", "app", "render", "cli"]
problems = []


def layers_named(text):
    # Words in parentheses explain an edge ("(not render/: cli renders)"); they are not edges.
    text = re.sub(r"\([^)]*\)", "", text)
    return {w for w in re.findall(r"[a-z]+", text) if w in LAYERS}


# The overview table: | `layer/` | what lives there | may use | third-party |
table = {}
for line in doc.splitlines():
    m = re.match(r"\|\s*`(\w+)/`\s*\|[^|]*\|([^|]*)\|", line)
    if m and m.group(1) in LAYERS:
        uses = m.group(2)
        table[m.group(1)] = set(LAYERS) - {m.group(1)} if "all of the above" in uses else layers_named(uses)
# The diagram: "bench/    ──>  topo/, core/"
diagram = {}
for line in doc.splitlines():
    m = re.match(r"(\w+)/\s+──(?:uses──)?>\s+(.*)$", line)
    if m and m.group(1) in LAYERS:
        diagram[m.group(1)] = set(LAYERS) - {m.group(1)} if "every layer" in m.group(2) else layers_named(m.group(2))
# CMakeLists.txt: roofline_layer(NAME USES a b ... PUBLIC_DEPS ...)
built = {}
for m in re.finditer(r"roofline_layer\((\w+)([^)]*)\)", cmake):
    words = m.group(2).split()
    uses = set()
    if "USES" in words:
        for w in words[words.index("USES") + 1:]:
            if w.isupper():
                break
            uses.add(w)
    built[m.group(1)] = uses
built["cli"] = set(LAYERS) - {"cli"}  # the executable links roofline_layers, every layer below it

for layer in LAYERS:
    for name, rules in (("the overview table", table), ("the diagram", diagram), ("CMakeLists.txt", built)):
        if layer not in rules:
            problems.append(f"{name} says nothing of layer {layer}/")
    if layer in table and layer in diagram and table[layer] != diagram[layer]:
        problems.append(f"{layer}/: the table lets it use {sorted(table[layer])}, the diagram {sorted(diagram[layer])}")
    if layer in table and layer in built and table[layer] != built[layer]:
        problems.append(f"{layer}/: docs/ARCHITECTURE.md lets it use {sorted(table[layer])}, "
                        f"CMakeLists.txt's USES {sorted(built[layer])}")

include = re.compile(r'^\s*#\s*include\s+"(\w+)/([^"]+)"', re.M)
sources = [p for p in (root / "src").rglob("*") if p.suffix in (".hpp", ".cpp", ".inl", ".h", ".c")]
for path in sources:
    rel = path.relative_to(root / "src")
    layer = rel.parts[0]
    text = path.read_text(errors="replace")
    for m in include.finditer(text):
        used, header = m.group(1), m.group(2)
        if used == layer or used not in LAYERS + ["marker"]:
            continue
        if layer == "marker":
            # The library programs link: only core's header-only parts (no .cpp to link).
            if used != "core" or (root / "src/core" / header).with_suffix(".cpp").exists():
                problems.append(f"src/{rel}: includes {used}/{header}; the marker library may include "
                                "only header-only parts of core")
        elif layer in table and used not in table[layer]:
            problems.append(f"src/{rel}: includes {used}/{header}, but {layer}/ may use only "
                            f"{', '.join(sorted(table[layer])) or 'nothing of ours'}")

# core is pure: functions of their arguments (the rule "core is pure").
impure_header = re.compile(r"^\s*#\s*include\s+<(fstream|iostream|cstdio|stdio\.h|thread|mutex|atomic|"
                           r"condition_variable|future|chrono|ctime|random|unistd\.h|fcntl\.h|sys/[\w/]+\.h)>", re.M)
impure_call = re.compile(r"\b(getenv|secure_getenv|setenv|fopen|popen|system|rand|srand)\s*\(|"
                         r"std::filesystem::(?!path\b)\w+")
for path in (root / "src/core").rglob("*"):
    if path.suffix not in (".hpp", ".cpp"):
        continue
    text = path.read_text(errors="replace")
    for m in impure_header.finditer(text):
        problems.append(f"src/core/{path.name}: includes <{m.group(1)}>; core is pure (no files, clocks, "
                        "threads or randomness)")
    for no, line in enumerate(text.splitlines(), 1):
        code = line.split("//")[0]
        if (m := impure_call.search(code)):
            problems.append(f"src/core/{path.name}:{no}: {m.group(0)}; core is pure (no files, clocks, "
                            "environment)")

# Nothing below cli prints: the layers return what cli says ("app: nothing printed", render
# returns text).
printing = re.compile(r"std::(cout|cerr|clog)\b|\bfmt::print\s*\(|(?<![\w.])(printf|fprintf|puts|fputs|perror)\s*\(")
for path in sources:
    rel = path.relative_to(root / "src")
    if rel.parts[0] in ("cli", "marker"):
        continue
    for no, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        code = line.split("//")[0]
        if (m := printing.search(code)):
            problems.append(f"src/{rel}:{no}: {m.group(0).strip()}; below cli nothing prints (return the "
                            "text or data, cli writes it)")

# Every file in its layer's table: the map of record names it (its stem in backquotes, or a
# pattern row such as `reference_*.cpp`, `kernels/<isa>/`, `gpu/<vendor>/`).
sections = {}
current = None
for line in doc.splitlines():
    m = re.match(r"### (\w+)/\s*$", line)
    if m:
        current = m.group(1) if m.group(1) in LAYERS else None
        sections.setdefault(current, "")
        continue
    if line.startswith("## ") or line.startswith("### "):
        current = None
    if current:
        sections[current] += line + "\n"
for layer in LAYERS:
    table = sections.get(layer, "")
    named = set(re.findall(r"`([\w.]+?)(?:\.(?:hpp|cpp|md))?`", table))
    patterns = [re.escape(p).replace(r"\*", r"\w+") for p in re.findall(r"`([\w]*\*[\w]*)\.cpp`", table)]
    for path in sorted((root / "src" / layer).glob("*")):
        if path.suffix not in (".hpp", ".cpp", ".inl", ".md"):
            continue
        if path.stem in named or any(re.fullmatch(p, path.stem) for p in patterns):
            continue
        problems.append(f"src/{layer}/{path.name}: not in docs/ARCHITECTURE.md's table of {layer}/ "
                        "(a row: the file's stem and its one concern)")

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"layer rules hold: {len(LAYERS)} layers, {len(sources)} source files; the table, the diagram and "
      "CMakeLists.txt agree")
