// Host-to-host sort, copies over the link. Pinned (page-locked) host memory is copied by the DMA
// engines directly; pageable memory and the caller's streams go through pinned staging slots,
// filled and emptied by several host threads (one thread's memcpy is slower than the link), so
// the copy engines never wait on the driver's own small staging buffer.
#pragma once

#include <upsweep/sort/host_sort_types.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <deque>
#include <thread>
#include <vector>

namespace upsweep::detail {

// True when the driver can DMA from or to `ptr` directly: pinned, registered, managed or device memory.
inline bool is_dma_ready(const void* ptr) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());  // older drivers: pageable memory is an error here
    return false;
  }
  return attributes.type != cudaMemoryTypeUnregistered;
}

// memcpy split over up to `threads` threads, the calling one among them.
inline void parallel_memcpy(void* to, const void* from, std::size_t bytes, unsigned threads) {
  constexpr std::size_t min_share = std::size_t{4} << 20;
  const std::size_t shares = std::max<std::size_t>(1, std::min<std::size_t>(threads, bytes / min_share));
  const std::size_t share = (bytes + shares - 1) / shares;
  std::vector<std::thread> helpers;
  for (std::size_t s = 1; s < shares; ++s) {
    const std::size_t first = s * share, count = std::min(share, bytes - std::min(bytes, first));
    if (count == 0) break;
    helpers.emplace_back([=] { std::memcpy(static_cast<char*>(to) + first, static_cast<const char*>(from) + first, count); });
  }
  std::memcpy(to, from, std::min(share, bytes));
  for (std::thread& helper : helpers) helper.join();
}

inline unsigned copy_threads() { return std::max(1u, std::min(8u, std::thread::hardware_concurrency())); }

// One end of a host copy: bytes in memory, or a caller's stream at a byte offset.
struct host_end {
  char* memory = nullptr;
  host_stream_base* stream = nullptr;
  std::uint64_t offset = 0;
  std::size_t unit = 1;  // a stream's item bytes: its calls get whole items

  static host_end in_memory(const void* p) { return {static_cast<char*>(const_cast<void*>(p))}; }
  static host_end of_stream(host_stream_base* s, std::size_t item_bytes) { return {nullptr, s, 0, item_bytes}; }
  host_end plus(std::size_t bytes) const { return {memory != nullptr ? memory + bytes : nullptr, stream, offset + bytes, unit}; }
};

// A stream's move over `bytes` at `end`, in shares of whole items on up to copy_threads() threads;
// false when a call failed (its code kept in the stream's `error`).
inline bool parallel_stream_move(const host_end& end, char* buffer, std::size_t bytes) {
  constexpr std::size_t min_share = std::size_t{4} << 20;
  const std::size_t items = bytes / end.unit;
  const std::size_t shares = std::max<std::size_t>(1, std::min<std::size_t>(copy_threads(), bytes / min_share));
  const std::size_t share = (items + shares - 1) / shares * end.unit;
  std::vector<int> codes(shares, 0);
  auto move_share = [&](std::size_t s) {
    const std::size_t first = s * share, count = std::min(share, bytes - std::min(bytes, first));
    if (count > 0) codes[s] = end.stream->move(end.stream->context, end.offset + first, buffer + first, count);
  };
  std::vector<std::thread> helpers;
  for (std::size_t s = 1; s < shares; ++s) helpers.emplace_back(move_share, s);
  move_share(0);
  for (std::thread& helper : helpers) helper.join();
  for (int code : codes)
    if (code != 0) {
      if (end.stream->error == 0) end.stream->error = code;
      return false;
    }
  return true;
}

// `bytes` from `end` into the host `buffer` (when `into_buffer`), or from `buffer` to `end`.
inline cudaError_t host_move(const host_end& end, char* buffer, std::size_t bytes, bool into_buffer) {
  if (end.stream != nullptr) return parallel_stream_move(end, buffer, bytes) ? cudaSuccess : cudaErrorUnknown;
  if (into_buffer) parallel_memcpy(buffer, end.memory, bytes, copy_threads());
  else parallel_memcpy(end.memory, buffer, bytes, copy_threads());
  return cudaSuccess;
}

// Pinned slots of equal size; each copy through them records an event that says when its slot is
// free again (uploads) or full (downloads).
class staging_slots {
 public:
  staging_slots(void* h_pinned, std::size_t bytes, int count) : count_(count) {
    slot_bytes_ = count > 0 ? bytes / static_cast<std::size_t>(count) / 4096 * 4096 : 0;
    for (int i = 0; i < count; ++i) base_.push_back(static_cast<char*>(h_pinned) + slot_bytes_ * static_cast<std::size_t>(i));
  }
  ~staging_slots() {
    for (cudaEvent_t event : events_) static_cast<void>(cudaEventDestroy(event));
  }
  staging_slots(const staging_slots&) = delete;
  staging_slots& operator=(const staging_slots&) = delete;
  cudaError_t create_events() {
    for (int i = 0; i < count_; ++i) {
      cudaEvent_t event = nullptr;
      UPSWEEP_CUDA_RETURN(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
      events_.push_back(event);
    }
    return cudaSuccess;
  }
  std::size_t slot_bytes() const { return slot_bytes_; }
  char* slot(int i) const { return base_[static_cast<std::size_t>(i)]; }
  cudaEvent_t event(int i) const { return events_[static_cast<std::size_t>(i)]; }
  int count() const { return count_; }

 private:
  int count_ = 0;
  std::size_t slot_bytes_ = 0;
  std::vector<char*> base_;
  std::vector<cudaEvent_t> events_;
};

// Host to device on `stream`: DMA from pinned memory, else through the slots (the host copies the
// next piece while the engine sends the last).
class host_uploader {
 public:
  explicit host_uploader(staging_slots& slots) : slots_(slots) {}
  cudaError_t upload(void* d_to, const void* h_from, std::size_t bytes, bool dma_ready, cudaStream_t stream) {
    return upload(d_to, host_end::in_memory(h_from), bytes, dma_ready, stream);
  }
  cudaError_t upload(void* d_to, const host_end& from, std::size_t bytes, bool dma_ready, cudaStream_t stream) {
    if (dma_ready || bytes == 0)
      return cudaMemcpyAsync(d_to, from.memory, bytes, cudaMemcpyHostToDevice, stream);
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t piece = std::min(slots_.slot_bytes(), bytes - done);
      const int slot = next_;
      next_ = (next_ + 1) % slots_.count();
      UPSWEEP_CUDA_RETURN(cudaEventSynchronize(slots_.event(slot)));  // its last piece has left
      UPSWEEP_CUDA_RETURN(host_move(from.plus(done), slots_.slot(slot), piece, true));
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(static_cast<char*>(d_to) + done, slots_.slot(slot), piece,
                                          cudaMemcpyHostToDevice, stream));
      UPSWEEP_CUDA_RETURN(cudaEventRecord(slots_.event(slot), stream));
      done += piece;
    }
    return cudaSuccess;
  }

 private:
  staging_slots& slots_;
  int next_ = 0;
};

// Device to host on `stream`: DMA into pinned memory, else into a slot that the host empties once
// the engine has filled it (at the latest when every slot is taken, or at finish()).
class host_downloader {
 public:
  explicit host_downloader(staging_slots& slots) : slots_(slots) {}
  cudaError_t download(void* h_to, const void* d_from, std::size_t bytes, bool dma_ready, cudaStream_t stream) {
    return download(host_end::in_memory(h_to), d_from, bytes, dma_ready, stream);
  }
  cudaError_t download(const host_end& to, const void* d_from, std::size_t bytes, bool dma_ready, cudaStream_t stream) {
    if (dma_ready || bytes == 0)
      return cudaMemcpyAsync(to.memory, d_from, bytes, cudaMemcpyDeviceToHost, stream);
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t piece = std::min(slots_.slot_bytes(), bytes - done);
      if (pending_.size() == static_cast<std::size_t>(slots_.count())) UPSWEEP_CUDA_RETURN(empty_oldest());
      const int slot = next_;
      next_ = (next_ + 1) % slots_.count();
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(slots_.slot(slot), static_cast<const char*>(d_from) + done, piece,
                                          cudaMemcpyDeviceToHost, stream));
      UPSWEEP_CUDA_RETURN(cudaEventRecord(slots_.event(slot), stream));
      pending_.push_back({slot, to.plus(done), piece});
      done += piece;
    }
    return cudaSuccess;
  }
  // Every staged piece copied to its place.
  cudaError_t finish() {
    while (!pending_.empty()) UPSWEEP_CUDA_RETURN(empty_oldest());
    return cudaSuccess;
  }

 private:
  struct piece {
    int slot;
    host_end to;
    std::size_t bytes;
  };
  cudaError_t empty_oldest() {
    const piece oldest = pending_.front();
    pending_.pop_front();
    UPSWEEP_CUDA_RETURN(cudaEventSynchronize(slots_.event(oldest.slot)));
    return host_move(oldest.to, slots_.slot(oldest.slot), oldest.bytes, false);
  }
  staging_slots& slots_;
  std::deque<piece> pending_;
  int next_ = 0;
};

}  // namespace upsweep::detail
