// The counting sort's writing kernels (counting_sort_kernels.cuh has the plan): the expand writes
// every output tile from the bin offsets, balanced over the output rather than over the bins, so
// that skewed inputs cost what uniform ones do; the zeros kernel rewrites the bins of -0.0 and
// +0.0 in input order when both occur; the zeros copy moves them when they were ranked into
// scratch (in place).
#pragma once

#include <upsweep/sort/detail/counting_sort_kernels.cuh>

namespace upsweep::detail {

inline constexpr int counting_expand_threads = 256;
inline constexpr int counting_expand_bytes_per_thread = 32;
// Offsets of the bins a tile spans, kept in shared memory when they are this few (more only when
// many bins are empty; the tile then reads them from global memory).
inline constexpr int counting_expand_shared_offsets = 2048;

template <class Key>
inline constexpr int counting_expand_items_per_thread = counting_expand_bytes_per_thread / static_cast<int>(sizeof(Key));
template <class Key>
inline constexpr int counting_expand_tile_items = counting_expand_threads * counting_expand_items_per_thread<Key>;

// The bins holding output positions a and b: the last bin whose offset is at most the position,
// found by the whole block, 256 offsets a round (one round for 256 bins, two for 65536).
template <class Key>
__device__ void find_bins(const counting_sort_control<Key>& control, long long a, long long b, int& bin_a,
                          int& bin_b) {
  static_assert(counting_expand_threads == 256, "a round probes 256 offsets");
  bin_a = 0;
  bin_b = 0;
  for (int stride = counting_sort_traits<Key>::bins / 256; stride >= 1; stride /= 256) {
    const int probe = static_cast<int>(threadIdx.x) * stride;
    const int below_a = __syncthreads_count(control.offset(bin_a + probe) <= static_cast<unsigned long long>(a));
    const int below_b = __syncthreads_count(control.offset(bin_b + probe) <= static_cast<unsigned long long>(b));
    bin_a += (below_a - 1) * stride;
    bin_b += (below_b - 1) * stride;
  }
}

// Offsets of the tile's bins relative to the tile's first position, clamped to [0, tile items]:
// from shared memory when they fit, else from global memory.
template <class Key>
struct tile_bin_offsets {
  const int* shared;
  const counting_sort_control<Key>* d_control;
  int first_bin;
  long long tile_first;
  int tile_items;
  __device__ int operator[](int k) const {
    if (shared != nullptr) return shared[k];
    const long long rel = static_cast<long long>(d_control->offset(first_bin + k)) - tile_first;
    return rel < 0 ? 0 : rel > tile_items ? tile_items : static_cast<int>(rel);
  }
  // The last k in [low, high] whose offset is at most j (offset[low] <= j holds).
  __device__ int last_at_most(int low, int high, int j) const {
    while (low < high) {
      const int mid = (low + high + 1) / 2;
      if ((*this)[mid] <= j) low = mid;
      else high = mid - 1;
    }
    return low;
  }
};

// A thread writes items_per_thread consecutive keys: 32 bytes, two vector stores when the tile
// is whole and the output aligned.
template <class Key, bool Descending>
__device__ void expand_tile(Key* d_out, const tile_bin_offsets<Key>& offsets, int span, long long tile_first) {
  using bits_t = typename radix_traits<Key>::bits_t;
  constexpr int ipt = counting_expand_items_per_thread<Key>;
  const int j0 = static_cast<int>(threadIdx.x) * ipt;
  if (j0 >= offsets.tile_items) return;
  int k = offsets.last_at_most(0, span - 1, j0);
  int next = offsets[k + 1];
  bits_t keys[ipt];
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    if (j0 + i >= next && j0 + i < offsets.tile_items) {
      k = offsets.last_at_most(k + 1, span - 1, j0 + i);
      next = offsets[k + 1];
    }
    keys[i] = key_bits_of_bin<Key, Descending>(offsets.first_bin + k);
  }
  auto* d_bits = reinterpret_cast<bits_t*>(d_out) + tile_first + j0;
  if (j0 + ipt <= offsets.tile_items && reinterpret_cast<cuda::std::uintptr_t>(d_bits) % 16 == 0) {
    uint4 vectors[2];
    memcpy(vectors, keys, sizeof(vectors));
    reinterpret_cast<uint4*>(d_bits)[0] = vectors[0];
    reinterpret_cast<uint4*>(d_bits)[1] = vectors[1];
  } else {
    for (int i = 0; i < ipt && j0 + i < offsets.tile_items; ++i) d_bits[i] = keys[i];
  }
}

template <class Key, bool Descending>
__global__ void __launch_bounds__(counting_expand_threads)
    counting_expand_kernel(Key* d_out, const counting_sort_control<Key>* d_control, long long num_items) {
  constexpr int tile_items = counting_expand_tile_items<Key>;
  __shared__ int shared_offsets[counting_expand_shared_offsets + 1];
  wait_for_previous_grid();
  let_next_grid_launch();
  const long long num_tiles = ceil_div<long long>(num_items, tile_items);
  for (long long tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const long long tile_first = tile * tile_items;
    const int items = static_cast<int>(num_items - tile_first < tile_items ? num_items - tile_first : tile_items);
    int first_bin, last_bin;
    find_bins(*d_control, tile_first, tile_first + items - 1, first_bin, last_bin);
    const int span = last_bin - first_bin + 1;
    tile_bin_offsets<Key> offsets{nullptr, d_control, first_bin, tile_first, items};
    if (span <= counting_expand_shared_offsets) {
      for (int k = threadIdx.x; k <= span; k += blockDim.x) shared_offsets[k] = offsets[k];
      __syncthreads();
      offsets.shared = shared_offsets;
    }
    expand_tile<Key, Descending>(d_out, offsets, span, tile_first);
    __syncthreads();  // shared_offsets is reused by the next tile
  }
}

// ---- the bins of the two zeros ----------------------------------------------------------------
// Where the zeros go, and whether both signs occur (else the expand wrote each with its bits).
template <class Key, bool Descending>
struct zero_bins {
  unsigned long long first, last;
  bool mixed;
  __device__ explicit zero_bins(const counting_sort_control<Key>& control) {
    const int bin = static_cast<int>(first_zero_bin<Key, Descending>());
    first = control.offset(bin);
    const unsigned long long middle = control.offset(bin + 1);
    last = control.offset(bin + 2);
    mixed = first < middle && middle < last;
  }
};

inline constexpr int counting_zeros_threads = 512;
inline constexpr int counting_zeros_vectors_per_thread = 2;

// A thread's keys, consecutive: vector loads where aligned and whole.
template <class Bits, int N>
__device__ void load_consecutive(const Bits* d_in, long long first, long long last, Bits (&keys)[N]) {
  constexpr int per_vector = 16 / static_cast<int>(sizeof(Bits));
  static_assert(N % per_vector == 0, "whole vectors of keys");
  if (first + N <= last && reinterpret_cast<cuda::std::uintptr_t>(d_in + first) % 16 == 0) {
#pragma unroll
    for (int v = 0; v < N / per_vector; ++v) {
      const uint4 vector = reinterpret_cast<const uint4*>(d_in + first)[v];
      memcpy(keys + v * per_vector, &vector, sizeof(vector));
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < N; ++i) keys[i] = first + i < last ? d_in[first + i] : Bits{1};  // 1: not a zero
}

// Block c ranks the zeros of chunk c in input order (from the chunk's first zero rank, which the
// scan left in d_chunk_zeros) and writes them, with their own bits, into d_zeros_out.
template <class Key, bool Descending>
__global__ void __launch_bounds__(counting_zeros_threads)
    counting_zeros_kernel(const Key* d_keys, Key* d_zeros_out, counting_chunks chunks,
                          const counting_sort_control<Key>* d_control, const unsigned long long* d_chunk_zeros) {
  using traits = radix_traits<Key>;
  using bits_t = typename traits::bits_t;
  using scan_t = block_scan<unsigned, counting_zeros_threads>;
  constexpr int ipt = counting_sort_traits<Key>::keys_per_vector * counting_zeros_vectors_per_thread;
  constexpr int tile_items = counting_zeros_threads * ipt;
  constexpr auto magnitude = static_cast<bits_t>(~traits::sign_bit);
  __shared__ typename scan_t::storage storage;
  wait_for_previous_grid();
  let_next_grid_launch();
  const zero_bins<Key, Descending> bins(*d_control);
  if (!bins.mixed) return;
  const long long first = chunks.first(blockIdx.x), last = chunks.first(blockIdx.x + 1);
  unsigned long long rank = bins.first + d_chunk_zeros[blockIdx.x];
  const auto* d_in = reinterpret_cast<const bits_t*>(d_keys);
  auto* d_out = reinterpret_cast<bits_t*>(d_zeros_out);
  for (long long tile_first = first; tile_first < last; tile_first += tile_items) {
    bits_t keys[ipt];
    load_consecutive(d_in, tile_first + static_cast<long long>(threadIdx.x) * ipt, last, keys);
    unsigned zeros[1] = {0};
#pragma unroll
    for (int i = 0; i < ipt; ++i) zeros[0] += (keys[i] & magnitude) == 0 ? 1u : 0u;
    if (__syncthreads_or(zeros[0]) == 0) continue;  // most tiles hold no zero
    const unsigned tile_zeros = scan_t(storage).exclusive_scan(zeros, 0u, cuda::std::plus<unsigned>{});
    unsigned at = zeros[0];
#pragma unroll
    for (int i = 0; i < ipt; ++i)
      if ((keys[i] & magnitude) == 0) d_out[rank + at++] = keys[i];
    rank += tile_zeros;
    __syncthreads();  // the scan storage is reused
  }
}

inline constexpr int counting_zeros_copy_threads = 256;

// In place, the zeros were ranked into scratch before the expand overwrote the input: move them.
template <class Key, bool Descending>
__global__ void __launch_bounds__(counting_zeros_copy_threads)
    counting_zeros_copy_kernel(const Key* d_scratch, Key* d_out, const counting_sort_control<Key>* d_control) {
  wait_for_previous_grid();
  let_next_grid_launch();
  const zero_bins<Key, Descending> bins(*d_control);
  if (!bins.mixed) return;
  for (long long i = static_cast<long long>(bins.first) + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < static_cast<long long>(bins.last); i += static_cast<long long>(gridDim.x) * blockDim.x)
    d_out[i] = d_scratch[i];
}

}  // namespace upsweep::detail
