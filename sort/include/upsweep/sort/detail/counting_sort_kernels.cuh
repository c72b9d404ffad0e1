// Keys of at most 16 bits sorted over all their bits, keys alone: no ranking at all. Every key
// value is counted (256 or 65536 bins, in sort order), the counts are scanned into offsets, and
// the expand kernel (counting_sort_expand.cuh) writes count[v] copies of each v. Equal integer
// keys are the same bits, so this is exactly the stable radix sort's output.
// Floats: -0.0 and +0.0 compare equal and keep their input order. Here they get two adjacent bins
// (the ordered bits before -0.0 is folded onto +0.0), so the expand writes each with its own bits;
// only when both occur does the zeros kernel rewrite the two bins in input order.
//
// This file: bins, the chunked layout both reading kernels share, the bin counters, the
// histogram, and the offsets.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

namespace upsweep::detail {

template <class Key>
struct counting_sort_traits {
  using traits = radix_traits<Key>;
  using bits_t = typename traits::bits_t;
  static constexpr int bins = 1 << traits::key_bits;
  static constexpr int group_bins = 256;  // offsets are kept per bin within a group, and per group
  static constexpr int groups = bins / group_bins;
  static constexpr bool has_two_zeros = traits::kind == key_kind::floating_point;
  static constexpr int keys_per_vector = 16 / static_cast<int>(sizeof(Key));
};

// The bin of a key's bits: its sort bits, except that a float's -0.0 keeps its own bin, just
// before +0.0's (just after, descending).
template <class Key, bool Descending>
__host__ __device__ unsigned counting_bin(typename radix_traits<Key>::bits_t bits) {
  using traits = radix_traits<Key>;
  if constexpr (traits::kind == key_kind::floating_point) {
    const auto ordered = static_cast<typename traits::bits_t>((bits & traits::sign_bit) ? ~bits : (bits ^ traits::sign_bit));
    return static_cast<typename traits::bits_t>(Descending ? ~ordered : ordered);
  } else {
    return traits::template to_sort_bits<Descending>(traits::from_bits(bits));
  }
}

// The bits of the key in `bin` (counting_bin's inverse).
template <class Key, bool Descending>
__host__ __device__ typename radix_traits<Key>::bits_t key_bits_of_bin(unsigned bin) {
  using traits = radix_traits<Key>;
  return traits::to_bits(traits::template from_sort_bits<Descending>(static_cast<typename traits::bits_t>(bin)));
}

// The first of the two zeros' bins (floats).
template <class Key, bool Descending>
__host__ __device__ unsigned first_zero_bin() {
  using traits = radix_traits<Key>;
  const unsigned positive = counting_bin<Key, Descending>(0), negative = counting_bin<Key, Descending>(traits::sign_bit);
  return positive < negative ? positive : negative;
}

// Cleared by one memset before the histogram. offsets: counts, then each bin's offset within its
// group of 256; group_offsets: the groups' counts, then their offsets. offset(bins) = num_items.
template <class Key>
struct counting_sort_control {
  using ct = counting_sort_traits<Key>;
  unsigned long long offsets[ct::bins + 1];
  unsigned long long group_offsets[ct::groups + 1];
  __device__ unsigned long long offset(int bin) const { return offsets[bin] + group_offsets[bin / ct::group_bins]; }
};

// The input in contiguous chunks: chunk c is [first(c), first(c + 1)). Chunk 0 first takes the
// `head` keys before the first 16-byte boundary, so every other chunk starts on one. Histogram
// block b counts chunks b, b + grid, ...; zeros-kernel block c ranks chunk c's zeros, from its
// own count and the counts of the chunks before it.
struct counting_chunks {
  long long num_items;
  long long head;         // keys before the first 16-byte-aligned key (fewer than a vector)
  long long chunk_items;  // a multiple of the keys in a vector
  int count;
  __host__ __device__ long long first(int c) const {
    if (c == 0) return 0;
    const long long f = head + static_cast<long long>(c) * chunk_items;
    return f < num_items ? f : num_items;
  }
};

// ---- bin counters in shared memory ------------------------------------------------------------
// 65536 bins: two 16-bit counters a word (128 KB). The add that carries a counter to 2^15 moves
// 2^15 to the global count: adds are ordered, so exactly one add crosses, and the other adds that
// land before its subtraction (at most a few per resident thread, each of at most a run's length)
// stay far below the 2^16 at which a counter would spill into its neighbour. At the end the block
// stores its counters as a row of 32-bit counts (a global add for each of 65536 bins from every
// block costs more than the histogram), which counting_offsets_kernel sums.
struct packed_bin_counters {
  static constexpr unsigned handoff = 1u << 15;
  unsigned* words;
  unsigned* zero_handoffs;   // handoffs of the two zeros' bins (floats)
  unsigned first_zero_bin;   // 65536 when the keys have one zero
  __device__ void clear() {
    for (int i = threadIdx.x; i < 65536 / 2; i += blockDim.x) words[i] = 0;
  }
  __device__ void add(unsigned bin, unsigned count, unsigned long long* d_counts) {
    const unsigned shift = (bin & 1u) * 16;
    const unsigned old = (atomicAdd(&words[bin >> 1], count << shift) >> shift) & 0xffffu;
    if (old < handoff && old + count >= handoff) {
      atomicSub(&words[bin >> 1], handoff << shift);
      atomicAdd(&d_counts[bin], static_cast<unsigned long long>(handoff));
      if (bin - first_zero_bin < 2u) atomicAdd(zero_handoffs, 1u);
    }
  }
  // Keys counted so far in the zeros' bins; after a barrier.
  __device__ unsigned long long zeros_counted() const {
    const auto at = [&](unsigned bin) { return (words[bin >> 1] >> ((bin & 1u) * 16)) & 0xffffu; };
    return at(first_zero_bin) + at(first_zero_bin + 1) + static_cast<unsigned long long>(*zero_handoffs) * handoff;
  }
  __device__ void flush(unsigned long long*, unsigned* d_row) const {
    for (int i = threadIdx.x; i < 65536 / 2; i += blockDim.x) {
      const unsigned w = words[i];
      reinterpret_cast<uint2*>(d_row)[i] = uint2{w & 0xffffu, w >> 16};
    }
  }
};

// 256 bins: 32-bit counters, a set for each warp, so that only lanes of one warp contend. A warp
// counts fewer than 2^32 keys: the dispatch gives every block fewer than 2^31.
struct warp_bin_counters {
  unsigned* words;  // [warps][256]
  __device__ void clear() {
    for (int i = threadIdx.x; i < 256 * (blockDim.x / warp_threads); i += blockDim.x) words[i] = 0;
  }
  __device__ void add(unsigned bin, unsigned count, unsigned long long*) {
    atomicAdd(&words[(threadIdx.x / warp_threads) * 256 + bin], count);
  }
  __device__ void flush(unsigned long long* d_counts, unsigned*) const {
    const int warps = blockDim.x / warp_threads;
    for (int bin = threadIdx.x; bin < 256; bin += blockDim.x) {
      unsigned long long total = 0;
      for (int w = 0; w < warps; ++w) total += words[w * 256 + bin];
      if (total != 0) atomicAdd(&d_counts[bin], total);
    }
  }
};

template <class Key>
constexpr std::size_t counting_histogram_shared_bytes(int block_threads) {
  return sizeof(Key) == 1 ? 256u * sizeof(unsigned) * static_cast<std::size_t>(block_threads / warp_threads)
                          : 65536u / 2 * sizeof(unsigned);
}

// ---- kernel 1: the histogram ------------------------------------------------------------------
// A thread's keys, counted as runs of equal bins: one shared add a run, so constant or sorted
// input costs no more than random input.
template <class Key, bool Descending, class Counters>
struct run_counter {
  Counters& counters;
  unsigned long long* d_counts;
  unsigned run_bin = 0, run_length = 0;
  __device__ void count(typename radix_traits<Key>::bits_t bits) {
    const unsigned bin = counting_bin<Key, Descending>(bits);
    if (bin == run_bin) {
      ++run_length;
      return;
    }
    end_run();
    run_bin = bin;
    run_length = 1;
  }
  __device__ void end_run() {
    if (run_length != 0) counters.add(run_bin, run_length, d_counts);
    run_length = 0;
  }
};

inline constexpr int counting_vectors_per_thread = 4;  // loads in flight before counting

template <class Key, class Counter>
__device__ void count_chunk(const Key* d_keys, long long first, long long last, Counter& counter) {
  using ct = counting_sort_traits<Key>;
  using bits_t = typename ct::bits_t;
  const auto* d_bits = reinterpret_cast<const bits_t*>(d_keys);
  constexpr int per_vector = ct::keys_per_vector;
  // first is 16-byte aligned unless it is 0 with a head, which the scalar loop takes.
  long long vector_begin = first;
  while (vector_begin < last && (reinterpret_cast<cuda::std::uintptr_t>(d_bits + vector_begin) % 16) != 0)
    ++vector_begin;
  const long long num_vectors = (last - vector_begin) / per_vector;
  const long long vector_end = vector_begin + num_vectors * per_vector;
  for (long long i = first + threadIdx.x; i < vector_begin; i += blockDim.x) counter.count(d_bits[i]);
  for (long long i = vector_end + threadIdx.x; i < last; i += blockDim.x) counter.count(d_bits[i]);
  counter.end_run();

  const uint4* d_vectors = reinterpret_cast<const uint4*>(d_bits + vector_begin);
  const long long stride = static_cast<long long>(blockDim.x) * counting_vectors_per_thread;
  for (long long v = threadIdx.x; v < num_vectors; v += stride) {
    uint4 loaded[counting_vectors_per_thread];
#pragma unroll
    for (int u = 0; u < counting_vectors_per_thread; ++u) {
      const long long at = v + static_cast<long long>(u) * blockDim.x;
      loaded[u] = at < num_vectors ? d_vectors[at] : uint4{};
    }
#pragma unroll
    for (int u = 0; u < counting_vectors_per_thread; ++u) {
      if (v + static_cast<long long>(u) * blockDim.x >= num_vectors) break;
      bits_t keys[per_vector];
      memcpy(keys, &loaded[u], sizeof(loaded[u]));
#pragma unroll
      for (int k = 0; k < per_vector; ++k) counter.count(keys[k]);
    }
    counter.end_run();
  }
}

// Block b counts chunks b, b + grid, ... into shared counters, then adds them to the global
// counts (8-bit keys) or stores them as row b of d_rows (16-bit keys). Floats: d_chunk_zeros[c]
// gets chunk c's zeros (both signs), read off the zeros' counters after each chunk.
template <class Key, bool Descending>
__global__ void __launch_bounds__(1024)
    counting_histogram_kernel(const Key* d_keys, counting_chunks chunks, counting_sort_control<Key>* d_control,
                              unsigned* d_rows, unsigned long long* d_chunk_zeros) {
  constexpr bool two_zeros = counting_sort_traits<Key>::has_two_zeros;
  extern __shared__ unsigned counting_shared[];
  __shared__ unsigned zero_handoffs;
  using counters_t = cuda::std::conditional_t<sizeof(Key) == 1, warp_bin_counters, packed_bin_counters>;
  counters_t counters{counting_shared};
  if constexpr (sizeof(Key) == 2) {
    counters.zero_handoffs = &zero_handoffs;
    counters.first_zero_bin = two_zeros ? first_zero_bin<Key, Descending>() : 65536u;
    if (threadIdx.x == 0) zero_handoffs = 0;
  }
  counters.clear();
  wait_for_previous_grid();
  let_next_grid_launch();
  __syncthreads();

  run_counter<Key, Descending, counters_t> counter{counters, d_control->offsets};
  unsigned long long zeros_before = 0;
  for (int c = blockIdx.x; c < chunks.count; c += gridDim.x) {
    count_chunk(d_keys, chunks.first(c), chunks.first(c + 1), counter);
    if constexpr (two_zeros) {
      __syncthreads();
      if (threadIdx.x == 0) {
        const unsigned long long zeros = counters.zeros_counted();
        d_chunk_zeros[c] = zeros - zeros_before;
        zeros_before = zeros;
      }
      __syncthreads();  // read before the next chunk's adds
    }
  }
  __syncthreads();
  counters.flush(d_control->offsets, d_rows + static_cast<long long>(blockIdx.x) * counting_sort_traits<Key>::bins);
}

// ---- kernels 2 and 3: offsets -----------------------------------------------------------------
// A block a group of 256 bins: each bin's count (the global adds plus the histogram's rows),
// scanned within the group; the group's count goes to group_offsets.
template <class Key>
__global__ void __launch_bounds__(counting_sort_traits<Key>::group_bins)
    counting_offsets_kernel(counting_sort_control<Key>* d_control, const unsigned* d_rows, int num_rows) {
  constexpr int bins = counting_sort_traits<Key>::bins;
  using scan_t = block_scan<unsigned long long, counting_sort_traits<Key>::group_bins>;
  __shared__ typename scan_t::storage storage;
  wait_for_previous_grid();
  let_next_grid_launch();
  const int bin = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long count[1] = {d_control->offsets[bin]};
  for (int r = 0; r < num_rows; ++r) count[0] += d_rows[static_cast<long long>(r) * bins + bin];
  const unsigned long long group = scan_t(storage).exclusive_scan(count, 0ull, cuda::std::plus<unsigned long long>{});
  d_control->offsets[bin] = count[0];
  if (threadIdx.x == 0) d_control->group_offsets[blockIdx.x] = group;
}

// One block scans the groups' counts into their offsets, and (floats) the chunks' zeros into each
// chunk's first zero rank.
inline constexpr int counting_scan_threads = 256;

template <class Key>
__global__ void __launch_bounds__(counting_scan_threads)
    counting_scan_kernel(counting_sort_control<Key>* d_control, unsigned long long* d_chunk_zeros, int num_chunks,
                         long long num_items) {
  constexpr int groups = counting_sort_traits<Key>::groups;
  static_assert(groups <= counting_scan_threads, "a group a thread");
  using scan_t = block_scan<unsigned long long, counting_scan_threads>;
  __shared__ typename scan_t::storage storage;
  wait_for_previous_grid();
  let_next_grid_launch();
  const int g = threadIdx.x;
  unsigned long long count[1] = {g < groups ? d_control->group_offsets[g] : 0ull};
  scan_t(storage).exclusive_scan(count, 0ull, cuda::std::plus<unsigned long long>{});
  if (g < groups) d_control->group_offsets[g] = count[0];
  if (g == 0) d_control->offsets[counting_sort_traits<Key>::bins] = static_cast<unsigned long long>(num_items);
  if constexpr (counting_sort_traits<Key>::has_two_zeros) {
    unsigned long long carry = 0;
    for (int base = 0; base < num_chunks; base += counting_scan_threads) {
      __syncthreads();  // the scan storage is reused
      const int c = base + g;
      unsigned long long zeros[1] = {c < num_chunks ? d_chunk_zeros[c] : 0ull};
      carry += scan_t(storage).exclusive_scan(zeros, cuda::std::plus<unsigned long long>{},
                                              fixed_prefix<unsigned long long>{carry});
      if (c < num_chunks) d_chunk_zeros[c] = zeros[0];
    }
  }
}

}  // namespace upsweep::detail
