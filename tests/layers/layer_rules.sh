#!/usr/bin/env bash
# The layer rules of docs/ARCHITECTURE.md hold in this tree (layer_rules.py says what is
# checked), and the checker catches each kind of breach: it must refuse copies of the tree
# with one rule broken. Usage: layer_rules.sh REPO_ROOT; 77 (skipped) without python3.
set -u
repo=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
failed=0
python3 "$here/layer_rules.py" "$repo" || failed=1

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A copy of what the checker reads; each case breaks one rule in a fresh copy.
fresh() {
    rm -rf "$tmp/t"; mkdir -p "$tmp/t/docs"
    cp -r "$repo/src" "$tmp/t/src"; cp "$repo/CMakeLists.txt" "$tmp/t/"; cp "$repo/docs/ARCHITECTURE.md" "$tmp/t/docs/"
}
refused() {  # description expected-message-regex
    if python3 "$here/layer_rules.py" "$tmp/t" >"$tmp/out" 2>&1; then
        echo "NOT REFUSED: $1"; failed=1
    elif ! grep -Eq -- "$2" "$tmp/out"; then
        echo "refused, but without /$2/: $1"; cat "$tmp/out"; failed=1
    else
        echo "refused as it should be: $1"
    fi
}
fresh; echo '#include "render/report.hpp"' >> "$tmp/t/src/bench/sampler.hpp"
refused "bench/ including render/" 'sampler.hpp: includes render/report.hpp'
fresh; echo '#include "io/text_file.hpp"' >> "$tmp/t/src/core/level.cpp"
refused "core/ including io/" 'level.cpp: includes io/text_file.hpp.*nothing of ours'
fresh; echo '#include "core/level.hpp"' >> "$tmp/t/src/marker/marker.cpp"
refused "the marker library including a core header with code" 'marker.cpp: includes core/level.hpp'
fresh; sed -i 's/^roofline_layer(render USES core/roofline_layer(render USES core io/' "$tmp/t/CMakeLists.txt"
refused "CMakeLists.txt letting render/ use io/" "render/: docs/ARCHITECTURE.md lets it use \['core'\], CMakeLists.txt's USES \['core', 'io'\]"
fresh; sed -i 's/^bench\/    ──>  topo\/, core\//bench\/    ──>  topo\/, core\/, io\//' "$tmp/t/docs/ARCHITECTURE.md"
refused "the diagram disagreeing with the table" "bench/: the table lets it use"
fresh; echo '#include <chrono>' >> "$tmp/t/src/core/statistics.cpp"
refused "core/ including <chrono>" 'statistics.cpp: includes <chrono>'
fresh; echo 'static const char* home() { return getenv("HOME"); }' >> "$tmp/t/src/core/statistics.cpp"
refused "core/ reading the environment" 'statistics.cpp:[0-9]+: getenv\('
fresh; echo 'inline void say() { fmt::print("measured\\n"); }' >> "$tmp/t/src/measure/merge.hpp"
refused "measure/ printing" 'merge.hpp:[0-9]+: fmt::print\(; below cli nothing prints'
fresh; printf '#pragma once\n' > "$tmp/t/src/render/undocumented_thing.hpp"
refused "a new file without its row" 'src/render/undocumented_thing.hpp: not in docs/ARCHITECTURE.md'
exit $failed
