#!/usr/bin/env bash
# A program whose debug information Valgrind cannot read (clang 14's DWARF 5 with
# -ffast-math: Valgrind 3.19's reader meets forms it does not know, says "I can't
# recover. Giving up." and exits 1 before the tool writes anything): the instrument
# engine says so and how to rebuild (-gdwarf-4), not that the program replaced itself with
# another (exec), which it said before. The same program built with -gdwarf-4 is counted.
# SKIPPED (exit 77) without clang, valgrind or the Valgrind tool, or where this clang and
# Valgrind agree (the reader does not give up).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(cd "$(dirname "$bin")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
command -v clang >/dev/null || { echo "SKIP: no clang"; exit 77; }
command -v valgrind >/dev/null && [[ -e $build/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) missing"; exit 77; }

# dot(x, y, n): 2n FLOPs (n FMAs with -ffast-math), once.
cat >"$tmp/dot.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) double dot(const double* x, const double* y, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}
int main(void) {
    long n = 100000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (long i = 0; i < n; ++i) { x[i] = 1; y[i] = 0.5; }
    printf("%g\n", dot(x, y, n));
    return 0;
}
C
flags=(-O3 -march=x86-64-v3 -ffast-math)
clang "${flags[@]}" -g "$tmp/dot.c" -o "$tmp/dot5" || fail "cannot compile with clang"
clang "${flags[@]}" -gdwarf-4 "$tmp/dot.c" -o "$tmp/dot4" || fail "cannot compile with clang -gdwarf-4"
out=$(valgrind --tool=none "$tmp/dot5" 2>&1); code=$?
if [[ $code == 0 ]] || ! grep -q "Giving up" <<<"$out"; then
  echo "SKIP: Valgrind reads this clang's debug information (exit $code): nothing to check"; exit 77
fi

out=$("$bin" measure -q --no-store --engine instrument --cache-sim off -- "$tmp/dot5" 2>&1); code=$?
[[ $code == 1 ]] || fail "exit $code, want 1 (no counts)"
grep -q "could not read the debug information of $tmp/dot5" <<<"$out" || fail "the file whose debug information failed is not named"
grep -q -- "-gdwarf-4" <<<"$out" || fail "the remedy (-gdwarf-4) is not said"
grep -q "replaced itself" <<<"$out" && fail "still blamed on an exec"
echo "ok: an unreadable DWARF 5 file is named, with -gdwarf-4 as the remedy"

out=$("$bin" measure -q --no-store --engine instrument --cache-sim off -o "$tmp/p.json" -- "$tmp/dot4" 2>&1); code=$?
[[ $code == 0 ]] || fail "exit $code with -gdwarf-4"
python3 - "$tmp/p.json" <<'PY' || fail "counts of the -gdwarf-4 build"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
fma = pts["(program)"]["details"]["flops_f64_fma"]
assert fma == 2 * 100000, fma  # the FMAs of dot; nothing else fuses
PY
echo "ok: the -gdwarf-4 build is counted (2n FLOPs of FMA)"
