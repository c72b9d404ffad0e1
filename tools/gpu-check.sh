#!/usr/bin/env bash
# The GPU check, in ONE call on a GPU machine: configure and build for sm_90 (Ninja, all cores),
# run every GPU test, run compute-sanitizer memcheck/racecheck/synccheck/initcheck on the GPU test
# binary at reduced sizes (the four tools side by side), run the installed-package examples, run
# a benchmark, and print a short summary last. Logs and JSON go to $OUT (or build/gpu-check).
#   tools/gpu-check.sh [--bench SUITES|all|none] [--bench-filter REGEX] [--no-sanitizer] [--no-tests] [--reps N]
#                      [--no-tools | --tools-only]  (the GPU tests without the package consumers, soak
#                       and tool tests, or those alone: for bundles split by tools/prebuild.sh --split)
#                      [--huge]  (also the opt-in tests past 2^31 items, ~20 GB, beside the others)
#                      [--prebuilt DIR] [--ncu KERNEL_REGEX BENCH_FILTER]
#                      [--sanitizers LIST]  (default memcheck,racecheck,synccheck,initcheck)
#                      [--suite-all-wall]  (`upsweep-bench --suite all` as a user runs it, beside the
#                       rest: only its wall time counts, an upper bound under that load)
# UPSWEEP_BUILD_TARGETS (e.g. upsweep-bench) builds only those targets, for a benchmark-only call.
# --prebuilt DIR: take the binaries tools/prebuild.sh built on another machine with the same nvcc
# (device time goes to running, not compiling); only a CMake configure runs here, for ctest's
# tool tests. The sanitizers run alongside the GPU tests: the GPU has room for both.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-check}
mkdir -p "$out"
bench_suite=""
bench_filter=""
sanitize=1
tests=1
tools=1   # --no-tools: no package consumers, soak or tool tests (a bundle without them)
gtests=1  # --tools-only: no host or GPU tests (a bundle without the GPU test binary)
huge=0
reps=5
prebuilt=""
ncu_kernel=""
ncu_filter=""
sanitizer_list=memcheck,racecheck,synccheck,initcheck
suite_all_wall=0
while (($#)); do
  case "$1" in
    --bench) bench_suite=$2; shift 2 ;;
    --bench-filter) bench_filter=$2; shift 2 ;;
    --no-sanitizer) sanitize=0; shift ;;
    --no-tests) tests=0; shift ;;
    --no-tools) tools=0; shift ;;
    --tools-only) gtests=0; shift ;;
    --huge) huge=1; shift ;;
    --reps) reps=$2; shift 2 ;;
    --ncu) ncu_kernel=$2; ncu_filter=$3; shift 3 ;;
    --sanitizers) sanitizer_list=$2; shift 2 ;;
    --suite-all-wall) suite_all_wall=1; shift ;;
    --prebuilt) prebuilt=/tmp/upsweep-prebuilt; rm -rf "$prebuilt"; mkdir -p "$prebuilt"
                tar -C "$prebuilt" -xJf "$2/bundle.txz" || exit 1; shift 2 ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
  esac
done
summary=()
note() { summary+=("$*"); echo "== $*"; }
# Cut short (the device call's time limit sends TERM): pack the logs and print what is known, since
# only a few files come back and the summary at the end would never print.
cut_short() {
  (cd "$out" && tar czf logs.tgz --remove-files ./*.log 2>/dev/null)
  echo "================ GPU CHECK CUT SHORT ================"
  printf '%s\n' "${summary[@]}"
  exit 124
}
trap cut_short TERM INT
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

bin=build/gpu
if [ -n "$prebuilt" ]; then
  if ! cmake --preset gpu ${UPSWEEP_CMAKE_ARGS:-} >"$out/configure.log" 2>&1; then
    tail -40 "$out/configure.log"; note "configure: FAILED"; printf '%s\n' "${summary[@]}"; exit 1
  fi
  cp -r "$prebuilt"/. "$bin/"  # the same relative paths as in a build folder
  export LD_LIBRARY_PATH="$prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  note "build: prebuilt binaries from commit $(tr '\n' ' ' <"$prebuilt/commit")(tools/prebuild.sh, same nvcc)"
elif ! { cmake --preset gpu ${UPSWEEP_CMAKE_ARGS:-} >"$out/configure.log" 2>&1 &&
         cmake --build --preset gpu -j "$(nproc)" ${UPSWEEP_BUILD_TARGETS:+--target $UPSWEEP_BUILD_TARGETS} \
           >"$out/build.log" 2>&1; }; then
  tail -40 "$out/configure.log" "$out/build.log"
  note "build: FAILED (see build.log)"
  printf '%s\n' "${summary[@]}"
  exit 1
else
  note "build: ok in $(( $(date +%s) - started )) s"
fi
status=0

if ((suite_all_wall)); then
  ( t0=$(date +%s)
    timeout 590 "$bin/bench/upsweep-bench" --suite all --json "$out/bench-all.json" --markdown "$out/bench-all.md" \
      >"$out/suite-all-wall.log" 2>&1
    echo "rc $? in $(( $(date +%s) - t0 )) s" >"$out/suite-all-wall.time" ) &
  suite_all_pid=$!
fi

# compute-sanitizer on the GPU test binary at reduced sizes, the four tools side by side and
# alongside the full-size GPU tests below.
read -ra sanitizer_tools <<<"${sanitizer_list//,/ }"
# UPSWEEP_SANITIZER_TESTS (a gtest pattern, default every test) and UPSWEEP_SANITIZER_SKIP (more
# patterns to leave out) split a sanitizer run over several calls, e.g. '*Sort*' in one call and
# UPSWEEP_SANITIZER_SKIP='*Sort*' in the next.
sanitizer_filter="${UPSWEEP_SANITIZER_TESTS:-*}-*Large*:*Huge*:StickyError.*${UPSWEEP_SANITIZER_SKIP:+:$UPSWEEP_SANITIZER_SKIP}"
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
((gpus > 0)) || gpus=1
sanitizer_pids=()
sanitizer_t0=$(date +%s)
if ((sanitize)); then
  # Each tool runs as gtest shards (racecheck and initcheck are the slowest); a tool's log is the
  # sum of its shards'. On 2026-11-21, three racecheck shards and one initcheck process did not
  # finish in 300 s beside the GPU tests.
  for tool in "${sanitizer_tools[@]}"; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    # racecheck is the slowest by far: on 2026-11-21 14 shards at 20000 items finished 1281 test
    # runs in 520 s, the sort tests taking 35 to 260 s each. 9000 items still gives every
    # look-back three tiles of 4096. Alone it takes 17 shards, beside the other tools 9: an odd
    # count, because gtest deals tests out round robin and the slowest sort test is every fourth
    # of its suite (14 shards gave all 25 of them to 7 shards, which did not finish; 15 shards
    # finished the sort tests in 560 s on an H200, the slowest taking 469 s).
    # UPSWEEP_RACECHECK_EXCLUDE (e.g. kns=CUB_) skips the reference libraries' kernels.
    items=${UPSWEEP_SANITIZER_MAX_ITEMS:-300000}
    # racecheck lists every test with its time (no --gtest_brief), so a run cut short shows how far
    # it got and which tests are slow.
    brief=--gtest_brief=1
    case "$tool" in
      racecheck)
        shards=${UPSWEEP_RACECHECK_SHARDS:-$(( ${#sanitizer_tools[@]} == 1 ? 17 : 9 ))}
        items=${UPSWEEP_RACECHECK_MAX_ITEMS:-9000}; brief=
        [ -n "${UPSWEEP_RACECHECK_EXCLUDE:-}" ] && extra=(--kernel-name-exclude "$UPSWEEP_RACECHECK_EXCLUDE") ;;
      initcheck) shards=4 ;;
      *) shards=2 ;;
    esac
    (
      pids=()
      for ((k = 0; k < shards; k++)); do
        # Shard k runs on GPU k % gpus (a machine of several GPUs shares the instrumented kernels out).
        ( GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k UPSWEEP_TEST_MAX_ITEMS=$items CUDA_VISIBLE_DEVICES=$((k % gpus)) \
            timeout "${UPSWEEP_SANITIZER_TIMEOUT:-360}" compute-sanitizer --tool "$tool" --error-exitcode 1 "${extra[@]}" \
            "$bin/tests/upsweep_gpu_tests" --gtest_filter="$sanitizer_filter" $brief >"$out/sanitize-$tool.$k.log" 2>&1
          shard_rc=$?
          echo "[upsweep shard $k of $shards: rc $shard_rc]" >>"$out/sanitize-$tool.$k.log"
          exit $shard_rc ) &
        pids+=($!)
      done
      rc=0
      for p in "${pids[@]}"; do wait "$p" || rc=$?; done
      cat "$out"/sanitize-"$tool".*.log >"$out/sanitize-$tool.log"; rm -f "$out"/sanitize-"$tool".*.log
      exit $rc
    ) &
    sanitizer_pids+=($!)
  done
fi

if ((tests && gtests)); then
  "$bin/tests/upsweep_host_tests" --gtest_brief=1 >"$out/host-tests.log" 2>&1
  rc=$?; note "host tests: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ tests?[.,]' "$out/host-tests.log" | tr '\n' ' ') (rc $rc)"
  ((rc)) && status=1
  t0=$(date +%s)
  if ((huge)); then  # the opt-in cases past 2^31 items, in their own process beside the others
    UPSWEEP_TEST_HUGE=1 timeout "${UPSWEEP_TEST_TIMEOUT:-300}" "$bin/tests/upsweep_gpu_tests" \
      --gtest_filter='*_huge*' >"$out/gpu-tests-huge.log" 2>&1 &
    huge_pid=$!
  fi
  # UPSWEEP_GPU_TESTS (a gtest pattern) splits the main run over several calls, e.g. 'RadixSort*'
  # in one and '-RadixSort*' in the next.
  env -u UPSWEEP_TEST_HUGE timeout "${UPSWEEP_TEST_TIMEOUT:-300}" "$bin/tests/upsweep_gpu_tests" \
    --gtest_filter="${UPSWEEP_GPU_TESTS:-*}" >"$out/gpu-tests.log" 2>&1
  rc=$?
  grep -E "^\[  FAILED  \]" "$out/gpu-tests.log" | sort -u | head -30; ((rc == 124)) && tail -5 "$out/gpu-tests.log"
  note "gpu tests${UPSWEEP_GPU_TESTS:+ ($UPSWEEP_GPU_TESTS)}: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ tests?[.,]' "$out/gpu-tests.log" | tr '\n' ' ') (rc $rc, $(( $(date +%s) - t0 )) s)"
  ((rc)) && status=1
  if ((huge)); then
    wait "$huge_pid"; rc=$?
    grep -E "^\[  FAILED  \]" "$out/gpu-tests-huge.log" | sort -u | head -20
    note "gpu tests past 2^31 items: $(grep -E '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ tests?[.,]' "$out/gpu-tests-huge.log" | tr '\n' ' ') (rc $rc, $(( $(date +%s) - t0 )) s)"
    ((rc)) && status=1
  fi
fi
if ((tests && tools)); then
  if [ -n "$prebuilt" ]; then
    rc="prebuilt"; : >"$out/package.log"  # built and installed by tools/prebuild.sh
  else
    ctest --test-dir "$bin" -R package_consumer --output-on-failure >"$out/package.log" 2>&1
    rc=$?; ((rc)) && status=1
  fi
  runs=""
  for ex in consumer_cxx/sort_and_compact consumer_cuda/struct_sort; do
    "$bin/package-consumer/$ex" >>"$out/package.log" 2>&1
    ex_rc=$?
    runs+=" ${ex##*/}=rc$ex_rc"
  done
  note "package consumers: build rc $rc, runs:$runs"
  [[ "$runs" == *rc[1-9]* ]] && status=1
  # The soak: random configurations of every primitive against the CPU reference and CUB.
  UPSWEEP_BUILD_DIR="$bin" timeout $(( ${UPSWEEP_SOAK_SECONDS:-60} + 60 )) tools/soak.sh --seconds "${UPSWEEP_SOAK_SECONDS:-60}" >"$out/soak.log" 2>&1
  rc=$?; ((rc)) && { status=1; tail -5 "$out/soak.log"; }
  note "soak (${UPSWEEP_SOAK_SECONDS:-60} s): $(tail -1 "$out/soak.log") (rc $rc)"
  # The tools end to end (their ctest entries; those needing a GPU carry the gpu label).
  ctest --test-dir "$bin" -R '^upsweep-' --output-on-failure >"$out/apps.log" 2>&1
  rc=$?; ((rc)) && { status=1; grep -E "Failed|\*\*\*" "$out/apps.log" | head -20; }
  note "tools: $(grep -E 'tests passed|tests failed' "$out/apps.log" | tail -1) (rc $rc)"
fi

if ((sanitize)); then
  selected=$("$bin/tests/upsweep_gpu_tests" --gtest_list_tests --gtest_filter="$sanitizer_filter" | grep -c '^  ')
  i=0
  for tool in "${sanitizer_tools[@]}"; do
    wait "${sanitizer_pids[$i]}"; rc=$?; i=$((i + 1))
    errors=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$out/sanitize-$tool.log" | sed 's/=* *//' | tr '\n' ' ')
    tests_line=$(grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ tests?' "$out/sanitize-$tool.log" | tr '\n' ' ')
    done_count=$(grep -cE '^\[       OK \]' "$out/sanitize-$tool.log")
    ((done_count)) && tests_line+="($done_count tests finished OK)"
    cut=$(grep -c '^\[upsweep shard .*: rc 124\]' "$out/sanitize-$tool.log")
    ((cut)) && tests_line+=", $cut shards cut by the time limit"
    tests_line+=" of $selected tests selected ($sanitizer_filter)"
    note "sanitizer $tool: rc $rc, ${errors:-no summary line}, ${tests_line:-no gtest summary}"
    ((rc)) && { status=1; grep -E -m 12 'Invalid|Race|Barrier|Uninitialized|hazard|FAILED' "$out/sanitize-$tool.log"; }
  done
  note "sanitizers took $(( $(date +%s) - sanitizer_t0 )) s"
fi

if ((suite_all_wall)); then
  wait "$suite_all_pid"
  # The report's bar rows (issues 4, 5) and the core rows at 10^8 and 10^9, before the summary.
  [ -f "$out/bench-all.md" ] && { sed -n '/^### Bars/,/^### Charts/p' "$out/bench-all.md" | grep '^|';
    sed -n '/^### core\//,/^### /p' "$out/bench-all.md" | grep -E '^### |^\| (upsweep|cub|copy) '; }
  note "upsweep-bench --suite all (its defaults, beside the other work): $(cat "$out/suite-all-wall.time")," \
    "$(grep -c '/manual_time' "$out/suite-all-wall.log") rows, $(grep -c 'ERROR OCCURRED' "$out/suite-all-wall.log") row errors"
fi

# Benchmarks: each suite of --bench in its own process (its own
# JSON, so a suite cut short by its time limit loses only itself); the timings add up to what
# `upsweep-bench --suite all` takes. Then the --bench-filter rows. Neither option: the core suite.
bench_jsons=()
run_bench() {  # NAME ARGS...
  local name=$1 t0 rc
  shift
  t0=$(date +%s)
  UPSWEEP_BENCH_MIN_TIME=${UPSWEEP_BENCH_MIN_TIME:-} timeout "${UPSWEEP_BENCH_TIMEOUT:-400}" "$bin/bench/upsweep-bench" \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench-$name.json" --benchmark_out_format=json "$@" >"$out/bench-$name.log" 2>&1
  rc=$?; ((rc)) && { status=1; tail -20 "$out/bench-$name.log"; }
  if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/bench-$name.json" 2>/dev/null; then
    bench_jsons+=("$out/bench-$name.json")
  else
    note "benchmark $name: no complete JSON (cut short?)"
  fi
  grep -E "_median" "$out/bench-$name.log" | sed 's|/min_time:[0-9.]*||; s|/manual_time_median||' |
    awk '{printf "%-60s %10s %s\n", $1, $2, $3}' >>"$out/bench-medians.txt"
  bench_seconds=$(( $(date +%s) - t0 ))
  note "benchmark $name: rc $rc in $bench_seconds s"
}
[ -z "$bench_filter" ] && [ -z "$bench_suite" ] && bench_suite=core
if [ -n "$bench_suite" ] && [ "$bench_suite" != none ]; then
  # all: the comparative suites, the quick ones first
  [ "$bench_suite" = all ] && bench_suite=core,seeds,histogram,compact,sort
  suites_total=0
  for suite in ${bench_suite//,/ }; do
    run_bench "$suite" --suite "$suite"
    suites_total=$((suites_total + bench_seconds))
  done
  note "benchmark suites $bench_suite: $suites_total s in all (reps $reps, min time ${UPSWEEP_BENCH_MIN_TIME:-per row})"
fi
[ -n "$bench_filter" ] && run_bench filter --benchmark_filter="$bench_filter"
if ((${#bench_jsons[@]})) && [ -f bench/report.py ]; then
  python3 bench/report.py "${bench_jsons[@]}" >"$out/bench.md" 2>&1 || cat "$out/bench.md"
fi
[ -f "$out/bench.md" ] || { [ -f "$out/bench-medians.txt" ] && cp "$out/bench-medians.txt" "$out/bench.md"; }

# --ncu: one launch of the kernels matching KERNEL_REGEX inside the benchmark rows BENCH_FILTER,
# profiled for where its warps stall (e.g. --ncu 'device_scan_kernel|DeviceScanKernel'
# '^core/inclusive_sum_i32/(upsweep|cub)/100000000/').
if [ -n "$ncu_kernel" ]; then
  t0=$(date +%s)
  timeout 300 ncu --kernel-name "regex:$ncu_kernel" --launch-skip 3 --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis "$bin/bench/upsweep-bench" --benchmark_filter="$ncu_filter" \
    --benchmark_min_time=0.05 >"$out/ncu.txt" 2>&1
  rc=$?
  grep -E "^  [a-zA-Z_].*\(|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall" "$out/ncu.txt" | head -60
  note "ncu ($ncu_kernel): rc $rc in $(( $(date +%s) - t0 )) s, ncu.txt"
fi

# Only a few files come back from the GPU machine: keep the JSON and tables, pack the logs.
(cd "$out" && tar czf logs.tgz --remove-files ./*.log 2>/dev/null)

# The tables first (long after a whole-suite run), the short summary last.
[ -f "$out/bench.md" ] && { echo; cat "$out/bench.md"; }
echo
echo "================ GPU CHECK SUMMARY ================"
printf '%s\n' "${summary[@]}"
echo "total $(( $(date +%s) - started )) s, status $status"
exit $status
