// The input indices that --pairs sorts along with the keys: d_indices[i] = first + i, on the device.
#include "sort_backends.hpp"

namespace upsweep::apps {
namespace {

template <class Index>
__global__ void fill_indices_kernel(Index* d_indices, std::int64_t n, std::int64_t first) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    d_indices[i] = static_cast<Index>(first + i);
}

}  // namespace

template <class Index>
cudaError_t fill_indices(Index* d_indices, std::int64_t n, std::int64_t first, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr int block_threads = 256;
  const std::int64_t blocks = (n + block_threads - 1) / block_threads;
  const auto grid = static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
  fill_indices_kernel<<<grid, block_threads, 0, stream>>>(d_indices, n, first);
  return cudaGetLastError();
}

template cudaError_t fill_indices<std::uint32_t>(std::uint32_t*, std::int64_t, std::int64_t, cudaStream_t);
template cudaError_t fill_indices<std::uint64_t>(std::uint64_t*, std::int64_t, std::int64_t, cudaStream_t);

}  // namespace upsweep::apps
