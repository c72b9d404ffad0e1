// Sort across ranks, the join of the runs a rank receives: a stable merge of up to
// kway_max_runs sorted runs in one pass over memory, tile by tile (dist_merge_tiles.cuh cuts the
// tiles). A block loads its tile's K segments, merges them pairwise in shared memory (log2 K
// levels, merge path per thread) and writes keys, then values, in order, 16 bytes a store where
// the output's alignment allows. Ties go to the lower run, then the lower position.
#pragma once

#include <upsweep/sort/detail/dist_merge_tiles.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>

#include <cuda/std/cstdint>
#include <cuda_pipeline_primitives.h>

#include <cstddef>

namespace upsweep::detail {

// Shared memory slot of tile position i: one pad every 32 items, so that a warp's threads, which
// merge consecutive stretches of 8 or 16 items, land in different banks.
__device__ inline int padded(int i) { return i + (i >> 5); }
// Slots to ItemsPerThread past the capacity: a thread's merge reads heads up to that far.
template <int Capacity, int ItemsPerThread>
inline constexpr int kway_padded_capacity = Capacity + ItemsPerThread + (Capacity + ItemsPerThread) / 32 + 1;

// Items of the first `diagonal` outputs that come from run a. Ties take a first (stability).
template <class AtA, class AtB, class Order>
__device__ int merge_path(AtA a, int count_a, AtB b, int count_b, int diagonal, Order order) {
  int low = diagonal > count_b ? diagonal - count_b : 0;
  int high = diagonal < count_a ? diagonal : count_a;
  while (low < high) {
    const int mid = (low + high) / 2;
    if (order(a(mid)) <= order(b(diagonal - 1 - mid))) low = mid + 1;
    else high = mid;
  }
  return low;
}

// A tile in shared memory: segment j is [start[j], start[j + 1]) there, and its item at tile
// position p comes from d_keys_in[offset[j] + p] (its value from d_values_in[value_offset[j] +
// p]); the tile's output begins at out_first.
struct kway_tile {
  int count;
  int start[kway_max_runs + 1];
  long long offset[kway_max_runs];
  long long value_offset[kway_max_runs];
  long long out_first;
};

// Tile t's segments from its bounds, by the first warp, lane j reading run j's (one round of
// loads, not 2K in turn); the caller synchronises.
__device__ inline void describe_tile(const kway_runs& runs, const long long* d_bounds, kway_tile& tile) {
  const int lane = static_cast<int>(threadIdx.x);
  const long long* lower = d_bounds + blockIdx.x * static_cast<long long>(runs.count);
  long long low = 0;
  int length = 0;
  if (lane < runs.count) {
    low = lower[lane];
    length = static_cast<int>(lower[lane + runs.count] - low);
  }
  int end = length;
  long long below = low;
  for (int d = 1; d < 32; d *= 2) {  // end: inclusive sum of lengths; below: the sum of lows
    const int before = __shfl_up_sync(0xffffffffu, end, d);
    if (lane >= d) end += before;
    below += __shfl_xor_sync(0xffffffffu, below, d);
  }
  if (lane < runs.count) {
    tile.start[lane + 1] = end;
    const long long shift = low - (end - length);  // run item low + (p - the segment's start)
    tile.offset[lane] = runs.first[lane] + shift;
    tile.value_offset[lane] = runs.value_first[lane] + shift;
  }
  if (lane == 0) {
    tile.count = runs.count;
    tile.start[0] = 0;
    tile.out_first = below;
  }
}

// The tile's items into shared memory, every load issued before the first store so that a
// thread has ItemsPerThread loads in flight.
template <int ItemsPerThread, class T>
__device__ void load_tile(const T* d_in, const kway_tile& tile, const long long* offsets, T* to) {
  const int tile_items = tile.start[tile.count];
  T item[ItemsPerThread];
  int j = 0, next_start = tile.start[1];  // the segment, found onwards from the previous item's
  long long offset = offsets[0];
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    const int p = static_cast<int>(threadIdx.x) + k * kway_block_threads;
    if (p >= tile_items) break;
    while (p >= next_start) {
      ++j;
      next_start = tile.start[j + 1];
      offset = offsets[j];
    }
    item[k] = d_in[offset + p];
  }
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    const int p = static_cast<int>(threadIdx.x) + k * kway_block_threads;
    if (p < tile_items) to[padded(p)] = item[k];
  }
}

// The same by asynchronous copies, for items of 4, 8 or 16 bytes aligned to their size: no
// registers hold them, so every copy is in flight at once, and a segment at a time needs no
// search for each item's segment (about 8 instructions an item instead of 20; the merge of 4 runs
// gained 1 %, so instructions were not what bound it). Thread t copies the positions that are t
// modulo the block's threads; the caller synchronises.
template <class T>
__device__ void load_tile_async(const T* d_in, const kway_tile& tile, const long long* offsets, T* to) {
  constexpr int step = kway_block_threads, slot_step = step + step / 32;  // padded(p + step) - padded(p)
  const int thread = static_cast<int>(threadIdx.x);
  for (int j = 0; j < tile.count; ++j) {
    int p = tile.start[j] + ((thread - tile.start[j]) & (step - 1));
    const T* from = d_in + offsets[j] + p;
    T* slot = to + padded(p);
    for (const int end = tile.start[j + 1]; p < end; p += step, from += step, slot += slot_step)
      __pipeline_memcpy_async(slot, from, sizeof(T));
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

// offsets: the tile's offset (keys) or value_offset (values).
template <int ItemsPerThread, class T>
__device__ void load_tile_items(const T* d_in, const kway_tile& tile, const long long* offsets, T* to) {
  constexpr bool copyable = (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) && alignof(T) == sizeof(T);
  if constexpr (copyable) load_tile_async(d_in, tile, offsets, to);
  else load_tile<ItemsPerThread>(d_in, tile, offsets, to);
}

// A tile's `items` outputs from read(i) to d_out[first + i]: 16 bytes a store between the first
// and the last aligned address, single items around them.
template <class T, class Read>
__device__ void store_tile(T* d_out, long long first, int items, Read read) {
  const int thread = static_cast<int>(threadIdx.x);
  T* out = d_out + first;
  constexpr int per_vector = sizeof(T) <= 8 && 16 % sizeof(T) == 0 ? 16 / static_cast<int>(sizeof(T)) : 1;
  int lead = 0, vectors = 0;
  if constexpr (per_vector > 1) {
    const auto misaligned = reinterpret_cast<cuda::std::uintptr_t>(out) % 16;
    if (misaligned % sizeof(T) == 0) {
      lead = static_cast<int>((16 - misaligned) % 16 / sizeof(T));
      lead = lead < items ? lead : items;
      vectors = (items - lead) / per_vector;
    }
    struct alignas(16) vector_t {
      T item[per_vector];
    };
    for (int v = thread; v < vectors; v += kway_block_threads) {
      vector_t pack;
#pragma unroll
      for (int u = 0; u < per_vector; ++u) pack.item[u] = read(lead + v * per_vector + u);
      reinterpret_cast<vector_t*>(out + lead)[v] = pack;
    }
  }
  if (thread < lead) out[thread] = read(thread);
  for (int i = lead + vectors * per_vector + thread; i < items; i += kway_block_threads) out[i] = read(i);
}

// Where this thread merges in one level: the span's two segments [a, a_end), [a_end, b_end) and
// its first output `out`. Each span of 2w segments takes ceil(its items / ItemsPerThread)
// threads in turn, so no thread's outputs leave its span; false for the threads left over.
template <int ItemsPerThread>
__device__ bool find_span(const kway_tile& tile, int width, int& a, int& a_end, int& b_end, int& out) {
  const int thread = static_cast<int>(threadIdx.x);
  auto bound = [&](int s) { return tile.start[s < tile.count ? s : tile.count]; };
  int first_thread = 0;
  for (int s = 0; s < tile.count; s += 2 * width) {
    const int low = bound(s), high = bound(s + 2 * width);
    const int threads = (high - low + ItemsPerThread - 1) / ItemsPerThread;
    if (thread < first_thread + threads) {
      a = low, a_end = bound(s + width), b_end = high;
      out = low + (thread - first_thread) * ItemsPerThread;
      return true;
    }
    first_thread += threads;
  }
  return false;
}

// One level of the pairwise merge in shared memory: spans of 2w segments become one sorted run.
// A thread merges ItemsPerThread consecutive outputs of one span: a diagonal search, then a
// sequential merge holding both heads in registers (one shared load an item, the next head of the
// side taken, perhaps past its end and then unused); outputs past the span are dropped. All
// read, then all write. Keys compare by order(key), their ordered bits.
template <int ItemsPerThread, bool WithSources, class Key, class Order>
__device__ void merge_level(Key* keys, cuda::std::uint16_t* sources, const kway_tile& tile, int width, Order order) {
  int a = 0, a_end = 0, b_end = 0, out = 0;
  const bool merges = find_span<ItemsPerThread>(tile, width, a, a_end, b_end, out);
  Key merged[ItemsPerThread];
  cuda::std::uint16_t from[ItemsPerThread];
  if (merges) {
    int b = a_end;
    auto at_a = [&](int i) { return keys[padded(a + i)]; };
    auto at_b = [&](int i) { return keys[padded(b + i)]; };
    const int taken_a = merge_path(at_a, a_end - a, at_b, b_end - b, out - a, order);
    b += out - a - taken_a;
    a += taken_a;
    Key head_a = keys[padded(a)], head_b = keys[padded(b)];
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const bool take_a = b >= b_end || (a < a_end && order(head_a) <= order(head_b));
      merged[k] = take_a ? head_a : head_b;
      if constexpr (WithSources) from[k] = sources[padded(take_a ? a : b)];
      const int next = take_a ? ++a : ++b;
      const Key loaded = keys[padded(next)];
      head_a = take_a ? loaded : head_a;
      head_b = take_a ? head_b : loaded;
    }
  }
  __syncthreads();
  if (merges) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      if (out + k >= b_end) break;
      keys[padded(out + k)] = merged[k];
      if constexpr (WithSources) sources[padded(out + k)] = from[k];
    }
  }
  __syncthreads();
}

// The merge levels, comparing the radix sort's ordered bits of the keys in their own width: all
// of them, or the window's (0 bits: all alike). -0.0 and +0.0 stay themselves and compare equal.
template <bool Descending, int ItemsPerThread, bool WithSources, class Key>
__device__ void merge_levels(Key* keys, cuda::std::uint16_t* sources, const kway_tile& tile, int begin_bit,
                             int end_bit) {
  using traits = radix_traits<Key>;
  using bits_t = typename traits::bits_t;
  if (begin_bit == 0 && end_bit == traits::key_bits) {
    for (int width = 1; width < tile.count; width *= 2)
      merge_level<ItemsPerThread, WithSources>(keys, sources, tile, width,
                                               [](Key key) { return traits::template to_sort_bits<Descending>(key); });
    return;
  }
  const int width_bits = end_bit - begin_bit;  // below the key's bits here
  const int shift = width_bits > 0 ? begin_bit : 0;
  const auto mask = static_cast<bits_t>((cuda::std::uint64_t{1} << width_bits) - 1);
  for (int width = 1; width < tile.count; width *= 2)
    merge_level<ItemsPerThread, WithSources>(keys, sources, tile, width, [=](Key key) {
      return static_cast<bits_t>((traits::template to_sort_bits<Descending>(key) >> shift) & mask);
    });
}

template <bool Descending, class Key, class Value>
__global__ void __launch_bounds__(kway_block_threads, 5)  // 48 registers
    merge_tiles_kernel(const Key* d_keys_in, const Value* d_values_in, Key* d_keys_out, Value* d_values_out,
                       kway_runs runs, const long long* d_bounds, int begin_bit, int end_bit) {
  constexpr bool with_values = has_values_v<Value>;
  constexpr int items_per_thread = kway_items_per_thread<Key, Value>();
  constexpr int capacity = kway_padded_capacity<kway_tile_capacity<Key, Value>, items_per_thread>;
  constexpr std::size_t value_size = with_values ? sizeof(Value) : 1;
  __shared__ alignas(16) unsigned char raw[capacity * (sizeof(Key) > value_size ? sizeof(Key) : value_size)];
  __shared__ cuda::std::uint16_t sources[with_values ? capacity : 1];
  __shared__ kway_tile tile;
  Key* keys = reinterpret_cast<Key*>(raw);
  wait_for_previous_grid();  // the tile bounds
  if (threadIdx.x < 32) describe_tile(runs, d_bounds, tile);
  __syncthreads();
  const int tile_items = tile.start[tile.count];
  load_tile_items<items_per_thread>(d_keys_in, tile, tile.offset, keys);
  if constexpr (with_values)
    for (int i = threadIdx.x; i < tile_items; i += kway_block_threads)
      sources[padded(i)] = static_cast<cuda::std::uint16_t>(i);
  __syncthreads();
  merge_levels<Descending, items_per_thread, with_values>(keys, sources, tile, begin_bit, end_bit);
  store_tile(d_keys_out, tile.out_first, tile_items, [&](int i) { return keys[padded(i)]; });
  if constexpr (with_values) {  // the values follow their keys' sources through shared memory
    Value* values = reinterpret_cast<Value*>(raw);
    __syncthreads();
    load_tile_items<items_per_thread>(d_values_in, tile, tile.value_offset, values);
    __syncthreads();
    store_tile(d_values_out, tile.out_first, tile_items, [&](int i) { return values[padded(sources[padded(i)])]; });
  }
}

// The merge of `count` (2..kway_max_runs) non-empty runs, in run order from d_keys_in (run j
// at run_firsts[j], or back to back when run_firsts is nullptr; its values at
// run_value_firsts[j] of d_values_in, or nullptr for run_firsts), into d_keys_out, contiguous.
// d_words holds kway_temp_words(the items) words. Its three kernels are chained launches.
template <bool Descending, class Key, class Value>
cudaError_t merge_runs(const Key* d_keys_in, const Value* d_values_in, Key* d_keys_out, Value* d_values_out,
                       const long long* run_counts, const long long* run_firsts, const long long* run_value_firsts,
                       int count, int begin_bit, int end_bit, long long* d_words, cudaStream_t stream) {
  const kway_runs runs = kway_layout(run_counts, run_firsts, run_value_firsts, count, kway_tile_capacity<Key, Value>,
                                     kway_items_per_thread<Key, Value>());
  const long long samples = runs.sample_first[count];
  const long long tiles = kway_num_tiles(runs);
  if (tiles == 0) return cudaSuccess;
  if (tiles >= (1ll << 31)) return cudaErrorInvalidValue;  // past a grid: 2^31 tiles of thousands of items
  long long* d_bounds = d_words;
  auto* d_samples = reinterpret_cast<cuda::std::uint64_t*>(d_words + (tiles + 1) * count);
  constexpr int threads = 256;
  const auto grid = static_cast<unsigned>((samples + threads - 1) / threads);
  UPSWEEP_CUDA_RETURN(launch_chained(gather_merge_samples_kernel<Descending, Key>, dim3(grid), dim3(threads), stream,
                                     d_keys_in, runs, begin_bit, end_bit, d_samples));
  UPSWEEP_CUDA_RETURN(launch_chained(find_tile_bounds_kernel<Descending, Key>, dim3(grid), dim3(threads), stream,
                                     d_keys_in, static_cast<const cuda::std::uint64_t*>(d_samples), runs, tiles,
                                     begin_bit, end_bit, d_bounds));
  return launch_chained(merge_tiles_kernel<Descending, Key, Value>, dim3(static_cast<unsigned>(tiles)),
                        dim3(kway_block_threads), stream, d_keys_in, d_values_in, d_keys_out, d_values_out, runs,
                        static_cast<const long long*>(d_bounds), begin_bit, end_bit);
}

}  // namespace upsweep::detail
