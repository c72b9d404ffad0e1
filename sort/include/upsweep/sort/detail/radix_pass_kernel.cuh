// The radix sort's digit pass (Onesweep): each tile is ranked, staged in digit order in shared
// memory, placed across the grid by the per-digit look-back and scattered stably, keys then values;
// and the copy kernel that moves the result into out when the plan left it elsewhere.
#pragma once

#include <upsweep/scan/tile_state.cuh>
#include <upsweep/sort/detail/radix_look_back.cuh>
#include <upsweep/sort/detail/radix_pass_storage.cuh>
#include <upsweep/sort/detail/radix_rank.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/util/chained_launch.cuh>

namespace upsweep::detail {

// Writes the items into the exchange in digit order (padding after the real keys of the largest
// digit), then the block reads it slot by slot, so consecutive threads write consecutive addresses
// of one digit's run.
template <int IPT, class T>
__device__ __forceinline__ void stage_in_digit_order(const T (&items)[IPT], const unsigned (&slots)[IPT],
                                                     unsigned char* staging) {
  T* staged = reinterpret_cast<T*>(staging);
#pragma unroll
  for (int i = 0; i < IPT; ++i) staged[slots[i]] = items[i];
}

template <class Policy, class Key, class Value, class Storage>
__device__ __forceinline__ void find_digit_base(long long tile_idx, unsigned tile_count, unsigned tile_start,
                                                const unsigned long long* d_digit_offsets,
                                                unsigned long long* d_look_back, int pass, Key* d_keys_dst,
                                                Value* d_values_dst, Storage& s) {
  if (threadIdx.x >= radix_digits) return;
  const unsigned digit = threadIdx.x;
  const unsigned long long before =
      look_back_digit<Policy::look_back_delay_ns, Policy::look_back_window, Policy::look_back_settle_ns>(
          d_look_back, tile_idx, digit, tile_count, pass);
  // The global index of sorted tile slot 0 for this digit: below 0 when the digit's first slot in
  // the tile comes before its first global index. Unsigned arithmetic wraps where it must.
  const unsigned long long slot0 = d_digit_offsets[digit] + before - tile_start;
  s.key_scatter[digit] = reinterpret_cast<unsigned long long>(d_keys_dst) + slot0 * sizeof(Key);
  if constexpr (has_values_v<Value>)
    s.value_scatter[digit] = reinterpret_cast<unsigned long long>(d_values_dst) + slot0 * sizeof(Value);
}

// The address of a thread's first staged slot of a digit, from that digit's address of slot 0.
// (A pointer from an integer: nvcc emits generic stores, ST.E, not STG; telling it
// __builtin_assume(__isGlobal(p)) changed nothing, sm_90, CUDA 13.)
template <class T>
__device__ __forceinline__ T* thread_slot(unsigned long long slot0_address) {
  return reinterpret_cast<T*>(slot0_address + static_cast<unsigned long long>(threadIdx.x) * sizeof(T));
}

// The digits of a thread's staged slots, four to a register: the values' scatter needs each slot's
// digit again, and 64-bit destinations kept instead cost the pairs kernel 32 registers.
template <int IPT>
struct slot_digits {
  unsigned packed[(IPT + 3) / 4] = {};
  __device__ void set(int j, unsigned digit) { packed[j / 4] |= digit << (8 * (j % 4)); }
  __device__ unsigned get(int j) const { return (packed[j / 4] >> (8 * (j % 4))) & 0xffu; }
};

// Thread t scatters slots t, t + block_threads, ...: each slot's address is its digit's slot-0
// address (shared memory) plus the thread's offset and an immediate (three instructions where a
// 64-bit index took five). Full tiles skip the bounds test, so the slots' loads need not wait on
// one another's branches.
template <class Policy, bool Full, bool Descending, int IPT, class Key, class Codec, class Storage>
__device__ __forceinline__ void scatter_key_slots(int valid, int bit, int digit_bits,
                                                  slot_digits<IPT>& digits_of_slots, const Codec& codec,
                                                  const Storage& s) {
  const Key* staged = reinterpret_cast<const Key*>(s.exchange) + threadIdx.x;
#pragma unroll
  for (int j = 0; j < IPT; ++j) {
    if (Full || j * Policy::block_threads + static_cast<int>(threadIdx.x) < valid) {
      const Key key = staged[j * Policy::block_threads];
      const unsigned digit = Codec::digit(codec.template sort_bits<Descending>(key), bit, digit_bits);
      digits_of_slots.set(j, digit);
      thread_slot<Key>(s.key_scatter[digit])[j * Policy::block_threads] = key;
    }
  }
}

template <class Policy, class Value, int IPT, class Storage>
__device__ __forceinline__ void scatter_values(int valid, const slot_digits<IPT>& digits_of_slots, Storage& s) {
  const Value* staged = reinterpret_cast<const Value*>(value_staging(s)) + threadIdx.x;
#pragma unroll
  for (int j = 0; j < IPT; ++j) {
    if (j * Policy::block_threads + static_cast<int>(threadIdx.x) < valid)
      thread_slot<Value>(s.value_scatter[digits_of_slots.get(j)])[j * Policy::block_threads] =
          staged[j * Policy::block_threads];
  }
}

template <class Key, class Value, class Codec>
struct radix_pass_args {
  sort_buffers<Key> keys;
  sort_buffers<Value> values;
  const radix_sort_control* d_control;
  unsigned long long* d_look_back;
  long long num_items;
  long long num_tiles;
  int pass;
  int bit;
  int digit_bits;
  Codec codec;
};

// One tile: rank, publish the counts, place and stage the keys, look back, scatter. The counts go
// up before the staging so that the tiles after this one find them sooner, and this tile's own
// look-back comes after the staging, when its predecessors have had longer to publish.
// Full: the tile holds tile_items keys (every tile but the last), so no slot needs a bounds test.
template <class Policy, bool Descending, bool Full, class Key, class Value, class Codec, class Storage>
__device__ __forceinline__ void radix_pass_tile(long long tile_idx, int valid,
                                                const radix_pass_args<Key, Value, Codec>& args,
                                                const radix_pass_plan& plan, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  const pass_digits<Descending, Full, ipt, Codec> digit_of{args.codec, args.bit, args.digit_bits, valid};

  Key keys[ipt];
  unsigned places[ipt];
  load_striped<Full>(args.keys.source(plan.src) + tile_first, valid, keys);
  rank_within_warp<Policy>(keys, digit_of, places, s);
  __syncthreads();  // every warp's counts are in
  const unsigned tile_count = count_digit_in_tile<Policy>(valid, s);
  if (threadIdx.x < radix_digits) publish_digit_count(args.d_look_back, tile_idx, threadIdx.x, tile_count, args.pass);
  const unsigned tile_start = place_digit_in_tile<Policy>(tile_count, s);
  __syncthreads();  // every warp's first slots are in
  rank_within_tile(keys, digit_of, places, s);
  // (The previous tile's values were scattered before the claim's barrier.)
  if constexpr (Storage::separate_values)
    copy_values_to_slots<Full>(args.values.source(plan.src) + tile_first, valid, places, s.value_exchange);
  __syncthreads();  // every slot is read from the counters, whose bytes the exchange reuses
  stage_in_digit_order(keys, places, s.exchange);
  find_digit_base<Policy>(tile_idx, tile_count, tile_start, args.d_control->digit_counts[args.pass],
                          args.d_look_back, args.pass, args.keys.destination(plan.dst),
                          args.values.destination(plan.dst), s);
  if constexpr (Storage::separate_values) wait_for_value_copies();
  __syncthreads();  // the staged keys (and values) and the bases are in
  slot_digits<ipt> digits_of_slots;
  scatter_key_slots<Policy, Full, Descending, ipt, Key>(valid, args.bit, args.digit_bits, digits_of_slots,
                                                        args.codec, s);
  if constexpr (has_values_v<Value> && !Storage::separate_values) {
    // Loaded only now: held through the look-back and the keys' scatter, as before 2026-11-22,
    // they made the pairs' tiles spill at 80 registers (384 x 23 and 384 x 14, ptxas).
    Value values[ipt];
    load_striped<Full>(args.values.source(plan.src) + tile_first, valid, values);
    __syncthreads();  // every staged key has been read
    stage_in_digit_order(values, places, s.exchange);
    __syncthreads();
  }
  if constexpr (has_values_v<Value>) scatter_values<Policy, Value>(valid, digits_of_slots, s);
}

template <class Policy, bool Descending, class Key, class Value, class Codec>
__global__ void __launch_bounds__(Policy::block_threads, Policy::pass_min_blocks) radix_pass_kernel(radix_pass_args<Key, Value, Codec> args) {
  auto& storage = dynamic_storage<radix_pass_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  const radix_pass_plan plan = args.d_control->plan.pass[args.pass];
  if (plan.src == buffer_none) return;  // one digit holds every key: nothing moves
  const tile_counter counter(const_cast<unsigned long long*>(&args.d_control->tile_counters[args.pass]));
  for (;;) {
    if (threadIdx.x == 0) {
      storage.tile_idx = counter.claim();
      storage.zero = 0;
    }
    __syncthreads();  // the tile's barriers keep the next claim from overtaking this read
    const long long tile_idx = storage.tile_idx;
    if (tile_idx >= args.num_tiles) return;
    const long long remaining = args.num_items - tile_idx * Policy::tile_items;
    if (remaining >= Policy::tile_items)
      radix_pass_tile<Policy, Descending, true>(tile_idx, Policy::tile_items, args, plan, storage);
    else
      radix_pass_tile<Policy, Descending, false>(tile_idx, static_cast<int>(remaining), args, plan, storage);
    if (one_claim_each(args.num_tiles)) return;
  }
}

// ---- kernel 4: the result into out, when the plan left it elsewhere --------------------------
template <class T>
__device__ __forceinline__ void copy_grid_stride(const T* d_from, T* d_to, long long num_items) {
  if (d_from == d_to) return;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < num_items; i += stride)
    d_to[i] = d_from[i];
}

template <class Key, class Value>
__global__ void radix_copy_result_kernel(sort_buffers<Key> keys, sort_buffers<Value> values, long long num_items,
                                         const radix_sort_control* d_control) {
  wait_for_previous_grid();
  let_next_grid_launch();
  const int src = d_control->plan.copy_src;
  if (src == buffer_none) return;
  copy_grid_stride(keys.source(src), keys.out, num_items);
  if constexpr (has_values_v<Value>) copy_grid_stride(values.source(src), values.out, num_items);
}

}  // namespace upsweep::detail
