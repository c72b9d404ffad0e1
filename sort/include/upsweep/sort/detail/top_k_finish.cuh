// Top-k's finish for few candidates: when the sample's filter has left at most
// top_k_finish_capacity candidates in buffer 0, one block holds them in shared memory and runs
// every remaining pass of the select, a block barrier between passes where the split grid takes a
// grid barrier. At 2^20 keys a split then cost more than its work: when each was a launch, 1.7 us
// with nothing to do, about 14 us under ncu for 5000 candidates (H200, 2026-11-27). Otherwise the
// block returns at once and the splits go on as without it; after it finished, they return at once.
#pragma once

#include <upsweep/sort/detail/top_k_kernels.cuh>
#include <upsweep/sort/detail/top_k_select.cuh>
#include <upsweep/sort/detail/top_k_warp.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/cstdint>

#include <cstddef>

namespace upsweep::detail {

inline constexpr int top_k_finish_threads = 1024;
inline constexpr int top_k_finish_items = 8;  // candidates a thread holds
inline constexpr long long top_k_finish_capacity = static_cast<long long>(top_k_finish_threads) * top_k_finish_items;
static_assert(top_k_digits % top_k_finish_threads == 0);

struct top_k_finish_storage {
  unsigned counts[top_k_digits];
  unsigned warp_counts[top_k_finish_threads / 32];  // block_find_rank_digit's
  unsigned emitted;  // in this block; the output slots start at the emitted count before it
  top_k_pass pass;
  long long need;
};

// Shared memory of top_k_finish_kernel, all of it dynamic (launch_chained_shared's limit check
// sees only the dynamic bytes): the storage, the candidates' indices, then their keys.
inline constexpr std::size_t top_k_finish_storage_bytes = (sizeof(top_k_finish_storage) + 15) / 16 * 16;

template <class Key, class Index>
constexpr std::size_t top_k_finish_shared_bytes() {
  return top_k_finish_storage_bytes + static_cast<std::size_t>(top_k_finish_capacity) * (sizeof(Index) + sizeof(Key));
}

// The candidates a block holds: thread t holds j * top_k_finish_threads + t, bit j of its mask
// set while that one is still in the running.
template <class Key, class Index>
struct finish_candidates {
  Key* keys;
  Index* indices;
};

// Copies buffer 0's `count` candidates to shared memory; returns the thread's mask.
template <class Key, class Index, class ValueIn, class Value>
__device__ unsigned load_finish_candidates(const top_k_buffers<Key, Index, ValueIn, Value>& io, int count,
                                           const finish_candidates<Key, Index>& held) {
  unsigned alive = 0;
#pragma unroll
  for (int j = 0; j < top_k_finish_items; ++j) {
    const int at = j * top_k_finish_threads + static_cast<int>(threadIdx.x);
    if (at >= count) continue;
    held.keys[at] = io.candidate_keys[0][at];
    held.indices[at] = io.candidate_indices[0][at];
    alive |= 1u << j;
  }
  return alive;
}

// The buffers with every output advanced past the first `emitted` slots.
template <class Key, class Index, class ValueIn, class Value>
__device__ top_k_buffers<Key, Index, ValueIn, Value> emitting_from(top_k_buffers<Key, Index, ValueIn, Value> io,
                                                                   unsigned long long emitted) {
  if (io.keys_out != nullptr) io.keys_out += emitted;
  if (io.values_out != nullptr) io.values_out += emitted;
  if (io.indices_out != nullptr) io.indices_out += emitted;
  return io;
}

// One pass over the held candidates (split_to_io on each); returns the mask of those kept.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__device__ unsigned split_finish_candidates(const top_k_pass& pass, const top_k_buffers<Key, Index, ValueIn, Value>& io,
                                            const finish_candidates<Key, Index>& held, unsigned alive,
                                            top_k_finish_storage& st) {
#pragma unroll 1
  for (int j = 0; j < top_k_finish_items; ++j) {
    const bool in = alive >> j & 1u;
    if (!__any_sync(0xffffffffu, in)) continue;  // after the first pass, most warps hold none
    const int at = j * top_k_finish_threads + static_cast<int>(threadIdx.x);
    if (!split_to_io<Largest>(pass, io, in, in ? held.keys[at] : Key{}, in ? held.indices[at] : Index{}, st.counts,
                              &st.emitted))
      alive &= ~(1u << j);
  }
  return alive;
}

// The pass after `pass` from the block's counts of its next digit, into st.pass and st.need; the
// counts are zeroed for the pass after. Every thread calls it.
__device__ inline void plan_finish_pass(top_k_finish_storage& st, const top_k_pass& pass, long long need,
                                        long long capacity, int key_bits, int index_bits) {
  block_find_rank_digit<top_k_finish_threads, top_k_digits>(
      st.counts, st.warp_counts, static_cast<unsigned long long>(need),
      [&](unsigned digit, unsigned count, unsigned below, unsigned total) {
        const long long rest = need - static_cast<long long>(below);
        st.pass = plan_next_pass(pass, digit, count, rest, total, capacity, key_bits, index_bits);
        st.need = rest;
      });
  __syncthreads();
}

template <bool Largest, class Key, class Index, class ValueIn, class Value>
__global__ void __launch_bounds__(top_k_finish_threads)
    top_k_finish_kernel(top_k_buffers<Key, Index, ValueIn, Value> io, long long capacity, int key_bits, int index_bits,
                        top_k_state* state) {
  extern __shared__ uint4 finish_shared[];  // 16-byte aligned
  auto& st = *reinterpret_cast<top_k_finish_storage*>(finish_shared);
  auto* const indices = reinterpret_cast<Index*>(reinterpret_cast<char*>(finish_shared) + top_k_finish_storage_bytes);
  const finish_candidates<Key, Index> held{reinterpret_cast<Key*>(indices + top_k_finish_capacity), indices};
  wait_for_previous_grid();
  let_next_grid_launch();
  if (state->finished) return;
  top_k_pass pass = state->passes[0];  // the filter's plan, when it kept every candidate
  if (pass.source != 0 || pass.source_count > top_k_finish_capacity) return;
  long long need = state->need;
  const unsigned long long emitted_before = state->emitted;
  const top_k_buffers<Key, Index, ValueIn, Value> out = emitting_from(io, emitted_before);
  unsigned alive = load_finish_candidates(io, static_cast<int>(pass.source_count), held);
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_finish_threads) st.counts[i] = 0;
  if (threadIdx.x == 0) st.emitted = 0;
  __syncthreads();
  for (;;) {
    alive = split_finish_candidates<Largest>(pass, out, held, alive, st);
    if (pass.take_all) break;  // the same pass in every thread
    __syncthreads();
    plan_finish_pass(st, pass, need, capacity, key_bits, index_bits);
    pass = st.pass;
    need = st.need;
  }
  __syncthreads();  // every emit has claimed its slot
  if (threadIdx.x == 0) {
    state->emitted = emitted_before + st.emitted;
    state->finished = 1;
  }
}

}  // namespace upsweep::detail
