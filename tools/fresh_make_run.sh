#!/usr/bin/env bash
# How long `make run` takes on a fresh Debian 12 (issue 34 asks <= 5 minutes on a clean 2-core
# guest): makes a minimal Debian 12 (debootstrap --variant=minbase) in a temporary directory,
# installs make and git in it, clones HEAD of REPO (default: this checkout), and runs
# `time make run` there, chrooted. Prints the total and each phase, read from the time each
# line of make's output appeared: packages (install-deps.sh run, and CMake's configure, which
# writes to a log), build (first compile to the last target), bench (roofline bench --quick).
# The machine's load average before and after is printed with them: on a shared machine the
# build's share of the cores is what the figure measures.
# Mounts (/proc, /sys, /dev) live in a private mount namespace and end with the script; the
# image is removed unless KEEP=1. Needs root, debootstrap and the Debian mirror
# (DEBIAN_MIRROR overrides deb.debian.org). Takes minutes.
# Usage: tools/fresh_make_run.sh [REPO]
set -euo pipefail
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[[ $(id -u) == 0 ]] || { echo "fresh_make_run: needs root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "fresh_make_run: apt-get install debootstrap first" >&2; exit 1; }

tmp=$(mktemp -d /var/tmp/roofline-fresh.XXXXXX)
[[ ${KEEP:-0} == 1 ]] && echo "image kept in $tmp" || trap 'rm -rf --one-file-system "$tmp"' EXIT
root=$tmp/root
echo "debootstrap of Debian 12 (minbase) into $root ..."
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
  { tail -20 "$tmp/debootstrap.log"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
git clone -q "$repo" "$root/root/roofline"
echo "clone of $(git -C "$root/root/roofline" log --oneline -1)"

cat >"$root/root/inside.sh" <<'INSIDE'
set -eu
export DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
apt-get update -qq && apt-get install -y -qq --no-install-recommends make git ca-certificates >/dev/null 2>&1
cd /root/roofline
start=$(date +%s)
# Each line of make's output with the seconds since the start: the phases are read from them.
{ time make run; } 2>&1 | while IFS= read -r line; do printf '%5d %s\n' $(($(date +%s) - start)) "$line"; done
INSIDE

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
unshare --mount --propagation private bash -c '
  root=$1
  mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" && mount --bind /dev "$root/dev" || exit 90
  chroot "$root" bash /root/inside.sh' _ "$root" | tee "$tmp/make-run.log"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The second of the first line matching $1 (empty when none).
at() { awk -v re="$1" '$0 ~ re { print $1; exit }' "$tmp/make-run.log"; }
build=$(at '\\[ *[0-9]+%\\] Building')
bench=$(at 'roofline bench --quick')
total=$(awk '{ s = $1 } END { print s }' "$tmp/make-run.log")
echo
echo "make run on a fresh Debian 12, $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
printf '  packages and configure  %4d s\n' "${build:-0}"
printf '  build                   %4d s\n' "$((${bench:-0} - ${build:-0}))"
printf '  bench --quick           %4d s\n' "$((total - ${bench:-0}))"
printf '  total                   %4d s   (%s)\n' "$total" "$(grep -E '^ *[0-9]+ (real|user|sys)' "$tmp/make-run.log" | awk '{ printf "%s %s  ", $2, $3 }')"
echo "  load average (1, 5, 15 min) before: $load_before; after: $load_after"
