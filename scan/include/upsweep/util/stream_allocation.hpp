// Convenience layer plumbing: stream-ordered temporary storage (cudaMallocAsync on the caller's
// stream, so no device sync) and the query-allocate-call sequence every convenience call shares.
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

namespace upsweep::detail {

class stream_allocation {
 public:
  stream_allocation(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    const cudaError_t status = cudaMallocAsync(&ptr_, bytes, stream_);
    if (status != cudaSuccess) {
      // A failed allocation is not sticky, but it stays the runtime's last error: cleared here,
      // so the next call's launch check does not report it as its own.
      static_cast<void>(cudaGetLastError());
      throw cuda_error(status, allocation_call(bytes), __FILE__, __LINE__);
    }
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
  // "cudaMallocAsync of N bytes (need X GiB, Y GiB free)": what a caller needs to act on.
  static std::string allocation_call(std::size_t bytes) {
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    std::size_t free_bytes = 0, total_bytes = 0;
    char text[160];
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      std::snprintf(text, sizeof(text), "cudaMallocAsync of %zu bytes (need %.2f GiB, %.2f GiB free)", bytes,
                    static_cast<double>(bytes) / gib, static_cast<double>(free_bytes) / gib);
    } else {
      static_cast<void>(cudaGetLastError());
      std::snprintf(text, sizeof(text), "cudaMallocAsync of %zu bytes (need %.2f GiB)", bytes,
                    static_cast<double>(bytes) / gib);
    }
    return text;
  }

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
