#!/usr/bin/env bash
# The GPU check, in ONE call on a GPU machine: configure and build for sm_90 (Ninja, all cores),
# run every GPU test, run compute-sanitizer memcheck/racecheck/synccheck/initcheck on the GPU test
# binary at reduced sizes (the four tools side by side), run the installed-package examples, run
# a benchmark, and print a short summary last. Logs and JSON go to $OUT (or build/gpu-check).
#   tools/gpu-check.sh [--bench SUITE] [--bench-filter REGEX] [--no-sanitizer] [--no-tests] [--reps N]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-check}
mkdir -p "$out"
bench_suite=core
bench_filter=""
sanitize=1
tests=1
reps=5
while (($#)); do
  case "$1" in
    --bench) bench_suite=$2; shift 2 ;;
    --bench-filter) bench_filter=$2; shift 2 ;;
    --no-sanitizer) sanitize=0; shift ;;
    --no-tests) tests=0; shift ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
  esac
done
summary=()
note() { summary+=("$*"); echo "== $*"; }
started=$(date +%s)

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
note "gpu: ${gpu:-none found} ($(date -u +%Y-%m-%d))"

# Packages this machine lacks travel as .deb files in .debs/, fetched on a networked machine with
#   mkdir -p .debs && cd .debs && apt-get download libcli11-dev libfmt-dev libfmt9
# (libfmt9 too: fmt's CMake config checks that libfmt.so exists, though the tools link fmt
# header-only). CMAKE_PREFIX_PATH finds usr/share/cmake/CLI11 and usr/lib/<arch>/cmake/fmt.
if compgen -G ".debs/*.deb" >/dev/null; then
  mkdir -p /tmp/upsweep-debs
  for f in .debs/*.deb; do dpkg -x "$f" /tmp/upsweep-debs; done
  export CMAKE_PREFIX_PATH=/tmp/upsweep-debs/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
fi

if ! { cmake --preset gpu ${UPSWEEP_CMAKE_ARGS:-} >"$out/configure.log" 2>&1 &&
       cmake --build --preset gpu -j "$(nproc)" >"$out/build.log" 2>&1; }; then
  tail -40 "$out/configure.log" "$out/build.log"
  note "build: FAILED (see build.log)"
  printf '%s\n' "${summary[@]}"
  exit 1
fi
note "build: ok in $(( $(date +%s) - started )) s"
bin=build/gpu
status=0

if ((tests)); then
  "$bin/tests/upsweep_host_tests" --gtest_brief=1 >"$out/host-tests.log" 2>&1
  rc=$?; note "host tests: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ tests?[.,]' "$out/host-tests.log" | tr '\n' ' ') (rc $rc)"
  ((rc)) && status=1
  t0=$(date +%s)
  timeout "${UPSWEEP_TEST_TIMEOUT:-300}" "$bin/tests/upsweep_gpu_tests" >"$out/gpu-tests.log" 2>&1
  rc=$?
  grep -E "^\[  FAILED  \]" "$out/gpu-tests.log" | sort -u | head -30; ((rc == 124)) && tail -5 "$out/gpu-tests.log"
  note "gpu tests: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ tests?[.,]' "$out/gpu-tests.log" | tr '\n' ' ') (rc $rc, $(( $(date +%s) - t0 )) s)"
  ((rc)) && status=1
  ctest --test-dir "$bin" -R package_consumer --output-on-failure >"$out/package.log" 2>&1
  rc=$?; ((rc)) && status=1
  runs=""
  for ex in consumer_cxx/prefix_sum consumer_cuda/running_max; do
    "$bin/package-consumer/$ex" >>"$out/package.log" 2>&1
    ex_rc=$?
    runs+=" ${ex##*/}=rc$ex_rc"
  done
  note "package consumers: build rc $rc, runs:$runs"
  [[ "$runs" == *rc[1-9]* ]] && status=1
fi

if ((sanitize)); then
  t0=$(date +%s)
  filter='-*Large*'
  pids=()
  for tool in memcheck racecheck synccheck initcheck; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    UPSWEEP_TEST_MAX_ITEMS=${UPSWEEP_SANITIZER_MAX_ITEMS:-300000} timeout "${UPSWEEP_SANITIZER_TIMEOUT:-360}" compute-sanitizer --tool "$tool" --error-exitcode 1 "${extra[@]}" \
      "$bin/tests/upsweep_gpu_tests" --gtest_filter="$filter" --gtest_brief=1 >"$out/sanitize-$tool.log" 2>&1 &
    pids+=($!)
  done
  i=0
  for tool in memcheck racecheck synccheck initcheck; do
    wait "${pids[$i]}"; rc=$?; i=$((i + 1))
    errors=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$out/sanitize-$tool.log" | tail -1)
    note "sanitizer $tool: rc $rc, ${errors:-no summary line}"
    ((rc)) && { status=1; grep -E -m 12 'Invalid|Race|Barrier|Uninitialized|hazard|FAILED' "$out/sanitize-$tool.log"; }
  done
  note "sanitizers took $(( $(date +%s) - t0 )) s"
fi

if [ "$bench_suite" != none ]; then
  t0=$(date +%s)
  args=(--benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true
        --benchmark_out="$out/bench.json" --benchmark_out_format=json)
  if [ -n "$bench_filter" ]; then args+=(--benchmark_filter="$bench_filter"); else args+=(--suite "$bench_suite"); fi
  timeout "${UPSWEEP_BENCH_TIMEOUT:-400}" "$bin/bench/upsweep-bench" "${args[@]}" >"$out/bench.log" 2>&1
  rc=$?; ((rc)) && { status=1; tail -20 "$out/bench.log"; }
  if [ -f bench/report.py ]; then python3 bench/report.py "$out/bench.json" >"$out/bench.md" 2>&1 || cat "$out/bench.md"; fi
  grep -E "_median" "$out/bench.log" | sed 's|/min_time:[0-9.]*||; s|/manual_time_median||' | awk '{printf "%-60s %10s %s\n", $1, $2, $3}' >"$out/bench-medians.txt"
  [ -f "$out/bench.md" ] || cp "$out/bench-medians.txt" "$out/bench.md"
  note "benchmark ($bench_suite${bench_filter:+, $bench_filter}): rc $rc in $(( $(date +%s) - t0 )) s"
fi

# Only a few files come back from the GPU machine: keep the JSON and tables, pack the logs.
(cd "$out" && tar czf logs.tgz --remove-files ./*.log 2>/dev/null)

echo
echo "================ GPU CHECK SUMMARY ================"
printf '%s\n' "${summary[@]}"
[ -f "$out/bench.md" ] && cat "$out/bench.md"
echo "total $(( $(date +%s) - started )) s, status $status"
exit $status
