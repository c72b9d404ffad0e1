// Segmented sort, the block kernels: segments of one tile are sorted by one block in shared
// memory (by their top digit, segmented_sort_tile.cuh); larger ones by one block each in LSD digit
// passes over the segment, tile by tile, each digit's running place kept in shared memory instead
// of a look-back across blocks.
#pragma once

#include <upsweep/sort/detail/segmented_sort_tile.cuh>
#include <upsweep/sort/detail/segmented_sort_warp.cuh>

namespace upsweep::detail {

// Tiles of the two tile tiers: ballot ranking, as the radix sort's default.
using segmented_small_tile_policy =
    radix_sort_policy<256, segment_small_tile_items / 256, 256, default_look_back_delay_ns, radix_rank_method::ballot>;
using segmented_large_tile_policy =
    radix_sort_policy<512, segment_large_tile_items / 512, 256, default_look_back_delay_ns, radix_rank_method::ballot>;

// The segments a block kernel sorts: a tier's list, or every segment (rows of one width, whose
// tier the host knows).
struct listed_segments {
  const unsigned* ids;
  const unsigned* count;
  __device__ long long size() const { return *count; }
  __device__ long long operator[](long long i) const { return ids[i]; }
};
struct all_segments {
  long long count;
  __device__ long long size() const { return count; }
  __device__ long long operator[](long long i) const { return i; }
};

// Where the i-th of `segments` lies.
struct segment_extent {
  long long first;
  long long size;
};
template <class Segments, class BeginOffsets, class EndOffsets>
__device__ __forceinline__ segment_extent extent_of(const Segments& segments, const BeginOffsets& begin_offsets,
                                                    const EndOffsets& end_offsets, long long i) {
  const long long segment = segments[i];
  const auto first = static_cast<long long>(begin_offsets[segment]);
  return {first, static_cast<long long>(end_offsets[segment]) - first};
}

// Calls sort(first, size) for each of this block's share of `segments` (blocks stride over them).
template <class Segments, class BeginOffsets, class EndOffsets, class Sort>
__device__ __forceinline__ void for_each_block_segment(const Segments& segments, const BeginOffsets& begin_offsets,
                                                       const EndOffsets& end_offsets, Sort&& sort) {
  const long long count = segments.size();
  for (long long i = blockIdx.x; i < count; i += gridDim.x) {
    const segment_extent at = extent_of(segments, begin_offsets, end_offsets, i);
    sort(at.first, at.size);
  }
}

// Small tiles of pairs that sort by their top digit (keys of up to 32 bits, values staged apart:
// sorts_by_top_digit_v) load the block's next segment's keys while the current one is stored
// (H200, 1000 rows of 1000 i32 keys with int64 values: 0.0172 -> 0.0165 ms). Elsewhere the
// registers they hold cost occupancy: the large tile of u32 pairs went from 64 to 88 (one block
// an SM instead of two, 10^4 segments of avg 1000 pairs 0.230 -> 0.270 ms), and the small tile
// of keys alone from 48 to 63 (rows of 1000 keys 0.0152 -> 0.0155).
template <class Policy, class Key, class Value>
inline constexpr bool loads_next_keys_early_v = sorts_by_top_digit_v<Policy, Key, Value> &&
                                                packs_digit_place_v<Key> && has_values_v<Value> &&
                                                Policy::tile_items <= segment_small_tile_items;

// This block's share of `segments`, each one tile sorted by its top digit, the next segment's
// keys loaded during the current one's last steps.
template <class Policy, bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets, class Segments,
          class Storage>
__device__ __forceinline__ void sort_block_tiles_loading_ahead(const segmented_io<Key, Value>& io,
                                                               const BeginOffsets& begin_offsets,
                                                               const EndOffsets& end_offsets, const Segments& segments,
                                                               int begin_bit, int end_bit, Storage& s) {
  const long long count = segments.size();
  if (blockIdx.x >= count) return;
  segment_extent at = extent_of(segments, begin_offsets, end_offsets, blockIdx.x);
  Key keys[Policy::items_per_thread];
  load_striped<false>(io.keys_in + at.first, static_cast<int>(at.size), keys);
  for (long long i = blockIdx.x; i < count; i += gridDim.x) {
    const bool has_next = i + gridDim.x < count;
    const segment_extent next =
        has_next ? extent_of(segments, begin_offsets, end_offsets, i + gridDim.x) : segment_extent{0, 0};
    const next_tile_keys<Key> next_keys{has_next ? io.keys_in + next.first : nullptr, static_cast<int>(next.size)};
    sort_loaded_tile_by_top_digit<Policy, Descending>(keys, next_keys, io.keys_out + at.first,
                                                      at_offset(io.values_in, at.first),
                                                      at_offset(io.values_out, at.first), static_cast<int>(at.size),
                                                      begin_bit, end_bit, s);
    at = next;
  }
}

// Each segment sorted as one tile (segmented_sort_tile.cuh).
template <class Policy, bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets, class Segments>
__global__ void __launch_bounds__(Policy::block_threads)
    segmented_tile_sort_kernel(segmented_io<Key, Value> io, BeginOffsets begin_offsets, EndOffsets end_offsets,
                               Segments segments, int begin_bit, int end_bit) {
  auto& s = dynamic_storage<segment_tile_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  for_each_block_segment(segments, begin_offsets, end_offsets, [&](long long first, long long size) {
    sort_segment_tile<Policy, Descending>(io.keys_in + first, io.keys_out + first, at_offset(io.values_in, first),
                                          at_offset(io.values_out, first), static_cast<int>(size), begin_bit, end_bit,
                                          s);
  });
}

// The same, loading each next segment's keys early (loads_next_keys_early_v), held to the four
// blocks an SM the tile had without them (left free, ptxas gave the compiled API's float and u32
// keys 76 to 78 registers: three blocks).
template <class Policy, bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets, class Segments>
__global__ void __launch_bounds__(Policy::block_threads, 4)
    segmented_tile_sort_loading_ahead_kernel(segmented_io<Key, Value> io, BeginOffsets begin_offsets,
                                             EndOffsets end_offsets, Segments segments, int begin_bit, int end_bit) {
  auto& s = dynamic_storage<segment_tile_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  sort_block_tiles_loading_ahead<Policy, Descending>(io, begin_offsets, end_offsets, segments, begin_bit, end_bit, s);
}

// ---- segments larger than a tile -------------------------------------------------------------
template <class Policy, class Key, class Value>
struct segment_pass_storage {
  static constexpr int max_passes = (radix_traits<Key>::key_bits + radix_bits - 1) / radix_bits;
  radix_pass_storage<Policy, Key, Value> pass;
  unsigned digit_counts[max_passes][radix_digits];  // the segment's keys of each digit, per pass
  unsigned long long digit_place[radix_digits];     // the next place of each digit in the segment
};

// Where one pass reads and writes a segment's keys and values.
template <class Key, class Value>
struct segment_pass_buffers {
  const Key* keys_src;
  const Value* values_src;
  Key* keys_dst;
  Value* values_dst;
};

// Every pass's digit counts of the segment, in one read.
template <class Policy, bool Descending, class Key, class Storage>
__device__ __forceinline__ void count_segment_digits(const Key* d_keys, long long size, int begin_bit, int end_bit,
                                                     int passes, Storage& s) {
  constexpr int max_passes = Storage::max_passes;
  for (int i = threadIdx.x; i < max_passes * radix_digits; i += Policy::block_threads)
    s.digit_counts[i / radix_digits][i % radix_digits] = 0;
  __syncthreads();
  for (long long i = threadIdx.x; i < size; i += Policy::block_threads)
    count_key_digits<max_passes, Descending>(d_keys[i], begin_bit, end_bit, passes, s.digit_counts,
                                             radix_key_codec<Key>{});
  __syncthreads();
}

// digit_place[d] = the segment's keys of digits below d in this pass.
template <class Policy, class Storage>
__device__ __forceinline__ void start_digit_places(int pass, Storage& s) {
  unsigned start[1] = {threadIdx.x < radix_digits ? s.digit_counts[pass][threadIdx.x] : 0u};
  block_scan<unsigned, Policy::block_threads>(s.pass.scan).exclusive_scan(start, 0u, cuda::std::plus<unsigned>{});
  if (threadIdx.x < radix_digits) s.digit_place[threadIdx.x] = start[0];
  __syncthreads();
}

// One tile of a pass: ranked and staged as the radix sort's pass tile, then scattered to each
// digit's running place in the segment, which then moves past the tile's keys of that digit.
template <class Policy, bool Descending, bool Full, class Key, class Value, class Storage>
__device__ __forceinline__ void segment_pass_tile(const segment_pass_buffers<Key, Value>& io, long long tile_first,
                                                  int valid, int bit, int digit_bits, Storage& storage) {
  constexpr int ipt = Policy::items_per_thread;
  using pass_storage = radix_pass_storage<Policy, Key, Value>;
  auto& s = storage.pass;
  const radix_key_codec<Key> codec{};
  const pass_digits<Descending, Full, ipt, radix_key_codec<Key>> digit_of{codec, bit, digit_bits, valid};
  Key keys[ipt];
  unsigned places[ipt];
  load_striped<Full>(io.keys_src + tile_first, valid, keys);
  rank_within_warp<Policy>(keys, digit_of, places, s);
  __syncthreads();  // every warp's counts are in
  const unsigned tile_count = count_digit_in_tile<Policy>(valid, s);
  const unsigned tile_start = place_digit_in_tile<Policy>(tile_count, s);
  __syncthreads();  // every warp's first slots are in
  rank_within_tile(keys, digit_of, places, s);
  if constexpr (pass_storage::separate_values)
    copy_values_to_slots<Full>(io.values_src + tile_first, valid, places, s.value_exchange);
  __syncthreads();  // every slot is read from the counters, whose bytes the exchange reuses
  stage_in_digit_order(keys, places, s.exchange);
  if (threadIdx.x < radix_digits) {
    // Unsigned arithmetic wraps where slot 0's place lies before the segment, as in the pass.
    const unsigned long long slot0 = storage.digit_place[threadIdx.x] - tile_start;
    s.key_scatter[threadIdx.x] = reinterpret_cast<unsigned long long>(io.keys_dst) + slot0 * sizeof(Key);
    if constexpr (has_values_v<Value>)
      s.value_scatter[threadIdx.x] = reinterpret_cast<unsigned long long>(io.values_dst) + slot0 * sizeof(Value);
    storage.digit_place[threadIdx.x] += tile_count;
  }
  if constexpr (pass_storage::separate_values) wait_for_value_copies();
  __syncthreads();  // the staged keys (and values) and the places are in
  slot_digits<ipt> digits_of_slots;
  scatter_key_slots<Policy, Full, Descending, ipt, Key>(valid, bit, digit_bits, digits_of_slots, codec, s);
  if constexpr (has_values_v<Value> && !pass_storage::separate_values) {
    Value values[ipt];
    load_striped<Full>(io.values_src + tile_first, valid, values);
    __syncthreads();  // every staged key has been read
    stage_in_digit_order(values, places, s.exchange);
    __syncthreads();
  }
  if constexpr (has_values_v<Value>) scatter_values<Policy, Value>(valid, digits_of_slots, s);
  __syncthreads();  // the next tile reuses the counters and the exchange
}

template <class Policy, bool Descending, class Key, class Value, class Storage>
__device__ __forceinline__ void segment_pass(const segment_pass_buffers<Key, Value>& io, long long size, int bit,
                                             int digit_bits, Storage& s) {
  long long tile_first = 0;
  for (; tile_first + Policy::tile_items <= size; tile_first += Policy::tile_items)
    segment_pass_tile<Policy, Descending, true>(io, tile_first, Policy::tile_items, bit, digit_bits, s);
  if (tile_first < size)
    segment_pass_tile<Policy, Descending, false>(io, tile_first, static_cast<int>(size - tile_first), bit, digit_bits,
                                                 s);
}

template <class Policy, class T>
__device__ __forceinline__ void copy_by_block(const T* d_from, T* d_to, long long size) {
  if (d_from == nullptr || d_from == d_to) return;
  for (long long i = threadIdx.x; i < size; i += Policy::block_threads) d_to[i] = d_from[i];
}

// One segment, pass by pass. Pass p writes the alternate buffer when p + start is even, else the
// output, so that the last pass writes the output; the first pass never writes the output when
// it is the input (in place): an odd number of passes then ends with a copy.
template <class Policy, bool Descending, class Key, class Value, class Storage>
__device__ __forceinline__ void sort_segment_in_passes(const segmented_io<Key, Value>& io, long long first,
                                                       long long size, int begin_bit, int end_bit, Storage& s) {
  const int passes = (end_bit - begin_bit + radix_bits - 1) / radix_bits;
  const bool in_place = io.keys_in == io.keys_out || (io.values_in != nullptr && io.values_in == io.values_out);
  const int start = passes % 2 == 1 && !in_place ? 1 : 0;
  count_segment_digits<Policy, Descending>(io.keys_in + first, size, begin_bit, end_bit, passes, s);
  segment_pass_buffers<Key, Value> pass_io{io.keys_in + first, at_offset(io.values_in, first), nullptr, nullptr};
  for (int p = 0; p < passes; ++p) {
    const bool to_alt = (p + start) % 2 == 0;
    pass_io.keys_dst = (to_alt ? io.keys_alt : io.keys_out) + first;
    pass_io.values_dst = at_offset(to_alt ? io.values_alt : io.values_out, first);
    start_digit_places<Policy>(p, s);
    const int bit = begin_bit + p * radix_bits;
    segment_pass<Policy, Descending>(pass_io, size, bit, pass_digit_bits(bit, end_bit), s);
    pass_io = {pass_io.keys_dst, pass_io.values_dst, nullptr, nullptr};
  }
  copy_by_block<Policy>(passes == 0 ? io.keys_in + first : pass_io.keys_src, io.keys_out + first, size);
  copy_by_block<Policy>(passes == 0 ? at_offset(io.values_in, first) : pass_io.values_src,
                        at_offset(io.values_out, first), size);
  __syncthreads();  // the copy's reads are done before the next segment's counts are zeroed
}

template <class Policy, bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets, class Segments>
__global__ void __launch_bounds__(Policy::block_threads)
    segmented_pass_sort_kernel(segmented_io<Key, Value> io, BeginOffsets begin_offsets, EndOffsets end_offsets,
                               Segments segments, int begin_bit, int end_bit) {
  auto& s = dynamic_storage<segment_pass_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  if (threadIdx.x == 0) s.pass.zero = 0;  // read after the first tile's first barrier
  for_each_block_segment(segments, begin_offsets, end_offsets, [&](long long first, long long size) {
    sort_segment_in_passes<Policy, Descending>(io, first, size, begin_bit, end_bit, s);
  });
}

}  // namespace upsweep::detail
