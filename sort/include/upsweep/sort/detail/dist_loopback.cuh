// Sort across ranks: P logical ranks on one GPU, each driven by its own host thread and stream,
// exchanging through device-to-device copies. A collective is three rendezvous of the P threads:
// every rank posts its buffers and an event after its earlier work; every rank copies what it
// receives once the senders' events have passed, every piece in one kernel; every rank's stream
// then waits for the copies that read its buffers, so it may reuse them afterwards, as after an
// NCCL call. Tests and benchmark only: a rank that fails before a collective leaves the others
// waiting.
#pragma once

#include <upsweep/sort/detail/pinned_staging.hpp>
#include <upsweep/sort/dist_exchange.hpp>
#include <upsweep/util/error.hpp>

#include <cuda/std/cstdint>

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace upsweep::detail {

// The pieces one launch copies. One kernel instead of a cudaMemcpyAsync a piece: four logical
// ranks' plan runs two all-gathers of four pieces each, and every copy adds its own latency (the
// plan of 2^22 keys a rank took 0.080 ms with copies, 0.057 with the kernel; H200, 2026-11-26).
// Pieces from 16 MiB on still go by cudaMemcpyAsync, which moved them 4 % faster.
inline constexpr int loopback_pieces_max = 8;
struct loopback_pieces {
  const char* from[loopback_pieces_max] = {};
  char* to[loopback_pieces_max] = {};
  std::size_t bytes[loopback_pieces_max] = {};
  int count = 0;
};

// This block's share of the first bytes / sizeof(Word) words, four loads in flight a thread;
// returns the bytes it covers.
template <class Word>
__device__ std::size_t copy_words(const char* from, char* to, std::size_t bytes) {
  const auto* src = reinterpret_cast<const Word*>(from);
  auto* dst = reinterpret_cast<Word*>(to);
  const std::size_t words = bytes / sizeof(Word), step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words; i += 4 * step) {
    Word w[4];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      if (i + u * step < words) w[u] = src[i + u * step];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      if (i + u * step < words) dst[i + u * step] = w[u];
  }
  return words * sizeof(Word);
}

// Piece blockIdx.y, in the widest words both of its ends allow, then its last bytes.
__global__ inline void copy_pieces_kernel(loopback_pieces pieces) {
  const int k = static_cast<int>(blockIdx.y);
  const char* from = pieces.from[k];
  char* to = pieces.to[k];
  const std::size_t bytes = pieces.bytes[k];
  const auto ends = reinterpret_cast<cuda::std::uintptr_t>(from) | reinterpret_cast<cuda::std::uintptr_t>(to);
  std::size_t done = 0;
  if (ends % 16 == 0) done = copy_words<uint4>(from, to, bytes);
  else if (ends % 8 == 0) done = copy_words<unsigned long long>(from, to, bytes);
  else if (ends % 4 == 0) done = copy_words<unsigned>(from, to, bytes);
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (std::size_t i = done + first; i < bytes; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) to[i] = from[i];
}

inline cudaError_t copy_pieces(const loopback_pieces& all, cudaStream_t stream) {
  constexpr std::size_t large = std::size_t{16} << 20;
  loopback_pieces pieces;
  std::size_t most = 0;
  for (int k = 0; k < all.count; ++k) {
    if (all.bytes[k] >= large) {
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(all.to[k], all.from[k], all.bytes[k], cudaMemcpyDeviceToDevice, stream));
      continue;
    }
    pieces.from[pieces.count] = all.from[k];
    pieces.to[pieces.count] = all.to[k];
    pieces.bytes[pieces.count++] = all.bytes[k];
    most = all.bytes[k] > most ? all.bytes[k] : most;
  }
  if (pieces.count == 0) return cudaSuccess;
  constexpr unsigned threads = 256;
  const std::size_t blocks = (most + threads * 64 - 1) / (threads * 64);  // 4 uint4 a thread a pass
  const dim3 grid(static_cast<unsigned>(blocks < 1 ? 1 : blocks > 1024 ? 1024 : blocks), static_cast<unsigned>(pieces.count));
  copy_pieces_kernel<<<grid, threads, 0, stream>>>(pieces);
  return cudaGetLastError();
}

class loopback_fabric {
 public:
  explicit loopback_fabric(int num_ranks) : num_ranks_(num_ranks), posts_(static_cast<std::size_t>(num_ranks)) {}
  int size() const { return num_ranks_; }

  struct post {
    const void* d_send = nullptr;
    std::size_t bytes = 0;                          // all-gather
    const std::size_t* send_bytes = nullptr;        // all-to-all
    const std::size_t* send_offsets = nullptr;
    cudaEvent_t ready = nullptr, copied = nullptr;  // the sender's earlier work; this rank's copies
  };
  post& post_of(int rank) { return posts_[static_cast<std::size_t>(rank)]; }

  // Returns once all ranks have arrived. The threads spin (yielding) rather than sleep: 4 ranks
  // of 2^22 keys took 0.764 ms against 0.811 with waits that slept (H200, 2026-11-26).
  void rendezvous() {
    const long long generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == num_ranks_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

 private:
  int num_ranks_;
  std::vector<post> posts_;
  std::atomic<int> arrived_{0};
  std::atomic<long long> generation_{0};
};

class loopback_exchange final : public dist_exchange {
 public:
  loopback_exchange(loopback_fabric& fabric, int rank) : fabric_(fabric), rank_(rank) {
    UPSWEEP_CUDA_THROW(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
    const cudaError_t created = cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming);
    if (created != cudaSuccess) {  // the destructor does not run for a constructor that throws
      static_cast<void>(cudaEventDestroy(ready_));
      throw_if_failed(created, "cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming)", __FILE__, __LINE__);
    }
  }
  ~loopback_exchange() override {
    static_cast<void>(cudaEventDestroy(ready_));
    static_cast<void>(cudaEventDestroy(copied_));
  }
  loopback_exchange(const loopback_exchange&) = delete;
  loopback_exchange& operator=(const loopback_exchange&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return fabric_.size(); }
  bool transfers_overlap_kernels() const override { return false; }  // copies on the same GPU
  void* host_staging(std::size_t bytes) override { return staging_.get(bytes); }

  cudaError_t all_gather(const void* d_send, void* d_recv, std::size_t bytes, cudaStream_t stream) override {
    return collective(d_send, bytes, nullptr, nullptr, stream,
                      [&](const loopback_fabric::post& from, int q, loopback_pieces& pieces) {
                        add(pieces, from.d_send, static_cast<char*>(d_recv) + q * bytes, bytes);
                        return cudaSuccess;
                      });
  }

  cudaError_t all_to_all_v(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                           void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets,
                           cudaStream_t stream) override {
    return collective(d_send, 0, send_bytes, send_offsets, stream,
                      [&](const loopback_fabric::post& from, int q, loopback_pieces& pieces) {
                        const std::size_t bytes = from.send_bytes[rank_];
                        if (bytes != recv_bytes[q]) return cudaErrorInvalidValue;  // the plans disagree
                        add(pieces, static_cast<const char*>(from.d_send) + from.send_offsets[rank_],
                            static_cast<char*>(d_recv) + recv_offsets[q], bytes);
                        return cudaSuccess;
                      });
  }

 private:
  template <class Receive>
  cudaError_t collective(const void* d_send, std::size_t bytes, const std::size_t* send_bytes,
                         const std::size_t* send_offsets, cudaStream_t stream, Receive receive) {
    // Every step runs even after a failure, so the other ranks' rendezvous still complete.
    cudaError_t status = cudaEventRecord(ready_, stream);
    fabric_.post_of(rank_) = {d_send, bytes, send_bytes, send_offsets, ready_, copied_};
    fabric_.rendezvous();
    loopback_pieces pieces;
    for (int q = 0; q < size(); ++q) {
      const loopback_fabric::post& from = fabric_.post_of(q);
      if (status == cudaSuccess) status = cudaStreamWaitEvent(stream, from.ready, 0);
      if (status == cudaSuccess) status = receive(from, q, pieces);
      if (status == cudaSuccess && pieces.count == loopback_pieces_max) {
        status = copy_pieces(pieces, stream);
        pieces.count = 0;
      }
    }
    if (status == cudaSuccess) status = copy_pieces(pieces, stream);
    if (status == cudaSuccess) status = cudaEventRecord(copied_, stream);
    fabric_.rendezvous();
    for (int q = 0; q < size() && status == cudaSuccess; ++q)
      status = cudaStreamWaitEvent(stream, fabric_.post_of(q).copied, 0);
    fabric_.rendezvous();  // nobody records its events again before every wait is enqueued
    return status;
  }

  static void add(loopback_pieces& pieces, const void* from, void* to, std::size_t bytes) {
    if (bytes == 0) return;
    pieces.from[pieces.count] = static_cast<const char*>(from);
    pieces.to[pieces.count] = static_cast<char*>(to);
    pieces.bytes[pieces.count++] = bytes;
  }

  loopback_fabric& fabric_;
  int rank_;
  cudaEvent_t ready_ = nullptr, copied_ = nullptr;
  pinned_staging staging_{dist_staging_bytes};
};

}  // namespace upsweep::detail
