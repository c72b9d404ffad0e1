// Device histogram kernel: persistent blocks count grid-strided tiles of interleaved samples
// (16-byte vector loads when the pointer allows) into private shared-memory copies, then add
// the copies into the global counts with atomics; with too many bins for shared memory every
// sample goes to a global atomic instead. One kernel for every variant (tags and if constexpr).
#pragma once

#include <upsweep/histogram/bin_index.cuh>
#include <upsweep/histogram/block_histogram.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/util/arch.cuh>

#include <cuda/std/cstdint>

namespace upsweep::detail {

// Everything a launch needs besides the samples; passed by value (kernel parameter space).
template <class Counter, class Mapper, int Active>
struct histogram_params {
  Mapper mappers[Active];
  Counter* counts[Active];
  // Channel c's bins are [bin_offsets[c], bin_offsets[c + 1]) of one private copy.
  int bin_offsets[Active + 1];
  int copies;         // private copies per block (privatized kernels only)
  bool stage_edges;   // mappers copy their edges into shared memory first
};

template <bool Privatized, class Counter, class Mapper, int Active>
__device__ __forceinline__ auto make_sink(const histogram_params<Counter, Mapper, Active>& params,
                                          unsigned* shared_counts) {
  if constexpr (Privatized) {
    const int total_bins = params.bin_offsets[Active];
    const auto base = static_cast<unsigned>(__cvta_generic_to_shared(shared_counts));
    const auto copy = static_cast<unsigned>(static_cast<int>(warp_id()) % params.copies * total_bins);
    const auto trash = static_cast<unsigned>(params.copies * total_bins) + lane_id();
    shared_sink<Active> sink{base + copy * 4u, static_cast<int>(trash - copy), {}};
#pragma unroll
    for (int c = 0; c < Active; ++c) sink.offsets[c] = params.bin_offsets[c];
    return sink;
  } else {
    global_sink<Counter, Active> sink{};
#pragma unroll
    for (int c = 0; c < Active; ++c) sink.counts[c] = params.counts[c];
    return sink;
  }
}

// Full tiles of aligned 16-byte vectors; vector element j holds channel j % Channels because
// every vector starts on a pixel boundary (checked by the caller).
template <class Policy, bool ShiftOnly, int Channels, int Active, class Sample, class Mapper, class Counting>
__device__ __forceinline__ void count_full_tiles(const vector16* d_vectors, long long full_tiles,
                                                 const Mapper (&mappers)[Active], Counting& counter) {
  constexpr int per_vector = items_per_vector<Sample>;
  constexpr int tile_vectors = Policy::block_threads * Policy::vectors_per_thread;
  for (long long tile = blockIdx.x; tile < full_tiles; tile += gridDim.x) {
    const vector16* tile_vectors_begin = d_vectors + tile * tile_vectors;
    vector16 v[Policy::vectors_per_thread];
#pragma unroll
    for (int k = 0; k < Policy::vectors_per_thread; ++k) v[k] = tile_vectors_begin[k * Policy::block_threads + threadIdx.x];
#pragma unroll
    for (int k = 0; k < Policy::vectors_per_thread; ++k) {
      Sample items[per_vector];
      memcpy(items, &v[k], sizeof(items));
#pragma unroll
      for (int j = 0; j < per_vector; ++j) {
        const int channel = j % Channels;
        if (channel < Active)
          counter.add_warp(channel, mappers[channel].template bin_of<ShiftOnly>(items[j], counter.dropped_bin(channel)));
      }
    }
  }
}

// Whole pixels [0, head_pixels) and [tail_first, num_pixels), grid-strided one pixel per thread.
template <class Policy, bool ShiftOnly, int Channels, int Active, class Sample, class Mapper, class Counting>
__device__ __forceinline__ void count_leftover_pixels(const Sample* d_samples, long long head_pixels,
                                                      long long tail_first, long long num_pixels,
                                                      const Mapper (&mappers)[Active], Counting& counter) {
  const long long leftover = head_pixels + (num_pixels - tail_first);
  const long long stride = static_cast<long long>(gridDim.x) * Policy::block_threads;
  for (long long k = static_cast<long long>(blockIdx.x) * Policy::block_threads + threadIdx.x; k < leftover;
       k += stride) {
    const long long pixel = k < head_pixels ? k : tail_first + (k - head_pixels);
    const Sample* first = d_samples + pixel * Channels;
#pragma unroll
    for (int c = 0; c < Active; ++c)
      counter.add(c, mappers[c].template bin_of<ShiftOnly>(first[c], counter.dropped_bin(c)));
  }
}

// Splits the input into a scalar head (up to the first 16-byte boundary), vectorised full tiles
// and a scalar tail. Falls back to scalar pixels when a vector would not start on a pixel.
template <class Policy, bool ShiftOnly, int Channels, int Active, class Sample, class Mapper, class Counting>
__device__ __forceinline__ void count_samples(const Sample* d_samples, long long num_pixels,
                                              const Mapper (&mappers)[Active], Counting& counter) {
  constexpr int per_vector = items_per_vector<Sample>;
  constexpr long long tile_samples = static_cast<long long>(Policy::block_threads) * Policy::vectors_per_thread * per_vector;
  long long head_pixels = 0, tail_first = 0;
  if constexpr (per_vector % Channels == 0) {
    const auto address = reinterpret_cast<cuda::std::uintptr_t>(d_samples);
    const int misalign = static_cast<int>(address % vector_bytes);
    const long long head_samples = misalign == 0 ? 0 : (vector_bytes - misalign) / static_cast<int>(sizeof(Sample));
    const long long num_samples = num_pixels * Channels;
    if (misalign % sizeof(Sample) == 0 && head_samples % Channels == 0 && head_samples <= num_samples) {
      const long long full_tiles = (num_samples - head_samples) / tile_samples;
      head_pixels = head_samples / Channels;
      tail_first = (head_samples + full_tiles * tile_samples) / Channels;
      count_full_tiles<Policy, ShiftOnly, Channels, Active, Sample>(
          reinterpret_cast<const vector16*>(d_samples + head_samples), full_tiles, mappers, counter);
    }
  }
  count_leftover_pixels<Policy, ShiftOnly, Channels, Active>(d_samples, head_pixels, tail_first, num_pixels, mappers,
                                                             counter);
}

// Privatized: zero the copies (and stage edges), count, merge. Otherwise count into global memory.
template <class Policy, bool Privatized, bool ShiftOnly, int Channels, int Active, class Sample, class Counter,
          class Mapper>
__global__ void __launch_bounds__(Policy::block_threads)
    histogram_kernel(const Sample* d_samples, long long num_pixels, histogram_params<Counter, Mapper, Active> params) {
  extern __shared__ __align__(16) unsigned char histogram_shared[];
  auto* shared_counts = reinterpret_cast<unsigned*>(histogram_shared);
  const int total_bins = params.bin_offsets[Active];
  const int num_shared_counts = Privatized ? params.copies * total_bins + trash_words : 0;
  if constexpr (Privatized) zero_shared_counts<Policy::block_threads>(shared_counts, num_shared_counts);

  Mapper mappers[Active];
#pragma unroll
  for (int c = 0; c < Active; ++c) mappers[c] = params.mappers[c];
  if (params.stage_edges) {
    unsigned char* cursor = histogram_shared + (static_cast<long long>(num_shared_counts) * 4 + 15) / 16 * 16;
#pragma unroll
    for (int c = 0; c < Active; ++c) mappers[c].stage_into(cursor, static_cast<int>(threadIdx.x), Policy::block_threads);
  }
  __syncthreads();  // copies zeroed, edges staged

  const auto sink = make_sink<Privatized>(params, shared_counts);
  bin_counter<Policy::aggregation, cuda::std::remove_const_t<decltype(sink)>, Active> counter(sink);
  count_samples<Policy, ShiftOnly, Channels, Active, Sample>(d_samples, num_pixels, mappers, counter);
  counter.flush();

  if constexpr (Privatized) {
    __syncthreads();  // every increment of every warp is in shared memory
    merge_shared_counts<Policy::block_threads>(shared_counts, total_bins, params.copies, params.counts,
                                               params.bin_offsets);
  }
}

}  // namespace upsweep::detail
