// Sort across ranks, the tiles of the merge of the runs a rank receives (dist_merge_kernels.cuh
// merges them): every run is sampled every S items; the samples, gathered side by side, are
// ranked in the global order, and every m-th place starts a tile, whose bounds in each run are
// found among the S items that the sample's rank there leaves. A tile holds at most
// (m + K) S - K items (each run adds fewer than S items beyond its samples in the tile).
// Order: (window value, run, position), so equal keys keep run order, then position.
#pragma once

#include <upsweep/sort/detail/dist_sort_kernels.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/chained_launch.cuh>

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

// Each span of a merge level takes whole threads (ceil(its items / ItemsPerThread)), so the first
// level's ceil(K / 2) spans may leave as many threads one item short of full each: a tile holds
// at most the capacity less that slack.
inline constexpr long long kway_tile_items_max(int count, int tile_capacity, int items_per_thread) {
  return tile_capacity - static_cast<long long>((count + 1) / 2) * (items_per_thread - 1);
}

// The runs of one merge, in run (rank) order, each at an offset from the merge's input (gaps
// between them allowed: the received runs lie at aligned offsets; a rank's run to itself is
// read where its sort left it, so an offset may be negative), and their samples.
struct kway_runs {
  int count = 0;
  long long first[kway_max_runs] = {};             // run j's keys: [first[j], first[j] + items[j])
  long long value_first[kway_max_runs] = {};       // and its values: the same from value_first[j]
  long long items[kway_max_runs] = {};
  long long sample_first[kway_max_runs + 1] = {};  // run j's samples are [sample_first[j], ...[j + 1])
  long long stride = 1;                            // S: a sample every S items of a run
  long long tile_samples = 1;                      // m: samples a tile starts apart
};

// S, a power of two, leaves about 3K samples a tile, so tiles run about 2/3 full (S/2, fuller
// tiles: 0.376 against 0.363 ms for 4 runs of 2^26 keys; H200, 2026-11-26).
inline long long kway_stride(int count, int tile_capacity) {
  long long stride = 1;
  while (stride * 2 * 4 * count <= tile_capacity) stride *= 2;
  return stride;
}
// m: the largest tile, (m + K) S - K items, within kway_tile_items_max.
inline long long kway_tile_samples(int count, int tile_capacity, int items_per_thread, long long stride) {
  return (kway_tile_items_max(count, tile_capacity, items_per_thread) + count) / stride - count;
}

// run_firsts: where each run's keys start, or nullptr for runs back to back from 0;
// run_value_firsts: where its values start, or nullptr for the keys' offsets.
inline kway_runs kway_layout(const long long* run_counts, const long long* run_firsts,
                             const long long* run_value_firsts, int count, int tile_capacity, int items_per_thread) {
  kway_runs runs;
  runs.count = count;
  runs.stride = kway_stride(count, tile_capacity);
  runs.tile_samples = kway_tile_samples(count, tile_capacity, items_per_thread, runs.stride);
  const long long stride = runs.stride;
  for (int j = 0; j < count; ++j) {
    runs.items[j] = run_counts[j];
    runs.first[j] = run_firsts != nullptr ? run_firsts[j] : (j == 0 ? 0 : runs.first[j - 1] + run_counts[j - 1]);
    runs.value_first[j] = run_value_firsts != nullptr ? run_value_firsts[j] : runs.first[j];
    runs.sample_first[j + 1] = runs.sample_first[j] + (run_counts[j] + stride - 1) / stride;
  }
  return runs;
}

inline long long kway_num_tiles(const kway_runs& runs) {
  return (runs.sample_first[runs.count] + runs.tile_samples - 1) / runs.tile_samples;
}

// Run j's samples that precede (value, run `of`) in the global order; ties go to the lower run.
// One search after another: searching the runs in lockstep took more instructions than the
// latency it saved (0.209 against 0.188 of four ranks' time at 2^26 keys; H200, 2026-11-26).
__device__ inline long long samples_before(const cuda::std::uint64_t* d_samples, const kway_runs& runs, int j, int of,
                                           cuda::std::uint64_t value) {
  const cuda::std::uint64_t* samples = d_samples + runs.sample_first[j];
  long long low = 0, high = runs.sample_first[j + 1] - runs.sample_first[j];
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    if (j < of ? samples[mid] <= value : samples[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

__device__ inline int run_of_sample(const kway_runs& runs, long long sample) {
  int j = 0;
  while (sample >= runs.sample_first[j + 1]) ++j;
  return j;
}

// Every run's samples side by side, as window values (run j's i-th at sample_first[j] + i): the
// searches among them then share cache lines (strided in the keys, each step read its own sector).
template <bool Descending, class Key>
__global__ void gather_merge_samples_kernel(const Key* d_keys, kway_runs runs, int begin_bit, int end_bit,
                                            cuda::std::uint64_t* d_samples) {
  wait_for_previous_grid();  // the exchange's runs
  let_next_grid_launch();
  const long long sample = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (sample >= runs.sample_first[runs.count]) return;
  const int run = run_of_sample(runs, sample);
  const long long index = sample - runs.sample_first[run];
  d_samples[sample] = radix_window<Descending>(d_keys[runs.first[run] + index * runs.stride], begin_bit, end_bit);
}

// Each sample's place among all samples; the sample at every m-th place starts a tile, and its
// thread writes the tile's bounds: d_bounds[t * K + j], run j's items before that sample, found
// among the S items below run j's first sample not before it. Sample 0's thread also writes the
// bounds of tile num_tiles (every item).
template <bool Descending, class Key>
__global__ void find_tile_bounds_kernel(const Key* d_keys, const cuda::std::uint64_t* d_samples, kway_runs runs,
                                        long long num_tiles, int begin_bit, int end_bit, long long* d_bounds) {
  wait_for_previous_grid();  // the gathered samples
  const long long sample = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (sample >= runs.sample_first[runs.count]) return;
  const int run = run_of_sample(runs, sample);
  const long long index = sample - runs.sample_first[run];
  const cuda::std::uint64_t value = d_samples[sample];
  long long place = index, before[kway_max_runs];  // kept in registers: the loops unroll
#pragma unroll
  for (int j = 0; j < kway_max_runs; ++j) {
    before[j] = j < runs.count && j != run ? samples_before(d_samples, runs, j, run, value) : 0;
    place += before[j];
  }
  if (sample == 0)
    for (int j = 0; j < runs.count; ++j) d_bounds[num_tiles * runs.count + j] = runs.items[j];
  if (place % runs.tile_samples != 0) return;
  long long* bounds = d_bounds + place / runs.tile_samples * runs.count;
#pragma unroll
  for (int j = 0; j < kway_max_runs; ++j) {
    if (j >= runs.count) break;
    if (j == run) {
      bounds[j] = index * runs.stride;
      continue;
    }
    const long long low = before[j] == 0 ? 0 : (before[j] - 1) * runs.stride + 1;
    const long long high = before[j] * runs.stride < runs.items[j] ? before[j] * runs.stride : runs.items[j];
    const Key* d_window = d_keys + runs.first[j] + low;
    bounds[j] = low + (j < run ? window_bound<true, Descending>(d_window, high - low, value, begin_bit, end_bit)
                               : window_bound<false, Descending>(d_window, high - low, value, begin_bit, end_bit));
  }
}

// Temporary words of one merge of at most `items` items: K bounds a tile and K past the last, then
// the samples.
template <class Key, class Value>
long long kway_temp_words(long long items) {
  long long most = 0;
  for (int count = 2; count <= kway_max_runs; ++count) {
    constexpr int capacity = kway_tile_capacity<Key, Value>;
    const long long stride = kway_stride(count, capacity);
    const long long samples = items / stride + count;  // at least the sum of the runs' ceil(n_j / S)
    const long long per_tile = kway_tile_samples(count, capacity, kway_items_per_thread<Key, Value>(), stride);
    const long long tiles = (samples + per_tile - 1) / per_tile;
    const long long words = (tiles + 1) * count + samples;
    most = words > most ? words : most;
  }
  return most;
}

}  // namespace upsweep::detail
