// Device-wide top-k by radix select (as in AIR top-k, Zhang et al. 2023): a split kernel reads the
// current candidates once, emits the sure winners, keeps the ties with the chosen digit and counts
// their next digit; the last of its blocks to finish turns those counts into the next chosen digit.
// Every kernel launches chained and returns at once when the select has finished, so the host can
// enqueue the worst-case number of passes without reading anything back.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/sort/detail/top_k_queue.cuh>
#include <upsweep/sort/detail/top_k_select.cuh>
#include <upsweep/sort/detail/top_k_warp.cuh>
#include <upsweep/sort/detail/vector_items.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cooperative_groups.h>
#include <cuda/std/functional>

namespace upsweep::detail {

inline constexpr int top_k_split_threads = 256;
inline constexpr int top_k_split_tile = top_k_split_threads * 16;  // keys of a block's 16-byte loads, 4-byte keys
inline constexpr int top_k_split_min_blocks = 4;                   // resident per SM: enough loads in flight to stream
static_assert(top_k_digits % top_k_split_threads == 0);

// Where a split writes: the output (keys and values, or only indices when the result is sorted
// afterwards) and the two candidate buffers.
template <class Key, class Index, class ValueIn, class Value>
struct top_k_buffers {
  const Key* keys_in;
  ValueIn values_in;
  Key* keys_out;       // null when only indices are emitted
  Value* values_out;   // null for keys only, or when only indices are emitted
  Index* indices_out;  // null unless the result is sorted afterwards
  Key* candidate_keys[2];
  Index* candidate_indices[2];
};

// A winner to the output slot it claims from `emitted` (64-bit in global memory; 32-bit in shared
// memory, where a 64-bit atomic add is a compare-and-swap loop).
template <class Key, class Index, class ValueIn, class Value, class Count>
__device__ __forceinline__ void emit_winner(const top_k_buffers<Key, Index, ValueIn, Value>& io, bool emit,
                                            const Key& key, Index index, Count* emitted) {
  const Count slot = claim_warp_slot(emit, emitted);
  if (!emit) return;
  if (io.indices_out != nullptr) io.indices_out[slot] = index;
  if (io.keys_out != nullptr) io.keys_out[slot] = key;
  if (io.values_out != nullptr) io.values_out[slot] = io.values_in[index];
}

// Where a split's items go: winners to output slots claimed from `emitted`; kept candidates
// staged in shared memory, then copied to the pass's destination.
template <class Key, class Index>
struct split_outputs {
  using queue_t = candidate_queue<Key, Index, 2048>;
  queue_t& queue;
  candidate_sink<Key, Index> sink;
  bool keeps;  // the pass has a destination buffer
  unsigned long long* emitted;
};

// One candidate (valid: it exists and matches the prefix) under `pass`: a sure winner is handed to
// emit(wins), which every lane calls (winner or not) so that it may claim slots with warp votes;
// a tie with the chosen digit is kept (its next digit counted; returns true); any other is
// dropped. Every lane of the warp must call it.
template <bool Largest, class Key, class Index, class Emit>
__device__ __forceinline__ bool split_candidate(const top_k_pass& pass, bool valid, const Key& key, Index index,
                                                unsigned* counts, Emit&& emit) {
  const auto bits = top_k_select_bits<Largest>(key);
  const unsigned digit = top_k_digit_of(pass.digit, bits, index);
  emit(valid && (digit < pass.chosen || (pass.take_all && digit == pass.chosen)));
  const bool keep = valid && !pass.take_all && digit == pass.chosen;
  count_digit(counts, keep ? top_k_digit_of(pass.next, bits, index) : 0u, keep);
  return keep;
}

// split_candidate with the winners to the outputs of `io`, slots claimed from `emitted`.
template <bool Largest, class Key, class Index, class ValueIn, class Value, class Count>
__device__ __forceinline__ bool split_to_io(const top_k_pass& pass, const top_k_buffers<Key, Index, ValueIn, Value>& io,
                                            bool valid, const Key& key, Index index, unsigned* counts,
                                            Count* emitted) {
  return split_candidate<Largest>(pass, valid, key, index, counts,
                                  [&](bool wins) { emit_winner(io, wins, key, index, emitted); });
}

// split_to_io, the kept ones staged for the pass's destination.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__device__ __forceinline__ void split_to_outputs(const top_k_pass& pass,
                                                 const top_k_buffers<Key, Index, ValueIn, Value>& io, bool valid,
                                                 const Key& key, Index index, unsigned* counts,
                                                 const split_outputs<Key, Index>& out) {
  if (split_to_io<Largest>(pass, io, valid, key, index, counts, out.emitted) && out.keeps)
    push_candidate(out.queue, out.sink, key, index);
}

// The input items still in the running: the index range the fixed index digits allow.
__device__ __forceinline__ void input_range(const top_k_pass& pass, long long num_items, long long& begin,
                                            long long& end) {
  begin = 0;
  end = num_items;
  if (pass.index_shift < 64) {
    begin = static_cast<long long>(pass.index_prefix >> pass.index_shift << pass.index_shift);
    const long long span = 1ll << pass.index_shift;
    end = num_items - begin < span ? num_items : begin + span;
  }
}

template <bool Largest, class Key, class Index, class ValueIn, class Value>
__device__ void split_input(const top_k_pass& pass, const top_k_buffers<Key, Index, ValueIn, Value>& io,
                            long long num_items, unsigned* counts, const split_outputs<Key, Index>& out) {
  long long begin, end;
  input_range(pass, num_items, begin, end);
  for_each_item<top_k_split_threads>(
      io.keys_in, begin, end, blockIdx.x, gridDim.x, [&](const Key& key, long long at, bool in_range) {
        const bool valid = in_range && same_above(top_k_select_bits<Largest>(key), pass.key_prefix, pass.key_shift);
        // Most items fail the prefix after the first digit: skip the warp's work when all do.
        if (__any_sync(0xffffffffu, valid))
          split_to_outputs<Largest>(pass, io, valid, key, static_cast<Index>(at), counts, out);
      });
}

// This block's share of the source buffer, split among `working` blocks.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__device__ void split_buffer(const top_k_pass& pass, const top_k_buffers<Key, Index, ValueIn, Value>& io,
                             unsigned* counts, const split_outputs<Key, Index>& out, unsigned working) {
  const Key* keys = io.candidate_keys[pass.source];
  const Index* indices = io.candidate_indices[pass.source];
  for (long long first = static_cast<long long>(blockIdx.x) * top_k_split_threads; first < pass.source_count;
       first += static_cast<long long>(working) * top_k_split_threads) {
    const long long at = first + threadIdx.x;
    const bool valid = at < pass.source_count;
    const Key key = valid ? load_from_l2(keys + at) : Key{};  // written by other blocks of a cooperative split
    const Index index = valid ? load_from_l2(indices + at) : Index{};
    split_to_outputs<Largest>(pass, io, valid, key, index, counts, out);
  }
}

// The prefix once `pass`'s chosen digit is fixed too.
__device__ __forceinline__ void fix_chosen_digit(top_k_pass& pass) {
  const cuda::std::uint64_t chosen = static_cast<cuda::std::uint64_t>(pass.chosen) << pass.digit.bit;
  if (pass.digit.field == top_k_field::key) {
    pass.key_prefix |= chosen;
    pass.key_shift = pass.digit.bit;
  } else if (pass.digit.field == top_k_field::index) {
    pass.index_prefix |= chosen;
    pass.index_shift = pass.digit.bit;
  }
}

// The pass after `previous`, given the counts of previous.next and that `chosen` holds the need-th
// candidate after `below` candidates in smaller digits.
__device__ inline top_k_pass plan_next_pass(const top_k_pass& previous, unsigned chosen, unsigned long long count,
                                            long long need, long long total, long long capacity, int key_bits,
                                            int index_bits) {
  top_k_pass pass = previous;
  fix_chosen_digit(pass);
  pass.digit = previous.next;
  pass.next = next_top_k_digit(pass.digit, key_bits, index_bits);
  pass.chosen = chosen;
  pass.take_all = static_cast<unsigned long long>(need) == count;
  pass.source = previous.destination;
  pass.source_count = total;
  const bool keep_in_buffer = !pass.take_all && count <= static_cast<unsigned long long>(capacity);
  pass.destination = !keep_in_buffer ? top_k_from_input : pass.source == 0 ? 1 : 0;
  return pass;
}

inline constexpr int top_k_digits_per_thread = top_k_digits / top_k_split_threads;

// Thread t holds the counts of digits t * PerThread + i; calls found(digit, count, below, total)
// in the thread holding the need-th item (below: items in smaller digits). Every thread calls it.
template <int Threads, class Count, int PerThread, class Found>
__device__ void find_needed_digit(const Count (&counts)[PerThread], long long need,
                                  typename block_scan<Count, Threads>::storage& storage, Found&& found) {
  Count below[PerThread];
  for (int i = 0; i < PerThread; ++i) below[i] = counts[i];
  const Count total = block_scan<Count, Threads>(storage).exclusive_scan(below, Count{0}, cuda::std::plus<>{});
  const auto wanted = static_cast<unsigned long long>(need);
  for (int i = 0; i < PerThread; ++i)
    if (below[i] < wanted && wanted <= static_cast<unsigned long long>(below[i]) + counts[i])
      found(static_cast<unsigned>(threadIdx.x * PerThread + i), counts[i], below[i], total);
}

// The last block of a split: the digit holding the need-th candidate among the counts, and the
// pass after it (or the end, after a split that took all).
__device__ inline void choose_next_pass(top_k_state* st, int step, const top_k_pass& previous, long long capacity,
                                        int key_bits, int index_bits) {
  if (previous.take_all) {
    if (threadIdx.x == 0) st->finished = 1;
    return;
  }
  // Read before the scan's barriers: the thread that finds the digit rewrites it after them.
  const long long need = __ldcg(&st->need);
  unsigned long long counts[top_k_digits_per_thread];
  for (int i = 0; i < top_k_digits_per_thread; ++i) {
    const int digit = threadIdx.x * top_k_digits_per_thread + i;
    counts[i] = __ldcg(&st->counts[digit]);  // other blocks' atomics: read from L2
    st->counts[digit] = 0;                   // for the next split
  }
  __shared__ typename block_scan<unsigned long long, top_k_split_threads>::storage scan_storage;
  find_needed_digit<top_k_split_threads>(
      counts, need, scan_storage,
      [&](unsigned digit, unsigned long long count, unsigned long long below, unsigned long long total) {
        const long long rest = need - static_cast<long long>(below);
        st->passes[(step + 1) % 2] =
            plan_next_pass(previous, digit, count, rest, static_cast<long long>(total), capacity, key_bits, index_bits);
        st->need = rest;
        st->kept = 0;
      });
}

// Whether this block is the last of `blocks` to get here; their writes before it are then visible
// to it. Every thread calls it.
__device__ inline bool last_block_done(unsigned* blocks_done, unsigned blocks) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(blocks_done, 1u) == blocks - 1;
    if (last) {
      *blocks_done = 0;  // for the next kernel
      __threadfence();
    }
  }
  __syncthreads();
  return last;
}

// One pass of the select by this block: its share of the candidates split, its counts added; the
// last of the working blocks plans the next pass. A small candidate set needs few blocks: the
// others return at once.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__device__ void split_step(const top_k_pass& pass, const top_k_buffers<Key, Index, ValueIn, Value>& io,
                           long long num_items, top_k_state* st, int step, long long capacity, int key_bits,
                           int index_bits) {
  __shared__ unsigned counts[top_k_digits];
  __shared__ typename split_outputs<Key, Index>::queue_t queue;
  const long long needed =
      pass.source == top_k_from_input ? gridDim.x : (pass.source_count + top_k_split_threads - 1) / top_k_split_threads;
  const unsigned working = static_cast<unsigned>(needed < 1 ? 1 : needed < gridDim.x ? needed : gridDim.x);
  if (blockIdx.x >= working) return;
  const bool keeps = pass.destination != top_k_from_input;
  const split_outputs<Key, Index> out{queue,
                                      {io.candidate_keys[keeps ? pass.destination : 0],
                                       io.candidate_indices[keeps ? pass.destination : 0], &st->kept, capacity},
                                      keeps,
                                      &st->emitted};
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_split_threads) counts[i] = 0;
  if (threadIdx.x == 0) queue.count = 0;
  __syncthreads();
  if (pass.source == top_k_from_input)
    split_input<Largest>(pass, io, num_items, counts, out);
  else
    split_buffer<Largest>(pass, io, counts, out, working);
  if (keeps) flush_candidates(queue, 1, out.sink);
  __syncthreads();
  if (!pass.take_all)
    for (int i = threadIdx.x; i < top_k_digits; i += top_k_split_threads)
      if (counts[i] != 0) atomicAdd(&st->counts[i], static_cast<unsigned long long>(counts[i]));
  if (last_block_done(&st->blocks_done, working)) choose_next_pass(st, step, pass, capacity, key_bits, index_bits);
}

// Splits first_step to last_step, or until one takes all. The host launches them all as one grid,
// every block resident (a cooperative launch) and a grid barrier between steps: a launch that
// finds the select finished (after the one-block finish) costs 1.7 us, and the chain of one launch
// a step that this replaced took 0.042 ms at 2^20 f32 keys, k = 1, against 0.035 (H200,
// 2026-11-27). That chain remains for a GPU that refuses the grid. The pass a step reads sits in
// shared memory: kept in registers across the loop it spilled. The passes and candidates a block
// reads were written by other blocks of the grid after its last read of the same address: they
// are read from L2.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__global__ void __launch_bounds__(top_k_split_threads, top_k_split_min_blocks)
    top_k_split_kernel(top_k_buffers<Key, Index, ValueIn, Value> io, long long num_items, top_k_state* st,
                       int first_step, int last_step, long long capacity, int key_bits, int index_bits) {
  wait_for_previous_grid();
  let_next_grid_launch();
  if (st->finished) return;  // by an earlier kernel (this grid sets it only in a step every block ends at)
  __shared__ top_k_pass pass;
  for (int step = first_step;; ++step) {
    if (threadIdx.x == 0) pass = load_from_l2(&st->passes[step % 2]);
    __syncthreads();
    split_step<Largest>(pass, io, num_items, st, step, capacity, key_bits, index_bits);
    if (pass.take_all || step == last_step) return;  // the same in every block
    cooperative_groups::this_grid().sync();
  }
}

// Sorted results: select bits of the chosen items in index order, then the winners gathered.
template <bool Largest, class Key, class Index>
__global__ void top_k_gather_bits_kernel(const Key* keys_in, const Index* indices, long long k,
                                         typename radix_traits<Key>::bits_t* bits_out) {
  wait_for_previous_grid();
  let_next_grid_launch();
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < k)
    bits_out[i] = static_cast<typename radix_traits<Key>::bits_t>(top_k_select_bits<Largest>(keys_in[indices[i]]));
}

template <class Key, class Index, class ValueIn, class Value>
__global__ void top_k_gather_kernel(const Key* keys_in, ValueIn values_in, const Index* indices, long long k,
                                    Key* keys_out, Value* values_out) {
  wait_for_previous_grid();
  let_next_grid_launch();
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= k) return;
  const Index index = indices[i];
  keys_out[i] = keys_in[index];
  if (values_out != nullptr) values_out[i] = values_in[index];
}

}  // namespace upsweep::detail
