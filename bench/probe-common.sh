# probe-common.sh — sourced by bench/peak-probe.sh and bench/load-probe.sh:
# the tools they need and their work directory (kept with --keep, else a temp dir removed at exit).
# Usage: probe_setup NAME KEEP_DIR   sets $here (bench/) and $work.
probe_setup() {
    local name=$1 keep_dir=$2
    command -v gcc >/dev/null || { echo "$name: gcc is needed" >&2; exit 1; }
    command -v python3 >/dev/null || { echo "$name: python3 is needed" >&2; exit 1; }
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    if [[ -n "$keep_dir" ]]; then
        mkdir -p "$keep_dir"; work=$(cd "$keep_dir" && pwd)
    else
        work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
        # shellcheck disable=SC2064  # expand now: $work is fixed from here on
        trap "rm -rf '$work'" EXIT
    fi
}
