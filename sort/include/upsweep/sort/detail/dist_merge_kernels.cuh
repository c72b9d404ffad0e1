// Sort across ranks, the join of the runs a rank receives: a stable merge of up to
// kway_max_runs sorted runs in one pass over memory. Every run is sampled every S items; the
// samples ranked in the global order cut the output into tiles of m samples each, so a tile holds
// at most (m + K) S - K items (each run adds fewer than S items beyond its samples in the tile)
// and fits one block. A block loads its tile's K segments, merges them pairwise in shared
// memory (log2 K levels, merge path per thread) and writes keys, then values, in order.
// Order: (window value, run, position), so equal keys keep run order, then position.
#pragma once

#include <upsweep/sort/detail/dist_sort_kernels.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/error.hpp>

#include <cuda/std/cstdint>

#include <cstddef>

namespace upsweep::detail {

inline constexpr int kway_max_runs = 8;
inline constexpr int kway_block_threads = 256;

// Items a thread merges: 16 of 4-byte items, fewer of wider ones (shared memory under 48 KiB).
template <class Key, class Value>
constexpr int kway_items_per_thread() {
  const std::size_t widest = sizeof(Key) > sizeof(Value) || !has_values_v<Value> ? sizeof(Key) : sizeof(Value);
  return widest <= 4 ? 16 : widest >= 64 ? 1 : static_cast<int>(64 / widest);
}
template <class Key, class Value>
inline constexpr int kway_tile_capacity = kway_block_threads * kway_items_per_thread<Key, Value>();
static_assert(kway_block_threads * 16 <= 65536, "tile positions are kept in 16 bits");

// Shared memory slot of tile position i: one pad every 32 items, so that a warp's threads, which
// merge consecutive stretches of 8 or 16 items, land in different banks.
__device__ inline int padded(int i) { return i + (i >> 5); }
template <int Capacity>
inline constexpr int kway_padded_capacity = Capacity + Capacity / 32 + 1;  // + the slot past the last

// The runs of one merge, in one buffer in run (rank) order (gaps between them allowed: the
// received runs lie at aligned offsets), and their samples.
struct kway_runs {
  int count = 0;
  long long first[kway_max_runs] = {};             // run j holds [first[j], first[j] + items[j])
  long long items[kway_max_runs] = {};
  long long sample_first[kway_max_runs + 1] = {};  // run j's samples are [sample_first[j], ...[j + 1])
  long long stride = 1;                            // S: a sample every S items of a run
  long long tile_samples = 1;                      // m: samples a tile starts apart
};

// S, a power of two, leaves at least 3K samples a tile (m = C / S - K), so tiles run about 3/4
// full and the largest, (m + K) S - K items, fits the capacity C.
inline long long kway_stride(int count, int tile_capacity) {
  long long stride = 1;
  while (stride * 2 * 4 * count <= tile_capacity) stride *= 2;
  return stride;
}

// run_firsts: where each run starts, or nullptr for runs back to back from 0.
inline kway_runs kway_layout(const long long* run_counts, const long long* run_firsts, int count, int tile_capacity) {
  kway_runs runs;
  runs.count = count;
  runs.stride = kway_stride(count, tile_capacity);
  runs.tile_samples = tile_capacity / runs.stride - count;
  const long long stride = runs.stride;
  for (int j = 0; j < count; ++j) {
    runs.items[j] = run_counts[j];
    runs.first[j] = run_firsts != nullptr ? run_firsts[j] : (j == 0 ? 0 : runs.first[j - 1] + run_counts[j - 1]);
    runs.sample_first[j + 1] = runs.sample_first[j] + (run_counts[j] + stride - 1) / stride;
  }
  return runs;
}

inline long long kway_num_tiles(const kway_runs& runs) {
  return (runs.sample_first[runs.count] + runs.tile_samples - 1) / runs.tile_samples;
}

// Run j's samples that precede (value, run `of`) in the global order; ties go to the lower run.
template <bool Descending, class Key>
__device__ long long samples_before(const Key* d_keys, const kway_runs& runs, int j, int of,
                                    cuda::std::uint64_t value, int begin_bit, int end_bit) {
  long long low = 0, high = runs.sample_first[j + 1] - runs.sample_first[j];
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    const auto at = radix_window<Descending>(d_keys[runs.first[j] + mid * runs.stride], begin_bit, end_bit);
    if (j < of ? at <= value : at < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

__device__ inline int run_of_sample(const kway_runs& runs, long long sample) {
  int j = 0;
  while (sample >= runs.sample_first[j + 1]) ++j;
  return j;
}

// Each sample's place among all samples; every m-th place starts a tile.
template <bool Descending, class Key>
__global__ void rank_samples_kernel(const Key* d_keys, kway_runs runs, int begin_bit, int end_bit,
                                    long long* d_tile_sample) {
  const long long sample = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (sample >= runs.sample_first[runs.count]) return;
  const int run = run_of_sample(runs, sample);
  const long long index = sample - runs.sample_first[run];
  const auto value = radix_window<Descending>(d_keys[runs.first[run] + index * runs.stride], begin_bit, end_bit);
  long long place = index;
  for (int j = 0; j < runs.count; ++j)
    if (j != run) place += samples_before<Descending>(d_keys, runs, j, run, value, begin_bit, end_bit);
  if (place % runs.tile_samples == 0) d_tile_sample[place / runs.tile_samples] = sample;
}

// d_bounds[t * K + j]: run j's items before tile t's first sample (tile num_tiles: all of them).
template <bool Descending, class Key>
__global__ void find_tile_bounds_kernel(const Key* d_keys, kway_runs runs, long long num_tiles, int begin_bit,
                                        int end_bit, const long long* d_tile_sample, long long* d_bounds) {
  const long long slot = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (slot >= (num_tiles + 1) * runs.count) return;
  const long long tile = slot / runs.count;
  const int j = static_cast<int>(slot % runs.count);
  const long long count = runs.items[j];
  if (tile == num_tiles) {
    d_bounds[slot] = count;
    return;
  }
  const long long sample = d_tile_sample[tile];
  const int run = run_of_sample(runs, sample);
  const long long position = (sample - runs.sample_first[run]) * runs.stride;
  if (j == run) {
    d_bounds[slot] = position;
    return;
  }
  const auto value = radix_window<Descending>(d_keys[runs.first[run] + position], begin_bit, end_bit);
  const Key* d_run = d_keys + runs.first[j];
  d_bounds[slot] = j < run ? window_bound<true, Descending>(d_run, count, value, begin_bit, end_bit)
                           : window_bound<false, Descending>(d_run, count, value, begin_bit, end_bit);
}

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

// A tile in shared memory: segment j is [start[j], start[j + 1]) there and comes from
// d_in[source[j]...]; the tile's output begins at out_first.
struct kway_tile {
  int count;
  int start[kway_max_runs + 1];
  long long source[kway_max_runs];
  long long out_first;
};

// Tile t's segments from its bounds, by the first warp, lane j reading run j's (one round of
// loads, not 2K in turn); the caller synchronises.
__device__ inline void describe_tile(const kway_runs& runs, const long long* d_bounds, kway_tile& tile) {
  const int lane = static_cast<int>(threadIdx.x);
  const long long* lower = d_bounds + blockIdx.x * static_cast<long long>(runs.count);
  long long low = 0;
  int end = 0;
  if (lane < runs.count) {
    low = lower[lane];
    end = static_cast<int>(lower[lane + runs.count] - low);
  }
  long long below = low;
  for (int d = 1; d < 32; d *= 2) {  // end: inclusive sum of lengths; below: the sum of lows
    const int before = __shfl_up_sync(0xffffffffu, end, d);
    if (lane >= d) end += before;
    below += __shfl_xor_sync(0xffffffffu, below, d);
  }
  if (lane < runs.count) {
    tile.start[lane + 1] = end;
    tile.source[lane] = runs.first[lane] + low;
  }
  if (lane == 0) {
    tile.count = runs.count;
    tile.start[0] = 0;
    tile.out_first = below;
  }
}

// The tile's items into shared memory, every load issued before the first store so that a
// thread has ItemsPerThread loads in flight; the slots past the tile's items get `fill`.
template <int ItemsPerThread, class T>
__device__ void load_tile(const T* d_in, const kway_tile& tile, T* to, T fill) {
  const int tile_items = tile.start[tile.count];
  T item[ItemsPerThread];
  int j = 0;  // the segment, found onwards from the previous item's
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    const int p = static_cast<int>(threadIdx.x) + k * kway_block_threads;
    item[k] = fill;
    if (p >= tile_items) continue;
    while (p >= tile.start[j + 1]) ++j;
    item[k] = d_in[tile.source[j] + (p - tile.start[j])];
  }
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) to[padded(static_cast<int>(threadIdx.x) + k * kway_block_threads)] = item[k];
}

// One level of the pairwise merge in shared memory: spans of 2w segments become one sorted run.
// The last segment runs on to the tile's capacity through slots that sort last, so every thread
// merges exactly ItemsPerThread consecutive outputs: a diagonal search, then a sequential merge
// holding both heads in registers (one shared load an item, the next head of the side taken,
// perhaps one past its end and then unused), moving on at a span's end. All read, then all write.
// Keys compare by order(key), their ordered bits.
template <int ItemsPerThread, bool WithSources, class Key, class Order>
__device__ void merge_level(Key* keys, cuda::std::uint16_t* sources, const kway_tile& tile, int width, Order order) {
  constexpr int capacity = ItemsPerThread * kway_block_threads;
  const int out = static_cast<int>(threadIdx.x) * ItemsPerThread;
  Key merged[ItemsPerThread];
  cuda::std::uint16_t from[ItemsPerThread];
  auto bound = [&](int s) { return s < tile.count ? tile.start[s] : capacity; };
  int span = 0, a = 0, a_end = 0, b = 0, b_end = 0;
  Key head_a{}, head_b{};
  auto enter = [&](int first_segment) {
    span = first_segment;
    a = bound(span), a_end = bound(span + width), b = a_end, b_end = bound(span + 2 * width);
  };
  enter(0);
  while (out >= b_end) enter(span + 2 * width);
  auto at_a = [&](int i) { return keys[padded(a + i)]; };
  auto at_b = [&](int i) { return keys[padded(b + i)]; };
  const int taken_a = merge_path(at_a, a_end - a, at_b, b_end - b, out - a, order);
  b += out - a - taken_a;
  a += taken_a;
  head_a = keys[padded(a)];
  head_b = keys[padded(b)];
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    if (out + k == b_end) {  // on to the next non-empty span
      while (out + k == b_end) enter(span + 2 * width);
      head_a = keys[padded(a)];
      head_b = keys[padded(b)];
    }
    const bool take_a = b >= b_end || (a < a_end && order(head_a) <= order(head_b));
    merged[k] = take_a ? head_a : head_b;
    if constexpr (WithSources) from[k] = sources[padded(take_a ? a : b)];
    const int next = take_a ? ++a : ++b;
    const Key loaded = keys[padded(next)];
    head_a = take_a ? loaded : head_a;
    head_b = take_a ? head_b : loaded;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    keys[padded(out + k)] = merged[k];
    if constexpr (WithSources) sources[padded(out + k)] = from[k];
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
  constexpr int capacity = kway_padded_capacity<kway_tile_capacity<Key, Value>>;
  constexpr std::size_t value_size = with_values ? sizeof(Value) : 1;
  __shared__ alignas(16) unsigned char raw[capacity * (sizeof(Key) > value_size ? sizeof(Key) : value_size)];
  __shared__ cuda::std::uint16_t sources[with_values ? capacity : 1];
  __shared__ kway_tile tile;
  constexpr int items_per_thread = kway_items_per_thread<Key, Value>();
  Key* keys = reinterpret_cast<Key*>(raw);
  if (threadIdx.x < 32) describe_tile(runs, d_bounds, tile);
  __syncthreads();
  const int tile_items = tile.start[tile.count];
  using traits = radix_traits<Key>;
  using bits_t = typename traits::bits_t;
  const Key sorts_last = traits::from_ordered(Descending ? bits_t{0} : static_cast<bits_t>(~bits_t{0}));
  load_tile<items_per_thread>(d_keys_in, tile, keys, sorts_last);
  if constexpr (with_values)
    for (int i = threadIdx.x; i < items_per_thread * kway_block_threads; i += kway_block_threads)
      sources[padded(i)] = static_cast<cuda::std::uint16_t>(i);
  __syncthreads();
  merge_levels<Descending, items_per_thread, with_values>(keys, sources, tile, begin_bit, end_bit);
  for (int i = threadIdx.x; i < tile_items; i += kway_block_threads) d_keys_out[tile.out_first + i] = keys[padded(i)];
  if constexpr (with_values) {  // the values follow their keys' sources through shared memory
    Value* values = reinterpret_cast<Value*>(raw);
    __syncthreads();
    load_tile<items_per_thread>(d_values_in, tile, values, Value{});
    __syncthreads();
    for (int i = threadIdx.x; i < tile_items; i += kway_block_threads)
      d_values_out[tile.out_first + i] = values[padded(sources[padded(i)])];
  }
}

// Temporary words of one merge of at most `items` items: a sample per tile, K + 1 bounds per tile.
template <class Key, class Value>
long long kway_temp_words(long long items) {
  long long most = 0;
  for (int count = 2; count <= kway_max_runs; ++count) {
    const long long stride = kway_stride(count, kway_tile_capacity<Key, Value>);
    const long long samples = items / stride + count;  // at least the sum of the runs' ceil(n_j / S)
    const long long tiles = (samples + kway_tile_capacity<Key, Value> / stride - count - 1) /
                            (kway_tile_capacity<Key, Value> / stride - count);
    const long long words = tiles + (tiles + 1) * count;
    most = words > most ? words : most;
  }
  return most;
}

// The merge of `count` (2..kway_max_runs) non-empty runs, in run order from d_keys_in (run j
// at run_firsts[j], or back to back when run_firsts is nullptr), into d_keys_out, contiguous.
// d_words holds kway_temp_words(the items) words.
template <bool Descending, class Key, class Value>
cudaError_t merge_runs(const Key* d_keys_in, const Value* d_values_in, Key* d_keys_out, Value* d_values_out,
                       const long long* run_counts, const long long* run_firsts, int count, int begin_bit,
                       int end_bit, long long* d_words, cudaStream_t stream) {
  const kway_runs runs = kway_layout(run_counts, run_firsts, count, kway_tile_capacity<Key, Value>);
  const long long samples = runs.sample_first[count];
  const long long tiles = kway_num_tiles(runs);
  if (tiles == 0) return cudaSuccess;
  if (tiles >= (1ll << 31)) return cudaErrorInvalidValue;  // past a grid: 2^31 tiles of thousands of items
  long long* d_tile_sample = d_words;
  long long* d_bounds = d_words + tiles;
  constexpr int threads = 256;
  rank_samples_kernel<Descending><<<static_cast<unsigned>((samples + threads - 1) / threads), threads, 0, stream>>>(
      d_keys_in, runs, begin_bit, end_bit, d_tile_sample);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  const long long slots = (tiles + 1) * count;
  find_tile_bounds_kernel<Descending><<<static_cast<unsigned>((slots + threads - 1) / threads), threads, 0, stream>>>(
      d_keys_in, runs, tiles, begin_bit, end_bit, d_tile_sample, d_bounds);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  merge_tiles_kernel<Descending><<<static_cast<unsigned>(tiles), kway_block_threads, 0, stream>>>(
      d_keys_in, d_values_in, d_keys_out, d_values_out, runs, d_bounds, begin_bit, end_bit);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
