// Device helpers shared by the tools' GPU halves: a checked CUDA call, an owning device buffer
// that counts the bytes the tool holds (for "peak device memory"), and an event timer. Only the
// CUDA runtime API, so g++ and nvcc both compile it.
#pragma once

#include <upsweep/apps/gpu.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace upsweep::apps {

// Throws gpu_error "WHAT failed (cudaErrorX: text)" unless `code` is cudaSuccess.
void check(cudaError_t code, const char* what);

// Device bytes held through device_buffer and tracked_malloc now, and the most held at once.
std::size_t device_bytes_held();
std::size_t device_bytes_peak();
void* tracked_malloc(std::size_t bytes);  // throws gpu_error
void tracked_free(void* ptr, std::size_t bytes);

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n) : bytes_(n * sizeof(T)) {
    if (bytes_) ptr_ = static_cast<T*>(tracked_malloc(bytes_));
  }
  ~device_buffer() { reset(); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept : ptr_(other.ptr_), bytes_(other.bytes_) {
    other.ptr_ = nullptr;
    other.bytes_ = 0;
  }
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = other.ptr_;
      bytes_ = other.bytes_;
      other.ptr_ = nullptr;
      other.bytes_ = 0;
    }
    return *this;
  }
  void reset() {
    if (ptr_) tracked_free(ptr_, bytes_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  T* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  T* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Times work on the default stream with a pair of events.
class event_timer {
 public:
  event_timer();
  ~event_timer();
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  void start();
  float stop_ms();  // waits for the work

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace upsweep::apps
