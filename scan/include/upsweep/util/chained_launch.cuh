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

template <class... Params, class... Args>
cudaError_t launch_chained(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace upsweep::detail
