# Sourced by smoke.sh and soak.sh: BUILD (first argument) and the targets (the rest,
# default every target built in BUILD/fuzz), the sanitizer options of a fuzz run,
# and BUILD/fuzz-logs. Sets build, src, targets.
build=$(cd "$1" && pwd); shift
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in "$build"/fuzz/*_fuzz; do targets+=("$(basename "$f" _fuzz)"); done
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-logs"
