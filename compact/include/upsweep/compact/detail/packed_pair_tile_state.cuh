// Tile state for values made of two fields below 2^31, such as run-length encoding's (runs, last
// head) and the three-way partition's two counts, for inputs below 2^31 items: a tile's value and
// its status in one 64-bit word, published and polled by single relaxed atomics. The general
// tile_state keeps 16-byte pairs apart from their status, so each poll is a status load, an
// acquire and a dependent value load, and each publish a release: at 10^9 int32 items with runs
// of about two that layout took 5.18 ms (H200). The words order nothing but themselves, so the
// kernels using this state must not read what an earlier tile wrote.
#pragma once

#include <upsweep/scan/tile_state.cuh>

#include <cuda/atomic>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace upsweep::detail {

// Fields maps its value_type to two fields in [0, 2^31) and back:
//   static void split(const value_type&, long long& high, long long& low);
//   static value_type join(long long high, long long low);
template <class Fields>
class packed_pair_tile_state {
  using word_t = unsigned long long;
  static constexpr int field_bits = 31;
  static constexpr word_t field_mask = (word_t{1} << field_bits) - 1;
  static constexpr int status_shift = 2 * field_bits;

 public:
  using value_type = typename Fields::value_type;
  static constexpr bool orders_memory = false;
  static constexpr long long max_field = static_cast<long long>(field_mask);

  static constexpr std::size_t bytes(long long num_tiles) {
    return tile_counter_bytes + static_cast<std::size_t>(num_tiles) * sizeof(word_t);
  }
  static cudaError_t initialize(void* storage, long long num_tiles, cudaStream_t stream) {
    return detail::clear_tiles_before_chained(storage, bytes(num_tiles), num_tiles, stream);
  }

  __host__ __device__ explicit packed_pair_tile_state(void* storage)
      : counter_(storage), words_(reinterpret_cast<word_t*>(static_cast<char*>(storage) + tile_counter_bytes)) {}

  __device__ long long claim_tile() const { return counter_.claim(); }
  __device__ void publish_partial(long long tile, const value_type& v) const { publish(tile, tile_status::partial, v); }
  __device__ void publish_inclusive(long long tile, const value_type& v) const {
    publish(tile, tile_status::inclusive, v);
  }
  __device__ void after_look_back() const {}
  __device__ tile_status read(long long tile, value_type& v) const {
    const word_t word = word_ref(tile).load(cuda::std::memory_order_relaxed);
    v = Fields::join(static_cast<long long>((word >> field_bits) & field_mask), static_cast<long long>(word & field_mask));
    return static_cast<tile_status>(word >> status_shift);
  }

 private:
  __device__ void publish(long long tile, tile_status status, const value_type& v) const {
    long long high = 0, low = 0;
    Fields::split(v, high, low);
    const word_t word = (static_cast<word_t>(status) << status_shift) | (static_cast<word_t>(high) << field_bits) |
                        static_cast<word_t>(low);
    word_ref(tile).store(word, cuda::std::memory_order_relaxed);
  }
  __device__ cuda::atomic_ref<word_t, cuda::thread_scope_device> word_ref(long long tile) const {
    return cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]);
  }

  tile_counter counter_;
  word_t* words_;
};

}  // namespace upsweep::detail
