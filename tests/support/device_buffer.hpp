// A minimal owning device array for tests: checked cudaMalloc/cudaFree and host copies.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace upsweep::test {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " " + cudaGetErrorString(status));
}

template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::int64_t n, std::int64_t slack = 0) : n_(n) {
    // `slack` extra items stay allocated past the end (guard values, misaligned views).
    check(cudaMalloc(&ptr_, static_cast<std::size_t>(n + slack > 0 ? n + slack : 1) * sizeof(T)), "cudaMalloc");
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(static_cast<std::int64_t>(host.size())) {
    upload(host);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(ptr_); }

  T* data() const { return ptr_; }
  std::int64_t size() const { return n_; }

  // Complete on return: cudaMemcpy from pageable memory may return before its last piece has
  // reached the device, and work on a non-blocking stream would not wait for it (a graph replay
  // once sorted keys that were still arriving).
  void upload(const std::vector<T>& host) {
    check(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
    check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize after the H2D copy");
  }
  std::vector<T> download(std::int64_t count = -1, std::int64_t offset = 0) const {
    std::vector<T> host(static_cast<std::size_t>(count < 0 ? n_ : count));
    check(cudaMemcpy(host.data(), ptr_ + offset, host.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::int64_t n_;
};

}  // namespace upsweep::test
