// Sort across ranks, the plan's one host wait: the send counts every rank gathered, read back to
// the host, which needs them before the exchange (NCCL takes every size on the host).
#pragma once

#include <upsweep/sort/dist_exchange.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <vector>

namespace upsweep::detail {

// to[i] = from[i] for i < count, then *flag = 1, by one block: each thread fences its words to
// the system before the block's barrier, so the host sees them all once it sees the flag.
template <class T>
__global__ void copy_words_kernel(const T* from, T* to, std::size_t count, volatile unsigned* flag) {
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) to[i] = from[i];
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) *flag = 1;
}

// Spins until a kernel on the stream sets *flag, asking the stream every few hundred spins so
// that a failure ends the wait with its error.
inline cudaError_t wait_for_flag(volatile unsigned* flag, cudaStream_t stream) {
  for (unsigned spins = 1; *flag == 0; ++spins) {
    if (spins % 256 != 0) continue;
    const cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaSuccess && *flag == 0) return cudaErrorUnknown;  // the stream ended without it
    if (status != cudaSuccess && status != cudaErrorNotReady) return status;
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  return cudaSuccess;
}

// Host copy of `count` words from the device, once the stream reaches this point. Where the
// exchange has page-locked staging, a kernel writes them there and raises a flag that the host
// polls (cudaStreamSynchronize returned about 2 us later, and a cudaMemcpyAsync into the staging
// 8 us later still: an H200, 2026-11-26); else the stream first, then a copy to pageable memory
// (one that waits for the stream inside the driver returned later still).
template <class T>
cudaError_t read_back(dist_exchange& exchange, std::vector<T>& host, const T* d_from, std::size_t count,
                      cudaStream_t stream) {
  host.resize(count);
  const std::size_t bytes = count * sizeof(T), flag_at = (bytes + 63) / 64 * 64;
  void* staging = exchange.host_staging(flag_at + sizeof(unsigned));
  if (staging != nullptr) {
    auto* flag = reinterpret_cast<volatile unsigned*>(static_cast<char*>(staging) + flag_at);
    *flag = 0;
    copy_words_kernel<<<1, 256, 0, stream>>>(d_from, static_cast<T*>(staging), count, flag);
    UPSWEEP_CUDA_RETURN(cudaGetLastError());
    UPSWEEP_CUDA_RETURN(wait_for_flag(flag, stream));
    std::memcpy(host.data(), staging, bytes);
    return cudaSuccess;
  }
  UPSWEEP_CUDA_RETURN(cudaStreamSynchronize(stream));
  UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(host.data(), d_from, bytes, cudaMemcpyDeviceToHost, stream));
  return cudaStreamSynchronize(stream);
}

}  // namespace upsweep::detail
