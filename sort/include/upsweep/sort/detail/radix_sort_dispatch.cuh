// Host dispatch of radix sort: temporary storage sizing, argument checks, and the launches
// (histogram, scan and plan, one kernel per digit pass, the final copy), for a sort from in to
// out, between the two buffers of a double buffer, and for argsort. No allocation, no
// synchronisation: which passes are skipped is decided on the device, so the host launches all.
#pragma once

#include <upsweep/sort/detail/counting_sort_dispatch.cuh>
#include <upsweep/sort/detail/radix_sort_kernels.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
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
// shared counters below 2^32 (a block sees at most num_items / grid + one tile of keys).
inline constexpr long long histogram_keys_per_block_limit = 1ll << 31;
inline constexpr long long histogram_target_grid = 2048;
inline constexpr int copy_block_threads = 256;
inline constexpr long long copy_target_grid = 4096;

template <class Policy>
unsigned radix_histogram_grid(long long num_items) {
  const long long wanted =
      ceil_div<long long>(num_items, static_cast<long long>(Policy::histogram_block_threads) * histogram_items_per_thread);
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

// The temporaries of one sort: the alternate buffers (none for a double buffer), the control
// block and the look-back words, side by side so that one memset clears both.
template <class Policy, class Key, class Value>
struct radix_sort_temporaries {
  void* allocations[4] = {};
  std::size_t sizes[4] = {};
  radix_sort_temporaries(std::int64_t num_items, bool with_alternates) {
    const long long num_tiles = ceil_div<long long>(num_items, Policy::tile_items);
    const auto n = static_cast<std::size_t>(num_items);
    sizes[0] = with_alternates ? n * sizeof(Key) : 0;
    sizes[1] = with_alternates && has_values_v<Value> ? n * sizeof(Value) : 0;
    sizes[2] = sizeof(radix_sort_control);
    sizes[3] = static_cast<std::size_t>(num_tiles) * radix_digits * sizeof(unsigned long long);
  }
  radix_sort_control* control() const { return static_cast<radix_sort_control*>(allocations[2]); }
  unsigned long long* look_back() const { return static_cast<unsigned long long*>(allocations[3]); }
  // From the control block to the end of the look-back words (alias_temporaries lays them out in order).
  std::size_t cleared_bytes() const {
    return static_cast<std::size_t>(static_cast<char*>(allocations[3]) - static_cast<char*>(allocations[2])) + sizes[3];
  }
};

// One sort over [begin_bit, end_bit), at most max_radix_window_bits wide: histogram, scan and
// plan, one kernel per digit pass, the copy of the result into keys.out when the plan left it
// elsewhere.
template <class Policy, bool Descending, class Key, class Value, class Codec>
cudaError_t launch_radix_sort_window(const sort_buffers<Key>& keys, const sort_buffers<Value>& values,
                                     const radix_sort_temporaries<Policy, Key, Value>& temp, std::int64_t num_items,
                                     int begin_bit, int end_bit, radix_plan_kind plan_kind, const Codec& codec,
                                     cudaStream_t stream) {
  const long long num_tiles = ceil_div<long long>(num_items, Policy::tile_items);
  const int num_passes = ceil_div(end_bit - begin_bit, radix_bits);
  radix_sort_control* d_control = temp.control();
  unsigned long long* d_look_back = temp.look_back();

  // One memset, then every kernel launches chained: each is scheduled while the one before it
  // finishes. The passes share the look-back words, told apart by their pass stamp.
  UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_control, 0, temp.cleared_bytes(), stream));
  UPSWEEP_CUDA_RETURN(launch_chained(radix_histogram_kernel<Policy, Descending, Key, Codec>,
                                     radix_histogram_grid<Policy>(num_items), Policy::histogram_block_threads, stream,
                                     keys.in, static_cast<long long>(num_items), begin_bit, end_bit, num_passes,
                                     d_control, codec));
  UPSWEEP_CUDA_RETURN(launch_chained(radix_scan_kernel<>, 1, radix_digits, stream, d_control,
                                     static_cast<long long>(num_items), num_passes, static_cast<int>(plan_kind)));

  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned pass_grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  for (int pass = 0; pass < num_passes; ++pass) {
    const int bit = begin_bit + pass * radix_bits;
    const radix_pass_args<Key, Value, Codec> args{keys,      values, d_control, d_look_back, num_items, num_tiles,
                                                  pass,      bit,    pass_digit_bits(bit, end_bit), codec};
    UPSWEEP_CUDA_RETURN(launch_chained_shared(radix_pass_kernel<Policy, Descending, Key, Value, Codec>, pass_grid,
                                              Policy::block_threads, radix_shared_bytes<Policy, Key, Value>, stream,
                                              args));
  }

  const long long copy_blocks = ceil_div<long long>(num_items, copy_block_threads * 8ll);
  const unsigned copy_grid = static_cast<unsigned>(copy_blocks < copy_target_grid ? copy_blocks : copy_target_grid);
  return launch_chained(radix_copy_result_kernel<Key, Value>, copy_grid, copy_block_threads, stream, keys, values,
                        static_cast<long long>(num_items), static_cast<const radix_sort_control*>(d_control));
}

// The end of the window that starts at `low`: at most max_radix_window_bits, never past end_bit.
constexpr int radix_window_end(int low, int end_bit) {
  return end_bit - low > max_radix_window_bits ? low + max_radix_window_bits : end_bit;
}

// A window of an odd number of digit passes leaves a double buffer's result in the other buffer.
constexpr bool radix_window_flips(int low, int high) { return ceil_div(high - low, radix_bits) % 2 == 1; }

// One block, one launch, when the policy asks and the input fits one tile; false otherwise.
template <class Policy>
constexpr bool sorts_in_one_tile(std::int64_t num_items) {
  return Policy::single_tile_sort && num_items > 0 && num_items <= Policy::tile_items;
}

// Whether a policy leaves the inputs that one tile of its large-input policy holds to that
// policy's one-launch path (the small-input shape does: a few thousand keys sort faster in one
// launch of a larger tile than in passes over its small ones).
template <class Policy, class = void>
struct defers_one_tile : cuda::std::false_type {};
template <class Policy>
struct defers_one_tile<Policy, cuda::std::void_t<decltype(Policy::one_tile_by_large_input_policy)>>
    : cuda::std::bool_constant<Policy::one_tile_by_large_input_policy> {};

// Whether num_items go to Policy's large-input policy (which must not be void).
template <class Policy>
constexpr bool takes_large_input_policy(std::int64_t num_items) {
  return num_items >= Policy::large_input_items ||
         (defers_one_tile<Policy>::value && sorts_in_one_tile<typename Policy::large_input_policy>(num_items));
}

template <class Policy, bool Descending, class Key, class Value, class Codec>
cudaError_t launch_single_tile_sort(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                    Value* d_values_out, std::int64_t num_items, int begin_bit, int end_bit,
                                    const Codec& codec, cudaStream_t stream) {
  return launch_chained_shared(radix_sort_single_tile_kernel<Policy, Descending, Key, Value, Codec>, 1,
                               Policy::block_threads, radix_shared_bytes<Policy, Key, Value>, stream, d_keys_in,
                               d_keys_out, d_values_in, d_values_out, static_cast<int>(num_items), begin_bit, end_bit,
                               codec);
}

template <class Value>
void check_value_type() {
  static_assert(cuda::std::is_trivially_copyable_v<Value>, "values must be trivially copyable");
  static_assert(sizeof(Value) <= 16, "values of 1 to 16 bytes");
}

template <class Key, class Codec>
bool valid_sort_arguments(std::int64_t num_items, int begin_bit, int end_bit) {
  static_assert(cuda::std::is_trivially_copyable_v<Key>, "keys must be trivially copyable");
  return num_items >= 0 && num_items <= max_radix_sort_items && begin_bit >= 0 && begin_bit <= end_bit &&
         end_bit <= Codec::key_bits;
}

// Reserves the temporaries of `temp` (the radix sort's) in the blob, or only sizes it; when the
// counting sort takes these arguments, the size covers its storage too (with scratch for floats
// unless a double buffer's other buffer serves), so that a size asked for n items serves every
// smaller n, whichever sort that takes.
template <class Key, class Value, class Codec, class Temporaries>
cudaError_t reserve_sort_storage(void* d_temp_storage, std::size_t& temp_storage_bytes, Temporaries& temp,
                                 std::int64_t num_items, int begin_bit, int end_bit, bool counting_scratch) {
  if (d_temp_storage == nullptr) {
    UPSWEEP_CUDA_RETURN(alias_temporaries(nullptr, temp_storage_bytes, temp.allocations, temp.sizes));
    if constexpr (counting_sort_type_v<Key, Value, Codec>) {
      if (takes_counting_sort<Key, Value, Codec>(num_items, begin_bit, end_bit)) {
        const std::size_t counting = counting_sort_storage_bytes<Key>(num_items, counting_scratch);
        if (temp_storage_bytes < counting) temp_storage_bytes = counting;
      }
    }
    return cudaSuccess;
  }
  return alias_temporaries(d_temp_storage, temp_storage_bytes, temp.allocations, temp.sizes);
}

// The sort from in to out (in == out allowed). A window wider than max_radix_window_bits (struct
// keys only) is sorted window by window from the least significant one, out sorting in place after
// the first: LSD radix sort composes, each window's sort being stable.
template <class Policy, bool Descending, class Key, class Value, class Codec = radix_key_codec<Key>>
cudaError_t dispatch_radix_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream,
                                const Codec& codec = {}) {
  if constexpr (!cuda::std::is_void_v<typename Policy::large_input_policy>) {
    if (takes_large_input_policy<Policy>(num_items))
      return dispatch_radix_sort<typename Policy::large_input_policy, Descending>(
          d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
          end_bit, stream, codec);
  }
  check_value_type<Value>();
  constexpr bool has_values = has_values_v<Value>;
  if (!valid_sort_arguments<Key, Codec>(num_items, begin_bit, end_bit)) return cudaErrorInvalidValue;

  radix_sort_temporaries<Policy, Key, Value> temp(num_items, true);
  UPSWEEP_CUDA_RETURN((reserve_sort_storage<Key, Value, Codec>(d_temp_storage, temp_storage_bytes, temp, num_items,
                                                               begin_bit, end_bit, true)));
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

  if constexpr (counting_sort_type_v<Key, Value, Codec>) {
    if (takes_counting_sort<Key, Value, Codec>(num_items, begin_bit, end_bit))
      return dispatch_counting_sort<Descending, Key>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr,
                                                num_items, stream);
  }
  if (sorts_in_one_tile<Policy>(num_items))
    return launch_single_tile_sort<Policy, Descending>(d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                                       begin_bit, end_bit, codec, stream);

  const bool in_place = static_cast<const void*>(d_keys_in) == static_cast<const void*>(d_keys_out) ||
                        (has_values && static_cast<const void*>(d_values_in) == static_cast<const void*>(d_values_out));
  sort_buffers<Key> keys{d_keys_in, d_keys_out, static_cast<Key*>(temp.allocations[0])};
  sort_buffers<Value> values{d_values_in, d_values_out, static_cast<Value*>(temp.allocations[1])};
  radix_plan_kind plan_kind = in_place ? plan_first_to_alt : plan_out_last;
  for (int low = begin_bit; low < end_bit; low += max_radix_window_bits) {
    const int high = radix_window_end(low, end_bit);
    const cudaError_t status = launch_radix_sort_window<Policy, Descending>(keys, values, temp, num_items, low, high,
                                                                            plan_kind, codec, stream);
    if (status != cudaSuccess) return status;
    keys.in = keys.out;  // the next window sorts the result in place
    values.in = values.out;
    plan_kind = plan_first_to_alt;
  }
  return cudaSuccess;
}

// The sort between two caller buffers, d_keys[selector] holding the input: no n-sized temporary.
// Each window of p digit passes leaves its result in buffer selector ^ (p & 1), so the host knows
// it without waiting; the device skips trivial passes and, when that leaves the result in the
// other buffer, copies it once.
template <class Policy, bool Descending, class Key, class Value, class Codec = radix_key_codec<Key>>
cudaError_t dispatch_radix_sort_double_buffer(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                              Key* const (&d_keys)[2], int& key_selector, Value* const (&d_values)[2],
                                              int& value_selector, std::int64_t num_items, int begin_bit, int end_bit,
                                              cudaStream_t stream, const Codec& codec = {}) {
  if constexpr (!cuda::std::is_void_v<typename Policy::large_input_policy>) {
    if (takes_large_input_policy<Policy>(num_items))
      return dispatch_radix_sort_double_buffer<typename Policy::large_input_policy, Descending>(
          d_temp_storage, temp_storage_bytes, d_keys, key_selector, d_values, value_selector, num_items, begin_bit,
          end_bit, stream, codec);
  }
  check_value_type<Value>();
  constexpr bool has_values = has_values_v<Value>;
  if (!valid_sort_arguments<Key, Codec>(num_items, begin_bit, end_bit)) return cudaErrorInvalidValue;
  if ((key_selector & ~1) != 0 || (has_values && (value_selector & ~1) != 0)) return cudaErrorInvalidValue;

  radix_sort_temporaries<Policy, Key, Value> temp(num_items, false);
  UPSWEEP_CUDA_RETURN((reserve_sort_storage<Key, Value, Codec>(d_temp_storage, temp_storage_bytes, temp, num_items,
                                                               begin_bit, end_bit, false)));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (num_items > 0) {
    if (d_keys[0] == nullptr || d_keys[1] == nullptr || ranges_overlap(d_keys[0], d_keys[1], num_items))
      return cudaErrorInvalidValue;
    if constexpr (has_values) {
      if (d_values[0] == nullptr || d_values[1] == nullptr || ranges_overlap(d_values[0], d_values[1], num_items))
        return cudaErrorInvalidValue;
    }
  }

  if constexpr (counting_sort_type_v<Key, Value, Codec>) {
    if (takes_counting_sort<Key, Value, Codec>(num_items, begin_bit, end_bit)) {
      // The result goes where the window rule names: the other buffer for 8-bit keys (one pass),
      // in place for 16-bit keys (two), the other buffer then serving as scratch.
      const int result = key_selector ^ (radix_window_flips(begin_bit, end_bit) ? 1 : 0);
      UPSWEEP_CUDA_RETURN(dispatch_counting_sort<Descending>(d_temp_storage, temp_storage_bytes, d_keys[key_selector],
                                                             d_keys[result], d_keys[key_selector ^ 1], num_items,
                                                             stream));
      key_selector = result;
      return cudaSuccess;
    }
  }
  if (sorts_in_one_tile<Policy>(num_items)) {  // one launch into the buffer the window rule names
    int key_result = key_selector, value_result = value_selector;
    for (int low = begin_bit; low < end_bit; low += max_radix_window_bits) {
      const int flip = radix_window_flips(low, radix_window_end(low, end_bit)) ? 1 : 0;
      key_result ^= flip;
      value_result ^= flip;
    }
    Value* values_out = nullptr;
    const Value* values_in = nullptr;
    if constexpr (has_values) {
      values_in = d_values[value_selector];
      values_out = d_values[value_result];
    }
    UPSWEEP_CUDA_RETURN((launch_single_tile_sort<Policy, Descending>(
        d_keys[key_selector], d_keys[key_result], values_in, values_out, num_items, begin_bit, end_bit, codec, stream)));
    key_selector = key_result;
    if constexpr (has_values) value_selector = value_result;
    return cudaSuccess;
  }

  for (int low = begin_bit; low < end_bit; low += max_radix_window_bits) {
    const int high = radix_window_end(low, end_bit);
    const bool flips = radix_window_flips(low, high);
    const int key_result = key_selector ^ (flips ? 1 : 0);
    const int value_result = value_selector ^ (flips ? 1 : 0);
    if (num_items > 0) {
      // Flipping: in and alt are both the input buffer (plan_first_to_out consumes it in pass 0).
      const sort_buffers<Key> keys{d_keys[key_selector], d_keys[key_result], d_keys[key_selector ^ (flips ? 0 : 1)]};
      sort_buffers<Value> values{};
      if constexpr (has_values)
        values = {d_values[value_selector], d_values[value_result], d_values[value_selector ^ (flips ? 0 : 1)]};
      const cudaError_t status = launch_radix_sort_window<Policy, Descending>(
          keys, values, temp, num_items, low, high, flips ? plan_first_to_out : plan_first_to_alt, codec, stream);
      if (status != cudaSuccess) return status;
    }
    key_selector = key_result;
    if constexpr (has_values) value_selector = value_result;
  }
  return cudaSuccess;
}

// The stable sorting permutation: (key, index) pairs whose indices start as 0, 1, 2, ... are
// sorted, the sorted keys going to scratch. Temporary storage: the pair sort's, then n keys and n
// indices.
template <class Index>
__global__ void fill_indices_kernel(Index* d_indices, long long num_items) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < num_items; i += stride)
    d_indices[i] = static_cast<Index>(i);
}

inline constexpr int fill_block_threads = 256;
inline constexpr long long fill_max_blocks = 4096;

template <class Policy, bool Descending, class Key, class Index, class Codec = radix_key_codec<Key>>
cudaError_t dispatch_argsort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                             Index* d_indices_out, std::int64_t num_items, int begin_bit, int end_bit,
                             cudaStream_t stream, const Codec& codec = {}) {
  static_assert(cuda::std::is_integral_v<Index> && cuda::std::is_unsigned_v<Index> && sizeof(Index) >= 4,
                "argsort indices: 32- or 64-bit unsigned integers");
  if (num_items < 0) return cudaErrorInvalidValue;
  if (sizeof(Index) < 8 && static_cast<std::uint64_t>(num_items) > (std::uint64_t{1} << 32))
    return cudaErrorInvalidValue;  // index num_items - 1 must fit
  std::size_t sort_bytes = 0;
  const auto sort = [&](void* d_temp, const Index* d_iota, Key* d_keys_scratch) {
    return dispatch_radix_sort<Policy, Descending>(d_temp, sort_bytes, d_keys_in, d_keys_scratch, d_iota,
                                                   d_indices_out, num_items, begin_bit, end_bit, stream, codec);
  };
  UPSWEEP_CUDA_RETURN(sort(nullptr, nullptr, nullptr));  // size query: also checks the arguments
  void* allocations[3] = {};
  const std::size_t sizes[3] = {sort_bytes, static_cast<std::size_t>(num_items) * sizeof(Key),
                                static_cast<std::size_t>(num_items) * sizeof(Index)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  if (d_keys_in == nullptr || d_indices_out == nullptr) return cudaErrorInvalidValue;  // before the first launch
  auto* d_iota = static_cast<Index*>(allocations[2]);
  const long long wanted = ceil_div<long long>(num_items, fill_block_threads);
  const unsigned grid = static_cast<unsigned>(wanted < fill_max_blocks ? wanted : fill_max_blocks);
  fill_indices_kernel<<<grid, fill_block_threads, 0, stream>>>(d_iota, num_items);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  return sort(allocations[0], d_iota, static_cast<Key*>(allocations[1]));
}

}  // namespace upsweep::detail
