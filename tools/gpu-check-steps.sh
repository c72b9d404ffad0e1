# The steps tools/gpu-check.sh puts together into tiers: build or unpack, the gtest runs in shards,
# compute-sanitizer, the package consumers, the tools' tests, the soak and the benchmark. Sourced,
# not run: it reads gpu-check.sh's variables (out, bin, gpu_tests, prebuilt, gpus, ...) and reports
# through its note; a step that fails sets status=1. Steps run in a subshell report their status by
# their exit code.

# Packages this machine lacks travel as .deb files in .debs/, fetched on a networked machine with
#   mkdir -p .debs && cd .debs && apt-get download libcli11-dev libfmt-dev libfmt9
# (libfmt9 too: fmt's CMake config checks that libfmt.so exists, though the tools link fmt
# header-only). CMAKE_PREFIX_PATH finds usr/share/cmake/CLI11 and usr/lib/<arch>/cmake/fmt.
unpack_debs() {
  compgen -G ".debs/*.deb" >/dev/null || return 0
  mkdir -p /tmp/upsweep-debs
  local f
  for f in .debs/*.deb; do dpkg -x "$f" /tmp/upsweep-debs; done
  export CMAKE_PREFIX_PATH=/tmp/upsweep-debs/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
}

configured=0
configure_for_ctest() {  # ctest needs a configured build folder, prebuilt binaries or not
  ((configured)) && return 0
  if ! cmake --preset gpu >"$out/configure.log" 2>&1; then
    tail -40 "$out/configure.log"; note "configure: FAILED"; status=1; return 1
  fi
  configured=1
}

# TARGETS...: build them (all when none) for sm_90 with every core, or take the --prebuilt ones.
build_or_unpack() {
  local t0
  t0=$(date +%s)
  if [ -n "$prebuilt" ]; then
    mkdir -p "$bin"
    cp -r "$prebuilt"/. "$bin/"  # the same relative paths as in a build folder
    export LD_LIBRARY_PATH="$prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    note "build: prebuilt binaries from commit $(tr '\n' ' ' <"$prebuilt/commit")(tools/prebuild.sh, same nvcc)"
    return 0
  fi
  configure_for_ctest || return 1
  if ! cmake --build --preset gpu -j "$(nproc)" ${1:+--target "$@"} >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"; note "build: FAILED (see build.log)"; status=1; return 1
  fi
  note "build: ${*:-everything} ok in $(( $(date +%s) - t0 )) s"
}

# The first line of gtest's own count of each kind, summed over a log's shards, and the shards that
# printed none (crashed, or cut by their time limit). Failures are also counted by name: with
# --gtest_brief gtest prints no "[  FAILED  ] N tests" line, only each failed test.
gtest_counts() {  # LOG
  awk '/^\[  PASSED  \] [0-9]+ test/ {p += $4; done++}
       /^\[  SKIPPED \] [0-9]+ test/ {s += $4}
       /^\[  FAILED  \] [0-9]+ test/ {f += $4}
       /^\[  FAILED  \] [A-Za-z_]/ {if (!($4 in failed)) {failed[$4] = 1; named++}}
       /^\[upsweep shard / {shards++; if (/rc 124\]/) cut++}
       END {if (named > f) f = named
            printf "%d passed, %d skipped, %d failed", p, s, f
            if (shards > done) printf ", %d of %d shards without a gtest summary", shards - done, shards
            if (cut) printf " (%d cut by the time limit)", cut}' "$1"
}

# NAME SHARDS LIMIT_S MAX_ITEMS FILTER COMMAND...: COMMAND --gtest_filter=FILTER in SHARDS processes
# side by side (shard k on GPU (k + gpu_offset) % gpus), each under LIMIT_S and UPSWEEP_TEST_MAX_ITEMS (0: none);
# their logs end up in NAME.log. gtest_brief=0 lists every test with its time.
run_shards() {
  local name=$1 shards=$2 limit=$3 items=$4 filter=$5 k p rc=0 pids=()
  shift 5
  for ((k = 0; k < shards; k++)); do
    (
      if ((items)); then export UPSWEEP_TEST_MAX_ITEMS=$items; else unset UPSWEEP_TEST_MAX_ITEMS; fi
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k CUDA_VISIBLE_DEVICES=$(((k + gpu_offset) % gpus)) timeout "$limit" "$@" \
        --gtest_filter="$filter" --gtest_brief="${gtest_brief:-1}" >"$out/$name.$k.log" 2>&1
      shard_rc=$?
      echo "[upsweep shard $k of $shards: rc $shard_rc]" >>"$out/$name.$k.log"
      exit $shard_rc
    ) &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || rc=$?; done
  cat "$out/$name".*.log >"$out/$name.log"
  rm -f "$out/$name".*.log
  return $rc
}

run_host_tests() {
  if [ ! -x "$bin/tests/upsweep_host_tests" ]; then
    note "host tests: not in these binaries (a --prebuilt bundle leaves them to the build machine and CI)"; return
  fi
  "$bin/tests/upsweep_host_tests" --gtest_brief=1 >"$out/host-tests.log" 2>&1
  local rc=$?
  note "host tests: $(gtest_counts "$out/host-tests.log") (rc $rc)"
  ((rc)) && status=1
}

# NCCL's library directory when it comes from the Python wheel that PyTorch brings (nvidia/nccl/lib
# under site-packages); empty for the system's.
nccl_lib_dir() {
  python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null
}

# The sort across ranks over NCCL (world size 1), when built.
run_nccl_tests() {
  local tests=$bin/tests/upsweep_nccl_tests dir rc
  if [ ! -x "$tests" ]; then note "nccl tests: not in these binaries (no NCCL where they were built; in a split bundle, .prebuilt-tools has them)"; return; fi
  dir=$(nccl_lib_dir)
  LD_LIBRARY_PATH=${dir:+$dir:}${LD_LIBRARY_PATH:-} timeout 120 "$tests" --gtest_brief=1 >"$out/nccl-tests.log" 2>&1
  rc=$?
  note "nccl tests (libnccl from ${dir:-the system}): $(gtest_counts "$out/nccl-tests.log") (rc $rc)"
  ((rc)) && { status=1; tail -20 "$out/nccl-tests.log"; }
}

# LABEL NAME SHARDS LIMIT_S MAX_ITEMS FILTER: the GPU tests selected by FILTER. Returns its status,
# for a caller that runs it in a subshell.
run_gpu_tests() {
  local label=$1 name=$2 shards=$3 limit=$4 items=$5 filter=$6 t0 rc
  t0=$(date +%s)
  run_shards "$name" "$shards" "$limit" "$items" "$filter" "$gpu_tests"
  rc=$?
  grep -E "^\[  FAILED  \] [A-Za-z]" "$out/$name.log" | sort -u | head -30
  ((rc == 124)) && tail -5 "$out/$name.log"
  local size="at their own sizes"
  ((items)) && size="at most $items items"
  note "$label ($(processes "$shards"), $size): $(gtest_counts "$out/$name.log") of" \
    "$(count_selected "$filter") selected, rc $rc in $(( $(date +%s) - t0 )) s"
  ((rc)) && status=1
  return $rc
}

processes() { if (($1 == 1)); then echo "1 process"; else echo "$1 processes"; fi; }

count_selected() {  # FILTER: tests the GPU test binary runs under it (no GPU needed to list them)
  "$gpu_tests" --gtest_list_tests --gtest_filter="$1" 2>/dev/null | grep -c '^  '
}

# TOOL SHARDS LIMIT_S MAX_ITEMS FILTER: compute-sanitizer TOOL over the GPU tests FILTER selects.
run_sanitizer() {
  local tool=$1 shards=$2 limit=$3 items=$4 filter=$5 t0 rc extra=() errors
  t0=$(date +%s)
  case "$tool" in
    memcheck) extra=(--leak-check full) ;;
    racecheck) extra=(--kernel-name-exclude kns=CUB_) ;;  # CUB's kernels are the reference, not ours
  esac
  # racecheck lists every test with its time, so a shard cut short shows how far it got.
  gtest_brief=$([ "$tool" = racecheck ] && echo 0 || echo 1) \
    run_shards "sanitize-$tool" "$shards" "$limit" "$items" "$filter" \
    compute-sanitizer --tool "$tool" --error-exitcode 1 "${extra[@]}" "$gpu_tests"
  rc=$?
  errors=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$out/sanitize-$tool.log" | grep -oE '[0-9]+ errors?' |
           awk '{n += $1; k++} END {printf "%d errors in %d summaries", n, k}')
  note "sanitizer $tool ($(processes "$shards"), at most $items items): rc $rc, $errors," \
    "$(gtest_counts "$out/sanitize-$tool.log") of $(count_selected "$filter") selected in $(( $(date +%s) - t0 )) s"
  if ((rc)); then
    status=1
    grep -E -m 12 'Invalid|Race|Barrier|Uninitialized|hazard|FAILED' "$out/sanitize-$tool.log"
  fi
  return $rc
}

# The installed package works from another project: built and installed by ctest here, or by
# tools/prebuild.sh for a --prebuilt bundle; then the two examples run.
run_package_consumers() {
  local rc=prebuilt runs="" ex ex_rc
  : >"$out/package.log"
  if [ -z "$prebuilt" ]; then
    ctest --test-dir "$bin" -R package_consumer --output-on-failure >"$out/package.log" 2>&1
    rc=$?; ((rc)) && status=1
  fi
  local dir
  dir=$(nccl_lib_dir)  # consumer_nccl links libnccl
  for ex in consumer_cxx/sort_and_compact consumer_cuda/struct_sort consumer_nccl/dist_sort; do
    [ "$ex" = consumer_nccl/dist_sort ] && [ ! -x "$bin/package-consumer/$ex" ] && continue  # built without NCCL
    LD_LIBRARY_PATH=${dir:+$dir:}${LD_LIBRARY_PATH:-} "$bin/package-consumer/$ex" >>"$out/package.log" 2>&1
    ex_rc=$?
    runs+=" ${ex##*/}=rc$ex_rc"
    ((ex_rc)) && status=1
  done
  note "package consumers: build rc $rc, runs:$runs"
}

# EXCLUDE: the tools end to end (their ctest entries, those needing a GPU labelled gpu), of each
# tool built or unpacked here (a bundle may hold one); EXCLUDE leaves some out (the soak has its
# own step).
run_tool_tests() {
  local present=() tool
  for tool in sort compact; do [ -x "$bin/apps/upsweep-$tool/upsweep-$tool" ] && present+=("$tool"); done
  if ((${#present[@]} == 0)); then note "tools: not in these binaries (full-rest runs them)"; return; fi
  configure_for_ctest || return
  local t0 rc dir
  t0=$(date +%s)
  dir=$(nccl_lib_dir)  # upsweep-sort built with NCCL (--gpus, --distributed) links libnccl
  LD_LIBRARY_PATH=${dir:+$dir:}${LD_LIBRARY_PATH:-} \
    ctest --test-dir "$bin" -R "^upsweep-($(IFS='|'; echo "${present[*]}"))\\." -E "$1" -j 8 --output-on-failure \
    >"$out/apps.log" 2>&1
  rc=$?
  ((rc)) && { status=1; grep -E "Failed|\*\*\*" "$out/apps.log" | head -20; }
  note "tools (${present[*]}): $(grep -E 'tests passed|tests failed' "$out/apps.log" | tail -1) (rc $rc," \
    "$(( $(date +%s) - t0 )) s)"
}

# SECONDS: random configurations of every primitive against the CPU reference and CUB.
run_soak() {
  UPSWEEP_BUILD_DIR="$bin" timeout $(( $1 + 60 )) tools/soak.sh --seconds "$1" >"$out/soak.log" 2>&1
  local rc=$?
  ((rc)) && { status=1; tail -5 "$out/soak.log"; }
  note "soak ($1 s): $(tail -1 "$out/soak.log") (rc $rc)"
}

# NAME ARGS...: one upsweep-bench process (its own JSON, so a run cut short loses only itself; the
# newest CUB's rows run apart, run_bench_cub35). With BENCH_EXE set, that benchmark program instead.
bench_jsons=()
run_bench() {
  local name=$1 exe=${BENCH_EXE:-upsweep-bench} t0 rc
  shift
  t0=$(date +%s)
  timeout 540 "$bin/bench/$exe" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench-$name.json" --benchmark_out_format=json --no-cub35 "$@" >"$out/bench-$name.log" 2>&1
  rc=$?; ((rc)) && { status=1; tail -20 "$out/bench-$name.log"; }
  if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/bench-$name.json" 2>/dev/null; then
    bench_jsons+=("$out/bench-$name.json")
  else
    note "benchmark $name: no complete JSON (cut short?)"
  fi
  grep -E "_median" "$out/bench-$name.log" | sed 's|/min_time:[0-9.]*||; s|/manual_time_median||' |
    awk '{printf "%-60s %10s %s\n", $1, $2, $3}' >>"$out/bench-medians.txt"
  note "benchmark $name: rc $rc in $(( $(date +%s) - t0 )) s (reps $reps)"
}

# The newest CUB's rows of the same cases (upsweep-bench-cub35, built where tools/install-deps.sh
# --cccl fetched the CCCL 3.5 headers), for the suites that have them: core, sort, compact,
# histogram and topk.
run_bench_cub35() {
  if [ -x "$bin/bench/upsweep-bench-cub35" ]; then
    BENCH_EXE=upsweep-bench-cub35 run_bench "$1-cub35" --suite "$1"
  else
    note "benchmark $1-cub35: not in these binaries (no CCCL 3.5 headers where they were built)"
  fi
}

# Suite gpus: upsweep-bench-gpus, the sort across this machine's GPUs over NCCL (its own program:
# it links libnccl), 2 and 4 GPUs where there are, 2^28 and 2^30 items a GPU; its table goes to the report.
run_bench_gpus() {
  local t0 rc dir
  t0=$(date +%s)
  if [ ! -x "$bin/bench/upsweep-bench-gpus" ]; then note "benchmark gpus: not in these binaries (no NCCL where they were built)"; return; fi
  if ((gpus < 2)); then note "benchmark gpus: skipped, this machine has one GPU"; return; fi
  dir=$(nccl_lib_dir)
  LD_LIBRARY_PATH=${dir:+$dir:}${LD_LIBRARY_PATH:-} timeout 540 "$bin/bench/upsweep-bench-gpus" --reps "$reps" \
    --json "$out/bench-gpus.jsonl" >"$out/bench-gpus.md" 2>&1
  rc=$?; ((rc)) && { status=1; tail -20 "$out/bench-gpus.md"; }
  cat "$out/bench-gpus.md" >>"$out/bench-medians.txt"
  note "benchmark gpus: rc $rc in $(( $(date +%s) - t0 )) s (reps $reps)"
}

# Each suite of --bench in its own process, then the --bench-filter rows; the report of them all.
run_benchmarks() {
  local suites=$bench_suite suite
  [ "$suites" = all ] && suites=core,seeds,histogram,compact,sort  # the quick ones first
  if [ -n "$suites" ] && [ "$suites" != none ]; then
    for suite in ${suites//,/ }; do
      if [ "$suite" = gpus ]; then run_bench_gpus; else run_bench "$suite" --suite "$suite"; fi
      case $suite in core | sort | compact | histogram | topk) run_bench_cub35 "$suite" ;; esac
    done
  fi
  [ -n "$bench_filter" ] && run_bench filter --benchmark_filter="$bench_filter"
  if ((${#bench_jsons[@]})); then
    python3 bench/report.py "${bench_jsons[@]}" >"$out/bench.md" 2>&1 || cat "$out/bench.md"
  fi
  [ -f "$out/bench.md" ] || { [ -f "$out/bench-medians.txt" ] && cp "$out/bench-medians.txt" "$out/bench.md"; }
}

# --ncu KERNEL_REGEX BENCH_FILTER: one launch of the matching kernels inside those benchmark rows,
# profiled for where its warps stall (e.g. --ncu 'device_scan_kernel|DeviceScanKernel'
# '^core/inclusive_sum_i32/(upsweep|cub)/100000000/').
run_ncu() {
  [ -n "$ncu_kernel" ] || return 0
  local t0 rc
  t0=$(date +%s)
  timeout 300 ncu --kernel-name "regex:$ncu_kernel" --launch-skip 3 --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis "$bin/bench/upsweep-bench" --benchmark_filter="$ncu_filter" \
    --benchmark_min_time=0.05 >"$out/ncu.txt" 2>&1
  rc=$?
  grep -E "^  [a-zA-Z_].*\(|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall" "$out/ncu.txt" | head -60
  note "ncu ($ncu_kernel): rc $rc in $(( $(date +%s) - t0 )) s, ncu.txt"
}
