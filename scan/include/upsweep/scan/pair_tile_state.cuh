// Tile layer: a tile state for 16-byte values that lead with a count, such as the by-key scans'
// (run heads, value) pairs and the three-way partition's two counts. The count's top two bits hold
// the status, and one relaxed 128-bit store publishes status and value together; a poll is one
// 128-bit load. The general tile_state keeps 16-byte values apart from their status, so every
// poll there is an acquire of the status and then a dependent load of the value, and every
// publish a release: for reduce_by_key at 10^9 int32 items that layout cost about twice CUB's
// time (H200, 2026-11-27). The words order nothing but themselves, so the kernels using this state
// must not read what an earlier tile wrote.
#pragma once

#include <upsweep/scan/tile_state.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>

namespace upsweep {

namespace detail {

// T is 16 bytes, copied as two 64-bit words, the first of which is a count in [0, 2^62).
template <class T>
inline constexpr bool leads_with_count_v =
    cuda::std::is_trivially_copyable_v<T> && sizeof(T) == 16 && alignof(T) >= 8;

}  // namespace detail

template <class T>
class counted_pair_tile_state {
  static_assert(detail::leads_with_count_v<T>, "16-byte trivially copyable values that lead with a count");
  using word_t = unsigned long long;
  static constexpr int status_shift = 62;
  static constexpr word_t count_mask = (word_t{1} << status_shift) - 1;

 public:
  using value_type = T;
  static constexpr bool orders_memory = false;
  static constexpr long long max_count = static_cast<long long>(count_mask);

  static constexpr std::size_t bytes(long long num_tiles) {
    return detail::tile_counter_bytes + static_cast<std::size_t>(num_tiles) * 2 * sizeof(word_t);
  }
  static cudaError_t initialize(void* storage, long long num_tiles, cudaStream_t stream) {
    return detail::clear_tiles_before_chained(storage, bytes(num_tiles), num_tiles, stream);
  }

  __host__ __device__ explicit counted_pair_tile_state(void* storage)
      : counter_(storage),
        words_(reinterpret_cast<word_t*>(static_cast<char*>(storage) + detail::tile_counter_bytes)) {}

  __device__ long long claim_tile() const { return counter_.claim(); }
  __device__ void publish_partial(long long tile, const T& value) const { publish(tile, tile_status::partial, value); }
  __device__ void publish_inclusive(long long tile, const T& value) const {
    publish(tile, tile_status::inclusive, value);
  }
  __device__ void after_look_back() const {}

  __device__ tile_status read(long long tile, T& value) const {
    // A .b128 access is one access in the PTX memory model (vectors are not), so the pair and its
    // status are read as they were published.
    word_t words[2];
    asm volatile("{\n\t.reg .b128 pair;\n\tld.relaxed.gpu.b128 pair, [%2];\n\tmov.b128 {%0, %1}, pair;\n\t}"
                 : "=l"(words[0]), "=l"(words[1])
                 : "l"(words_ + 2 * tile));
    const auto status = static_cast<tile_status>(words[0] >> status_shift);
    words[0] &= count_mask;
    memcpy(&value, words, sizeof(T));
    return status;
  }

 private:
  __device__ void publish(long long tile, tile_status status, const T& value) const {
    word_t words[2];
    memcpy(words, &value, sizeof(T));
    words[0] |= static_cast<word_t>(status) << status_shift;
    asm volatile("{\n\t.reg .b128 pair;\n\tmov.b128 pair, {%1, %2};\n\tst.relaxed.gpu.b128 [%0], pair;\n\t}"
                 :
                 : "l"(words_ + 2 * tile), "l"(words[0]), "l"(words[1])
                 : "memory");
  }

  tile_counter counter_;
  word_t* words_;
};

namespace detail {

template <class T>
counted_pair_tile_state<T> counted_tile_state_of(void* storage, long long, cuda::std::true_type) {
  return counted_pair_tile_state<T>(storage);
}
template <class T>
tile_state<T> counted_tile_state_of(void* storage, long long num_tiles, cuda::std::false_type) {
  return make_tile_state<T>(storage, num_tiles);
}

}  // namespace detail

// The tile state for values that lead with a count: one 128-bit word per tile where T fits it,
// else the general layout.
template <class T>
using counted_tile_state_t =
    cuda::std::conditional_t<detail::leads_with_count_v<T>, counted_pair_tile_state<T>, tile_state<T>>;

template <class T>
counted_tile_state_t<T> make_counted_tile_state(void* storage, long long num_tiles) {
  return detail::counted_tile_state_of<T>(storage, num_tiles, cuda::std::bool_constant<detail::leads_with_count_v<T>>{});
}

}  // namespace upsweep
