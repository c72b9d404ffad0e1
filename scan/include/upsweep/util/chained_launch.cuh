// Programmatic dependent launch (sm_90 and later): a kernel launched chained may be scheduled
// while the kernel before it on the stream is still finishing, and waits for that grid's results
// at its first line. A multi-kernel algorithm pays one launch latency instead of one per kernel.
//
// The contract, for every kernel launched with launch_chained: call wait_for_previous_grid()
// before its first global load or store. After a memset, a copy or an event the launch is an
// ordinary one; on older GPUs both device calls compile to nothing.
#pragma once

#include <cuda_runtime.h>
#include <nv/target>

#include <cstddef>
#include <utility>

namespace upsweep::detail {

// Returns once every grid this one depends on has completed and its writes are visible.
__device__ __forceinline__ void wait_for_previous_grid() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();));
}

// Lets the next chained kernel's blocks be scheduled once every block of this grid has said so
// (or exited); they still wait for this grid to complete before touching memory.
__device__ __forceinline__ void let_next_grid_launch() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaTriggerProgrammaticLaunchCompletion();));
}

// The first line of a kernel that may be launched chained and may have one chained after it.
__device__ __forceinline__ void join_chain() {
  wait_for_previous_grid();
  let_next_grid_launch();
}

// Dynamic shared memory a kernel may take without asking first, when it has no static shared
// memory (the default limit counts both): a kernel with more than this keeps all of it dynamic.
inline constexpr std::size_t default_dynamic_shared_bytes = 48 * 1024;

// A kernel must opt in to more dynamic shared memory than the default. The attribute is the
// function's, not a stream's, so setting it is legal inside stream capture.
template <class... Params>
cudaError_t allow_dynamic_shared(void (*kernel)(Params...), std::size_t shared_bytes) {
  if (shared_bytes <= default_dynamic_shared_bytes) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes));
}

// A launch with `count` launch attributes and `shared_bytes` of dynamic shared memory per block.
template <class... Params, class... Args>
cudaError_t launch_with_attributes(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                                   cudaStream_t stream, cudaLaunchAttribute* attributes, unsigned count,
                                   Args&&... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = count;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

template <class... Params, class... Args>
cudaError_t launch_with_attribute(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                                  cudaStream_t stream, cudaLaunchAttribute attribute, Args&&... args) {
  return launch_with_attributes(kernel, grid, block, shared_bytes, stream, &attribute, 1u, std::forward<Args>(args)...);
}

// The attribute that lets a launch start before the previous kernel on its stream has finished.
inline cudaLaunchAttribute chained_attribute() {
  cudaLaunchAttribute chained = {};
  chained.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  chained.val.programmaticStreamSerializationAllowed = 1;
  return chained;
}

// A chained launch with `shared_bytes` of dynamic shared memory per block.
template <class... Params, class... Args>
cudaError_t launch_chained_shared(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                                  cudaStream_t stream, Args&&... args) {
  if (const cudaError_t status = allow_dynamic_shared(kernel, shared_bytes); status != cudaSuccess) return status;
  return launch_with_attribute(kernel, grid, block, shared_bytes, stream, chained_attribute(),
                               std::forward<Args>(args)...);
}

template <class... Params, class... Args>
cudaError_t launch_chained(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, Args&&... args) {
  return launch_chained_shared(kernel, grid, block, 0, stream, std::forward<Args>(args)...);
}

// Zeroes `bytes` bytes from `words` on; a grid-stride loop over words, the tail by thread 0. (A
// template, so that each translation unit's copy is a weak one.)
template <class Word>
__global__ void clear_bytes_kernel(Word* words, unsigned long long bytes) {
  join_chain();
  const unsigned long long whole = bytes / sizeof(Word);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long w = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; w < whole;
       w += stride)
    words[w] = Word{};
  if (blockIdx.x == 0 && threadIdx.x < bytes % sizeof(Word))
    reinterpret_cast<unsigned char*>(words + whole)[threadIdx.x] = 0;
}

inline constexpr unsigned clear_block_threads = 256;
inline constexpr unsigned clear_max_blocks = 1024;
// Up to this many bytes a memset then an ordinary launch costs no more than a clearing kernel with
// the next one chained to it, and less for a few tiles (H200, 2026-12-02, 10^4 int32: scan 7.4
// against 7.9 us); past it the chain saves up to 1.6 us (2 x 10^6 scan 15.4 -> 14.4, 10^6
// reduce_by_key 14.5 -> 13.1, 3 x 10^5 by key 0.25 us).
inline constexpr std::size_t memset_clear_max_bytes = 1024;

// Zeroes the 16-byte aligned `storage` before the next kernel on `stream`, which joins the chain
// (join_chain) at its first line and is launched chained: small storage by cudaMemsetAsync, larger
// by a chained kernel, since a launch after a memset cannot be chained and would pay its whole
// latency.
inline cudaError_t clear_before_chained(void* storage, std::size_t bytes, cudaStream_t stream) {
  if (bytes <= memset_clear_max_bytes) return cudaMemsetAsync(storage, 0, bytes, stream);
  const std::size_t blocks = (bytes / sizeof(uint4) + clear_block_threads - 1) / clear_block_threads;
  const unsigned grid = blocks < clear_max_blocks ? static_cast<unsigned>(blocks) : clear_max_blocks;
  return launch_chained(clear_bytes_kernel<uint4>, dim3(grid), dim3(clear_block_threads), stream,
                        static_cast<uint4*>(storage), static_cast<unsigned long long>(bytes));
}

}  // namespace upsweep::detail
