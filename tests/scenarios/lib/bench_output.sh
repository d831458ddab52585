# Sourced by scenarios that run bench. A failing scenario prints the run's output without its
# progress lines ("[ 12/80] memory L1 load ..."): a bench prints one per figure and burst, and a
# CI log that keeps only the head and tail of a test's output once cut away the errors that said
# why the run failed.
bench_output() { grep -v -E '^\[ *[0-9]+/[0-9]+\]' "$@" || true; }
