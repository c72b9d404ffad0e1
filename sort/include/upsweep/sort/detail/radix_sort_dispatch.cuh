// Host dispatch of radix sort: temporary storage sizing, argument checks, and the launches
// (histogram, scan and plan, one kernel per digit pass, the final copy). No allocation, no
// synchronisation: which passes are skipped is decided on the device, so the host launches all.
#pragma once

#include <upsweep/sort/detail/radix_sort_kernels.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class Key, class Value>
using radix_sort_policy_t =
    cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_radix_sort_policy<Key, Value>, Policy>;

// Histogram blocks stride over the keys; at least this many blocks keep every block's 32-bit
// shared counters below 2^32 (a block sees at most num_items / grid + its thread count keys).
inline constexpr long long histogram_keys_per_block_limit = 1ll << 31;
inline constexpr long long histogram_target_grid = 2048;
inline constexpr int copy_block_threads = 256;
inline constexpr long long copy_target_grid = 4096;

template <class Policy>
unsigned radix_histogram_grid(long long num_items) {
  const long long wanted = ceil_div<long long>(num_items, Policy::histogram_block_threads * 16ll);
  long long grid = wanted < histogram_target_grid ? wanted : histogram_target_grid;
  const long long needed = ceil_div<long long>(num_items, histogram_keys_per_block_limit);
  if (grid < needed) grid = needed;
  return static_cast<unsigned>(grid);
}

template <class T>
cudaError_t copy_if_distinct(T* d_to, const T* d_from, long long num_items, cudaStream_t stream) {
  if (d_to == d_from) return cudaSuccess;
  return cudaMemcpyAsync(d_to, d_from, static_cast<std::size_t>(num_items) * sizeof(T), cudaMemcpyDeviceToDevice,
                         stream);
}

template <class Policy, bool Descending, class Key, class Value>
cudaError_t dispatch_radix_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  static_assert(is_radix_key_v<Key>, "radix sort keys: 8- to 64-bit integers, float, double, __half, bf16");
  static_assert(cuda::std::is_trivially_copyable_v<Value>, "values must be trivially copyable");
  static_assert(sizeof(Value) <= 16, "values of 1 to 16 bytes");
  constexpr bool has_values = has_values_v<Value>;
  constexpr int key_bits = radix_traits<Key>::key_bits;
  if (num_items < 0 || num_items > max_radix_sort_items) return cudaErrorInvalidValue;
  if (begin_bit < 0 || end_bit > key_bits || begin_bit > end_bit) return cudaErrorInvalidValue;

  const long long num_tiles = ceil_div<long long>(num_items, Policy::tile_items);
  void* allocations[4] = {};
  const std::size_t sizes[4] = {
      static_cast<std::size_t>(num_items) * sizeof(Key),                      // alternate keys
      has_values ? static_cast<std::size_t>(num_items) * sizeof(Value) : 0,  // alternate values
      sizeof(radix_sort_control),
      static_cast<std::size_t>(num_tiles) * radix_digits * sizeof(unsigned long long),  // look-back words
  };
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  if (d_keys_in == nullptr || d_keys_out == nullptr || ranges_overlap_partly(d_keys_in, d_keys_out, num_items))
    return cudaErrorInvalidValue;
  if constexpr (has_values) {
    if (d_values_in == nullptr || d_values_out == nullptr || ranges_overlap_partly(d_values_in, d_values_out, num_items))
      return cudaErrorInvalidValue;
  }

  if (begin_bit == end_bit) {  // no bit to sort by: every key is equal, stability keeps the input
    UPSWEEP_CUDA_RETURN(copy_if_distinct(d_keys_out, d_keys_in, num_items, stream));
    if constexpr (has_values) UPSWEEP_CUDA_RETURN(copy_if_distinct(d_values_out, d_values_in, num_items, stream));
    return cudaSuccess;
  }

  const int num_passes = ceil_div(end_bit - begin_bit, radix_bits);
  auto* d_control = static_cast<radix_sort_control*>(allocations[2]);
  auto* d_look_back = static_cast<unsigned long long*>(allocations[3]);
  const sort_buffers<Key> keys{d_keys_in, d_keys_out, static_cast<Key*>(allocations[0])};
  const sort_buffers<Value> values{d_values_in, d_values_out, static_cast<Value*>(allocations[1])};
  const bool in_place = static_cast<const void*>(d_keys_in) == static_cast<const void*>(d_keys_out) ||
                        (has_values && static_cast<const void*>(d_values_in) == static_cast<const void*>(d_values_out));

  UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_control, 0, sizeof(radix_sort_control), stream));
  radix_histogram_kernel<Policy, Descending>
      <<<radix_histogram_grid<Policy>(num_items), Policy::histogram_block_threads, 0, stream>>>(
          d_keys_in, num_items, begin_bit, end_bit, num_passes, d_control);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  radix_scan_kernel<<<1, radix_digits, 0, stream>>>(d_control, num_items, num_passes, in_place);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());

  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned pass_grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  const std::size_t look_back_bytes = sizes[3];
  for (int pass = 0; pass < num_passes; ++pass) {
    const int bit = begin_bit + pass * radix_bits;
    UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_look_back, 0, look_back_bytes, stream));
    const radix_pass_args<Key, Value> args{keys,      values, d_control, d_look_back, num_items,
                                           num_tiles, pass,   bit,       pass_digit_bits(bit, end_bit)};
    radix_pass_kernel<Policy, Descending><<<pass_grid, Policy::block_threads, 0, stream>>>(args);
    UPSWEEP_CUDA_RETURN(cudaGetLastError());
  }

  const long long copy_blocks = ceil_div<long long>(num_items, copy_block_threads * 8ll);
  const unsigned copy_grid = static_cast<unsigned>(copy_blocks < copy_target_grid ? copy_blocks : copy_target_grid);
  radix_copy_result_kernel<<<copy_grid, copy_block_threads, 0, stream>>>(keys, values, num_items, d_control);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
