#!/usr/bin/env bash
# Builds the GPU check's binaries on this (GPU-less) machine with the same nvcc, for sm_90, and
# packs them into .prebuilt*/ (git-ignored), which the device tool carries to the GPU machine.
# Device time is scarce; this spends none of it on compiling. The gpu preset emits sm_90 SASS only
# (no PTX: it was 47 MB of the tests bundle's 107, 2026-11-28). Host debug symbols are stripped
# (device code keeps its -lineinfo for compute-sanitizer reports). The device tool carries at most
# 64 MiB with the working tree, so the bundles follow the tiers of tools/gpu-check.sh:
#   tools/prebuild.sh --split  everything, in three bundles, each carried by the calls that need it:
#     .prebuilt        the GPU tests: quick, full-tests, full-large, full-sanitizers, full-racecheck
#                      (run: tools/gpu-check.sh TIER --prebuilt .prebuilt). The host tests stay
#                      here (they need no GPU), and the NCCL tests ride with the tools: with them
#                      the bundle ran past the 64 MiB.
#     .prebuilt-tools  upsweep-sort, its CPU reference and the NCCL tests: full-rest runs them
#     .prebuilt-bench  the benchmark, the soak, the package consumers and upsweep-compact: bench, and
#                      the rest of full-rest
#   tools/prebuild.sh --sanitizers-and-bench  only the GPU tests and the benchmark into .prebuilt
#     (6.5 minutes on 2 cores after a sort header change; 61 MB of xz on 2026-11-26, too much to
#     carry beside anything else): full-large, full-sanitizers, full-racecheck and bench, not the
#     tiers that also run the host tests or the tools.
#   tools/prebuild.sh --no-bench  everything but the benchmark into .prebuilt (70 MB of xz on
#     2026-11-22, past the 64 MiB: use --split).
#   tools/prebuild.sh  everything into .prebuilt, for a device call without the 64 MiB limit.
# Also carry .debs where the GPU machine lacks CLI11 or fmt (tools/gpu-check-steps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
minimal=0
no_bench=0
split=0
[ "${1:-}" = --sanitizers-and-bench ] && minimal=1
[ "${1:-}" = --no-bench ] && no_bench=1
[ "${1:-}" = --split ] && split=1
cmake --preset gpu >/dev/null
out=build/prebuilt
rm -rf "$out" .prebuilt .prebuilt-tools .prebuilt-bench
mkdir -p "$out/lib" .prebuilt
# Paths relative to build/gpu, kept as they are: gpu-check.sh copies the tree back into its build
# folder, where ctest's tool tests expect their executables.
if ((minimal)); then
  cmake --build --preset gpu -j "${UPSWEEP_JOBS:-$(nproc)}" --target upsweep_gpu_tests upsweep-bench
  (cd build/gpu && cp --parents tests/upsweep_gpu_tests bench/upsweep-bench "$root/$out/")
else
  cmake --build --preset gpu -j "${UPSWEEP_JOBS:-$(nproc)}"
  ctest --test-dir build/gpu -R package_consumer --output-on-failure >/dev/null  # builds the examples
  (cd build/gpu && cp --parents tests/upsweep_gpu_tests tests/upsweep_host_tests bench/upsweep-bench \
     apps/upsweep-*/upsweep-sort apps/upsweep-*/upsweep-compact tests/apps/upsweep_sort_reference \
     package-consumer/consumer_cxx/sort_and_compact package-consumer/consumer_cuda/struct_sort \
     tools/soak/upsweep-soak "$root/$out/")
  [ -x build/gpu/tests/upsweep_nccl_tests ] && (cd build/gpu && cp --parents tests/upsweep_nccl_tests "$root/$out/")
  [ -x build/gpu/bench/upsweep-bench-cub35 ] && (cd build/gpu && cp --parents bench/upsweep-bench-cub35 "$root/$out/")
  [ -x build/gpu/bench/upsweep-bench-gpus ] &&
    (cd build/gpu && cp --parents bench/upsweep-bench-gpus bench/upsweep-bench-nccl-sizes "$root/$out/")
  [ -x build/gpu/package-consumer/consumer_nccl/dist_sort ] &&
    (cd build/gpu && cp --parents package-consumer/consumer_nccl/dist_sort "$root/$out/")
fi
if ((no_bench)); then rm -rf "$out/bench"; fi
# Shared libraries the GPU machine's distribution names differently (Debian's Google Benchmark).
ldd build/gpu/bench/upsweep-bench | awk '/libbenchmark/ {print $3}' | xargs -r -I{} cp -L {} "$out/lib/"
find "$out" -type f -perm -u+x -exec strip --strip-debug {} + 2>/dev/null || true
git rev-parse --short HEAD >"$out/commit"
git status --porcelain --untracked-files=no | grep -q . && echo "+uncommitted changes" >>"$out/commit"
# The device tool carries at most 64 MiB with the working tree; xz -9e keeps the fat binaries
# under it (2026-11-21: gzip 65 MB, xz 47 MB; a larger bundle that day: xz 65 MB, xz -9e 55 MB),
# and a 256 MiB dictionary finds the device code the tools share (2026-11-26: 53.4 MB to 53.0).
pack() {  # DIR PATHS...: those paths of $out (relative to it) into DIR/bundle.txz
  local dir=$1
  shift
  mkdir -p "$dir"
  tar -C "$out" -cf - "$@" | xz --lzma2=preset=9e,dict=256MiB -T0 >"$dir/bundle.txz"
  du -sh "$dir/bundle.txz"
}
if ((split)); then
  pack .prebuilt commit tests/upsweep_gpu_tests
  pack .prebuilt-tools commit tests/apps apps/upsweep-sort $(cd "$out" && ls tests/upsweep_nccl_tests 2>/dev/null)
  pack .prebuilt-bench commit lib bench tools package-consumer apps/upsweep-compact
else
  pack .prebuilt .
fi
