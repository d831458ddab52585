#!/usr/bin/env bash
# Issue 10: 100,000 points make a valid SVG and HTML chart with every marker
# drawn (label placement was quadratic: 67 s). No timing is asserted; the
# generous `timeout 120` only catches a return of the quadratic blow-up.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=100000
fail=0

# Points under the Opteron's roofs, in 5 series and without one, three levels each.
python3 - "$n" "$tmp/points.json" <<'EOF'
import json, random, sys
n = int(sys.argv[1]); random.seed(10)
points = []
for i in range(n):
    seconds = 10 ** random.uniform(-2, 0)
    l1, l2, dram = 10 ** random.uniform(-1, 1.5), 10 ** random.uniform(-1.2, 1), 10 ** random.uniform(-1.5, 1)
    dram = min(l1, l2, dram)
    flops = 10 ** random.uniform(-2, -0.1) * min(73.6, 16.6 * dram) * 1e9 * seconds
    points.append({"name": f"kernel {i}", "series": f"s{i % 5}" if i % 2 else "", "flops": flops,
                   "bytes": {"L1": flops / l1, "L2": flops / l2, "DRAM": flops / dram},
                   "seconds": seconds, "threads": 2})
json.dump({"schema": "roofline.points/1", "points": points}, open(sys.argv[2], "w"))
EOF

for format in svg html; do
  if ! timeout 120 "$bin" plot --machine "$src/examples/machines/opteron_x4.yaml" --points "$tmp/points.json" \
      -o "$tmp/chart.$format" -q >"$tmp/err" 2>&1; then
    echo "FAIL: plot --format $format of $n points: $(head -c 300 "$tmp/err")"; fail=1
  fi
done

python3 - "$tmp" "$n" <<'EOF' || fail=1
import json, re, sys, xml.etree.ElementTree as ET
tmp, n = sys.argv[1], int(sys.argv[2])
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what); ok = False

svg = ET.parse(f"{tmp}/chart.svg").getroot()   # raises on invalid XML
ns = "{http://www.w3.org/2000/svg}"
groups = [g for g in svg.iter(ns + "g") if re.fullmatch(r"s\d+|pfree", g.get("class", ""))]
check(len(groups) == n, f"SVG: {len(groups)} point groups, want {n}")
markers = sum(1 for g in groups for e in g if e.tag in (ns + "circle", ns + "rect", ns + "path"))
check(markers == 3 * n, f"SVG: {markers} markers, want {3 * n}")
labels = sum(1 for g in groups for e in g if e.tag == ns + "text")
check(0 < labels <= 400, f"SVG: {labels} point labels, want 1 to 400")
texts = " ".join(t.text or "" for t in svg.iter(ns + "text"))
check(re.search(rf"[0-9]+ of {n} point labels shown", texts), "SVG: no note on the point labels left out")

page = open(f"{tmp}/chart.html", encoding="utf-8").read()
data = re.search(r'<script type="application/json" id="roofline-data">(.*?)</script>', page, re.S)
check(data and len(json.loads(data.group(1))["points"]) == n, "HTML: the data does not hold every point")
inline = re.search(r'<div id="chart">\n(.*?)</div>\n', page, re.S)
check(inline is not None, "HTML: no inline SVG")
if inline:
    tips = [g for g in ET.fromstring(inline.group(1)).iter(ns + "g") if (g.get("data-tip") or "").startswith("p")]
    check(len(tips) == n, f"HTML: {len(tips)} points with tooltips, want {n}")
sys.exit(0 if ok else 1)
EOF

# 50 points above their roof: 20 named, the rest counted, not 50 warnings (or 100,000).
python3 - "$tmp/above.json" <<'EOF'
import json, sys
points = [{"name": f"fast {i}", "flops": 1e12, "bytes": {"DRAM": 1e9}, "seconds": 1.0, "threads": 2} for i in range(50)]
json.dump({"schema": "roofline.points/1", "points": points}, open(sys.argv[1], "w"))
EOF
timeout 120 "$bin" plot --machine "$src/examples/machines/opteron_x4.yaml" --points "$tmp/above.json" \
  -o "$tmp/above.svg" -q >"$tmp/err" 2>&1 || { echo "FAIL: plot of points above the roof: $(head -c 300 "$tmp/err")"; fail=1; }
named=$(grep -c "point 'fast" "$tmp/err")
if [[ $named -ne 20 ]] || ! grep -q "30 more points above their roof" "$tmp/err"; then
  echo "FAIL: points above the roof: $named named (want 20), output: $(tail -c 300 "$tmp/err")"; fail=1
fi

[[ $fail -eq 0 ]] && echo "ok: $n points make valid SVG and HTML charts with every marker"
exit $fail
