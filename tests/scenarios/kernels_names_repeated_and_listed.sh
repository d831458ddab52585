#!/usr/bin/env bash
# roofline kernels: a kernel named twice, or a size given twice, runs once and a note says so
# ('kernels daxpy daxpy --sizes 16K,16K' announced "2 kernels at 2 sizes" and ran one point,
# unsaid); 'kernels --list NAME' lists that kernel (or the ones a pattern matches), where it
# listed every kernel whatever was named; and a name no kernel has is an error listing them.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
export HOME=$tmp/home ROOFLINE_DB=$tmp/r.db
mkdir -p "$HOME"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; fail=1; }

# Repeated names and sizes (16K and 16384 are one size): one point each, announced as such.
"$bin" kernels daxpy daxpy --sizes 16K,16384,32K,16K --samples 1 --no-store -o "$tmp/k.json" >"$tmp/out" 2>"$tmp/err" ||
  bad "kernels daxpy daxpy: exit $?"
grep -q "^roofline: note: daxpy is named twice: it runs once$" "$tmp/err" || bad "the repeated name is not said"
grep -q "^roofline: note: --sizes gives 16 KiB 3 times: each size runs once$" "$tmp/err" ||
  bad "the repeated size is not said"
grep -q "roofline kernels: 1 kernel at 2 sizes," "$tmp/err" || bad "the announcement does not count each once"
[[ $(jq '.points | length' "$tmp/k.json") == 2 ]] || bad "-o holds $(jq '.points | length' "$tmp/k.json") points, want 2"
[[ $(grep -c '^daxpy ' "$tmp/out") == 2 ]] || { cat "$tmp/out" >>"$tmp/err"; bad "the table has not 2 rows"; }
# A pattern and a name of the same kernel: once, said with what chose it.
"$bin" kernels 'sum_sp*' sum_sp_simd --sizes 16K --samples 1 --no-store >"$tmp/out" 2>"$tmp/err" || bad "kernels 'sum_sp*' sum_sp_simd: exit $?"
grep -q "^roofline: note: sum_sp_simd is chosen by 'sum_sp\*' and 'sum_sp_simd': it runs once$" "$tmp/err" ||
  bad "the kernel a pattern and a name chose is not said"
[[ $(grep -c '^sum_sp_' "$tmp/out") == 3 ]] || { cat "$tmp/out" >>"$tmp/err"; bad "not 3 rows of sum_sp_*"; }
# A --param value given twice: the same.
"$bin" kernels atb_ours --param m=8,16,8 --sizes 64K --samples 1 --no-store >"$tmp/out" 2>"$tmp/err" || bad "--param m=8,16,8: exit $?"
grep -q "^roofline: note: --param m gives 8 more than once: each value runs once$" "$tmp/err" || bad "the repeated --param value is not said"
[[ $(grep -c '^atb_ours m=' "$tmp/out") == 2 ]] || { cat "$tmp/out" >>"$tmp/err"; bad "not 2 rows of atb_ours"; }
# -q: the notes are left out, the points not.
"$bin" kernels daxpy daxpy --sizes 16K,16K --samples 1 --no-store -q >"$tmp/out" 2>"$tmp/err" || bad "-q: exit $?"
grep -q "note:" "$tmp/err" && bad "-q still says notes"

# --list NAME: that kernel only; a pattern: those it matches; none: all of them.
list_names() { "$bin" kernels --list "$@" 2>"$tmp/err" | grep -o '^[a-z0-9_]*' | grep . | tr '\n' ' '; }
[[ $(list_names daxpy) == "daxpy " ]] || bad "--list daxpy lists: $(list_names daxpy)"
[[ $(list_names 'stream_*') == "stream_copy stream_scale stream_add stream_triad " ]] ||
  bad "--list 'stream_*' lists: $(list_names 'stream_*')"
[[ $(list_names ddot daxpy ddot) == "ddot daxpy " ]] || bad "--list ddot daxpy ddot lists: $(list_names ddot daxpy ddot)"
[[ $(list_names | wc -w) -ge 20 ]] || bad "--list alone lists $(list_names | wc -w) kernels"
# A name no kernel has, or a pattern none matches: exit 2, the kernels listed, nothing on stdout.
for name in daxpi 'zz*'; do
  for cmd in "--list $name" "$name --no-store"; do
    # shellcheck disable=SC2086
    "$bin" kernels $cmd >"$tmp/out" 2>"$tmp/err"; code=$?
    [[ $code == 2 ]] || bad "kernels $cmd: exit $code, want 2"
    grep -q "the kernels: stream_copy, stream_scale, .*, daxpy, .*spmv_random" "$tmp/err" || bad "kernels $cmd: the kernels are not listed"
    [[ -s $tmp/out ]] && { cat "$tmp/out" >>"$tmp/err"; bad "kernels $cmd: something on stdout"; }
  done
done
"$bin" kernels --list daxpi 2>&1 | grep -q "^roofline: error: no kernel 'daxpi' (did you mean 'daxpy'?)" ||
  { "$bin" kernels --list daxpi 2>"$tmp/err"; bad "--list daxpi: no suggestion"; }
"$bin" kernels --list 'zz*' 2>&1 | grep -q "^roofline: error: no kernel matches 'zz\*'" ||
  { "$bin" kernels --list 'zz*' 2>"$tmp/err"; bad "--list 'zz*': not said"; }
# --list runs nothing: an option of a run given with it is refused, not taken and ignored
# ('kernels --list daxpy -o k.txt' printed the list and wrote no k.txt); a configured one is no option given.
for opt in "-o $tmp/k.txt" "--sizes 1K" "--samples 3" "--db $tmp/other.db" "--no-store" "--rerun"; do
  # shellcheck disable=SC2086
  "$bin" kernels --list daxpy $opt >"$tmp/out" 2>"$tmp/err"; code=$?
  [[ $code == 2 ]] || bad "kernels --list daxpy $opt: exit $code, want 2"
  grep -q "^roofline: error: ${opt%% *} has no effect with --list, which prints the kernels to standard output and runs none" "$tmp/err" ||
    bad "kernels --list daxpy $opt: not said"
done
[[ -e $tmp/k.txt || -e $tmp/other.db ]] && bad "kernels --list wrote a file"
mkdir -p "$tmp/project" && printf 'kernels:\n  samples: 3\n  sizes: 1K\n' >"$tmp/project/roofline.yaml"
(cd "$tmp/project" && "$bin" kernels --list daxpy >"$tmp/out" 2>"$tmp/err") || bad "kernels --list with kernels settings configured: exit $?"
grep -q "^daxpy " "$tmp/out" || bad "kernels --list with kernels settings configured: no daxpy"
# --help says all of it.
"$bin" kernels --help >"$tmp/err" 2>&1
grep -q "a kernel named or matched more than once runs once" "$tmp/err" || bad "--help: repeated names"
grep -q "a size given more than once runs once" "$tmp/err" || bad "--help: repeated sizes"
grep -q "every one, or those the names given" "$tmp/err" || bad "--help: --list NAME"
[[ $fail -eq 0 ]] && echo "ok: repeated kernels and sizes run once and are said; --list lists what is named"
exit $fail
