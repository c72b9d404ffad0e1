// A stream beside the caller's for the length of one call, and an event per round: work forks
// from the caller's stream when opened and joins it when closed, or when the object goes on an
// error path, so the caller's stream never runs ahead of work that uses its buffers. CUDA
// releases the stream and the events once their work is done. Host code.
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <vector>

namespace upsweep::detail {

class side_stream {
 public:
  explicit side_stream(cudaStream_t caller) : caller_(caller) {}
  ~side_stream() { close(); }  // on an error path: the error being returned says more than this one
  side_stream(const side_stream&) = delete;
  side_stream& operator=(const side_stream&) = delete;

  // The side stream has the device's highest priority, so that its kernels (the exchange's) take
  // SMs as the caller's blocks drain instead of after the caller's whole kernel.
  cudaError_t open(int rounds) {
    int least = 0, greatest = 0;
    UPSWEEP_CUDA_RETURN(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    UPSWEEP_CUDA_RETURN(cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, greatest));
    events_.assign(static_cast<std::size_t>(rounds) + 1, nullptr);
    for (cudaEvent_t& e : events_) UPSWEEP_CUDA_RETURN(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    UPSWEEP_CUDA_RETURN(cudaEventRecord(events_.back(), caller_));  // the fork
    return cudaStreamWaitEvent(side_, events_.back(), 0);
  }
  cudaStream_t stream() const { return side_; }
  cudaError_t done(int round) { return cudaEventRecord(events_[static_cast<std::size_t>(round)], side_); }
  cudaError_t wait_for(int round) { return cudaStreamWaitEvent(caller_, events_[static_cast<std::size_t>(round)], 0); }

  // The join: the caller's stream waits for everything on the side stream; then both are released.
  cudaError_t close() {
    cudaError_t status = cudaSuccess;
    if (side_ != nullptr && !events_.empty() && events_.back() != nullptr) {
      status = cudaEventRecord(events_.back(), side_);
      if (status == cudaSuccess) status = cudaStreamWaitEvent(caller_, events_.back(), 0);
    }
    for (cudaEvent_t e : events_)
      if (e != nullptr) cudaEventDestroy(e);
    events_.clear();
    if (side_ != nullptr) {
      const cudaError_t destroyed = cudaStreamDestroy(side_);
      if (status == cudaSuccess) status = destroyed;
    }
    side_ = nullptr;
    return status;
  }

 private:
  cudaStream_t caller_;
  cudaStream_t side_ = nullptr;
  std::vector<cudaEvent_t> events_;
};

}  // namespace upsweep::detail
