// Cooperative launch: every block of the grid is resident at once, or the launch is refused
// (cudaErrorCooperativeLaunchTooLarge) rather than run. Kernels whose blocks wait for each other
// need it: with an ordinary launch, another grid on the GPU (a second such kernel on another
// stream, say) can hold the SMs that a waited-for block needs. It is a launch attribute, so
// stream capture records it in the graph's kernel node.
#pragma once

#include <upsweep/util/chained_launch.cuh>

#include <cuda_runtime.h>

#include <utility>

namespace upsweep::detail {

inline cudaLaunchAttribute cooperative_attribute() {
  cudaLaunchAttribute cooperative = {};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  return cooperative;
}

template <class... Params, class... Args>
cudaError_t launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, Args&&... args) {
  return launch_with_attribute(kernel, grid, block, 0, stream, cooperative_attribute(), std::forward<Args>(args)...);
}

// Cooperative and chained (see chained_launch.cuh): the grid may be scheduled while the kernel
// before it finishes, and waits for it with wait_for_previous_grid().
template <class... Params, class... Args>
cudaError_t launch_chained_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                                       Args&&... args) {
  cudaLaunchAttribute attributes[2] = {cooperative_attribute(), chained_attribute()};
  return launch_with_attributes(kernel, grid, block, 0, stream, attributes, 2u, std::forward<Args>(args)...);
}

}  // namespace upsweep::detail
