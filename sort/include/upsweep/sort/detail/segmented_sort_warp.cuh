// Segmented sort, first kernel: every segment is read once here. Segments of up to
// segment_warp_items items are sorted on the spot, one warp each; larger ones are appended to the
// list of the block kernel that takes their size (segmented_sort_blocks.cuh). Integer keys alone
// over their whole width go through a sorting network instead (segmented_sort_network.cuh).
#pragma once

#include <upsweep/sort/detail/radix_sort_kernels.cuh>
#include <upsweep/sort/detail/segmented_sort_network.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/type_traits>

namespace upsweep::detail {

// The buffers of a segmented sort; the alternates (n items, temporary storage) serve segments
// that take more than one tile.
template <class Key, class Value>
struct segmented_io {
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
  Key* keys_alt;
  Value* values_alt;
};

// p + offset, or null for the absent values of a keys-only sort.
template <class T>
__device__ __forceinline__ T* at_offset(T* p, long long offset) {
  return p == nullptr ? p : p + offset;
}

inline constexpr int segment_warp_items = 128;  // the largest segment one warp sorts
inline constexpr int segment_warp_block_threads = 256;
inline constexpr int segment_small_tile_items = 1024;  // segmented_small_tile_policy's tile
inline constexpr int segment_large_tile_items = 4096;  // segmented_large_tile_policy's tile

// Who sorts a segment of `size` items. The last three each have a list of segment ids.
enum segment_tier : int { tier_copy = 0, tier_warp = 1, tier_small_tile = 2, tier_large_tile = 3, tier_passes = 4 };
inline constexpr int first_listed_tier = tier_small_tile;
inline constexpr int listed_tiers = 3;

__host__ __device__ constexpr int segment_tier_of(long long size) {
  return size <= 1                          ? tier_copy
         : size <= segment_warp_items       ? tier_warp
         : size <= segment_small_tile_items ? tier_small_tile
         : size <= segment_large_tile_items ? tier_large_tile
                                            : tier_passes;
}

// List t holds counts[t] segment ids at ids + t * capacity.
struct segment_lists {
  unsigned* counts;
  unsigned* ids;
  long long capacity;
};

// Each lane's segment goes to the list of its tier: one atomic per tier and warp.
__device__ __forceinline__ void append_to_lists(const segment_lists& lists, int tier, long long segment) {
  const unsigned lanes_before = (1u << lane_id()) - 1;
#pragma unroll
  for (int t = first_listed_tier; t < first_listed_tier + listed_tiers; ++t) {
    const unsigned members = __ballot_sync(full_warp_mask, tier == t);
    if (members == 0) continue;
    const int leader = __ffs(members) - 1;
    unsigned base = 0;
    if (static_cast<int>(lane_id()) == leader)
      base = atomicAdd(lists.counts + (t - first_listed_tier), __popc(members));
    base = __shfl_sync(full_warp_mask, base, leader);
    if (tier == t)
      lists.ids[(t - first_listed_tier) * lists.capacity + base + __popc(members & lanes_before)] =
          static_cast<unsigned>(segment);
  }
}

// A warp holds item i of a segment in register i / 32 of lane i % 32. Its window bits are staged
// as words of at least 32 bits, so that four are one 16-byte shared load.
template <class Key>
using warp_word_t =
    cuda::std::conditional_t<(sizeof(typename radix_traits<Key>::bits_t) <= 4), unsigned, unsigned long long>;

// Words j .. j + 3 of a warp's staging (j a multiple of 4) in 16-byte shared loads.
__device__ __forceinline__ void load_four_words(const unsigned* at, unsigned (&words)[4]) {
  const uint4 v = *reinterpret_cast<const uint4*>(at);
  words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
}
__device__ __forceinline__ void load_four_words(const unsigned long long* at, unsigned long long (&words)[4]) {
  const ulonglong2 low = reinterpret_cast<const ulonglong2*>(at)[0], high = reinterpret_cast<const ulonglong2*>(at)[1];
  words[0] = low.x, words[1] = low.y, words[2] = high.x, words[3] = high.y;
}

// count += (a < b), or (a <= b) when OrEqual: a compare and a predicated add. From the C++ form
// nvcc 13 made three instructions (an add, then a predicated move), sm_90; this is most of a small
// segment's work.
template <bool OrEqual>
__device__ __forceinline__ void count_if_before(int& count, unsigned a, unsigned b) {
  if constexpr (OrEqual)
    asm("{\n\t.reg .pred p;\n\tsetp.le.u32 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "r"(a), "r"(b));
  else
    asm("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "r"(a), "r"(b));
}
template <bool OrEqual>
__device__ __forceinline__ void count_if_before(int& count, unsigned long long a, unsigned long long b) {
  if constexpr (OrEqual)
    asm("{\n\t.reg .pred p;\n\tsetp.le.u64 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "l"(a), "l"(b));
  else
    asm("{\n\t.reg .pred p;\n\tsetp.lt.u64 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "l"(a), "l"(b));
}

// Adds, for each register i, the words of [first, last) (items of register Region) that sort
// before the thread's item: smaller ones, and equal ones from an earlier register (i > Region).
// `last` - `first` is a multiple of 4 but the segment's end, where the staging is padded with
// all-ones words: compared with <, padding never counts, and registers past Region have none.
template <int Region, int IPT, class Word>
__device__ __forceinline__ void count_region(const Word* staged, int first, int last, const Word (&mine)[IPT],
                                             int (&place)[IPT]) {
  for (int j = first; j < last; j += 4) {
    Word other[4];
    load_four_words(staged + j, other);
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int i = 0; i < IPT; ++i) {
        if (i > Region)
          count_if_before<true>(place[i], other[u], mine[i]);  // folded once unrolled
        else
          count_if_before<false>(place[i], other[u], mine[i]);
      }
  }
}

template <int Region, int IPT, class Word>
__device__ __forceinline__ void count_regions(const Word* staged, int size, const Word (&mine)[IPT],
                                              int (&place)[IPT]) {
  if constexpr (Region < IPT) {
    const int first = Region * warp_threads;
    if (first >= size) return;
    count_region<Region>(staged, first, first + warp_threads < size ? first + warp_threads : size, mine, place);
    count_regions<Region + 1>(staged, size, mine, place);
  }
}

// A key's window bits as a warp word, (ordered bits >> shift) & mask: radix_window's value, with
// the shift and mask worked out once per kernel.
template <bool Descending, class Key>
struct warp_window {
  using word_t = warp_word_t<Key>;
  int shift;
  word_t mask;
  bool whole_key;  // the window is every bit of the key
  __device__ warp_window(int begin_bit, int end_bit) {
    const int width = end_bit - begin_bit;
    whole_key = begin_bit == 0 && end_bit == radix_traits<Key>::key_bits;
    shift = width > 0 ? begin_bit : 0;  // an empty window may start at the key's width
    mask = width >= static_cast<int>(8 * sizeof(word_t)) ? ~word_t{0} : (word_t{1} << width) - 1;
  }
  __device__ __forceinline__ word_t operator()(Key key) const {
    return static_cast<word_t>(radix_traits<Key>::template to_sort_bits<Descending>(key) >> shift) & mask;
  }
};

// A segment's first two registers (items lane and lane + 32), read one segment ahead so that the
// loads are in flight while the warp sorts the segment before it.
template <class Key, class Value>
struct warp_segment_head {
  long long first;
  int size;
  Key keys[2];
  Value values[has_values_v<Value> ? 2 : 1];
};

template <class Key, class Value>
__device__ __forceinline__ warp_segment_head<Key, Value> read_segment_head(const segmented_io<Key, Value>& io,
                                                                           long long first, int size) {
  warp_segment_head<Key, Value> head{first, size};
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int item = i * warp_threads + static_cast<int>(lane_id());
    if (item < size) {
      head.keys[i] = io.keys_in[first + item];
      if constexpr (has_values_v<Value>) head.values[i] = io.values_in[first + item];
    }
  }
  return head;
}

// One warp sorts the head's segment (2 .. 32 x IPT items): an item's place is the number of
// items whose window bits are smaller, or equal and earlier (stable). Earlier equal items in other
// registers are counted by count_regions, in its own register by a match over the warp, whose
// result is waited for only after the compares. `staged`: the warp's segment_warp_items words.
// Every input is read before anything is written, so in place is fine.
template <int IPT, bool Descending, class Key, class Value>
__device__ __forceinline__ void sort_segment_in_warp(const segmented_io<Key, Value>& io,
                                                     const warp_segment_head<Key, Value>& head,
                                                     const warp_window<Descending, Key>& window,
                                                     warp_word_t<Key>* staged) {
  using word_t = warp_word_t<Key>;
  constexpr bool has_values = has_values_v<Value>;
  const int lane = static_cast<int>(lane_id());
  const long long first = head.first;
  const int size = head.size;
  Key keys[IPT];
  Value values[has_values ? IPT : 1];
  word_t mine[IPT];
  unsigned peers[IPT];
  int place[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int item = i * warp_threads + lane;
    mine[i] = ~word_t{0};
    if (item < size) {
      if (i < 2) {
        keys[i] = head.keys[i];
        if constexpr (has_values) values[i] = head.values[i];
      } else {
        keys[i] = io.keys_in[first + item];
        if constexpr (has_values) values[i] = io.values_in[first + item];
      }
      mine[i] = window(keys[i]);
    }
    if (item < ((size + 3) & ~3)) staged[item] = mine[i];
    // Lanes past the segment hold all-ones words, but only lower lanes count.
    peers[i] = __match_any_sync(full_warp_mask, mine[i]);
    place[i] = 0;
  }
  __syncwarp();
  const unsigned lanes_below = (1u << lane) - 1;
  count_regions<0>(staged, size, mine, place);
#pragma unroll
  for (int i = 0; i < IPT; ++i) place[i] += __popc(peers[i] & lanes_below);
  __syncwarp();  // the staged words are free for the next segment
  // The addresses are formed by every lane: under the branch nvcc reloaded the output pointer
  // into a register for each store, and the wait for it measured a fifth of the stalls.
  Key* keys_to[IPT];
  Value* values_to[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    keys_to[i] = io.keys_out + (first + place[i]);
    values_to[i] = at_offset(io.values_out, first + place[i]);
  }
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if (i * warp_threads + lane < size) {
      *keys_to[i] = keys[i];
      if constexpr (has_values) *values_to[i] = values[i];
    }
  }
}

template <bool Descending, class Key, class Value>
__device__ __forceinline__ void sort_head_in_warp(const segmented_io<Key, Value>& io,
                                                  const warp_segment_head<Key, Value>& head,
                                                  const warp_window<Descending, Key>& window,
                                                  warp_word_t<Key>* staged) {
  if constexpr (network_sortable_v<Key, Value>) {
    if (window.whole_key) {  // 10^6 segments of 0..64 u32 keys, H200: 0.302 -> 0.231 ms
      using word_t = warp_word_t<Key>;
      if (head.size <= warp_threads)
        sort_segment_by_network<1, Descending, word_t>(io.keys_out, io.keys_in, head);
      else if (head.size <= 2 * warp_threads)
        sort_segment_by_network<2, Descending, word_t>(io.keys_out, io.keys_in, head);
      else
        sort_segment_by_network<4, Descending, word_t>(io.keys_out, io.keys_in, head);
      return;
    }
  }
  if (head.size <= warp_threads)
    sort_segment_in_warp<1, Descending>(io, head, window, staged);
  else if (head.size <= 2 * warp_threads)
    sort_segment_in_warp<2, Descending>(io, head, window, staged);
  else
    sort_segment_in_warp<4, Descending>(io, head, window, staged);
}

// Blocks of the warp kernel kept on an SM at once, where measured: 32-bit keys alone or with
// 4- or 8-byte word values. Left free, nvcc gave the two heads' kernel 60 to 79 registers; bounded,
// keys alone take 48 (5 blocks, a few bytes of spills), with 4-byte values 64, with 8-byte values
// 80. 10^6 segments of average 32 u32 pairs, H200: 0.305 ms bounded, 0.386 free. Other keys and
// values keep nvcc's choice: bounded alike, 64-bit keys, 8- and 16-bit keys and odd-sized values
// spilled up to 1.4 KB (ptxas, sm_90).
template <class Key, class Value>
inline constexpr int warp_sort_min_blocks = sizeof(Key) != 4                              ? 1
                                            : !has_values_v<Value>                          ? 5
                                            : sizeof(Value) == 4 && alignof(Value) == 4     ? 4
                                            : sizeof(Value) == 8 && alignof(Value) == 8     ? 3
                                                                                            : 1;

// Warps take 32 consecutive segments at a time, a lane each: the lane reads its offsets, copies a
// one-item segment, lists a large one; then the warp sorts the group's small ones in turn, each
// one's first registers read while the one before it is sorted.
// Offsets with end <= begin make an empty segment.
template <bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets>
__global__ void __launch_bounds__(segment_warp_block_threads, warp_sort_min_blocks<Key, Value>)
    segmented_warp_sort_kernel(segmented_io<Key, Value> io, long long num_segments, BeginOffsets begin_offsets,
                               EndOffsets end_offsets, segment_lists lists, int begin_bit, int end_bit) {
  using word_t = warp_word_t<Key>;
  constexpr int warps = segment_warp_block_threads / warp_threads;
  __shared__ alignas(16) word_t staged[warps][segment_warp_items];
  wait_for_previous_grid();
  let_next_grid_launch();
  const warp_window<Descending, Key> window(begin_bit, end_bit);
  word_t* const own_staging = staged[warp_id()];
  const long long groups = (num_segments + warp_threads - 1) / warp_threads;
  const long long warp_stride = static_cast<long long>(gridDim.x) * warps;
  for (long long group = static_cast<long long>(blockIdx.x) * warps + warp_id(); group < groups; group += warp_stride) {
    const long long segment = group * warp_threads + lane_id();
    long long first = 0, size = 0;
    if (segment < num_segments) {
      first = static_cast<long long>(begin_offsets[segment]);
      const auto last = static_cast<long long>(end_offsets[segment]);
      size = last > first ? last - first : 0;
    }
    const int tier = segment_tier_of(size);
    append_to_lists(lists, tier, segment);
    if (size == 1) {
      io.keys_out[first] = io.keys_in[first];
      if constexpr (has_values_v<Value>) io.values_out[first] = io.values_in[first];
    }
    unsigned pending = __ballot_sync(full_warp_mask, tier == tier_warp);
    const auto head_of = [&](unsigned owners) {
      const int owner = __ffs(owners) - 1;
      return read_segment_head(io, __shfl_sync(full_warp_mask, first, owner),
                               __shfl_sync(full_warp_mask, static_cast<int>(size), owner));
    };
    if (pending == 0) continue;
    // Two heads in turn, so that a read ahead lands where it is sorted from (no register copy
    // that would wait for it).
    warp_segment_head<Key, Value> even = head_of(pending), odd;
    for (pending &= pending - 1;;) {
      const bool more = pending != 0;
      if (more) odd = head_of(pending), pending &= pending - 1;
      sort_head_in_warp(io, even, window, own_staging);
      if (!more) break;
      const bool more_still = pending != 0;
      if (more_still) even = head_of(pending), pending &= pending - 1;
      sort_head_in_warp(io, odd, window, own_staging);
      if (!more_still) break;
    }
  }
}

}  // namespace upsweep::detail
