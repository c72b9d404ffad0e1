#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks for building, testing and benchmarking
# Upsweep (apt-get install -y; sudo when not root), and checks that nvcc is on the PATH.
# Sourced by tools/build-and-test.sh and tools/sort-demo.sh.
# clang and libclang-rt-dev: the libFuzzer targets of tests/fuzz (ctest runs each briefly);
# python3-matplotlib: the charts of bench/report.py; pkg-config: the package test builds an
# example from upsweep.pc.
needed=(cmake ninja-build g++ libgtest-dev libbenchmark-dev python3 python3-matplotlib libcli11-dev libfmt-dev
        clang libclang-rt-dev pkg-config)
missing=()
for pkg in "${needed[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q "${missing[@]}"
fi
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || { echo "install-deps: nvcc (CUDA 13) not found" >&2; exit 1; }

deps=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.deps

# NCCL for Upsweep::sort_nccl, on request (`tools/install-deps.sh --nccl`): the nvidia-nccl-cu13
# wheel from PyPI, unpacked into .deps/nccl-wheel where CMake looks. A system NCCL needs nothing.
if [[ " $* " == *" --nccl "* ]]; then
  if [ ! -f "$deps/nccl-wheel/nvidia/nccl/include/nccl.h" ]; then
    mkdir -p "$deps/wheels"
    python3 -m pip download --no-deps --only-binary=:all: -d "$deps/wheels" nvidia-nccl-cu13 &&
      python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
        "$(ls "$deps"/wheels/nvidia_nccl_cu13-*.whl | tail -1)" "$deps/nccl-wheel" ||
      { echo "install-deps: the NCCL wheel could not be fetched" >&2; exit 1; }
  fi
fi

# The newest CUB for upsweep-bench-cub35, on request (`tools/install-deps.sh --cccl`): the
# nvidia-cuda-cccl wheel from PyPI (CCCL 3.5 headers; they build with the toolkit's nvcc 13.0),
# unpacked into .deps/cccl-wheel where bench/CMakeLists.txt looks.
if [[ " $* " == *" --cccl "* ]] && [ ! -f "$deps/cccl-wheel/nvidia/cu13/include/cccl/cub/version.cuh" ]; then
  mkdir -p "$deps/wheels"
  python3 -m pip download --no-deps --only-binary=:all: -d "$deps/wheels" "nvidia-cuda-cccl>=13.3.5" &&
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
      "$(ls "$deps"/wheels/nvidia_cuda_cccl-*.whl | tail -1)" "$deps/cccl-wheel" ||
    { echo "install-deps: the CCCL wheel could not be fetched" >&2; exit 1; }
fi

# MPI for `upsweep-sort --distributed`, on request (`tools/install-deps.sh --mpi`, with --nccl: the
# tool needs both): Debian's Open MPI, fetched without root by apt-get download and unpacked into
# .deps/openmpi where apps/upsweep-sort looks. It gives the headers and libmpi to build against;
# mpirun, and the libmpi the ranks load, come from the machine that runs them (Open MPI 4.1 ABI).
if [[ " $* " == *" --mpi "* ]] && [ ! -f "$deps/openmpi/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h" ]; then
  mkdir -p "$deps/openmpi-debs"
  (cd "$deps/openmpi-debs" && apt-get download libopenmpi-dev libopenmpi3 libhwloc15 libevent-core-2.1-7 \
                                                libevent-pthreads-2.1-7) ||
    { echo "install-deps: the Open MPI packages could not be fetched (apt-get download)" >&2; exit 1; }
  for deb in "$deps"/openmpi-debs/*.deb; do dpkg-deb -x "$deb" "$deps/openmpi" || exit 1; done
fi
