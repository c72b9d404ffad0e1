// Suite `compact`, group-by: reduce_by_key (sum), unique_by_key and inclusive_scan_by_key (sum)
// on keys with runs of average length 1.5, 16 and 1000 (keys and values both 4 or both 8 bytes),
// exclusive_scan_by_key and 4-byte keys with 8-byte values at runs of 16, non_trivial_runs on the
// same keys, and the segmented sum over segments of random length (average 100; n counts items,
// n / 100 segments). Upsweep (core layer) against CUB and Thrust (par_nosync). GB/s counts keys
// and values read and the outputs written. The Upsweep rows check their last output against
// Thrust after the timing.
#include "compact_bench_support.cuh"

#include <upsweep/compact/device_reduce_by_key.cuh>
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/compact/device_scan_by_key.cuh>
#include <upsweep/compact/device_unique.cuh>
#include <upsweep/scan/device_segmented_reduce.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/equal.h>
#include <thrust/reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace upsweep::bench {
namespace {

enum class group_op { reduce, unique, scan, exclusive_scan };

constexpr bool writes_items(group_op op) { return op == group_op::scan || op == group_op::exclusive_scan; }

// Keys with runs starting at starts_per_10000 / 10^4 of the items, values uniform.
template <class K, class V>
struct grouped_input {
  device_array<K> keys;
  device_array<V> values;
  grouped_input(std::int64_t n, int starts_per_10000) : keys(n), values(n) {
    fill_runs(keys.ptr, n, starts_per_10000);
    fill_input<V>(values.ptr, n, V{0}, V{1000});
  }
};

template <class K, class V>
double group_bytes(group_op op, std::int64_t n, int starts_per_10000) {
  const double runs = static_cast<double>(n) * starts_per_10000 / 1e4;
  const double out = writes_items(op) ? static_cast<double>(n) * sizeof(V) : runs * (sizeof(K) + sizeof(V));
  return static_cast<double>(n) * (sizeof(K) + sizeof(V)) + out;
}

// Thrust's results, the reference the Upsweep rows are checked against.
template <class K, class V>
void check_group(group_op op, const grouped_input<K, V>& in, std::int64_t n, const K* keys_out, const V* values_out,
                 const std::int64_t* d_count) {
  const auto policy = thrust::cuda::par.on(bench_context::get().stream);
  device_array<K> want_keys(n);
  device_array<V> want_values(n);
  std::int64_t count = n;
  if (op == group_op::reduce) {
    count = thrust::reduce_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, want_keys.ptr,
                                  want_values.ptr).first - want_keys.ptr;
  } else if (op == group_op::unique) {
    count = thrust::unique_by_key_copy(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, want_keys.ptr,
                                       want_values.ptr).first - want_keys.ptr;
  } else if (op == group_op::scan) {
    thrust::inclusive_scan_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, want_values.ptr);
  } else {
    thrust::exclusive_scan_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, want_values.ptr);
  }
  if (!writes_items(op)) {
    require(count_to_host(d_count) == count, "run count");
    require(thrust::equal(policy, keys_out, keys_out + count, want_keys.ptr), "run keys");
  }
  require(thrust::equal(policy, values_out, values_out + count, want_values.ptr), "values");
}

template <class K, class V, group_op Op, class Policy = void>
void upsweep_group(benchmark::State& state, int starts) {
  const std::int64_t n = state.range(0);
  const grouped_input<K, V> in(n, starts);
  device_array<K> keys_out(n);
  device_array<V> values_out(n);
  device_array<std::int64_t> count(1);
  const K* k = in.keys.ptr;
  const V* v = in.values.ptr;
  const auto plus = cuda::std::plus<V>{};
  const auto eq = cuda::std::equal_to<>{};
  time_with_temp_storage(state, n, group_bytes<K, V>(Op, n, starts), [&](void* temp, std::size_t& bytes,
                                                                          cudaStream_t s) {
    if constexpr (Op == group_op::reduce)
      return upsweep::reduce_by_key<Policy>(temp, bytes, k, v, keys_out.ptr, values_out.ptr, count.ptr, n, plus, eq, s);
    else if constexpr (Op == group_op::unique)
      return upsweep::unique_by_key<Policy>(temp, bytes, k, v, keys_out.ptr, values_out.ptr, count.ptr, n, eq, s);
    else if constexpr (Op == group_op::scan)
      return upsweep::inclusive_scan_by_key<Policy>(temp, bytes, k, v, values_out.ptr, n, plus, eq, s);
    else
      return upsweep::exclusive_scan_by_key<Policy>(temp, bytes, k, v, values_out.ptr, n, V{0}, plus, eq, s);
  });
  check_group(Op, in, n, keys_out.ptr, values_out.ptr, count.ptr);
}

template <class K, class V, group_op Op>
void cub_group(benchmark::State& state, int starts) {
  const std::int64_t n = state.range(0);
  const grouped_input<K, V> in(n, starts);
  device_array<K> keys_out(n);
  device_array<V> values_out(n);
  device_array<std::int64_t> count(1);
  const auto plus = cuda::std::plus<V>{};
  const auto eq = cuda::std::equal_to<>{};
  time_with_temp_storage(state, n, group_bytes<K, V>(Op, n, starts), [&](void* temp, std::size_t& bytes,
                                                                          cudaStream_t s) {
    if constexpr (Op == group_op::reduce)
      return cub::DeviceReduce::ReduceByKey(temp, bytes, in.keys.ptr, keys_out.ptr, in.values.ptr, values_out.ptr,
                                            count.ptr, plus, cub_count(n), s);
    else if constexpr (Op == group_op::unique)
      return cub::DeviceSelect::UniqueByKey(temp, bytes, in.keys.ptr, in.values.ptr, keys_out.ptr, values_out.ptr,
                                            count.ptr, cub_count(n), s);
    else if constexpr (Op == group_op::scan)
      return cub::DeviceScan::InclusiveScanByKey(temp, bytes, in.keys.ptr, in.values.ptr, values_out.ptr, plus,
                                                 cub_count(n), eq, s);
    else
      return cub::DeviceScan::ExclusiveScanByKey(temp, bytes, in.keys.ptr, in.values.ptr, values_out.ptr, plus, V{0},
                                                 cub_count(n), eq, s);
  });
}

// Thrust returns the outputs' ends (reduce, unique): it waits for them like copy_if.
template <class K, class V, group_op Op>
void thrust_group(benchmark::State& state, int starts) {
  const std::int64_t n = state.range(0);
  const grouped_input<K, V> in(n, starts);
  device_array<K> keys_out(n);
  device_array<V> values_out(n);
  time_on_gpu(state, n, group_bytes<K, V>(Op, n, starts), [&](cudaStream_t s) {
    const auto policy = thrust::cuda::par_nosync.on(s);
    if constexpr (Op == group_op::reduce)
      benchmark::DoNotOptimize(thrust::reduce_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr,
                                                     keys_out.ptr, values_out.ptr));
    else if constexpr (Op == group_op::unique)
      benchmark::DoNotOptimize(thrust::unique_by_key_copy(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr,
                                                          keys_out.ptr, values_out.ptr));
    else if constexpr (Op == group_op::scan)
      thrust::inclusive_scan_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, values_out.ptr);
    else
      thrust::exclusive_scan_by_key(policy, in.keys.ptr, in.keys.ptr + n, in.values.ptr, values_out.ptr);
  });
}

// ---- non_trivial_runs ----------------------------------------------------------------------------

template <class T, bool Ours, class Policy = void>
void non_trivial_runs_row(benchmark::State& state, int starts) {
  const std::int64_t n = state.range(0);
  device_array<T> keys(n);
  device_array<std::int64_t> offsets(n), lengths(n), count(1);
  fill_runs(keys.ptr, n, starts);
  const T* k = keys.ptr;
  time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(T), [&](void* temp, std::size_t& bytes,
                                                                            cudaStream_t s) {
    if constexpr (Ours)
      return upsweep::non_trivial_runs<Policy>(temp, bytes, k, offsets.ptr, lengths.ptr, count.ptr, n, s);
    else
      return cub::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, k, offsets.ptr, lengths.ptr, count.ptr,
                                                        cub_count(n), s);
  });
}

// ---- segmented sum ---------------------------------------------------------------------------------

// Offsets of segments of random length 0..200 (average 100) until n items.
inline std::vector<std::int64_t> random_segment_offsets(std::int64_t n) {
  std::vector<std::int64_t> host(1, 0);
  std::uint64_t seed = ++bench_context::get().seed;
  while (host.back() < n)
    host.push_back(std::min<std::int64_t>(n, host.back() + static_cast<std::int64_t>(test::mix64(++seed) % 201)));
  return host;
}

struct segment_offsets {
  std::vector<std::int64_t> host;
  std::int64_t segments;
  device_array<std::int64_t> offsets;
  explicit segment_offsets(std::int64_t n)
      : host(random_segment_offsets(n)), segments(static_cast<std::int64_t>(host.size()) - 1), offsets(segments + 1) {
    BENCH_CUDA(cudaMemcpy(offsets.ptr, host.data(), host.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice));
  }
};

template <class T, bool Ours>
void segmented_sum_row(benchmark::State& state, int) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n);
  fill_input<T>(in.ptr, n, T{0}, T{1000});
  const segment_offsets seg(n);
  device_array<T> out(seg.segments), want(seg.segments);
  const std::int64_t* begins = seg.offsets.ptr;
  time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(T), [&](void* temp, std::size_t& bytes,
                                                                            cudaStream_t s) {
    if constexpr (Ours)
      return upsweep::segmented_sum(temp, bytes, in.ptr, out.ptr, seg.segments, begins, begins + 1, s);
    else
      return cub::DeviceSegmentedReduce::Sum(temp, bytes, in.ptr, out.ptr, seg.segments, begins, begins + 1, s);
  });
  if constexpr (Ours) {  // against CUB on the same stream
    const cudaStream_t stream = bench_context::get().stream;
    std::size_t bytes = 0;
    BENCH_CUDA(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in.ptr, want.ptr, seg.segments, begins, begins + 1,
                                               stream));
    device_array<unsigned char> temp(static_cast<std::int64_t>(bytes));
    BENCH_CUDA(cub::DeviceSegmentedReduce::Sum(temp.ptr, bytes, in.ptr, want.ptr, seg.segments, begins, begins + 1,
                                               stream));
    require(thrust::equal(thrust::cuda::par.on(stream), out.ptr, out.ptr + seg.segments, want.ptr), "segment sums");
  }
}

// ---- registration ----------------------------------------------------------------------------------

// Average run lengths 1.5, 16 and 1000 as run starts per 10^4 items.
const std::pair<const char*, int> run_lengths[] = {{"run1.5", 6667}, {"run16", 625}, {"run1000", 10}};

void add_group_row(const std::string& op, const char* type, const char* run, int starts, const char* impl, row_fn fn,
                   int max_exp) {
  const std::string name = "compact/" + op + "_" + type + "_" + run + "/" + impl;
  add_row(name, decade_sizes(max_exp), 0.1, [fn, starts](benchmark::State& state) {
    guarded(state, [&] { fn(state, starts); });
  });
}

template <class K, class V, group_op Op>
void register_group(const char* op, const char* type, int max_exp, bool runs_of_16_only = false) {
  for (const auto& [run, starts] : run_lengths) {
    if (runs_of_16_only && starts != 625) continue;
    add_group_row(op, type, run, starts, "cub", cub_group<K, V, Op>, max_exp);
    if constexpr (!cub_rows_only) {
      add_group_row(op, type, run, starts, "upsweep", upsweep_group<K, V, Op>, max_exp);
      add_group_row(op, type, run, starts, "thrust", thrust_group<K, V, Op>, max_exp);
    }
  }
}

// The by-key kernel's tile, resident blocks and loads (600 ns pause), at runs of 16: int32 at 10^8
// and 10^9 items, int64 at 10^8 and 3 x 10^8.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm, int SettleNs,
          upsweep::tile_io Io = upsweep::tile_io::transpose>
using by_key_shape = upsweep::scan_policy<Threads, ItemsPerThread, Io, 1, upsweep::default_look_back_delay_ns, false,
                                          upsweep::tile_schedule::block_per_tile, MinBlocksPerSm, SettleNs>;

template <class T, group_op Op, class Policy>
void add_by_key_tune_row(const std::string& op, const std::string& name) {
  const std::string type = sizeof(T) == 4 ? "_i32" : "_i64";
  add_row("tune/" + op + type + "_run16/" + name, {100'000'000, sizeof(T) == 4 ? 1'000'000'000 : 300'000'000}, 0.1,
          [](benchmark::State& state) { guarded(state, [&] { upsweep_group<T, T, Op, Policy>(state, 625); }); });
}

// Block-per-tile shapes from the defaults (the first of each type) up to CUB's on sm90 (unique_by_key
// 512 x 14 transposed, reduce_by_key 256 x 15 direct, scans by key 288 x 14 transposed); a block's
// two tile buffers stay within the 48 KB of static shared memory.
template <group_op Op>
void add_by_key_tune_rows(const std::string& op) {
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  constexpr auto direct = upsweep::tile_io::direct;
  constexpr auto transpose = upsweep::tile_io::transpose;
  add_by_key_tune_row<i32, Op, by_key_shape<256, 12, 4, 600, direct>>(op, "256x12_min_blocks_4_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<256, 16, 3, 600, direct>>(op, "256x16_min_blocks_3_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<384, 14, 2, 600, direct>>(op, "384x14_min_blocks_2_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<384, 14, 3, 600, direct>>(op, "384x14_min_blocks_3_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<448, 12, 2, 600, direct>>(op, "448x12_min_blocks_2_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<512, 11, 2, 600, direct>>(op, "512x11_min_blocks_2_direct");
  add_by_key_tune_row<i32, Op, by_key_shape<512, 11, 2, 600, transpose>>(op, "512x11_min_blocks_2");
  add_by_key_tune_row<i64, Op, by_key_shape<256, 8, 4, 600, direct>>(op, "256x8_min_blocks_4_direct");
  add_by_key_tune_row<i64, Op, by_key_shape<256, 10, 3, 600, direct>>(op, "256x10_min_blocks_3_direct");
  add_by_key_tune_row<i64, Op, by_key_shape<384, 6, 3, 600, direct>>(op, "384x6_min_blocks_3_direct");
  add_by_key_tune_row<i64, Op, by_key_shape<512, 5, 2, 600, direct>>(op, "512x5_min_blocks_2_direct");
  add_by_key_tune_row<i64, Op, by_key_shape<448, 5, 2, 600, transpose>>(op, "448x5_min_blocks_2");
}

// non_trivial_runs on run-length encoding's reduce-ahead schedule, by tile shape and resident blocks.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm>
void add_non_trivial_tune_row(const std::string& name) {
  using policy = upsweep::select_policy<Threads, ItemsPerThread, upsweep::tile_io::transpose,
                                        upsweep::default_look_back_delay_ns, MinBlocksPerSm, 1200,
                                        upsweep::tile_schedule::reduce_ahead>;
  add_row("tune/non_trivial_runs_i32_run16/" + name, {100'000'000, 1'000'000'000}, 0.1, [](benchmark::State& state) {
    guarded(state, [&] { non_trivial_runs_row<std::int32_t, true, policy>(state, 625); });
  });
}

const bool registered = register_later([] {
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  register_group<i32, i32, group_op::reduce>("reduce_by_key", "i32", 9);
  register_group<i64, i64, group_op::reduce>("reduce_by_key", "i64", 8);
  register_group<i32, i32, group_op::unique>("unique_by_key", "i32", 9);
  register_group<i64, i64, group_op::unique>("unique_by_key", "i64", 8);
  register_group<i32, i32, group_op::scan>("inclusive_scan_by_key", "i32", 9);
  register_group<i64, i64, group_op::scan>("inclusive_scan_by_key", "i64", 8);
  constexpr bool runs_of_16_only = true;
  register_group<i32, i32, group_op::exclusive_scan>("exclusive_scan_by_key", "i32", 9, runs_of_16_only);
  // 4-byte keys, 8-byte values
  register_group<i32, i64, group_op::reduce>("reduce_by_key", "i32_i64", 8, runs_of_16_only);
  register_group<i32, i64, group_op::scan>("inclusive_scan_by_key", "i32_i64", 8, runs_of_16_only);
  for (const auto& [run, starts] : run_lengths)
    add_group_row("non_trivial_runs", "i32", run, starts, "cub", non_trivial_runs_row<std::int32_t, false>, 9);
  add_group_row("segmented_sum", "i32", "avg100", 0, "cub", segmented_sum_row<std::int32_t, false>, 8);
#ifndef UPSWEEP_BENCH_CUB35
  for (const auto& [run, starts] : run_lengths)
    add_group_row("non_trivial_runs", "i32", run, starts, "upsweep", non_trivial_runs_row<std::int32_t, true>, 9);
  add_group_row("segmented_sum", "i32", "avg100", 0, "upsweep", segmented_sum_row<std::int32_t, true>, 8);
  add_non_trivial_tune_row<256, 16, 5>("256x16_min_blocks_5");
  add_non_trivial_tune_row<256, 16, 4>("256x16_min_blocks_4");
  add_non_trivial_tune_row<256, 12, 6>("256x12_min_blocks_6");
  add_by_key_tune_rows<group_op::reduce>("reduce_by_key");
  add_by_key_tune_rows<group_op::scan>("inclusive_scan_by_key");
  add_by_key_tune_rows<group_op::unique>("unique_by_key");
#endif
});

}  // namespace
}  // namespace upsweep::bench
