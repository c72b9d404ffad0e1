// Convenience forms that hand a count back to the host: the count goes to a stream-ordered device
// word, is copied back and the stream is synchronised. These are the only calls here that block.
#pragma once

#include <upsweep/util/error.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace upsweep::detail {

// `device_call(d_count)` enqueues the work and throws on failure.
template <class DeviceCall>
std::int64_t count_to_host(const char* what, cudaStream_t stream, DeviceCall&& device_call) {
  stream_allocation count(sizeof(std::int64_t), stream);
  auto* d_count = static_cast<std::int64_t*>(count.get());
  device_call(d_count);
  std::int64_t host_count = 0;
  throw_if_failed(cudaMemcpyAsync(&host_count, d_count, sizeof(host_count), cudaMemcpyDeviceToHost, stream), what,
                  __FILE__, __LINE__);
  count.release();
  throw_if_failed(cudaStreamSynchronize(stream), what, __FILE__, __LINE__);
  return host_count;
}

}  // namespace upsweep::detail
