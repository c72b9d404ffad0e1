// Host dispatch of the counting sort (counting_sort_kernels.cuh): which sorts take it, its
// temporary storage, and the launches. No allocation, no synchronisation: whether the zeros need
// ranking is decided on the device.
#pragma once

#include <upsweep/sort/detail/counting_sort_expand.cuh>
#include <upsweep/sort/detail/counting_sort_kernels.cuh>
#include <upsweep/sort/detail/radix_key_codec.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// Keys alone, plain keys of one or two bytes (no decomposer), over every bit.
template <class Key, class Value, class Codec>
inline constexpr bool counting_sort_type_v =
    !has_values_v<Value> && sizeof(Key) <= 2 && cuda::std::is_same_v<Codec, radix_key_codec<Key>>;

// From these sizes the counting sort is faster than the radix passes (A/B in one run, H200,
// 2026-11-29, uniform random bits, ms): u8 2^18 0.0165 against 0.0151, 2^19 0.0164 against
// 0.0175; u16 2^20 0.040 against 0.035, 2^21 0.042 against 0.051; f16 2^21 0.060 against 0.055
// (both zeros occur, so they are ranked), 2^22 0.062 against 0.090 (with a histogram row for every
// 2^17 keys then; every 2^16 now, not measured again). Below them the fixed costs (a memset, five
// launches, the rows of 65536 counts) outweigh the passes saved.
template <class Key>
inline constexpr long long counting_sort_min_items =
    sizeof(Key) == 1 ? (1ll << 19) : counting_sort_traits<Key>::has_two_zeros ? (1ll << 22) : (1ll << 21);

template <class Key, class Value, class Codec>
constexpr bool takes_counting_sort(std::int64_t num_items, int begin_bit, int end_bit) {
  if constexpr (!counting_sort_type_v<Key, Value, Codec>) {
    return false;
  } else {
    return begin_bit == 0 && end_bit == radix_traits<Key>::key_bits && num_items >= counting_sort_min_items<Key>;
  }
}

inline constexpr int counting_histogram_threads = 1024;
// 8-bit keys: blocks an SM (their counters take 32 KB), each reading at least 2^16 keys, and
// fewer than 2^31, so that a warp's 32-bit counters cannot overflow.
inline constexpr int counting_histogram_blocks_per_sm_8bit = 2;
inline constexpr long long counting_keys_per_block_8bit = 1ll << 16;
inline constexpr long long counting_keys_per_block_limit_8bit = 1ll << 31;
// 16-bit keys: one block an SM (128 KB of counters), and at most one for every 2^16 keys: each
// block's row of 65536 counts costs about what 2^16 keys cost to read and count twice over.
inline constexpr long long counting_keys_per_row = 1ll << 16;
inline constexpr long long counting_max_rows = 256;
// 16-bit keys are read in chunks of at least 2^16 keys, at most this many (the zeros kernel's
// grid, a block a chunk).
inline constexpr int counting_max_chunks = 1024;
inline constexpr long long counting_keys_per_chunk = 1ll << 16;
inline constexpr int counting_zeros_copy_grid = 264;

// Rows of 65536 counts the histogram may store: a function of num_items alone, so that the size
// query needs no device.
template <class Key>
constexpr long long counting_rows(long long num_items) {
  if (sizeof(Key) == 1) return 0;
  const long long rows = ceil_div(num_items, counting_keys_per_row);
  return rows < 1 ? 1 : rows > counting_max_rows ? counting_max_rows : rows;
}

// How the histogram reads: its chunks, and its grid.
struct counting_layout {
  counting_chunks chunks;
  int histogram_blocks;
};

template <class Key>
counting_layout make_counting_layout(const Key* d_keys, long long num_items, int sms) {
  constexpr int per_vector = counting_sort_traits<Key>::keys_per_vector;
  long long blocks = 0, wanted_chunks = 0;
  if constexpr (sizeof(Key) == 1) {
    blocks = ceil_div(num_items, counting_keys_per_block_8bit);
    if (blocks > static_cast<long long>(sms) * counting_histogram_blocks_per_sm_8bit)
      blocks = static_cast<long long>(sms) * counting_histogram_blocks_per_sm_8bit;
    if (blocks < ceil_div(num_items, counting_keys_per_block_limit_8bit))
      blocks = ceil_div(num_items, counting_keys_per_block_limit_8bit);
    wanted_chunks = blocks;
  } else {
    blocks = counting_rows<Key>(num_items) < sms ? counting_rows<Key>(num_items) : sms;
    wanted_chunks = ceil_div(num_items, counting_keys_per_chunk);
    if (wanted_chunks > counting_max_chunks) wanted_chunks = counting_max_chunks;
    if (wanted_chunks < blocks) wanted_chunks = blocks;
  }
  counting_chunks chunks{};
  chunks.num_items = num_items;
  const auto misalignment = static_cast<long long>(reinterpret_cast<std::uintptr_t>(d_keys) % 16);
  chunks.head = misalignment == 0 ? 0 : (16 - misalignment) / static_cast<long long>(sizeof(Key));
  if (chunks.head > num_items) chunks.head = num_items;
  const long long body = num_items - chunks.head > 0 ? num_items - chunks.head : 1;
  chunks.chunk_items = ceil_div<long long>(ceil_div<long long>(body, wanted_chunks), per_vector) * per_vector;
  chunks.count = static_cast<int>(ceil_div<long long>(body, chunks.chunk_items));
  return {chunks, static_cast<int>(blocks)};
}

// The temporaries: the control block and the chunks' zero counts (cleared by one memset), the
// histogram's rows, and for floats sorted in place, scratch for the zero bin.
template <class Key>
struct counting_sort_temporaries {
  void* allocations[4] = {};
  std::size_t sizes[4] = {};
  counting_sort_temporaries(std::int64_t num_items, bool with_scratch) {
    constexpr bool zeros = counting_sort_traits<Key>::has_two_zeros;
    sizes[0] = sizeof(counting_sort_control<Key>);
    sizes[1] = zeros ? counting_max_chunks * sizeof(unsigned long long) : 0;
    sizes[2] = static_cast<std::size_t>(counting_rows<Key>(num_items)) * counting_sort_traits<Key>::bins * sizeof(unsigned);
    sizes[3] = zeros && with_scratch ? static_cast<std::size_t>(num_items) * sizeof(Key) : 0;
  }
  counting_sort_control<Key>* control() const { return static_cast<counting_sort_control<Key>*>(allocations[0]); }
  unsigned long long* chunk_zeros() const { return static_cast<unsigned long long*>(allocations[1]); }
  unsigned* rows() const { return static_cast<unsigned*>(allocations[2]); }
  Key* scratch() const { return static_cast<Key*>(allocations[3]); }
  std::size_t cleared_bytes() const {
    return sizes[1] == 0 ? sizes[0]
                         : static_cast<std::size_t>(static_cast<char*>(allocations[1]) -
                                                    static_cast<char*>(allocations[0])) + sizes[1];
  }
};

// Histogram, offsets, expand, and for floats the zero bin: ranked after the expand
// straight into the output, or in place (d_in == d_out) ranked into scratch first and copied
// after the expand.
template <bool Descending, class Key>
cudaError_t launch_counting_sort(const Key* d_in, Key* d_out, Key* d_scratch, const counting_sort_temporaries<Key>& temp,
                                 std::int64_t num_items, cudaStream_t stream) {
  int device = 0, sms = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));
  const counting_layout layout = make_counting_layout(d_in, num_items, sms);
  const counting_chunks& chunks = layout.chunks;
  counting_sort_control<Key>* d_control = temp.control();
  const auto* d_const_control = static_cast<const counting_sort_control<Key>*>(d_control);
  unsigned long long* d_chunk_zeros = temp.chunk_zeros();

  UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_control, 0, temp.cleared_bytes(), stream));
  UPSWEEP_CUDA_RETURN(launch_chained_shared(counting_histogram_kernel<Key, Descending>, layout.histogram_blocks,
                                            counting_histogram_threads,
                                            counting_histogram_shared_bytes<Key>(counting_histogram_threads), stream,
                                            d_in, chunks, d_control, temp.rows(), d_chunk_zeros));
  UPSWEEP_CUDA_RETURN(launch_chained(counting_offsets_kernel<Key>, counting_sort_traits<Key>::groups,
                                     counting_sort_traits<Key>::group_bins, stream, d_control,
                                     static_cast<const unsigned*>(temp.rows()),
                                     sizeof(Key) == 1 ? 0 : layout.histogram_blocks));
  UPSWEEP_CUDA_RETURN(launch_chained(counting_scan_kernel<Key>, 1, counting_scan_threads, stream, d_control,
                                     d_chunk_zeros, chunks.count, static_cast<long long>(num_items)));
  const auto rank_zeros = [&](Key* d_zeros_out) {
    return launch_chained(counting_zeros_kernel<Key, Descending>, chunks.count, counting_zeros_threads, stream, d_in,
                          d_zeros_out, chunks, d_const_control, static_cast<const unsigned long long*>(d_chunk_zeros));
  };
  const bool in_place = d_in == d_out;
  if constexpr (counting_sort_traits<Key>::has_two_zeros) {
    if (in_place) UPSWEEP_CUDA_RETURN(rank_zeros(d_scratch));
  }
  const long long tiles = ceil_div<long long>(num_items, counting_expand_tile_items<Key>);
  UPSWEEP_CUDA_RETURN(launch_chained(counting_expand_kernel<Key, Descending>,
                                     static_cast<unsigned>(tiles < INT_MAX ? tiles : INT_MAX), counting_expand_threads,
                                     stream, d_out, d_const_control, static_cast<long long>(num_items)));
  if constexpr (counting_sort_traits<Key>::has_two_zeros) {
    if (!in_place) return rank_zeros(d_out);
    return launch_chained(counting_zeros_copy_kernel<Key, Descending>, counting_zeros_copy_grid,
                          counting_zeros_copy_threads, stream, static_cast<const Key*>(d_scratch), d_out,
                          d_const_control);
  }
  return cudaSuccess;
}

// Bytes of temporary storage the counting sort needs (pure arithmetic).
template <class Key>
std::size_t counting_sort_storage_bytes(std::int64_t num_items, bool with_scratch) {
  counting_sort_temporaries<Key> temp(num_items, with_scratch);
  std::size_t bytes = 0;
  static_cast<void>(alias_temporaries(nullptr, bytes, temp.allocations, temp.sizes));  // a query cannot fail
  return bytes;
}

// The counting sort from d_in to d_out (equal for in place) in d_temp_storage, at least
// counting_sort_storage_bytes(num_items, d_other == nullptr). d_other: a double buffer's other
// buffer, which then serves as scratch.
template <bool Descending, class Key>
cudaError_t dispatch_counting_sort(void* d_temp_storage, std::size_t temp_storage_bytes, const Key* d_in, Key* d_out,
                                   Key* d_other, std::int64_t num_items, cudaStream_t stream) {
  counting_sort_temporaries<Key> temp(num_items, d_other == nullptr);
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, temp.allocations, temp.sizes));
  return launch_counting_sort<Descending>(d_in, d_out, d_other != nullptr ? d_other : temp.scratch(), temp, num_items,
                                          stream);
}

}  // namespace upsweep::detail
