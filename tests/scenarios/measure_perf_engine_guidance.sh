#!/usr/bin/env bash
# --engine perf: on a machine without hardware counters (as these VMs) it must
# fail with guidance; on one with counters it must run and report the perf engine.
set -u
bin=$1
out=$("$bin" measure --engine perf --no-store -- true 2>&1)
code=$?
if [[ $code -eq 0 ]]; then
  grep -q "engine: perf" <<<"$out" || { echo "FAIL: ran, but did not say it used the perf engine"; echo "$out"; exit 1; }
  echo "ok: hardware counters present, perf engine ran"
  exit 0
fi
[[ $code -eq 1 ]] || { echo "FAIL: exit $code, expected 1"; echo "$out"; exit 1; }
grep -q "perf_event_paranoid" <<<"$out" || { echo "FAIL: no guidance about perf_event_paranoid"; echo "$out"; exit 1; }
echo "ok: no hardware counters; guidance printed"
