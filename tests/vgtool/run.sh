#!/bin/bash
# ctest driver for the Valgrind tool tests: run.sh TOOL_DIR CASE BINARY [ARGS...]
# (run.sh TOOL_DIR CACHE CASE BINARY: the cache simulation tests, check_cache.py;
#  run.sh TOOL_DIR CACHE_THREADS BINARY: thread placement, check_cache_threads.py;
#  run.sh TOOL_DIR CACHE_REGIONS CASE BINARY: marker regions' cache traffic, check_cache_regions.py;
#  run.sh TOOL_DIR BAD_OPTIONS BINARY: wrong cache options stop with a message, bad_options.sh;
#  run.sh TOOL_DIR PER_INSTRUCTION BINARY: --roofline-per-instruction, check_per_instruction.py;
#  run.sh TOOL_DIR REGION_DETAIL BINARY: a region's counts by instruction, check_region_detail.py;
#  run.sh TOOL_DIR FUNCTION_EXITS BINARY: function regions left by signals and longjmp, check_function_exits.py)
# Exit 77 (skipped) when valgrind, the tool, or python3 is missing.
tool_dir=$1
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind not installed (needed for the instrument engine tests)"; exit 77
fi
if [ ! -x "$tool_dir/roofline-amd64-linux" ]; then
  echo "SKIP: roofline Valgrind tool not built in $tool_dir"; exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 not found (used to check the JSON output)"; exit 77
fi
if [ "${2:-}" = BAD_OPTIONS ]; then
  exec bash "$(dirname "$0")/bad_options.sh" "$1" "${@:3}"
fi
if [ "${2:-}" = PER_INSTRUCTION ]; then
  exec python3 "$(dirname "$0")/check_per_instruction.py" "$1" "${@:3}"
fi
if [ "${2:-}" = REGION_DETAIL ]; then
  exec python3 "$(dirname "$0")/check_region_detail.py" "$1" "${@:3}"
fi
if [ "${2:-}" = FUNCTION_EXITS ]; then
  exec python3 "$(dirname "$0")/check_function_exits.py" "$1" "${@:3}"
fi
if [ "${2:-}" = CACHE_THREADS ]; then
  exec python3 "$(dirname "$0")/check_cache_threads.py" "$1" "${@:3}"
fi
if [ "${2:-}" = CACHE_REGIONS ]; then
  exec python3 "$(dirname "$0")/check_cache_regions.py" "$1" "${@:3}"
fi
if [ "${2:-}" = CACHE ]; then
  exec python3 "$(dirname "$0")/check_cache.py" "$1" "${@:3}"
fi
exec python3 "$(dirname "$0")/check_vgtool.py" "$@"
