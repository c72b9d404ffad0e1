// Suite `segsort`: segmented sorts of u32 keys, alone and with u32 values, beside CUB 3.0's
// DeviceSegmentedSort::SortPairs/SortKeys (cub_segmented_sort) and DeviceSegmentedRadixSort
// (cub_segmented_radix_sort) on the same data: 10^6 segments of random lengths averaging 32 and
// 1000 items, 100 segments of 10^6; and rows (2^20 x 32, 1000 x 1000 i32 keys with int64 values,
// the width of torch.sort(dim=-1)'s indices; Upsweep sorts them with its rows form; torch's rows come
// from bench/torch_bench.py).
// Row n is the item count. Each row's last result is checked: every segment in order, and the
// keys' sum kept.
#include "bench_support.cuh"

#include <upsweep/sort/device_segmented_sort.cuh>

#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace upsweep::bench {
namespace {

struct segmented_shape {
  const char* name;
  std::int64_t segments;
  std::int64_t mean;  // lengths in [0, 2 * mean] in pairs that sum to 2 * mean; mean exactly
};

const segmented_shape shapes[] = {{"avg32", 1000000, 32}, {"avg1000", 1000000, 1000}, {"100x1M", 100, 1000000}};

// Offsets of `segments` segments: random lengths when `random`, else rows of `mean`.
std::vector<int> segment_offsets(std::int64_t segments, std::int64_t mean, bool random, std::uint64_t seed) {
  std::vector<int> offsets(static_cast<std::size_t>(segments) + 1, 0);
  for (std::int64_t i = 0; i < segments; ++i) {
    std::int64_t length = mean;
    if (random && mean > 1) {
      const auto r = static_cast<std::int64_t>(upsweep::test::mix64(seed ^ static_cast<std::uint64_t>(i / 2)) %
                                               static_cast<std::uint64_t>(2 * mean + 1));
      length = i % 2 == 0 ? r : 2 * mean - r;
    }
    offsets[static_cast<std::size_t>(i) + 1] = offsets[static_cast<std::size_t>(i)] + static_cast<int>(length);
  }
  return offsets;
}

// Flags segments whose keys are out of order.
template <class Key>
__global__ void find_unsorted_segments(const Key* keys, const int* offsets, std::int64_t segments, int* bad) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s >= segments) return;
  for (int i = offsets[s] + 1; i < offsets[s + 1]; ++i)
    if (keys[i] < keys[i - 1]) atomicExch(bad, 1);
}

struct widen {
  template <class Key>
  __host__ __device__ unsigned long long operator()(Key k) const {
    return static_cast<unsigned long long>(k);
  }
};

template <class Key>
void check_segments_sorted(const Key* d_in, const Key* d_out, const int* d_offsets, std::int64_t segments,
                           std::int64_t n) {
  const cudaStream_t s = bench_context::get().stream;
  device_array<int> bad(1);
  BENCH_CUDA(cudaMemsetAsync(bad.ptr, 0, sizeof(int), s));
  find_unsorted_segments<<<static_cast<unsigned>((segments + 255) / 256), 256, 0, s>>>(d_out, d_offsets, segments,
                                                                                       bad.ptr);
  BENCH_CUDA(cudaGetLastError());
  int host_bad = 0;
  BENCH_CUDA(cudaMemcpyAsync(&host_bad, bad.ptr, sizeof(int), cudaMemcpyDeviceToHost, s));
  BENCH_CUDA(cudaStreamSynchronize(s));
  const auto sum_in = thrust::transform_reduce(thrust::cuda::par.on(s), d_in, d_in + n, widen{}, 0ull,
                                               thrust::plus<unsigned long long>{});
  const auto sum_out = thrust::transform_reduce(thrust::cuda::par.on(s), d_out, d_out + n, widen{}, 0ull,
                                                thrust::plus<unsigned long long>{});
  if (host_bad != 0 || sum_in != sum_out) throw std::runtime_error("wrong result: a segment is not sorted");
}

enum class rival { upsweep, cub_segmented_sort, cub_segmented_radix_sort };

// One row: keys (and values when Value is not void) sorted per segment by `who`. Rows of one
// width (`random` false) go through Upsweep's rows form, as a [rows, width] tensor would; CUB's
// sorts take the same offsets array either way.
template <class Key, class Value>
void segmented_row(benchmark::State& state, rival who, std::int64_t segments, std::int64_t mean, bool random) {
  constexpr bool pairs = !std::is_void_v<Value>;
  using value_t = std::conditional_t<pairs, Value, char>;
  const std::int64_t n = state.range(0);
  guarded(state, [&] {
    const double bytes = static_cast<double>(n) * (sizeof(Key) + (pairs ? sizeof(value_t) : 0));
    if (skip_unless_memory_fits(state, 4.2 * bytes)) return;
    const std::vector<int> host_offsets = segment_offsets(segments, mean, random, bench_context::get().seed);
    device_array<int> offsets(segments + 1);
    BENCH_CUDA(cudaMemcpy(offsets.ptr, host_offsets.data(), host_offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    device_array<Key> keys(n), keys_out(n);
    device_array<value_t> values(pairs ? n : 1), values_out(pairs ? n : 1);
    fill_input<Key>(keys.ptr, n, Key{0}, std::numeric_limits<Key>::max());
    if constexpr (pairs) fill_input<value_t>(values.ptr, n, value_t{0}, value_t{1000});
    const int* begins = offsets.ptr;
    const int* ends = offsets.ptr + 1;
    const auto call = [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) -> cudaError_t {
      const int ni = static_cast<int>(n), si = static_cast<int>(segments);
      if constexpr (pairs) {
        if (who == rival::upsweep && !random)
          return upsweep::sort_rows_pairs(temp, temp_bytes, keys.ptr, keys_out.ptr, values.ptr, values_out.ptr,
                                          segments, mean, upsweep::sort_order::ascending, s);
        if (who == rival::upsweep)
          return upsweep::segmented_sort_pairs(temp, temp_bytes, keys.ptr, keys_out.ptr, values.ptr, values_out.ptr, n,
                                               segments, begins, ends, 0, key_bits_v<Key>, s);
        if (who == rival::cub_segmented_sort)
          return cub::DeviceSegmentedSort::SortPairs(temp, temp_bytes, keys.ptr, keys_out.ptr, values.ptr,
                                                     values_out.ptr, n, segments, begins, ends, s);
        return cub::DeviceSegmentedRadixSort::SortPairs(temp, temp_bytes, keys.ptr, keys_out.ptr, values.ptr,
                                                        values_out.ptr, ni, si, begins, ends, 0,
                                                        static_cast<int>(sizeof(Key) * 8), s);
      } else {
        if (who == rival::upsweep && !random)
          return upsweep::sort_rows_keys(temp, temp_bytes, keys.ptr, keys_out.ptr, segments, mean,
                                         upsweep::sort_order::ascending, s);
        if (who == rival::upsweep)
          return upsweep::segmented_sort_keys(temp, temp_bytes, keys.ptr, keys_out.ptr, n, segments, begins, ends, 0,
                                              key_bits_v<Key>, s);
        if (who == rival::cub_segmented_sort)
          return cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, keys.ptr, keys_out.ptr, n, segments, begins, ends,
                                                    s);
        return cub::DeviceSegmentedRadixSort::SortKeys(temp, temp_bytes, keys.ptr, keys_out.ptr, ni, si, begins, ends,
                                                       0, static_cast<int>(sizeof(Key) * 8), s);
      }
    };
    time_with_temp_storage(state, n, 2.0 * bytes, call);
    check_segments_sorted(keys.ptr, keys_out.ptr, offsets.ptr, segments, n);
  });
}

template <class Key, class Value>
void register_segmented_rows(const std::string& kind, const std::string& type) {
  const std::pair<rival, const char*> rivals[] = {{rival::upsweep, "upsweep"},
                                                  {rival::cub_segmented_sort, "cub_segmented_sort"},
                                                  {rival::cub_segmented_radix_sort, "cub_segmented_radix_sort"}};
  for (const segmented_shape& shape : shapes)
    for (const auto& [who, impl] : rivals) {
      const std::int64_t segments = shape.segments, mean = shape.mean;
      add_row(
          "segsort/" + kind + "_" + shape.name + "/" + impl, {segments * mean}, 0.1,
          [who = who, segments, mean](benchmark::State& state) {
            segmented_row<Key, Value>(state, who, segments, mean, true);
          },
          type);
    }
}

// Rows of i32 keys with int64 values (torch.sort writes int64 indices beside the keys).
void register_row_sorts() {
  const std::pair<std::int64_t, std::int64_t> row_shapes[] = {{1 << 20, 32}, {1000, 1000}};
  const std::pair<rival, const char*> rivals[] = {{rival::upsweep, "upsweep"},
                                                  {rival::cub_segmented_sort, "cub_segmented_sort"},
                                                  {rival::cub_segmented_radix_sort, "cub_segmented_radix_sort"}};
  for (const auto& [rows, width] : row_shapes)
    for (const auto& [who, impl] : rivals) {
      const std::string name = "segsort/rows_i32_" + std::to_string(rows) + "x" + std::to_string(width) + "/" + impl;
      add_row(
          name, {rows * width}, 0.1,
          [who = who, rows = rows, width = width](benchmark::State& state) {
            segmented_row<std::int32_t, std::int64_t>(state, who, rows, width, false);
          },
          "i32");
    }
}

const bool registered = register_later([] {
  register_segmented_rows<std::uint32_t, void>("keys_u32", "u32");
  register_segmented_rows<std::uint32_t, std::uint32_t>("pairs_u32", "u32");
  register_row_sorts();
});

}  // namespace
}  // namespace upsweep::bench
