# Sourced by the configuration scenarios: a fresh home, project directory, system file and
# results store, with no ROOFLINE_* variable or XDG_CONFIG_HOME of the caller's leaking in.
# Sets tmp (removed at exit) and fail=0; leaves the shell in "$tmp/project".
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir -p "$tmp/home" "$tmp/project"
cd "$tmp/project" || exit 1
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
unset XDG_CONFIG_HOME
export HOME=$tmp/home ROOFLINE_SYSTEM_CONFIG=$tmp/system.yaml ROOFLINE_DB=$tmp/r.db
