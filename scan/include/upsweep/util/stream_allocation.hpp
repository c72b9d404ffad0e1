// Convenience layer plumbing: stream-ordered temporary storage (cudaMallocAsync on the caller's
// stream, so no device sync) and the query-allocate-call sequence every convenience call shares.
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace upsweep::detail {

class stream_allocation {
 public:
  stream_allocation(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    UPSWEEP_CUDA_THROW(cudaMallocAsync(&ptr_, bytes, stream_));
  }
  stream_allocation(const stream_allocation&) = delete;
  stream_allocation& operator=(const stream_allocation&) = delete;
  // Only reached while an exception unwinds; the normal path frees through release().
  ~stream_allocation() {
    if (ptr_ != nullptr) static_cast<void>(cudaFreeAsync(ptr_, stream_));
  }
  void* get() const noexcept { return ptr_; }
  void release() {
    void* ptr = std::exchange(ptr_, nullptr);
    UPSWEEP_CUDA_THROW(cudaFreeAsync(ptr, stream_));
  }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_;
};

// Runs a core-layer call twice, first as a size query, then with stream-ordered storage; any
// failure becomes an upsweep::cuda_error naming `what`.
template <class CoreCall>
void with_temp_storage(const char* what, cudaStream_t stream, CoreCall&& core_call) {
  std::size_t bytes = 0;
  throw_if_failed(core_call(nullptr, bytes), what, __FILE__, __LINE__);
  stream_allocation temp(bytes, stream);
  throw_if_failed(core_call(temp.get(), bytes), what, __FILE__, __LINE__);
  temp.release();
}

}  // namespace upsweep::detail
