// Batched top-k: one block per segment (its cluster's leader) runs the radix select of
// top_k_kernels.cuh with its passes separated by barriers instead of launches, 8-bit digits
// counted in shared memory, and the candidates kept in shared memory once they fit (until then
// each pass rereads the segment, which the previous pass has just brought into L2). A long
// segment first tries the sample's shortcut (top_k_sample.cuh) into the leader's shared memory;
// when there are fewer segments than SMs, a cluster of blocks shares that read. Sorted results
// rank the winners in shared memory.
#pragma once

#include <upsweep/sort/detail/top_k_kernels.cuh>
#include <upsweep/sort/detail/top_k_sample.cuh>
#include <upsweep/sort/detail/top_k_select.cuh>
#include <upsweep/sort/detail/vector_items.cuh>

#include <cooperative_groups.h>

#include <cuda/std/cstdint>

namespace upsweep::detail {

inline constexpr int batched_top_k_threads = 512;
inline constexpr int batched_top_k_digit_bits = 8;
inline constexpr int batched_top_k_digits = 1 << batched_top_k_digit_bits;
inline constexpr long long batched_top_k_max_sorted = 1024;  // k of a sorted batched result

template <class Key>
struct batched_top_k_storage {
  static constexpr int capacity = 12288 / static_cast<int>(sizeof(Key) + sizeof(unsigned));
  unsigned counts[batched_top_k_digits];
  unsigned warp_counts[batched_top_k_threads / 32];  // block_find_rank_digit's
  Key candidate_keys[2][capacity];
  unsigned candidate_indices[2][capacity];
  // 16 KB of sample select bits: 4096 samples of keys up to 4 bytes, 2048 of 8-byte keys. The
  // sample is done with before the first winner is kept.
  using bits_t = typename radix_traits<Key>::bits_t;
  static constexpr int samples = 16384 / (sizeof(bits_t) < 4 ? 4 : sizeof(bits_t));
  union {
    bits_t sample_bits[samples];
    struct {
      Key keys[batched_top_k_max_sorted];
      unsigned indices[batched_top_k_max_sorted];
    } winners;
  };
  rank_select_storage select_storage;
  top_k_pass pass;
  unsigned need;
  unsigned emitted;
  unsigned kept;
};

// Where a segment's winners go: straight to its row of the output, or to shared memory to be
// ranked first (sorted).
template <class Key, class ValueIn, class Value>
struct batched_top_k_output {
  ValueIn values_in;
  Key* keys_out;
  Value* values_out;  // null for keys only
  long long k;        // the row stride of the output
  bool sorted;
};

// A winner of the segment to its row of the output, or to shared memory to be ranked when sorted.
// Every lane of the warp calls it.
template <class Key, class ValueIn, class Value>
__device__ __forceinline__ void emit_segment_winner(batched_top_k_storage<Key>& st,
                                                    const batched_top_k_output<Key, ValueIn, Value>& out,
                                                    long long segment, long long begin, bool wins, const Key& key,
                                                    unsigned index) {
  const unsigned slot = claim_warp_slot(wins, &st.emitted);
  if (wins && out.sorted) {
    st.winners.keys[slot] = key;
    st.winners.indices[slot] = index;
  } else if (wins) {
    const long long at = segment * out.k + slot;
    out.keys_out[at] = key;
    if (out.values_out != nullptr) out.values_out[at] = out.values_in[begin + index];
  }
}

// split_candidate for a segment: winners emitted, kept candidates to the pass's shared buffer.
template <bool Largest, class Key, class ValueIn, class Value>
__device__ __forceinline__ void split_segment_candidate(batched_top_k_storage<Key>& st, const top_k_pass& pass,
                                                        const batched_top_k_output<Key, ValueIn, Value>& out,
                                                        long long segment, long long begin, bool valid, const Key& key,
                                                        unsigned index) {
  const bool keep = split_candidate<Largest>(pass, valid, key, index, st.counts, [&](bool wins) {
    emit_segment_winner(st, out, segment, begin, wins, key, index);
  });
  if (pass.destination == top_k_from_input) return;
  const unsigned kept_slot = claim_warp_slot(keep, &st.kept);
  if (keep) {
    st.candidate_keys[pass.destination][kept_slot] = key;
    st.candidate_indices[pass.destination][kept_slot] = index;
  }
}

// One pass over the segment in global memory (the items the prefix allows) or over the shared
// candidates.
template <bool Largest, class Key, class ValueIn, class Value>
__device__ void split_segment(batched_top_k_storage<Key>& st, const top_k_pass& pass, const Key* keys,
                              const batched_top_k_output<Key, ValueIn, Value>& out, long long segment, long long begin,
                              long long length) {
  constexpr int threads = batched_top_k_threads;
  if (pass.source != top_k_from_input) {
    for (long long first = 0; first < pass.source_count; first += threads) {
      const long long at = first + threadIdx.x;
      const bool valid = at < pass.source_count;
      split_segment_candidate<Largest>(st, pass, out, segment, begin, valid,
                                       valid ? st.candidate_keys[pass.source][at] : Key{},
                                       valid ? st.candidate_indices[pass.source][at] : 0u);
    }
    return;
  }
  long long lo, hi;
  input_range(pass, length, lo, hi);
  for_each_item<batched_top_k_threads>(keys + begin, lo, hi, 0, 1, [&](const Key& key, long long at, bool in_range) {
    const bool valid = in_range && same_above(top_k_select_bits<Largest>(key), pass.key_prefix, pass.key_shift);
    split_segment_candidate<Largest>(st, pass, out, segment, begin, valid, key, static_cast<unsigned>(at));
  });
}

// Asks L2 for the 16-byte-aligned interior of the part-th of `parts` contiguous pieces of
// keys[0, length), one bulk prefetch a warp: the cluster's pieces cover the segment, which streams
// in while the blocks select the sample's threshold, so the filter that follows (whose rounds
// alternate between the blocks) reads L2.
template <int Threads, class Key>
__device__ __forceinline__ void prefetch_share_to_l2(const Key* keys, long long length, unsigned part, unsigned parts) {
  constexpr int warps = Threads / 32;
  const auto first = reinterpret_cast<cuda::std::uintptr_t>(keys + length * part / parts);
  const auto last = reinterpret_cast<cuda::std::uintptr_t>(keys + length * (part + 1) / parts);
  const cuda::std::uintptr_t lo = (first + 15) & ~cuda::std::uintptr_t{15}, hi = last & ~cuda::std::uintptr_t{15};
  if (threadIdx.x % 32 != 0 || hi <= lo) return;
  const cuda::std::uintptr_t chunk = ((hi - lo) / warps + 15) & ~cuda::std::uintptr_t{15};
  const cuda::std::uintptr_t from = lo + chunk * (threadIdx.x / 32);
  if (from >= hi) return;
  const auto bytes = static_cast<unsigned>(hi - from < chunk ? hi - from : chunk);
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(from), "r"(bytes) : "memory");
}

// The sample's shortcut for one segment: when it keeps at least k items and they fit, the select
// starts from the leader's shared buffer 0 instead of the segment. Each block of the segment's
// cluster selects the same threshold from the same sample and filters its share of the segment
// into the leader's buffer (distributed shared memory). Called by every block of the cluster or
// none.
template <bool Largest, class Key>
__device__ void filter_segment_by_sample(batched_top_k_storage<Key>& st, const Key* keys, long long begin,
                                         long long length, long long k,
                                         const cooperative_groups::cluster_group& cluster) {
  constexpr int threads = batched_top_k_threads, capacity = batched_top_k_storage<Key>::capacity;
  // The passing count's spread is about its mean / sqrt(rank): many samples keep the mean low
  // enough that a segment rarely passes more than its buffer holds (and falls back to rereading).
  constexpr int samples = batched_top_k_storage<Key>::samples;
  const long long rank = top_k_sample_rank(k, length, samples);
  if (!top_k_sample_fits(rank, length, samples, capacity)) return;
  const unsigned part = cluster.block_rank(), parts = cluster.num_blocks();
  load_sample_bits<Largest, threads, samples>(keys + begin, length, samples, st.sample_bits);
  prefetch_share_to_l2<threads>(keys + begin, length, part, parts);  // after the sample's loads
  __syncthreads();
  const auto threshold = block_rank_select<threads>(st.sample_bits, samples, static_cast<unsigned>(rank),
                                                    radix_traits<Key>::key_bits, st.select_storage);
  if (parts > 1) cluster.sync();  // the leader has set its count to 0 before anyone claims from it
  batched_top_k_storage<Key>& leader = parts > 1 ? *cluster.map_shared_rank(&st, 0) : st;
  const auto keep = [&](const Key& key, long long at) {
    const unsigned slot = claim_slot_among_active(&leader.kept);
    if (slot < static_cast<unsigned>(capacity)) {
      leader.candidate_keys[0][slot] = key;
      leader.candidate_indices[0][slot] = static_cast<unsigned>(at);
    }
  };
  // Eight 16-byte loads a thread in flight: one block streams its share alone.
  for_each_passing_key<Largest, threads, 8>(keys + begin, 0, length, part, parts, threshold, keep);
  if (parts > 1) cluster.sync();  // every block's candidates are in the leader's buffer
  else __syncthreads();
  if (part != 0) return;
  if (threadIdx.x == 0) {
    if (st.kept >= k && st.kept <= static_cast<unsigned>(capacity)) {
      st.pass.source = 0;
      st.pass.source_count = st.kept;
      st.pass.destination = 1;
    }
    st.kept = 0;
  }
  __syncthreads();
}

// Finds the digit holding the need-th candidate, plans the next pass and clears the counts.
// Every thread calls it; barrier before reading the plan.
template <class Key>
__device__ void choose_segment_digit(batched_top_k_storage<Key>& st, int key_bits, int index_bits) {
  const unsigned need = st.need;
  block_find_rank_digit<batched_top_k_threads, batched_top_k_digits>(
      st.counts, st.warp_counts, need, [&](unsigned digit, unsigned count, unsigned below, unsigned total) {
        const top_k_pass previous = st.pass;
        top_k_pass pass = previous;
        fix_chosen_digit(pass);
        pass.digit = previous.next;
        pass.next = next_top_k_digit<batched_top_k_digit_bits>(pass.digit, key_bits, index_bits);
        pass.chosen = digit;
        pass.take_all = need - below == count;
        pass.source = previous.destination;
        pass.source_count = static_cast<long long>(total);
        const bool keep_in_shared =
            !pass.take_all && count <= static_cast<unsigned>(batched_top_k_storage<Key>::capacity);
        pass.destination = !keep_in_shared ? top_k_from_input : pass.source == 0 ? 1 : 0;
        st.pass = pass;
        st.need = need - below;
        st.kept = 0;
      });
}

// Tied candidates this many or fewer are ranked by index in one step (take_lowest_indices).
inline constexpr int batched_top_k_ranked_ties = 256;

// Whether the candidates `pass` kept differ only in their index (every key digit fixed) and are
// few enough to rank at once, where a pass per index digit would follow (bf16 logits tie often).
// Reads the kept count: after the split's barrier.
template <class Key>
__device__ __forceinline__ bool ties_ranked_at_once(const batched_top_k_storage<Key>& st, const top_k_pass& pass) {
  return pass.next.field == top_k_field::index && pass.destination != top_k_from_input &&
         st.kept <= static_cast<unsigned>(batched_top_k_ranked_ties);
}

// The need lowest indices among the tied candidates `pass` kept win: each one's rank is the number
// of indices below its own (indices are distinct).
template <class Key, class ValueIn, class Value>
__device__ void take_lowest_indices(batched_top_k_storage<Key>& st, const top_k_pass& pass,
                                    const batched_top_k_output<Key, ValueIn, Value>& out, long long segment,
                                    long long begin) {
  static_assert(batched_top_k_ranked_ties <= batched_top_k_threads, "a thread a tied candidate");
  const unsigned count = st.kept;
  const unsigned* indices = st.candidate_indices[pass.destination];
  const bool valid = threadIdx.x < count;
  const unsigned index = valid ? indices[threadIdx.x] : 0u;
  unsigned below = 0;
  if (valid)
    for (unsigned j = 0; j < count; ++j) below += indices[j] < index ? 1u : 0u;
  emit_segment_winner(st, out, segment, begin, valid && below < st.need,
                      valid ? st.candidate_keys[pass.destination][threadIdx.x] : Key{}, index);
}

// The winners in (select bits, index) order: each one's rank is the number of winners before it.
template <bool Largest, class Key, class ValueIn, class Value>
__device__ void write_sorted_winners(const batched_top_k_storage<Key>& st, unsigned count,
                                     const batched_top_k_output<Key, ValueIn, Value>& out, long long segment,
                                     long long begin) {
  for (unsigned i = threadIdx.x; i < count; i += batched_top_k_threads) {
    const auto bits = top_k_select_bits<Largest>(st.winners.keys[i]);
    const unsigned index = st.winners.indices[i];
    unsigned rank = 0;
    for (unsigned j = 0; j < count; ++j) {
      const auto other = top_k_select_bits<Largest>(st.winners.keys[j]);
      rank += other < bits || (other == bits && st.winners.indices[j] < index) ? 1u : 0u;
    }
    const long long at = segment * out.k + rank;
    out.keys_out[at] = st.winners.keys[i];
    if (out.values_out != nullptr) out.values_out[at] = out.values_in[begin + index];
  }
}

// One cluster a segment: its leader (block 0) runs the select; the others only filter their
// shares of a long segment into the leader's buffer, then leave.
template <bool Largest, class Key, class BeginOffsets, class EndOffsets, class ValueIn, class Value>
__global__ void __launch_bounds__(batched_top_k_threads)
    batched_top_k_kernel(const Key* keys, BeginOffsets begin_offsets, EndOffsets end_offsets,
                         batched_top_k_output<Key, ValueIn, Value> out) {
  __shared__ batched_top_k_storage<Key> st;
  wait_for_previous_grid();
  let_next_grid_launch();
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const long long segment = blockIdx.x / cluster.num_blocks();
  const long long begin = static_cast<long long>(begin_offsets[segment]);
  const long long length = static_cast<long long>(end_offsets[segment]) - begin;
  const long long k = length < out.k ? length : out.k;
  if (k <= 0) return;
  constexpr int key_bits = radix_traits<Key>::key_bits;
  const int index_bits = top_k_index_bits(length);
  for (int i = threadIdx.x; i < batched_top_k_digits; i += batched_top_k_threads) st.counts[i] = 0;
  if (threadIdx.x == 0) {
    top_k_pass pass;
    pass.next = next_top_k_digit<batched_top_k_digit_bits>(pass.digit, key_bits, index_bits);
    pass.take_all = k == length;  // everything: one pass emits it all
    st.pass = pass;
    st.need = static_cast<unsigned>(k);
    st.emitted = 0;
    st.kept = 0;
  }
  __syncthreads();
  if (k < length && length > 2 * batched_top_k_storage<Key>::samples)
    filter_segment_by_sample<Largest>(st, keys, begin, length, k, cluster);
  if (cluster.block_rank() != 0) return;
  for (;;) {
    const top_k_pass pass = st.pass;
    split_segment<Largest>(st, pass, keys, out, segment, begin, length);
    __syncthreads();
    if (pass.take_all) break;
    if (ties_ranked_at_once(st, pass)) {
      take_lowest_indices(st, pass, out, segment, begin);
      __syncthreads();
      break;
    }
    choose_segment_digit(st, key_bits, index_bits);
    __syncthreads();
  }
  if (out.sorted) write_sorted_winners<Largest>(st, static_cast<unsigned>(k), out, segment, begin);
}

}  // namespace upsweep::detail
