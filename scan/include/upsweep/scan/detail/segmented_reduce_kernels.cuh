// Kernel and dispatch of the segmented reduce: one launch, no temporary storage. A block takes
// eight consecutive segments, a warp each: each round of 32 x 8 items gives each lane 8
// consecutive ones, reduced in order, then the lanes in lane order, so the operator need not
// commute. A warp whose segment is longer than big_segment_items leaves it to the whole block,
// whose threads reduce contiguous stretches of it once every warp is done, then the block in
// thread order.
#pragma once

#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

inline constexpr int segment_warps_per_block = 8;
inline constexpr int segment_block_threads = segment_warps_per_block * warp_threads;
// Each round's loads are in flight together, and the next round's wait for its shuffles: 8 a lane
// takes segments of up to 256 items (the benchmark's average of 100, up to 200) in one round.
inline constexpr int segment_items_per_lane = 8;
// Past this, a segment gets the block (a warp would take it in hundreds of rounds).
inline constexpr long long big_segment_items = 1 << 14;

// op over in[first, min(first + Items, end)) in order, held as maybe (absent when empty).
template <int Items, class Acc, class InputIt, class Op>
__device__ __forceinline__ maybe<Acc> reduce_stretch(InputIt d_in, long long first, long long end, Op& op) {
  maybe<Acc> part = {Acc{}, false};
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const long long index = first + k;
    if (index < end) part = combine(part, maybe<Acc>{static_cast<Acc>(d_in[index]), true}, op);
  }
  return part;
}

// init op the segment [begin, end), by one warp.
template <class Acc, class InputIt, class Op>
__device__ __forceinline__ Acc warp_reduce_segment(InputIt d_in, long long begin, long long end, Op& op, Acc init) {
  constexpr int round_items = warp_threads * segment_items_per_lane;
  Acc running = init;
  for (long long base = begin; base < end; base += round_items) {
    const long long first = base + static_cast<long long>(lane_id()) * segment_items_per_lane;
    const maybe<Acc> round = warp_reduce(reduce_stretch<segment_items_per_lane, Acc>(d_in, first, end, op), op);
    if (round.valid) running = static_cast<Acc>(op(running, round.value));
  }
  return running;
}

// init op the segment [begin, end), by the whole block (every thread calls it), in thread 0.
template <class Acc, class InputIt, class Op>
__device__ __forceinline__ Acc block_reduce_segment(InputIt d_in, long long begin, long long end, Op& op, Acc init,
                                                    typename block_reduce<Acc, segment_block_threads>::storage& s) {
  const long long stretch = ceil_div<long long>(end - begin, segment_block_threads);
  const long long first = begin + stretch * threadIdx.x;
  const long long last = first + stretch < end ? first + stretch : end;
  maybe<Acc> part = {Acc{}, false};
  for (long long at = first; at < last; at += segment_items_per_lane)
    part = combine(part, reduce_stretch<segment_items_per_lane, Acc>(d_in, at, last, op), op);
  const maybe<Acc> total = block_reduce<Acc, segment_block_threads>(s).reduce(part, op);
  return total.valid ? static_cast<Acc>(op(init, total.value)) : init;
}

// No barrier comes before the warps' segments: the block learns of long ones from the barrier
// after them (a shared count cleared first cost 0.4 us of 4.4 at 10^2 items: H200, 2026-12-03).
template <class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class Acc>
__global__ void __launch_bounds__(segment_block_threads)
    segmented_reduce_kernel(InputIt d_in, OutputIt d_out, long long num_segments, BeginIt d_begins, EndIt d_ends,
                            Op op, Acc init) {
  __shared__ typename block_reduce<Acc, segment_block_threads>::storage s;
  const long long first_segment = static_cast<long long>(blockIdx.x) * segment_warps_per_block;
  const long long segment = first_segment + warp_id();
  bool big = false;
  if (segment < num_segments) {  // no barrier inside: warps past the last segment skip it
    const long long begin = static_cast<long long>(d_begins[segment]);
    const long long end = static_cast<long long>(d_ends[segment]);
    big = end - begin > big_segment_items;
    if (!big) {
      const Acc result = warp_reduce_segment(d_in, begin, end, op, init);
      if (lane_id() == 0) d_out[segment] = result;
    }
  }
  if (!__syncthreads_or(big)) return;
  for (long long k = first_segment; k < first_segment + segment_warps_per_block && k < num_segments; ++k) {
    const long long begin = static_cast<long long>(d_begins[k]);
    const long long end = static_cast<long long>(d_ends[k]);
    if (end - begin <= big_segment_items) continue;  // the same for every thread
    const Acc result = block_reduce_segment(d_in, begin, end, op, init, s);
    if (threadIdx.x == 0) d_out[k] = result;
    __syncthreads();  // before the next segment reuses the storage
  }
}

template <class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class Acc>
cudaError_t dispatch_segmented_reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                      OutputIt d_out, std::int64_t num_segments, BeginIt d_begins, EndIt d_ends,
                                      Op op, Acc init, cudaStream_t stream) {
  if (num_segments < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {0};  // none: the size query still answers, as every core call does
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_segments == 0) return cudaSuccess;
  if (is_null(d_in) || is_null(d_out) || is_null(d_begins) || is_null(d_ends)) return cudaErrorInvalidValue;
  const long long blocks = ceil_div<long long>(num_segments, segment_warps_per_block);
  if (blocks > INT_MAX) return cudaErrorInvalidValue;
  segmented_reduce_kernel<<<static_cast<unsigned>(blocks), segment_block_threads, 0, stream>>>(
      d_in, d_out, num_segments, d_begins, d_ends, op, init);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
