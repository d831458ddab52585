#!/usr/bin/env bash
# Issue 33: an -o that cannot take the results (/dev/full, an immutable or append-only
# file, a file system full from the start) stops bench, kernels and measure before they
# measure anything (exit 1, the file and the reason), as a missing directory already did;
# before, the whole run happened and only then were the results rescued elsewhere.
# /dev/null and an ordinary file still go ahead.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
mnt=$tmp/full
cleanup() {
  mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
  chattr -i -a "$tmp/immutable" "$tmp/append" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
fail=0
ran=$tmp/ran

# refused REGEX DEST: each command is refused with REGEX, having measured nothing.
refused() {
  local want=$1 dest=$2
  rm -f "$ran"
  timeout 60 "$bin" measure --engine time --no-store -o "$dest" -- sh -c "touch '$ran'" >out 2>err; code=$?
  if [[ $code -ne 1 ]] || ! grep -Eq "$want" err || [[ -e $ran ]]; then
    echo "FAIL: measure -o $dest: exit $code (want 1), program ran: $([[ -e $ran ]] && echo yes || echo no)"
    sed 's/^/  | /' err; fail=1
  fi
  # Without -q, kernels prints each point as it is measured: nothing may be printed.
  timeout 60 "$bin" kernels sum_sp_scalar --sizes 4K --no-store -o "$dest" >out 2>err; code=$?
  if [[ $code -ne 1 ]] || ! grep -Eq "$want" err || grep -q sum_sp_scalar out; then
    echo "FAIL: kernels -o $dest: exit $code (want 1), before measuring:"; sed 's/^/  | /' out err; fail=1
  fi
  timeout 60 "$bin" bench --no-store --svg '' -o "$dest" >out 2>err; code=$?
  if [[ $code -ne 1 ]] || ! grep -Eq "$want" err || grep -qi measuring err; then
    echo "FAIL: bench -o $dest: exit $code (want 1), before measuring:"; sed 's/^/  | /' err; fail=1
  fi
  timeout 60 "$bin" bench --no-store -o "$tmp/m.json" --svg "$dest" >out 2>err; code=$?
  if [[ $code -ne 1 ]] || ! grep -Eq "$want" err || grep -qi measuring err; then
    echo "FAIL: bench --svg $dest: exit $code (want 1), before measuring:"; sed 's/^/  | /' err; fail=1
  fi
}

if [[ -c /dev/full ]]; then
  refused 'cannot write /dev/full: the device refuses writes \(No space left on device\)' /dev/full
  echo "ok: -o /dev/full is refused before the run"
else
  echo "skip: no /dev/full"
fi

# chattr needs a file system that keeps the flags, and CAP_LINUX_IMMUTABLE.
touch immutable append
if chattr +i immutable 2>/dev/null && chattr +a append 2>/dev/null; then
  refused "cannot write $tmp/immutable: the file is immutable \(chattr \+i\), so it cannot be replaced" "$tmp/immutable"
  refused "cannot write $tmp/append: the file is append-only \(chattr \+a\), so it cannot be replaced" "$tmp/append"
  echo "ok: immutable and append-only -o files are refused before the run"
else
  echo "skip (immutable files): chattr +i/+a does not work here"
fi

# A file system full before the run starts.
mkdir -p "$mnt"
if [[ $(id -u) -eq 0 ]] && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
  dd if=/dev/zero of="$mnt/filler" bs=4k >/dev/null 2>&1  # until ENOSPC
  refused "cannot write $mnt/m.json: a test write in $mnt failed \(No space left on device\)" "$mnt/m.json"
  [[ -e $mnt/m.json ]] && { echo "FAIL: $mnt/m.json was created"; fail=1; }
  [[ -z $(find "$mnt" -name '.m.json.tmp*') ]] || { echo "FAIL: the probe left a file behind"; fail=1; }
  echo "ok: -o on a full file system is refused before the run"
else
  echo "skip (full file system): cannot mount a small tmpfs here (needs root)"
fi

# What can take the results still goes ahead.
for dest in /dev/null "$tmp/p.json"; do
  rm -f "$ran"
  timeout 60 "$bin" measure --engine time --no-store -q -o "$dest" -- sh -c "touch '$ran'" >out 2>err ||
    { echo "FAIL: measure -o $dest refused:"; sed 's/^/  | /' err; fail=1; }
  [[ -e $ran ]] || { echo "FAIL: measure -o $dest did not run the program"; fail=1; }
done
[[ -s $tmp/p.json ]] || { echo "FAIL: measure -o p.json wrote nothing"; fail=1; }

[[ $fail -eq 0 ]] && echo "ok: destinations that cannot take the results stop the run before it starts"
exit $fail
