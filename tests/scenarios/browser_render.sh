#!/usr/bin/env bash
# The SVG and HTML charts in a real browser (headless Chromium): the page's
# script runs (toggles built, summary written), the roofs and the embedded data
# are in the DOM, a point named like markup stays text and runs nothing, and
# screenshots are not blank. SKIPPED (exit 77, shown by ctest as skipped) only where no Chromium is installed.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$(command -v "$candidate"); break; fi
done
if [[ -z "$browser" ]]; then
  echo "SKIPPED: no headless browser found (install Debian's chromium to run this test)"
  exit 77
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/points.json" <<'EOF'
{"schema": "roofline.points/1", "points": [
  {"name": "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">", "series": "sweep",
   "flops": 2e9, "bytes": {"L1": 8e9, "DRAM": 4e9}, "seconds": 0.5, "threads": 8, "source": "analytic"},
  {"name": "<script>document.title='PWNED'</script>", "series": "sweep",
   "flops": 8e9, "bytes": {"L1": 8e9, "DRAM": 2e9}, "seconds": 0.5, "threads": 8, "source": "analytic"},
  {"name": "dgemm", "flops": 4e10, "bytes": {"L1": 1e10, "DRAM": 1e9}, "seconds": 1.0, "threads": 8, "source": "analytic"}
]}
EOF
machine="$src/examples/machines/opteron_x4.yaml"
"$bin" plot --machine "$machine" --points "$tmp/points.json" --shade-regions -o "$tmp/chart.html" || fail "plot html"
"$bin" plot --machine "$machine" --points "$tmp/points.json" -o "$tmp/chart.svg" || fail "plot svg"

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$tmp/profile")
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/chart.html" >"$tmp/dom.html" 2>"$tmp/browser.err" ||
  { cat "$tmp/browser.err"; fail "chromium --dump-dom"; }
dom="$tmp/dom.html"
[[ -s "$dom" ]] || fail "empty DOM"
grep -Eq 'id="summary">interactive: [0-9]+ roofs and lines, 3 points' "$dom" || fail "the page's script did not run"
toggles=$(grep -o 'class="toggle"' "$dom" | wc -l)
(( toggles >= 4 )) || fail "expected toggles for ceilings, machine and series, found $toggles"
grep -q 'data-group="ceiling"' "$dom" || fail "no ceilings toggle"
grep -q '>DP peak 73.6 GFLOP/s<' "$dom" || fail "compute roof not in the DOM"
grep -Eq '>DRAM [a-z]+ 16.6 GB/s<' "$dom" || fail "DRAM roof not in the DOM"
grep -q 'id="roofline-data"' "$dom" || fail "embedded data missing"
grep -q '"advice":' "$dom" || fail "ceiling advice missing from the data"
grep -q 'data-tip="p0"' "$dom" || fail "hover targets missing"
grep -q 'data-pwned="1"' "$dom" && fail "a point name ran as markup (onerror handler fired)"
grep -q '<title>PWNED' "$dom" && fail "a point name ran as script"
grep -q '&lt;script&gt;document.title' "$dom" || fail "the hostile name is not shown as text"

# Screenshots: not blank (a blank page is one colour and compresses to almost nothing).
for page in chart.html chart.svg; do
  shot="$tmp/${page%.*}-${page##*.}.png"
  timeout 120 "$browser" "${flags[@]}" --window-size=1000,800 --screenshot="$shot" "file://$tmp/$page" \
    >/dev/null 2>>"$tmp/browser.err" || fail "screenshot of $page"
  size=$(stat -c %s "$shot")
  (( size > 20000 )) || fail "screenshot of $page is $size bytes: blank?"
  if command -v python3 >/dev/null 2>&1; then
    colours=$(python3 "$here/png_colours.py" "$shot") || fail "cannot read $shot"
    (( colours >= 8 )) || fail "screenshot of $page has $colours colours: blank?"
    echo "ok: $page screenshot $size bytes, $colours colours"
  else
    echo "ok: $page screenshot $size bytes (python3 missing: colour count skipped)"
  fi
done
echo "ok: DOM has the roofs, the data, $toggles toggles; hostile names stayed text"
