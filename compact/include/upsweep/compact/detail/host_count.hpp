// Convenience forms that hand a count back to the host: the count goes to a stream-ordered device
// word, is copied back and the stream is synchronised. These are the only calls here that block.
#pragma once

#include <upsweep/util/error.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// `device_call(d_counts)` enqueues the work, writing N counts, and throws on failure.
template <std::size_t N, class DeviceCall>
std::array<std::int64_t, N> counts_to_host(const char* what, cudaStream_t stream, DeviceCall&& device_call) {
  stream_allocation counts(N * sizeof(std::int64_t), stream);
  auto* d_counts = static_cast<std::int64_t*>(counts.get());
  device_call(d_counts);
  std::array<std::int64_t, N> host_counts{};
  throw_if_failed(cudaMemcpyAsync(host_counts.data(), d_counts, sizeof(host_counts), cudaMemcpyDeviceToHost, stream),
                  what, __FILE__, __LINE__);
  counts.release();
  throw_if_failed(cudaStreamSynchronize(stream), what, __FILE__, __LINE__);
  return host_counts;
}

template <class DeviceCall>
std::int64_t count_to_host(const char* what, cudaStream_t stream, DeviceCall&& device_call) {
  return counts_to_host<1>(what, stream, device_call)[0];
}

}  // namespace upsweep::detail
