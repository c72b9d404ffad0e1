// The radix sort of inputs up to one tile, in one block and one launch: every digit is ranked and
// staged as a digit pass ranks a tile, with no histogram, no look-back and no temporaries.
#pragma once

#include <upsweep/sort/detail/radix_histogram_kernels.cuh>
#include <upsweep/sort/detail/radix_pass_kernel.cuh>
#include <upsweep/sort/detail/radix_pass_storage.cuh>
#include <upsweep/sort/detail/radix_rank.cuh>
#include <upsweep/util/chained_launch.cuh>

namespace upsweep::detail {

// ---- small inputs: the whole sort in one block and one launch ----------------------------------
// Up to one tile: the block holds the keys (and values) in registers and runs every digit as a
// pass ranks a tile: rank, stage in digit order in shared memory, and read back in the striped
// layout, which walks the staged order as the next ranking needs. No histogram, no look-back, no
// temporaries. Everything is read before anything is written, so in == out is fine.
template <int IPT, class T>
__device__ __forceinline__ void read_staged_striped(const unsigned char* exchange, int valid, T (&items)[IPT]) {
  const T* staged = reinterpret_cast<const T*>(exchange);
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int slot = striped_slot<IPT>(i);
    if (slot < valid) items[i] = staged[slot];
  }
}

template <int IPT, class T>
__device__ __forceinline__ void store_striped(T* d_out, int valid, const T (&items)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int slot = striped_slot<IPT>(i);
    if (slot < valid) d_out[slot] = items[i];
  }
}

// Every digit of [begin_bit, end_bit) over the block's striped keys and values in registers, which
// end in sorted striped order. s.zero must hold 0 by the first barrier. Shared memory is free
// again when it returns (each digit ends on a barrier).
template <class Policy, bool Descending, class Key, class Value, class Codec, class Storage>
__device__ __forceinline__ void sort_striped_tile(Key (&keys)[Policy::items_per_thread],
                                                  Value (&values)[has_values_v<Value> ? Policy::items_per_thread : 1],
                                                  int valid, int begin_bit, int end_bit, const Codec& codec,
                                                  Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  constexpr bool has_values = has_values_v<Value>;
  unsigned places[ipt];
  for (int bit = begin_bit; bit < end_bit; bit += radix_bits) {
    const pass_digits<Descending, false, ipt, Codec> digit_of{codec, bit, pass_digit_bits(bit, end_bit), valid};
    rank_within_warp<Policy>(keys, digit_of, places, s);
    __syncthreads();  // every warp's counts are in
    place_digit_in_tile<Policy>(count_digit_in_tile<Policy>(valid, s), s);
    __syncthreads();  // every warp's first slots are in
    rank_within_tile(keys, digit_of, places, s);
    __syncthreads();  // every slot is read from the counters, whose bytes the exchange reuses
    stage_in_digit_order(keys, places, s.exchange);
    __syncthreads();
    read_staged_striped(s.exchange, valid, keys);
    if constexpr (has_values) {
      __syncthreads();  // every staged key has been read
      stage_in_digit_order(values, places, value_staging(s));
      __syncthreads();
      read_staged_striped(value_staging(s), valid, values);
    }
    __syncthreads();  // the next digit reuses the counters and the exchange
  }
}

// The whole sort of `valid` items (at most a tile) by the calling block.
template <class Policy, bool Descending, class Key, class Value, class Codec, class Storage>
__device__ __forceinline__ void sort_tile_in_block(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                                   Value* d_values_out, int valid, int begin_bit, int end_bit,
                                                   const Codec& codec, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  constexpr bool has_values = has_values_v<Value>;
  Key keys[ipt];
  Value values[has_values ? ipt : 1];
  load_striped<false>(d_keys_in, valid, keys);
  if constexpr (has_values) load_striped<false>(d_values_in, valid, values);
  if (threadIdx.x == 0) s.zero = 0;  // read after the first digit's first barrier
  sort_striped_tile<Policy, Descending>(keys, values, valid, begin_bit, end_bit, codec, s);
  store_striped(d_keys_out, valid, keys);
  if constexpr (has_values) store_striped(d_values_out, valid, values);
}

template <class Policy, bool Descending, class Key, class Value, class Codec>
__global__ void __launch_bounds__(Policy::block_threads)
    radix_sort_single_tile_kernel(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                  int valid, int begin_bit, int end_bit, Codec codec) {
  auto& s = dynamic_storage<radix_pass_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  sort_tile_in_block<Policy, Descending>(d_keys_in, d_keys_out, d_values_in, d_values_out, valid, begin_bit, end_bit,
                                         codec, s);
}

}  // namespace upsweep::detail
