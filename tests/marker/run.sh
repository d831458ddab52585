#!/usr/bin/env bash
# Drives one marker test case: runs the test programs and checks their JSON with jq.
# Usage: run.sh <case> <args...>   (see CMakeLists.txt)
set -euo pipefail
case_name=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset ROOFLINE_MARKER_OUT ROOFLINE_PERF_EVENTS

fail() { echo "FAIL: $*" >&2; [[ -n ${json:-} && -f $json ]] && cat "$json" >&2; exit 1; }
# check <jq expression that must be true> <description>
check() { jq -e "$1" "$json" >/dev/null || fail "$2 ($1)"; }

case $case_name in
basic)
  for mode in finalize exit; do
    json=$tmp/$mode.json
    if [[ $mode == finalize ]]; then arg=finalize; else arg=; fi
    ROOFLINE_MARKER_OUT=$json "$1" $arg
    [[ -f $json ]] || fail "$mode: no output written"
    check '.schema == "roofline.marker/1"' "schema"
    check 'def r(n): .regions[] | select(.name == n);
           r("outer").calls == 1 and r("outer").threads == 1 and r("outer").seconds >= 0.06' "outer"
    check 'def r(n): .regions[] | select(.name == n);
           r("inner").calls == 3 and r("inner").seconds >= 0.06
           and r("outer").seconds >= r("inner").seconds' "inner nested in outer"
    check 'def r(n): .regions[] | select(.name == n);
           r("worker").calls == 2 and r("worker").threads == 2
           and (r("worker").thread_seconds | length == 2 and all(. >= 0.03))
           and r("worker").seconds >= (r("worker").thread_seconds | max)
           and r("worker").seconds <= (r("worker").thread_seconds | add)' "worker on 2 pthreads (wall time: at least the longest, at most the sum)"
    check 'def r(n): .regions[] | select(.name == n); r("a").calls == 1 and (r("a") | has("unclosed") | not)' "a closed"
    check '[.errors[] | select(test("end of region .b. while .a."))] | length == 1' "mismatched end reported"
    check '[.errors[] | select(test("never_opened"))] | length == 1' "end without begin reported"
    check 'def r(n): .regions[] | select(.name == n);
           r("left \"open\"").unclosed == 1 and r("left \"open\"").seconds >= 0.01' "unclosed region closed and flagged"
    check '[.errors[] | select(test("still open"))] | length == 1' "unclosed region reported"
    check '[.regions[] | select(.name == "after_finalize")] | length == 0' "nothing after finalize"
    check '[.regions[] | select(.name == "b" or .name == "never_opened")] | length == 0' "bad ends make no region"
    check 'all(.regions[]; has("counters") | not)' "no counters without perf engine"
    # What measure subtracts the calls' own cost for: each outermost call, each region opened inside.
    check 'def r(n): .regions[] | select(.name == n);
           r("outer").outermost_calls == 1 and r("outer").inner_calls == 3
           and r("inner").outermost_calls == 3 and r("inner").inner_calls == 0' "outermost and inner calls"
    # The calls' own cost, measured at the library's start; its regions are never written.
    check '(.calibration.region_ns | length) >= 5 and (.calibration.region_ns | all(. > 0))
           and (.calibration.begin_ns | length) == (.calibration.region_ns | length)
           and (.calibration.nested_ns | length) == (.calibration.region_ns | length)
           and .calibration.pairs >= 16 and .calibration.seconds > 0
           and (.calibration | has("counters") | not)' "calibration of the calls"
    check '[.regions[] | select(.name | startswith("(roofline marker calls"))] | length == 0' "calibration regions not written"
  done
  ;;
raii)
  json=$tmp/out.json
  ROOFLINE_MARKER_OUT=$json "$1"
  check 'def r(n): .regions[] | select(.name == n);
         r("parallel").calls == 6 and r("parallel").threads == 3
         and (r("parallel").thread_seconds | all(. >= 0.02)) and r("parallel").seconds >= 0.02' "parallel on 3 std::threads"
  check 'def r(n): .regions[] | select(.name == n);
         r("rec").calls == 4 and r("rec").seconds >= 0.02
         and r("rec").seconds <= r("rec_outer").seconds' "recursion counted once (inclusive)"
  check 'def r(n): .regions[] | select(.name == n);
         r("rec").outermost_calls == 1 and r("rec").inner_calls == 3 and r("rec_outer").inner_calls == 4' \
    "a recursion: one outermost call, its inner calls inside it"
  check 'def r(n): .regions[] | select(.name == n); r("dyn_0").calls == 1 and r("dyn_1").calls == 1' "std::string names"
  check '.errors == []' "no errors"
  ;;
likwid)
  json=$tmp/likwid.json
  ROOFLINE_MARKER_OUT=$json "$1" | grep -q "compute count=3"
  ROOFLINE_MARKER_OUT=$tmp/twin.json "$2"
  shape='[.regions[] | {name, calls, threads}]'
  [[ "$(jq -c "$shape" "$json")" == "$(jq -c "$shape" "$tmp/twin.json")" ]] ||
    fail "LIKWID program and roofline twin differ: $(jq -c "$shape" "$json") vs $(jq -c "$shape" "$tmp/twin.json")"
  check 'def r(n): .regions[] | select(.name == n);
         r("compute").calls == 3 and r("compute").seconds >= 0.025 and r("io").calls == 1
         and r("io").seconds >= 0.005 and .errors == []' "likwid regions"
  # Without -DLIKWID_PERFMON (and without the library) nothing happens.
  ROOFLINE_MARKER_OUT=$tmp/off.json "$3" | grep -q "compute count=0"
  [[ ! -e $tmp/off.json ]] || fail "LIKWID program without LIKWID_PERFMON wrote output"
  if nm -D --undefined-only "$3" | grep -q roofline_; then fail "LIKWID-off program references roofline_*"; fi
  ;;
noenv)
  mkdir "$tmp/cwd"
  for prog in "$@"; do
    (cd "$tmp/cwd" && "$prog" finalize >/dev/null)
  done
  [[ -z $(ls -A "$tmp/cwd") ]] || fail "files written without ROOFLINE_MARKER_OUT: $(ls -A "$tmp/cwd")"
  # Empty value = not set.
  (cd "$tmp/cwd" && ROOFLINE_MARKER_OUT= "$1" >/dev/null)
  [[ -z $(ls -A "$tmp/cwd") ]] || fail "files written with empty ROOFLINE_MARKER_OUT"
  ;;
wall_exec)
  prog=$1
  # Two threads one after the other: the region was open 80 ms, not the longest thread's 40
  # (the FLOPs of both would be divided by 40 ms: twice the true rate), and by one thread at a
  # time (it said 2: judged on two threads' roofs). Two at once: 40 ms, 2 threads.
  json=$tmp/wall.json
  ROOFLINE_MARKER_OUT=$json "$prog" sequential
  check 'def r(n): .regions[] | select(.name == n);
         r("seq").threads == 1 and r("seq").seconds >= 0.078 and r("seq").seconds < 0.5
         and r("seq").seconds >= (r("seq").thread_seconds | add) * 0.98' "sequential threads: their times add up"
  check 'def r(n): .regions[] | select(.name == n);
         r("overlap").threads == 2 and r("overlap").seconds >= 0.039
         and r("overlap").seconds < (r("overlap").thread_seconds | add) * 0.9' "overlapping threads: counted once"
  # An exec writes what was recorded so far; the new image writes the next file of the chain.
  for call in exec execvp execve execl execlp execle; do
    json=$tmp/$call.json
    target=$prog
    [[ $call == execvp || $call == execlp ]] && target=$(basename "$prog")
    PATH=$(dirname "$prog"):$PATH ROOFLINE_MARKER_OUT=$json "$prog" "$call" "$target" again
    [[ -f $json ]] || fail "$call: the regions before the exec were not written"
    check 'def r(n): .regions[] | select(.name == n);
           r("before").calls == 1 and r("before").seconds >= 0.019 and r("open").unclosed == 1
           and ([.regions[] | select(.name == "after")] | length == 0)' "$call: regions before the exec"
    check '[.errors[] | select(test("still open at finalize .the program exec.d another"))] | length == 1' "$call: open region said"
    json=$json.exec1
    [[ -f $json ]] || fail "$call: the exec'd image's regions were not written to the next file"
    check '[.regions[].name] == ["after"] and .regions[0].seconds >= 0.009' "$call: the new image's regions"
  done
  # An exec of a program without the library: the regions before it are kept.
  json=$tmp/true.json
  ROOFLINE_MARKER_OUT=$json "$prog" exec /bin/true
  check '[.regions[] | select(.name == "before")] | length == 1' "exec of a program without the library"
  [[ ! -e $json.exec1 ]] || fail "a program without the library wrote a file"
  # An exec that fails: the program goes on, its exit writes everything once.
  json=$tmp/fail.json
  ROOFLINE_MARKER_OUT=$json "$prog" fail
  check 'def r(n): .regions[] | select(.name == n);
         r("before").calls == 1 and r("after_fail").calls == 1 and .errors == []' "a failed exec changes nothing"
  [[ ! -e $json.exec1 ]] || fail "a failed exec left a next file"
  # A forked child's exec writes nothing (its regions are its parent's).
  json=$tmp/forked.json
  ROOFLINE_MARKER_OUT=$json "$prog" forked
  check 'def r(n): .regions[] | select(.name == n); r("parent").calls == 1 and .errors == []' "fork + exec in the child"
  [[ ! -e $json.exec1 ]] || fail "a forked child's exec wrote a next file"
  # Another program the process starts (system(), fork and exec) that loads the library too: it
  # inherits ROOFLINE_MARKER_OUT, but writes nothing there (its exit replaced the file the parent had
  # written at roofline_finalize()); its regions are named, with its program, in <file>.forked.
  json=$tmp/system.json
  ROOFLINE_MARKER_OUT=$json "$prog" system "$prog"
  check 'def r(n): .regions[] | select(.name == n);
         [.regions[].name] == ["parent"] and r("parent").seconds >= 0.019 and r("parent").seconds < 0.1' \
    "system(): the parent's regions, not the started program's"
  grep -qP '^[0-9]+\tafter\t'"$(basename "$prog")"'$' "$json.forked" ||
    fail "system(): the started program's region is not named in $json.forked: $(cat "$json.forked" 2>&1)"
  [[ ! -e $json.exec1 ]] || fail "system(): the started program wrote the next file of the exec chain"
  json=$tmp/forkexec.json
  ROOFLINE_MARKER_OUT=$json "$prog" forkexec "$prog"
  check '[.regions[].name] == ["parent"] and .errors == []' "fork and exec: the parent's regions only"
  grep -qP '^[0-9]+\tafter\t'"$(basename "$prog")"'$' "$json.forked" ||
    fail "fork and exec: the started program's region is not named: $(cat "$json.forked" 2>&1)"
  # The image an exec starts in the process's place still writes the next file (same process).
  [[ -z $(ls "$tmp"/exec.json.forked 2>/dev/null) ]] || fail "an exec in the process's place was taken for a started program"
  # Loaded but no region marked: a file with no regions (not "the library is not there").
  json=$tmp/none.json
  ROOFLINE_MARKER_OUT=$json "$prog" nothing 2>/dev/null || true
  check '.regions == []' "the library loaded, no region: an empty file"
  # ...but never over a file another process of the run wrote (a helper it started).
  echo '{"written": "by the program"}' >"$json"
  ROOFLINE_MARKER_OUT=$json "$prog" nothing 2>/dev/null || true
  check '.written == "by the program"' "a process without regions does not replace another's file"
  [[ -z $(find "$tmp" -name '*.tmp.*') ]] || fail "temporary files left: $(find "$tmp" -name '*.tmp.*')"
  ;;
spawned)
  # Threads started inside a region count for it, the most alive at once (tests/marker/spawned.c).
  json=$tmp/spawned.json
  ROOFLINE_MARKER_OUT=$json "$1"
  check 'def r(n): .regions[] | select(.name == n);
         r("pool").threads == 3 and r("pool").spawned_threads == 3 and r("pool").calls == 1' \
    "5 rounds of 3 threads alive at once: 3, not the 15 made"
  check 'def r(n): .regions[] | select(.name == n);
         r("one_at_a_time").threads == 1 and r("one_at_a_time").spawned_threads == 1' "threads joined one by one: 1"
  check 'def r(n): .regions[] | select(.name == n); r("exits").threads == 1 and r("exits").spawned_threads == 1' \
    "threads leaving through pthread_exit stop counting"
  check 'def r(n): .regions[] | select(.name == n); r("nested").threads == 2 and r("nested").spawned_threads == 2' \
    "a thread started by a thread started inside the region counts too"
  check 'def r(n): .regions[] | select(.name == n); r("late").threads == 1 and (r("late") | has("spawned_threads") | not)' \
    "a thread started before the region opened is not counted"
  check 'def r(n): .regions[] | select(.name == n); r("serial").threads == 1 and (r("serial") | has("spawned_threads") | not)' \
    "a serial region stays 1"
  check '.errors == []' "no errors"
  check 'def r(n): .regions[] | select(.name == n); r("busy").threads == 2' "2 busy threads"
  # Without ROOFLINE_MARKER_OUT the wrapper passes every call straight through: the program runs.
  "$1" || fail "the program fails without ROOFLINE_MARKER_OUT"
  ;;
perf)
  json=$tmp/perf.json
  ROOFLINE_MARKER_OUT=$json ROOFLINE_PERF_EVENTS="TASK_CLOCK=1:1,CTX_SWITCHES=0x1:0x3,BAD_TYPE=4242:0,garbage" "$1"
  if jq -e '[.errors[] | select(test("TASK_CLOCK"))] | length > 0' "$json" >/dev/null; then
    echo "perf_event_open unavailable for software events here; skipping"; cat "$json"; exit 77
  fi
  check 'def r(n): .regions[] | select(.name == n);
         r("busy").threads == 1 and r("busy").counters.TASK_CLOCK > 50000000
         and r("busy").counters.TASK_CLOCK < 200000000' "task-clock of busy region (2 x 40 ms of CPU time, one thread after the other)"
  # exclude_kernel=1: context switches happen in the kernel, so that count may be 0.
  check 'def r(n): .regions[] | select(.name == n);
         r("sleepy").counters.TASK_CLOCK < r("busy").counters.TASK_CLOCK / 4
         and (r("sleepy").counters.CTX_SWITCHES | . == floor and . < 100000)' "sleepy region: little task-clock, a count of switches"
  check 'all(.regions[]; .counters | keys == ["CTX_SWITCHES", "TASK_CLOCK"])' "counter names (unopened event left out)"
  check '[.errors[] | select(test("BAD_TYPE"))] | length == 1' "unopenable event reported once"
  check '[.errors[] | select(test("garbage"))] | length == 1' "unparsable event reported"
  # The calls' own counts, per batch, for each event opened (task-clock: the calls take time).
  check '(.calibration.counters.TASK_CLOCK.region | length) == (.calibration.region_ns | length)
         and (.calibration.counters.TASK_CLOCK.region | all(. > 0))
         and (.calibration.counters.TASK_CLOCK.pair | all(. > 0)) and .calibration.counters.TASK_CLOCK.total > 0
         and (.calibration.counters | has("BAD_TYPE") | not)' "calibration of the calls' counters"
  ;;
spawned_counters)
  # Perf engine: a thread started inside a region adds its counters to it, from its start to its
  # exit or the region's close, whichever is first (tests/marker/spawned_counters.c). task-clock
  # (software, CPU time in ns) works here without a hardware PMU. The marker library said ~0 for
  # 'spawned' (the opening thread's, which only waits): 0.13 ms of the 400 burned.
  json=$tmp/spawned_counters.json
  line=$(ROOFLINE_MARKER_OUT=$json ROOFLINE_PERF_EVENTS="clk=1:1" "$1") || fail "the program failed"
  if jq -e '[.errors[] | select(test("clk"))] | length > 0' "$json" >/dev/null; then
    echo "perf_event_open unavailable for software events here; skipping"; cat "$json"; exit 77
  fi
  [[ $line == "cpu "* ]] || fail "no CPU times printed: $line"
  # The program's own CPU times (ns), as jq variables: $burners, $pool_after, ...
  args=()
  for kv in ${line#cpu }; do args+=(--argjson "${kv%%=*}" "${kv#*=}"); done
  check() { jq -e "${args[@]}" "$1" "$json" >/dev/null || fail "$2 ($1) [$line]"; }
  check 'def r(n): .regions[] | select(.name == n);
         r("spawned").counters.clk >= 0.8 * $burners and r("spawned").counters.clk <= $process' \
    "2 threads started inside the region: their CPU time is in it"
  check 'def r(n): .regions[] | select(.name == n);
         r("spawned").counters.clk <= 1.05 * ($burners + $main_spawned + $pool_before) + 20000000' \
    "a pool thread made inside the region, working after it closed: that work is not in it"
  check 'def r(n): .regions[] | select(.name == n); r("second").counters.clk < 0.5 * $pool_after' \
    "a thread started before the region opened is not counted in it"
  check 'def r(n): .regions[] | select(.name == n);
         r("nested").counters.clk >= 0.8 * $grandchild and r("outer").counters.clk >= 0.8 * $grandchild
         and r("nested").counters.clk <= 1.05 * ($grandchild + $child) + 20000000' \
    "a thread started by a thread started inside two nested regions: in both, once"
  check 'def r(n): .regions[] | select(.name == n);
         r("self").counters.clk >= 0.8 * $self and r("self").counters.clk <= 1.05 * ($self + $main_self) + 20000000' \
    "a started thread that opens the region itself: counted once (200 ms, not 300)"
  check 'def r(n): .regions[] | select(.name == n); r("spawned").spawned_threads == 3 and .errors == []' \
    "threads and errors as before"
  ;;
openmp)
  # A region opened on one thread around an OpenMP parallel region is run by the team: its
  # threads are the team's (the marker library said 1: only the opening thread calls begin),
  # and under perf events the team threads' counters are in it. The test's own build (the C
  # compiler's OpenMP: libgomp with GCC), then clang's with LLVM's libomp where found.
  prog=$1 dir=$2 include=$3 libdir=$4
  progs=()
  [[ $prog != none ]] && progs+=("$prog")
  if command -v clang >/dev/null && clang -fopenmp "$dir/openmp.c" -I "$include" -L "$libdir" -lroofline_marker \
      -Wl,-rpath,"$libdir" -o "$tmp/openmp_clang" 2>/dev/null; then
    progs+=("$tmp/openmp_clang")
  else
    echo "note: no clang with OpenMP here: LLVM's runtime (the OpenMP tool interface) is not checked"
  fi
  ((${#progs[@]})) || { echo "no OpenMP compiler here; skipping"; exit 77; }
  export OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive
  for p in "${progs[@]}"; do
    json=$tmp/openmp.json
    ROOFLINE_MARKER_OUT=$json "$p" >/dev/null
    what=$(basename "$p")
    check 'def r(n): .regions[] | select(.name == n);
           r("team").threads == 2 and r("team").team_threads == 2 and r("team").calls == 1
           and r("worker_only").threads == 2 and r("loop").threads == 2 and r("three").threads == 3' \
      "$what: regions around parallel regions have their teams' threads"
    check 'def r(n): .regions[] | select(.name == n);
           r("serial").threads == 1 and (r("serial") | has("team_threads") | not)
           and r("in_team").threads == 2 and r("in_team").calls == 2' "$what: a serial region, a region marked in the team"
    check 'has("openmp_teams_unseen") | not' "$what: the teams are seen"
    # Counters: the team threads' bodies are in the region (only the second thread works there).
    json=$tmp/openmp_perf.json
    ROOFLINE_MARKER_OUT=$json ROOFLINE_PERF_EVENTS="TASK_CLOCK=1:1" "$p" >/dev/null
    if jq -e '[.errors[] | select(test("TASK_CLOCK"))] | length > 0' "$json" >/dev/null; then
      echo "note: perf_event_open unavailable for software events here: the team's counters are not checked"
    else
      check 'def r(n): .regions[] | select(.name == n);
             r("worker_only").counters.TASK_CLOCK >= 29000000 and r("team").counters.TASK_CLOCK >= 39000000' \
        "$what: the team threads' task-clock is in the region"
      # The worker is started (pthread_create) inside 'team': counted by its body, not also as a
      # started thread (2 x 20 ms, not 60).
      check 'def r(n): .regions[] | select(.name == n); r("team").counters.TASK_CLOCK < 52000000' \
        "$what: each team thread counted once"
    fi
  done
  # libgomp before the library in the program's lookup: the teams are not seen, and that is said.
  if [[ $prog != none ]] && command -v cc >/dev/null &&
      cc -fopenmp "$dir/openmp.c" -I "$include" -L "$libdir" -Wl,--no-as-needed -lgomp -lroofline_marker \
        -Wl,-rpath,"$libdir" -o "$tmp/openmp_gomp_first" 2>/dev/null &&
      ldd "$tmp/openmp_gomp_first" | grep -q libgomp; then
    json=$tmp/openmp_first.json
    ROOFLINE_MARKER_OUT=$json "$tmp/openmp_gomp_first" >/dev/null
    check '(.openmp_teams_unseen | test("libgomp comes before libroofline_marker"))' "libgomp first: said"
  fi
  ;;
system)
  # PERF_TYPE_SOFTWARE (1) cpu-clock (0) on CPU 0, system-wide: wall time on that CPU, in ns.
  # WALL2 names it twice: two instances of one event, whose counts add up.
  json=$tmp/system.json
  ROOFLINE_MARKER_OUT=$json ROOFLINE_PERF_EVENTS="WALL=1:0@0,WALL2=1:0@0,WALL2=1:0:0:0@0,BAD=1:0@9999" "$1"
  if jq -e '[.errors[] | select(test("WALL.*could not be opened"))] | length > 0' "$json" >/dev/null; then
    echo "system-wide perf events are not permitted here (perf_event_paranoid > 0 without CAP_PERFMON); skipping"
    cat "$json"; exit 77
  fi
  check 'def r(n): .regions[] | select(.name == n);
         r("both").threads == 2 and r("both").counters.WALL > 95000000 and r("both").counters.WALL < 190000000' \
    "two threads in one region: the larger count, not the sum (100 ms, not 200 ms)"
  check 'def r(n): .regions[] | select(.name == n);
         r("solo").counters.WALL > 95000000 and r("solo").counters.WALL < 190000000' "one thread: its count"
  check 'def r(n): .regions[] | select(.name == n);
         r("solo").counters.WALL2 > 1.9 * r("solo").counters.WALL and r("solo").counters.WALL2 < 2.1 * r("solo").counters.WALL' \
    "a name given twice: its instances add up"
  check '[.errors[] | select(test("BAD.*system-wide"))] | length == 1' "an event on a CPU that does not exist: reported"
  check '.calibration.counters == null or (.calibration.counters | has("WALL") | not)' \
    "a whole CPU's counter is not calibrated (it counts every process)"
  ;;
install)
  build=$1 consumer=$2 cc=$3 cxx=$4
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" --component roofline_marker >/dev/null
  for f in include/roofline/roofline.h include/roofline/roofline.hpp include/roofline/likwid-marker.h \
           lib/cmake/roofline/rooflineConfig.cmake lib/cmake/roofline/rooflineConfigVersion.cmake \
           lib/cmake/roofline/rooflineTargets.cmake lib/pkgconfig/roofline.pc; do
    [[ -f $prefix/$f ]] || fail "not installed: $f"
  done
  ls "$prefix"/lib/libroofline_marker.so* >/dev/null || fail "library not installed"
  # pkg-config consumer
  flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs roofline)
  [[ $flags == *-lroofline_marker* ]] || fail "pkg-config flags: $flags"
  printf '#include <roofline/roofline.h>\nint main(void){roofline_begin("pc");roofline_end("pc");return 0;}\n' > "$tmp/pc.c"
  # shellcheck disable=SC2086
  "$cc" "$tmp/pc.c" -o "$tmp/pc" $flags -Wl,-rpath,"$prefix/lib"
  json=$tmp/pc.json
  ROOFLINE_MARKER_OUT=$json "$tmp/pc"
  check '.regions[0].name == "pc" and .regions[0].calls == 1' "pkg-config consumer"
  # find_package consumer
  cmake -S "$consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_CXX_COMPILER="$cxx" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "consumer configure"; }
  cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "consumer build"; }
  json=$tmp/cmake.json
  ROOFLINE_MARKER_OUT=$json "$tmp/consumer/consumer_cpp"
  check '.regions[0].name == "consumer_region" and .regions[0].calls == 1' "find_package C++ consumer"
  ROOFLINE_MARKER_OUT=$json "$tmp/consumer/consumer_likwid"
  check '.regions[0].name == "consumer_likwid" and .regions[0].calls == 1' "find_package LIKWID consumer"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
