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

}  // namespace upsweep::detail
