# Sourced by the scenarios that need a small file system of their own (a full
# disk, a read-only mount); not a scenario itself (only scenarios/*.sh run).
# scratch_tmpfs SIZE: makes $tmp (removed at exit) and mounts a tmpfs of SIZE
# at $tmp/mnt (unmounted at exit), or exits 77 (skipped) where that cannot be
# done: not root, no sqlite3 command to inspect stores, no tmpfs.
scratch_tmpfs() {
  [[ $(id -u) -eq 0 ]] || { echo "skip: mounting a tmpfs needs root"; exit 77; }
  command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 command"; exit 77; }
  tmp=$(mktemp -d)
  mkdir -p "$tmp/mnt"
  if ! mount -t tmpfs -o "size=$1" tmpfs "$tmp/mnt" 2>/dev/null; then
    rm -rf "$tmp"; echo "skip: cannot mount a tmpfs here"; exit 77
  fi
  trap 'umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
}
