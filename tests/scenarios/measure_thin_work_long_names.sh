#!/usr/bin/env bash
# Work spread thin over long C++ names: 300 instantiations of one template, each with 1/300 of
# the FLOPs and a 250-character name. `measure --functions` at the default --min-share 1 listed
# next to none of them and said nothing of the rest; now a line after the table says what the
# rows hold, what the others hold, and what a lower --min-share lists. Their points on a chart
# printed the names whole (the terminal chart's key lines cut at 400 characters, the figures
# lost; the SVG found room for no label): now labels and key are shortened, still told apart,
# and the HTML page's data keeps the whole names.
# SKIPPED (exit 77) without a C++ compiler, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v c++ >/dev/null || { echo "SKIPPED: no C++ compiler"; exit 77; }
n=300
{
  cat <<'EOF'
#include <cstdio>
#include <map>
#include <string>
#include <vector>
namespace physics::solvers::detail {
enum class Mode { Fast, Slow };
template <int K, class T, Mode M>
struct Kernel {
    __attribute__((noinline)) static T apply(std::vector<T, std::allocator<T>>& v,
                                             const std::map<std::string, std::vector<T>>& m) {
        T s = T(0);
        for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * T(K) + T(1);
        return s + T(m.size());
    }
};
}
using namespace physics::solvers::detail;
std::vector<float> v(2000, 1.5f);
std::map<std::string, std::vector<float>> m;
double total = 0;
template <int K> void run() { total += Kernel<K, float, Mode::Slow>::apply(v, m); run<K - 1>(); }
template <> void run<0>() {}
int main() {
EOF
  echo "    for (int r = 0; r < 10; ++r) run<$n>();"
  echo '    std::printf("%g\n", total);'
  echo '}'
} >thin.cpp
c++ -O1 -g -ftemplate-depth=2000 -o thin thin.cpp || fail "cannot build the program of $n instantiations"

# 1. The table at --min-share 1, and the line after it.
out=$("$bin" measure --engine instrument --functions --no-store -- ./thin 2>&1) || fail "measure --functions"
title=$(grep -E '^functions with at least 1% ' <<<"$out") || fail "no --functions table"
listed=$(sed -nE 's/.*\(([0-9]+) of [0-9]+; --min-share.*/\1/p' <<<"$title")
rows=$(awk '/^functions with at least/ {t=1; next} t && /^  / {next} t && !h {h=1; next} t && /^the [0-9]+ functions? listed|^no function listed/ {exit} t && NF {n++} END {print n+0}' <<<"$out")
[[ $rows -eq $listed ]] || fail "the title says $listed functions, the table has $rows rows"
line=$(grep -E '^(the [0-9]+ functions? listed holds? |no function listed)' <<<"$out") ||
  fail "no line after the table saying what it holds and leaves out"
re='^the ([0-9]+) functions? listed holds? ([0-9.e+-]+)% of the FLOPs( and [0-9.]+% of the sampled CPU time)?; ([0-9]+) more holds? ([0-9.e+-]+)% of the FLOPs, the largest of them ([0-9.e+-]+)%: --min-share ([0-9.e+-]+) lists ([0-9]+) more$'
[[ $line =~ $re ]] || fail "the line reads otherwise: $line"
said=${BASH_REMATCH[1]} held=${BASH_REMATCH[2]} more=${BASH_REMATCH[4]} rest=${BASH_REMATCH[5]}
largest=${BASH_REMATCH[6]} lower=${BASH_REMATCH[7]} lists=${BASH_REMATCH[8]}
all=$(sed -nE 's/.*\([0-9]+ of ([0-9]+); --min-share.*/\1/p' <<<"$title")
[[ $said -eq $listed ]] || fail "the line says $said listed, the table $listed"
[[ $((said + more)) -le $all ]] || fail "$said listed and $more more, of $all functions"
awk -v a="$held" -v b="$rest" 'BEGIN {exit !(a + b > 99.8 && a + b < 100.2)}' ||
  fail "the listed ($held%) and the others ($rest%) do not make the program's FLOPs"
# Each instantiation does the same FLOPs, which are nearly all the program's: 1/300 each.
awk -v z="$largest" 'BEGIN {exit !(z > 0.30 && z < 0.34)}' || fail "the largest left out holds $largest%, want about 0.333%"
awk -v s="$lower" -v z="$largest" 'BEGIN {exit !(s > 0 && s <= z)}' || fail "--min-share $lower offered, above the largest left out ($largest%)"
# What the lower --min-share lists: every instantiation by its FLOPs (the sampled time adds a few).
out=$("$bin" measure --engine instrument --functions --no-store --min-share "$lower" -- ./thin 2>&1) ||
  fail "measure --functions --min-share $lower"
relisted=$(sed -nE 's/^functions with at least .*\(([0-9]+) of [0-9]+; --min-share.*/\1/p' <<<"$out")
[[ $relisted -ge $n && $((said + lists)) -ge $n ]] ||
  fail "--min-share $lower lists $relisted functions; the line said $said + $lists"

# 2. Their points on the charts.
"$bin" measure --engine instrument --functions --no-store --min-share 0.05 -o p.json -- ./thin >measure.log 2>&1 ||
  { out=$(cat measure.log); fail "measure --min-share 0.05 -o p.json"; }
machine=$src/examples/machines/example_85_8.yaml
out=$("$bin" plot --points p.json --machine "$machine" --format term --width 100 --height 30 --no-color -o chart.txt 2>&1) ||
  fail "plot --format term"
out=$(cat chart.txt)
# A key line: its letter, a name of at most 50 characters (half the width), its GFLOP/s and intensities.
longest=$(awk '/physics::/ {if (length > m) m = length} END {print m+0}' chart.txt)
[[ $longest -le 120 ]] || fail "a line of $longest characters naming a point in a terminal chart 100 wide"
key=$(grep -E '^[A-Z] physics::' chart.txt)
[[ $(wc -l <<<"$key") -ge 20 ]] || fail "fewer than 20 instantiations in the key"
grep -vq 'GFLOP/s' <<<"$key" && fail "a key line without its point's GFLOP/s"
names=$(sed -E 's/^[A-Z] (.*): [0-9.e+-]+ GFLOP\/s.*/\1/' <<<"$key")
[[ $(sort -u <<<"$names" | wc -l) -eq $(wc -l <<<"$names") ]] || fail "two points read the same in the key"
grep -q 'allocator' chart.txt && fail "a whole parameter list in the terminal chart"
out=$("$bin" plot --points p.json --machine "$machine" --format svg -o chart.svg 2>&1) || fail "plot --format svg"
out=$(grep -o '<text[^>]*>[^<]*</text>' chart.svg | sed -E 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g')
labels=$(grep -c 'class="plabel[^>]*>physics::' chart.svg)
[[ $labels -ge 1 ]] || fail "no instantiation's label in the SVG (whole, the names had no room)"
longest=$(awk '/physics::/ {if (length > m) m = length} END {print m+0}' <<<"$out")
[[ $longest -le 60 ]] || fail "an SVG label of $longest characters"
out=$("$bin" plot --points p.json --machine "$machine" --format html -o chart.html 2>&1) || fail "plot --format html"
grep -q 'apply(std::vector\\u003cfloat, std::allocator\\u003cfloat\\u003e \\u003e\\u0026, std::map' chart.html ||
  { out=""; fail "the HTML page's data lost the whole names"; }
echo "ok: '$line'; key lines and SVG labels short and apart, the HTML data whole"
