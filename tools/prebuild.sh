#!/usr/bin/env bash
# Builds the GPU check's binaries on this (GPU-less) machine with the same nvcc, for sm_90, and
# packs them into .prebuilt/ (git-ignored), which the device tool carries to the GPU machine:
#   tools/prebuild.sh && run: tools/gpu-check.sh --prebuilt .prebuilt   (carry .prebuilt, .debs)
# Device time is scarce; this spends none of it on compiling. Host debug symbols are stripped
# (device code keeps its -lineinfo for compute-sanitizer reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cmake --preset gpu >/dev/null
cmake --build --preset gpu -j "${UPSWEEP_JOBS:-$(nproc)}"
ctest --test-dir build/gpu -R package_consumer --output-on-failure >/dev/null  # builds the examples
out=build/prebuilt
rm -rf "$out" .prebuilt
mkdir -p "$out/apps" "$out/consumers" "$out/lib" .prebuilt
cp build/gpu/tests/upsweep_gpu_tests build/gpu/tests/upsweep_host_tests build/gpu/bench/upsweep-bench "$out/"
for app in build/gpu/apps/upsweep-*/upsweep-*; do
  [ -x "$app" ] && [ -f "$app" ] && cp "$app" "$out/apps/"
done
cp build/gpu/package-consumer/consumer_cxx/prefix_sum build/gpu/package-consumer/consumer_cuda/running_max "$out/consumers/"
# Shared libraries the GPU machine's distribution names differently (Debian's Google Benchmark).
ldd build/gpu/bench/upsweep-bench | awk '/libbenchmark/ {print $3}' | xargs -r -I{} cp -L {} "$out/lib/"
strip --strip-debug "$out"/upsweep_* "$out"/upsweep-bench "$out"/apps/* "$out"/consumers/* 2>/dev/null || true
git rev-parse --short HEAD >"$out/commit"
git status --porcelain --untracked-files=no | grep -q . && echo "+uncommitted changes" >>"$out/commit"
# The device tool carries at most 64 MiB; compressed, the fat binaries fit.
tar -C "$out" -czf .prebuilt/bundle.tgz .
du -sh .prebuilt/bundle.tgz
