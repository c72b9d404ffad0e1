// Sort across ranks: P logical ranks on one GPU, each driven by its own host thread and stream,
// exchanging through device-to-device copies. A collective is one rendezvous of the P threads:
// every rank posts its buffers and makes the fabric's own stream wait for an event after its
// earlier work; the last to arrive checks the posts against each other and moves every piece on
// that stream in one kernel; every rank's stream then waits for that stream, so it may reuse its
// buffers afterwards, as after an NCCL call. Tests and benchmark only: a rank that fails before a
// collective leaves the others waiting.
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

// The pieces one launch copies: a collective of up to 8 ranks in one. One kernel instead of a
// cudaMemcpyAsync a piece, since every copy adds its own latency (the plan of four ranks of 2^22
// keys took 0.080 ms with copies, 0.057 with a kernel a rank; H200, 2026-11-26), and copies on the
// fabric's one stream would run one after another.
inline constexpr int loopback_pieces_max = 64;
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

inline cudaError_t copy_pieces(const loopback_pieces& pieces, cudaStream_t stream) {
  if (pieces.count == 0) return cudaSuccess;
  std::size_t most = 0;
  for (int k = 0; k < pieces.count; ++k) most = pieces.bytes[k] > most ? pieces.bytes[k] : most;
  constexpr unsigned threads = 256;
  const std::size_t blocks = (most + threads * 64 - 1) / (threads * 64);  // 4 uint4 a thread a pass
  const dim3 grid(static_cast<unsigned>(blocks < 1 ? 1 : blocks > 1024 ? 1024 : blocks), static_cast<unsigned>(pieces.count));
  copy_pieces_kernel<<<grid, threads, 0, stream>>>(pieces);
  return cudaGetLastError();
}

class loopback_fabric {
 public:
  // What one rank brings to a collective: for an all-gather, d_send and bytes; for an
  // all-to-all-v, the four host arrays of dist_exchange::all_to_all_v.
  struct post {
    const void* d_send = nullptr;
    void* d_recv = nullptr;
    std::size_t bytes = 0;
    const std::size_t *send_bytes = nullptr, *send_offsets = nullptr, *recv_bytes = nullptr, *recv_offsets = nullptr;
    cudaEvent_t ready = nullptr;  // recorded after the rank's earlier work
    cudaError_t status = cudaSuccess;
  };

  explicit loopback_fabric(int num_ranks) : num_ranks_(num_ranks), posts_(static_cast<std::size_t>(num_ranks)) {
    int least = 0, greatest = 0;
    UPSWEEP_CUDA_THROW(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    UPSWEEP_CUDA_THROW(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
    const cudaError_t created = cudaEventCreateWithFlags(&done_, cudaEventDisableTiming);
    if (created != cudaSuccess) {  // the destructor does not run for a constructor that throws
      static_cast<void>(cudaStreamDestroy(stream_));
      throw_if_failed(created, "cudaEventCreateWithFlags(&done_, cudaEventDisableTiming)", __FILE__, __LINE__);
    }
  }
  ~loopback_fabric() {
    static_cast<void>(cudaEventDestroy(done_));
    static_cast<void>(cudaStreamDestroy(stream_));
  }
  loopback_fabric(const loopback_fabric&) = delete;
  loopback_fabric& operator=(const loopback_fabric&) = delete;
  int size() const { return num_ranks_; }

  // One collective: returns once every rank has posted and the copies are enqueued, with the
  // same status on every rank; on success `done` is recorded after them. An all-to-all whose
  // ranks disagree on a piece's length moves nothing and fails with cudaErrorInvalidValue. Each
  // rank makes the fabric's stream wait for its event as it arrives, so that the last one only
  // launches the copies: host calls are what the four ranks of 2^22 keys wait for between their
  // plan and their merges, as every rank's calls take turns in the driver (an H200, 2026-11-26).
  cudaError_t collective(int rank, post mine, bool all_to_all) {
    if (mine.status == cudaSuccess) mine.status = cudaStreamWaitEvent(stream_, mine.ready, 0);
    posts_[static_cast<std::size_t>(rank)] = mine;
    rendezvous([&] { status_ = move_all(all_to_all); });
    return status_;
  }
  // Recorded by each collective after its copies; a rank's stream waits for it before returning.
  cudaEvent_t done() const { return done_; }

 private:
  // Returns once all ranks have arrived, the last having run `last` first. The threads spin
  // (yielding) rather than sleep: 4 ranks of 2^22 keys took 0.764 ms against 0.811 with waits
  // that slept (H200, 2026-11-26). `done` is recorded again only after every rank has arrived at
  // the next collective, so after every wait for it is enqueued.
  template <class Last>
  void rendezvous(Last last) {
    const long long generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == num_ranks_) {
      last();
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

  // Every piece from its sender to its receiver (the fabric's stream already waits for every
  // sender's event).
  cudaError_t move_all(bool all_to_all) {
    for (const post& p : posts_)
      if (p.status != cudaSuccess) return p.status;
    const std::size_t ranks = posts_.size();
    for (std::size_t q = 0; q < ranks; ++q)
      for (std::size_t r = 0; r < ranks; ++r)  // the plans disagree
        if (all_to_all ? posts_[q].send_bytes[r] != posts_[r].recv_bytes[q] : posts_[q].bytes != posts_[r].bytes)
          return cudaErrorInvalidValue;
    loopback_pieces pieces;
    for (std::size_t r = 0; r < ranks; ++r)
      for (std::size_t q = 0; q < ranks; ++q) {
        const post &from = posts_[q], &to = posts_[r];
        if (all_to_all)
          add(pieces, static_cast<const char*>(from.d_send) + from.send_offsets[r],
              static_cast<char*>(to.d_recv) + to.recv_offsets[q], from.send_bytes[r]);
        else
          add(pieces, from.d_send, static_cast<char*>(to.d_recv) + q * from.bytes, from.bytes);
        if (pieces.count == loopback_pieces_max) {
          UPSWEEP_CUDA_RETURN(copy_pieces(pieces, stream_));
          pieces.count = 0;
        }
      }
    UPSWEEP_CUDA_RETURN(copy_pieces(pieces, stream_));
    return cudaEventRecord(done_, stream_);
  }

  static void add(loopback_pieces& pieces, const void* from, void* to, std::size_t bytes) {
    if (bytes == 0) return;
    pieces.from[pieces.count] = static_cast<const char*>(from);
    pieces.to[pieces.count] = static_cast<char*>(to);
    pieces.bytes[pieces.count++] = bytes;
  }

  int num_ranks_;
  std::vector<post> posts_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;
  cudaError_t status_ = cudaSuccess;  // the last collective's, read by every rank after it
  std::atomic<int> arrived_{0};
  std::atomic<long long> generation_{0};
};

class loopback_exchange final : public dist_exchange {
 public:
  loopback_exchange(loopback_fabric& fabric, int rank) : fabric_(fabric), rank_(rank) {
    UPSWEEP_CUDA_THROW(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
  }
  ~loopback_exchange() override { static_cast<void>(cudaEventDestroy(ready_)); }
  loopback_exchange(const loopback_exchange&) = delete;
  loopback_exchange& operator=(const loopback_exchange&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return fabric_.size(); }
  bool transfers_overlap_kernels() const override { return false; }  // copies on the same GPU
  void* host_staging(std::size_t bytes) override { return staging_.get(bytes); }

  cudaError_t all_gather(const void* d_send, void* d_recv, std::size_t bytes, cudaStream_t stream) override {
    loopback_fabric::post mine;
    mine.d_send = d_send, mine.d_recv = d_recv, mine.bytes = bytes;
    return collective(mine, false, stream);
  }

  cudaError_t all_to_all_v(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                           void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets,
                           cudaStream_t stream) override {
    loopback_fabric::post mine;
    mine.d_send = d_send, mine.d_recv = d_recv;
    mine.send_bytes = send_bytes, mine.send_offsets = send_offsets;
    mine.recv_bytes = recv_bytes, mine.recv_offsets = recv_offsets;
    return collective(mine, true, stream);
  }

 private:
  // Every rank arrives even after a failure of its own, so the others' collective completes (and
  // fails alike).
  cudaError_t collective(loopback_fabric::post& mine, bool all_to_all, cudaStream_t stream) {
    mine.ready = ready_;
    mine.status = cudaEventRecord(ready_, stream);
    const cudaError_t status = fabric_.collective(rank_, mine, all_to_all);
    return status != cudaSuccess ? status : cudaStreamWaitEvent(stream, fabric_.done(), 0);
  }

  loopback_fabric& fabric_;
  int rank_;
  cudaEvent_t ready_ = nullptr;
  pinned_staging staging_{dist_staging_bytes};
};

}  // namespace upsweep::detail
