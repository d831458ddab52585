#!/usr/bin/env bash
# The Debian package on a clean machine (issue 15): packs the build with CPack, makes a minimal
# Debian 12 (debootstrap --variant=minbase) in a temporary directory, and in it, chrooted:
# apt-get install ./roofline_*.deb (apt resolves the Depends from the Debian mirror), runs the
# installed tool (topology, measure with the Valgrind tool from /usr/libexec/roofline, model),
# then apt-get purge and checks that every file the package installed is gone.
# Mounts (/proc, /sys) live in a private mount namespace, so they end with the test whatever
# happens. Needs root, debootstrap and the Debian mirror apt uses (ROOFLINE_TEST_DEBIAN_MIRROR
# overrides it); SKIPPED (77) without them.
# Usage: deb_clean_machine.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }
[[ $(id -u) == 0 ]] || skip "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (Debian: debootstrap)"
command -v cpack >/dev/null || skip "cpack is not installed"
[[ -e $build/vgtool/roofline-amd64-linux ]] || skip "the Valgrind tool is not built"
unshare --mount true 2>/dev/null || skip "no private mount namespace for the chroot's /proc"
mirror=${ROOFLINE_TEST_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}
host=$(echo "$mirror" | sed -E 's#^[a-z]+://([^/:]+).*#\1#')
timeout 15 bash -c "exec 3<>/dev/tcp/$host/80" 2>/dev/null || skip "the Debian mirror $mirror cannot be reached"

tmp=$(mktemp -d /var/tmp/roofline-deb.XXXXXX); trap 'rm -rf --one-file-system "$tmp"' EXIT

cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack"; }
deb=$(ls "$tmp"/pkg/roofline_*_amd64.deb 2>/dev/null | head -1)
[[ -n $deb ]] || { cat "$tmp/cpack.log"; fail "cpack wrote no roofline_*_amd64.deb"; }
depends=$(dpkg-deb -f "$deb" Depends)
for needed in valgrind libhwloc libsqlite3 libyaml-cpp libfmt libdw libopenblas libfftw3 libpq; do
  [[ $depends == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done
echo "package: $(basename "$deb"), Depends: $depends"

root=$tmp/root
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
  { tail -20 "$tmp/debootstrap.log"; fail "debootstrap of a clean Debian 12 failed"; }
cp "$deb" "$root/tmp/"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null

cat >"$root/tmp/inside.sh" <<'INSIDE'
set -u
export DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
fail() { echo "FAIL (in the clean machine): $*"; exit 1; }
deb=$(ls /tmp/roofline_*_amd64.deb)
apt-get update -qq >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get update"; }
apt-get install -y -qq --no-install-recommends "$deb" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install ./$(basename "$deb")"; }
dpkg -L roofline >/tmp/files.txt || fail "dpkg does not know roofline after the install"
cd /tmp
roofline --version || fail "roofline --version"
roofline topology >/tmp/out.txt 2>&1 || { cat /tmp/out.txt; fail "roofline topology"; }
roofline model --peak 80 --bw 20 --intensity 2 >/tmp/out.txt 2>&1 || { cat /tmp/out.txt; fail "roofline model"; }
roofline measure --engine instrument --no-store -o /tmp/points.json -- /bin/ls / >/tmp/out.txt 2>&1 ||
  { cat /tmp/out.txt; fail "measure --engine instrument (the Valgrind tool in /usr/libexec/roofline)"; }
grep -q '"(program)"' /tmp/points.json || fail "measure wrote no whole-program point"
[[ -e /usr/lib/systemd/system/roofline-monitor.service ]] && grep -q '^ExecStart=/usr/bin/roofline ' /usr/lib/systemd/system/roofline-monitor.service ||
  fail "the systemd unit does not name /usr/bin/roofline"
apt-get purge -y -qq roofline >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get purge roofline"; }
dpkg -s roofline >/dev/null 2>&1 && fail "dpkg still lists roofline after the purge"
left=0
while read -r f; do
  [[ -e $f || -L $f ]] || continue
  [[ -d $f && ! -L $f ]] && { [[ -z $(ls -A "$f") || $f != *roofline* ]] && continue; }  # shared directories stay
  echo "left behind: $f"; left=1
done </tmp/files.txt
((left == 0)) || fail "files of the package remain after apt-get purge"
echo "installed, ran and purged cleanly ($(wc -l </tmp/files.txt) paths)"
INSIDE

unshare --mount --propagation private bash -c '
  root=$1
  mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" || exit 90
  mount --bind /dev "$root/dev" || exit 90
  chroot "$root" bash /tmp/inside.sh' _ "$root"
code=$?
[[ $code == 90 ]] && fail "could not mount /proc, /sys and /dev in the clean machine"
((code == 0)) || fail "the package in the clean machine (exit $code)"
echo "ok: $(basename "$deb") installs, runs and is removed cleanly on a fresh Debian 12"
