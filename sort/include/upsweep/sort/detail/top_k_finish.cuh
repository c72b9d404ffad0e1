// Top-k's finish for few candidates: when the sample's filter has left at most
// top_k_finish_capacity candidates in buffer 0, one block holds them in registers and runs every
// remaining pass of the select, a block barrier between passes where the split kernels take a
// launch each. At 2^20 keys a split launch cost more than its work: about 4 us with nothing to do
// and 14 us for 5000 candidates (ncu, H200, 2026-11-27). Otherwise the block returns at once and
// the splits go on as without it; after it finished, they return at once.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/sort/detail/top_k_kernels.cuh>
#include <upsweep/sort/detail/top_k_select.cuh>
#include <upsweep/sort/detail/top_k_warp.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

#include <cstddef>

namespace upsweep::detail {

inline constexpr int top_k_finish_threads = 1024;
inline constexpr int top_k_finish_items = 8;  // candidates a thread holds
inline constexpr long long top_k_finish_capacity = static_cast<long long>(top_k_finish_threads) * top_k_finish_items;
static_assert(top_k_digits % top_k_finish_threads == 0);

struct top_k_finish_storage {
  using scan_t = block_scan<unsigned, top_k_finish_threads>;
  typename scan_t::storage scan;
  unsigned counts[top_k_digits];
  unsigned long long emitted;
  top_k_pass pass;
  long long need;
};

// The pass after `pass` from the block's counts of its next digit (every thread calls it; the
// counts are zeroed for the pass after).
template <class Storage>
__device__ void plan_finish_pass(Storage& st, const top_k_pass& pass, long long need, long long capacity, int key_bits,
                                 int index_bits) {
  constexpr int per_thread = top_k_digits / top_k_finish_threads;
  unsigned counts[per_thread], below[per_thread];
  for (int i = 0; i < per_thread; ++i) {
    below[i] = counts[i] = st.counts[threadIdx.x * per_thread + i];
    st.counts[threadIdx.x * per_thread + i] = 0;
  }
  const unsigned total = typename Storage::scan_t(st.scan).exclusive_scan(below, 0u, cuda::std::plus<>{});
  const auto wanted = static_cast<unsigned long long>(need);
  for (int i = 0; i < per_thread; ++i) {
    if (below[i] >= wanted || wanted > static_cast<unsigned long long>(below[i]) + counts[i]) continue;
    const long long rest = need - static_cast<long long>(below[i]);
    st.pass =
        plan_next_pass(pass, threadIdx.x * per_thread + i, counts[i], rest, total, capacity, key_bits, index_bits);
    st.need = rest;
  }
  __syncthreads();
}

// Shared memory of top_k_finish_kernel, all of it dynamic (launch_chained_shared's limit check
// sees only the dynamic bytes): the storage, the candidates' indices, then their keys.
inline constexpr std::size_t top_k_finish_storage_bytes = (sizeof(top_k_finish_storage) + 15) / 16 * 16;

template <class Key, class Index>
constexpr std::size_t top_k_finish_shared_bytes() {
  return top_k_finish_storage_bytes + static_cast<std::size_t>(top_k_finish_capacity) * (sizeof(Index) + sizeof(Key));
}

template <bool Largest, class Key, class Index, class ValueIn, class Value>
__global__ void __launch_bounds__(top_k_finish_threads)
    top_k_finish_kernel(top_k_buffers<Key, Index, ValueIn, Value> io, long long capacity, int key_bits, int index_bits,
                        top_k_state* state) {
  extern __shared__ uint4 finish_shared[];  // 16-byte aligned
  auto& st = *reinterpret_cast<top_k_finish_storage*>(finish_shared);
  auto* const indices = reinterpret_cast<Index*>(reinterpret_cast<char*>(finish_shared) + top_k_finish_storage_bytes);
  auto* const keys = reinterpret_cast<Key*>(indices + top_k_finish_capacity);
  wait_for_previous_grid();
  let_next_grid_launch();
  if (state->finished) return;
  top_k_pass pass = state->passes[0];  // the filter's plan, when it kept every candidate
  if (pass.source != 0 || pass.source_count > top_k_finish_capacity) return;
  long long need = state->need;
  const int count = static_cast<int>(pass.source_count);
  // Thread t holds candidates j * top_k_finish_threads + t; bit j of alive: that one is still in
  // the running.
  unsigned alive = 0;
#pragma unroll
  for (int j = 0; j < top_k_finish_items; ++j) {
    const int at = j * top_k_finish_threads + static_cast<int>(threadIdx.x);
    if (at >= count) continue;
    keys[at] = io.candidate_keys[0][at];
    indices[at] = io.candidate_indices[0][at];
    alive |= 1u << j;
  }
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_finish_threads) st.counts[i] = 0;
  if (threadIdx.x == 0) st.emitted = state->emitted;
  __syncthreads();
  for (;;) {
#pragma unroll 1
    for (int j = 0; j < top_k_finish_items; ++j) {
      const bool in = alive >> j & 1u;
      if (!__any_sync(0xffffffffu, in)) continue;  // after the first pass, most warps hold none
      const int at = j * top_k_finish_threads + static_cast<int>(threadIdx.x);
      const Key key = in ? keys[at] : Key{};
      const Index index = in ? indices[at] : Index{};
      const auto bits = top_k_select_bits<Largest>(key);
      const unsigned digit = top_k_digit_of(pass.digit, bits, index);
      const bool emit = in && (digit < pass.chosen || (pass.take_all && digit == pass.chosen));
      const bool keep = in && !pass.take_all && digit == pass.chosen;
      emit_winner(io, emit, key, index, &st.emitted);
      count_digit(st.counts, keep ? top_k_digit_of(pass.next, bits, index) : 0u, keep);
      if (!keep) alive &= ~(1u << j);
    }
    if (pass.take_all) break;  // the same pass in every thread
    __syncthreads();
    plan_finish_pass(st, pass, need, capacity, key_bits, index_bits);
    pass = st.pass;
    need = st.need;
  }
  if (threadIdx.x == 0) state->finished = 1;
}

}  // namespace upsweep::detail
