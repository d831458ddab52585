#!/usr/bin/env python3
"""The largest functions of each layer of src/ (issue 34: how big a newcomer's reading gets).

Usage: tools/largest_functions.py [--top N] [SRC_DIR]

Prints a Markdown table: per layer (a folder of src/, its subfolders included), its N largest
function definitions (default 1) by lines from the signature's line to the closing brace's,
with where they are. Lambdas are counted in the function that holds them, not on their own.
Needs Universal Ctags (`ctags`, Debian: universal-ctags), which gives each definition's
first and last line.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys


def definitions(files):
    """(lines, qualified name, file, line) of every function defined in `files`."""
    out = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+neS", "--kinds-C++=f", "--kinds-C=f", "-o", "-", *files],
        capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag or tag["name"].startswith("__anon"):
            continue
        scope = tag.get("scope", "")
        # Inside an anonymous namespace, ctags names it __anon...: leave it out of the name.
        scope = "::".join(p for p in scope.split("::") if not p.startswith("__anon") and p != "roofline")
        name = f"{scope}::{tag['name']}" if scope else tag["name"]
        yield tag["end"] - tag["line"] + 1, name, tag["path"], tag["line"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=1, help="functions listed per layer (default 1)")
    parser.add_argument("src", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "src"))
    args = parser.parse_args()
    if not shutil.which("ctags"):
        sys.exit("largest_functions: needs Universal Ctags on PATH (Debian: apt-get install universal-ctags)")
    src = os.path.normpath(args.src)
    print("| layer | lines | function | where |")
    print("|---|---:|---|---|")
    for layer in sorted(os.listdir(src)):
        root = os.path.join(src, layer)
        if not os.path.isdir(root):
            continue
        files = sorted(os.path.join(d, f) for d, _, names in os.walk(root) for f in names
                       if f.endswith((".cpp", ".hpp", ".c", ".h", ".inl")))
        if not files:
            continue
        found = sorted(definitions(files), key=lambda d: (-d[0], d[2], d[3]))
        for lines, name, path, line in found[:args.top]:
            print(f"| `{layer}/` | {lines} | `{name}` | `{os.path.relpath(path, os.path.dirname(src))}:{line}` |")


if __name__ == "__main__":
    main()
